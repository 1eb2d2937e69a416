"""Numbers in text output: compact ``%g`` style, with the exact value beside it when short.

Text output is for reading: ``TP = 1/3 (≈ 0.333333)`` says both what the value is and
about how big it is; an exact value of forty digits says neither, so it is elided
(``≈ 0.333333``) and left to the ``--json`` output, which always holds it in full.
"""

from __future__ import annotations

import math
from decimal import Decimal, localcontext
from fractions import Fraction

from hetcoll.core.numbers import fraction_str

__all__ = ["MAX_EXACT_CHARS", "approx_str", "number_text"]

#: Exact values longer than this (as ``"p/q"``) are elided from text output.
MAX_EXACT_CHARS = 15


def approx_str(value: Fraction | float | int) -> str:
    """``value`` in ``%g`` style (6 significant digits), whatever its size.

    A Fraction too large or too small for a float is rounded in decimal arithmetic,
    never to ``inf`` or ``0``.

    Parameters
    ----------
    value : Fraction, float or int

    Returns
    -------
    str

    Raises
    ------
    None
        NaN and infinities of a float print as ``nan`` and ``inf``.

    See Also
    --------
    number_text : the exact value beside it.

    Examples
    --------
    >>> approx_str(Fraction(1, 3)), approx_str(2.5), approx_str(Fraction(10**400, 3))
    ('0.333333', '2.5', '3.33333e+399')
    """
    if isinstance(value, float):
        return f"{value:.6g}"
    value = Fraction(value)
    try:
        shown = float(value)
    except OverflowError:
        shown = math.inf
    if math.isfinite(shown) and (shown != 0 or value == 0):
        return f"{shown:.6g}"
    with localcontext() as context:
        context.prec = 6
        decimal = (Decimal(value.numerator) / Decimal(value.denominator)).normalize()
    return f"{decimal:g}"


def number_text(value: Fraction | float | int | None) -> str:
    """A number for text output: ``"1/3 (≈ 0.333333)"``, ``"3"``, or ``"≈ 0.333333"``.

    Parameters
    ----------
    value : Fraction, int, float or None
        An exact value prints exactly, with its ``%g`` approximation beside it when
        it is not an integer, or as the approximation alone when its ``"p/q"`` text is
        longer than :data:`MAX_EXACT_CHARS`.  A float prints in ``%g`` style.
        None prints as ``"-"``.

    Returns
    -------
    str
        No line break; at most :data:`MAX_EXACT_CHARS` characters of exact value.

    Raises
    ------
    None
        Every Fraction, int and float has a text.

    See Also
    --------
    approx_str, hetcoll.core.numbers.fraction_str

    Examples
    --------
    >>> number_text(Fraction(1, 3)), number_text(Fraction(6)), number_text(0.1 + 0.2)
    ('1/3 (≈ 0.333333)', '6', '0.3')
    >>> number_text(Fraction(10**20 + 1, 3))
    '≈ 3.33333e+19'
    """
    if value is None:
        return "-"
    if isinstance(value, float):
        return approx_str(value)
    exact = fraction_str(value)
    if len(exact) > MAX_EXACT_CHARS:
        return f"≈ {approx_str(value)}"
    if Fraction(value).denominator == 1:
        return exact
    return f"{exact} (≈ {approx_str(value)})"
