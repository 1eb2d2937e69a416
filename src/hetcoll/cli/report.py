"""``hetcoll report``: the main job (:func:`hetcoll.report.report`) on the command line."""

from __future__ import annotations

from hetcoll.cli._common import (
    add_json_flag,
    add_max_intervals_flag,
    add_solver_flags,
    print_json,
    print_warnings,
    show_progress,
    solver_keywords,
)


def register(subparsers) -> None:
    from hetcoll.report import EXTRA_PERIODS

    parser = subparsers.add_parser(
        "report", help="report on platforms: solve every bundled scenario",
        description="Report on every platform file given (directories are searched for "
        "*.json and *.graphml): for each scenario in the file (its \"scatter\", \"gather\" "
        "and \"reduce\" keys), the optimal steady-state throughput, exact when certified, "
        "and the top bottleneck; then the periodic schedule built from it (period, trees "
        "or paths, matchings), validated by an exact run over the pipeline depth + "
        f"{EXTRA_PERIODS} periods.")
    parser.add_argument("paths", nargs="+", metavar="DIR_OR_FILE",
                        help="platform files, or directories holding them")
    add_max_intervals_flag(parser)
    add_solver_flags(parser)
    add_json_flag(parser)
    parser.set_defaults(func=run)


def run(args) -> int:
    from hetcoll.report import report

    result = report(args.paths, progress=show_progress(args),
                    max_busy_intervals=args.max_intervals, **solver_keywords(args))
    print_warnings("report", result.warnings)
    if args.json:
        data = result.to_dict()
        print_json({"warnings": data["warnings"], "platforms": data["platforms"]})
        return 0
    for line in result.lines():
        print(line)
    return 0
