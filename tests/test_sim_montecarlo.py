"""The compiled Monte Carlo engine: agreement with the exact simulator, statistics."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.stats
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from hetcoll import InputError, sim
from hetcoll.sim.kernels import makespans, static_tree_makespans


def exact_makespans(algorithm, comm, comp, start=None):
    return np.array([
        sim.simulate(algorithm, sim.SequenceCosts.from_input(list(comm[r]), list(comp[r])),
                     start_times=None if start is None else list(start[r])).makespan
        for r in range(comm.shape[0])])


@st.composite
def draws(draw):
    n = draw(st.integers(1, 14))
    runs = draw(st.integers(1, 4))
    # Small integers make ties and zero costs (same-instant rounds) common;
    # continuous draws make every event distinct.
    # Costs are 0 or within hetcoll.core.numbers' supported range (about 1e-300 to 1e300).
    elements = st.integers(0, 3).map(float) | st.floats(1e-300, 10)
    comm = draw(arrays(np.float64, (runs, n - 1), elements=elements))
    comp = draw(arrays(np.float64, (runs, n - 1), elements=elements))
    start = draw(st.none() | arrays(np.float64, (runs, n), elements=elements))
    return comm, comp, start


@settings(max_examples=250)
@given(draws(), st.sampled_from(sim.ALGORITHMS))
def test_compiled_engine_matches_exact_simulator(data, algorithm):
    comm, comp, start = data
    np.testing.assert_array_equal(makespans(algorithm, comm, comp, start),
                                  exact_makespans(algorithm, comm, comp, start))


def test_sample_makespans_are_the_exact_makespans_of_the_drawn_costs():
    # Re-draw the first chunk's costs as documented, and simulate them exactly.
    n, runs, seed = 12, 40, 7
    comm_law, comp_law = sim.Gamma(1.0, 0.8), sim.Exponential(0.3)
    samples = sim.sample_makespans("all", n, comm_law, comp_law, runs=runs, seed=seed)
    rng = np.random.default_rng(np.random.SeedSequence(seed).spawn(1)[0])
    comm = comm_law.sample(rng, (runs, n - 1))
    comp = comp_law.sample(rng, (runs, n - 1))
    for algorithm in sim.ALGORITHMS:
        np.testing.assert_array_equal(samples[algorithm], exact_makespans(algorithm, comm, comp))


def test_results_do_not_depend_on_n_jobs_and_are_paired():
    runs = 2 * sim.CHUNK_RUNS + 123  # three chunks, so three workers all get one
    one = sim.sample_makespans("all", 9, sim.Gamma(1, 0.5), sim.Gamma(0.2, 0.5), runs=runs,
                               seed=11, n_jobs=1)
    two = sim.sample_makespans("all", 9, sim.Gamma(1, 0.5), sim.Gamma(0.2, 0.5), runs=runs,
                               seed=11, n_jobs=2)
    three = sim.sample_makespans("all", 9, sim.Gamma(1, 0.5), sim.Gamma(0.2, 0.5), runs=runs,
                                 seed=11, n_jobs=3)
    summary_one = sim.monte_carlo("all", 9, sim.Gamma(1, 0.5), runs=runs, seed=5, n_jobs=1)
    summary_all = sim.monte_carlo("all", 9, sim.Gamma(1, 0.5), runs=runs, seed=5, n_jobs=-1)
    assert {k: s.as_dict() for k, s in summary_one.items()} == {
        k: s.as_dict() for k, s in summary_all.items()}
    alone = sim.sample_makespans("tree-dyn", 9, sim.Gamma(1, 0.5), sim.Gamma(0.2, 0.5),
                                 runs=runs, seed=11)
    for algorithm in sim.ALGORITHMS:
        assert one[algorithm].shape == (runs,)
        np.testing.assert_array_equal(one[algorithm], two[algorithm])
        np.testing.assert_array_equal(one[algorithm], three[algorithm])
    np.testing.assert_array_equal(alone["tree-dyn"], one["tree-dyn"])
    other = sim.sample_makespans("tree-dyn", 9, sim.Gamma(1, 0.5), sim.Gamma(0.2, 0.5),
                                 runs=100, seed=12)
    assert not np.array_equal(other["tree-dyn"], one["tree-dyn"][:100])


@pytest.mark.parametrize("n, runs", [(8, 60_000), (64, 40_000)])
def test_tree_dyn_exponential_mean_matches_markov_formula(n, runs):
    # RR 8315 section 5: E[C] = (2 H(n/2 - 1) + 2/n) / lambda, and the variance.
    rate = 2.0
    summary = sim.monte_carlo("tree-dyn", n, sim.Exponential(1 / rate), runs=runs, seed=n)
    result = summary["tree-dyn"]
    harmonic = sum(1 / i for i in range(1, n // 2))
    expected = (2 * harmonic + 2 / n) / rate
    assert abs(result.mean - expected) < 4 * result.stderr
    variance = (2 * sum(1 / i**2 for i in range(1, n // 2)) + 4 / n**2) / rate**2
    assert result.std**2 == pytest.approx(variance, rel=0.05)
    assert result.runs == runs


def test_deterministic_costs_give_the_homogeneous_durations():
    summary = sim.monte_carlo("all", 13, sim.Deterministic(1.0), 1.0, runs=5, seed=0)
    # Fibonacci: k = 5 for n = 13 (F_7 = 13): d + 4 max(d, c) + c = 6.
    assert summary["fibonacci-stat"].mean == 6.0
    assert summary["tree-dyn"].mean == 8.0
    assert summary["tree-dyn"].stderr == 0.0
    assert summary["tree-dyn"].quantiles == {0.1: 8.0, 0.5: 8.0, 0.9: 8.0}


def test_figure4_ranking_at_cv_1():
    # RR 8315 Figure 4: Tree-dyn best, Fibonacci-stat worst, at every CV.
    summary = sim.monte_carlo("all", 64, sim.Gamma(1.0, 1.0), runs=4000, seed=1)
    means = {name: s.mean for name, s in summary.items()}
    assert min(means, key=means.get) == "tree-dyn"
    assert max(means, key=means.get) == "fibonacci-stat"


def test_start_times_as_a_distribution_and_as_a_vector():
    late = sim.monte_carlo("binomial-stat", 4, 1.0, runs=3, seed=0,
                           start_times=[0, 0, 0, 10])["binomial-stat"]
    # P1 -> P0 in [0, 1]; P3 joins at 10: P3 -> P2 in [10, 11], P2 -> P0 in [11, 12].
    assert late.mean == 12.0
    drawn = sim.sample_makespans("tree-dyn", 4, 1.0, runs=200, seed=0,
                                 start_times=sim.Exponential(1.0))["tree-dyn"]
    assert (drawn >= 2.0).all() and drawn.std() > 0


def test_distributions():
    rng = np.random.default_rng(0)
    gamma = sim.Gamma(2.0, 0.5).sample(rng, 200_000)
    assert gamma.mean() == pytest.approx(2.0, rel=0.01)
    assert gamma.std() / gamma.mean() == pytest.approx(0.5, rel=0.02)
    assert (sim.Gamma(3.0, 0).sample(rng, 4) == 3.0).all()
    lognormal = sim.FrozenScipy(scipy.stats.lognorm(0.5))
    assert lognormal.sample(rng, (3, 2)).shape == (3, 2)
    assert lognormal.mean == pytest.approx(math.exp(0.125))
    with pytest.raises(InputError, match="negative"):
        sim.FrozenScipy(scipy.stats.norm()).sample(rng, 100)
    with pytest.raises(InputError, match="gamma coefficient of variation"):
        sim.Gamma(1.0, -1)
    for cv in (1e-200, 1e200):  # finite, but shape 1/cv^2 or scale mean*cv^2 is not
        with pytest.raises(InputError, match="out of floating-point range"):
            sim.Gamma(1.0, cv)
    with pytest.raises(InputError, match="too large for floating point"):
        sim.Deterministic(1e308)  # a sum of two such costs is inf
    with pytest.raises(InputError, match="exponential mean"):
        sim.Exponential("a")


@pytest.mark.parametrize("kwargs, culprit", [
    ({"algorithms": "tree"}, "unknown algorithm"),
    ({"n": 0}, "number of processors"),
    ({"runs": 0}, "runs"),
    ({"seed": -1}, "seed"),
    ({"comm": "gamma"}, "comm must be a cost distribution"),
    ({"quantiles": (1.5,)}, "quantile"),
    ({"algorithms": "fibonacci-stat", "fibonacci_order": 1}, "fibonacci_order"),
    ({"start_times": [0, 1]}, "start_times"),
])
def test_bad_input(kwargs, culprit):
    arguments = {"algorithms": "all", "n": 4, "comm": sim.Gamma(1, 1), "runs": 10, "seed": 0}
    arguments.update(kwargs)
    algorithms, n, comm = arguments.pop("algorithms"), arguments.pop("n"), arguments.pop("comm")
    with pytest.raises(InputError, match=culprit):
        sim.monte_carlo(algorithms, n, comm, **arguments)


@st.composite
def trees(draw):
    """Random rooted trees with random reception orders (root P0)."""
    n = draw(st.integers(1, 9))
    children = [[] for _ in range(n)]
    for p in range(1, n):
        children[draw(st.integers(0, p - 1))].append(p)
    return [draw(st.permutations(c)) for c in children]


@settings(max_examples=40)
@given(trees(), st.data())
def test_compiled_static_tree_matches_exact_simulator(children, data):
    n = len(children)
    # Costs are 0 or within hetcoll.core.numbers' supported range (about 1e-300 to 1e300).
    elements = st.integers(0, 3).map(float) | st.floats(1e-300, 10)
    comm = data.draw(arrays(np.float64, (3, n - 1), elements=elements))
    comp = data.draw(arrays(np.float64, (3, n - 1), elements=elements))
    compiled = static_tree_makespans(children, comm, comp)
    exact = [sim.simulate(sim.StaticTree(children),
                          sim.SequenceCosts.from_input(list(comm[r]), list(comp[r]))).makespan
             for r in range(3)]
    np.testing.assert_array_equal(compiled, exact)
