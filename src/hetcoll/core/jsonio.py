"""Strict reading of user files: the one JSON loader of every hetcoll file reader.

Python's :func:`json.loads` keeps the last of two repeated keys silently, accepts
``NaN`` and ``Infinity``, recurses without bound, and reads files of any size.  A
platform or cost file with ``{"cost": 1, "cost": 2}`` would then mean something the
user did not write.  :func:`read_json` refuses all of these with one line that names
the file and the problem.  ``"-"`` reads standard input.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from hetcoll.core.errors import InputError, LimitError

__all__ = ["MAX_FILE_BYTES", "MAX_JSON_DEPTH", "parse_json", "read_json", "read_text"]

#: Largest input file read, in bytes (a platform of 1,000 processors, complete
#: graph, is about 60 MB of JSON).
MAX_FILE_BYTES = 256 * 1024 * 1024

#: Deepest nesting of JSON arrays and objects (hetcoll's formats need 4).
MAX_JSON_DEPTH = 64

#: Longest integer literal, in digits (Python's own limit, 4300, raises deep inside).
_MAX_INT_DIGITS = 1000


def read_text(path: str | os.PathLike[str], *, max_bytes: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of a file (``"-"``: standard input), size checked first.

    Raises
    ------
    InputError
        Naming the file: not UTF-8 (which byte).
    LimitError
        If the file is larger than ``max_bytes``.
    OSError
        If the file cannot be read.
    """
    if str(path) == "-":
        data = sys.stdin.buffer.read(max_bytes + 1)
    else:
        with open(path, "rb") as handle:
            data = handle.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise LimitError(f"{_name(path)}: larger than {max_bytes} bytes, the input file "
                         f"limit (max_bytes)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError(f"{_name(path)}: not a UTF-8 text file (byte {error.start}: "
                         f"{error.reason})") from None


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise InputError(f"key {key!r} appears twice in one object")
        data[key] = value
    return data


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > _MAX_INT_DIGITS:
        raise InputError(f"an integer has {len(text.lstrip('-'))} digits, over "
                         f"{_MAX_INT_DIGITS}")
    return int(text)


def _depth(value: Any) -> int:
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth)
            stack += [(child, depth + 1)
                      for child in (item.values() if isinstance(item, dict) else item)]
    return deepest


def parse_json(text: str, *, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """Parse JSON text strictly: no repeated key, bounded integers and nesting.

    Parameters
    ----------
    text : str
    max_depth : int, default MAX_JSON_DEPTH
        Deepest nesting of arrays and objects.

    Raises
    ------
    InputError
        ``malformed JSON: ...`` with the parser's message and position, a repeated key
        (which key), an integer of over 1,000 digits, or nesting deeper than
        ``max_depth``.  (``NaN`` and ``Infinity`` parse as floats: the number fields
        refuse them, naming the field.)

    Examples
    --------
    >>> parse_json('{"comm": [[0, 1], [1, 0]]}')
    {'comm': [[0, 1], [1, 0]]}
    >>> parse_json('{"cost": 1, "cost": 2}')
    Traceback (most recent call last):
    ...
    hetcoll.core.errors.InputError: malformed JSON: key 'cost' appears twice in one object
    """
    try:
        # NaN and Infinity parse as floats, which every number field refuses by name.
        data = json.loads(text, object_pairs_hook=_object, parse_int=_integer)
    except json.JSONDecodeError as error:
        raise InputError(f"malformed JSON: {error.msg} (line {error.lineno}, column "
                         f"{error.colno})") from None
    except InputError as error:  # from the hooks: a repeated key, a huge integer
        raise InputError(f"malformed JSON: {error}") from None
    except RecursionError:
        raise InputError(f"malformed JSON: nested deeper than {max_depth} levels") from None
    if _depth(data) > max_depth:
        raise InputError(f"malformed JSON: nested deeper than {max_depth} levels")
    return data


def read_json(path: str | os.PathLike[str], *, max_bytes: int = MAX_FILE_BYTES,
              max_depth: int = MAX_JSON_DEPTH) -> Any:
    """Read a JSON file strictly (:func:`parse_json`); ``"-"`` reads standard input.

    Raises
    ------
    InputError
        Starting with the file name, for every refusal of :func:`read_text` and
        :func:`parse_json`.
    LimitError
        If the file is larger than ``max_bytes``.
    OSError
        If the file cannot be read.
    """
    text = read_text(path, max_bytes=max_bytes)
    try:
        return parse_json(text, max_depth=max_depth)
    except InputError as error:
        raise InputError(f"{_name(path)}: {error}") from None


def _name(path: str | os.PathLike[str]) -> str:
    return "<stdin>" if str(path) == "-" else str(Path(path))
