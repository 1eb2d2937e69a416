"""CTMCs of the dynamic reductions Tree-dyn and Non-Commut-Tree-dyn.

Every transfer takes an exponential time of rate ``lambda_d`` and every
reduction an exponential time of rate ``lambda_c`` (or no time at all when
``rate_comp`` is None), independently: the run is then a CTMC whose absorption
time is the makespan (Benoit, Canon, Marchal, RR 8315, section 5).

Model and tie-breaking (the same as the simulator, :mod:`sim`):

- processor ``P_i`` owns ``v_i``; a processor sends its value at most once
  (after sending, it is finished), receives at most one value at a time and
  reduces on receipt;
- at time 0 every processor is idle; events ending at the same instant are all
  applied first, then the idle unpaired processors are considered one at a
  time in increasing index, each seeing the state left by the previous ones.
  With exponential costs, two events almost surely never end together, so the
  order only matters at time 0.
"""

from __future__ import annotations

import numpy as np

from hetcoll.core.errors import InputError, LimitError
from hetcoll.markov.ctmc import ABSORBED, AbsorbingCTMC
from hetcoll.markov.ctmc import _positive_rate as _rate

__all__ = ["noncommut_tree_dyn_chain", "tree_dyn_chain"]

COMM, COMP = 0, 1
"""Rate kinds: a transfer ends (``lambda_d``), a reduction ends (``lambda_c``)."""


def tree_dyn_chain(n: int, rate_comm: object = 1, rate_comp: object | None = None, *,
                   max_states: int | None = None) -> AbsorbingCTMC:
    """The CTMC of Tree-dyn on ``n`` processors with exponential costs.

    State space.  A state is ``(a, b, s)``: ``a`` transfers running (each
    between a sender and the processor it found in the slot), ``b`` reductions
    running, ``s`` = 1 when an idle processor waits in the slot.  Between
    events at most one processor is idle (two idle processors pair at once),
    and it is in the slot.  ``k = 2a + b + s`` is the number of partial values
    still to merge, so a state is also ``(k, b)``.  From ``n`` processors the
    reachable states are ``1 <= k <= n``, ``0 <= b <= min(k, n - k)`` (only
    ``b = 0`` without computation cost): about ``n^2 / 4`` states, or ``n``.

    Initial state: the index-order pairing at time 0 gives ``a = floor(n/2)``
    transfers (``P1 -> P0``, ``P3 -> P2``, ...) and, for odd ``n``, the last
    processor in the slot: ``(floor(n/2), 0, n mod 2)``.  Absorbing state:
    ``(0, 0, 1)``, one processor holds all ``n`` values and nothing runs.

    Transitions.

    - A transfer ends, rate ``a * lambda_d``: the sender is finished; the
      receiver starts reducing, ``(a-1, b+1, s)``.  Without computation cost
      the receiver is idle at once: it enters the empty slot,
      ``(a-1, 0, 1)``, or pairs with the processor in the slot, ``(a, 0, 0)``.
    - A reduction ends, rate ``b * lambda_c``: the processor is idle; it enters
      the empty slot, ``(a, b-1, 1)``, or empties it and sends its value to
      the processor there, ``(a+1, b-1, 0)``.

    Every transfer ending lowers ``k`` and every reduction ending lowers ``b``
    at constant ``k``: the chain is acyclic, so exact moments come from
    back-substitution.

    Parameters
    ----------
    n : int
        Number of processors, at least 1.
    rate_comm : int, Fraction, str or float
        ``lambda_d``, the rate of a transfer (mean transfer time ``1/lambda_d``).
    rate_comp : int, Fraction, str, float or None
        ``lambda_c``, the rate of a reduction; None for zero computation cost.
    max_states : int, optional
        Raise :class:`~hetcoll.InputError`, before allocating anything, when
        the chain would have more transient states: ``floor(n^2/4) + n - 1``
        with computation cost, ``n - 1`` without.

    Returns
    -------
    AbsorbingCTMC
        States are labelled by the rows ``(a, b, s)`` of an integer array.

    Raises
    ------
    InputError
        If ``n < 1`` or a rate is not a positive number in [1e-100, 1e100].
    LimitError
        If the chain would have more than ``max_states`` states (a subclass of
        InputError).

    Examples
    --------
    >>> from hetcoll.markov import absorption_time
    >>> absorption_time(tree_dyn_chain(4), exact=True).mean_exact  # 1/2 + 1 + 1
    Fraction(5, 2)

    References
    ----------
    Benoit, Canon, Marchal, "Non-clairvoyant reduction algorithms for
    heterogeneous platforms", RR 8315 (2013), sections 3 and 5.
    """
    n = _check_n(n)
    base = [_rate(rate_comm, "rate_comm")]
    if rate_comp is not None:
        base.append(_rate(rate_comp, "rate_comp"))
    with_comp = rate_comp is not None
    # sum_{k=1..n} (min(k, n - k) + 1) states, minus the absorbing one.
    count = n * n // 4 + n - 1 if with_comp else n - 1
    if max_states is not None and count > max_states:
        raise LimitError(f"Tree-dyn on n = {n} processors has {count} transient states, "
                         f"more than max_states={max_states}")
    k = np.arange(1, n + 1)
    widths = np.minimum(k, n - k) + 1 if with_comp else np.ones(n, dtype=np.int64)
    offset = np.concatenate([[0], np.cumsum(widths)])
    level = np.repeat(k, widths)
    b = np.arange(len(level)) - offset[level - 1]
    a, s = (level - b) // 2, (level - b) % 2

    def index(k_new, b_new):
        # (k, b) = (1, 0) is the absorbing state, index 0 in this enumeration.
        return np.where((k_new == 1) & (b_new == 0), ABSORBED, offset[k_new - 1] + b_new - 1)

    transient = ~((level == 1) & (b == 0))
    states = np.stack([a, b, s], axis=1)[transient]
    ends = a > 0
    sources = [np.flatnonzero(ends)]
    targets = [index(level[ends] - 1, b[ends] + 1 if with_comp else b[ends])]
    mults = [a[ends]]
    kinds = [np.full(int(ends.sum()), COMM)]
    if with_comp:
        done = b > 0
        sources.append(np.flatnonzero(done))
        targets.append(index(level[done], b[done] - 1))
        mults.append(b[done])
        kinds.append(np.full(int(done.sum()), COMP))
    source = np.concatenate(sources) - 1  # shift past the absorbing state, index 0
    return AbsorbingCTMC(states, source, np.concatenate(targets), np.concatenate(mults),
                         np.concatenate(kinds), tuple(base),
                         ABSORBED if n == 1 else len(states) - 1)


