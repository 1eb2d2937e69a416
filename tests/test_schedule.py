"""Periodic schedules: the hand-solved case, fixed period, JSON, Gantt, bundled examples."""

import json
from fractions import Fraction as F
from pathlib import Path

import matplotlib
import pytest

from hetcoll import lp
from hetcoll.core.errors import InputError
from hetcoll.lp.decomposition import ReductionTree, ScatterPath, Task, Transfer
from hetcoll.lp.executor import execute_schedule
from hetcoll.lp.schedule import periodic_schedule, schedule_from_lp, schedule_gantt

matplotlib.use("Agg")

# Absolute: a relative glob would collect no example (and pass) outside the repository root.
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
BUNDLED = sorted(str(p) for p in [*EXAMPLES.glob("*.json"), *EXAMPLES.glob("*.graphml")])

# NOTES.md §1 hand case: links of cost 1, w(P0) = 3, w(P1) = 3/2.
TREE_AT_P0 = ReductionTree(F(1, 3), (Transfer("P1", "P0", (1, 1)),), (Task("P0", (0, 0, 1)),))
TREE_AT_P1 = ReductionTree(F(2, 3), (Transfer("P0", "P1", (0, 0)), Transfer("P1", "P0", (0, 1))),
                           (Task("P1", (0, 0, 1)),))
WORK = {"P0": F(3), "P1": F(3, 2)}
ROLES = {"participants": ["P0", "P1"], "target": "P0"}


def hand_schedule(**kwargs):
    return periodic_schedule([TREE_AT_P0, TREE_AT_P1], lambda a, b, v: F(1),
                             lambda p, t: WORK[p], **ROLES, **kwargs)


def test_two_processor_period_three():
    schedule = hand_schedule()
    assert schedule.period == 3
    assert schedule.uses == (1, 2)
    assert schedule.throughput_exact == 1
    # Per period: P0 computes 1 x 3 and P1 computes 2 x 3/2, both exactly T.
    busy = {}
    for slot in schedule.slots:
        if isinstance(slot.operation, Task):
            busy[slot.operation.processor] = slot.end - slot.start
    assert busy == {"P0": 3, "P1": 3}
    # Links: P1->P0 carries 1 + 2 messages (3 time units), P0->P1 carries 2.
    assert sum(m.duration for m in schedule.matchings) == 3


def test_two_processor_from_the_example_file():
    platform = lp.read_platform(EXAMPLES / "two_processor.json")
    schedule = schedule_from_lp(lp.steady_state_reduce_lp(platform, ["P0", "P1"], "P0"))
    assert schedule.period == 3
    assert sorted(c.weight for c in schedule.components) == [F(1, 3), F(2, 3)]
    assert schedule.n_components == 2


def test_fixed_period_hand_case():
    # T_f = 2: r = floor(2/3) = 0 and floor(4/3) = 1, so TP* = 1/2 and the
    # loss 1/2 is within #trees / T_f = 1.
    schedule = hand_schedule(fixed_period=2)
    assert schedule.uses == (0, 1)
    assert schedule.throughput_exact == F(1, 2)
    assert schedule.loss == F(1, 2) and schedule.loss_bound == 1
    assert execute_schedule(schedule, 3).steady_throughput == F(1, 2)


def test_an_uncertified_or_failed_lp_is_not_scheduled():
    platform = lp.read_platform(EXAMPLES / "two_processor.json")
    floating = lp.steady_state_reduce_lp(platform, ["P0", "P1"], "P0", certify=False)
    with pytest.raises(InputError, match=r"not exact, a schedule needs it \(optimal \(floating"):
        schedule_from_lp(floating)
    sites = lp.read_platform(EXAMPLES / "two_sites.json")
    failed = lp.steady_state_reduce_lp(sites, **sites.reduce_defaults, solver_options={
        "solver": "simplex", "simplex_iteration_limit": 0})
    with pytest.raises(InputError, match="the LP has no solution to schedule: HiGHS"):
        schedule_from_lp(failed)


def test_fixed_period_must_be_positive():
    with pytest.raises(InputError, match="fixed period must be positive"):
        hand_schedule(fixed_period="-3")


