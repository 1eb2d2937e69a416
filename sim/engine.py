"""The exact discrete-event simulator of the non-clairvoyant reductions.

Model (RR 8315, section 3.1; NOTES.md section 2)
------------------------------------------------
P_i owns v_i; d(i, j) is the time to send one value from P_i to P_j (maybe
asymmetric) and c_i the time of one reduction on P_i.  A processor sends its
value at most once (then it is finished), receives at most one value at a
time, and reduces on receipt; receiving may overlap its own computation.  A
receiver computes ``own ⊕ received``: the receiver holds the left operand.
Received operands are reduced one at a time, in arrival order.

Rounds and tie-breaking (shared with :mod:`markov`)
----------------------------------------------------
The engine advances in *rounds*.  A round at time t first applies every
operation that ends at t (and every processor whose start time is t); then
it starts the computations of processors that have an operand waiting and a
free compute unit, in increasing processor index; then the algorithm decides
the new transfers (see each algorithm).  Operations of cost 0 end in the
next round at the same instant.  The k-th communication started and the k-th
computation started are numbered in that order (computations by processor
index, transfers in the order the algorithm decides them): this is the
numbering the common-random-numbers costs use (RR 8315, section 6).

A processor is *idle* when it has started, holds a value it has not sent,
and has no transfer or computation running or waiting.

- Tree-dyn: the idle processors not in the slot are considered one at a time
  in increasing index, each seeing the state the previous ones left.  One
  that finds the slot empty enters it; otherwise it empties the slot and sends
  its value to the processor that was there, which receives, computes, and is
  idle again.  With n odd the last processor ends up in the slot at time 0.
  Commutative operators only.
- Non-Commut-Tree-dyn: the idle, unpaired processors are considered in
  increasing index; one holding [k, m] pairs with an idle, unpaired holder of
  its LEFT neighbour [j, k-1] if there is one, else of its RIGHT neighbour
  [m+1, j], else waits.  The holder of the right interval sends to the holder
  of the left one.  At time 0 this pairs P1->P0, P3->P2, ... (Figure 3).
- Binomial-stat and Fibonacci-stat (static trees): receivers are considered in
  increasing index.  A transfer starts as soon as the sender has received and
  reduced everything it will ever get and the receiver has finished its
  previous reception (its previous computation may still run).

The reduction ends when one processor holds all n values and nothing runs;
the makespan is the time of the last event.
"""

from __future__ import annotations

import operator as _operator
from collections import deque
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal, Protocol, runtime_checkable

from hetcoll.core.errors import InputError
from hetcoll.core.numbers import Number, is_float, number_list, validate_start_times
from hetcoll.core.results import Result, exact_pair
from hetcoll.sim.costs import CostModel, MatrixCosts
from hetcoll.sim.trees import binomial_tree, fibonacci_tree

__all__ = [
    "ALGORITHMS",
    "NON_COMMUTATIVE_SAFE",
    "EngineState",
    "Policy",
    "SimulationResult",
    "StaticTree",
    "TraceEvent",
    "simulate",
]

ALGORITHMS = ("binomial-stat", "fibonacci-stat", "tree-dyn", "noncommut-tree-dyn")
#: Algorithms that only ever reduce neighbouring intervals, receiver on the left.
NON_COMMUTATIVE_SAFE = ("binomial-stat", "fibonacci-stat", "noncommut-tree-dyn")


@dataclass(frozen=True)
class TraceEvent:
    """One operation of a simulated reduction.

    Attributes
    ----------
    kind : {"transfer", "compute"}
    processor : int
        Transfer: the sender.  Compute: the processor that reduces.
    peer : int
        Transfer: the receiver.  Compute: the processor whose value is reduced
        (the sender of the operand).
    interval : tuple of int
        Transfer: the interval ``(a, b)`` of original values carried.  Compute:
        the interval held after the reduction.  For Tree-dyn, whose partial
        values are arbitrary sets, the smallest interval containing the set.
    start, end : Fraction or float
    index : int
        Rank of the operation among those of its kind, in start order: the k
        of the cost model (common random numbers).
    """

    kind: Literal["transfer", "compute"]
    processor: int
    peer: int
    interval: tuple[int, int]
    start: Number
    end: Number
    index: int


