"""Reductions under load imbalance (Marendić et al.): simulator, formulas, Monte Carlo, CLI."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from hetcoll.cli import main
from hetcoll.sim.imbalance import (
    ALGORITHMS,
    IN_ORDER,
    WHOLE_VECTOR,
    FlatModel,
    simulate_reduction,
)
from hetcoll.sim.imbalance.formulas import SYMBOLS, closed_forms, symbolic_formulas
from hetcoll.sim.imbalance.skew import (
    GammaSkew,
    GaussianSkew,
    SlowProcess,
    metrics_for_delays,
    sample_metrics,
)

costs = st.fractions(min_value=0, max_value=5, max_denominator=7)
positive_costs = st.fractions(min_value=Fraction(1, 7), max_value=5, max_denominator=7)


def ceil_log2(p: int) -> int:
    """Smallest k with 2^k >= p, by counting (typed independently of the code)."""
    k = 0
    while 2 ** k < p:
        k += 1
    return k


# --- zero skew: formulas (1) and (2), typed by hand from the paper -----------------------

@given(st.integers(1, 70), st.integers(1, 40), costs, costs, costs, st.data())
def test_zero_skew_linear_and_binomial_equal_formulas_1_and_2(p, n, a, b, g, data):
    root = data.draw(st.integers(0, p - 1))
    model = FlatModel(p, n, a, b, g, root=root)
    linear = simulate_reduction("linear", model, trace=False)
    assert linear.T1_root == (p - 1) * (a + n * b + n * g)            # formula (1)
    binomial = simulate_reduction("binomial", model, trace=False)
    assert binomial.T1_root == ceil_log2(p) * (a + n * b + n * g)     # formula (2)


def test_zero_skew_hand_values():
    # p = 4, n = 8, α = β = γ = 1; times worked out by hand step by step.
    model = FlatModel(4, 8, 1, 1, 1)
    # Recursive halving: 1 + 4 + 4, then 1 + 2 + 2; gather: 1 + 2, then 1 + 4.
    assert simulate_reduction("rabenseifner", model).T1_root == 22
    # Direct send: three steps of 1 + 2 + 2, then the gather 1 + 2 and 1 + 4.
    assert simulate_reduction("direct-send", model).T1_root == 23
    # Binary heap 0 <- {1, 2}, 1 <- {3}: P1 ends its combine at 17, then P0 receives
    # from P1 (17..26, combine ..34) and from P2 (34..43, combine ..51): three steps
    # where formula (2) counts two.
    assert simulate_reduction("binary", model).T1_root == 51
    # LocalReduce, n = 1, α = β = γ = 1, transfer α + nβ = 2 (the protocol of
    # sim/imbalance/local_reduce.py): completions arrive at 1, handshakes at 2; P3 (the
    # head) sends to P2 (2..4), so P2 answers P1's handshake busy (arrives 3) and P1
    # sends to P0 (3..5).  Combines: P2 4..5, P0 5..6.  P1's redirect (sent at 5)
    # reaches P2 at 6; P2's completion to P0 arrives at 7, the handshake at 8, data
    # 8..10, combine 10..11.
    small = FlatModel(4, 1, 1, 1, 1)
    assert simulate_reduction("local-reduce", small).T1_root == 11


def test_rabenseifner_and_direct_send_against_the_usual_analysis():
    # Power-of-two p dividing n: recursive halving + binomial gather take
    # 2 log2(p) α + 2(1 - 1/p) nβ + (1 - 1/p) nγ, nβ/p less than formula (4).
    a, b, g = Fraction(1, 3), Fraction(2, 5), Fraction(3, 7)
    for p, n in ((2, 6), (8, 16), (16, 32)):
        model = FlatModel(p, n, a, b, g)
        k = ceil_log2(p)
        usual = 2 * k * a + 2 * (1 - Fraction(1, p)) * n * b + (1 - Fraction(1, p)) * n * g
        assert simulate_reduction("rabenseifner", model).T1_root == usual
        assert closed_forms(p, n, a, b, g)["rabenseifner"] - usual == n * b / p


def test_rabenseifner_refuses_other_p():
    with pytest.raises(ValueError, match="power of two"):
        simulate_reduction("rabenseifner", FlatModel(6, 4, 1, 1, 1))


# --- closed forms ------------------------------------------------------------------------

def test_closed_forms_hand_values():
    forms = closed_forms(4, 2, 1, 1, 1)
    assert forms == {"linear": 15, "binary": 10, "direct-send": 20, "rabenseifner": 9}
    assert closed_forms(5, 2, 1, 1, 1)["rabenseifner"] is None
    assert closed_forms(5, 2, 1, 1, 1)["binary"] == 15  # ⌈log2 5⌉ = 3


@given(st.integers(1, 64), st.integers(1, 50), costs, costs, costs)
def test_closed_forms_equal_the_sympy_expressions(p, n, a, b, g):
    values = dict(zip(SYMBOLS, (p, n, *(sympy.Rational(x.numerator, x.denominator)
                                       for x in (a, b, g))), strict=True))
    exact = closed_forms(p, n, a, b, g)
    for name, expression in symbolic_formulas().items():
        if exact[name] is None:
            assert p & (p - 1)
            continue
        value = sympy.simplify(expression.subs(values))
        assert value == sympy.Rational(exact[name].numerator, exact[name].denominator)


# --- lower bound, order, Lemma 1 ---------------------------------------------------------

delays_strategy = st.lists(st.fractions(min_value=0, max_value=20, max_denominator=3),
                           min_size=2, max_size=12)


@given(delays_strategy, st.integers(1, 6), costs, costs, costs, st.data())
def test_whole_vector_lower_bound(delays, n, a, b, g, data):
    p = len(delays)
    model = FlatModel(p, n, a, b, g, root=data.draw(st.integers(0, p - 1)))
    for name in WHOLE_VECTOR:
        result = simulate_reduction(name, model, delays, trace=False)
        assert result.T1_root >= max(delays) + a + n * b + n * g, name


@given(st.lists(st.integers(0, 30), min_size=1, max_size=11), st.integers(1, 5),
       st.sampled_from([0, 1, "1/2"]), st.sampled_from([0, "1/2"]), st.sampled_from([0, "1/3"]),
       st.data())
def test_operand_order_on_strings_under_random_skew(delays, n, a, b, g, data):
    # Zero costs included: many simultaneous events.
    p = len(delays)
    root = data.draw(st.integers(0, p - 1))
    values = [[f"{i}." for _ in range(n)] for i in range(p)]
    expected = "".join(f"{i}." for i in range(p))
    for name in ALGORITHMS:
        if name == "rabenseifner" and p & (p - 1):
            continue
        model = FlatModel(p, n, a, b, g, root=0 if name == "binomial" else root)
        result = simulate_reduction(name, model, delays, values=values, operator=str.__add__)
        column = result.value[0]
        assert len(result.value) == n
        assert sorted(column.split(".")[:-1], key=int) == [str(i) for i in range(p)], name
        if name in IN_ORDER:
            assert result.value == [expected] * n, name
            assert result.in_order


def test_order_on_matrices():
    # 2x2 integer matrices do not commute; LocalReduce and direct-send keep rank order.
    rng = np.random.default_rng(5)
    mats = [rng.integers(-3, 4, (2, 2)) for _ in range(6)]
    product = mats[0]
    for m in mats[1:]:
        product = product @ m
    for name in ("local-reduce", "direct-send", "noncommut-tree-dyn", "linear"):
        result = simulate_reduction(name, FlatModel(6, 1, 1, 1, 1, root=2), [5, 0, 9, 1, 0, 3],
                                    values=[[m] for m in mats], operator=np.matmul)
        assert (result.value[0] == product).all(), name


@given(st.lists(st.fractions(min_value=0, max_value=4, max_denominator=2), min_size=1,
                max_size=9), costs, costs, costs)
def test_perfect_knowledge_is_algorithm1_with_the_rendezvous_mapping(delays, a, b, g):
    # σ = α + nβ, τ = 0, ψ = α + nβ + nγ: the last merge of the flat-model run is
    # Algorithm 1's makespan (whose optimality, Lemma 1, tests/test_marendic.py checks
    # against brute force), and the root receives the result one transfer later.
    from hetcoll.sim.marendic import SimplifiedModel, perfect_knowledge_reduction

    n = 3
    model = FlatModel(len(delays), n, a, b, g)
    result = simulate_reduction("perfect-knowledge", model, delays)
    reference = perfect_knowledge_reduction(delays, SimplifiedModel(psi=a + n * b + n * g))
    merges = [op.end for op in result.trace if op.kind == "combine"]
    assert max(merges, default=max(delays)) == reference.makespan
    extra = 0 if reference.root == 0 else a + n * b
    assert result.T1_root == reference.makespan + extra


# --- LocalReduce: tree-wise with no skew ------------------------------------------------

def combine_depth(result) -> int:
    depth = [0] * result.p
    for op in sorted((o for o in result.trace if o.kind == "combine"), key=lambda o: o.end):
        depth[op.process] = max(depth[op.process], depth[op.peer]) + 1
    return depth[0]


@given(st.integers(1, 200), positive_costs, positive_costs)
def test_local_reduce_zero_skew_takes_log_steps(p, b, g):
    # With the control ripple short against a step (p α <= nβ + nγ), the fast
    # processes pair off: the root's result is ⌈log2 p⌉ combines deep.
    model = FlatModel(p, 1, (b + g) / p, b, g)
    result = simulate_reduction("local-reduce", model)
    assert combine_depth(result) == ceil_log2(p)
    free = simulate_reduction("local-reduce", FlatModel(p, 1, 0, b, g))
    assert free.T1_root == ceil_log2(p) * (b + g)


def test_local_reduce_hides_one_slow_process():
    # Table 1's regime: the delay exceeds the fast processes' tree (4 steps of 2).
    model = FlatModel(16, 1, Fraction(1, 1000), 1, 1)
    delays = SlowProcess(5, 20).vector(16)
    result = simulate_reduction("local-reduce", model, delays)
    # P6..P15 have reduced into P6 and P0..P4 into P0 long before 20: after the delay
    # P6 -> P5 and P5 -> P0, two steps of 2, plus the handshakes' few α.
    assert 24 <= result.T1_root < 24 + Fraction(1, 100)
    # The binomial tree: 5 -> 4 at 20, 6 -> 4, 4 -> 0, then P0 still receives from 8:
    # four steps of α + 2 after the delay.
    assert simulate_reduction("binomial", model, delays).T1_root == 20 + 4 * (2 + model.alpha)
    # A slow head (P15) is one step from the root once the others are reduced.
    head = simulate_reduction("local-reduce", model, SlowProcess(15, 20).vector(16))
    assert 22 <= head.T1_root < 22 + Fraction(1, 100)


def test_metrics_definition():
    model = FlatModel(3, 1, 0, 1, 1, root=1)
    result = simulate_reduction("linear", model, [0, 4, 1])
    # Root P1 (delay 4) receives from P0 (4..5, combine ..6) then P2 (6..7, ..8).
    assert result.terminations == [5, 8, 7]
    assert (result.T1, result.T2, result.T3, result.T4, result.T5, result.T1_root) == (
        4, 6, 8, Fraction(4 + 5 + 6, 3), 4, 8)


# --- Monte Carlo -------------------------------------------------------------------------

def test_monte_carlo_independent_of_n_jobs_and_equal_to_the_exact_simulator(monkeypatch):
    from hetcoll.sim.imbalance import skew as skew_module

    monkeypatch.setattr(skew_module, "CHUNK_RUNS", 64)  # several chunks, few runs
    model = FlatModel(8, 10, "1/10", "1/100", "1/50", root=3)
    skew = GammaSkew(2, "1/2")
    runs = 150
    one = sample_metrics("all", model, skew, runs=runs, seed=11)
    for jobs in (2, -1):
        other = sample_metrics("all", model, skew, runs=runs, seed=11, n_jobs=jobs)
        for name in ALGORITHMS:
            for metric, values in one[name].items():
                assert np.array_equal(values, other[name][metric]), (name, metric, jobs)
    # The same draws, run one by one by the exact simulator in floats.
    rng = np.random.default_rng(np.random.SeedSequence(11).spawn(3)[1])
    draws = skew.sample(rng, 64, 8)
    floats = FlatModel(8, 10, 0.1, 0.01, 0.02, root=3)
    for name in ALGORITHMS:
        for run in (0, 1, 37, 63):
            exact = simulate_reduction(name, floats, list(draws[run]), trace=False)
            for metric in ("T1_root", "T2", "T5"):
                assert getattr(exact, metric) == one[name][metric][64 + run], (name, metric)


def test_gaussian_skew_is_truncated_not_clipped():
    draws = GaussianSkew(0, 1).sample(np.random.default_rng(0), 20000, 1)
    assert draws.min() > 0
    # E[|N(0,1)|] = sqrt(2/pi) = 0.798; clipping at 0 would give half of it.
    assert abs(draws.mean() - 0.798) < 0.02


# --- command line ------------------------------------------------------------------------

def run_json(capsys, *argv):
    assert main(["imbalance", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


TABLE1 = ("--p", "128", "--elements", "1024000", "--alpha", "3.13e-6", "--beta", "2.63e-9",
          "--gamma", "3.90625e-9")


def test_cli_run_all_slow_process(capsys):
    data = run_json(capsys, "run", "all", *TABLE1, "--slow", "5:0.04")
    assert data["status"] == 0
    assert list(data["algorithms"]) == list(ALGORITHMS)
    for row in data["algorithms"].values():
        for metric in ("T1", "T2", "T3", "T4", "T5", "T1_root"):
            assert isinstance(row[metric], float)
            assert row[metric] == pytest.approx(float(Fraction(row[f"{metric}_exact"])))
    # Formula (2) terms: α + nβ + 4 ms = 0.00669625 s per step.
    binomial = Fraction(data["algorithms"]["binomial"]["T1_root_exact"])
    assert binomial == Fraction(4, 100) + 7 * Fraction("0.00669625")


def test_cli_formulas_json(capsys):
    data = run_json(capsys, "formulas", "--p", "4", "--elements", "2", "--alpha", "1",
                    "--beta", "1", "--gamma", "1")
    assert data["formulas"] == {"linear": "15", "binary": "10", "direct-send": "20",
                                "rabenseifner": "9"}
    data = run_json(capsys, "formulas", "--p", "3", "--elements", "2", "--alpha", "1/2",
                    "--beta", "1", "--gamma", "1")
    assert data["formulas"]["rabenseifner"] is None
    assert data["formulas"]["linear"] == "9"


def test_cli_monte_carlo_quantiles_and_gantt(capsys, tmp_path):
    gantt = tmp_path / "run.png"
    data = run_json(capsys, "run", "local-reduce", "--p", "8", "--elements", "10", "--alpha",
                    "0.1", "--beta", "0.01", "--gamma", "0.02", "--gamma-skew", "2,0.5",
                    "--runs", "300", "--seed", "4", "--gantt", str(gantt))
    row = data["algorithms"]["local-reduce"]
    assert row["runs"] == 300
    assert row["T1_q10"] <= row["T1"] <= row["T1_q90"]
    assert "T1_exact" not in row
    assert gantt.stat().st_size > 0


@pytest.mark.parametrize("argv, culprit", [
    (("run", "linear", "--p", "0"), "--p"),
    (("run", "linear", "--alpha", "-1"), "alpha"),
    (("run", "linear", "--delays", "0,1"), "delays"),
    (("run", "nosuch"), "invalid choice"),
    (("run", "linear", "--slow", "4:1"), "slow rank"),
    (("run", "linear", "--slow", "1"), "RANK:DELAY"),
    (("run", "linear", "--root", "9"), "--root"),
    (("run", "rabenseifner", "--p", "6"), "power of two"),
    (("run", "linear", "--gamma", "1,2"), "gamma has 2 entries"),
    (("run", "linear", "--slow", "1:2", "--runs", "5"), "--runs"),
    (("run", "linear", "--gaussian", "1,-1"), "sd"),
    (("run", "linear", "--gamma-skew", "2"), "two numbers"),
    (("formulas", "--elements", "x"), "--elements"),
    (("run", "linear", "--p", "100", "--max-processes", "10"), "--max-processes"),
])
def test_cli_bad_input_one_line_exit_2(capsys, argv, culprit):
    defaults = {"--p": "4", "--elements": "2", "--alpha": "1", "--beta": "1", "--gamma": "1"}
    given_flags = set(argv)
    extra = [x for flag, value in defaults.items() if flag not in given_flags
             for x in (flag, value)]
    with pytest.raises(SystemExit) as exit_info:
        raise SystemExit(main(["imbalance", *argv, *extra]))
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and culprit in err, err


@pytest.mark.parametrize("p", [1, 2, 7, 33])
def test_compiled_local_reduce_equals_the_exact_simulator_with_ties(p):
    from hetcoll.sim.imbalance.kernels import local_reduce_terminations

    rng = np.random.default_rng(p)
    draws = rng.gamma(2, 0.5, (12, p))
    draws[::3] = np.round(draws[::3])  # simultaneous events
    draws[1] = 0
    model = FlatModel(p, 3, 0.5, 0.25, [0.1 * (i + 1) for i in range(p)], root=p // 2)
    compiled = local_reduce_terminations(draws, model.alpha, model.transfer(0, 0, 3),
                                         np.array([model.combine(j, 3) for j in range(p)]),
                                         model.root)
    for run in range(12):
        exact = simulate_reduction("local-reduce", model, list(draws[run]), trace=False)
        assert exact.terminations == compiled[run].tolist()


# --- per-pair costs from a platform -------------------------------------------------------

def three_processors():
    from hetcoll.core.platform import platform_from_dict

    return platform_from_dict({
        "processors": [{"name": "r", "compute": 1}, {"name": "s", "compute": 1},
                       {"name": "t", "compute": 3}],
        "links": [{"from": "s", "to": "r", "cost": 1}, {"from": "t", "to": "r", "cost": 2},
                  {"from": "t", "to": "s", "cost": "1/2"}]})


def test_per_pair_beta_from_a_platform():
    model = FlatModel.from_platform(three_processors(), 2, alpha=1, beta=10)
    # r receives from s: 1 + 2*1 = 3, combines 2*1 (r's compute 1) until 5; from t:
    # 5..10 (1 + 2*2), combine until 12.
    assert simulate_reduction("linear", model).T1_root == 12
    # Pairs without a link take --beta: r -> s costs 1 + 2*10.
    assert model.transfer(0, 1, 2) == 21
    with pytest.raises(ValueError, match="no link r->s"):
        FlatModel.from_platform(three_processors(), 2, alpha=1)
    with pytest.raises(ValueError, match="perfect-knowledge"):
        simulate_reduction("perfect-knowledge", model)


def test_control_messages_take_the_pair_latency():
    # P1's completion reaches P0 at 5, P0's handshake P1 at 8, the data (α of 1->0 = 5,
    # nothing per element) arrives at 13; combines are free.
    model = FlatModel(2, 1, 1, 0, 0, pair_alpha={(1, 0): 5, (0, 1): 3})
    assert simulate_reduction("local-reduce", model).T1_root == 13


def test_monte_carlo_with_per_pair_costs_runs_the_exact_local_reduce():
    model = FlatModel.from_platform(three_processors(), 2, alpha="1/10", beta=1)
    samples = sample_metrics("local-reduce", model, GammaSkew(2, 1), runs=20, seed=2)
    rng = np.random.default_rng(np.random.SeedSequence(2).spawn(1)[0])
    draws = GammaSkew(2, 1).sample(rng, 20, 3)
    floats = FlatModel(3, 2, 0.1, 1.0, [1.0, 1.0, 3.0],
                       pair_beta={(1, 0): 1.0, (2, 0): 2.0, (2, 1): 0.5})
    for run in (0, 19):
        exact = simulate_reduction("local-reduce", floats, list(draws[run]), trace=False)
        assert exact.T1_root == samples["local-reduce"]["T1_root"][run]


def test_cli_platform(capsys, tmp_path):
    from hetcoll.core.platform import write_platform

    path = tmp_path / "three.json"
    write_platform(three_processors(), path)
    data = run_json(capsys, "run", "all", "--platform", str(path), "--elements", "2",
                    "--alpha", "1", "--beta", "10")
    assert data["algorithms"]["linear"]["T1_root_exact"] == "12"
    assert "perfect-knowledge" not in data["algorithms"]  # refused for per-pair costs
    assert main(["imbalance", "run", "linear", "--platform", str(path), "--elements", "2",
                 "--alpha", "1"]) == 2
    assert "no link r->s" in capsys.readouterr().err


@pytest.mark.parametrize("p", [1, 2, 7, 33])
@pytest.mark.parametrize("costs", [(0.5, 0.25, 0.2), (0, 0, 0), (1.0, 0, 0)])
def test_compiled_dynamic_algorithms_equal_the_exact_simulator_with_ties(p, costs):
    rng = np.random.default_rng(p + 100)
    draws = rng.gamma(2, 0.5, (12, p))
    draws[::3] = np.round(draws[::3])
    draws[1] = 0
    model = FlatModel(p, 3, *costs, root=p // 2)
    names = ["perfect-knowledge", "tree-dyn", "noncommut-tree-dyn"]
    compiled = metrics_for_delays(names, model, draws)
    for name in names:
        for run in range(12):
            exact = simulate_reduction(name, model, list(draws[run]), trace=False)
            for metric in ("T1_root", "T2", "T3", "T5"):
                assert getattr(exact, metric) == compiled[name][metric][run], (name, run)
