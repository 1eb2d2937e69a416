"""Helpers shared by the sub-command modules."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from hetcoll import __version__
from hetcoll.core.errors import HetcollError, InputError
from hetcoll.core.results import to_jsonable

__all__ = [
    "SCENARIO_OPTIONS",
    "HetcollArgumentParser",
    "add_force_flag",
    "add_json_flag",
    "image_path",
    "add_scenario_arguments",
    "add_scenario_parsers",
    "output_path",
    "print_json",
    "read_costs_option",
    "resolve_scenario",
    "solve_scenario",
    "run_command",
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
#: order of the LP's arguments: (attribute, flag, help, is a comma-separated list).
SCENARIO_OPTIONS: dict[str, tuple[tuple[str, str, str, bool], ...]] = {
    "scatter": (("source", "--source", "processor sending the messages", False),
                ("targets", "--targets", "comma-separated receiving processors", True)),
    "reduce": (("participants", "--participants",
                "comma-separated owners of v_0, v_1, ... in operand order", True),
               ("target", "--target", "processor receiving the result", False)),
}


#: ``--help`` line of each scenario kind.
SCENARIO_HELP = {"scatter": "series of scatters from one source",
                 "reduce": "series of reduces to one target"}


def add_scenario_arguments(parser: argparse.ArgumentParser, kind: str) -> None:
    """Add ``PLATFORM`` and the scenario options of ``kind`` (``"scatter"``: ``--source``,
    ``--targets``; ``"reduce"``: ``--participants``, ``--target``)."""
    parser.add_argument("platform", metavar="PLATFORM", help="platform file (.json or .graphml)")
    for _, flag, text, _ in SCENARIO_OPTIONS[kind]:
        parser.add_argument(flag, help=text)


def add_scenario_parsers(parser: argparse.ArgumentParser, descriptions: dict[str, str],
                         options: Callable[[argparse.ArgumentParser], None],
                         func: Callable[[argparse.Namespace], int]) -> None:
    """Add one ``KIND`` sub-parser per key of ``descriptions`` (``"scatter"``, ``"reduce"``).

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


def resolve_scenario(args: argparse.Namespace, platform: Any, kind: str) -> tuple[Any, Any]:
    """The ``kind`` scenario given on the command line, else the platform file's default.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed by a parser with :func:`add_scenario_arguments` for ``kind``.
    platform : lp.Platform
        Read from ``args.platform``.
    kind : {"scatter", "reduce"}

    Returns
    -------
    tuple
        ``(source, targets)`` for a scatter, ``(participants, target)`` for a reduce,
        the lists split (:func:`split_names`).

    Raises
    ------
    InputError
        If only one of the two options is given, a list is empty, or neither is
        given and the platform file has no default scenario of this kind.
    """
    options = SCENARIO_OPTIONS[kind]
    given = [getattr(args, name) for name, _, _, _ in options]
    if all(value is None for value in given):
        defaults = platform.scatter_defaults if kind == "scatter" else platform.reduce_defaults
        if defaults is None:
            raise InputError(f"{args.platform} has no default {kind} scenario: give "
                             f"{options[0][1]} and {options[1][1]}")
        return defaults[options[0][0]], defaults[options[1][0]]
    for value, (_, flag, _, _), (_, other, _, _) in zip(given, options, options[::-1],
                                                        strict=True):
        if value is None:
            raise InputError(f"{flag} is required with {other}")
    first, second = (split_names(value, flag) if is_list else value
                     for value, (_, flag, _, is_list) in zip(given, options, strict=True))
    return first, second


def solve_scenario(platform: Any, kind: str, scenario: tuple[Any, Any], *,
                   certify: bool = True) -> Any:
    """Solve the steady-state LP of a scenario from :func:`resolve_scenario`.

    Returns
    -------
    lp.SteadyStateResult
        From :func:`lp.steady_state_scatter_lp` or :func:`lp.steady_state_reduce_lp`.
    """
    from hetcoll import lp
    solve = lp.steady_state_scatter_lp if kind == "scatter" else lp.steady_state_reduce_lp
    return solve(platform, *scenario, certify=certify)


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

    The object starts with ``status`` (0: success), ``message`` and
    ``hetcoll_version``, then ``inputs`` (what defines the run: n, seed,
    distributions...) when given, then the keys of ``value``.  ``value`` is a dict or a
    result (:class:`hetcoll.core.results.Result`); its own ``status`` and ``message``,
    when it has them, fill the envelope.  Exact numbers are ``"p/q"`` strings and no
    NaN or Infinity is ever printed (:func:`hetcoll.core.results.to_jsonable`).
    """
    data = to_jsonable(value)
    if not isinstance(data, dict):
        raise TypeError(f"--json prints one object, got {type(data).__name__}")
    envelope = {"status": data.pop("status", 0), "message": data.pop("message", "ok"),
                "hetcoll_version": __version__}
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
        return 130
    return int(status or 0)
