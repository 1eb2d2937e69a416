"""Machine checks of RR 8315's Theorems 1 to 5 and of Marendić et al.'s Lemma 1.

For every cell of Table 1 (an algorithm, a regime, a theorem), random
instances with costs in [d, D] and c_i = c are simulated exactly
(:func:`sim.simulate`) and compared with

- ratio × the lower bound the proof uses (:mod:`analytics.lower_bounds`),
- ratio × the clairvoyant optimum (:func:`analytics.clairvoyant_optimum`),

where the ratio is the cell's formula at the instance's own Δ = max d / min d
and n.  The worst empirical ratio makespan / optimum is reported next to the
proven one.  Comparisons are exact: rationals against sympy closed forms.

Outcome of a cell:

- ``"pass"``: every instance satisfies both inequalities;
- ``"refuted"``: some instance beats ratio × optimum: the theorem is false
  and the instance is kept as a counter-example (a finding, not a failure);
- ``"fail"``: hetcoll contradicts itself (a simulated makespan below the
  clairvoyant optimum): a bug to report.

An instance that breaks the proof's own inequality (makespan <= ratio × the
proof's lower bound) while the theorem holds against the optimum is counted in
``TheoremCheck.proof_gaps``: a flaw of the proof, not of the theorem nor of
hetcoll, so it changes neither the status nor the exit code.  None has been
found (``hetcoll verify --examples 200``: 0 in every cell).

References
----------
A. Benoit, L.-C. Canon, L. Marchal, INRIA RR-8315 (2013), section 4;
P. Marendić et al., "An investigation into the performance of reduction
algorithms under load imbalance", section 3, Lemma 1.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

import numpy as np
import sympy

from hetcoll.analytics.bounds import TABLE1, Bound
from hetcoll.analytics.lower_bounds import fibonacci_lower_bound, rounds_lower_bound
from hetcoll.analytics.optimum import clairvoyant_optimum, simplified_model_optimum
from hetcoll.core.errors import InputError
from hetcoll.core.numbers import fraction_str, to_fraction
from hetcoll.core.results import Result, exact_pair, to_jsonable

__all__ = [
    "InstanceCheck",
    "TheoremCheck",
    "random_instance",
    "check_instance",
    "proof_lower_bound",
    "verify_theorems",
    "verify_lemma1",
    "worst_ratio",
]

#: Δ values the random instances use (d = 1, D = Δ).
DELTAS = (Fraction(1), Fraction(3, 2), Fraction(2), Fraction(3), Fraction(5))


@dataclass
class InstanceCheck(Result):
    """One algorithm on one instance, against one cell of Table 1.

    Attributes
    ----------
    makespan, optimum, lower_bound : Fraction
    delta : Fraction
        The instance's Δ = max d(i, j) / min d(i, j).
    bound : sympy.Expr
        The cell's ratio at this Δ and n.
    ratio : Fraction
        makespan / optimum.
    within_optimum : bool
        makespan <= bound × optimum (the theorem).
    within_lower_bound : bool
        makespan <= bound × lower_bound (the proof's inequality).
    status : int
        0 (a check that cannot be made raises).
    message : str
    """

    makespan: Fraction
    optimum: Fraction
    lower_bound: Fraction
    delta: Fraction
    bound: sympy.Expr
    ratio: Fraction
    within_optimum: bool
    within_lower_bound: bool
    status: int = 0
    message: str = "checked"

    def to_dict(self) -> dict:
        """JSON-ready data: exact quantities as ``x`` (float) and ``x_exact`` (``"p/q"``);
        ``bound`` as a float and ``bound_text`` (the closed form at this Δ and n)."""
        return {"status": self.status, "message": self.message, "success": self.success,
                **exact_pair("makespan", self.makespan), **exact_pair("optimum", self.optimum),
                **exact_pair("lower_bound", self.lower_bound),
                **exact_pair("delta", self.delta), "bound": float(self.bound),
                "bound_text": str(self.bound), **exact_pair("ratio", self.ratio),
                "within_optimum": self.within_optimum,
                "within_lower_bound": self.within_lower_bound}

    as_dict = to_dict


@dataclass
class TheoremCheck(Result):
    """Outcome of the checks of one theorem (one cell of Table 1, or Lemma 1).

    Attributes
    ----------
    theorem : str
        ``"Theorem 1"`` ... ``"Theorem 5"`` or ``"Marendic Lemma 1"``.
    algorithm, regime : str
    bound : str
        The proven ratio, as text.
    instances : int
        Instances tried.
    worst_ratio : Fraction
        Largest makespan / optimum found.
    bound_at_worst : float
        The proven ratio at that instance's Δ and n.
    verdict : {"pass", "refuted", "fail"}
        See the module docstring.
    status : int
        1 for the verdict "fail" (hetcoll contradicts itself), else 0: a refuted
        theorem is a finding, not a failure.
    message : str
        The verdict in words.
    counterexample : dict or None
        For "refuted" and "fail": the instance and the numbers.
    closest_to_bound : float
        Largest ratio / proven ratio over the instances (1 means tight).
    proof_gaps : int
        Instances where the proof's own inequality, makespan <= ratio × lower
        bound, fails (while the theorem may still hold).
    """

    theorem: str
    algorithm: str
    regime: str
    bound: str
    instances: int = 0
    worst_ratio: Fraction = Fraction(0)
    bound_at_worst: float = float("nan")
    verdict: str = "pass"
    counterexample: dict | None = field(default=None)
    closest_to_bound: float = 0.0
    proof_gaps: int = 0

    @property
    def status(self) -> int:  # type: ignore[override]
        """1 when the verdict is "fail", else 0."""
        return int(self.verdict == "fail")

    @property
    def message(self) -> str:  # type: ignore[override]
        """The verdict in words."""
        return _VERDICTS[self.verdict]

    def to_dict(self) -> dict:
        """JSON-ready data.

        The key ``status`` holds the verdict string (``"pass"``, ``"refuted"`` or
        ``"fail"``), as ``hetcoll verify --json`` has always printed it (scripts read
        it); ``verdict`` repeats it, and ``success`` is False only for ``"fail"``.
        Exact numbers of the counter-example are ``x`` (float) and ``x_exact``.
        """
        counterexample = None
        if self.counterexample is not None:
            counterexample = {}
            for key, value in self.counterexample.items():
                if isinstance(value, Fraction):
                    counterexample |= exact_pair(key, value)
                else:
                    counterexample[key] = to_jsonable(value)
        return {"theorem": self.theorem, "algorithm": self.algorithm, "regime": self.regime,
                "bound": self.bound, "instances": self.instances,
                **exact_pair("worst_ratio", self.worst_ratio),
                "bound_at_worst": to_jsonable(self.bound_at_worst),  # NaN before any instance
                "closest_to_bound": self.closest_to_bound, "status": self.verdict,
                "verdict": self.verdict, "message": self.message, "success": self.success,
                "proof_gaps": self.proof_gaps, "counterexample": counterexample}

    as_dict = to_dict


_VERDICTS = {"pass": "the theorem holds on every instance",
             "refuted": "an instance breaks the theorem (a finding: see counterexample)",
             "fail": "hetcoll contradicts itself (a simulated makespan below the optimum)"}


def _regime(regime: str) -> str:
    if regime not in ("c=0", "any c", "c=d"):
        raise InputError(f"unknown regime {regime!r}; use 'c=0', 'any c' or 'c=d'")
    return regime


def _check_budget(examples: int, n_max: int, n_min: int) -> None:
    """InputError unless ``examples`` >= 1 and ``n_min`` <= ``n_max`` <= 8 (integers)."""
    for name, value in (("examples", examples), ("n_max", n_max)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise InputError(f"{name} must be an integer, got {value!r}")
    if examples < 1:
        raise InputError(f"examples must be >= 1, got {examples}")
    if not n_min <= n_max <= 8:
        raise InputError(f"n_max must be in {n_min}..8, got {n_max}")


def _rng(seed: object) -> np.random.Generator:
    """numpy Generator for ``seed``; InputError unless it is an integer >= 0."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InputError(f"seed must be a non-negative integer, got {seed!r}")
    return np.random.default_rng(int(seed))


def random_instance(rng: np.random.Generator, n: int, regime: str, delta: object = 2
                    ) -> tuple[list[list[Fraction]], list[Fraction]]:
    """A random platform with d(i, j) in [1, Δ] (both ends attained) and c_i = c.

    Half of the instances have two-valued costs ({1, Δ}, where the worst
    cases of section 4 live), half costs on a grid of step (Δ - 1)/12.

    Parameters
    ----------
    rng : numpy.random.Generator
    n : int
        Number of processors, >= 2.
    regime : {"c=0", "any c", "c=d"}
        c = 0; c on the grid [0, 2Δ] (both sides of d and D); or c = d = 1.
    delta : number
        Δ = D/d >= 1.

    Returns
    -------
    comm : list of list of Fraction
    comp : list of Fraction

    Raises
    ------
    InputError
        If n < 2, Δ < 1 or the regime is unknown.

    Examples
    --------
    >>> comm, comp = random_instance(np.random.default_rng(0), 3, "c=d", 2)
    >>> comp
    [Fraction(1, 1), Fraction(1, 1), Fraction(1, 1)]

    References
    ----------
    RR 8315, section 4 (Δ = D/d with d, D the extreme d(i, j); c_i = c).
    """
    regime = _regime(regime)
    if isinstance(n, bool) or not isinstance(n, int) or n < 2:
        raise InputError(f"n must be an integer >= 2, got {n!r}")
    big = to_fraction(delta, "Delta")
    if big < 1:
        raise InputError(f"Delta must be >= 1, got {delta}")
    steps = 1 if rng.random() < 0.5 else 12
    grid = rng.integers(0, steps + 1, size=(n, n))
    links = [(i, j) for i in range(n) for j in range(n) if i != j]
    first, second = rng.choice(len(links), size=2, replace=False)
    grid[links[first]], grid[links[second]] = 0, steps
    comm = [[Fraction(0) if i == j else 1 + (big - 1) * Fraction(int(grid[i, j]), steps)
             for j in range(n)] for i in range(n)]
    if regime == "c=0":
        c = Fraction(0)
    elif regime == "c=d":
        c = Fraction(1)
    else:
        c = 2 * big * Fraction(int(rng.integers(0, 13)), 12)
    return comm, [c] * n


def proof_lower_bound(theorem: int, n: int, d: object, c: object) -> Fraction:
    """The lower bound on the optimum that the proof of ``theorem`` uses.

    Theorems 1 and 2: d⌈log2 n⌉; Theorems 3 and 5: max(c, d)⌈log2 n⌉;
    Theorem 4: (k+1)·d with F_(k+2) >= n (c = d).

    Parameters
    ----------
    theorem : int
        1 to 5.
    n : int
        Number of processors, >= 2.
    d, c : number
        Smallest communication cost and the computation cost.

    Returns
    -------
    Fraction

    Raises
    ------
    InputError
        For another theorem number, n < 2 or a negative cost.

    Examples
    --------
    >>> proof_lower_bound(4, 8, 1, 1)
    Fraction(5, 1)

    References
    ----------
    RR 8315, section 4: proofs of Theorems 1, 2 (d⌈log2 n⌉), 3, 5
    (max(c, d)⌈log2 n⌉) and 4 ((k+1)d, Bar-Noy et al.'s optimum at c = d).
    """
    if theorem == 4:
        return fibonacci_lower_bound(n, d, c)
    if theorem in (1, 2, 3, 5):
        return rounds_lower_bound(n, d, c)
    raise InputError(f"no lower bound for theorem {theorem!r}; Table 1 has Theorems 1 to 5")


@lru_cache(maxsize=4096)
def _bound_at(bound: Bound, delta: Fraction, n: int) -> sympy.Expr:
    return bound.evaluate(delta, n)


def _at_most(value: Fraction, bound: sympy.Expr) -> bool:
    """value <= bound, exactly (sympy refines irrational closed forms as needed)."""
    return bool(sympy.Rational(value.numerator, value.denominator) <= bound)


def _cell(algorithm: str, regime: str) -> Bound:
    for bound in TABLE1:
        if bound.algorithm == algorithm and bound.regime == regime:
            return bound
    raise InputError(f"no cell of Table 1 for {algorithm!r} in regime {regime!r}")


def check_instance(algorithm: str, regime: str, comm: list, comp: list, *,
                   optimum: Fraction | None = None) -> InstanceCheck:
    """Simulate ``algorithm`` on one instance and compare with its Table 1 cell.

    Parameters
    ----------
    algorithm : {"binomial-stat", "tree-dyn", "fibonacci-stat"}
    regime : {"c=0", "any c", "c=d"}
        Must match the instance (c_i all equal; 0, or equal to min d(i, j)).
    comm, comp
        As for :func:`sim.simulate`.
    optimum : Fraction, optional
        The clairvoyant optimum, when already known (computed otherwise).

    Returns
    -------
    InstanceCheck

    Raises
    ------
    InputError
        If the instance does not belong to the regime, or its costs are invalid.

    Examples
    --------
    >>> check = check_instance("binomial-stat", "c=0", [[0, 1], [3, 0]], [0, 0])
    >>> check.makespan, check.optimum, check.ratio, check.within_optimum
    (Fraction(3, 1), Fraction(1, 1), Fraction(3, 1), True)

    References
    ----------
    RR 8315, section 4, Table 1 (the ratio) and the proofs (the lower bound).
    """
    from hetcoll import sim
    bound = _cell(algorithm, _regime(regime))
    costs = sim.MatrixCosts.from_input(comm, comp, exact=True)
    n = costs.n
    links = [costs.d[i][j] for i in range(n) for j in range(n) if i != j]
    d, big = min(links), max(links)
    if d <= 0:
        raise InputError("Table 1 needs positive communication costs (Delta = D/d)")
    c = costs.c[0]
    if any(value != c for value in costs.c):
        raise InputError("Table 1 assumes identical computation costs c_i = c")
    if (regime == "c=0" and c != 0) or (regime == "c=d" and c != d):
        raise InputError(f"the instance has c = {fraction_str(c)}, d = {fraction_str(d)}: "
                         f"not in regime {regime}")
    makespan = sim.simulate(algorithm, costs).makespan
    if optimum is None:
        optimum = clairvoyant_optimum(costs.d, costs.c).makespan
    lower = proof_lower_bound(bound.theorem, n, d, c)
    ratio_bound = _bound_at(bound, big / d, n)
    ratio = makespan / optimum if optimum else Fraction(1)
    return InstanceCheck(makespan, optimum, lower, big / d, ratio_bound, ratio,
                         _at_most(ratio, ratio_bound),
                         lower == 0 or _at_most(makespan / lower, ratio_bound))


def _progress(iterable: Iterable, total: int, enabled: bool, desc: str) -> Iterable:
    if not enabled:
        return iterable
    from tqdm import tqdm

    return tqdm(iterable, total=total, desc=desc, leave=False)


def verify_theorems(examples: int = 200, seed: int = 0, *, n_max: int = 7,
                    progress: bool = False) -> list[TheoremCheck]:
    """Check every cell of Table 1 on ``examples`` random instances per regime.

    Parameters
    ----------
    examples : int
        Instances per regime (each is used by the three algorithms).
    seed : int
        Seed of the numpy Generator; same seed, same instances.
    n_max : int
        Largest n (the optimum costs about n²·3^(n-1) steps); n is drawn in
        [2, n_max].
    progress : bool
        Show a tqdm progress bar on stderr.

    Returns
    -------
    list of TheoremCheck
        One per cell, in Table 1's order.

    Raises
    ------
    InputError
        If ``examples`` < 1, ``n_max`` is not in 2..8 or ``seed`` < 0.

    Examples
    --------
    >>> [c.verdict for c in verify_theorems(2, seed=1, n_max=3)][:3]
    ['pass', 'pass', 'pass']

    References
    ----------
    RR 8315, section 4, Theorems 1 to 5 and Table 1.
    """
    _check_budget(examples, n_max, 2)
    rng = _rng(seed)
    checks = {(b.algorithm, b.regime): TheoremCheck(f"Theorem {b.theorem}", b.algorithm,
                                                    b.regime, b.text()) for b in TABLE1}
    jobs = [(regime, int(rng.integers(2, n_max + 1)), DELTAS[int(rng.integers(len(DELTAS)))])
            for regime in ("c=0", "any c", "c=d") for _ in range(examples)]
    for regime, n, delta in _progress(jobs, len(jobs), progress, "verify"):
        comm, comp = random_instance(rng, n, regime, delta)
        optimum = clairvoyant_optimum(comm, comp).makespan
        for algorithm in ("binomial-stat", "tree-dyn", "fibonacci-stat"):
            check = checks[(algorithm, regime)]
            result = check_instance(algorithm, regime, comm, comp, optimum=optimum)
            check.instances += 1
            if result.ratio > check.worst_ratio:
                check.worst_ratio, check.bound_at_worst = result.ratio, float(result.bound)
            check.closest_to_bound = max(check.closest_to_bound,
                                         float(result.ratio) / float(result.bound))
            check.proof_gaps += not result.within_lower_bound
            verdict = ("refuted" if not result.within_optimum else
                       "fail" if result.makespan < optimum else "pass")
            if verdict != "pass" and check.verdict != "refuted":
                check.verdict = verdict
                check.counterexample = {
                    "comm": comm, "comp": comp, "makespan": result.makespan,
                    "optimum": optimum, "lower_bound": result.lower_bound,
                    "bound": str(result.bound)}
    return list(checks.values())


def worst_ratio(algorithm: str, regime: str, delta: object, *, examples: int = 100,
                seed: int = 0, n_min: int = 2, n_max: int = 6
                ) -> tuple[Fraction, tuple[list, list]]:
    """The largest makespan / optimum found on random instances at a fixed Δ.

    Parameters
    ----------
    algorithm : {"binomial-stat", "tree-dyn", "fibonacci-stat"}
    regime : {"c=0", "any c", "c=d"}
    delta : number
        Δ >= 1 of every instance (see :func:`random_instance`).
    examples, seed, n_min, n_max
        Number of instances, seed, range of n (drawn in [n_min, n_max]).

    Returns
    -------
    ratio : Fraction
    instance : (comm, comp)
        The instance that reached it.

    Examples
    --------
    Raises
    ------
    InputError
        If ``examples`` < 1, not 2 <= ``n_min`` <= ``n_max`` <= 8, ``seed`` < 0,
        Δ < 1, or the algorithm or regime is unknown.

    Examples
    --------
    >>> worst_ratio("tree-dyn", "c=0", 3, examples=20, n_max=3)[0]
    Fraction(3, 1)

    References
    ----------
    RR 8315, section 4, Table 1.
    """
    if isinstance(n_min, bool) or not isinstance(n_min, (int, np.integer)) or n_min < 2:
        raise InputError(f"n_min must be an integer >= 2, got {n_min!r}")
    _check_budget(examples, n_max, n_min)
    _cell(algorithm, _regime(regime))
    rng = _rng(seed)
    worst: tuple[Fraction, tuple[list, list]] = (Fraction(0), ([], []))
    for _ in range(examples):
        instance = random_instance(rng, int(rng.integers(n_min, n_max + 1)), regime, delta)
        ratio = check_instance(algorithm, regime, *instance).ratio
        if ratio > worst[0]:
            worst = (ratio, instance)
    return worst


def verify_lemma1(examples: int = 200, seed: int = 0, *, n_max: int = 7) -> TheoremCheck:
    """Check Lemma 1: Algorithm 1 is optimal under the simplified model (τ = 0).

    Start times are drawn on a grid in [0, 12], ψ in {1/2, 1, ..., 3}; the
    makespan of :func:`sim.marendic.perfect_knowledge_reduction` is compared with
    :func:`analytics.simplified_model_optimum`.

    Parameters
    ----------
    examples : int
        Number of random instances.
    seed : int
        Seed of the numpy Generator.
    n_max : int
        Largest number of processes, drawn in [1, n_max].

    Returns
    -------
    TheoremCheck
        ``worst_ratio`` is the largest Algorithm 1 / optimum (1 when the
        lemma holds); verdict "refuted" with the instance otherwise.

    Raises
    ------
    InputError
        If ``examples`` < 1, ``n_max`` is not in 1..8 or ``seed`` < 0.

    Examples
    --------
    >>> verify_lemma1(20, seed=1, n_max=5).verdict
    'pass'

    References
    ----------
    Marendić et al., section 3, Algorithm 1 and Lemma 1 (simplified model of
    their Fig. 2).
    """
    from hetcoll.sim.marendic import SimplifiedModel, perfect_knowledge_reduction

    _check_budget(examples, n_max, 1)
    rng = _rng(seed)
    check = TheoremCheck("Marendic Lemma 1", "marendic-perfect_knowledge_reduction", "tau=0", "1")
    for _ in range(examples):
        n = int(rng.integers(1, n_max + 1))
        starts = [Fraction(int(t), 2) for t in rng.integers(0, 25, size=n)]
        psi = Fraction(int(rng.integers(1, 7)), 2)
        makespan = perfect_knowledge_reduction(starts, SimplifiedModel(psi)).makespan
        optimum = simplified_model_optimum(starts, psi).makespan
        ratio = makespan / optimum if optimum else Fraction(1)
        check.instances += 1
        if ratio > check.worst_ratio:
            check.worst_ratio, check.bound_at_worst = ratio, 1.0
            check.closest_to_bound = float(ratio)
        if makespan != optimum and check.verdict == "pass":
            check.verdict = "refuted" if makespan > optimum else "fail"
            check.counterexample = {"start_times": starts, "psi": psi, "makespan": makespan,
                                    "optimum": optimum}
    return check
