"""Table 1 of Benoit, Canon and Marchal: approximation ratios as sympy formulas.

Each cell of the table is a :class:`Bound`: the algorithm, the regime
(``"c=0"``, ``"any c"``, ``"c=d"``), the theorem that proves it and the ratio
as a sympy expression in ``Delta`` (D/d) and ``n``.  The lower bounds the
proofs compare against live in :mod:`analytics.lower_bounds`.

References
----------
A. Benoit, L.-C. Canon, L. Marchal, "Non-clairvoyant reduction algorithms for
heterogeneous platforms", INRIA RR-8315 (2013), section 4, Theorems 1 to 5 and
Table 1; HeteroPar 2013 version, Table 1 (misprinted cell, see
:data:`HETEROPAR_MISPRINT`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import sympy

from hetcoll.analytics.lower_bounds import _count
from hetcoll.core.errors import InputError
from hetcoll.core.numbers import to_fraction

__all__ = [
    "DELTA",
    "N",
    "LOG2_PHI",
    "log2",
    "ceil_log2",
    "REGIMES",
    "ALGORITHMS",
    "Bound",
    "TABLE1",
    "HETEROPAR_MISPRINT",
    "table1",
    "approximation_ratio",
    "render_table",
]

DELTA = sympy.Symbol("Delta", positive=True)
N = sympy.Symbol("n", positive=True, integer=True)


class log2(sympy.Function):  # noqa: N801 - reads like the paper's log2
    """Binary logarithm kept as ``log2(x)`` (sympy's ``log(x, 2)`` becomes log(x)/log(2)).

    Exact at powers of two; numeric through :meth:`evalf`; ``.rewrite(sympy.log)``
    gives sympy's natural-log form.
    """

    @classmethod
    def eval(cls, x):
        if x.is_Integer and x > 0 and int(x) & (int(x) - 1) == 0:
            return sympy.Integer(int(x).bit_length() - 1)
        return None

    def _eval_evalf(self, prec):
        return self._eval_rewrite_as_log(self.args[0]).evalf(prec)

    def _eval_rewrite_as_log(self, x, **kwargs):
        return sympy.log(x) / sympy.log(2)

    def _eval_is_positive(self):
        return (self.args[0] - 1).is_positive

    def _latex(self, printer):
        return rf"\log_2 {printer.parenthesize(self.args[0], 1000)}"


class ceil_log2(sympy.Function):  # noqa: N801 - reads like the paper's ⌈log2 n⌉
    """⌈log2 n⌉, the number of rounds of a binomial tree; exact for integer n."""

    @classmethod
    def eval(cls, n):
        if n.is_Integer and n > 0:
            return sympy.Integer((int(n) - 1).bit_length())
        return None

    def _eval_is_positive(self):
        return (self.args[0] - 1).is_positive

    def _latex(self, printer):
        return rf"\lceil \log_2 {printer._print(self.args[0])} \rceil"


PHI = sympy.GoldenRatio
LOG2_PHI = log2(PHI)
_CEIL_LOG2_N = ceil_log2(N)

#: Regimes of Table 1: no computation cost, identical costs c, and c = d.
REGIMES = ("c=0", "any c", "c=d")
#: Rows of Table 1, named as in :data:`sim.ALGORITHMS`.
ALGORITHMS = ("binomial-stat", "tree-dyn", "fibonacci-stat")


@dataclass(frozen=True)
class Bound:
    """One cell of Table 1: a proven approximation ratio.

    Attributes
    ----------
    algorithm : str
        ``"binomial-stat"``, ``"tree-dyn"`` or ``"fibonacci-stat"``.
    regime : str
        ``"c=0"`` (no computation cost), ``"any c"`` (c_i = c) or ``"c=d"``
        (c_i = c = d, the smallest communication cost).
    theorem : int
        Theorem of RR 8315 that proves it.
    expression : sympy.Expr
        The ratio, in :data:`DELTA` and :data:`N`.
    tight : str
        ``"exact"`` when the paper exhibits instances reaching the ratio,
        ``"asymptotic"`` when they reach it as n grows, ``""`` otherwise.
    note : str
        Provenance remarks (misprints).
    """

    algorithm: str
    regime: str
    theorem: int
    expression: sympy.Expr
    tight: str = ""
    note: str = ""

    def evaluate(self, delta: object = None, n: int | None = None) -> sympy.Expr:
        """The ratio with Δ and/or n substituted (exact sympy value).

        Parameters
        ----------
        delta : number, optional
            Δ = D/d >= 1 (int, Fraction, float or ``"p/q"`` string).
        n : int, optional
            Number of processors, >= 2.

        Returns
        -------
        sympy.Expr
            Exact: ``sympy.Rational`` when the ratio is rational, a closed
            form with ``log(GoldenRatio)`` otherwise.

        Raises
        ------
        InputError
            If Δ < 1 or n < 2.

        Examples
        --------
        >>> TABLE1[0].evaluate(2, 64)
        2
        """
        substitutions = {}
        if delta is not None:
            substitutions[DELTA] = sympy.Rational(*_delta(delta).as_integer_ratio())
        if n is not None:
            substitutions[N] = sympy.Integer(_count(n))
        return self.expression.subs(substitutions)

    def value(self, delta: object, n: int) -> float:
        """The ratio as a float (see :meth:`evaluate`)."""
        return float(self.evaluate(delta, n))

    def text(self, delta: object = None, n: int | None = None) -> str:
        """The ratio as plain text, e.g. ``Delta/log2(phi) + Delta/ceil_log2(n)``.

        Δ and n are substituted when given (see :meth:`evaluate`).
        """
        return _plain(self.evaluate(delta, n))

    def latex(self) -> str:
        """The ratio in LaTeX (``\\Delta``, ``\\log_{2}``, ``\\varphi``)."""
        return _latex(self.expression)


def _plain(expression: sympy.Expr) -> str:
    return sympy.sstr(expression).replace("GoldenRatio", "phi")


def _latex(expression: sympy.Expr) -> str:
    return sympy.latex(expression).replace(r"\phi", r"\varphi")


def _delta(delta: object) -> Fraction:
    value = to_fraction(delta, "Delta")
    if value < 1:
        raise InputError(f"Delta = D/d must be >= 1, got {delta}")
    try:
        float(value)
    except OverflowError:
        raise InputError("Delta is too large (beyond floating point, about 1.8e308)") from None
    return value


_BINOMIAL_TREE_DYN = (
    ("c=0", 1, DELTA, "exact"),
    ("any c", 3, DELTA + 1, ""),
    ("c=d", 4, (DELTA + 1) * (1 + 1 / log2(N)) * LOG2_PHI, "asymptotic"),
)

#: Every cell of RR 8315's Table 1, row by row.
TABLE1: tuple[Bound, ...] = (
    *(Bound(alg, regime, thm, expr, tight) for alg in ("binomial-stat", "tree-dyn")
      for regime, thm, expr, tight in _BINOMIAL_TREE_DYN),
    Bound("fibonacci-stat", "c=0", 2, DELTA / LOG2_PHI + DELTA / _CEIL_LOG2_N),
    Bound("fibonacci-stat", "any c", 5, DELTA / LOG2_PHI + 2 * DELTA / _CEIL_LOG2_N),
    Bound("fibonacci-stat", "c=d", 5, DELTA / LOG2_PHI + (DELTA + 1) / _CEIL_LOG2_N,
          note="HeteroPar's Table 1 misprints this cell as Delta"),
)

#: The cell as printed in the HeteroPar version: Δ for Fibonacci-stat at c = d.
#: It is not what it cites: Theorem 5 of RR 8315 proves Δ/log2 φ + (Δ+1)/⌈log2 n⌉,
#: which exceeds Δ for every Δ >= 1 and n >= 2 (1/log2 φ ≈ 1.44 > 1).  Yet Δ
#: holds, and is the better bound: Theorem 5's proof bounds Fibonacci-stat by
#: kD + c = kD + d at c = d, and Theorem 4's proof bounds the optimum below by
#: (k+1)d, so the ratio is at most (kΔ + 1)/(k + 1) <= Δ; the upward instance of
#: Theorem 4 reaches (kΔ + 1)/(k + 1) exactly, which tends to Δ
#: (tests/test_instances.py::test_heteropar_fibonacci_cell_holds).
HETEROPAR_MISPRINT = Bound("fibonacci-stat", "c=d", 5, DELTA,
                           note="misprint in HeteroPar 2013 Table 1; RR 8315 Theorem 5 proves "
                                "Delta/log2(phi) + (Delta+1)/ceil(log2 n); Delta nonetheless "
                                "holds: (k Delta + 1)/(k + 1) <= Delta from the proofs of "
                                "Theorems 4 and 5, reached as n grows")


def table1() -> list[Bound]:
    """The cells of Table 1 (RR 8315, section 4), in reading order.

    Returns
    -------
    list of Bound
        Nine cells: three algorithms times three regimes.

    Examples
    --------
    >>> [(b.algorithm, b.regime, b.theorem) for b in table1()][:3]
    [('binomial-stat', 'c=0', 1), ('binomial-stat', 'any c', 3), ('binomial-stat', 'c=d', 4)]

    References
    ----------
    Benoit, Canon, Marchal, RR-8315, section 4, Table 1.
    """
    return list(TABLE1)


def approximation_ratio(algorithm: str, regime: str, delta: object = None,
                        n: int | None = None) -> sympy.Expr:
    """The proven ratio of ``algorithm`` in ``regime``, symbolic or evaluated.

    Parameters
    ----------
    algorithm : {"binomial-stat", "tree-dyn", "fibonacci-stat"}
    regime : {"c=0", "any c", "c=d"}
    delta, n : optional
        Substituted when given (see :meth:`Bound.evaluate`).

    Returns
    -------
    sympy.Expr

    Raises
    ------
    InputError
        For an unknown algorithm or regime, Δ < 1 or n < 2.

    Examples
    --------
    >>> approximation_ratio("tree-dyn", "any c", delta=3)
    4

    References
    ----------
    RR 8315, section 4, Theorems 1 to 5 and Table 1.
    """
    for bound in TABLE1:
        if bound.algorithm == algorithm and bound.regime == regime:
            return bound.evaluate(delta, n)
    if algorithm not in ALGORITHMS:
        raise InputError(f"unknown algorithm {algorithm!r}; Table 1 has {', '.join(ALGORITHMS)}")
    raise InputError(f"unknown regime {regime!r}; Table 1 has {', '.join(REGIMES)}")


def render_table(delta: object = None, n: int | None = None, *, fmt: str = "plain") -> str:
    """Table 1 as text: plain columns, or a LaTeX ``tabular``.

    Parameters
    ----------
    delta, n : optional
        When both are given the cells are numbers (4 decimals); otherwise
        formulas, with whatever was given substituted.
    fmt : {"plain", "latex"}

    Returns
    -------
    str

    Raises
    ------
    InputError
        For an unknown ``fmt``, Δ < 1 or n < 2.

    Examples
    --------
    >>> print(render_table(2, 64).splitlines()[1])
    binomial-stat   2.0000 (Th. 1)  3.0000 (Th. 3)  2.4298 (Th. 4)

    References
    ----------
    RR 8315, section 4, Table 1.
    """
    if fmt not in ("plain", "latex"):
        raise InputError(f"unknown table format {fmt!r}; use 'plain' or 'latex'")

    def cell(bound: Bound) -> str:
        value = bound.evaluate(delta, n)
        if delta is not None and n is not None:
            text = f"{float(value):.4f}"
            return f"${text}$ (Th. {bound.theorem})" if fmt == "latex" else \
                f"{text} (Th. {bound.theorem})"
        if fmt == "latex":
            return f"${_latex(value)}$ (Th. {bound.theorem})"
        return f"{_plain(value)} (Th. {bound.theorem})"

    rows = [[algorithm] + [cell(b) for regime in REGIMES for b in TABLE1
                           if b.algorithm == algorithm and b.regime == regime]
            for algorithm in ALGORITHMS]
    header = ["algorithm", *REGIMES]
    if fmt == "latex":
        lines = [r"\begin{tabular}{llll}", r"\hline", " & ".join(header) + r" \\", r"\hline"]
        lines += [" & ".join(row) + r" \\" for row in rows]
        return "\n".join([*lines, r"\hline", r"\end{tabular}"])
    widths = [max(len(r[k]) for r in [header, *rows]) for k in range(len(header))]
    return "\n".join("  ".join(text.ljust(w) for text, w in zip(r, widths, strict=True)).rstrip()
                     for r in [header, *rows])