@dataclass
class SimulationResult(Result):
    """Outcome of :func:`simulate` (fields in the style of ``scipy.optimize``).

    Attributes
    ----------
    algorithm : str
    n : int
    makespan : Fraction or float
        Exact when every input was rational.
    makespan_float : float
    trace : list of TraceEvent
        In start order.
    value :
        The reduced value (by default the tuple of original indices in the
        order they were combined).
    root : int
        The processor holding the final value.
    order : tuple of int
        The original indices in the order the operands were combined (always
        a permutation of 0..n-1: the run checks it).
    in_order : bool
        ``order == (0, 1, ..., n-1)``: the run computed v_0 ⊕ ... ⊕ v_(n-1)
        and is valid for a non-commutative operator.
    status : int
        0: success (the only status: a run that goes wrong raises).
    message : str
    """

    algorithm: str
    n: int
    makespan: Number
    makespan_float: float
    trace: list[TraceEvent]
    value: Any
    root: int
    order: tuple[int, ...]
    in_order: bool
    status: int = 0
    message: str = "reduction complete"

    def to_dict(self, *, trace: bool = True) -> dict[str, Any]:
        """JSON-ready data: ``makespan`` (float) and ``makespan_exact`` (``"p/q"``, or None
        in float mode), the root, the combination order and, with ``trace``, every
        operation with ``start``/``start_exact`` and ``end``/``end_exact``.

        The reduced ``value`` is left out (it may be any object; ``order`` records it
        for the default values).
        """
        data: dict[str, Any] = {
            "status": self.status, "message": self.message, "success": self.success,
            "algorithm": self.algorithm, "n": self.n, **exact_pair("makespan", self.makespan),
            "root": self.root, "order": list(self.order), "in_order": self.in_order}
        if trace:
            data["trace"] = [{"kind": e.kind, "processor": e.processor, "peer": e.peer,
                              "interval": list(e.interval), **exact_pair("start", e.start),
                              **exact_pair("end", e.end), "index": e.index}
                             for e in self.trace]
        return data

    as_dict = to_dict

    def gantt_bars(self, group: Callable[[TraceEvent], Hashable] | None = None) -> list:
        """The trace as :class:`hetcoll.plotting.GanttBar` objects.

        Two rows per processor: ``"P<i> comm"`` (receptions ``<-j``, its one
        send ``->j``) and ``"P<i> comp"``.  ``group(event)`` chooses the colour
        of each event's bars; by default, the kind of operation.
        """
        from hetcoll.core.gantt import GanttBar

        bars = []
        for event in self.trace:
            a, b = event.interval
            span = f"[{a},{b}]" if a != b else f"v{a}"
            if event.kind == "transfer":
                receive, send = (("receive", "send") if group is None
                                 else (group(event), group(event)))
                bars.append(GanttBar(f"P{event.peer} comm", event.start, event.end,
                                     receive, f"<-{event.processor} {span}"))
                bars.append(GanttBar(f"P{event.processor} comm", event.start, event.end,
                                     send, f"->{event.peer}"))
            else:
                bars.append(GanttBar(f"P{event.processor} comp", event.start, event.end,
                                     "compute" if group is None else group(event), span))
        return bars

    def gantt(self, ax=None, title: str | None = None,
              group: Callable[[TraceEvent], Hashable] | None = None,
              legend_title: str = "operation"):
        """Draw the trace with :func:`hetcoll.plotting.gantt_chart`; returns the Axes.

        ``group`` is as in :meth:`gantt_bars`.
        """
        from hetcoll.core.gantt import gantt_chart

        rows = [f"P{p} {kind}" for p in range(self.n) for kind in ("comm", "comp")]
        return gantt_chart(self.gantt_bars(group), ax=ax, row_order=rows,
                           legend_title=legend_title,
                           title=title or f"{self.algorithm}, n = {self.n}, makespan = "
                                          f"{self.makespan_float:g}")


@dataclass
class _Operation:
    """A running operation: its trace event and the value it carries."""

    event: TraceEvent
    operand: Any = None


