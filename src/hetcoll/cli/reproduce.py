"""``hetcoll reproduce``: every quantitative claim of the four papers, with a verdict."""

from __future__ import annotations

import argparse

from hetcoll.cli._common import add_json_flag, positive_count, print_json, split_names


def register(subparsers) -> None:
    """Add the ``reproduce`` sub-command."""
    parser = subparsers.add_parser(
        "reproduce", help="reproduce the papers' figures, tables and claims, with verdicts",
        description="Evaluate every quantitative claim of the four papers (RR/HP, LMR, MLH, "
        "DRL): the paper's value, hetcoll's, a verdict (reproduced, differs, refuted, not "
        "reproducible) and the evidence.  Writes DIR/report.md, DIR/report.html, "
        "DIR/claims.json and Figures 4-6 (PNG, PDF); sweep cells go to DIR/cells/, one file "
        "each, and an interrupted run resumes from them.")
    parser.add_argument("--quick", action="store_true",
                        help="reduced scale: every claim in well under 2 minutes on 2 cores")
    parser.add_argument("--out", default="reproduce", metavar="DIR",
                        help="output folder (default: ./reproduce)")
    parser.add_argument("--only", metavar="ID,...",
                        help="claim ids or id prefixes, e.g. RR-fig4,LMR (default: all)")
    parser.add_argument("--jobs", type=positive_count, default=1, metavar="N",
                        help="sweep cells computed at once (default 1; results do not "
                        "depend on it)")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="run the sweeps' cells on this Dask scheduler "
                        "(needs dask[distributed])")
    parser.add_argument("--list", action="store_true", help="list the claim ids and stop")
    parser.add_argument("--force", action="store_true",
                        help="write into a DIR holding other files (only reproduce's own "
                        "files are written)")
    add_json_flag(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run ``hetcoll reproduce``."""
    from hetcoll.reproduce import reproduce, select_specs

    only = split_names(args.only, "--only") if args.only is not None else None
    if args.list:
        for spec in select_specs(only):
            print(f"{spec.id}\t{spec.paper}\t{spec.where}")
        return 0
    result = reproduce(args.out, quick=args.quick, only=only, jobs=args.jobs,
                       scheduler=args.scheduler, progress=not args.json, force=args.force)
    if args.json:
        print_json(result, inputs={"quick": args.quick, "out": args.out, "only": only,
                                   "jobs": args.jobs, "scheduler": args.scheduler})
        return 0
    width = max(len(c.id) for c in result.claims)
    for claim in result.claims:
        print(f"{claim.id:<{width}}  {claim.verdict:<16}  {claim.hetcoll_value}")
    print(f"{result.message} in {result.seconds:.0f} s: "
          + ", ".join(f"{v} {n}" for v, n in result.verdicts.items())
          + f"; report: {result.out / 'report.md'}")
    return 0
