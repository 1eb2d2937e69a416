"""Helpers shared by the sub-command modules."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from hetcoll.errors import InputError
from hetcoll.exact import fraction_str

__all__ = [
    "HetcollArgumentParser",
    "add_force_flag",
    "add_json_flag",
    "output_path",
    "print_json",
    "read_costs_option",
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


def read_costs_option(path: str):
    """The cost file of ``--costs`` (:func:`sim.read_cost_file`), errors naming ``--costs``."""
    from sim import read_cost_file

    try:
        return read_cost_file(path)
    except InputError as error:
        raise InputError(f"--costs {error}") from None


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


def to_jsonable(value: Any) -> Any:
    """Recursively turn Fractions into ``"p/q"`` strings and tuples into lists."""
    if isinstance(value, Fraction):
        return fraction_str(value)
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_jsonable(v) for v in value]
    if hasattr(value, "item") and callable(value.item):  # numpy scalars
        return value.item()
    return value


def print_json(value: Any) -> None:
    """Print ``value`` as one indented JSON object on stdout."""
    json.dump(to_jsonable(value), sys.stdout, indent=2)
    sys.stdout.write("\n")


def run_command(args: argparse.Namespace) -> int:
    """Run the chosen sub-command; bad input becomes one line and exit 2."""
    prog = f"hetcoll {args.command}"
    try:
        status = args.func(args)
    except InputError as error:
        sys.stderr.write(f"{prog}: error: {error}\n")
        return 2
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