@dataclass
class EngineState:
    """What an algorithm sees when it decides; it must not modify it.

    Lists are indexed by processor.  ``interval[p]`` is the interval of
    original values P_p holds (for Tree-dyn, the smallest interval containing
    them); it is complete when P_p is idle.
    """

    n: int
    present: list[bool]
    sent: list[bool]
    sending: list[bool]
    receiving: list[bool]
    computing: list[bool]
    waiting: list[deque] = field(repr=False)
    interval: list[tuple[int, int]]

    def idle(self, p: int) -> bool:
        """Started, holds an unsent value, and nothing running or waiting."""
        return (self.present[p] and not self.sent[p] and not self.sending[p]
                and not self.receiving[p] and not self.computing[p] and not self.waiting[p])


@runtime_checkable
class Policy(Protocol):
    """An algorithm for :func:`simulate`: which transfers start in a round.

    ``reset(n)`` is called once before a run (validate ``n``, clear state);
    ``decide(state)`` is called once per round, after the computations of the
    round have started, and yields ``(sender, receiver)`` pairs; each pair
    starts at once (so the next one sees it in ``state``) and takes the next
    communication cost.  ``name`` labels the result.
    """

    name: str

    def reset(self, n: int) -> None: ...

    def decide(self, state: EngineState) -> Iterator[tuple[int, int]]: ...


class StaticTree:
    """A fixed reduction tree: ``children[r]`` are P_r's senders in reception order.

    A transfer starts as soon as the sender has received and reduced all it
    will ever get and the receiver's previous reception is over.  Binomial-stat
    and Fibonacci-stat are such trees (:func:`sim.binomial_tree`,
    :func:`sim.fibonacci_tree`); so are model-based trees such as Dichev et
    al.'s.  Safe for non-commutative operators when every receiver holds the
    interval just left of what it receives.
    """

    def __init__(self, children: Sequence[Sequence[int]], name: str = "static-tree"):
        self.children = [list(c) for c in children]
        self.name = name
        n = len(self.children)
        senders = [c for cs in self.children for c in cs]
        roots = set(range(n)) - set(senders)
        reached = list(roots)
        for p in reached:  # grows while iterating: a breadth-first walk from the root
            reached.extend(c for c in self.children[p] if 0 <= c < n)
        if len(senders) != n - 1 or len(roots) != 1 or sorted(reached) != list(range(n)):
            raise InputError(f"{name}: the children lists must form one tree over "
                             f"P0..P{n - 1} (every processor but the root sends exactly once)")

    def reset(self, n: int) -> None:
        if n != len(self.children):
            raise InputError(f"{self.name} is a tree on {len(self.children)} processors, "
                             f"but there are {n}")
        self.next_child = [0] * n

    def decide(self, state: EngineState) -> Iterator[tuple[int, int]]:
        for receiver, children in enumerate(self.children):
            position = self.next_child[receiver]
            if position == len(children) or not state.present[receiver] \
                    or state.receiving[receiver]:
                continue
            sender = children[position]
            if state.idle(sender) and self.next_child[sender] == len(self.children[sender]):
                self.next_child[receiver] += 1
                yield sender, receiver


class _TreeDyn:
    """Tree-dyn: one slot; an idle processor enters it or sends to its occupant."""

    name = "tree-dyn"

    def reset(self, n: int) -> None:
        self.slot: int | None = None

    def decide(self, state: EngineState) -> Iterator[tuple[int, int]]:
        for p in range(state.n):
            if p == self.slot or not state.idle(p):
                continue
            if self.slot is None:
                self.slot = p
            else:
                receiver, self.slot = self.slot, None
                yield p, receiver


class _NonCommutTreeDyn:
    """Non-Commut-Tree-dyn: pair with an idle neighbour, left first; right sends."""

    name = "noncommut-tree-dyn"

    def reset(self, n: int) -> None:
        pass

    def decide(self, state: EngineState) -> Iterator[tuple[int, int]]:
        # Idle processors' intervals are complete, so they can be indexed by end.
        idle = [p for p in range(state.n) if state.idle(p)]
        ending_at = {state.interval[p][1]: p for p in idle}
        starting_at = {state.interval[p][0]: p for p in idle}
        for p in idle:
            if not state.idle(p):  # paired by an earlier processor of this round
                continue
            low, high = state.interval[p]
            left, right = ending_at.get(low - 1), starting_at.get(high + 1)
            if left is not None and state.idle(left):
                yield p, left
            elif right is not None and state.idle(right):
                yield right, p


