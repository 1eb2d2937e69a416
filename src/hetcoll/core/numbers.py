"""Exact numbers from user input.

Every cost a user writes (int, float, or a string such as ``"3/7"`` or
``"0.25"``) becomes a :class:`fractions.Fraction`.  Floats are read through
their shortest decimal representation, so ``0.01`` means 1/100 (what the user
typed), not the binary double 5764607523034235/576460752303423488.
"""

from __future__ import annotations

import math
from fractions import Fraction
from numbers import Rational

from hetcoll.core.errors import InputError

__all__ = ["fraction_str", "to_fraction", "positive_fraction"]


def to_fraction(value: object, what: str) -> Fraction:
    """Convert ``value`` to an exact :class:`~fractions.Fraction`.

    Parameters
    ----------
    value : int, float, Fraction, numbers.Rational or str
        Strings may be integers (``"3"``), ratios (``"3/7"``) or decimals
        (``"0.25"``, ``"1e-3"``).
    what : str
        Names the field in error messages, e.g. ``"cost of link P0->P1"``.

    Returns
    -------
    Fraction

    Raises
    ------
    InputError
        If ``value`` is missing, a bool, not a number, NaN or infinite.

    Examples
    --------
    >>> to_fraction("3/7", "cost")
    Fraction(3, 7)
    >>> to_fraction(0.01, "cost")
    Fraction(1, 100)
    """
    if value is None:
        raise InputError(f"{what} is missing")
    if isinstance(value, bool):
        raise InputError(f"{what} must be a number, got {value!r}")
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int | Rational):
        return Fraction(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InputError(f"{what} must be finite, got {value!r}")
        return Fraction(repr(value))
    if isinstance(value, str):
        text = value.strip()
        try:
            number = Fraction(text)
        except (ValueError, ZeroDivisionError):
            raise InputError(f"{what} is not a number: {value!r}") from None
        return number
    raise InputError(f"{what} must be a number, got {type(value).__name__} {value!r}")


def positive_fraction(value: object, what: str) -> Fraction:
    """Like :func:`to_fraction`, and also reject zero and negative values.

    Raises
    ------
    InputError
        If the value is not a finite number > 0.
    """
    number = to_fraction(value, what)
    if number <= 0:
        raise InputError(f"{what} must be positive, got {fraction_str(number)}")
    return number


def fraction_str(value: Fraction | int) -> str:
    """Render a rational as ``"p/q"``, or ``"p"`` when it is an integer.

    >>> fraction_str(Fraction(6, 4))
    '3/2'
    >>> fraction_str(Fraction(2))
    '2'
    """
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value.numerator}/{value.denominator}"
