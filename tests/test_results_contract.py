"""Every public result of markov, sim and analytics keeps the core contract.

``hetcoll.core.results.Result``: an int ``status`` (0 = success), a ``message``,
``success``, and one ``to_dict()`` whose output ``json.dumps`` accepts without NaN or
Infinity; every result pickles and comes back equal.  Values are checked against
hand-solved cases, not against the code under test.
"""

from __future__ import annotations

import json
import pickle
from fractions import Fraction

import pytest

from hetcoll.analytics import (
    InstanceCheck,
    OptimumResult,
    TheoremCheck,
    check_instance,
    clairvoyant_optimum,
    verify_lemma1,
    verify_theorems,
)
from hetcoll.core.results import Result
from hetcoll.markov import AbsorbingCTMC, AbsorptionResult, absorption_time, tree_dyn_chain
from hetcoll.sim import (
    Exponential,
    MarendicResult,
    MonteCarloSummary,
    SimplifiedModel,
    SimulationResult,
    monte_carlo,
    perfect_knowledge_reduction,
    simulate,
)


def _strict_json(data):
    """``json.dumps`` refusing NaN and Infinity, parsed back."""
    return json.loads(json.dumps(data, allow_nan=False))


def _erlang2():
    # Two phases of rate 3 in series: mean 2/3, variance 2/9 (hand-solved).
    moves = {"busy2": [("busy1", 3)], "busy1": [("done", 3)]}
    return AbsorbingCTMC.from_successors("busy2", lambda s: moves.get(s, []))


CASES = {
    "AbsorptionResult": (AbsorptionResult,
                         lambda: absorption_time(_erlang2(), exact=True, quantiles=[0.5]),
                         {"mean_exact": "2/3", "variance_exact": "2/9", "states": 2}),
    "AbsorptionResult float rates": (
        AbsorptionResult, lambda: absorption_time(tree_dyn_chain(4, 1.5), exact=True),
        {"status": 1, "mean_exact": None}),
    "SimulationResult": (SimulationResult,
                         lambda: simulate("tree-dyn", [[0, 1], [3, 0]], [2, 5]),
                         # P1 -> P0 costs 3, then P0 computes 2: makespan 5.
                         {"makespan": 5.0, "makespan_exact": "5", "root": 0}),
    "MonteCarloSummary": (MonteCarloSummary,
                          lambda: monte_carlo("tree-dyn", 2, 2.0, runs=3, seed=0)["tree-dyn"],
                          # Deterministic costs 2, n = 2: one transfer, makespan 2.
                          {"mean": 2.0, "std": 0.0, "runs": 3}),
    "MarendicResult": (MarendicResult,
                       lambda: perfect_knowledge_reduction([0, 0, 1, 5], SimplifiedModel(2)),
                       {"makespan_exact": "7"}),
    "OptimumResult": (OptimumResult,
                      lambda: clairvoyant_optimum([[0, 1, 1], [1, 0, 1], [1, 1, 0]], [0, 0, 0]),
                      {"makespan_exact": "2", "makespan": 2.0}),
    "InstanceCheck": (InstanceCheck,
                      lambda: check_instance("binomial-stat", "c=0", [[0, 1], [3, 0]], [0, 0]),
                      {"makespan_exact": "3", "optimum_exact": "1", "ratio_exact": "3"}),
    "TheoremCheck": (TheoremCheck, lambda: verify_theorems(1, seed=1, n_max=3)[0],
                     {"status": "pass", "verdict": "pass", "success": True}),
    "TheoremCheck lemma": (TheoremCheck, lambda: verify_lemma1(3, seed=1, n_max=4),
                           {"verdict": "pass", "worst_ratio_exact": "1"}),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_result_contract(name):
    kind, make, expected = CASES[name]
    result = make()
    assert isinstance(result, kind) and isinstance(result, Result)
    assert isinstance(result.status, int) and isinstance(result.message, str)
    assert result.success == (result.status == 0)
    data = _strict_json(result.to_dict())
    assert data["message"] == result.message and data["success"] == result.success
    if kind is not TheoremCheck:  # verify's rows keep the verdict under "status"
        assert data["status"] == result.status
    for key, value in expected.items():
        assert data[key] == value, key
    assert result.as_dict() == result.to_dict()  # the old name stays an alias
    again = pickle.loads(pickle.dumps(result))
    assert again == result
    assert _strict_json(again.to_dict()) == data


def test_theorem_check_status_follows_the_verdict():
    check = TheoremCheck("Theorem 1", "binomial-stat", "c=0", "Delta")
    assert (check.status, check.verdict, check.success) == (0, "pass", True)
    check.verdict = "refuted"  # a finding, not a failure
    assert check.status == 0 and check.to_dict()["status"] == "refuted"
    check.verdict = "fail"
    assert check.status == 1 and not check.success
    # No instance tried: bound_at_worst is NaN in Python, null in JSON.
    assert _strict_json(check.to_dict())["bound_at_worst"] is None


def test_counterexample_numbers_are_pairs():
    check = TheoremCheck("Theorem 1", "binomial-stat", "c=0", "Delta", verdict="refuted",
                         counterexample={"makespan": Fraction(7, 2),
                                         "comm": [[0, Fraction(1, 3)]]})
    data = _strict_json(check.to_dict())["counterexample"]
    assert data == {"makespan": 3.5, "makespan_exact": "7/2", "comm": [[0, "1/3"]]}


def test_simulation_trace_times_are_pairs():
    result = simulate("binomial-stat", [[0, "1/3"], ["1/3", 0]], ["1/2", 0])
    data = _strict_json(result.to_dict())
    transfer = data["trace"][0]
    assert (transfer["start"], transfer["start_exact"]) == (0.0, "0")
    assert transfer["end_exact"] == "1/3"
    assert "trace" not in result.to_dict(trace=False)
    assert data["makespan_exact"] == "5/6"


def test_float_mode_has_no_exact_values():
    data = _strict_json(simulate("tree-dyn", [[0, 0.5], [0.25, 0]]).to_dict())
    assert data["makespan"] == 0.25 and data["makespan_exact"] is None


def test_monte_carlo_summary_quantile_keys_and_warning():
    summary = monte_carlo("tree-dyn", 4, Exponential(1.0), runs=1, seed=0,
                          quantiles=(0.5,))["tree-dyn"]
    data = _strict_json(summary.to_dict())
    assert list(data["quantiles"]) == ["0.5"]
    assert data["warnings"] and "single run" in data["warnings"][0]
