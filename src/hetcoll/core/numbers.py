"""Exact numbers from user input: the one parser of every number a user types.

Every cost, rate, delay, size and period a user writes (int, float, or a string such
as ``"3/7"``, ``"0.25"`` or ``"1e-3"``) becomes a :class:`fractions.Fraction`.  Floats
are read through their shortest decimal representation, so ``0.01`` means 1/100 (what
the user typed), not the binary double 5764607523034235/576460752303423488.

The supported range
-------------------
A non-zero number must lie between about ``1e-300`` and ``1e300`` in magnitude
(:data:`MAX_MAGNITUDE_BITS` bits either side of 1), and a string may carry at most
:data:`MAX_DIGITS` digits.  Both are checked *before* any big-integer work: Python's
``Fraction("1e999999999")`` would build a billion-digit integer and never return.
Inside that range every float computed from the inputs is finite and every exact
result is representable; packages with narrower needs (Markov rates) check more.
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Sequence
from fractions import Fraction
from numbers import Rational

from hetcoll.core.errors import InputError

__all__ = [
    "MAX_DIGITS",
    "MAX_MAGNITUDE_BITS",
    "Number",
    "fraction_str",
    "is_float",
    "nonnegative_number",
    "number_list",
    "positive_fraction",
    "validate_start_times",
    "to_fraction",
]

#: A number as the packages compute with it: exact, or a float in float mode.
Number = Fraction | float

#: Non-zero numbers lie in [2^-1000, 2^1000], about [1e-301, 1e301] (see module doc).
MAX_MAGNITUDE_BITS = 1000

#: At most this many digits in one number's text (mantissa, numerator, denominator).
MAX_DIGITS = 1000

# Decimal exponents beyond this many digits are refused from the text alone: any
# exponent of 5+ digits puts the value far outside the range whatever the mantissa.
_MAX_EXPONENT_DIGITS = 4
_EXPONENT = re.compile(r"[eE]([+-]?)(\d+)\s*$")
_DIGIT = re.compile(r"\d")


def _numpy():
    """numpy if it is loaded, else None: a value cannot be a numpy object before then.

    This keeps ``hetcoll.core`` (and so the command line's start) free of numpy's import.
    """
    return sys.modules.get("numpy")


def _check_text(text: str, what: str, original: object) -> None:
    """Refuse, from the text alone, numbers whose parse would be slow or out of range."""
    if len(_DIGIT.findall(text)) > MAX_DIGITS + 8:  # + a few for an exponent
        raise InputError(f"{what} {_short(original)} has more than {MAX_DIGITS} digits")
    exponent = _EXPONENT.search(text)
    if exponent is not None and len(exponent.group(2).lstrip("0")) > _MAX_EXPONENT_DIGITS:
        raise _out_of_range(what, original)


def _short(value: object) -> str:
    text = value.strip() if isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else f"{text[:40]}...{text[-12:]} ({len(text)} characters)"


def _out_of_range(what: str, value: object) -> InputError:
    return InputError(f"{what} {_short(value)} is out of range (about 1e-300 to 1e300 in "
                      f"magnitude, or 0)")


def _check_range(number: Fraction, what: str, original: object) -> Fraction:
    if number and abs(number.numerator.bit_length() - number.denominator.bit_length()) \
            > MAX_MAGNITUDE_BITS:
        raise _out_of_range(what, original)
    return number


def to_fraction(value: object, what: str) -> Fraction:
    """Convert ``value`` to an exact :class:`~fractions.Fraction`.

    Parameters
    ----------
    value : int, float, Fraction, numbers.Rational, numpy scalar or str
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
        If ``value`` is missing, a bool, not a number, NaN or infinite, has more than
        :data:`MAX_DIGITS` digits, or lies outside the supported range (module doc).

    Examples
    --------
    >>> to_fraction("3/7", "cost")
    Fraction(3, 7)
    >>> to_fraction(0.01, "cost")
    Fraction(1, 100)
    >>> to_fraction("1e999999999", "rate")  # refused at once, from the text
    Traceback (most recent call last):
    ...
    hetcoll.core.errors.InputError: rate 1e999999999 is out of range (about 1e-300 to 1e300 ...
    """
    if value is None:
        raise InputError(f"{what} is missing")
    np = _numpy()
    if isinstance(value, bool) or (np is not None and isinstance(value, np.bool_)):
        raise InputError(f"{what} must be a number, got {value!r}")
    if np is not None and isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, Fraction):
        number = value
    elif isinstance(value, int | Rational):
        number = Fraction(value)
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise InputError(f"{what} must be finite, got {value!r}")
        number = Fraction(repr(value))
    elif isinstance(value, str):
        text = value.strip()
        _check_text(text, what, value)
        try:
            number = Fraction(text)
        except (ValueError, ZeroDivisionError):
            raise InputError(f"{what} is not a number: {value!r}") from None
    else:
        raise InputError(f"{what} must be a number, got {type(value).__name__} {_short(value)}")
    return _check_range(number, what, value)


def positive_fraction(value: object, what: str) -> Fraction:
    """Like :func:`to_fraction`, and also reject zero and negative values.

    Raises
    ------
    InputError
        If the value is not a finite number > 0 in the supported range.

    Examples
    --------
    >>> positive_fraction("0.5", "period")
    Fraction(1, 2)
    """
    number = to_fraction(value, what)
    if number <= 0:
        raise InputError(f"{what} must be positive, got {fraction_str(number)}")
    return number


def is_float(value: object) -> bool:
    """Whether ``value`` is a float (Python or numpy): it asks for float arithmetic.

    >>> is_float(0.5), is_float("1/2"), is_float(1)
    (True, False, False)
    """
    np = _numpy()
    return isinstance(value, float) or (np is not None and isinstance(value, np.floating))


def nonnegative_number(value: object, what: str, exact: bool = True) -> Number:
    """One cost, delay or start time: a number >= 0, exact or as a float.

    Parameters
    ----------
    value : number or str
        As :func:`to_fraction` reads it.
    what : str
        Names the field in error messages.
    exact : bool, default True
        Return the :class:`~fractions.Fraction`; else its float (the very double a
        float input was: a float keeps its shortest decimal through the Fraction).

    Raises
    ------
    InputError
        As :func:`to_fraction`, and for a negative value.

    Examples
    --------
    >>> nonnegative_number("1/4", "cost"), nonnegative_number(0.1, "cost", exact=False)
    (Fraction(1, 4), 0.1)
    """
    kind = type(value)
    if kind is Fraction and value.denominator == 1 and 0 <= value.numerator < 1 << 60:
        number = value  # fast path: cost matrices have n^2 entries
    elif kind is int and 0 <= value < 1 << 60:
        number = Fraction(value)
    else:
        number = to_fraction(value, what)
    if number.numerator < 0:
        raise InputError(f"{what} must be non-negative, got {fraction_str(number)}")
    return number if exact else float(number)


def number_list(values: object, what: str) -> list:
    """The entries of a one-dimensional list of numbers (list, tuple or 1-D array).

    Raises
    ------
    InputError
        If ``values`` is a string, not a sequence, or an array of another shape.

    Examples
    --------
    >>> number_list((1, "1/2"), "comp")
    [1, '1/2']
    """
    np = _numpy()
    if np is not None and isinstance(values, np.ndarray):
        if values.ndim != 1:
            raise InputError(f"{what} must be a list of numbers, got an array of shape "
                             f"{values.shape}")
        return list(values)
    if isinstance(values, str | bytes) or not isinstance(values, Sequence):
        raise InputError(f"{what} must be a list of numbers, got {type(values).__name__}")
    return list(values)


def validate_start_times(values: object, n: int | None, exact: bool = True) -> list[Number]:
    """Validate the times at which processes' values are ready (the one check of them).

    Parameters
    ----------
    values : sequence of numbers
        One time >= 0 per process, P0 first.
    n : int or None
        The number of processes the times must cover (None: any non-zero count).
    exact : bool, default True
        Fractions; else floats.  A float entry makes the whole list float only when
        the caller passes ``exact=False`` (see :func:`is_float`).

    Returns
    -------
    list of Fraction or float

    Raises
    ------
    InputError
        Naming ``start_times``: not a list, the wrong length, an empty list, or a
        time that is negative or not a number (which process).

    Examples
    --------
    >>> validate_start_times([0, "1/2", 2], 3)
    [Fraction(0, 1), Fraction(1, 2), Fraction(2, 1)]
    """
    entries = number_list(values, "start_times")
    if not entries:
        raise InputError("start_times must list at least one process")
    if n is not None and len(entries) != n:
        raise InputError(f"start_times has {len(entries)} entries, expected n = {n}")
    return [nonnegative_number(v, f"start time of P{i}", exact) for i, v in enumerate(entries)]


# Python refuses str() of an int over 4300 digits (CVE-2020-10735); exact results can be
# longer (an exact Markov moment at n = 140 has about 6000), so they are rendered by
# FLINT, whose conversion is quasi-linear and has no such limit.
_STR_DIGIT_LIMIT_BITS = 14_000


def _int_str(value: int) -> str:
    if value.bit_length() < _STR_DIGIT_LIMIT_BITS:
        return str(value)
    from flint import fmpz

    return str(fmpz(value))


def fraction_str(value: Fraction | int) -> str:
    """Render a rational as ``"p/q"``, or ``"p"`` when it is an integer, whatever its length.

    >>> fraction_str(Fraction(6, 4))
    '3/2'
    >>> fraction_str(Fraction(2))
    '2'
    >>> len(fraction_str(Fraction(10) ** 5000))
    5001
    """
    value = Fraction(value)
    if value.denominator == 1:
        return _int_str(value.numerator)
    return f"{_int_str(value.numerator)}/{_int_str(value.denominator)}"
