"""Per-process sizes typed on a command line: ``A=3,B=5,C=1/2``.

One parser for every ``--sizes`` option (``hetcoll tree``, ``hetcoll lp``...), so that
they all accept and refuse the same text.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction

from hetcoll.core.errors import InputError
from hetcoll.core.numbers import nonnegative_number, positive_fraction

__all__ = ["parse_size_items", "parse_sizes"]


def parse_sizes(text: str, names: Iterable[str] | None = None, what: str = "--sizes", *,
                positive: bool = False) -> dict[str, Fraction]:
    """Read ``NAME=SIZE`` pairs separated by commas into exact sizes.

    Parameters
    ----------
    text : str
        ``"A=3,B=5,C=1/2"``; sizes are numbers >= 0 as :func:`hetcoll.core.numbers.to_fraction`
        reads them (``"0.25"``, ``"1e6"``, ``"3/7"``).
    names : iterable of str, optional
        The processors a size may be given for (a platform's names); None: any name
        (the caller checks them against its operation).
    what : str, default "--sizes"
        The option named in error messages.
    positive : bool, default False
        Refuse zero sizes too (the steady-state LPs need them > 0; a scatterv block
        may be empty).

    Returns
    -------
    dict of str to Fraction
        In the order written.

    Raises
    ------
    InputError
        Naming ``what`` and the culprit: an empty list or item, an item without ``=``,
        an unknown or repeated name, a size that is negative (or zero, with
        ``positive``) or not a number.

    See Also
    --------
    hetcoll.core.numbers.nonnegative_number : the number parser behind each size.

    Examples
    --------
    >>> parse_sizes("A=3, B=1/2", ["A", "B", "C"])
    {'A': Fraction(3, 1), 'B': Fraction(1, 2)}
    >>> parse_sizes("D=1", ["A"])
    Traceback (most recent call last):
    ...
    hetcoll.core.errors.InputError: --sizes: 'D' is not a processor of the platform

    References
    ----------
    Dichev, Rychkov, Lastovetsky, §2: each process i has its own block size m_i.
    """
    if not text.strip():
        raise InputError(f"{what}: expected NAME=SIZE pairs separated by commas, got {text!r}")
    return parse_size_items(text.split(","), names, what, positive=positive)


def parse_size_items(items: Iterable[str], names: Iterable[str] | None = None,
                     what: str = "--size", *, positive: bool = False,
                     sizes: Mapping[str, Fraction] | None = None) -> dict[str, Fraction]:
    """Read ``NAME=SIZE`` items, each split at its *last* ``=``: names may hold commas.

    Parameters are as :func:`parse_sizes`'s; ``sizes`` holds sizes given before (e.g.
    by ``--sizes``), added to: a name may not repeat.

    Examples
    --------
    >>> parse_size_items(["x,y=1/2", "P 0 = 3"])
    {'x,y': Fraction(1, 2), 'P 0': Fraction(3, 1)}
    """
    known = None if names is None else set(names)
    check = positive_fraction if positive else nonnegative_number
    result = dict(sizes or {})
    for item in items:
        name, sep, value = item.rpartition("=")
        name = name.strip()
        if not sep or not name:
            raise InputError(f"{what}: expected NAME=SIZE, got {item.strip()!r}")
        if known is not None and name not in known:
            raise InputError(f"{what}: {name!r} is not a processor of the platform")
        if name in result:
            raise InputError(f"{what}: {name!r} is given twice")
        result[name] = check(value.strip(), f"{what}: size of {name}")
    return result
