"""``hetcoll schedule reduce|scatter|gather``: periodic schedule from the steady-state LP,
validated."""

from __future__ import annotations

import argparse
from pathlib import Path

from hetcoll.cli._common import (
    add_force_flag,
    add_json_flag,
    add_max_intervals_flag,
    add_scenario_parsers,
    add_solver_flags,
    image_path,
    print_json,
    print_warnings,
    scenario_operation,
    show_progress,
    solver_keywords,
)
from hetcoll.core.display import number_text
from hetcoll.core.errors import InputError
from hetcoll.core.numbers import positive_fraction

#: Trees (or paths) listed in the text output; --json lists them all.
SHOWN = 12
#: File types of --gantt.
def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "schedule", help="periodic schedule of series of reduces, scatters or gathers, exactly "
        "validated",
        description="Solve the steady-state LP, decompose it into weighted reduction trees "
        "(or scatter or gather paths), build the periodic schedule (period, edge-colouring into "
        "matchings, pipelining) and validate it by an exact run over K periods.")
    add_scenario_parsers(parser, {
        "reduce": "Periodic schedule of a series of reduces.",
        "scatter": "Periodic schedule of a series of scatters.",
        "gather": "Periodic schedule of a series of gathers.",
    }, _common_options, run)


def _common_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--fixed-period", metavar="TF",
                        help="approximate with this period (r(t) = floor(weight(t)·TF) uses of "
                        "each tree); TP - TP* <= #trees / TF")
    parser.add_argument("--periods", metavar="K", type=int, default=None,
                        help="periods of uses the executor runs (default: pipeline depth + 10)")
    parser.add_argument("--gantt", metavar="FILE",
                        help="draw one period as a Gantt chart into FILE (.png, .pdf, .svg)")
    add_max_intervals_flag(parser)
    add_solver_flags(parser)
    add_force_flag(parser, "--gantt")
    add_json_flag(parser)


def run(args) -> int:
    from hetcoll import lp
    from hetcoll.lp.executor import execute_schedule
    from hetcoll.lp.schedule import schedule_from_lp

    gantt = image_path(args.gantt, args.force, "--gantt")
    fixed = None if args.fixed_period is None else positive_fraction(args.fixed_period,
                                                                     "--fixed-period")
    if args.periods is not None and args.periods < 1:
        raise InputError(f"--periods must be at least 1, got {args.periods}")
    platform = lp.read_platform(args.platform)
    progress = show_progress(args)
    result = lp.steady_state_lp(platform, scenario_operation(args, platform),
                                progress=progress, **solver_keywords(args))
    schedule = schedule_from_lp(result, fixed_period=fixed)
    periods = args.periods if args.periods is not None else schedule.depth + 10
    limit = {} if args.max_intervals is None else {"max_busy_intervals": args.max_intervals}
    execution = execute_schedule(schedule, periods, progress=progress, **limit)
    if gantt is not None:
        _draw(schedule, gantt)

    warnings = [*schedule.warnings, *execution.warnings]
    print_warnings(f"schedule {args.kind}", warnings)
    if args.json:
        data = schedule.to_dict() | {"warnings": warnings}
        data["execution"] = {
            "valid": execution.success, "message": execution.message,
            "periods": execution.periods, "depth": execution.depth,
            "makespan": execution.makespan, "completed": execution.completed,
            "steady_throughput": execution.steady_throughput,
            "efficiency": execution.efficiency, "events_checked": execution.n_events,
        }
        if gantt is not None:
            data["gantt"] = str(gantt)
        print_json(data)
        return 0
    _print_text(schedule, execution, gantt)
    return 0


def _draw(schedule, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from hetcoll.lp.schedule import schedule_gantt

    ax = schedule_gantt(schedule)
    ax.figure.savefig(path, dpi=150)
    plt.close(ax.figure)


def _print_text(schedule, execution, gantt) -> None:
    what = schedule.operation.component_kind
    print(f"{schedule.kind} schedule: period {number_text(schedule.period)}, "
          f"throughput {number_text(schedule.throughput_exact)}; "
          f"LP optimum {number_text(schedule.lp_throughput)}")
    if schedule.fixed_period:
        print(f"  fixed period: loss TP - TP* = {number_text(schedule.loss)} "
              f"<= #{what} / TF = {number_text(schedule.loss_bound)}")
    print(f"  {schedule.n_components} {what}, {len(schedule.matchings)} matchings "
          f"(communication {number_text(sum((m.duration for m in schedule.matchings), 0))} "
          f"per period), pipeline depth {schedule.depth} periods")
    print(f"  executor: {execution.message}")
    steady = number_text(execution.steady_throughput)
    print(f"    {execution.periods} periods: {execution.completed} operations in "
          f"{number_text(execution.makespan)} time units; steady throughput {steady}; "
          f"efficiency {float(execution.efficiency):.4f}")
    for index, (component, uses) in enumerate(zip(schedule.components, schedule.uses,
                                                  strict=True)):
        if index == SHOWN:
            print(f"  ... {schedule.n_components - SHOWN} more {what} (see --json)")
            break
        hops = ", ".join(_transfer_text(t) for t in component.transfers)
        tasks = ", ".join(f"T({','.join(map(str, t.task))})@{t.processor}"
                          for t in component.tasks)
        print(f"  {what[:-1]} {index}: weight {number_text(component.weight)}, {uses} per "
              f"period: {hops}{'; ' + tasks if tasks else ''}")
    if gantt is not None:
        print(f"  Gantt chart of one period written to {gantt}")


def _transfer_text(transfer) -> str:
    value = transfer.value
    shown = f"v[{value[0]},{value[1]}]" if isinstance(value, tuple) else f"m_{value}"
    return f"{transfer.sender}->{transfer.receiver} {shown}"
