"""``hetcoll tree scatterv|gatherv``: model-based scatterv/gatherv trees and their times.

``hetcoll tree scatterv PLATFORM --root R --sizes A=3,B=5,... [--algorithm NAME|all]
[--network pairwise|routed] [--json] [--gantt FILE]`` builds the trees of Dichev,
Rychkov and Lastovetsky (and the traditional ones) from the platform's Hockney model
(link latency + cost per unit) and predicts one operation's time over each.  The JSON
object is ``{"trees": {NAME: {"parent": ..., "children": ..., "time": float,
"time_exact": "p/q", "by_network": {"pairwise": {...}, "routed": {...}}}}}``: ``time``
follows ``--network``, ``by_network`` gives both models' times, and ``steady_state``
(``{"period", "period_exact", "ratio", "ratio_exact"}``, or null when the LP is over its
size guard) compares the tree's time with 1/TP of a pipelined series of the same
operation (:mod:`hetcoll.analytics.pipelining`).
"""

from __future__ import annotations

import argparse
from fractions import Fraction
from pathlib import Path

from hetcoll.cli._common import (
    add_force_flag,
    add_json_flag,
    image_path,
    print_json,
    print_warnings,
)
from hetcoll.core.errors import InputError
from hetcoll.core.numbers import fraction_str, positive_fraction
from hetcoll.core.results import exact_pair


def register(subparsers) -> None:
    from hetcoll.sim.collectives import ALGORITHMS, KINDS

    parser = subparsers.add_parser(
        "tree", help="scatterv/gatherv trees (Dichev, Rychkov, Lastovetsky) and their times",
        description="Build scatterv or gatherv communication trees (flat, binomial, DRL's "
        "model-based binomial with min-first or max-first mapping, Traff's and DRL's "
        "modified Traff) and predict one operation's time over each.")
    kinds = parser.add_subparsers(dest="kind", metavar="OPERATION", required=True)
    for kind in KINDS:
        sub = kinds.add_parser(
            kind, help=f"irregular {kind[:-1]} ({kind}) from/to one root",
            description=f"Trees for one {kind} and its predicted time.  Every process named "
            f"in --sizes (and the root) takes part, in the platform's order (the rank order).",
            epilog=f"example:\n  hetcoll tree {kind} examples/trees/hand_4proc.json --root P0 "
            f"--sizes P0=1,P1=4,P2=1,P3=8 --algorithm all",
            formatter_class=argparse.RawDescriptionHelpFormatter)
        sub.add_argument("platform", metavar="PLATFORM",
                         help="platform file (.json, .graphml or SimGrid .xml)")
        sub.add_argument("--root", required=True, help="the root process")
        sizes = sub.add_mutually_exclusive_group(required=True)
        sizes.add_argument("--sizes", metavar="A=3,B=5,...",
                           help="each process's own block (units of the link costs: bytes "
                           "for a SimGrid platform); numbers or p/q")
        sizes.add_argument("--sizes-by-speed", metavar="TOTAL",
                           help="every processor takes part, with a block proportional to its "
                           "speed (1/compute cost), rounded down to whole units, about TOTAL "
                           "units in all (DRL's setup)")
        sub.add_argument("--algorithm", metavar="NAME", default="all",
                         help=f"one of {', '.join(ALGORITHMS)}, or all (default)")
        sub.add_argument("--network", choices=("pairwise", "routed"), default="pairwise",
                         help="pairwise: independent links, one-port (default); routed: "
                         "physical links shared with max-min fairness (SimGrid routes; a "
                         "JSON platform's links are all distinct, so routed = pairwise)")
        sub.add_argument("--calibration", choices=("LV08",),
                         help="SimGrid platform: scale latency by 13.01 and bandwidth by "
                         "0.97, as SimGrid's LV08 model (default: the file's numbers)")
        sub.add_argument("--max-hosts", type=int, metavar="N",
                         help="SimGrid platform: refuse more hosts than N (default 4096)")
        sub.add_argument("--gantt", metavar="FILE",
                         help="draw one run of each tree into FILE (.png, .pdf, .svg)")
        add_force_flag(sub, "--gantt")
        add_json_flag(sub)
        sub.set_defaults(func=run)


def _load(args):
    """The platform and the routed network of ``args.platform``."""
    from hetcoll.core.platform import read_platform
    from hetcoll.core.simgrid import MAX_HOSTS, read_simgrid
    from hetcoll.sim.collectives import Network

    simgrid = Path(args.platform).suffix.lower() == ".xml"
    if not simgrid:
        for flag in ("calibration", "max_hosts"):
            if getattr(args, flag) is not None:
                raise InputError(f"--{flag.replace('_', '-')} applies to a SimGrid .xml "
                                 f"platform")
        platform = read_platform(args.platform)
        return platform, Network.from_platform(platform)
    if args.max_hosts is not None and args.max_hosts < 1:
        raise InputError(f"--max-hosts must be a positive integer, got {args.max_hosts}")
    loaded = read_simgrid(args.platform, calibration=args.calibration,
                          max_hosts=MAX_HOSTS if args.max_hosts is None else args.max_hosts)
    return loaded.platform, Network.from_simgrid(loaded)


