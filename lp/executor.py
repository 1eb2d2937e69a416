"""Exact discrete-event execution of a periodic schedule, with its checks.

The executor unrolls a :class:`~lp.schedule.Schedule` over K periods of uses,
plus the pipeline fill (initialisation) and drain (clean-up), in exact
rational time, and checks the platform model on the resulting events rather
than trusting how the schedule was built:

- one-port: a processor never sends two messages at once, never receives two
  at once;
- a processor never computes two tasks at once;
- causality: a value is sent or reduced only once it exists where it is used
  (produced there by a task or brought there by a transfer of the same use,
  or an input of the collective on its owner).

It counts completed operations over time and reports the throughput reached.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
from tqdm import tqdm

from hetcoll.core.errors import InputError, LimitError
from hetcoll.core.numbers import fraction_str
from hetcoll.core.results import Result, exact_pair, to_jsonable
from hetcoll.lp.decomposition import Task
from hetcoll.lp.schedule import Schedule, operation_io

__all__ = ["MAX_BUSY_INTERVALS", "ExecutionResult", "ScheduleViolation", "execute_schedule"]

#: Default guard on the busy intervals (one per piece of an operation, per port or CPU
#: it holds, per period) one run checks.  1.7 million took 32 s on 2 loaded cores, so
#: the default keeps a run to a few seconds; raise it with ``max_busy_intervals``
#: (``--max-intervals``).  10^8 periods of the two-processor schedule took 8 GB before
#: any limit, 10^13 a MemoryError.
MAX_BUSY_INTERVALS = 200_000


class ScheduleViolation(InputError):
    """A schedule breaks the platform model.

    Attributes
    ----------
    processor : str
    time : Fraction
    operations : tuple of str
        The two conflicting operations (or the operation and the missing value).
    """

    def __init__(self, processor: str, time: Fraction, operations: tuple[str, str], what: str):
        self.processor = processor
        self.time = time
        self.operations = operations
        super().__init__(f"{what} on {processor} at time {fraction_str(time)}: "
                         f"{operations[0]} and {operations[1]}")


@dataclass(frozen=True)
class ExecutionResult(Result):
    """What the exact run measured (``scipy.optimize``-style).

    Attributes
    ----------
    status : int
        0: the schedule is valid (a violation raises :class:`ScheduleViolation`).
    message : str
    success : bool
        ``status == 0``.
    periods : int
        K, the number of periods of uses run.
    period : Fraction
    depth : int
        Pipeline depth: fill and clean-up take ``depth`` periods each.
    makespan : Fraction
        End of the last event.
    completed : int
        Operations completed (reduces; scatters or gathers whose every message has
        arrived).
    completion_times : tuple of (Fraction, int)
        When batches of completions happen, and how many, in time order.
    steady_throughput : Fraction
        Operations completed per time unit in a full steady-state period
        (None when the run has none: K <= depth).
    efficiency : Fraction
        completed / (TP · makespan), with TP the schedule's throughput; it
        tends to 1 as K grows (LMR: steady(G, K) / opt(G, K) -> 1).
    n_events : int
        Busy intervals checked.
    """

    status: int
    message: str
    periods: int
    period: Fraction
    depth: int
    makespan: Fraction
    completed: int
    completion_times: tuple[tuple[Fraction, int], ...]
    steady_throughput: Fraction | None
    efficiency: Fraction
    n_events: int

    @property
    def warnings(self) -> list[str]:
        """A run too short to measure anything in steady state (``periods <= depth``)."""
        if self.steady_throughput is not None:
            return []
        return [f"{self.periods} period(s) of uses do not fill the pipeline (depth "
                f"{self.depth}): no steady-state period was run, so the steady throughput "
                f"is not measured (run at least {self.depth + 1} periods)"]

    def completed_by(self, time: Fraction) -> int:
        """Operations completed by ``time`` (inclusive)."""
        return sum(count for when, count in self.completion_times if when <= time)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``status``, ``message``, ``success``, ``periods``, ``period``,
        ``depth``, ``makespan``, ``completed``, ``completion_times``,
        ``steady_throughput``, ``efficiency`` (each exact number ``x`` as ``x`` float
        and ``x_exact`` ``"p/q"``) and ``n_events``."""
        return {"status": self.status, "message": self.message, "success": self.success,
                "periods": self.periods, **exact_pair("period", self.period),
                "depth": self.depth, **exact_pair("makespan", self.makespan),
                "completed": self.completed,
                "completion_times": to_jsonable(self.completion_times),
                **exact_pair("steady_throughput", self.steady_throughput),
                **exact_pair("efficiency", self.efficiency), "n_events": self.n_events}


def _describe(slot, instance: int) -> str:
    op = slot.operation
    if isinstance(op, Task):
        k, mid, m = op.task
        what = f"T({k},{mid},{m}) on {op.processor}"
    else:
        value = op.value
        shown = f"v[{value[0]},{value[1]}]" if isinstance(value, tuple) else f"m[{value}]"
        what = f"send {shown} {op.sender}->{op.receiver}"
    return f"{what} (tree {slot.component}, uses of period {instance})"


