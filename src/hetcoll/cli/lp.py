"""``hetcoll lp scatter|gather|reduce``: optimal steady-state throughput of a platform."""

from __future__ import annotations

import argparse

from hetcoll.cli._common import (
    add_force_flag,
    add_json_flag,
    add_scenario_parsers,
    add_solver_flags,
    image_path,
    output_path,
    print_json,
    print_warnings,
    scenario_operation,
    show_progress,
    solver_keywords,
)
from hetcoll.core.display import number_text
from hetcoll.core.errors import InputError


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "lp", help="optimal steady-state throughput of series of scatters, gathers or reduces "
        "(LPs)",
        description="Solve the steady-state LPs SSSP / SSGP / SSRP of Legrand, Marchal and "
        "Robert with HiGHS and certify the optimum in exact rational arithmetic.")
    add_scenario_parsers(parser, {
        "scatter": "Optimal throughput of a series of scatters (LP SSSP).",
        "gather": "Optimal throughput of a series of gathers (LP SSGP, the scatter LP with "
        "the roles turned round).",
        "reduce": "Optimal throughput of a series of reduces (LP SSRP).",
    }, _common_options, run)


def _common_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--no-certify", action="store_true",
                        help="skip the exact certification (floating-point optimum only)")
    parser.add_argument("--export", metavar="FILE",
                        help="also write the readable pulp formulation to FILE (.lp or .mps)")
    parser.add_argument("--plot", metavar="FILE",
                        help="save a bar chart of port and processor utilisation (.png, .svg...)")
    add_solver_flags(parser)
    add_force_flag(parser, "--export", "--plot")
    add_json_flag(parser)


def run(args) -> int:
    """``hetcoll lp scatter|gather|reduce``: solve, export, plot, print."""
    from hetcoll import lp
    # Refuse bad output paths before any work is done.
    export = output_path(args.export, args.force, "--export", (".lp", ".mps"))
    plot = image_path(args.plot, args.force, "--plot")
    platform = lp.read_platform(args.platform)
    operation = scenario_operation(args, platform)
    result = lp.steady_state_lp(platform, operation, certify=not args.no_certify,
                                progress=show_progress(args), **solver_keywords(args))
    if export is not None:
        problem = operation.pulp(platform)
        if export.suffix.lower() == ".lp":
            problem.writeLP(str(export))
        else:
            problem.writeMPS(str(export))
    if plot is not None and result.success:
        _plot(plot, result)
    return _show(args, result)


def _plot(path, result) -> None:
    import matplotlib

    matplotlib.use("Agg")
    from hetcoll.lp import plot_utilisation

    ax = plot_utilisation(result)
    try:
        ax.figure.savefig(path)
    except ValueError as error:  # matplotlib: unknown format
        raise InputError(f"--plot {path}: {error}") from None


def _show(args, result) -> int:
    print_warnings(f"lp {args.kind}", result.warnings)
    if args.json:
        print_json(result.to_dict())
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
            print(f"  {a} -> {b}: {label} × {number_text(value)}")
    if tasks:
        print("tasks per time unit (processor: T(k,l,m)):")
        for (name, (k, split, m)), value in tasks.items():
            print(f"  {name}: T({k},{split},{m}) × {number_text(value)}")
    return 0
