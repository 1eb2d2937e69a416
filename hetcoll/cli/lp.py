"""``hetcoll lp scatter|reduce``: optimal steady-state throughput of a platform."""

from __future__ import annotations

import argparse

from hetcoll.cli._common import (
    add_force_flag,
    add_json_flag,
    output_path,
    print_json,
    split_names,
)
from hetcoll.errors import InputError
from hetcoll.exact import fraction_str


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "lp", help="optimal steady-state throughput of series of scatters or reduces (LPs)",
        description="Solve the steady-state LPs SSSP / SSRP of Legrand, Marchal and Robert "
        "with HiGHS and certify the optimum in exact rational arithmetic.")
    kinds = parser.add_subparsers(dest="lp_kind", metavar="KIND", required=True)

    scatter = kinds.add_parser(
        "scatter", help="series of scatters from one source",
        description="Optimal throughput of a series of scatters (LP SSSP). Without "
        "--source/--targets, the platform file's \"scatter\" scenario is used.")
    scatter.add_argument("platform", metavar="PLATFORM", help="platform file (.json or .graphml)")
    scatter.add_argument("--source", help="processor sending the messages")
    scatter.add_argument("--targets", help="comma-separated receiving processors")
    _common_options(scatter)
    scatter.set_defaults(func=run_scatter)

    reduce = kinds.add_parser(
        "reduce", help="series of reduces to one target",
        description="Optimal throughput of a series of reduces (LP SSRP). Without "
        "--participants/--target, the platform file's \"reduce\" scenario is used.")
    reduce.add_argument("platform", metavar="PLATFORM", help="platform file (.json or .graphml)")
    reduce.add_argument("--participants",
                        help="comma-separated owners of v_0, v_1, ... in operand order")
    reduce.add_argument("--target", help="processor receiving the result")
    _common_options(reduce)
    reduce.set_defaults(func=run_reduce)


def _common_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--no-certify", action="store_true",
                        help="skip the exact certification (floating-point optimum only)")
    parser.add_argument("--export", metavar="FILE",
                        help="also write the readable pulp formulation to FILE (.lp or .mps)")
    parser.add_argument("--plot", metavar="FILE",
                        help="save a bar chart of port and processor utilisation (.png, .svg...)")
    add_force_flag(parser, "--export", "--plot")
    add_json_flag(parser)


def _scenario(args, platform, defaults, names: tuple[str, str], flags: tuple[str, str]):
    given = [getattr(args, n) for n in names]
    if all(v is None for v in given):
        if defaults is None:
            raise InputError(f"{args.platform} has no default {args.lp_kind} scenario: "
                             f"give {flags[0]} and {flags[1]}")
        return defaults[names[0]], defaults[names[1]]
    for value, flag, other in zip(given, flags, flags[::-1], strict=True):
        if value is None:
            raise InputError(f"{flag} is required with {other}")
    return given


def _check_outputs(args) -> None:
    """Refuse bad output paths before any work is done (``args.export``, ``args.plot``
    become :class:`~pathlib.Path` or None)."""
    args.export = output_path(args.export, args.force, "--export", (".lp", ".mps"))
    args.plot = output_path(args.plot, args.force, "--plot")


def _export(args, problem) -> None:
    path = args.export
    if path.suffix.lower() == ".lp":
        problem.writeLP(str(path))
    else:
        problem.writeMPS(str(path))


def run_scatter(args) -> int:
    import lp

    _check_outputs(args)
    platform = lp.read_platform(args.platform)
    source, targets = _scenario(args, platform, platform.scatter_defaults,
                                ("source", "targets"), ("--source", "--targets"))
    if isinstance(targets, str):
        targets = split_names(targets, "--targets")
    result = lp.steady_state_scatter_lp(platform, source, targets, certify=not args.no_certify)
    if args.export:
        _export(args, lp.scatter_lp_pulp(platform, source, targets))
    return _show(args, result)


def run_reduce(args) -> int:
    import lp

    _check_outputs(args)
    platform = lp.read_platform(args.platform)
    participants, target = _scenario(args, platform, platform.reduce_defaults,
                                     ("participants", "target"), ("--participants", "--target"))
    if isinstance(participants, str):
        participants = split_names(participants, "--participants")
    result = lp.steady_state_reduce_lp(platform, participants, target,
                                       certify=not args.no_certify)
    if args.export:
        _export(args, lp.reduce_lp_pulp(platform, participants, target))
    return _show(args, result)


def _plot(args, result) -> None:
    path = args.plot
    import matplotlib

    matplotlib.use("Agg")
    from lp import plot_utilisation

    ax = plot_utilisation(result)
    try:
        ax.figure.savefig(path)
    except ValueError as error:  # matplotlib: unknown format
        raise InputError(f"--plot {path}: {error}") from None


def _rate(value) -> str:
    return fraction_str(value) if not isinstance(value, float) else f"{value:.6g}"


def _show(args, result) -> int:
    if args.plot and result.success:
        _plot(args, result)
    if args.json:
        print_json(result.as_dict())
        return 0 if result.success else 1
    print(result.summary())
    if not result.success:
        return 1
    flows = result.flows_exact if result.certified else result.flows
    tasks = result.tasks_exact if result.certified else result.tasks
    if flows:
        print("flows per time unit (from -> to: message):")
        for (a, b, kind), value in flows.items():
            label = f"v[{kind[0]},{kind[1]}]" if isinstance(kind, tuple) else f"m_{kind}"
            print(f"  {a} -> {b}: {label} × {_rate(value)}")
    if tasks:
        print("tasks per time unit (processor: T(k,l,m)):")
        for (name, (k, split, m)), value in tasks.items():
            print(f"  {name}: T({k},{split},{m}) × {_rate(value)}")
    return 0