def execute_schedule(schedule: Schedule, periods: int, *,
                     max_busy_intervals: int = MAX_BUSY_INTERVALS,
                     progress: bool = False) -> ExecutionResult:
    """Run ``periods`` periods of uses of ``schedule`` and check every event.

    Period p (0 <= p < periods + depth) runs, for each slot of stage s, the
    batch of uses started in period p - s when 0 <= p - s < periods; so
    periods 0..depth-1 fill the pipeline and the last depth periods drain it.
    Times are exact rationals, put on a common integer scale.

    - Port and processor conflicts: the busy intervals of every unrolled
      event are sorted per resource (a processor's out-port, in-port, CPU)
      and adjacent ones compared.  This covers the fill and the drain, where
      fewer stages run.
    - Causality: for every operation and each of its inputs, the operation of
      the same tree producing that input must end before it starts, for the
      same uses.  Both run at the same offsets in every period (shifted by
      their stages), so the inequality is the same for every use; it is
      checked once per (producer, consumer) pair, which covers all K uses.
    - Completions: a use completes when the value closing it arrives
      (v[0,N] on the target; for a scatter or a gather, the message of each
      target or source, and the operation completes when every message has arrived).  A batch of
      ``count`` uses is counted when the batch ends (a lower bound: its first
      uses finish earlier).

    Parameters
    ----------
    schedule : Schedule
    periods : int
        K >= 1.
    max_busy_intervals : int, default MAX_BUSY_INTERVALS
        Size guard: the most busy intervals the run may check.
    progress : bool
        Show a bar over the three checks (overlaps, causality, completions) on
        standard error (tqdm; cleared at the end).

    Returns
    -------
    ExecutionResult

    Raises
    ------
    ScheduleViolation
        (an :class:`~hetcoll.InputError`) naming the processor, the time and
        the two conflicting operations: two sends, two receives or two tasks
        overlapping on a processor, or a value used before it exists there.
    InputError
        If ``periods`` is not a positive integer.
    LimitError
        If the run would check more than ``max_busy_intervals`` busy intervals.

    Examples
    --------
    >>> from hetcoll.lp.decomposition import ReductionTree, Transfer
    >>> from hetcoll.lp.schedule import periodic_schedule
    >>> tree = ReductionTree(Fraction(1, 2), (Transfer("B", "A", (1, 1)),),
    ...                      (Task("A", (0, 0, 1)),))
    >>> s = periodic_schedule([tree], lambda *a: Fraction(1), lambda *a: Fraction(2),
    ...                       participants=["A", "B"], target="A")
    >>> r = execute_schedule(s, 10)
    >>> r.completed, r.steady_throughput, r.depth
    (10, Fraction(1, 2), 1)

    References
    ----------
    Legrand, Marchal, Robert (2004), "Asymptotic optimality": a periodic
    schedule becomes a schedule by an initialisation phase, r periods and a
    clean-up phase; opt(G, K) <= TP·K and steady(G, K)/opt(G, K) -> 1.
    """
    if isinstance(periods, bool) or not isinstance(periods, int | np.integer) or periods < 1:
        raise InputError(f"periods must be a positive integer, got {periods!r}")
    periods = int(periods)
    per_period = sum(len(slot.pieces) * (1 if isinstance(slot.operation, Task) else 2)
                     for slot in schedule.slots)
    if per_period * periods > max_busy_intervals:
        raise LimitError(f"periods: {periods} periods of this schedule make "
                         f"{per_period * periods:,} busy intervals to check, more than "
                         f"{max_busy_intervals:,} (raise it with --max-intervals); run at "
                         f"most {max_busy_intervals // per_period:,} periods")
    period = schedule.period
    slots = schedule.slots
    # One integer time scale for every offset and the period.
    scale = math.lcm(period.denominator,
                     *(t.denominator for slot in slots for piece in slot.pieces for t in piece))
    unit = int(period * scale)
    with tqdm(total=3, desc="exact run: port and CPU overlaps", unit="check",
              disable=not progress, leave=False) as bar:
        n_events = _check_overlaps(schedule, periods, scale, unit)
        bar.set_description("exact run: causality")
        bar.update()
        _check_causality(schedule, scale, unit)
        bar.set_description("exact run: completions")
        bar.update()
        completed, completion_times, arrivals = _completions(schedule, periods, scale, unit)
        bar.update()
    makespan = Fraction(max((
        (slot.stage + periods - 1) * unit + int(slot.end * scale) for slot in slots),
        default=0), scale)
    steady = None
    if periods > schedule.depth:
        # Period ``depth`` is full: every stage serves a real use.
        low, high = schedule.depth * period, (schedule.depth + 1) * period
        steady = Fraction(_steady_count(arrivals, list(schedule.final), scale, low,
                                        high)) / period
    efficiency = (Fraction(completed) / (schedule.throughput_exact * makespan)
                  if makespan and schedule.throughput_exact else Fraction(0))
    return ExecutionResult(0, "schedule valid: no port, compute or causality violation",
                           periods, period, schedule.depth, makespan, completed,
                           tuple(completion_times), steady, efficiency,
                           n_events)


