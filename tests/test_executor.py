"""The exact executor: hand-checked runs and deliberately broken schedules."""

import dataclasses
from fractions import Fraction as F

import pytest

from hetcoll.core.errors import InputError, LimitError
from hetcoll.lp.decomposition import ReductionTree, ScatterPath, Task, Transfer
from hetcoll.lp.executor import MAX_BUSY_INTERVALS, ScheduleViolation, execute_schedule
from hetcoll.lp.schedule import periodic_schedule

TREE_AT_P0 = ReductionTree(F(1, 3), (Transfer("P1", "P0", (1, 1)),), (Task("P0", (0, 0, 1)),))
TREE_AT_P1 = ReductionTree(F(2, 3), (Transfer("P0", "P1", (0, 0)), Transfer("P1", "P0", (0, 1))),
                           (Task("P1", (0, 0, 1)),))
WORK = {"P0": F(3), "P1": F(3, 2)}


def hand_schedule():
    return periodic_schedule([TREE_AT_P0, TREE_AT_P1], lambda a, b, v: F(1),
                             lambda p, t: WORK[p], participants=["P0", "P1"], target="P0")


def with_slot(schedule, index, **changes):
    slots = list(schedule.slots)
    slots[index] = dataclasses.replace(slots[index], **changes)
    return dataclasses.replace(schedule, slots=tuple(slots))


def find(schedule, operation):
    return next(i for i, s in enumerate(schedule.slots) if s.operation == operation)


def test_single_tree_run_by_hand():
    # B sends v_1 to A (1 time unit), A reduces (2 units); weight 1/2: period 2.
    # Transfer in [0,1), task in [0,2) of the next period (stage 1): use q
    # completes at 2(q+1) + 2.
    tree = ReductionTree(F(1, 2), (Transfer("B", "A", (1, 1)),), (Task("A", (0, 0, 1)),))
    schedule = periodic_schedule([tree], lambda *a: F(1), lambda *a: F(2),
                                 participants=["A", "B"], target="A")
    run = execute_schedule(schedule, 4)
    assert schedule.depth == 1
    assert run.completion_times == ((4, 1), (6, 1), (8, 1), (10, 1))
    assert run.makespan == 10 and run.completed == 4
    assert run.efficiency == F(4, F(1, 2) * 10)
    assert run.completed_by(F(7)) == 2


def test_two_processor_reaches_tp_one_and_efficiency_tends_to_one():
    schedule = hand_schedule()
    runs = [execute_schedule(schedule, k) for k in (1, 3, 10, 100)]
    assert all(r.success for r in runs)
    assert [r.steady_throughput for r in runs[1:]] == [1, 1, 1]
    efficiencies = [r.efficiency for r in runs]
    assert efficiencies == sorted(efficiencies)
    assert efficiencies[-1] >= F(100, 100 + schedule.depth)
    # opt(G, K) <= TP K: no run completes more than TP x its makespan.
    assert all(r.completed <= r.makespan for r in runs)


def test_two_sends_at_once_are_caught():
    schedule = hand_schedule()
    # Move the send of v[0,1] (P1->P0, tree 1) onto the send of v_1 (P1->P0, tree 0).
    victim = find(schedule, Transfer("P1", "P0", (0, 1)))
    other = schedule.slots[find(schedule, Transfer("P1", "P0", (1, 1)))]
    broken = with_slot(schedule, victim, pieces=((other.start, other.start + 2),),
                       stage=other.stage)
    with pytest.raises(ScheduleViolation, match=r"two (sends|receives) at once on P[01] at time"
                       ) as error:
        execute_schedule(broken, 3)
    message = str(error.value)
    assert "send v[0,1] P1->P0" in message and "send v[1,1] P1->P0" in message
    assert error.value.processor in {"P0", "P1"}


def test_two_tasks_at_once_are_caught():
    schedule = periodic_schedule(
        [ReductionTree(F(1, 4), (Transfer("B", "A", (1, 1)),), (Task("A", (0, 0, 1)),)),
         ReductionTree(F(1, 4), (Transfer("B", "A", (1, 1)),), (Task("A", (0, 0, 1)),))],
        lambda *a: F(1), lambda *a: F(1), participants=["A", "B"], target="A")
    first, second = (i for i, s in enumerate(schedule.slots) if isinstance(s.operation, Task))
    broken = with_slot(schedule, second, pieces=schedule.slots[first].pieces,
                       stage=schedule.slots[first].stage)
    with pytest.raises(ScheduleViolation, match=r"two tasks at once on A at time \d+: "
                       r"T\(0,0,1\) on A \(tree 0.*T\(0,0,1\) on A \(tree 1"):
        execute_schedule(broken, 2)


def test_value_used_before_it_exists_is_caught():
    schedule = hand_schedule()
    # P1 sends v[0,1] back in the same period, before computing it.
    victim = find(schedule, Transfer("P1", "P0", (0, 1)))
    broken = with_slot(schedule, victim, stage=0)
    with pytest.raises(ScheduleViolation, match=r"v\[0,1\] used before it exists on P1 at time"
                       r".*send v\[0,1\] P1->P0.*T\(0,0,1\) on P1"):
        execute_schedule(broken, 2)


def test_value_never_produced_is_caught():
    schedule = hand_schedule()
    index = find(schedule, Task("P1", (0, 0, 1)))
    slots = list(schedule.slots)
    del slots[index]
    broken = dataclasses.replace(schedule, slots=tuple(slots))
    with pytest.raises(ScheduleViolation, match=r"v\[0,1\], which is never produced there"):
        execute_schedule(broken, 2)


@pytest.mark.parametrize("periods", [0, -1, 2.5, True])
def test_periods_must_be_a_positive_integer(periods):
    with pytest.raises(InputError, match="periods must be a positive integer"):
        execute_schedule(hand_schedule(), periods)


def test_too_many_periods_is_refused_before_any_work():
    # 10^13 periods used to end in a numpy MemoryError (10^8 took 8 GB). The limit is
    # on the busy intervals checked: every piece of a transfer holds two ports, every
    # piece of a task one CPU, in every period.
    schedule = hand_schedule()
    per_period = sum(len(s.pieces) * (1 if isinstance(s.operation, Task) else 2)
                     for s in schedule.slots)
    assert per_period >= 8  # 3 transfers x 2 ports + 2 tasks, at least one piece each
    most = MAX_BUSY_INTERVALS // per_period
    with pytest.raises(LimitError, match=f"--max-intervals\\); run at most {most:,} periods"):
        execute_schedule(schedule, most + 1)
    # The keyword raises the limit.
    assert execute_schedule(schedule, most + 1, max_busy_intervals=per_period * (most + 1)
                            ).periods == most + 1
    with pytest.raises(InputError, match="periods: 10000000000000 periods"):
        execute_schedule(schedule, 10**13)


def test_scatter_target_starved_by_a_fixed_period_counts_zero():
    # Period 1: the path to B (weight 1/2) gets floor(1/2) = 0 uses, so no
    # scatter ever completes although A receives one message per period.
    paths = [ScatterPath(F(1), "A", (Transfer("S", "A", "A"),)),
             ScatterPath(F(1, 2), "B", (Transfer("S", "B", "B"),))]
    schedule = periodic_schedule(paths, lambda *a: F(1, 2), lambda *a: F(1), source="S",
                                 targets=["A", "B"], fixed_period=1)
    assert schedule.uses == (1, 0) and schedule.throughput_exact == 0
    run = execute_schedule(schedule, 4)
    assert run.steady_throughput == 0 and run.completed == 0
