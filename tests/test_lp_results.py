"""Every public lp result follows the core contract (issue 9): status, message, success,
to_dict() through json.dumps, and pickling (a reduce result used to hold a closure)."""

import json
import pickle
from fractions import Fraction

import pytest

from hetcoll.core.results import Result
from hetcoll.lp import (
    Gather,
    Reduce,
    Scatter,
    SteadyStateResult,
    execute_schedule,
    read_platform,
    schedule_from_lp,
    steady_state_lp,
    steady_state_reduce_lp,
)
from hetcoll.report import report

PLATFORM = read_platform("examples/two_sites.json")


def solved():
    yield steady_state_lp(PLATFORM, Scatter(**PLATFORM.scatter_defaults))
    yield steady_state_lp(PLATFORM, Gather(**PLATFORM.gather_defaults))
    yield steady_state_lp(PLATFORM, Reduce(**PLATFORM.reduce_defaults))
    # Task costs given as a lambda: the result keeps the exact table, not the lambda.
    yield steady_state_reduce_lp(PLATFORM, ["A0", "A1", "B0"], "A0",
                                 task_costs=lambda name, task: 2 if name == "A1" else 1)
    yield steady_state_lp(PLATFORM, Scatter("A0", ["A1"]), certify=False)
    yield steady_state_lp(PLATFORM, Gather(["B1"], "A0"),
                          solver_options={"solver": "simplex", "simplex_iteration_limit": 0})


def every_result():
    for result in solved():
        yield result
        if result.certified:
            schedule = schedule_from_lp(result)
            yield schedule
            yield execute_schedule(schedule, schedule.depth + 2)
    rep = report(["examples/two_processor.json"])
    yield rep
    yield rep.platforms[0]


@pytest.mark.parametrize("result", list(every_result()),
                         ids=lambda r: f"{type(r).__name__}-{getattr(r, 'kind', '')}")
def test_result_contract_json_and_pickle(result):
    assert isinstance(result, Result)
    assert isinstance(result.status, int) and isinstance(result.message, str)
    data = json.loads(json.dumps(result.to_dict(), allow_nan=False))
    assert {"status", "message", "success"} <= set(data)
    assert data["status"] == result.status and data["success"] == result.success
    again = pickle.loads(pickle.dumps(result))
    assert type(again) is type(result)
    assert again.to_dict() == result.to_dict()


def test_status_codes_of_steady_state_results():
    certified, *_, uncertified, failed = solved()
    assert (certified.status, certified.success) == (0, True)
    assert (uncertified.status, uncertified.success) == (1, True)
    assert (failed.status, failed.success) == (2, False)
    assert failed.to_dict()["throughput"] is None


def test_pickled_reduce_keeps_its_exact_task_costs():
    r = [*solved()][3]
    again = pickle.loads(pickle.dumps(r))
    assert again.task_time("A1", (0, 1, 2)) == 2 and again.task_time("A0", (0, 0, 1)) == 1
    assert again.throughput_exact == r.throughput_exact
    # The exact table replaced the lambda in the stored operation.
    assert again.operation.task_costs[("A1", (0, 0, 1))] == Fraction(2)


def test_as_dict_is_kept_as_an_alias():
    r = next(solved())
    assert isinstance(r, SteadyStateResult) and r.as_dict() == r.to_dict()
    assert r.to_dict()["throughput_exact"] == "23/140"
