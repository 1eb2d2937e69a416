"""The ``hetcoll`` command line.

Each sub-command lives in its own module of this package, which exposes
``register(subparsers)``; it adds its parser and sets ``func`` to a function
taking the parsed arguments and returning the exit status.  Errors in user
input (:class:`hetcoll.InputError`) become one line on stderr and exit
status 2, never a traceback.
"""

from __future__ import annotations

import importlib
import sys

from hetcoll import __version__
from hetcoll.cli._common import HetcollArgumentParser, run_command

# One module per sub-command family, in the order ``hetcoll --help`` lists them.
SUBCOMMAND_MODULES = [
    "hetcoll.cli.report",
    "hetcoll.cli.lp",
    "hetcoll.cli.schedule",
    "hetcoll.cli.markov",
    "hetcoll.cli.simulate",
    "hetcoll.cli.analytics",
    "hetcoll.cli.imbalance",
    "hetcoll.cli.tree",
    "hetcoll.cli.mpi",
    "hetcoll.cli.reproduce",
]


def build_parser() -> HetcollArgumentParser:
    """The full argument parser, with every registered sub-command."""
    parser = HetcollArgumentParser(
        prog="hetcoll",
        description="Collective communications on heterogeneous platforms: steady-state LPs, "
        "periodic schedules, Markov analysis, simulation and approximation bounds.",
    )
    parser.add_argument("--version", action="version", version=f"hetcoll {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in SUBCOMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``hetcoll`` console script."""
    try:
        args = build_parser().parse_args(argv)
    except KeyboardInterrupt:  # Ctrl-C while starting up: one line, no traceback
        sys.stderr.write("hetcoll: interrupted\n")
        return 130
    return run_command(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
