"""Helpers shared by the sub-command modules."""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from hetcoll import __version__
from hetcoll.core.errors import HetcollError, InputError
from hetcoll.core.results import to_jsonable

__all__ = [
    "REPEATED_NAME_OPTIONS",
    "SCENARIO_OPTIONS",
    "HetcollArgumentParser",
    "add_force_flag",
    "add_json_flag",
    "add_max_intervals_flag",
    "image_path",
    "add_scenario_arguments",
    "add_scenario_parsers",
    "add_solver_flags",
    "output_path",
    "parse_size_items",
    "parse_sizes",
    "positive_count",
    "print_json",
    "print_warnings",
    "read_costs_option",
    "resolve_scenario",
    "run_command",
    "scenario_operation",
    "show_progress",
    "solver_keywords",
    "split_names",
    "to_jsonable",
]


class HetcollArgumentParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose usage errors are one line and exit 2."""

    def error(self, message: str):  # noqa: D401 - argparse API
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        sys.exit(2)


def add_json_flag(parser: argparse.ArgumentParser) -> None:
    """Add the ``--json`` flag every sub-command has."""
    parser.add_argument("--json", action="store_true",
                        help="print one machine-readable JSON object instead of text")


def add_force_flag(parser: argparse.ArgumentParser, *flags: str) -> None:
    """Add ``--force``, which lets the output options ``flags`` overwrite an existing file.

    Pair it with :func:`output_path`, which refuses an existing file without ``--force``.
    """
    parser.add_argument("--force", action="store_true",
                        help=f"let {' and '.join(flags)} overwrite an existing FILE")


def output_path(value: str | None, force: bool, flag: str,
                suffixes: Sequence[str] = ()) -> Path | None:
    """Check an output file given with ``flag`` before any work is done.

    Parameters
    ----------
    value : str or None
        The file name given on the command line (None: option not given).
    force : bool
        The ``--force`` flag (:func:`add_force_flag`): overwrite an existing file.
    flag : str
        The option, e.g. ``"--gantt"``, named in error messages.
    suffixes : sequence of str, optional
        Accepted lower-case file name suffixes (``".png"``...); any when empty.

    Returns
    -------
    Path or None
        None when ``value`` is None.

    Raises
    ------
    InputError
        Naming ``flag`` and the file: empty name, wrong suffix, a directory, an
        existing file without ``force``, or a parent directory that does not exist.
    """
    if value is None:
        return None
    if not value.strip():
        raise InputError(f"{flag}: expected a file name, got {value!r}")
    path = Path(value)
    if suffixes and path.suffix.lower() not in suffixes:
        listed = (f"{', '.join(suffixes[:-1])} or {suffixes[-1]}" if len(suffixes) > 1
                  else suffixes[0])
        raise InputError(f"{flag} {value}: use a {listed} file name")
    if path.is_dir():
        raise InputError(f"{flag} {value} is a directory, not a file name")
    if path.exists() and not force:
        raise InputError(f"{flag} {value} exists; add --force to overwrite it")
    if not path.parent.is_dir():
        raise InputError(f"{flag} {value}: directory {path.parent} does not exist")
    return path



def image_path(value: str | None, force: bool, flag: str) -> Path | None:
    """Like :func:`output_path`, for a plot: also check matplotlib can write its format.

    Raises
    ------
    InputError
        As :func:`output_path`, and for a suffix that is not an image format matplotlib
        writes, or no suffix at all (matplotlib would then write ``FILE.png``, another file
        than the one asked for).
    """
    path = output_path(value, force, flag)
    if path is None:
        return None
    from matplotlib.backend_bases import FigureCanvasBase

    formats = FigureCanvasBase.get_supported_filetypes()
    if path.suffix[1:].lower() not in formats:
        shown = repr(path.suffix) if path.suffix else "(no extension)"
        raise InputError(f"{flag} {path}: unknown image format {shown} (use one of "
                         f"{', '.join('.' + f for f in sorted(formats))})")
    return path

def read_costs_option(path: str):
    """The cost file of ``--costs`` (:func:`sim.read_cost_file`), errors naming ``--costs``."""
    from hetcoll.sim import read_cost_file

    try:
        return read_cost_file(path)
    except InputError as error:
        raise InputError(f"--costs {error}") from None


#: The scenario options of ``hetcoll lp`` and ``hetcoll schedule``, per kind, in the
#: order of the operation's roles (:data:`hetcoll.lp.SCENARIO_ROLES`): (attribute, flag,
#: help, is a comma-separated list).
SCENARIO_OPTIONS: dict[str, tuple[tuple[str, str, str, bool], ...]] = {
    "scatter": (("source", "--source", "processor sending the messages", False),
                ("targets", "--targets", "comma-separated receiving processors", True)),
    "gather": (("sources", "--sources", "comma-separated sending processors", True),
               ("target", "--target", "processor receiving the messages", False)),
    "reduce": (("participants", "--participants",
                "comma-separated owners of v_0, v_1, ... in operand order", True),
               ("target", "--target", "processor receiving the result", False)),
}

#: The repeatable one-name flag of each list role (a name may hold commas or spaces):
#: role -> (flag, attribute, help).  Its names follow those of the comma list.
REPEATED_NAME_OPTIONS: dict[str, tuple[str, str, str]] = {
    "targets": ("--target", "target_names",
                "one receiving processor, whatever its name holds (commas, spaces); "
                "repeat for several, after those of --targets"),
    "sources": ("--source", "source_names",
                "one sending processor, whatever its name holds (commas, spaces); "
                "repeat for several, after those of --sources"),
    "participants": ("--participant", "participant_names",
                     "one participant, whatever its name holds (commas, spaces); repeat "
                     "in operand order, after those of --participants"),
}


#: The kinds of scenario that take ``--sizes``, and the role whose processes it sizes.
SIZED_SCENARIOS = {"scatter": "target", "gather": "source"}

#: ``--help`` line of each scenario kind.
SCENARIO_HELP = {"scatter": "series of scatters from one source",
                 "gather": "series of gathers to one target",
                 "reduce": "series of reduces to one target"}


def add_scenario_arguments(parser: argparse.ArgumentParser, kind: str) -> None:
    """Add ``PLATFORM`` and the scenario options of ``kind`` (``"scatter"``: ``--source``,
    ``--targets``; ``"gather"``: ``--sources``, ``--target``; ``"reduce"``:
    ``--participants``, ``--target``), and the repeatable one-name flag of the list role
    (:data:`REPEATED_NAME_OPTIONS`: ``--target``, ``--source`` or ``--participant``);
    scatter and gather also get ``--sizes`` and the repeatable ``--size``."""
    parser.add_argument("platform", metavar="PLATFORM",
                        help="platform file (.json, .graphml or SimGrid .xml)")
    for role, flag, text, is_list in SCENARIO_OPTIONS[kind]:
        parser.add_argument(flag, help=text)
        if is_list:
            single, dest, help_text = REPEATED_NAME_OPTIONS[role]
            parser.add_argument(single, dest=dest, metavar="NAME", action="append",
                                help=help_text)
    if kind in SIZED_SCENARIOS:
        owners = SIZED_SCENARIOS[kind]
        parser.add_argument("--sizes", metavar="A=3,B=1/2,...",
                            help=f"message size of some {owners}s, exact (ints, decimals, "
                            f"p/q); unnamed {owners}s get 1 (default: the platform "
                            f"file's scenario sizes, else all 1)")
        parser.add_argument("--size", metavar="NAME=SIZE", action="append",
                            help=f"message size of one {owners}, whatever its name holds "
                            f"(commas, spaces: the size follows the last '='); repeatable, "
                            f"with or without --sizes")


def add_scenario_parsers(parser: argparse.ArgumentParser, descriptions: dict[str, str],
                         options: Callable[[argparse.ArgumentParser], None],
                         func: Callable[[argparse.Namespace], int]) -> None:
    """Add one ``KIND`` sub-parser per key of ``descriptions`` (``"scatter"``, ...).

    Each gets :func:`add_scenario_arguments`, then ``options(sub_parser)``, and runs
    ``func``; the parsed ``args.kind`` is the kind.  ``descriptions[kind]`` starts the
    ``--help`` description, which goes on to say which platform-file scenario is the
    default.
    """
    kinds = parser.add_subparsers(dest="kind", metavar="KIND", required=True)
    for kind, description in descriptions.items():
        (_, first, _, _), (_, second, _, _) = SCENARIO_OPTIONS[kind]
        sub = kinds.add_parser(kind, help=SCENARIO_HELP[kind],
                               description=f"{description} Without {first}/{second}, the "
                               f"platform file's \"{kind}\" scenario is used.")
        add_scenario_arguments(sub, kind)
        options(sub)
        sub.set_defaults(func=func)


def _given_roles(args: argparse.Namespace, kind: str) -> tuple[dict[str, Any], dict[str, str]]:
    """The roles typed on the command line (lists split, then the repeated one-name
    flag's names) and the flag(s) of each role, for error messages."""
    given, labels = {}, {}
    for name, flag, _, is_list in SCENARIO_OPTIONS[kind]:
        value = getattr(args, name)
        labels[name] = flag
        if is_list:
            single, dest, _ = REPEATED_NAME_OPTIONS[name]
            repeated = getattr(args, dest, None)
            if repeated is not None:
                labels[name] = f"{flag}/{single}"
                for item in repeated:
                    if not item.strip():
                        raise InputError(f"{single}: expected a processor name, got {item!r}")
            if value is not None or repeated is not None:
                value = ([] if value is None else split_names(value, flag)) + (repeated or [])
        given[name] = value
    return given, labels


def resolve_scenario(args: argparse.Namespace, platform: Any, kind: str) -> tuple[Any, Any]:
    """The roles of the ``kind`` scenario given on the command line, else the file's.

    :func:`hetcoll.lp.scenario_roles` with the flags named in its errors.

    Returns
    -------
    tuple
        ``(source, targets)``, ``(sources, target)`` or ``(participants, target)``, the
        lists split (:func:`split_names`).

    Raises
    ------
    InputError
        If only one of the two options is given, a list is empty, or neither is
        given and the platform file has no default scenario of this kind.
    """
    from hetcoll.lp.scenarios import scenario_roles

    given, labels = _given_roles(args, kind)
    return scenario_roles(platform, kind, given, labels=labels, where=args.platform)


def add_max_intervals_flag(parser: argparse.ArgumentParser) -> None:
    """Add ``--max-intervals``, the size guard of the exact run of a schedule."""
    # The default is the library's, hetcoll.lp.executor.MAX_BUSY_INTERVALS.
    parser.add_argument("--max-intervals", metavar="N", type=positive_count,
                        help="refuse executor runs that check more than N busy intervals "
                        "(default 200,000)")


def show_progress(args: argparse.Namespace) -> bool:
    """Progress bars on: standard error is a terminal and ``--json`` is off."""
    return not args.json and sys.stderr.isatty()


def add_solver_flags(parser: argparse.ArgumentParser) -> None:
    """Add ``--time-limit``, ``--verbose`` and ``--max-variables``, for every LP solve."""
    parser.add_argument("--time-limit", metavar="SECONDS", type=_seconds,
                        help="stop HiGHS after SECONDS (the result then says so; exit 1)")
    parser.add_argument("--verbose", action="store_true",
                        help="show HiGHS's log on standard error")
    # The default is the library's, hetcoll.lp.highs.MAX_LP_VARIABLES (not imported
    # here: it would load HiGHS for every command's --help).
    parser.add_argument("--max-variables", metavar="N", type=positive_count,
                        help="refuse LPs with more than N variables before solving "
                        "(default 500,000)")


def solver_keywords(args: argparse.Namespace) -> dict[str, Any]:
    """The keywords of the LP functions given by :func:`add_solver_flags`'s flags."""
    options: dict[str, Any] = {}
    if args.time_limit is not None:
        options["time_limit"] = args.time_limit
    if args.verbose:
        options["output_flag"] = True
    limit = {} if args.max_variables is None else {"max_variables": args.max_variables}
    return {"solver_options": options} | limit


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a number of seconds, got {text!r}") from None
    if not 0 < value < 1e9:
        raise argparse.ArgumentTypeError(f"expected seconds in (0, 1e9), got {text!r}")
    return value


def positive_count(text: str) -> int:
    """argparse type: a whole number >= 1 (at most 18 digits)."""
    if not text.isdigit() or int(text) < 1 or len(text) > 18:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, got {text!r}")
    return int(text)


def scenario_operation(args: argparse.Namespace, platform: Any) -> Any:
    """The typed operation of ``args.kind``: roles and ``--sizes`` from the command line,
    else the platform file's scenario (:func:`hetcoll.lp.resolve_operation`).

    Raises
    ------
    InputError
        As :func:`resolve_scenario` and :func:`parse_sizes`, and for a size naming a
        process that is not a target (source).
    """
    from hetcoll.lp.scenarios import resolve_operation

    given, labels = _given_roles(args, args.kind)
    sizes = parse_sizes(getattr(args, "sizes", None), "--sizes")
    repeated = getattr(args, "size", None)
    if repeated is not None:
        sizes = parse_size_items(repeated, "--size", sizes)
    return resolve_operation(platform, args.kind, given, sizes,
                             labels=labels, where=args.platform)


def parse_sizes(text: str | None, flag: str) -> dict[str, Any] | None:
    """``"A=3,B=1/2"`` -> ``{"A": Fraction(3), "B": Fraction(1, 2)}`` (None stays None).

    Sizes are exact and positive (:func:`hetcoll.core.sizes.parse_sizes`); the names
    are checked by the operation they are given to.

    Raises
    ------
    InputError
        Naming ``flag`` and the item: no ``=``, an empty name, a name given twice, or
        a size that is not a positive number.

    Examples
    --------
    >>> parse_sizes("A=3, B=1/2", "--sizes")
    {'A': Fraction(3, 1), 'B': Fraction(1, 2)}
    """
    from hetcoll.core.sizes import parse_sizes as parse

    return None if text is None else parse(text, None, flag, positive=True)


def parse_size_items(items: Sequence[str], flag: str,
                     sizes: dict[str, Any] | None = None) -> dict[str, Any]:
    """``["A=3", "x,y=1/2"]`` -> ``{"A": Fraction(3), "x,y": Fraction(1, 2)}``.

    Each item is ``NAME=SIZE``, split at its *last* ``=`` (a size holds none), so a
    name may hold commas, spaces or ``=``; blanks around either part are dropped
    (:func:`hetcoll.core.sizes.parse_size_items`, positive sizes).

    Parameters
    ----------
    items : sequence of str
    flag : str
        The option, named in error messages.
    sizes : dict, optional
        Sizes given before (e.g. by ``--sizes``), added to; a name may not repeat.

    Returns
    -------
    dict name -> Fraction

    Raises
    ------
    InputError
        As :func:`parse_sizes`.

    Examples
    --------
    >>> parse_size_items(["x,y=1/2", "P 0 = 3"], "--size")
    {'x,y': Fraction(1, 2), 'P 0': Fraction(3, 1)}
    """
    from hetcoll.core.sizes import parse_size_items as parse

    return parse(items, None, flag, positive=True, sizes=sizes)


def split_names(text: str, what: str) -> list[str]:
    """Split a comma-separated command-line list (``"P1,P2"``).

    Raises
    ------
    InputError
        If the list is empty or has an empty item.
    """
    items = [item.strip() for item in text.split(",")]
    if not text.strip() or any(not item for item in items):
        raise InputError(f"{what}: expected a non-empty comma-separated list, got {text!r}")
    return items


def print_json(value: Any, *, inputs: dict[str, Any] | None = None) -> None:
    """Print ``value`` as one indented JSON object on stdout, in the house envelope.

    The object starts with ``status`` (0: success), ``message``, ``hetcoll_version``
    and ``warnings`` (legal but suspicious results, one sentence each; also printed on
    stderr by :func:`print_warnings`), then ``inputs`` (what defines the run: n, seed,
    distributions...) when given, then the keys of ``value``.  ``value`` is a dict or a
    result (:class:`hetcoll.core.results.Result`); its own ``status`` and ``message``,
    when it has them, fill the envelope.  Exact numbers are ``"p/q"`` strings and no
    NaN or Infinity is ever printed (:func:`hetcoll.core.results.to_jsonable`).
    """
    data = to_jsonable(value)
    if not isinstance(data, dict):
        raise TypeError(f"--json prints one object, got {type(data).__name__}")
    envelope = {"status": data.pop("status", 0), "message": data.pop("message", "ok"),
                "hetcoll_version": __version__, "warnings": data.pop("warnings", [])}
    if inputs is not None:
        envelope["inputs"] = to_jsonable(inputs)
    envelope |= data
    json.dump(envelope, sys.stdout, indent=2, allow_nan=False)
    sys.stdout.write("\n")


def print_warnings(command: str, warnings: Sequence[str]) -> None:
    """One line on stderr per warning: ``hetcoll COMMAND: warning: ...``."""
    for warning in warnings:
        sys.stderr.write(f"hetcoll {command}: warning: {warning}\n")


def run_command(args: argparse.Namespace) -> int:
    """Run the chosen sub-command; bad input becomes one line and exit 2."""
    prog = f"hetcoll {args.command}"
    try:
        status = args.func(args)
    except HetcollError as error:
        sys.stderr.write(f"{prog}: error: {error}\n")
        return error.exit_status
    except BrokenPipeError:
        # The reader (e.g. `| head`) closed the pipe: not an error of ours. Point stdout
        # at /dev/null so the interpreter's final flush does not complain again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as error:
        sys.stderr.write(f"{prog}: error: {error.strerror or error}: {error.filename or ''}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write(f"{prog}: interrupted\n")
        sys.stderr.flush()
        if threading.active_count() > 1:
            # A solver thread (HiGHS) may still be running until its next interrupt
            # check: leave now instead of waiting for it at interpreter exit.
            sys.stdout.flush()
            os._exit(130)
        return 130
    return int(status or 0)


def add_skew_flags(parser: argparse.ArgumentParser) -> None:
    """The start-skew flags of ``hetcoll imbalance run`` and ``hetcoll mpi run``
    (mutually exclusive): ``--delays``, ``--slow``, ``--gaussian``, ``--gamma-skew``."""
    skew = parser.add_mutually_exclusive_group()
    skew.add_argument("--delays", metavar="D0,D1,...", help="one delay per process (seconds "
                      "for hetcoll mpi)")
    skew.add_argument("--slow", metavar="RANK:DELAY", help="one slow process")
    skew.add_argument("--gaussian", metavar="MEAN,SD", help="delays ~ N(MEAN, SD) truncated "
                      "at 0")
    skew.add_argument("--gamma-skew", metavar="K,THETA", help="delays ~ Gamma(shape K, scale "
                      "THETA)")


def parse_skew(args: argparse.Namespace) -> Any:
    """The skew model of :func:`add_skew_flags`'s flags (:mod:`hetcoll.sim.imbalance.skew`).

    Returns
    -------
    DelayVector, SlowProcess, GaussianSkew or GammaSkew
        ``DelayVector(())`` when no flag is given (no skew: zeros once p is known).

    Raises
    ------
    InputError
        Naming the flag: a malformed value, a negative rank, a bad law parameter.
    """
    from hetcoll.sim.imbalance.skew import DelayVector, GammaSkew, GaussianSkew, SlowProcess

    if args.delays is not None:
        return DelayVector(tuple(split_names(args.delays, "--delays")))
    if args.slow is not None:
        rank, sep, delay = args.slow.partition(":")
        if not sep:
            raise InputError(f"--slow: expected RANK:DELAY, got {args.slow!r}")
        return SlowProcess(_rank(rank, "--slow"), delay)
    for flag, value, law in (("--gaussian", args.gaussian, GaussianSkew),
                             ("--gamma-skew", args.gamma_skew, GammaSkew)):
        if value is not None:
            parts = split_names(value, flag)
            if len(parts) != 2:
                raise InputError(f"{flag}: expected two numbers, got {value!r}")
            try:
                return law(*parts)
            except InputError as error:
                raise InputError(f"{flag}: {error}") from None
    return DelayVector(())


def _rank(text: str, flag: str) -> int:
    from hetcoll.core.numbers import to_fraction

    value = to_fraction(text, f"{flag} rank")
    if value.denominator != 1 or value < 0:
        raise InputError(f"{flag}: the rank must be a non-negative integer, got {text!r}")
    return int(value)
