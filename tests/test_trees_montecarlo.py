"""Monte Carlo over noisy link times, and the Hockney fit from ping-pong measurements."""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hetcoll.core.errors import InputError, LimitError
from hetcoll.core.platform import read_platform
from hetcoll.sim.collectives import (
    ALGORITHMS,
    HockneyModel,
    StarHockney,
    build_tree,
    fit_hockney,
    noisy_times,
    pairwise_prediction,
    read_pingpong_csv,
    tree_monte_carlo,
)

HAND = read_platform("examples/trees/hand_4proc.json")
HAND_SIZES = {"P0": F(1), "P1": F(4), "P2": F(1), "P3": F(8)}


@given(st.integers(2, 10), st.sampled_from(ALGORITHMS), st.sampled_from(["scatterv",
                                                                          "gatherv"]),
       st.randoms(use_true_random=False))
def test_noiseless_runs_are_the_model(p, algorithm, kind, rnd):
    names = [f"Q{i}" for i in range(p)]
    model = StarHockney.build(names, [rnd.randint(0, 3) for _ in names],
                              [F(rnd.randint(1, 8), 4) for _ in names])
    sizes = {n: F(rnd.randint(0, 5)) for n in names}
    tree = build_tree(algorithm, kind, names[0], sizes, model)
    exact = pairwise_prediction(tree, sizes, model).time
    assert noisy_times(tree, sizes, model, np.ones((2, p - 1))).tolist() == pytest.approx(
        [float(exact)] * 2, rel=1e-12)



def test_cv_zero_gives_the_model_for_every_tree():
    out = tree_monte_carlo("gatherv", "P0", HAND_SIZES, HockneyModel(HAND), runs=50, cv=0)
    times = {name: s.mean for name, s in out.items()}
    assert times == {"flat": 13, "binomial": 14, "binomial-min-first": 36,
                     "binomial-max-first": 11, "traff": 13, "traff-model": 10}
    assert all(s.std == 0 and s.model_time == s.mean for s in out.values())


def test_flat_scatter_mean_is_the_model_time():
    # Flat scatterv: the root's transfers follow one another, so the completion time is
    # the sum of the noisy times, whose mean is the model's sum (gamma factors of mean 1).
    out = tree_monte_carlo("scatterv", "P0", HAND_SIZES, HockneyModel(HAND),
                           algorithms=["flat"], runs=40_000, cv=0.5, seed=3)
    s = out["flat"]
    assert abs(s.mean - 13) < 4 * s.std / math.sqrt(s.runs)
    # Variance of a sum of independent scaled gammas: sum (t_k cv)^2 with t = 4, 3, 6.
    assert s.std == pytest.approx(0.5 * math.sqrt(16 + 9 + 36), rel=0.03)


def test_same_seed_same_numbers_and_common_random_numbers():
    args = ("scatterv", "P0", HAND_SIZES, HockneyModel(HAND))
    a = tree_monte_carlo(*args, runs=20_000, cv=0.3, seed=7)
    b = tree_monte_carlo(*args, runs=20_000, cv=0.3, seed=7)
    assert a == b
    # flat and traff send the same three messages in another order: with the k-th
    # transfer's factor shared, their sums differ run by run, but their means agree
    # within sampling noise.
    assert abs(a["flat"].mean - a["traff"].mean) < 0.1


def test_bad_monte_carlo_arguments():
    args = ("scatterv", "P0", HAND_SIZES, HockneyModel(HAND))
    with pytest.raises(InputError, match="cv"):
        tree_monte_carlo(*args, cv=-1)
    with pytest.raises(LimitError, match="max_runs"):
        tree_monte_carlo(*args, runs=11, max_runs=10)


def test_fit_hockney_recovers_a_line(tmp_path):
    sizes = np.array([0, 1e3, 1e4, 1e5, 1e6])
    rng = np.random.default_rng(0)
    rows = [(m, 2 * (5e-5 + 8e-9 * m) * (1 + 0.01 * rng.standard_normal())) for m in sizes
            for _ in range(20)]
    path = tmp_path / "pp.csv"
    path.write_text("source,target,size,time\n" + "".join(f"A,B,{m},{t}\n" for m, t in rows))
    samples = read_pingpong_csv(path)
    assert set(samples) == {("A", "B"), ("B", "A")}
    fit = fit_hockney({("A", "B"): samples[("A", "B")]})[0]
    assert fit.cost == pytest.approx(8e-9, rel=0.01)
    assert fit.latency == pytest.approx(5e-5, rel=0.5, abs=2e-6)
    exact = fit_hockney({("X", "Y"): [(0, 1), (2, 2), (4, 3)]})[0]
    assert (exact.latency, exact.cost) == pytest.approx((1, 0.5))


def test_fit_hockney_in_seconds_and_elements():
    # Exact points of t = 2 us + 1 ns per element over 1 .. 1e6 elements: unscaled,
    # lsq_linear stopped far from this (a slope of 1e-7 s/element on a flat pair).
    points = [(m, 2e-6 + 1e-9 * m) for m in (1, 1e3, 1e4, 1e5, 1e6)]
    fit = fit_hockney({("P0", "P1"): points})[0]
    assert fit.latency == pytest.approx(2e-6, rel=1e-6)
    assert fit.cost == pytest.approx(1e-9, rel=1e-6)
    flat = fit_hockney({("P0", "P1"): [(m, 5e-6 + 1e-13 * m) for m in (1, 1e3, 1e6)]})[0]
    assert flat.cost == pytest.approx(1e-13, rel=1e-3)


def test_fit_refusals(tmp_path):
    with pytest.raises(InputError, match="two sizes"):
        fit_hockney({("A", "B"): [(1, 1), (1, 2)]})
    with pytest.raises(InputError, match="do not grow"):
        fit_hockney({("A", "B"): [(1, 3), (2, 2), (3, 1)]})
    bad = tmp_path / "bad.csv"
    bad.write_text("source,target,size\nA,B,1\n")
    with pytest.raises(InputError, match="lacks the column 'time'"):
        read_pingpong_csv(bad)
    bad.write_text("source,target,size,time\nA,B,1,-2\n")
    with pytest.raises(InputError, match="line 2: time must be non-negative"):
        read_pingpong_csv(bad)
