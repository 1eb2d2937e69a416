"""Periodic schedules built from a decomposed steady-state solution.

Legrand, Marchal and Robert's construction: weighted trees (or paths) ->
period T = lcm of the weights' denominators -> integer uses per period ->
bipartite weighted edge-colouring of the communications into matchings, and
the computations of each processor laid out one after the other.

Pipelining.  A tree's operations depend on each other (a value must exist
before it is sent or reduced).  Each operation of a tree gets a *stage*: 0
when it depends on nothing, otherwise the largest, over the operations it
depends on, of their stage, plus 1 when the predecessor does not end (within
the period) before this operation starts.  In period p, the operations of
stage s serve the uses of period p - s.  Every input of an operation was thus
made in an earlier period, or earlier in the same period: causality holds by
construction, and the exact executor (:mod:`lp.executor`) checks it anyway.
A use started in period q completes in period q + depth, where depth is the
largest stage: the first depth periods fill the pipeline (initialisation),
the last depth periods empty it (clean-up).

Operations are batched: all the uses of one operation of one tree in one
period run back to back (``Slot.count`` of them), which keeps the schedule
polynomial in the LP size whatever T is.  A batch of transfers may be split
across several matchings (its ``pieces``): the one-port model only needs
each piece to lie in a matching, and the batch ends when its last piece does.
"""

from __future__ import annotations

import bisect
import math
import re
from collections import defaultdict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from hetcoll.core.display import approx_str, number_text
from hetcoll.core.errors import InputError
from hetcoll.core.gantt import GanttBar, gantt_chart
from hetcoll.core.numbers import fraction_str, positive_fraction
from hetcoll.core.results import Result
from hetcoll.lp.colouring import weighted_bipartite_edge_colouring
from hetcoll.lp.decomposition import (
    GatherPath,
    ReductionTree,
    ScatterPath,
    Task,
    Transfer,
)
from hetcoll.lp.operations import Gather, OperationRoles, Reduce, Scatter
from hetcoll.lp.operations import Operation as Collective

__all__ = [
    "LOSS_WARNING_SHARE",
    "Schedule",
    "ScheduleMatching",
    "Slot",
    "operation_io",
    "periodic_schedule",
    "schedule_from_lp",
    "schedule_gantt",
]

Operation = Transfer | Task
#: A fixed period that loses more than this share of the LP throughput is warned about.
LOSS_WARNING_SHARE = Fraction(1, 10)
Component = ReductionTree | ScatterPath | GatherPath
Place = tuple[Hashable, str]  # (value, processor)


@dataclass(frozen=True)
class Slot:
    """A batch of ``count`` uses of one operation of one tree, within the period.

    Attributes
    ----------
    component : int
        Index of the tree (or path) in ``Schedule.components``.
    operation : Transfer or Task
    count : int
        Uses of the operation in the batch (the tree's uses per period).
    pieces : tuple of (start, end)
        Busy intervals, offsets in [0, period]; one piece for a task, one per
        matching the batch runs in for a transfer.
    stage : int
        The batch serves the uses started ``stage`` periods earlier.
    """

    component: int
    operation: Operation
    count: int
    pieces: tuple[tuple[Fraction, Fraction], ...]
    stage: int

    @property
    def start(self) -> Fraction:
        return self.pieces[0][0]

    @property
    def end(self) -> Fraction:
        return self.pieces[-1][1]