def _check_causality(schedule: Schedule, scale: int, unit: int) -> None:
    """Every input of every operation exists where and when it is used."""
    producers: dict[tuple[int, object], int] = {}
    for index, slot in enumerate(schedule.slots):
        place = operation_io(slot.operation)[1]
        producers[slot.component, place] = index
    for slot in schedule.slots:
        start = slot.stage * unit + int(slot.start * scale)
        for value, processor in operation_io(slot.operation)[0]:
            if schedule.initial.get(value) == processor:
                continue
            index = producers.get((slot.component, (value, processor)))
            if index is None:
                raise ScheduleViolation(processor, slot.start, (
                    _describe(slot, 0), f"{_value_name(value)}, which is never produced there"),
                    "value used before it exists")
            before = schedule.slots[index]
            end = before.stage * unit + int(before.end * scale)
            if end > start:
                raise ScheduleViolation(
                    processor, Fraction(start, scale),
                    (_describe(slot, 0), _describe(before, 0) + " ends at "
                     + fraction_str(Fraction(end, scale))),
                    f"{_value_name(value)} used before it exists")


def _value_name(value) -> str:
    return f"v[{value[0]},{value[1]}]" if isinstance(value, tuple) else f"m[{value}]"


def _check_overlaps(schedule: Schedule, periods: int, scale: int, unit: int) -> int:
    """No two busy intervals of one resource overlap; returns the number of events."""
    resource_index: dict[tuple[str, str], int] = {}
    rows = []  # resource, start offset, end offset, slot
    for index, slot in enumerate(schedule.slots):
        op = slot.operation
        if isinstance(op, Task):
            resources = [("tasks", op.processor)]
        else:
            resources = [("sends", op.sender), ("receives", op.receiver)]
        for resource in resources:
            r = resource_index.setdefault(resource, len(resource_index))
            rows.extend((r, int(a * scale), int(b * scale), index) for a, b in slot.pieces)
    if not rows:
        return 0
    n_rounds = periods + schedule.depth
    big = (n_rounds + 1) * unit >= 2**62
    table = np.array(rows, dtype=object if big else np.int64)
    stage = np.array([slot.stage for slot in schedule.slots], dtype=np.int64)
    slot_of = table[:, 3].astype(np.int64)
    rounds = np.arange(n_rounds, dtype=np.int64)
    instance = rounds[None, :] - stage[slot_of][:, None]
    piece, round_id = np.nonzero((instance >= 0) & (instance < periods))
    shift = rounds[round_id].astype(table.dtype) * unit
    resource = table[piece, 0].astype(np.int64)
    start = table[piece, 1] + shift
    end = table[piece, 2] + shift
    if big:
        order = np.array(sorted(range(len(piece)), key=lambda i: (resource[i], start[i])))
    else:
        order = np.lexsort((start, resource))
    same = resource[order[1:]] == resource[order[:-1]]
    clash = same & (start[order[1:]] < end[order[:-1]])
    if clash.any():
        at = int(np.argmax(clash))
        first, second = order[at], order[at + 1]
        kind, processor = list(resource_index)[resource[first]]
        descriptions = []
        for event in (first, second):
            slot = schedule.slots[slot_of[piece[event]]]
            descriptions.append(_describe(slot, int(rounds[round_id[event]]) - slot.stage))
        raise ScheduleViolation(processor, Fraction(int(start[second]), scale),
                                tuple(descriptions), f"two {kind} at once")
    return len(piece)


def _completions(schedule: Schedule, periods: int, scale: int, unit: int):
    """Total completed, completions [(time, count)] in time order, raw arrivals.

    Arrivals are (scaled time, count, value), ``value`` being the final value that
    arrives (v[0,N] for a reduce; a message, for a scatter or gather).  An operation
    is complete when every final value has arrived: completions follow the minimum
    over the final values (a reduce has one).
    """
    arrivals = []
    for slot in schedule.slots:
        value, processor = operation_io(slot.operation)[1]
        if schedule.final.get(value) != processor:
            continue
        for instance in range(periods):
            time = (instance + slot.stage) * unit + int(slot.end * scale)
            arrivals.append((time, slot.count, value))
    arrivals.sort(key=lambda a: a[0])
    received = dict.fromkeys(schedule.final, 0)
    done = 0
    events = []
    for time, count, target in arrivals:
        received[target] += count
        now = min(received.values())
        if now > done:
            events.append((Fraction(time, scale), now - done))
            done = now
    return done, events, arrivals


def _steady_count(arrivals, keys, scale: int, low: Fraction, high: Fraction) -> int:
    """Operations completed in the window (low, high]: the least-served key's arrivals.

    ``keys`` lists every final value, so one that never arrives counts 0.
    """
    counts = dict.fromkeys(keys, 0)
    for time, count, key in arrivals:
        if low < Fraction(time, scale) <= high:
            counts[key] += count
    return min(counts.values())
