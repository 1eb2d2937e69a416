"""``hetcoll report``: the main job (:func:`hetcoll.report.report`) on the command line."""

from __future__ import annotations

import sys

from hetcoll.cli._common import add_json_flag, print_json


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
    add_json_flag(parser)
    parser.set_defaults(func=run)


def run(args) -> int:
    from hetcoll.report import report

    result = report(args.paths, progress=not args.json and sys.stderr.isatty())
    if args.json:
        print_json({"platforms": result.to_dict()["platforms"]})
        return 0
    for line in result.lines():
        print(line)
    return 0