def _policy(algorithm: object, n: int, fibonacci_order: int | None) -> Policy:
    if isinstance(algorithm, Policy):
        return algorithm
    if algorithm == "binomial-stat":
        return StaticTree(binomial_tree(n), "binomial-stat")
    if algorithm == "fibonacci-stat":
        return StaticTree(fibonacci_tree(n, fibonacci_order), "fibonacci-stat")
    if algorithm == "tree-dyn":
        return _TreeDyn()
    if algorithm == "noncommut-tree-dyn":
        return _NonCommutTreeDyn()
    raise InputError(f"unknown algorithm {algorithm!r}; expected one of "
                     f"{', '.join(ALGORITHMS)} or a sim.Policy")


def simulate(
    algorithm: str | Policy,
    comm: object,
    comp: object = None,
    *,
    start_times: Sequence | None = None,
    fibonacci_order: int | None = None,
    values: Sequence | None = None,
    operator: Callable[[Any, Any], Any] | None = None,
) -> SimulationResult:
    """Simulate one reduction exactly, event by event.

    The rules, including every tie-break, are in the module docstring
    (:mod:`sim.engine`); the vectorised engine of :func:`sim.sample_makespans`
    implements the same ones.

    Parameters
    ----------
    algorithm : {"binomial-stat", "fibonacci-stat", "tree-dyn", "noncommut-tree-dyn"} or Policy
        A name from :data:`ALGORITHMS`, or any :class:`Policy`, e.g.
        ``StaticTree(children)`` for a tree of one's own.
    comm : n x n matrix, or a cost model
        ``comm[i][j]`` = d(i, j), the time to send a value from P_i to P_j
        (nested lists or a numpy array of ints, Fractions, floats or strings
        such as ``"3/7"``; the diagonal is ignored).  Or any object with the
        :class:`sim.CostModel` interface, e.g. :class:`sim.SequenceCosts` (the
        k-th communication started costs ``comm_costs[k]``: the draws of the
        Monte Carlo engine); then ``comp`` must be omitted.
    comp : length-n sequence, optional
        c_i, the time of one reduction on P_i; zero when omitted.
    start_times : length-n sequence, optional
        Time at which each processor joins (load imbalance); 0 by default.
    fibonacci_order : int, optional
        Order k of Fibonacci-stat (F_(k+2) >= n); smallest possible by default.
    values : length-n sequence, optional
        v_0, ..., v_(n-1); by default the 1-tuples ``(i,)``.
    operator : callable, optional
        The reduction ``⊕``; by default ``+`` (tuple concatenation for the
        default values, so ``value`` records the combination order).

    Returns
    -------
    SimulationResult
        Exact (Fraction) makespan and trace when every cost and start time is
        rational (ints, Fractions, strings); floats otherwise.

    Raises
    ------
    InputError
        If the algorithm is unknown, a cost or start time is not a
        non-negative number, or sizes disagree.

    Examples
    --------
    >>> r = simulate("tree-dyn", [[0, 1, 1], [1, 0, 1], [1, "1/2", 0]], [0, 0, 0])
    >>> r.makespan, r.value
    (Fraction(2, 1), (2, 0, 1))
    >>> simulate("noncommut-tree-dyn", [[0, 1], [2, 0]], values=["a", "b"]).value
    'ab'

    References
    ----------
    Benoit, Canon, Marchal, "Non-clairvoyant reduction algorithms for
    heterogeneous platforms", RR 8315, section 3 (model, algorithms) and
    section 6 (common random numbers).
    """
    if isinstance(comm, CostModel):
        if comp is not None:
            raise InputError("comp must be omitted when comm is a cost model")
        costs = comm
    else:
        costs = MatrixCosts.from_input(comm, comp)
    n = costs.n
    if n is None:
        raise InputError("the cost model does not say how many processors there are")
    exact = costs.exact
    if start_times is None:
        starts = [Fraction(0) if exact else 0.0] * n
    else:
        exact = exact and not any(is_float(v) for v in number_list(start_times, "start_times"))
        starts = validate_start_times(start_times, n, exact)
    if values is None:
        values = [(i,) for i in range(n)]
    elif len(values) != n:
        raise InputError(f"values has {len(values)} entries, expected n = {n}")
    combine = operator or _operator.add
    policy = _policy(algorithm, n, fibonacci_order)
    policy.reset(n)
    return _run(policy, costs, starts, list(values), combine, exact)


