"""Lower bounds on the optimal reduction time used in the proofs of RR 8315.

The approximation ratios of Table 1 compare an algorithm's makespan with one
of these bounds, never with the true optimum (see
:func:`analytics.clairvoyant_optimum` for that).  All are exact rationals.

References
----------
A. Benoit, L.-C. Canon, L. Marchal, "Non-clairvoyant reduction algorithms for
heterogeneous platforms", INRIA RR-8315 (2013), section 4, proofs of
Theorems 1 to 5.
"""

from __future__ import annotations

from fractions import Fraction

from hetcoll.core.errors import InputError
from hetcoll.core.numbers import to_fraction
from hetcoll.sim.trees import fibonacci_order

__all__ = [
    "ceil_log2",
    "rounds_lower_bound",
    "fibonacci_lower_bound",
]


def _count(n: object) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n < 2:
        raise InputError(f"n must be an integer >= 2, got {n!r}")
    return n


def _cost(value: object, what: str) -> Fraction:
    number = to_fraction(value, what)
    if number < 0:
        raise InputError(f"{what} must be non-negative, got {value}")
    return number


def ceil_log2(n: int) -> int:
    """⌈log2 n⌉ for an integer n >= 1, exactly (no floating point).

    Parameters
    ----------
    n : int
        A positive integer.

    Returns
    -------
    int
        The number of rounds of a binomial tree on n processors.

    Raises
    ------
    InputError
        If n is not an integer >= 1.

    Examples
    --------
    >>> [ceil_log2(n) for n in (1, 2, 3, 4, 5, 64, 65)]
    [0, 1, 2, 2, 3, 6, 7]

    References
    ----------
    RR 8315, section 4.1, proof of Theorem 1 (⌈log2 n⌉ successive reductions).
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise InputError(f"n must be an integer >= 1, got {n!r}")
    return (n - 1).bit_length()


def rounds_lower_bound(n: int, d: object, c: object = 0) -> Fraction:
    """max(c, d)·⌈log2 n⌉: at least ⌈log2 n⌉ successive reductions, each >= max(c, d).

    With ``c = 0`` this is the bound d⌈log2 n⌉ of Theorem 1's proof.

    Parameters
    ----------
    n : int
        Number of processors, >= 2.
    d : number
        Smallest communication cost, min d(i, j).
    c : number, optional
        The (identical) computation cost; 0 by default.

    Returns
    -------
    Fraction

    Raises
    ------
    InputError
        If n < 2 or a cost is negative or not a number.

    Examples
    --------
    >>> rounds_lower_bound(8, 1)
    Fraction(3, 1)
    >>> rounds_lower_bound(5, 1, 2)
    Fraction(6, 1)

    References
    ----------
    RR 8315, section 4.1, proof of Theorem 1 (c = 0) and section 4.2, proof of
    Theorem 3 (any c).
    """
    return max(_cost(c, "c"), _cost(d, "d")) * ceil_log2(_count(n))


def fibonacci_lower_bound(n: int, d: object, c: object) -> Fraction:
    """(k+1)·min(c, d), with k = :func:`sim.fibonacci_order` (n), the smallest k with F_(k+2) >= n.

    With every cost equal to m, Fibonacci-stat is optimal and takes
    (k+1)·m (Bar-Noy et al., ref. [7] of RR 8315).  The optimum never decreases
    when a cost increases, so (k+1)·min(c, d) bounds the optimum whenever every
    communication costs at least d and every computation at least c.

    The proof of Theorem 4 uses it at c = d, where min(c, d) = max(c, d).  It
    is *not* a lower bound with max(c, d) in general: with c = 0 and n = 8,
    (k+1)·d = 5d while a binomial tree finishes in 3d.

    Parameters
    ----------
    n : int
        Number of processors, >= 2.
    d : number
        Smallest communication cost.
    c : number
        Smallest computation cost.

    Returns
    -------
    Fraction

    Raises
    ------
    InputError
        If n < 2 or a cost is negative or not a number.

    Examples
    --------
    >>> fibonacci_lower_bound(8, 1, 1)
    Fraction(5, 1)

    References
    ----------
    RR 8315, section 4.2, proof of Theorem 4.  The text just before Theorem 4
    writes F_k = (φ^k + (1-φ)^k)/√5; Binet's formula, which the proofs of
    Theorems 2, 4 and 5 use, has a minus sign (F_k = (φ^k - (1-φ)^k)/√5), and
    the proof's "φ^(k+2) >= √(5n) + ..." means √5·n.
    """
    return (fibonacci_order(_count(n)) + 1) * min(_cost(c, "c"), _cost(d, "d"))