def _sizes(args, platform) -> dict[str, Fraction]:
    from hetcoll.core.sizes import parse_sizes

    if args.sizes is not None:
        given = parse_sizes(args.sizes, platform.names)
    else:
        from hetcoll.sim.collectives import sizes_by_speed

        given = sizes_by_speed(platform, positive_fraction(args.sizes_by_speed,
                                                           "--sizes-by-speed"))
    given.setdefault(args.root, Fraction(0))
    return {name: given[name] for name in platform.names if name in given}


def run(args) -> int:
    from hetcoll.analytics.pipelining import tree_vs_steady_state
    from hetcoll.sim.collectives import ALGORITHMS, compare_trees

    if args.algorithm != "all" and args.algorithm not in ALGORITHMS:
        raise InputError(f"--algorithm {args.algorithm!r}: expected one of "
                         f"{', '.join(ALGORITHMS)} or all")
    gantt = image_path(args.gantt, args.force, "--gantt")
    platform, network = _load(args)
    platform.require(args.root, "--root")
    sizes = _sizes(args, platform)
    names = ALGORITHMS if args.algorithm == "all" else (args.algorithm,)
    runs, other = {}, {}
    for name, (tree, pairwise, routed) in compare_trees(args.kind, args.root, sizes, platform,
                                                        network, names).items():
        runs[name] = (tree, pairwise if args.network == "pairwise" else routed)
        other[name] = {"pairwise": exact_pair("time", pairwise.time),
                       "routed": exact_pair("time", routed.time)}
    period, warnings = _period(args, sizes, platform)
    bridge = {name: None if period is None else
              tree_vs_steady_state(tree, sizes, platform, time=run.time, period=period)
              for name, (tree, run) in runs.items()}
    if gantt is not None:
        _draw(runs, gantt, args)
    if args.json:
        print_json({"trees": {name: tree.to_dict() | exact_pair("time", run.time)
                              | {"by_network": other[name],
                                 "steady_state": bridge[name] and bridge[name].to_dict()}
                              for name, (tree, run) in runs.items()},
                    "warnings": warnings},
                   inputs={"platform": args.platform, "operation": args.kind,
                           "root": args.root, "sizes": sizes, "network": args.network,
                           "calibration": args.calibration})
        return 0
    print_warnings("tree", warnings)
    print(f"{args.kind} from {args.root} over {len(sizes)} processes, {args.network} network")
    if period is not None:
        print(f"steady state of a series (LP, latency amortised): 1/TP = "
              f"{float(period):.6g} per operation; 'pipelining' = tree time / (1/TP)")
    for name, (tree, run) in runs.items():
        shadow = "routed" if args.network == "pairwise" else "pairwise"
        gain = "" if bridge[name] is None else \
            f"; pipelining x{float(bridge[name].ratio):.3g}"
        print(f"{name:<20} time {float(run.time):.6g} ({fraction_str(run.time)}); "
              f"{shadow}: {other[name][shadow]['time']:.6g}{gain}")
        for node, kids in tree.children.items():
            if kids:
                print(f"    {node} -> {', '.join(kids)}")
    if gantt is not None:
        print(f"Gantt chart written to {gantt}")
    return 0


def _period(args, sizes, platform):
    """1/TP of the series (:mod:`hetcoll.analytics.pipelining`), or None and a warning
    when the LP is over its size guard."""
    from hetcoll.analytics.pipelining import steady_state_period
    from hetcoll.core.errors import LimitError

    try:
        return steady_state_period(args.kind, args.root, sizes, platform), []
    except LimitError as error:
        return None, [f"no steady-state comparison: {error}"]


def _draw(runs, path: Path, args) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from hetcoll.sim.collectives import tree_gantt

    rows = 2 * len(next(iter(runs.values()))[0].parent)
    fig, axes = plt.subplots(len(runs), 1, squeeze=False,
                             figsize=(11, len(runs) * (0.3 * rows + 1.5)))
    for (name, (_, run)), ax in zip(runs.items(), axes[:, 0], strict=True):
        tree_gantt(run, ax=ax, title=f"{args.kind} {name} ({args.network}): "
                   f"{float(run.time):.6g}")
    fig.savefig(path)
    plt.close(fig)