@dataclass(frozen=True)
class ScheduleMatching:
    """A matching of the edge-colouring, placed in the period at ``start``."""

    start: Fraction
    duration: Fraction
    edges: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Schedule(OperationRoles, Result):
    """A periodic schedule (``scipy.optimize``-style: ``status``, ``message``).

    Attributes
    ----------
    operation : Scatter, Gather or Reduce
        The collective scheduled.
    kind : {"reduce", "scatter", "gather"}
        ``operation.kind``.
    period : Fraction
        T, or T_fixed for a fixed-period approximation.
    components : tuple of ReductionTree, ScatterPath or GatherPath
        The decomposition, weights in uses per time unit.
    uses : tuple of int
        Uses of each component per period.
    slots : tuple of Slot
    matchings : tuple of ScheduleMatching
    initial : dict value -> processor
        Where each input value is available from the start (v_k on its owner;
        every message on its source).
    final : dict value -> processor
        Arrival of a value there completes one use (v[0,N] on the target; the
        message of P_k on P_k for a scatter, on the target for a gather).
    lp_throughput : Fraction
        TP of the LP solution (sum of the weights).
    throughput_exact : Fraction
        Operations per time unit of this schedule in steady state: the LP's
        TP, or TP* <= TP with a fixed period.
    depth : int
        Largest stage: pipeline fill and clean-up take ``depth`` periods each.
    fixed_period : bool
    status : int
        0 on success (a schedule that cannot be built raises instead).
    message : str
    warnings : tuple of str
        Legal but suspicious results, one sentence each: a fixed period that gives
        every tree (path) no use, starves a target (source), drops some trees, or
        loses more than :data:`LOSS_WARNING_SHARE` of the LP throughput.

    The roles are also attributes (``participants``, ``target``, ``source``,
    ``targets``, ``sources``): those of the operation, None for the others.
    """

    operation: Collective
    period: Fraction
    components: tuple[Component, ...]
    uses: tuple[int, ...]
    slots: tuple[Slot, ...]
    matchings: tuple[ScheduleMatching, ...]
    initial: dict = field(repr=False)
    final: dict = field(repr=False)
    lp_throughput: Fraction
    throughput_exact: Fraction
    depth: int
    fixed_period: bool = False
    status: int = 0
    message: str = "periodic schedule built"
    warnings: tuple[str, ...] = ()

    @property
    def n_components(self) -> int:
        """Number of trees (reduce) or paths (scatter, gather) of the decomposition."""
        return len(self.components)

    @property
    def loss(self) -> Fraction:
        """TP − TP*: throughput lost to the fixed period (0 otherwise)."""
        return self.lp_throughput - self.throughput_exact

    @property
    def loss_bound(self) -> Fraction:
        """LMR's bound on the loss, #trees / T_fixed (0 for the exact period)."""
        return Fraction(len(self.components)) / self.period if self.fixed_period else Fraction(0)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data (rationals as ``"p/q"`` strings).

        Keys: ``status``, ``message``, ``success``, ``warnings``, ``kind``, the roles
        (``participants``/``target``, ``source``/``targets`` or ``sources``/``target``),
        ``period``, ``throughput_exact``, ``lp_throughput_exact``, ``fixed_period``,
        ``loss``, ``loss_bound``, ``depth``, ``n_trees`` (or ``n_paths``), ``trees``
        (or ``paths``), ``matchings`` and ``computations``.  A transfer names its value
        ``interval`` (reduce), ``target`` (scatter) or ``source`` (gather); so does a
        path.
        """
        operation = self.operation
        value_key = operation.value_key
        name = operation.component_kind
        components = []
        for component, uses in zip(self.components, self.uses, strict=True):
            item: dict[str, Any] = {"weight": fraction_str(component.weight), "uses": uses}
            if not operation.has_tasks:
                item[value_key] = component.value
            item["transfers"] = [_transfer_dict(t, value_key) for t in component.transfers]
            if operation.has_tasks:
                item["tasks"] = [{"processor": t.processor, "task": list(t.task)}
                                 for t in component.tasks]
            components.append(item)
        starts = [m.start for m in self.matchings]
        in_matching: list[list[dict]] = [[] for _ in self.matchings]
        computations = []
        for slot in self.slots:
            op = slot.operation
            for start, end in slot.pieces:
                entry = {"tree": slot.component, "count": slot.count,
                         "start": fraction_str(start), "end": fraction_str(end),
                         "stage": slot.stage}
                if isinstance(op, Task):
                    computations.append({"processor": op.processor, "task": list(op.task),
                                         **entry})
                else:
                    index = _window_index(starts, start)
                    in_matching[index].append({**_transfer_dict(op, value_key), **entry})
        data: dict[str, Any] = {"status": self.status, "message": self.message,
                                "success": self.success, "warnings": list(self.warnings),
                                "kind": self.kind,
                                **operation.role_dict()}
        data.update({
            "period": fraction_str(self.period),
            "throughput_exact": fraction_str(self.throughput_exact),
            "lp_throughput_exact": fraction_str(self.lp_throughput),
            "fixed_period": self.fixed_period,
            "loss": fraction_str(self.loss),
            "loss_bound": fraction_str(self.loss_bound),
            "depth": self.depth,
            f"n_{name}": len(self.components),
            name: components,
            "matchings": [{"start": fraction_str(m.start), "duration": fraction_str(m.duration),
                           "transfers": transfers}
                          for m, transfers in zip(self.matchings, in_matching, strict=True)],
            "computations": computations,
        })
        return data


def _window_index(starts: list[Fraction], time: Fraction) -> int:
    return bisect.bisect_right(starts, time) - 1


def _transfer_dict(transfer: Transfer, value_key: str) -> dict[str, Any]:
    value = list(transfer.value) if isinstance(transfer.value, tuple) else transfer.value
    return {"from": transfer.sender, "to": transfer.receiver, value_key: value}


def operation_io(operation: Operation) -> tuple[tuple[Place, ...], Place]:
    """Inputs and output of an operation, as (value, processor) places.

    A transfer needs its value on the sender and puts it on the receiver; the
    task T(k,l,m) on P needs v[k,l] and v[l+1,m] on P and puts v[k,m] there.

    Parameters
    ----------
    operation : Transfer or Task

    Returns
    -------
    inputs : tuple of (value, processor)
    output : (value, processor)

    Examples
    --------
    >>> operation_io(Task("P", (0, 1, 3)))
    ((((0, 1), 'P'), ((2, 3), 'P')), ((0, 3), 'P'))

    Raises
    ------
    None
        Any operation that is not a :class:`Task` is read as a :class:`Transfer`.

    References
    ----------
    NOTES.md §1, SSRP: task T(k,l,m) computes v[k,m] = v[k,l] ⊕ v[l+1,m] (operand
    order kept: the operator is not commutative).
    """
    if isinstance(operation, Task):
        k, mid, m = operation.task
        processor = operation.processor
        return (((k, mid), processor), ((mid + 1, m), processor)), ((k, m), processor)
    return ((operation.value, operation.sender),), (operation.value, operation.receiver)


def periodic_schedule(
    components: Sequence[Component],
    transfer_time: Callable[[str, str, Hashable], Fraction],
    task_time: Callable[[str, tuple[int, int, int]], Fraction],
    *,
    participants: Sequence[str] | None = None,
    target: str | None = None,
    source: str | None = None,
    targets: Sequence[str] | None = None,
    sources: Sequence[str] | None = None,
    operation: Collective | None = None,
    fixed_period: object = None,
) -> Schedule:
    """Build the periodic schedule of a weighted set of trees or paths.

    Without ``fixed_period``: T = lcm of the weights' denominators, and tree t
    is used weight(t)·T times per period.  With ``fixed_period`` T_f:
    r(t) = floor(weight(t)·T_f) uses per period T_f, throughput
    TP* = sum r(t) / T_f (per message type, minimum over the types, for a scatter
    or a gather),
    and TP − TP* <= #trees / T_f.  The busy time of each link per period is
    decomposed into matchings (:func:`~lp.colouring.weighted_bipartite_edge_colouring`)
    laid back to back from time 0; computations run back to back on each
    processor from time 0.  See the module docstring for the pipelining.

    Parameters
    ----------
    components : sequence of ReductionTree, of ScatterPath or of GatherPath
    transfer_time : callable (sender, receiver, value) -> Fraction
        Exact time of one transfer (link cost × message size), > 0.
    task_time : callable (processor, (k, l, m)) -> Fraction
        Exact time of one task, > 0.
    participants, target : reduce roles
    source, targets : scatter roles
    sources, target : gather roles
    operation : Scatter, Gather or Reduce, optional
        The roles as one typed operation, instead of the keywords above (give one
        set of roles only).
    fixed_period : number, optional
        T_fixed > 0 (int, Fraction or decimal string).

    Returns
    -------
    Schedule

    Raises
    ------
    InputError
        If the roles are missing or mixed, ``fixed_period`` or an operation
        time is not positive, or the components overload a port or a processor (busy more than the
        period: the weights are not a feasible steady state).

    Examples
    --------
    The two-processor case of NOTES.md §1:

    >>> trees = [ReductionTree(Fraction(1, 3), (Transfer("P1", "P0", (1, 1)),),
    ...                        (Task("P0", (0, 0, 1)),)),
    ...          ReductionTree(Fraction(2, 3), (Transfer("P0", "P1", (0, 0)),
    ...                                          Transfer("P1", "P0", (0, 1))),
    ...                        (Task("P1", (0, 0, 1)),))]
    >>> work = {"P0": Fraction(3), "P1": Fraction(3, 2)}
    >>> s = periodic_schedule(trees, lambda a, b, v: Fraction(1), lambda p, t: work[p],
    ...                       participants=["P0", "P1"], target="P0")
    >>> s.period, s.uses, s.throughput_exact
    (Fraction(3, 1), (1, 2), Fraction(1, 1))

    References
    ----------
    Legrand, Marchal, Robert (2004), "Series of Scatter -- Building a
    schedule", "Asymptotic optimality" and "Approximation for a fixed period";
    NOTES.md §1, "From LP to schedule", steps 3 to 7.
    """
    components = tuple(components)
    operation = _roles(components, operation, participants, target, source, targets, sources)
    initial, final = operation.initial(), operation.final()
    lp_throughput = operation.throughput(components, [c.weight for c in components])
    if fixed_period is None:
        period = Fraction(math.lcm(*(c.weight.denominator for c in components))
                          if components else 1)
        uses = tuple(int(c.weight * period) for c in components)
    else:
        period = positive_fraction(fixed_period, "fixed period")
        uses = tuple(math.floor(c.weight * period) for c in components)
    throughput = operation.throughput(components, [Fraction(u) / period for u in uses])

    transfer_batches: dict[tuple[str, str], list[tuple[int, Transfer, Fraction]]] = \
        defaultdict(list)
    task_batches: dict[str, list[tuple[int, Task, Fraction]]] = defaultdict(list)
    for index, (component, count) in enumerate(zip(components, uses, strict=True)):
        if not count:
            continue
        for transfer in component.transfers:
            one = positive_fraction(
                transfer_time(transfer.sender, transfer.receiver, transfer.value),
                f"time of transfer {transfer.sender}->{transfer.receiver} of {transfer.value!r}")
            transfer_batches[transfer.sender, transfer.receiver].append(
                (index, transfer, count * one))
        for task in component.tasks:
            one = positive_fraction(task_time(task.processor, task.task),
                                    f"time of task {task.task!r} on {task.processor}")
            task_batches[task.processor].append((index, task, count * one))

    matchings = _timed_matchings(transfer_batches, period)
    pieces: dict[tuple[int, Operation], tuple[tuple[Fraction, Fraction], ...]] = {}
    windows: dict[tuple[str, str], list[tuple[Fraction, Fraction]]] = defaultdict(list)
    for matching in matchings:
        for edge in matching.edges:
            windows[edge].append((matching.start, matching.start + matching.duration))
    for edge, batches in transfer_batches.items():
        for (index, transfer, _), parts in zip(batches, _fill_windows(
                windows[edge], [busy for _, _, busy in batches]), strict=True):
            pieces[index, transfer] = parts
    for processor, batches in task_batches.items():
        clock = Fraction(0)
        for index, task, busy in batches:
            pieces[index, task] = ((clock, clock + busy),)
            clock += busy
        if clock > period:
            raise InputError(f"processor {processor} computes {fraction_str(clock)} per period "
                             f"of {fraction_str(period)}: the weights overload it")

    slots = []
    for index, (component, count) in enumerate(zip(components, uses, strict=True)):
        if count:
            slots.extend(_staged_slots(index, component, count, pieces, initial))
    depth = max((slot.stage for slot in slots), default=0)
    return Schedule(operation=operation, period=period, components=components, uses=uses,
                    slots=tuple(slots), matchings=tuple(matchings), initial=initial,
                    final=final, lp_throughput=lp_throughput, throughput_exact=throughput,
                    depth=depth, fixed_period=fixed_period is not None,
                    warnings=_fixed_period_warnings(operation, components, uses, period,
                                                    lp_throughput, throughput)
                    if fixed_period is not None else ())


def _fixed_period_warnings(operation: Collective, components: Sequence[Component],
                           uses: Sequence[int], period: Fraction, lp_throughput: Fraction,
                           throughput: Fraction) -> tuple[str, ...]:
    """What a fixed period loses, when it is worth a warning (see ``Schedule.warnings``)."""
    what = operation.component_kind
    tf = f"the fixed period {fraction_str(period)}"
    lost = [index for index, count in enumerate(uses) if not count]
    if components and len(lost) == len(components):
        return (f"{tf} gives every {what[:-1]} r(t) = floor(weight·TF) = 0 uses: throughput 0 "
                f"instead of {number_text(lp_throughput)} (TF must be at least "
                f"{number_text(1 / max(c.weight for c in components))} for one use)",)
    warnings = []
    if not operation.has_tasks:
        served = {value: 0 for value in operation.types()}
        for component, count in zip(components, uses, strict=True):
            served[component.value] += count
        starved = [str(value) for value, count in served.items() if not count]
        if starved:
            warnings.append(f"{tf} leaves {operation.value_key} {', '.join(starved)} without "
                            f"any {what[:-1]} use: throughput 0 instead of "
                            f"{number_text(lp_throughput)}")
    if lost:
        warnings.append(f"{tf} drops {len(lost)} of {len(components)} {what} (weight below "
                        f"1/TF: r(t) = 0)")
    if throughput and lp_throughput - throughput > LOSS_WARNING_SHARE * lp_throughput:
        share = (lp_throughput - throughput) / lp_throughput
        warnings.append(f"{tf} loses {approx_str(100 * share)}% of the LP throughput: "
                        f"TP* = {number_text(throughput)} instead of "
                        f"{number_text(lp_throughput)}")
    return tuple(warnings)


#: The component type each kind of operation decomposes into.
_COMPONENT_TYPES = {Reduce: ReductionTree, Scatter: ScatterPath, Gather: GatherPath}


def _roles(components, operation, participants, target, source, targets, sources
           ) -> Collective:
    """The operation scheduled: given, or made of the role keywords (one set only)."""
    keywords = {"participants": participants, "target": target, "source": source,
                "targets": targets, "sources": sources}
    given = {name for name, value in keywords.items() if value is not None}
    if operation is None:
        # The first kind whose roles cover those given: a lone target means a reduce.
        cls = next((cls for cls in (Reduce, Scatter, Gather)
                    if given and given <= set(cls.roles)), None)
        if cls is None:
            raise InputError("give either participants and target (reduce), source and "
                             "targets (scatter), or sources and target (gather)")
        if given != set(cls.roles):
            raise InputError(f"a {cls.kind} schedule needs both {cls.roles[0]} and "
                             f"{cls.roles[1]}")
        operation = cls(*(keywords[role] for role in cls.roles))
    elif given:
        raise InputError("give the roles either as an operation or as keywords, not both")
    expected = _COMPONENT_TYPES[type(operation)]
    if any(not isinstance(c, expected) for c in components):
        raise InputError(f"a {operation.kind} schedule takes {expected.__name__} components")
    return operation


def _timed_matchings(transfer_batches, period: Fraction) -> list[ScheduleMatching]:
    busy = {edge: sum((b for _, _, b in batches), Fraction(0))
            for edge, batches in transfer_batches.items()}
    for port, side in ((0, "sends"), (1, "receives")):
        load: dict[str, Fraction] = defaultdict(Fraction)
        for edge, time in busy.items():
            load[edge[port]] += time
        for name, time in load.items():
            if time > period:
                raise InputError(f"processor {name} {side} for {fraction_str(time)} per period "
                                 f"of {fraction_str(period)}: the weights overload its port")
    clock = Fraction(0)
    timed = []
    for matching in weighted_bipartite_edge_colouring(busy):
        timed.append(ScheduleMatching(clock, matching.duration, matching.edges))
        clock += matching.duration
    return timed


def _fill_windows(windows: list[tuple[Fraction, Fraction]], durations: list[Fraction]):
    """Lay ``durations`` back to back into ``windows``, splitting at window ends."""
    result = []
    w = 0
    position = windows[0][0] if windows else Fraction(0)
    for duration in durations:
        parts = []
        left = duration
        while left:
            window_start, window_end = windows[w]
            position = max(position, window_start)
            if position == window_end:
                w += 1
                continue
            step = min(left, window_end - position)
            parts.append((position, position + step))
            position += step
            left -= step
        result.append(tuple(parts))
    return result


def _staged_slots(index: int, component: Component, count: int, pieces, initial) -> list[Slot]:
    """Stage every operation of one component (see the module docstring)."""
    operations = list(component.transfers) + list(component.tasks)
    producer = {operation_io(op)[1]: op for op in operations}
    stage: dict[Operation, int] = {}

    def stage_of(op: Operation) -> int:
        if op not in stage:
            start = pieces[index, op][0][0]
            best = 0
            for place in operation_io(op)[0]:
                if initial.get(place[0]) == place[1] or place not in producer:
                    continue
                before = producer[place]
                gap = 0 if pieces[index, before][-1][1] <= start else 1
                best = max(best, stage_of(before) + gap)
            stage[op] = best
        return stage[op]

    return [Slot(index, op, count, pieces[index, op], stage_of(op)) for op in operations]


def schedule_from_lp(result: Any, *, fixed_period: object = None) -> Schedule:
    """Decompose an exact LP result and build its periodic schedule.

    Parameters
    ----------
    result : lp.SteadyStateResult
        From :func:`lp.steady_state_lp` (or the scatter, gather and reduce
        shortcuts), with exact values (``flows_exact`` not None, i.e. certified).
    fixed_period : number, optional
        T_fixed for the fixed-period approximation.

    Returns
    -------
    Schedule

    Raises
    ------
    InputError
        If the LP failed, has no exact solution or a zero throughput, or as
        :func:`periodic_schedule` and the decompositions.

    Examples
    --------
    The two-processor case of NOTES.md §1: trees of weights 1/3 and 2/3, period 3.

    >>> from hetcoll.lp import read_platform, steady_state_reduce_lp
    >>> p = read_platform("examples/two_processor.json")
    >>> s = schedule_from_lp(steady_state_reduce_lp(p, ["P0", "P1"], "P0"))
    >>> s.period, sorted(c.weight for c in s.components)
    (Fraction(3, 1), [Fraction(1, 3), Fraction(2, 3)])

    References
    ----------
    Legrand, Marchal, Robert (2004); NOTES.md §1, "From LP to schedule".
    """
    if not result.success:
        raise InputError(f"the LP has no solution to schedule: {result.message}")
    if result.flows_exact is None:
        raise InputError(f"the LP solution is not exact, a schedule needs it ({result.message}); "
                         "solve with certify=True")
    if not result.throughput_exact:
        raise InputError("the optimal throughput is 0: nothing to schedule "
                         "(can the values reach the target?)")
    components = result.operation.decompose(result.flows_exact, result.tasks_exact)
    return periodic_schedule(components, result.transfer_time, result.task_time,
                             operation=result.operation, fixed_period=fixed_period)


def schedule_gantt(schedule: Schedule, *, ax=None, title: str | None = None):
    """Gantt chart of one period: a send, a receive and a compute row per processor.

    Processors appear in natural name order (P2 before P10); rows that stay
    idle are left out.

    Bars are coloured by tree (or path) and labelled with the value moved or
    the task computed when they are at least 1/30 of the period wide.

    Parameters
    ----------
    schedule : Schedule
    ax : matplotlib Axes, optional
    title : str, optional
        Defaults to a summary (kind, period, throughput).

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> tree = ReductionTree(Fraction(1, 2), (Transfer("B", "A", (1, 1)),),
    ...                      (Task("A", (0, 0, 1)),))
    >>> s = periodic_schedule([tree], lambda *a: Fraction(1), lambda *a: Fraction(2),
    ...                       participants=["A", "B"], target="A")
    >>> [t.get_text() for t in schedule_gantt(s).get_yticklabels()]
    ['A recv', 'A compute', 'B send']

    Raises
    ------
    None
        A :class:`Schedule` is consistent once built; matplotlib errors (no backend,
        a closed ``ax``) propagate unchanged.

    References
    ----------
    Legrand, Marchal, Robert (2004), "Series of Scatter -- Building a
    schedule" (one period of the periodic schedule).
    """
    bars = []
    processors: dict[str, None] = {}
    for slot in schedule.slots:
        op = slot.operation
        if isinstance(op, Task):
            rows = [(op.processor, "compute")]
            label = "T" + ",".join(map(str, op.task))
        else:
            rows = [(op.sender, "send"), (op.receiver, "recv")]
            label = schedule.operation.value_label(op.value)
        for name, _ in rows:
            processors[name] = None
        for name, what in rows:
            for start, end in slot.pieces:
                # Labels only where they fit: narrow bars would overprint.
                shown = label if (end - start) * 30 >= schedule.period else ""
                bars.append(GanttBar(f"{name} {what}", start, end, slot.component, shown))
    order = [f"{name} {what}" for name in sorted(processors, key=_natural_key)
             for what in ("send", "recv", "compute")]
    used = {bar.row for bar in bars}
    component_kind = schedule.operation.component_kind
    if title is None:
        title = (f"{schedule.kind} schedule: period {fraction_str(schedule.period)}, "
                 f"throughput {fraction_str(schedule.throughput_exact)}, "
                 f"{schedule.n_components} {component_kind}")
    ax = gantt_chart(bars, ax=ax, title=title, row_order=[r for r in order if r in used],
                     legend_title=component_kind[:-1])
    ax.set_xlim(0, float(schedule.period))
    return ax


def _natural_key(name: str) -> list:
    """Sort P2 before P10: digit runs compare as numbers."""
    return [int(part) if i % 2 else part for i, part in enumerate(re.split(r"(\d+)", name))]