def noncommut_tree_dyn_chain(n: int, rate_comm: object = 1, rate_comp: object | None = None,
                             *, max_states: int | None = None,
                             max_transitions: int | None = None,
                             progress: bool = False) -> AbsorbingCTMC:
    """The CTMC of Non-Commut-Tree-dyn on ``n`` processors with exponential costs.

    State space.  The partial values are the intervals ``v[k, m]`` of a
    partition of ``0..n-1``, in order, each held by one processor.  A state is
    the string of the holders' statuses, left to right: ``"I"`` idle (waiting
    for a neighbour), ``"C"`` reducing, and ``"T"`` for a transfer, which
    stands for two neighbouring holders, the right one sending its interval
    to the left one (receiving).  The processor identities do not matter:
    all transfers and reductions have the same rates.

    Tie-breaking (the same as the simulator).  An idle processor holding
    ``[k, m]`` pairs with the idle unpaired holder of its LEFT neighbour
    ``[j, k-1]`` if there is one, else with that of its RIGHT neighbour
    ``[m+1, j]``, else waits.  In a pair the holder of the right interval sends
    to the holder of the left interval, which computes left (+) right.  At
    time 0 this pairs ``P1 -> P0``, ``P3 -> P2``, ...; the initial state is
    ``"T" * (n // 2)``, followed by ``"I"`` when ``n`` is odd.

    Transitions.  Each ``"T"`` ends at rate ``lambda_d`` and becomes ``"C"``
    (or, without computation cost, an idle holder, which applies the rule
    above).  Each ``"C"`` ends at rate ``lambda_c`` and its holder becomes idle
    and applies the rule.  Absorption: the single state ``"I"``, one holder of
    ``v[0, n-1]``.

    The number of states grows exponentially with ``n`` (see
    ``docs/markov.md`` for the measured counts).

    Parameters
    ----------
    n : int
        Number of processors, at least 1.
    rate_comm, rate_comp
        As in :func:`tree_dyn_chain`.
    max_states : int, optional
        Raise :class:`~hetcoll.InputError` beyond this many states.
    max_transitions : int, optional
        Raise :class:`~hetcoll.InputError` beyond this many transitions.  Memory
        grows with the transitions (up to about ``n / 2`` per state without
        computation cost, ``n`` with), so for large ``n`` this guard stops the
        build long before ``max_states`` does.
    progress : bool
        Show a tqdm bar of the states explored (the build can take minutes).

    Returns
    -------
    AbsorbingCTMC
        States are labelled by their status strings.

    Raises
    ------
    InputError
        If ``n < 1`` or a rate is not a positive number in [1e-100, 1e100].
    LimitError
        If the chain has more than ``max_states`` states or ``max_transitions``
        transitions (a subclass of InputError).

    Examples
    --------
    >>> from hetcoll.markov import absorption_time
    >>> absorption_time(noncommut_tree_dyn_chain(4), exact=True).mean_exact
    Fraction(5, 2)

    References
    ----------
    Benoit, Canon, Marchal, RR 8315 (2013), sections 3 (Non-Commut-Tree-dyn,
    Figure 3) and 5.
    """
    n = _check_n(n)
    comm = _rate(rate_comm, "rate_comm")
    comp = None if rate_comp is None else _rate(rate_comp, "rate_comp")
    # Refuse hopeless sizes before the first state: a state is a string of about n
    # characters with up to n successors, so --n 10**8 would fill the memory while
    # exploring the initial state's successors, long before any guard below.
    least = _least_noncommut_states(n)
    if max_states is not None and least > max_states:
        raise LimitError(f"Non-Commut-Tree-dyn on n = {n} processors has at least "
                         f"{least:.3g} transient states, more than max_states={max_states}")

    def successors(state: str):
        for position, status in enumerate(state):
            if status == "T":
                if comp is None:
                    yield _becomes_idle(state[:position] + "I" + state[position + 1:],
                                        position), comm
                else:
                    yield state[:position] + "C" + state[position + 1:], comm
            elif status == "C":
                yield _becomes_idle(state[:position] + "I" + state[position + 1:],
                                    position), comp

    initial = "T" * (n // 2) + "I" * (n % 2)
    return AbsorbingCTMC.from_successors(initial, successors, max_states=max_states,
                                         max_transitions=max_transitions, progress=progress)


def _least_noncommut_states(n: int) -> float:
    """A lower bound on the transient states of Non-Commut-Tree-dyn: phi^(n/2 - 1).

    Measured, not proven: the counts without computation cost (1, 4, 9, 17, 30, 51,
    85, 140, 229, 373, 606 for n = 2, 4, ..., 22) grow like Fibonacci numbers, by
    about phi per two processors, and computations only add states; the tests check
    the bound against the built chains.
    """
    # Capped exponent: phi^1000 (about 1e209) already exceeds any state guard.
    return max(1.0, ((1 + 5 ** 0.5) / 2) ** min(n / 2 - 1, 1000)) if n > 1 else 0.0


def _becomes_idle(state: str, position: int) -> str:
    """Apply the pairing rule to the holder at ``position``, just become idle."""
    if position > 0 and state[position - 1] == "I":
        return state[:position - 1] + "T" + state[position + 1:]
    if position + 1 < len(state) and state[position + 1] == "I":
        return state[:position] + "T" + state[position + 2:]
    return state


def _check_n(n) -> int:
    if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 1:
        raise InputError(f"n (number of processors) must be an integer >= 1, got {n!r}")
    return int(n)


