"""A small toolkit for absorbing continuous-time Markov chains.

A chain is described once, as plain data (:class:`AbsorbingCTMC`), and every
quantity of its absorption time follows from it:

- moments in floats (:func:`absorption_moments`: sparse triangular solves in
  topological order on acyclic chains, a sparse LU otherwise) and in exact
  rationals (:func:`exact_absorption_moments`, back-substitution in
  topological order when the chain is acyclic, an exact rational solver
  otherwise);
- the whole phase-type distribution (:func:`absorption_cdf`,
  :func:`absorption_pdf`, :func:`absorption_quantiles`) through actions of the
  matrix exponential on vectors (uniformization on sparse matrices; dense
  ``expm`` only on chains of at most :data:`DENSE_LIMIT` states);
- everything at once in a result object (:func:`absorption_time`).

Transition rates are stored as ``multiplicity * base_rates[kind]``: chains of
identical components (``a`` transfers running, each ending at rate
``lambda_d``) then need only a handful of exact base rates, which keeps exact
arithmetic cheap on chains with millions of transitions.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from numbers import Rational

import flint
import numpy as np
import scipy.sparse as sp
from scipy.linalg import expm
from scipy.sparse.linalg import splu, spsolve_triangular
from scipy.stats import poisson

from hetcoll.core.errors import InputError, LimitError
from hetcoll.core.numbers import fraction_str, positive_fraction
from hetcoll.core.results import Result, exact_pair, to_jsonable

__all__ = [
    "AbsorbingCTMC",
    "AbsorptionResult",
    "absorption_cdf",
    "absorption_moments",
    "absorption_pdf",
    "absorption_quantiles",
    "absorption_time",
    "exact_absorption_moments",
]

ABSORBED = -1
"""Target index meaning "the chain is absorbed"."""
TRUNCATION = 1e-16
"""Probability below which the top levels of an acyclic chain are dropped (quantiles)."""
POISSON_TAIL = 1e-16
"""Poisson probability dropped at each end of a uniformization sum."""
DENSE_LIMIT = 200
"""Up to this many states, the distribution uses dense matrix exponentials."""


@dataclass(frozen=True, eq=False)
class AbsorbingCTMC:
    """An absorbing CTMC started in one transient state.

    Transition ``t`` goes from transient state ``source[t]`` to transient state
    ``target[t]`` (or to absorption when ``target[t] == -1``) at rate
    ``multiplicity[t] * base_rates[kind[t]]``.  All absorbing states are merged
    into one: only the absorption time matters here.

    Attributes
    ----------
    states : sequence
        Labels of the transient states (any sequence: a list of tuples, or a
        numpy array with one row per state for large chains).
    source, target, multiplicity, kind : numpy.ndarray of int64
        One entry per transition, as above.  Parallel transitions (same source,
        target and kind) are merged by the constructors.
    base_rates : tuple
        Positive rates, exact (:class:`~fractions.Fraction`) when rational.
    initial : int
        Index of the initial state, or -1 when the chain starts absorbed (the
        absorption time is then 0).

    Examples
    --------
    Two exponential phases in series (an Erlang-2 of rate 3):

    >>> moves = {"busy2": [("busy1", 3)], "busy1": [("done", 3)]}
    >>> chain = AbsorbingCTMC.from_successors("busy2", lambda s: moves.get(s, []))
    >>> absorption_time(chain, exact=True).mean_exact
    Fraction(2, 3)
    """

    states: Sequence
    source: np.ndarray
    target: np.ndarray
    multiplicity: np.ndarray
    kind: np.ndarray
    base_rates: tuple
    initial: int
    _cache: dict = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self):
        n = len(self.states)
        for name in ("source", "target", "multiplicity", "kind"):
            object.__setattr__(self, name, np.asarray(getattr(self, name), dtype=np.int64))
        sizes = {len(self.source), len(self.target), len(self.multiplicity), len(self.kind)}
        if len(sizes) != 1:
            raise InputError("source, target, multiplicity and kind must have the same length")
        if not -1 <= self.initial < n:
            raise InputError(f"initial state index {self.initial} is out of range")
        if len(self.source) and (self.source.min() < 0 or self.source.max() >= n
                                 or self.target.min() < -1 or self.target.max() >= n):
            raise InputError("a transition refers to a state index out of range")
        if len(self.kind) and (self.kind.min() < 0 or self.kind.max() >= len(self.base_rates)):
            raise InputError("a transition refers to a rate kind out of range")
        if len(self.multiplicity) and self.multiplicity.min() <= 0:
            raise InputError("transition multiplicities must be positive")
        for i, rate in enumerate(self.base_rates):
            if not rate > 0 or not math.isfinite(float(rate)):
                raise InputError(f"base rate {i} must be positive and finite, got {rate!r}")

    # ------------------------------------------------------------------ builders
    @classmethod
    def from_arrays(cls, states: Sequence, source, target, multiplicity, kind,
                    base_rates: Sequence, initial: int) -> AbsorbingCTMC:
        """Build a chain from transition arrays, merging parallel transitions.

        Parameters
        ----------
        states : sequence
            Labels of the transient states.
        source, target, multiplicity, kind : array_like of int
            One entry per transition (``target`` -1 for absorption); the rate
            is ``multiplicity * base_rates[kind]``.
        base_rates : sequence
            Positive rates; ints, Fractions and ``"p/q"`` strings stay exact,
            floats stay floats.
        initial : int
            Index of the initial state (-1: starts absorbed).

        Returns
        -------
        AbsorbingCTMC

        Raises
        ------
        InputError
            On inconsistent lengths, indices out of range, non-positive
            multiplicities or rates.

        Examples
        --------
        >>> chain = AbsorbingCTMC.from_arrays(["b", "a"], [0, 1, 0], [1, -1, 1], [1, 1, 1],
        ...                                   [0, 0, 0], [2], 0)
        >>> chain.multiplicity.tolist()  # the two b -> a transitions merged
        [2, 1]
        """
        source, target, multiplicity, kind = (np.asarray(x, dtype=np.int64).ravel()
                                              for x in (source, target, multiplicity, kind))
        if len(source):
            # One integer key per (source, target, kind): a flat sort, much
            # faster than np.unique(axis=1) on millions of transitions.
            states_span, kinds = len(states) + 1, len(base_rates)
            keys = (source * states_span + target + 1) * kinds + kind
            unique, inverse = np.unique(keys, return_inverse=True)
            multiplicity = np.bincount(inverse, weights=multiplicity,
                                       minlength=len(unique)).astype(np.int64)
            kind = unique % kinds
            source, target = np.divmod(unique // kinds, states_span)
            target = target - 1
        return cls(states, source, target, multiplicity, kind,
                   tuple(_exact_if_rational(r) for r in base_rates), initial)

    @classmethod
    def from_successors(cls, initial: Hashable,
                        successors: Callable[[Hashable], Iterable[tuple[Hashable, object]]],
                        *, max_states: int | None = None,
                        max_transitions: int | None = None,
                        progress: bool = False) -> AbsorbingCTMC:
        """Explore the states reachable from ``initial`` (breadth first).

        Parameters
        ----------
        initial : hashable
            The initial state.
        successors : callable
            ``successors(state)`` yields ``(next_state, rate)`` pairs; a state
            with no successor is absorbing.  Rates may be ints, Fractions,
            ``"p/q"`` strings or floats; pairs with the same next state add up.
        max_states : int, optional
            Stop with :class:`~hetcoll.InputError` beyond this many transient
            states (a guard against state-space explosion).
        max_transitions : int, optional
            Stop with :class:`~hetcoll.InputError` beyond this many
            transitions.  Memory grows with the transitions, and a state may
            have many: this guard stops a wide chain (e.g. Non-Commut-Tree-dyn
            at n = 200, about n/2 moves per state) long before ``max_states``
            would.
        progress : bool
            Show a tqdm bar of the states explored.

        Returns
        -------
        AbsorbingCTMC

        Raises
        ------
        InputError
            If a rate is not a positive number in [1e-100, 1e100].
        LimitError
            If ``max_states`` or ``max_transitions`` is exceeded (the message
            names the keyword).

        Examples
        --------
        >>> from hetcoll.markov import absorption_time
        >>> chain = AbsorbingCTMC.from_successors(
        ...     2, lambda k: [(k - 1, k)] if k > 0 else [])  # pure death, rates 2 then 1
        >>> chain.n_states, absorption_time(chain, exact=True).mean_exact
        (2, Fraction(3, 2))

        References
        ----------
        First-step analysis of absorbing CTMCs: Kulkarni, *Modeling and
        Analysis of Stochastic Systems*, chapter 6; the chains of RR 8315,
        section 5, are built with it.
        """
        index: dict[Hashable, int] = {}
        states: list[Hashable] = []
        rate_kind: dict[object, int] = {}
        # Successor functions usually yield the same few rate objects over and
        # over: validate and hash each object once.  The cache keeps the
        # objects alive, so their ids stay unique.
        kind_by_id: dict[int, tuple[object, int]] = {}

        def kind_of(rate, state):
            cached = kind_by_id.get(id(rate))
            if cached is not None and cached[0] is rate:
                return cached[1]
            value = _positive_rate(rate, f"rate from state {state!r}")
            kind = rate_kind.setdefault(value, len(rate_kind))
            kind_by_id[id(rate)] = (rate, kind)
            return kind

        # Flat lists of the transitions, whose targets are the canonical state
        # objects (the one first seen): successor functions build a fresh
        # object per move, and keeping them all would cost memory per
        # transition instead of per state.
        counts: list[int] = []
        targets: list[Hashable] = []
        kinds: list[int] = []
        bar = _maybe_tqdm(None, progress, "building the chain")
        queue = [initial]
        seen = {initial: initial}
        head = 0
        while head < len(queue):
            state = queue[head]
            head += 1
            before = len(targets)
            for nxt, rate in successors(state):
                canonical = seen.get(nxt)
                if canonical is None:
                    seen[nxt] = canonical = nxt
                    queue.append(nxt)
                targets.append(canonical)
                kinds.append(kind_of(rate, state))
                if max_transitions is not None and len(targets) > max_transitions:
                    # Checked per transition: one state may have very many.
                    raise LimitError(f"more than max_transitions={max_transitions} "
                                     f"transitions (after {len(states)} states)")
            if len(targets) == before:
                continue
            index[state] = len(states)
            states.append(state)
            counts.append(len(targets) - before)
            if bar is not None and len(states) % 4096 == 0:
                bar.update(4096)
            if max_states is not None and len(states) > max_states:
                raise LimitError(f"more than max_states={max_states} transient states")
        if bar is not None:
            bar.close()
        source = np.repeat(np.arange(len(counts)), counts)
        target = np.fromiter((index.get(nxt, ABSORBED) for nxt in targets), dtype=np.int64,
                             count=len(targets))
        del targets, seen, queue
        return cls.from_arrays(states, source, target, np.ones(len(source)), kinds,
                               list(rate_kind), index.get(initial, ABSORBED))

    # ---------------------------------------------------------------- properties
    @property
    def n_states(self) -> int:
        """Number of transient states."""
        return len(self.states)

    @property
    def is_exact(self) -> bool:
        """Whether every base rate is rational (exact moments are available)."""
        return all(isinstance(r, Fraction) for r in self.base_rates)

    def rates(self) -> np.ndarray:
        """Float rate of every transition."""
        return self.multiplicity * np.array([float(r) for r in self.base_rates])[self.kind]

    def exit_rates(self) -> np.ndarray:
        """Float total outgoing rate of every transient state (``-diag(S)``)."""
        return np.bincount(self.source, weights=self.rates(), minlength=self.n_states)

    def absorption_rates(self) -> np.ndarray:
        """Float rate of absorption from every transient state (``-S 1``)."""
        to_abs = self.target == ABSORBED
        return np.bincount(self.source[to_abs], weights=self.rates()[to_abs],
                           minlength=self.n_states)

    def subgenerator(self) -> sp.csr_array:
        """The transient part ``S`` of the generator, a sparse matrix."""
        if "S" not in self._cache:
            inner = self.target != ABSORBED
            n = self.n_states
            off = sp.coo_array((self.rates()[inner], (self.source[inner], self.target[inner])),
                               shape=(n, n))
            self._cache["S"] = (off - sp.diags_array(self.exit_rates())).tocsr()
        return self._cache["S"]

    def topological_levels(self) -> np.ndarray | None:
        """Level of every state when the transient graph is acyclic, else None.

        Level 0 states only lead to absorption; a state of level ``l`` leads
        only to states of lower levels.  Computed by peeling, one numpy step
        per level.
        """
        if "levels" in self._cache:
            return self._cache["levels"]
        n = self.n_states
        inner = (self.target != ABSORBED) & (self.target != self.source)
        if np.any(self.target == self.source):
            self._cache["levels"] = None
            return None
        pending = np.bincount(self.source[inner], minlength=n)
        order = np.argsort(self.target[inner], kind="stable")
        preds = self.source[inner][order]
        starts = np.searchsorted(self.target[inner][order], np.arange(n + 1))
        levels = np.full(n, -1, dtype=np.int64)
        frontier = np.flatnonzero(pending == 0)
        level = 0
        while frontier.size:
            levels[frontier] = level
            lo, hi = starts[frontier], starts[frontier + 1]
            counts = hi - lo
            gathered = preds[np.repeat(hi - counts.cumsum(), counts) + np.arange(counts.sum())]
            # O(edges touched) per level, not O(states): keeps the peeling linear overall.
            np.subtract.at(pending, gathered, 1)
            touched = np.unique(gathered)
            frontier = touched[pending[touched] == 0]
            level += 1
        result = levels if (levels >= 0).all() else None
        self._cache["levels"] = result
        return result


@dataclass
class AbsorptionResult(Result):
    """Absorption time of a chain, in the style of ``scipy.optimize.OptimizeResult``.

    Attributes
    ----------
    status : int
        0 on success, 1 when exact moments were asked for a chain with
        irrational rates (floats are still given).
    message : str
    mean, variance : float
    moments : tuple of float
        ``E[T], E[T^2], ...`` up to the requested order.
    mean_exact, variance_exact : Fraction or None
        Exact values when asked for and the rates are rational.
    moments_exact : tuple of Fraction or None
    quantiles : dict of float to float
        ``{probability: time}``.
    states, transitions : int
        Size of the chain (transient states, transitions).
    warnings : list of str
        Legal but suspicious facts about the computation (e.g. a quantile
        refined to less than its tolerance); empty when all is well.
    """

    status: int
    message: str
    mean: float
    variance: float
    moments: tuple
    mean_exact: Fraction | None
    variance_exact: Fraction | None
    moments_exact: tuple | None
    quantiles: dict
    states: int
    transitions: int
    warnings: list = field(default_factory=list)

    @property
    def std(self) -> float:
        """Standard deviation, ``sqrt(variance)``."""
        return math.sqrt(self.variance)

    def to_dict(self) -> dict:
        """JSON-ready data: ``mean``/``mean_exact``, ``variance``/``variance_exact``, ``std``...

        Exact values are None unless computed; quantile keys are ``repr`` of
        the probabilities (``"0.1"``).
        """
        moments_exact = (None if self.moments_exact is None
                         else [fraction_str(m) for m in self.moments_exact])
        return to_jsonable({
            "status": self.status, "message": self.message, "success": self.success,
            **exact_pair("mean", self.mean_exact if self.mean_exact is not None else self.mean),
            **exact_pair("variance", self.variance_exact if self.variance_exact is not None
                         else self.variance),
            "std": self.std, "moments": list(self.moments), "moments_exact": moments_exact,
            "quantiles": {repr(p): t for p, t in self.quantiles.items()},
            "states": self.states, "transitions": self.transitions,
            "warnings": list(self.warnings)})

    as_dict = to_dict


# ---------------------------------------------------------------------- moments
def absorption_moments(chain: AbsorbingCTMC, order: int = 2) -> np.ndarray:
    """Raw moments ``E[T^k]``, ``k = 1..order``, of the absorption time (floats).

    First-step analysis: with ``S`` the sub-generator, ``(-S) m_1 = 1`` and
    ``(-S) m_k = k m_(k-1)``.  On an acyclic chain, sorted by topological
    level, ``-S`` is lower triangular: sparse triangular solves, no
    factorisation.  Otherwise one sparse LU factorisation serves every order.

    Parameters
    ----------
    chain : AbsorbingCTMC
    order : int
        Highest moment, at least 1.

    Returns
    -------
    numpy.ndarray
        ``[E[T], ..., E[T^order]]`` from the initial state.

    Raises
    ------
    InputError
        If ``order < 1`` or if absorption is not certain from the initial state
        (singular system).

    Examples
    --------
    >>> chain = AbsorbingCTMC.from_successors(0, lambda s: [(1, 2)] if s == 0 else [])
    >>> absorption_moments(chain, 2)  # Exp(2): 1/2, 2/4
    array([0.5, 0.5])

    References
    ----------
    Benoit, Canon, Marchal, RR 8315 (2013), section 5 (first-step analysis).
    """
    _check_order(order)
    if chain.initial == ABSORBED:
        return np.zeros(order)
    matrix, permutation = _ordered_system(chain)
    if permutation is None:
        try:
            solve = splu(matrix.tocsc()).solve
        except RuntimeError:
            raise InputError("absorption is not certain: the moment system is singular") from None
        start = chain.initial
    else:
        def solve(rhs):
            return spsolve_triangular(matrix, rhs, lower=True)

        start = int(np.flatnonzero(permutation == chain.initial)[0])
    moments = []
    m = np.ones(chain.n_states)
    for k in range(1, order + 1):
        m = solve(k * m if k > 1 else m)
        moments.append(m[start])
    result = np.array(moments)
    if not np.all(np.isfinite(result)):
        raise InputError("absorption is not certain: the moment system is singular")
    return result


def exact_absorption_moments(chain: AbsorbingCTMC, order: int = 2, *,
                             progress: bool = False) -> list[Fraction]:
    """Raw moments ``E[T^k]``, ``k = 1..order``, as exact rationals.

    On an acyclic chain, back-substitution in topological order:
    ``m_k(i) = (k m_(k-1)(i) + sum_j r_ij m_k(j)) / q_i`` with ``q_i`` the exit
    rate, exactly (python-flint rationals).  On a chain with cycles, an exact
    dense rational solve (small chains only).

    Parameters
    ----------
    chain : AbsorbingCTMC
        With rational base rates.
    order : int
    progress : bool
        Show a tqdm progress bar.

    Returns
    -------
    list of Fraction

    Raises
    ------
    InputError
        If a base rate is not rational, ``order < 1``, or absorption is not
        certain.

    Examples
    --------
    >>> chain = AbsorbingCTMC.from_successors(0, lambda s: [(1, 3)] if s == 0 else [])
    >>> exact_absorption_moments(chain, 2)
    [Fraction(1, 3), Fraction(2, 9)]

    References
    ----------
    First-step analysis: the moment systems ``(-S) m_1 = 1``,
    ``(-S) m_k = k m_(k-1)`` (Neuts 1981, chapter 2); Benoit, Canon, Marchal,
    RR 8315, section 5, apply them to Tree-dyn.
    """
    _check_order(order)
    if not chain.is_exact:
        raise InputError("exact moments need rational rates")
    if chain.initial == ABSORBED:
        return [Fraction(0)] * order
    base = [flint.fmpq(r.numerator, r.denominator) for r in chain.base_rates]
    rates = [base[k] * int(m) for k, m in zip(chain.kind.tolist(), chain.multiplicity.tolist(),
                                            strict=True)]
    levels = chain.topological_levels()
    if levels is None:
        values = _exact_dense_solve(chain, rates, order)
    else:
        values = _exact_back_substitution(chain, rates, order, levels, progress)
    return [Fraction(int(v.p), int(v.q)) for v in values]


def _exact_back_substitution(chain, rates, order, levels, progress):
    n = chain.n_states
    by_source = np.argsort(chain.source, kind="stable")
    starts = np.searchsorted(chain.source[by_source], np.arange(n + 1)).tolist()
    by_source_list = by_source.tolist()
    targets = chain.target.tolist()
    zero = flint.fmpq(0)
    m = [None] * n
    order_of_states = np.argsort(levels, kind="stable").tolist()
    for i in _maybe_tqdm(order_of_states, progress, "exact back-substitution"):
        q = zero
        sums = [zero] * order
        for t in by_source_list[starts[i]:starts[i + 1]]:
            r = rates[t]
            q += r
            j = targets[t]
            if j != ABSORBED:
                mj = m[j]
                for k in range(order):
                    sums[k] += r * mj[k]
        values = []
        previous = flint.fmpq(1)
        for k in range(order):
            current = (sums[k] + (k + 1) * previous) / q
            values.append(current)
            previous = current
        m[i] = values
    return m[chain.initial]


def _exact_dense_solve(chain, rates, order):
    n = chain.n_states
    a = flint.fmpq_mat(n, n)
    for s, t, r in zip(chain.source.tolist(), chain.target.tolist(), rates, strict=True):
        a[s, s] += r
        if t != ABSORBED:
            a[s, t] -= r
    try:
        rhs = flint.fmpq_mat(n, 1, [1] * n)
        values = []
        for k in range(1, order + 1):
            rhs = a.solve(rhs * k if k > 1 else rhs)
            values.append(rhs[chain.initial, 0])
    except ZeroDivisionError:
        raise InputError("absorption is not certain: the moment system is singular") from None
    return values


# ------------------------------------------------------------------ distribution
def absorption_cdf(chain: AbsorbingCTMC, times) -> np.ndarray:
    """CDF ``P(T <= t)`` of the absorption time at each of ``times``.

    Phase-type representation: ``P(T > t) = alpha exp(S t) 1``, computed as
    the action of the matrix exponential on the initial distribution,
    stepping through the sorted times.

    Parameters
    ----------
    chain : AbsorbingCTMC
    times : sequence of float
        Non-negative finite times, in any order.

    Returns
    -------
    numpy.ndarray
        ``P(T <= t)`` for each time, in the order given.

    Raises
    ------
    InputError
        If a time is negative or not a finite number.

    Examples
    --------
    >>> chain = AbsorbingCTMC.from_successors(0, lambda s: [(1, 1)] if s == 0 else [])
    >>> round(float(absorption_cdf(chain, [1.0])[0]), 6)  # 1 - exp(-1)
    0.632121

    References
    ----------
    Neuts, *Matrix-Geometric Solutions in Stochastic Models* (1981), chapter 2
    (phase-type distributions); Benoit, Canon, Marchal, RR 8315, section 5
    (the chains of the dynamic reductions).
    """
    return 1.0 - _transient_distribution(chain, times)[0].sum(axis=1)


def absorption_pdf(chain: AbsorbingCTMC, times) -> np.ndarray:
    """Density of the absorption time at each of ``times`` (``alpha exp(S t) s0``).

    Parameters
    ----------
    chain : AbsorbingCTMC
    times : sequence of float
        Non-negative finite times, in any order.

    Returns
    -------
    numpy.ndarray
        The density at each time, in the order given (``s0`` is the vector of
        absorption rates).

    Raises
    ------
    InputError
        If a time is negative or not a finite number.

    Examples
    --------
    >>> chain = AbsorbingCTMC.from_successors(0, lambda s: [(1, 2)] if s == 0 else [])
    >>> round(float(absorption_pdf(chain, [0.0])[0]), 6)
    2.0

    References
    ----------
    Neuts, *Matrix-Geometric Solutions in Stochastic Models* (1981), chapter 2
    (phase-type distributions); Benoit, Canon, Marchal, RR 8315, section 5
    (the chains of the dynamic reductions).
    """
    states, exits = _transient_distribution(chain, times)
    return states @ exits


def absorption_quantiles(chain: AbsorbingCTMC, probabilities: Sequence[float], *,
                         xtol: float = 1e-10, progress: bool = False,
                         warnings: list[str] | None = None) -> dict[float, float]:
    """Quantiles of the absorption time.

    The CDF is tabulated on a grid of step (mean + 6 std) / 64 up to beyond
    the largest probability (uniformization, see :func:`_uniformized`),
    then each quantile is refined by safeguarded Newton steps (the density is
    the CDF's derivative) from its bracketing grid points.  On acyclic chains,
    the states of the highest levels are dropped once they hold less than
    ``1e-16`` of probability in total: mass only flows to lower levels, so
    this changes the CDF by less than ``1e-16`` per grid step, and it removes
    the fastest rates, which set the cost of the exponentials.

    Parameters
    ----------
    chain : AbsorbingCTMC
    probabilities : sequence of float
        Each strictly between 0 and 1.
    xtol : float
        Tolerance on the returned times, relative to the mean absorption time
        (so that it means the same whatever the time unit: rates may lie anywhere in
        [1e-100, 1e100]).
    progress : bool
        Show a tqdm progress bar over the CDF table.
    warnings : list of str, optional
        Receives one line per legal but suspicious fact: a stiff chain (rates far
        apart, solved by the implicit BDF method, relative accuracy about 1e-8
        instead of 1e-12), a quantile not refined to ``xtol`` in 100 steps.

    Returns
    -------
    dict of float to float

    Raises
    ------
    InputError
        If a probability is not in (0, 1).

    Examples
    --------
    >>> chain = AbsorbingCTMC.from_successors(0, lambda s: [(1, 1)] if s == 0 else [])
    >>> round(absorption_quantiles(chain, [0.5])[0.5], 8)  # ln 2
    0.69314718

    References
    ----------
    Neuts, *Matrix-Geometric Solutions in Stochastic Models* (1981), chapter 2
    (phase-type distributions); Benoit, Canon, Marchal, RR 8315, section 5
    (the chains of the dynamic reductions).
    """
    probs = [float(p) for p in probabilities]
    for p in probs:
        if not 0.0 < p < 1.0:
            raise InputError(f"quantile probability must be in (0, 1), got {p!r}")
    if not probs:
        return {}
    if chain.initial == ABSORBED:
        return dict.fromkeys(probs, 0.0)
    mean, second = absorption_moments(chain, 2)
    std = math.sqrt(max(second - mean * mean, 0.0))
    step = (mean + 6.0 * std) / 64
    matrix, exits = _capped_system(chain, mean)
    vector = np.zeros(chain.n_states)
    vector[chain.initial] = 1.0
    levels = chain.topological_levels()
    if levels is not None:
        # In level order, states only feed lower levels: once the mass beyond a
        # prefix is negligible it stays so, and the prefix alone (with its
        # smaller rates, hence cheaper exponentials) carries the rest.
        order = np.argsort(levels, kind="stable")
        matrix, exits, vector = matrix[order][:, order], exits[order], vector[order]
    advance = _propagator(matrix)
    grid, table = [0.0], [vector]
    bar = _maybe_tqdm(None, progress, "quantiles: CDF table")
    while 1.0 - table[-1].sum() < max(probs):
        vector = advance(table[-1], step)
        if levels is not None:
            tail = np.cumsum(vector[::-1])[::-1]
            vector = vector[:max(1, int(np.searchsorted(-tail, -TRUNCATION)))]
        grid.append(grid[-1] + step)
        table.append(vector)
        if bar is not None:
            bar.update()
    if bar is not None:
        bar.close()
    cdf = np.array([1.0 - v.sum() for v in table])
    result = {}
    for p in probs:
        right = int(np.searchsorted(cdf, p))
        left = right - 1
        if cdf[right] == p:
            result[p] = float(grid[right])
            continue
        size = len(table[left])

        def state_at(t, left=left):
            return advance(table[left], t - grid[left])

        result[p], converged = _newton_in_bracket(state_at, exits[:size], p, grid[left],
                                                  grid[right], cdf[left], cdf[right],
                                                  xtol * mean)
        if not converged and warnings is not None:
            warnings.append(f"quantile {p!r} not refined to its tolerance in 100 steps")
    if warnings is not None and advance.used_stiff:
        warnings.append("stiff chain (rates far apart): quantiles by the implicit BDF solver, "
                        "relative accuracy about 1e-8")
    return result


def _newton_in_bracket(state_at, exits, p, lo, hi, cdf_lo, cdf_hi, xtol):
    """Solve CDF(t) = p on [lo, hi] by Newton steps (density = derivative).

    The CDF is increasing, so the bracket shrinks at every step; a Newton step
    leaving it is replaced by the secant (regula falsi) point.  Returns the time and
    whether it converged.
    """
    t = lo + (p - cdf_lo) / (cdf_hi - cdf_lo) * (hi - lo)
    xtol = max(xtol, 8 * math.ulp(hi))  # never below the float spacing there
    for _ in range(100):
        vector = state_at(t)
        value, slope = 1.0 - vector.sum() - p, float(vector @ exits)
        if value < 0:
            lo, cdf_lo = t, value + p
        else:
            hi, cdf_hi = t, value + p
        step = value / slope if slope > 0 else math.inf
        candidate = t - step
        if not lo < candidate < hi:
            candidate = lo + (p - cdf_lo) / (cdf_hi - cdf_lo) * (hi - lo)
        if abs(candidate - t) <= xtol or hi - lo <= xtol:
            return float(candidate), True
        t = candidate
    return float(t), False


def _transient_distribution(chain, times):
    times = np.asarray(times, dtype=float).ravel()
    if np.any(times < 0) or not np.all(np.isfinite(times)):
        raise InputError("times must be finite and non-negative")
    out = np.zeros((len(times), chain.n_states))
    if chain.initial == ABSORBED or not len(times):
        return out, chain.absorption_rates()
    matrix, exits = _capped_system(chain, float(absorption_moments(chain, 1)[0]))
    vector = np.zeros(chain.n_states)
    vector[chain.initial] = 1.0
    advance = _propagator(matrix)
    now = 0.0
    for position in np.argsort(times, kind="stable"):
        step = float(times[position] - now)
        if step > 0:
            vector = advance(vector, step)
            now = times[position]
        out[position] = vector
    return out, exits


#: A state whose mean sojourn is below ``mean absorption time / RATE_CAP`` is
#: slowed down to that sojourn (see :func:`_capped_system`).
RATE_CAP = 1e24


def _capped_system(chain, mean: float):
    """The transposed sub-generator and absorption rates, fastest states slowed down.

    Rates may lie 1e200 apart ([1e-100, 1e100]): on the time scale of the mean
    absorption time, a state of exit rate 1e100 is left at once, but the products
    ``rate * time`` (1e200) overflow in every solver.  Such a state's outgoing rates
    are all divided by the same factor, so that its mean sojourn becomes
    ``mean / RATE_CAP``: the jump probabilities are unchanged, and the time it adds
    to any path is below ``n_states * mean / 1e24``, below double precision.
    The probability held there grows by that factor and its absorption rate shrinks
    by it, so densities are unchanged too.
    """
    exit_rates = chain.exit_rates()
    exits = chain.absorption_rates()
    cap = RATE_CAP / mean if mean > 0 else math.inf
    factors = np.minimum(1.0, cap / np.maximum(exit_rates, 1e-300))
    matrix = chain.subgenerator().T.tocsr()
    if factors.min() < 1.0:
        matrix = (matrix @ sp.diags_array(factors)).tocsr()  # column j: state j's outflows
        exits = exits * factors
    return matrix, exits


#: Beyond this ``q t``, dense ``expm`` loses accuracy in its many squarings (measured:
#: a quantile off by a factor 2 at rates 1e100 and 1e-100): the stiff solver takes over.
DENSE_STIFF_LIMIT = 1e10

#: Uniformization costs about ``q t`` sparse products per step (``q`` the largest exit
#: rate): beyond this many, the step is stiff (rates of very different sizes, e.g.
#: lambda_d = 1 and lambda_c = 1e-8) and a stiff ODE solver takes over.
UNIFORMIZATION_LIMIT = 20_000


def _propagator(matrix) -> Callable[[np.ndarray, float], np.ndarray]:
    """``advance(v, t) = exp(t * matrix) @ v`` for a transposed sub-generator.

    Small chains (at most :data:`DENSE_LIMIT` states): dense ``expm`` while ``q t``
    is at most :data:`DENSE_STIFF_LIMIT`, one propagator per distinct step.  Larger
    ones: uniformization (:func:`_uniformized`) while ``q t`` stays under
    :data:`UNIFORMIZATION_LIMIT`.  Beyond either limit (a stiff chain: rates far
    apart), the implicit BDF solver of :func:`scipy.integrate.solve_ivp` with the
    sparse Jacobian, whose work hardly grows with the spread of the rates;
    ``advance.used_stiff`` then becomes True.  ``v`` may be a prefix of the states
    (the quantiles drop negligible top levels): the leading block of ``matrix`` is
    used.
    """
    q = float(-matrix.diagonal().min()) if matrix.shape[0] else 0.0
    dense = matrix.shape[0] <= DENSE_LIMIT
    blocks: dict[int, object] = {}
    propagators: dict[tuple[int, float], np.ndarray] = {}

    def block(size):
        if size not in blocks:
            sub = matrix[:size, :size]
            blocks[size] = sub.toarray() if dense else sub.tocsr()
        return blocks[size]

    def advance(vector, t):
        t = float(t)
        if t <= 0:
            return vector.copy()
        sub = block(len(vector))
        if q * t > (DENSE_STIFF_LIMIT if dense else UNIFORMIZATION_LIMIT):
            advance.used_stiff = True
            return _stiff(sp.csr_array(sub), vector, t)
        if dense:
            key = (len(vector), float(f"{t:.12g}"))  # an even grid's steps differ by rounding
            if key not in propagators:
                propagators[key] = expm(sub * t)
            return propagators[key] @ vector
        return _uniformized(sub, vector, t)

    advance.used_stiff = False
    return advance


def _stiff(matrix, vector: np.ndarray, t: float) -> np.ndarray:
    """``exp(t * matrix) @ vector`` by the implicit BDF method (stiff chains)."""
    from scipy.integrate import solve_ivp

    # Time in units of t, so that the tolerances mean the same at every scale.
    scaled = (matrix * t).tocsc()
    solution = solve_ivp(lambda _, y: scaled @ y, (0.0, 1.0), vector, method="BDF",
                         jac=scaled, rtol=1e-10, atol=1e-15 * max(vector.sum(), 1e-300))
    out = solution.y[:, -1]
    return np.clip(out, 0.0, None)


def _uniformized(matrix, vector: np.ndarray, t: float) -> np.ndarray:
    """``exp(t * matrix) @ vector`` for a transposed sub-generator (uniformization).

    With ``q`` the largest exit rate, ``P = I + matrix / q`` is non-negative
    and ``exp(t * matrix) = sum_k Poisson(k; q t) P^k``: every term is
    non-negative (no cancellation), and the Poisson tails beyond
    :data:`POISSON_TAIL` are dropped.  scipy's ``expm_multiply`` computes the
    same action but spends most of its time estimating 1-norms on these
    matrices (12 times slower on Tree-dyn, n = 1024, measured).
    """
    q = float(-matrix.diagonal().min()) if vector.size else 0.0
    if t <= 0 or q <= 0:
        return vector.copy()
    step = (matrix * (1.0 / q) + sp.identity(matrix.shape[0], format="csr")).tocsr()
    qt = q * t
    left = int(poisson.ppf(POISSON_TAIL, qt))
    right = int(poisson.isf(POISSON_TAIL, qt)) + 1
    weights = poisson.pmf(np.arange(left, right + 1), qt)
    out = np.zeros_like(vector)
    term = vector
    for k in range(right + 1):
        if k >= left:
            out += weights[k - left] * term
        if k < right:
            term = step @ term
    return out


# ------------------------------------------------------------------ all at once
def absorption_time(chain: AbsorbingCTMC, *, exact: bool = False,
                    quantiles: Sequence[float] = (), order: int = 2,
                    progress: bool = False) -> AbsorptionResult:
    """Mean, variance, moments and quantiles of the absorption time.

    Parameters
    ----------
    chain : AbsorbingCTMC
    exact : bool
        Also compute exact rational moments (needs rational rates).
    quantiles : sequence of float
        Probabilities in (0, 1).
    order : int
        Highest raw moment, at least 2.
    progress : bool
        Progress bars during the exact computation and the quantile table.

    Returns
    -------
    AbsorptionResult
        ``status`` 0, or 1 when ``exact`` was asked but a rate is a float
        (then ``mean_exact`` and ``variance_exact`` are None).

    Raises
    ------
    InputError
        If ``order < 2``, a quantile probability is not in (0, 1), or
        absorption is not certain.

    Examples
    --------
    >>> chain = AbsorbingCTMC.from_successors(0, lambda s: [(1, 2)] if s == 0 else [])
    >>> r = absorption_time(chain, exact=True)
    >>> r.mean_exact, r.variance_exact
    (Fraction(1, 2), Fraction(1, 4))

    References
    ----------
    Benoit, Canon, Marchal, RR 8315, section 5 (mean and variance of
    Tree-dyn's makespan by first-step analysis); Neuts 1981, chapter 2.
    """
    if order < 2:
        raise InputError(f"order must be at least 2 (for the variance), got {order!r}")
    moments = absorption_moments(chain, order)
    mean = float(moments[0])
    variance = max(float(moments[1] - moments[0] ** 2), 0.0)
    status, message = 0, "ok"
    moments_exact = mean_exact = variance_exact = None
    if exact:
        if chain.is_exact:
            moments_exact = tuple(exact_absorption_moments(chain, order, progress=progress))
            mean_exact = moments_exact[0]
            variance_exact = moments_exact[1] - moments_exact[0] ** 2
            mean, variance = float(mean_exact), float(variance_exact)
        else:
            status, message = 1, "rates are not rational: exact moments unavailable"
    warnings: list[str] = []
    return AbsorptionResult(
        status=status, message=message, mean=mean, variance=variance,
        moments=tuple(float(m) for m in moments), mean_exact=mean_exact,
        variance_exact=variance_exact, moments_exact=moments_exact,
        quantiles=absorption_quantiles(chain, quantiles, progress=progress,
                                       warnings=warnings),
        states=chain.n_states,
        transitions=len(chain.source), warnings=warnings)


# ---------------------------------------------------------------------- helpers
def _ordered_system(chain):
    """``-S``, with states sorted by level when acyclic (then lower triangular).

    Returns the matrix and the permutation (None when the chain has cycles).
    """
    levels = chain.topological_levels()
    matrix = -chain.subgenerator()
    if levels is None:
        return matrix, None
    permutation = np.argsort(levels, kind="stable")
    return matrix[permutation][:, permutation].tocsr(), permutation


def _check_order(order):
    if not isinstance(order, int | np.integer) or order < 1:
        raise InputError(f"order must be a positive integer, got {order!r}")


def _exact_if_rational(rate):
    if isinstance(rate, Fraction):
        return rate
    if isinstance(rate, Rational):
        return Fraction(rate)
    if isinstance(rate, str):
        return _positive_rate(rate, "rate")
    return float(rate)


RATE_RANGE = (1e-100, 1e100)
"""Rates must lie in this range: the k-th moment scales like rate^-k, and the
float moments (and the moment solves) must neither overflow nor underflow."""


def _positive_rate(rate, what):
    """A rate as a Fraction (exact input) or float; positive, within :data:`RATE_RANGE`."""
    if isinstance(rate, float | np.floating):
        if not (math.isfinite(rate) and rate > 0):
            raise InputError(f"{what} must be a positive number, got {rate!r}")
        _check_float_range(float(rate), what)
        return float(rate)
    value = positive_fraction(rate, what)
    _check_float_range(value, what)
    return value


def _check_float_range(value: Fraction | float, what: str) -> None:
    """A positive rate whose float moments stay representable (see RATE_RANGE)."""
    low, high = RATE_RANGE
    if isinstance(value, Fraction):  # compare exactly with 10^-100 and 10^100
        low, high = Fraction(1, 10**100), Fraction(10**100)
    if low <= value <= high:
        return
    if isinstance(value, Fraction):
        exponent = round(math.log10(value.numerator) - math.log10(value.denominator))
        shown = f"about 1e{exponent}"
    else:
        shown = f"{value!r}"
    raise InputError(f"{what} ({shown}) is out of range: rates must lie in [1e-100, 1e100] "
                     "for the float moments to be representable")


def _maybe_tqdm(iterable, progress, description):
    """``iterable`` wrapped in a tqdm bar when ``progress``; a bare bar for None."""
    if not progress:
        return iterable
    from tqdm import tqdm

    return tqdm(iterable, desc=description, leave=False)
