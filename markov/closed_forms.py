"""Closed forms of Tree-dyn's makespan without computation cost (sympy).

Without computation cost, Tree-dyn's chain is a path (see
:func:`markov.tree_dyn_chain`): from ``n = 2m`` processors it visits the
states with ``m, m-1, m-1, m-2, m-2, ..., 1, 1`` transfers running, staying an
exponential time of rate ``i * lambda_d`` in a state with ``i`` transfers;
from ``n = 2m + 1`` it visits ``m, m, m-1, m-1, ..., 1, 1`` (the processor in
the slot pairs with the first receiver that finishes).  Means and variances of
independent exponentials add up, hence

- even ``n``: ``E[C] = (2 H(n/2 - 1) + 2/n) / lambda_d`` and
  ``Var[C] = (2 H_2(n/2 - 1) + 4/n^2) / lambda_d^2`` (RR 8315, section 5);
- odd ``n`` (derived here, not in the papers):
  ``E[C] = 2 H((n-1)/2) / lambda_d`` and ``Var[C] = 2 H_2((n-1)/2) / lambda_d^2``,

with ``H(m)`` the harmonic numbers and ``H_2(m) = sum_{i<=m} 1/i^2``.

The conference version (HeteroPar 2013) prints ``E[C] = (2 H(n/2) + 2/n) /
lambda_d``: a misprint, too large by ``2 / (n/2) = 4/n``; the research report's
``2 H(n/2 - 1)`` is right (the tests check both against the chain).
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from hetcoll.core.errors import InputError
from hetcoll.core.numbers import positive_fraction

__all__ = ["LAMBDA_D", "N", "tree_dyn_closed_form", "tree_dyn_closed_form_value"]

N = sympy.Symbol("n", positive=True, integer=True)
"""The number of processors in the closed forms."""
LAMBDA_D = sympy.Symbol("lambda_d", positive=True)
"""The transfer rate in the closed forms."""


def tree_dyn_closed_form(parity: str = "even") -> tuple[sympy.Expr, sympy.Expr]:
    """Mean and variance of Tree-dyn's makespan without computation cost.

    Parameters
    ----------
    parity : {"even", "odd"}
        Which formula: they differ by the initial state.

    Returns
    -------
    (sympy.Expr, sympy.Expr)
        ``E[C]`` and ``Var[C]`` in the symbols :data:`N` and :data:`LAMBDA_D`.

    Raises
    ------
    InputError
        If ``parity`` is neither ``"even"`` nor ``"odd"``.

    Examples
    --------
    >>> mean, variance = tree_dyn_closed_form("even")
    >>> mean
    (2*harmonic(n/2 - 1) + 2/n)/lambda_d

    References
    ----------
    Benoit, Canon, Marchal, RR 8315 (2013), section 5 (even ``n``; the odd
    case is derived in this module's docstring).
    """
    if parity == "even":
        m = N / 2 - 1
        return ((2 * sympy.harmonic(m) + 2 / N) / LAMBDA_D,
                (2 * sympy.harmonic(m, 2) + 4 / N**2) / LAMBDA_D**2)
    if parity == "odd":
        m = (N - 1) / 2
        return 2 * sympy.harmonic(m) / LAMBDA_D, 2 * sympy.harmonic(m, 2) / LAMBDA_D**2
    raise InputError(f"parity must be 'even' or 'odd', got {parity!r}")


def tree_dyn_closed_form_value(n: int, rate_comm: object = 1) -> tuple[Fraction, Fraction]:
    """Exact mean and variance of Tree-dyn's makespan from the closed forms.

    Parameters
    ----------
    n : int
        Number of processors, at least 1.
    rate_comm : int, Fraction or str
        ``lambda_d``, rational.

    Returns
    -------
    (Fraction, Fraction)

    Raises
    ------
    InputError
        If ``n < 1`` or the rate is not a positive rational.

    Examples
    --------
    >>> tree_dyn_closed_form_value(4)
    (Fraction(5, 2), Fraction(9, 4))

    References
    ----------
    Benoit, Canon, Marchal, RR 8315, section 5 (even n: E[C] =
    (2H(n/2 - 1) + 2/n)/lambda_d, Var[C] = (2 H2(n/2 - 1) + 4/n^2)/lambda_d^2;
    RR writes lambda_j for lambda_d in the variance).  The HeteroPar version
    prints 2H(n/2) + 2/n, which is wrong by 4/n.  Odd n: hetcoll's own
    derivation, 2H((n-1)/2)/lambda_d and 2H2((n-1)/2)/lambda_d^2.
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise InputError(f"n (number of processors) must be an integer >= 1, got {n!r}")
    rate = positive_fraction(rate_comm, "rate_comm")
    mean, variance = tree_dyn_closed_form("even" if n % 2 == 0 else "odd")
    values = {N: n, LAMBDA_D: sympy.Rational(rate.numerator, rate.denominator)}
    return tuple(Fraction(int(e.p), int(e.q))
                 for e in (sympy.Rational(mean.subs(values)),
                           sympy.Rational(variance.subs(values))))
