"""Tight and bad instances of RR 8315, section 4, as generators.

Each generator returns a :class:`TightInstance`: the costs (by rule, so that
large n stays cheap), the algorithms the paper says it defeats, the makespan
the paper's argument predicts for them, the optimum the paper's argument
predicts, and the ratio they reach.  The simulator and the clairvoyant
optimum check these predictions (tests/test_instances.py).

Every instance is built on one of two patterns (``d(i, j)`` is the time to
send from P_i to P_j):

- ``"upward"``: d(i, j) = d for i < j, D otherwise (Theorem 1 and 4, Fig. 3).
  The static trees and the dynamic ones under hetcoll's tie-breaking
  (lowest index first) send from higher to lower index, hence pay D; the
  optimum only sends upwards and pays d.
- ``"downward"``: the mirror image, d(i, j) = d for i > j (optimum witnesses).
- ``"into-P0"``: d(j, 0) = D, every other link d (the Fibonacci-stat case).

References
----------
A. Benoit, L.-C. Canon, L. Marchal, INRIA RR-8315 (2013), section 4: proof
of Theorem 1 (tight instance), the two bullets after it (4/3·Δ for
Fibonacci-stat and Non-Commut-Tree-dyn, Figures 2(b) and 3), and proof of
Theorem 4 (asymptotic tightness).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import sympy

from hetcoll.analytics.bounds import DELTA, LOG2_PHI
from hetcoll.analytics.lower_bounds import _count, ceil_log2
from hetcoll.core.errors import InputError
from hetcoll.core.numbers import to_fraction
from hetcoll.sim.trees import fibonacci_order

__all__ = [
    "TightInstance",
    "theorem1_instance",
    "theorem4_instance",
    "theorem4_limit",
    "theorem4_ratio",
    "fibonacci_instance",
    "figure3_instance",
]

PATTERNS = ("upward", "downward", "into-P0")


@dataclass(frozen=True)
class TightInstance:
    """A platform on which an algorithm is provably far from optimal.

    Attributes
    ----------
    name : str
    n : int
    d, D : Fraction
        Smallest and largest communication cost (Δ = D/d).
    c : Fraction
        Computation cost of every processor.
    pattern : {"upward", "downward", "into-P0"}
        Which links cost D (see the module docstring).
    overrides : tuple of ((int, int), Fraction)
        Links whose cost differs from the pattern.
    algorithms : tuple of str
        The :data:`sim.ALGORITHMS` the instance defeats.
    makespan : Fraction
        Their makespan, as the paper's argument computes it.
    optimum : Fraction
        The optimal makespan, as the paper's argument computes it.
    noncommutative : bool
        True when ``optimum`` is the optimum among neighbour-only reductions.
    paper_ratio : sympy.Expr
        The ratio the paper states (in :data:`analytics.DELTA`), reached
        exactly or in a limit.
    """

    name: str
    n: int
    d: Fraction
    D: Fraction
    c: Fraction
    pattern: str
    overrides: tuple[tuple[tuple[int, int], Fraction], ...]
    algorithms: tuple[str, ...]
    makespan: Fraction
    optimum: Fraction
    noncommutative: bool
    paper_ratio: sympy.Expr

    def __post_init__(self):
        if self.pattern not in PATTERNS:
            raise InputError(f"pattern must be one of {', '.join(PATTERNS)}, got {self.pattern!r}")

    @property
    def delta(self) -> Fraction:
        """Δ = D/d."""
        return self.D / self.d

    @property
    def ratio(self) -> Fraction:
        """makespan / optimum, exactly."""
        return self.makespan / self.optimum

    def cost(self, sender: int, receiver: int) -> Fraction:
        """d(sender, receiver)."""
        for link, value in self.overrides:
            if link == (sender, receiver):
                return value
        if sender == receiver:
            return Fraction(0)
        if self.pattern == "upward":
            slow = sender > receiver
        elif self.pattern == "downward":
            slow = sender < receiver
        else:
            slow = receiver == 0
        return self.D if slow else self.d

    def comm_matrix(self) -> list[list[Fraction]]:
        """The n x n matrix of d(i, j) (diagonal 0), for :func:`sim.simulate` or JSON."""
        return [[self.cost(i, j) for j in range(self.n)] for i in range(self.n)]

    def comp(self) -> list[Fraction]:
        """The computation costs, c for every processor."""
        return [self.c] * self.n

    def cost_model(self) -> _RuleCosts:
        """A :class:`sim.CostModel` computing d(i, j) on demand (no n x n matrix)."""
        return _RuleCosts(self)

    def mirrored(self) -> TightInstance:
        """The same platform with P_i renamed P_(n-1-i).

        Optima are invariant under renaming; the static trees of the
        simulator, which send from higher to lower index, then only use the
        cheap links of an upward instance: a witness schedule of the optimum.
        The mirrored instance defeats no algorithm (``algorithms`` is empty)
        and its ``makespan`` is the optimum.
        """
        if self.pattern != "upward" or self.overrides:
            raise InputError("only plain upward instances can be mirrored")
        return TightInstance(f"{self.name} (mirrored)", self.n, self.d, self.D, self.c,
                             "downward", (), (), self.optimum, self.optimum,
                             self.noncommutative, sympy.Integer(1))


@dataclass(frozen=True)
class _RuleCosts:
    """The :class:`sim.CostModel` of a :class:`TightInstance`."""

    instance: TightInstance
    exact: bool = True

    @property
    def n(self) -> int:
        return self.instance.n

    def comm(self, k: int, sender: int, receiver: int, interval: tuple[int, int]) -> Fraction:
        return self.instance.cost(sender, receiver)

    def comp(self, k: int, processor: int) -> Fraction:
        return self.instance.c


def _costs(d: object, D: object) -> tuple[Fraction, Fraction]:
    small, large = to_fraction(d, "d"), to_fraction(D, "D")
    if small <= 0:
        raise InputError(f"d must be positive, got {d}")
    if large < small:
        raise InputError(f"D must be >= d, got d = {d}, D = {D}")
    return small, large


def _power_of_two(n: object, what: str) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n < 2 or n & (n - 1):
        raise InputError(f"{what}: n must be a power of two >= 2, got {n!r}")
    return n


def theorem1_instance(n: int, d: object = 1, D: object = 2) -> TightInstance:
    """Theorem 1's tight instance: c = 0, d(i, j) = d for i < j and D otherwise.

    Binomial-stat (any n) and Tree-dyn (n a power of two) take D⌈log2 n⌉; the
    optimum sends upwards only and takes d⌈log2 n⌉: the ratio is exactly Δ.

    Parameters
    ----------
    n : int
        Number of processors, >= 2.
    d, D : number
        0 < d <= D.

    Returns
    -------
    TightInstance

    Raises
    ------
    InputError
        If n < 2 or not 0 < d <= D.

    Notes
    -----
    The paper claims D⌈log2 n⌉ for Tree-dyn at every n.  With n not a power of
    two, Tree-dyn's first idle processors pair with the waiting odd one and it
    finishes earlier (n = 5, d = 1, D = 3: 7 instead of 9), so the instance is
    tight for Tree-dyn only at powers of two.

    Examples
    --------
    >>> theorem1_instance(8, 1, 3).ratio
    Fraction(3, 1)

    References
    ----------
    RR 8315, section 4.1, proof of Theorem 1.
    """
    small, large = _costs(d, D)
    n = _count(n)
    algorithms = ("binomial-stat", "tree-dyn") if n & (n - 1) == 0 else ("binomial-stat",)
    rounds = ceil_log2(n)
    return TightInstance("Theorem 1", n, small, large, Fraction(0), "upward", (), algorithms,
                         large * rounds, small * rounds, False, DELTA)


def theorem4_instance(n: int, d: object = 1, D: object = 2) -> TightInstance:
    """Theorem 4's instance: c = d, d(i, j) = d for i < j and D otherwise.

    With n = 2^m, Binomial-stat and Tree-dyn take m·(D + c); the optimum is a
    Fibonacci tree using upward links only, (k+1)·d with k the smallest order
    such that F_(k+2) >= n.  The ratio m(Δ+1)/(k+1) tends to log2 φ·(Δ+1)
    (:func:`theorem4_limit`) as n grows.

    Parameters
    ----------
    n : int
        A power of two >= 2 (the paper's "exactly ⌈log2 n⌉(D + c)" needs it:
        with n = 3, Binomial-stat takes 2D + c).
    d, D : number
        0 < d <= D.

    Returns
    -------
    TightInstance

    Raises
    ------
    InputError
        If n is not a power of two or not 0 < d <= D.

    Examples
    --------
    >>> theorem4_instance(8, 1, 2).ratio
    Fraction(9, 5)

    References
    ----------
    RR 8315, section 4.2, proof of Theorem 4.
    """
    small, large = _costs(d, D)
    n = _power_of_two(n, "theorem4_instance")
    rounds = ceil_log2(n)
    return TightInstance("Theorem 4", n, small, large, small, "upward", (),
                         ("binomial-stat", "tree-dyn"), rounds * (large + small),
                         (fibonacci_order(n) + 1) * small, False, theorem4_limit())


def theorem4_ratio(m: int, delta: object) -> Fraction:
    """Exact ratio of Theorem 4's instance with n = 2^m: m(Δ+1)/(k+1).

    Cheap for any m (no simulation); :func:`theorem4_instance` and the
    simulator confirm it up to m = 12.  It is exact for every m: Binomial-stat
    and Tree-dyn pay D + c in each of the m rounds, and (k+1)d is both the
    homogeneous c = d optimum (a lower bound) and the makespan of a Fibonacci
    tree on the cheap links.  It stays below :func:`theorem4_limit` and is
    within 1% of it only from m = 104 on (not monotonically: 1.8% at m = 60).

    Parameters
    ----------
    m : int
        log2 n, >= 1.
    delta : number
        Δ = D/d.

    Returns
    -------
    Fraction

    Raises
    ------
    InputError
        If m is not an integer >= 1 or Δ is not a number.

    Examples
    --------
    >>> theorem4_ratio(3, 2)
    Fraction(9, 5)

    References
    ----------
    RR 8315, section 4.2, proof of Theorem 4 ("asymptotically, k = log2 n /
    log2 φ + O(1)": the O(1) hides a gap of order 1/log2 n).
    """
    if isinstance(m, bool) or not isinstance(m, int) or m < 1:
        raise InputError(f"m must be an integer >= 1, got {m!r}")
    return m * (to_fraction(delta, "Delta") + 1) / (fibonacci_order(2**m) + 1)


def theorem4_limit(delta: object = None) -> sympy.Expr:
    """log2 φ·(Δ+1), the limit of Theorem 4's ratio (symbolic, or at ``delta``).

    Parameters
    ----------
    delta : number, optional
        Δ = D/d; symbolic in :data:`analytics.DELTA` when omitted.

    Returns
    -------
    sympy.Expr

    Raises
    ------
    InputError
        If ``delta`` is not a number.

    Examples
    --------
    >>> float(theorem4_limit(2))  # doctest: +ELLIPSIS
    2.0827...

    References
    ----------
    RR 8315, section 4.2, end of the proof of Theorem 4.
    """
    expression = LOG2_PHI * (DELTA + 1)
    if delta is None:
        return expression
    return expression.subs(DELTA, sympy.Rational(*to_fraction(delta, "Delta").as_integer_ratio()))


def fibonacci_instance(d: object = 1, D: object = 2) -> TightInstance:
    """Fibonacci-stat's bad case (Fig. 2(b)): n = 8, c = 0, links into P0 cost D.

    P0 receives four values one after the other: 4D.  The optimum (a binomial
    tree with P0 as a leaf) takes 3d: the ratio is 4/3·Δ, above Δ.

    Parameters
    ----------
    d, D : number
        0 < d <= D.

    Returns
    -------
    TightInstance

    Raises
    ------
    InputError
        If not 0 < d <= D.

    Examples
    --------
    >>> fibonacci_instance(1, 3).ratio
    Fraction(4, 1)

    References
    ----------
    RR 8315, section 4.1, first bullet after Theorem 1.
    """
    small, large = _costs(d, D)
    return TightInstance("Fibonacci-stat 4/3 Delta", 8, small, large, Fraction(0), "into-P0",
                         (), ("fibonacci-stat",), 4 * large, 3 * small, False,
                         sympy.Rational(4, 3) * DELTA)


def figure3_instance(d: object = 1, D: object = 2, epsilon: object = None) -> TightInstance:
    """Figure 3: Non-Commut-Tree-dyn at n = 8, c = 0, d(i, j) = D for i > j, d otherwise.

    After the first step, P2 and P4 finish "slightly before" P0 and P6
    (d(3, 2) = d(5, 4) = D - ε) and reduce together; P0 and P6 wait, and two
    more steps follow: 4D - ε.  The optimum among neighbour-only reductions
    sends upwards only: 3d.  The ratio (4D - ε)/3d tends to 4/3·Δ as ε -> 0.
    With ε = 0 hetcoll's tie-breaking pairs (P0, P2) and (P4, P6) and the run
    takes 3D.

    Parameters
    ----------
    d, D : number
        0 < d < D.
    epsilon : number, optional
        0 < ε <= D - d; (D - d)/10 by default.

    Returns
    -------
    TightInstance
        ``noncommutative`` is True: ``optimum`` is over neighbour-only reductions.

    Raises
    ------
    InputError
        If not 0 < d < D or ε is out of range.

    Examples
    --------
    >>> figure3_instance(1, 2, "1/10").makespan
    Fraction(79, 10)

    References
    ----------
    RR 8315, section 4.1, second bullet after Theorem 1, Figure 3.
    """
    small, large = _costs(d, D)
    if large == small:
        raise InputError("figure3_instance needs d < D (it perturbs D downwards)")
    eps = (large - small) / 10 if epsilon is None else to_fraction(epsilon, "epsilon")
    if not 0 < eps <= large - small:
        raise InputError(f"epsilon must be in (0, D - d], got {epsilon}")
    overrides = (((3, 2), large - eps), ((5, 4), large - eps))
    return TightInstance("Figure 3", 8, small, large, Fraction(0), "upward", overrides,
                         ("noncommut-tree-dyn",), 4 * large - eps, 3 * small, True,
                         sympy.Rational(4, 3) * DELTA)
