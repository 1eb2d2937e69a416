"""Marendić et al.'s closed forms (1)-(4), as printed, in sympy and in exact rationals.

They are the paper's, not the simulator's: where the simulated time with no
skew differs, the difference is the paper's (see docs/imbalance.md):

- (1) linear, (p - 1)(α + nβ + nγ): the simulator agrees exactly.
- (2) "binary tree", ⌈log2 p⌉(α + nβ + nγ): the *binomial* tree's time, which
  the simulator agrees with exactly for every p; a binary tree receives two
  messages per level and takes about twice as long.
- (3) direct-send, p(p - 1)(α + nβ/p) + nγ: counts the p(p - 1) messages one
  after the other although p processes send in parallel, and leaves out the
  gather; the simulated reduce-scatter takes (p - 1)(α + (n/p)(β + γ)).
- (4) Rabenseifner, 2 log2(p) α + nβ + (1 - 1/p)(nβ + nγ): the usual analysis
  (and the simulator) gives 2 log2(p) α + 2(1 - 1/p)nβ + (1 - 1/p)nγ.

References
----------
Marendić et al., section 2.1, equations (1)-(4).
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from hetcoll.core.errors import InputError
from hetcoll.core.numbers import nonnegative_number

__all__ = ["FORMULA_NAMES", "SYMBOLS", "closed_forms", "symbolic_formulas"]

FORMULA_NAMES = ("linear", "binary", "direct-send", "rabenseifner")
#: The symbols p, n, α, β, γ of :func:`symbolic_formulas`.
SYMBOLS = sympy.symbols("p n alpha beta gamma", positive=True)


def symbolic_formulas() -> dict[str, sympy.Expr]:
    """Equations (1)-(4) in the symbols p, n, alpha, beta, gamma.

    Equation (4) holds for p a power of two only.

    >>> symbolic_formulas()["linear"]
    (p - 1)*(alpha + beta*n + gamma*n)
    """
    p, n, a, b, g = SYMBOLS
    return {
        "linear": (p - 1) * (a + n * b + n * g),
        "binary": sympy.ceiling(sympy.log(p, 2)) * (a + n * b + n * g),
        "direct-send": p * (p - 1) * (a + n / p * b) + n * g,
        "rabenseifner": 2 * sympy.log(p, 2) * a + n * b + (1 - 1 / p) * (n * b + n * g),
    }


def closed_forms(p: int, elements: int, alpha: object, beta: object,
                 gamma: object) -> dict[str, Fraction | None]:
    """Equations (1)-(4) evaluated exactly; ``rabenseifner`` is None unless p = 2^x.

    Parameters
    ----------
    p, elements : int
        Processes and vector length (>= 1).
    alpha, beta, gamma : number or str
        Per message, per element (transfer), per element (combine), >= 0.

    Raises
    ------
    InputError
        On a count below 1 or a negative or non-numeric cost.

    Examples
    --------
    >>> closed_forms(4, 2, 1, 1, 1)["binary"]
    Fraction(10, 1)
    >>> closed_forms(3, 2, 1, 1, 1)["rabenseifner"] is None
    True
    """
    for value, what in ((p, "p"), (elements, "elements")):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise InputError(f"{what} must be a positive integer, got {value!r}")
    a = nonnegative_number(alpha, "alpha")
    b = nonnegative_number(beta, "beta")
    g = nonnegative_number(gamma, "gamma")
    n = elements
    step = a + n * b + n * g
    power_of_two = p & (p - 1) == 0
    return {
        "linear": (p - 1) * step,
        "binary": (p - 1).bit_length() * step,  # ⌈log2 p⌉, in integers
        "direct-send": p * (p - 1) * (a + Fraction(n, p) * b) + n * g,
        "rabenseifner": 2 * (p.bit_length() - 1) * a + n * b
        + (1 - Fraction(1, p)) * (n * b + n * g) if power_of_two else None,
    }
