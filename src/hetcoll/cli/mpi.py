"""``hetcoll mpi run|calibrate|compare``: the collectives over real MPI ranks.

``hetcoll mpi run reduce|scatterv|gatherv --np N --algorithm NAME|all [--elements N]
[--op sum|matmul] [--delays d0,d1,... | --slow RANK:DELAY | --gaussian MEAN,SD |
--gamma-skew K,THETA] [--root R] [--repeats R]
[--seed S] [--json]`` launches ``mpiexec -n N`` (or, run under ``mpiexec``, uses that
world), runs MLH's protocol and checks every result: a wrong one exits 1.  The JSON
object is ``{"algorithms": {NAME: {"correct", "T1", ..., "T5", "T1_root", "repeats":
[...]}}, "np": N, "mpi_library": "...", "clock_offsets": [...]}`` (seconds).

``hetcoll mpi calibrate --np N --out platform.json`` fits Hockney's alpha and beta per
pair from ping-pongs and the operator's gamma; ``hetcoll mpi compare scatterv|gatherv
--np N --platform platform.json`` puts the pairwise predictions beside measured times.

Without the ``mpi`` extra, every ``hetcoll mpi`` command exits 2 with one line saying
how to install it.
"""

from __future__ import annotations

import argparse
import json

from hetcoll.cli._common import (
    _seconds,
    add_force_flag,
    add_json_flag,
    add_skew_flags,
    image_path,
    output_path,
    parse_skew,
    positive_count,
    print_json,
    split_names,
)
from hetcoll.core.errors import InputError