def _run(policy: Policy, costs, starts, values, combine, exact) -> SimulationResult:
    n = len(starts)

    def number(x):
        return x if exact else float(x)

    state = EngineState(n, [False] * n, [False] * n, [False] * n, [False] * n, [False] * n,
                        [deque() for _ in range(n)], [(i, i) for i in range(n)])
    orders = [(i,) for i in range(n)]
    running: list[_Operation] = []
    trace: list[TraceEvent] = []
    counters = {"transfer": 0, "compute": 0}
    now = number(Fraction(0))
    last = now
    pending_starts = deque(sorted(range(n), key=lambda p: starts[p]))

    def launch(kind, processor, peer, interval, cost, operand=None):
        event = TraceEvent(kind, processor, peer, interval, now, now + cost, counters[kind])
        counters[kind] += 1
        running.append(_Operation(event, operand))
        trace.append(event)

    while True:
        # Apply everything that ends now.
        while pending_starts and starts[pending_starts[0]] == now:
            state.present[pending_starts.popleft()] = True
        finished = [op for op in running if op.event.end == now]
        running = [op for op in running if op.event.end != now]
        for op in finished:
            event = op.event
            if event.kind == "transfer":
                state.sending[event.processor] = False
                state.sent[event.processor] = True
                state.receiving[event.peer] = False
                state.waiting[event.peer].append((event.processor, event.interval,
                                                  op.operand, orders[event.processor]))
            else:
                p = event.processor
                values[p] = combine(values[p], op.operand[0])
                orders[p] = orders[p] + op.operand[1]
                state.computing[p] = False
        # Reduce on receipt, one operand at a time.
        for p in range(n):
            if state.waiting[p] and not state.computing[p]:
                sender, interval, operand, order = state.waiting[p].popleft()
                low, high = state.interval[p]
                merged = (min(low, interval[0]), max(high, interval[1]))
                state.interval[p] = merged
                state.computing[p] = True
                launch("compute", p, sender, merged, costs.comp(counters["compute"], p),
                       (operand, order))
        # decide() is a generator: each decision sees the state the previous left.
        for sender, receiver in policy.decide(state):
            # The port rules, whoever wrote the policy.
            if sender == receiver or not state.idle(sender) or not state.present[receiver] \
                    or state.receiving[receiver] or state.sent[receiver] \
                    or state.sending[receiver]:
                raise RuntimeError(f"{policy.name} broke the port rules: P{sender} -> "
                                   f"P{receiver} at time {now}")
            interval = state.interval[sender]
            state.sending[sender] = True
            state.receiving[receiver] = True
            launch("transfer", sender, receiver, interval,
                   costs.comm(counters["transfer"], sender, receiver, interval),
                   values[sender])
        if not running and not pending_starts:
            break
        times = [op.event.end for op in running]
        if pending_starts:
            times.append(starts[pending_starts[0]])
        now = min(times)
        last = max(last, now)

    holders = [p for p in range(n) if not state.sent[p]]
    if len(holders) != 1:  # pragma: no cover - a bug in an algorithm, not bad input
        raise RuntimeError(f"{policy.name} stopped with values on processors {holders}")
    # Correctness by construction: every run also reduces the indices.
    order = orders[holders[0]]
    if sorted(order) != list(range(n)):  # pragma: no cover - an engine bug
        raise RuntimeError(f"{policy.name} combined {order}, not every value once")
    in_order = order == tuple(range(n))
    return SimulationResult(
        policy.name, n, last, float(last), trace, values[holders[0]], holders[0], order,
        in_order, 0, "reduction complete; operands combined in order" if in_order else
        "reduction complete; operands combined out of order (commutative operators only)")