def test_overloaded_processor_is_reported():
    heavy = ReductionTree(F(1), TREE_AT_P0.transfers, TREE_AT_P0.tasks)  # P0 computes 3 > 1
    with pytest.raises(InputError, match="processor P0 computes 3 per period of 1"):
        periodic_schedule([heavy], lambda a, b, v: F(1), lambda p, t: WORK[p], **ROLES)


def test_roles_must_match_the_components():
    with pytest.raises(InputError, match="either participants and target"):
        periodic_schedule([TREE_AT_P0], lambda *a: F(1), lambda *a: F(1))
    with pytest.raises(InputError, match="ScatterPath"):
        periodic_schedule([TREE_AT_P0], lambda *a: F(1), lambda *a: F(1),
                          source="P0", targets=["P1"])


def test_json_export_has_the_issue_keys():
    data = json.loads(json.dumps(hand_schedule().to_dict()))
    assert data["period"] == "3" and data["throughput_exact"] == "1"
    assert [t["weight"] for t in data["trees"]] == ["1/3", "2/3"]
    assert data["trees"][1]["transfers"] == [
        {"from": "P0", "to": "P1", "interval": [0, 0]},
        {"from": "P1", "to": "P0", "interval": [0, 1]}]
    assert data["trees"][1]["tasks"] == [{"processor": "P1", "task": [0, 0, 1]}]
    assert sum(F(m["duration"]) for m in data["matchings"]) == 3
    # Each matching's links form a matching (a link may carry several batches
    # one after the other), and its transfers lie inside it.
    for matching in data["matchings"]:
        links = {(t["from"], t["to"]) for t in matching["transfers"]}
        assert len({a for a, _ in links}) == len(links) == len({b for _, b in links})
        for t in matching["transfers"]:
            assert set(t) >= {"from", "to", "interval"}
            assert F(matching["start"]) <= F(t["start"]) < F(t["end"]) \
                <= F(matching["start"]) + F(matching["duration"])


def test_scatter_json_uses_paths_and_target_keys():
    path = ScatterPath(F(1, 2), "B", (Transfer("S", "A", "B"), Transfer("A", "B", "B")))
    schedule = periodic_schedule([path], lambda *a: F(1), lambda *a: F(1), source="S",
                                 targets=["B"])
    data = schedule.to_dict()
    assert data["paths"][0]["transfers"][0] == {"from": "S", "to": "A", "target": "B"}
    assert "trees" not in data and data["n_paths"] == 1
    assert all("target" in t for m in data["matchings"] for t in m["transfers"])


def test_gantt_has_one_row_per_busy_port_and_processor():
    ax = schedule_gantt(hand_schedule())
    rows = [label.get_text() for label in ax.get_yticklabels()]
    assert rows == ["P0 send", "P0 recv", "P0 compute", "P1 send", "P1 recv", "P1 compute"]
    # One bar per piece per row: 2 transfers use 2 rows each, 3 batches of
    # transfers and 2 tasks (matchings may split batches into more pieces).
    assert len(ax.patches) >= 3 * 2 + 2
    assert ax.get_xlim() == (0.0, 3.0)
    matplotlib.pyplot.close(ax.figure)


def test_every_example_is_collected():
    assert len(BUNDLED) >= 5
    # Issue 12: some bundled examples have a gather scenario, with irregular sizes.
    gathers = [lp.read_platform(p).gather_defaults for p in BUNDLED]
    assert sum(g is not None for g in gathers) >= 3
    assert any(g and "sizes" in g for g in gathers)
    assert {Path(p).name for p in BUNDLED} >= {"two_processor.json", "ring_with_chord.graphml",
                                             "scatter_counterexample.json",
                                             "reduce_counterexample.json"}


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: Path(p).name)
def test_every_bundled_example_schedule_is_validated(path):
    platform = lp.read_platform(path)
    operations = lp.default_operations(platform)
    assert operations
    for operation in operations.values():
        result = lp.steady_state_lp(platform, operation)
        assert result.certified
        schedule = schedule_from_lp(result)
        run = execute_schedule(schedule, schedule.depth + 2)
        assert run.steady_throughput == result.throughput_exact