_COLLECTIVES = ("reduce", "scatterv", "gatherv")


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "mpi", help="run the collectives over real MPI ranks, calibrate, compare",
        description="Run reduce, scatterv and gatherv algorithms over MPI (mpi4py; "
        "pip install 'hetcoll[mpi]'), fit a platform from ping-pongs, and compare "
        "predictions with measurements.")
    parser.set_defaults(func=_no_action, parser=parser)
    actions = parser.add_subparsers(dest="action", metavar="ACTION")

    run = actions.add_parser(
        "run", help="run algorithms under MLH's protocol and check every result",
        description="Launch mpiexec -n N (or use the current MPI world), run each "
        "algorithm once as a warm-up and then --repeats times after per-rank delays, "
        "check every result, and report MLH's T1-T5 and T1_root (seconds).",
        epilog="example:\n  hetcoll mpi run reduce --np 4 --algorithm all --slow 1:0.05",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    run.add_argument("collective", choices=_COLLECTIVES)
    _common_flags(run)
    run.add_argument("--algorithm", metavar="NAME", default="all",
                     help="reduce: linear, binomial, rabenseifner, binomial-stat, "
                     "fibonacci-stat, tree-dyn, noncommut-tree-dyn, local-reduce, mpi; "
                     "scatterv/gatherv: "
                     "flat, binomial, binomial-min-first, binomial-max-first, traff, "
                     "traff-model, mpi; or all (default)")
    run.add_argument("--op", choices=("sum", "matmul"), default="sum",
                     help="reduce: commutative sum of doubles (default) or the "
                     "non-commutative product of 2x2 matrices mod 65521")
    add_skew_flags(run)
    run.add_argument("--repeats", type=positive_count, default=3,
                     help="timed runs after the warm-up (default 3)")
    run.add_argument("--platform", metavar="FILE",
                     help="scatterv/gatherv: the platform of the model-based trees, "
                     "processors P0..P(N-1) (as hetcoll mpi calibrate writes); default: "
                     "identical links")
    add_json_flag(run)
    run.set_defaults(func=_run)

    calibrate = actions.add_parser(
        "calibrate", help="fit Hockney alpha, beta per pair and the operator's gamma",
        description="Ping-pong between every pair of ranks over a range of sizes, fit "
        "t = alpha + beta m per pair (least squares), time the operator's combine "
        "(gamma, seconds per element), and write a platform file (processors P0.., "
        "sizes in float64 elements) that every hetcoll command reads.",
        epilog="example:\n  hetcoll mpi calibrate --np 4 --out platform.json",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    calibrate.add_argument("--np", type=positive_count, required=True,
                           help="number of ranks (2 at least)")
    calibrate.add_argument("--out", required=True, metavar="FILE",
                           help="the platform file to write (.json)")
    calibrate.add_argument("--sizes-range", metavar="M1,M2,...",
                           help="message sizes in float64 elements (default "
                           "1,1024,16384,65536,262144)")
    calibrate.add_argument("--rounds", type=positive_count, default=10,
                           help="ping-pongs per pair and size; the fastest counts (default 10)")
    calibrate.add_argument("--op", choices=("sum", "matmul"), default="sum",
                           help="the operator whose gamma is measured (default sum)")
    _limit_flags(calibrate)
    add_force_flag(calibrate, "--out")
    add_json_flag(calibrate)
    calibrate.set_defaults(func=_calibrate)

    compare = actions.add_parser(
        "compare", help="predicted (calibrated platform) against measured times",
        description="Run the algorithms over MPI and predict each on the calibrated "
        "platform; report both and the relative error (predicted - measured) / measured.  "
        "Reduce: the message-level simulator of hetcoll imbalance, with the same start "
        "delays (--delays, --slow), T1_root.  Scatterv/gatherv: the pairwise tree "
        "predictor, no delays, T3 (the last rank's end after the first rank's start).",
        epilog="example:\n  hetcoll mpi calibrate --np 4 --out platform.json\n"
        "  hetcoll mpi compare scatterv --np 4 --platform platform.json --plot cmp.png",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    compare.add_argument("collective", choices=_COLLECTIVES)
    _common_flags(compare)
    compare.add_argument("--delays", metavar="D0,D1,...",
                         help="reduce: each rank's start delay in seconds")
    compare.add_argument("--slow", metavar="RANK:DELAY", help="reduce: one slow rank")
    compare.add_argument("--platform", required=True, metavar="FILE",
                         help="the calibrated platform (hetcoll mpi calibrate --out)")
    compare.add_argument("--algorithm", metavar="NAME", default="all",
                         help="a tree builder, mpi, or all (default)")
    compare.add_argument("--repeats", type=positive_count, default=3,
                         help="timed runs after the warm-up (default 3)")
    compare.add_argument("--plot", metavar="FILE",
                         help="bars of predicted and measured times (.png, .pdf, .svg)")
    add_force_flag(compare, "--plot")
    add_json_flag(compare)
    compare.set_defaults(func=_compare)


def _common_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--np", type=positive_count, required=True, help="number of ranks")
    parser.add_argument("--elements", type=positive_count, default=1024,
                        help="reduce: each rank's vector length; scatterv/gatherv: each "
                        "rank's block (float64 elements; default 1024)")
    parser.add_argument("--blocks", metavar="b0,b1,...",
                        help="scatterv/gatherv: each rank's block in rank order (irregular "
                        "sizes; overrides --elements)")
    parser.add_argument("--root", type=int, default=0, help="the root rank (default 0)")
    parser.add_argument("--seed", type=int, default=0,
                        help="seeds the data and random delays (default 0)")
    _limit_flags(parser)


def _limit_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--timeout", type=_seconds, default=600.0,
                        help="seconds before mpiexec is stopped (default 600)")
    parser.add_argument("--max-ranks", type=positive_count, default=None,
                        help="refuse more ranks than this (default 64)")


def _require_mpi() -> None:
    from hetcoll.mpi import launch

    if not launch.mpi_available():
        raise InputError(launch.INSTALL_HINT)


def _no_action(args) -> int:
    _require_mpi()
    args.parser.print_help()
    return 2


def _limits(args) -> dict:
    from hetcoll.mpi.launch import MAX_RANKS

    return {"timeout": args.timeout,
            "max_ranks": MAX_RANKS if args.max_ranks is None else args.max_ranks}


def _whole_list(text: str, flag: str) -> list[int]:
    values = []
    for item in split_names(text, flag):
        if not item.isdigit() or len(item) > 12:
            raise InputError(f"{flag}: expected whole numbers >= 0, got {item!r}")
        values.append(int(item))
    return values


def skew_delays(args, n_ranks: int, repeats: int) -> list[list[float]]:
    """Each repeat's per-rank delays (seconds) from the skew flags (as ``hetcoll
    imbalance run``'s): fixed ones repeat, random ones are drawn per repeat from
    ``--seed``."""
    import numpy as np

    from hetcoll.sim.imbalance.skew import DelayVector

    skew = parse_skew(args)
    if skew.random:
        draws = skew.sample(np.random.default_rng(args.seed), repeats, n_ranks)
        return [[float(d) for d in row] for row in draws]
    if skew == DelayVector(()):
        return [[0.0] * n_ranks] * repeats
    try:
        vector = skew.vector(n_ranks)
    except InputError as error:
        flag = "--delays" if isinstance(skew, DelayVector) else "--slow"
        raise InputError(f"{flag}: {error}") from None
    return [[float(d) for d in vector]] * repeats


def _algorithms(args, names) -> list[str]:
    return list(names) if args.algorithm == "all" else [args.algorithm]


def _blocks(args) -> list[int] | None:
    if args.blocks is None:
        return None
    return _whole_list(args.blocks, "--blocks")


def _platform(path: str | None):
    if path is None:
        return None
    from hetcoll.core.platform import read_platform

    return read_platform(path)


def _run(args) -> int:
    _require_mpi()
    from hetcoll.mpi import ALGORITHMS
    from hetcoll.mpi.launch import (
        VCOLLECTIVE_ALGORITHMS,
        output_rank,
        run_reduce,
        run_vcollective,
    )

    delays = skew_delays(args, args.np, args.repeats)
    common = {"root": args.root, "delays": delays, "seed": args.seed} | _limits(args)
    if args.collective == "reduce":
        for flag in ("blocks", "platform"):
            if getattr(args, flag) is not None:
                raise InputError(f"--{flag} applies to scatterv and gatherv, not reduce")
        result = run_reduce(args.np, _algorithms(args, ALGORITHMS), elements=args.elements,
                            operator=args.op, **common)
    else:
        if args.op != "sum":
            raise InputError("--op applies to reduce (scatterv/gatherv move doubles)")
        result = run_vcollective(args.collective, args.np,
                                 _algorithms(args, [*VCOLLECTIVE_ALGORITHMS, "mpi"]),
                                 blocks=_blocks(args), elements=args.elements,
                                 platform=_platform(args.platform), **common)
    if not output_rank():
        return result.status
    if args.json:
        print_json(result, inputs={"collective": args.collective, "delays": delays,
                                   "elements": args.elements, "root": args.root,
                                   "repeats": args.repeats, "seed": args.seed})
    else:
        print(f"{args.collective} on {result.np} ranks ({result.mpi_library}); times in ms,"
              f" means over {args.repeats} runs")
        print(f"{'algorithm':20} {'correct':8}" + "".join(
            f"{key:>9}" for key in ("T1", "T2", "T3", "T4", "T5", "T1_root")))
        for name, row in result.algorithms.items():
            print(f"{name:20} {'yes' if row['correct'] else 'NO':8}" + "".join(
                f"{1e3 * row[key]:9.3f}" for key in ("T1", "T2", "T3", "T4", "T5",
                                                     "T1_root")))
        print(result.message)
    return result.status


def _calibrate(args) -> int:
    _require_mpi()
    from hetcoll.core.platform import platform_from_dict
    from hetcoll.mpi.calibrate import DEFAULT_SIZES
    from hetcoll.mpi.launch import output_rank, run_calibration

    out = output_path(args.out, args.force, "--out")
    sizes = (DEFAULT_SIZES if args.sizes_range is None
             else _whole_list(args.sizes_range, "--sizes-range"))
    report = run_calibration(args.np, sizes=sizes, rounds=args.rounds, operator=args.op,
                             **_limits(args))
    platform_from_dict(report["platform"])  # what we write must read back
    if not output_rank():
        return 0
    out.write_text(json.dumps(report["platform"], indent=2) + "\n", encoding="utf-8")
    if args.json:
        print_json({"platform": report["platform"], "samples": report["samples"],
                    "np": report["np"], "mpi_library": report["mpi_library"],
                    "out": str(out)})
    else:
        print(f"wrote {out}: {len(report['platform']['links'])} links, "
              f"{report['np']} processors ({report['mpi_library']})")
        for link in report["platform"]["links"]:
            print(f"  {link['from']}->{link['to']}: alpha {1e6 * link['latency']:.2f} us, "
                  f"beta {1e9 * link['cost']:.3f} ns/element")
    return 0


def _compare(args) -> int:
    _require_mpi()
    from hetcoll.mpi.compare import compare_reduce, compare_vcollective, comparison_plot
    from hetcoll.mpi.launch import VCOLLECTIVE_ALGORITHMS, output_rank

    plot = image_path(args.plot, args.force, "--plot")
    platform = _platform(args.platform)
    common = {"root": args.root, "repeats": args.repeats, "seed": args.seed} | _limits(args)
    if args.collective == "reduce":
        from hetcoll.mpi import ALGORITHMS

        if args.blocks is not None:
            raise InputError("--blocks applies to scatterv and gatherv, not reduce")
        args.gaussian = args.gamma_skew = None  # compare takes fixed delays only
        delays = skew_delays(args, args.np, 1)[0]
        inputs = {"elements": args.elements, "delays": delays}
        result = compare_reduce(args.np, platform, _algorithms(args, ALGORITHMS),
                                elements=args.elements, delays=delays, **common)
    else:
        if args.delays is not None or args.slow is not None:
            raise InputError("--delays and --slow apply to reduce: the tree predictor "
                             "starts every rank at 0")
        blocks = _blocks(args) or [args.elements] * args.np
        inputs = {"blocks": blocks}
        result = compare_vcollective(
            args.collective, args.np, platform,
            _algorithms(args, [*VCOLLECTIVE_ALGORITHMS, "mpi"]), blocks=blocks, **common)
    if not output_rank():
        return result.status
    if plot is not None:
        import matplotlib

        matplotlib.use("Agg")
        ax = comparison_plot(result, title=f"{args.collective}, np = {result.np}")
        ax.figure.tight_layout()
        ax.figure.savefig(plot)
    if args.json:
        print_json(result, inputs={"collective": args.collective, "platform": args.platform,
                                   "repeats": args.repeats} | inputs)
    else:
        metric = "T1_root" if args.collective == "reduce" else "T3"
        print(f"{args.collective} on {result.np} ranks: predicted (calibrated platform) "
              f"and measured {metric}, ms")
        for name, row in result.algorithms.items():
            predicted = ("        -" if row["predicted"] is None
                         else f"{1e3 * row['predicted']:9.3f}")
            error = ("" if row["relative_error"] is None
                     else f"{100 * row['relative_error']:+7.1f}%")
            print(f"{name:20} {predicted} {1e3 * row['measured']:9.3f} {error}"
                  f"{'' if row['correct'] else '  WRONG'}")
        print(result.message)
    return result.status
