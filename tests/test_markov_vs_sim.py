"""Cross-check: the CTMCs against the event simulator's Monte Carlo (exponential costs).

The simulator (:mod:`sim`) and the chains (:mod:`markov`) implement the same
tie-breaking rules independently; with exponential costs, the simulated
makespans must follow the chain's absorption-time distribution.  Agreement is
asked within 4 standard errors:

- mean: standard error s / sqrt(R) of the sample mean;
- quantile t_p of the chain: the fraction of runs below t_p is binomial,
  standard error sqrt(p (1 - p) / R); and the sample quantile, whose
  standard error is sqrt(p (1 - p) / R) / f(t_p) (order statistics, with the
  chain's density f).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from hetcoll.markov import (
    absorption_pdf,
    absorption_time,
    noncommut_tree_dyn_chain,
    tree_dyn_chain,
)
from hetcoll.sim import Exponential, sample_makespans

RUNS = 100_000
PROBS = (0.1, 0.5, 0.9)

CASES = [
    # algorithm, n, rate_comm, rate_comp, seed
    ("tree-dyn", 16, 1, None, 11),
    ("tree-dyn", 9, 2, 1, 12),
    ("tree-dyn", 12, 1, 4, 13),
    ("noncommut-tree-dyn", 8, 1, None, 14),
    ("noncommut-tree-dyn", 7, 1, 2, 15),
    ("noncommut-tree-dyn", 10, 3, 1, 16),
]


@pytest.mark.parametrize(("algorithm", "n", "rate_comm", "rate_comp", "seed"), CASES)
def test_monte_carlo_agrees_with_chain(algorithm, n, rate_comm, rate_comp, seed):
    build = tree_dyn_chain if algorithm == "tree-dyn" else noncommut_tree_dyn_chain
    chain = build(n, rate_comm, rate_comp)
    result = absorption_time(chain, quantiles=PROBS)
    comp = None if rate_comp is None else Exponential(1 / rate_comp)
    samples = sample_makespans(algorithm, n, Exponential(1 / rate_comm), comp,
                               runs=RUNS, seed=seed)[algorithm]
    assert samples.shape == (RUNS,)

    stderr = samples.std(ddof=1) / math.sqrt(RUNS)
    assert abs(samples.mean() - result.mean) <= 4 * stderr
    # The variance too (delta method: Var(s^2) ~ (m4 - s^4) / R).
    centred = samples - samples.mean()
    var_stderr = math.sqrt((np.mean(centred**4) - np.var(centred) ** 2) / RUNS)
    assert abs(samples.var(ddof=1) - result.variance) <= 4 * var_stderr

    density = absorption_pdf(chain, list(result.quantiles.values()))
    for (p, t), f in zip(result.quantiles.items(), density, strict=True):
        binomial = math.sqrt(p * (1 - p) / RUNS)
        assert abs(np.mean(samples <= t) - p) <= 4 * binomial, p
        assert abs(np.quantile(samples, p) - t) <= 4 * binomial / f, p


def test_cross_check_has_the_power_to_tell_the_two_algorithms_apart():
    # The check above would fail with the wrong chain: Non-Commut-Tree-dyn's
    # simulated mean is far (in standard errors) from Tree-dyn's chain mean.
    samples = sample_makespans("noncommut-tree-dyn", 8, Exponential(1.0), runs=RUNS,
                               seed=17)["noncommut-tree-dyn"]
    stderr = samples.std(ddof=1) / math.sqrt(RUNS)
    assert abs(samples.mean() - absorption_time(tree_dyn_chain(8)).mean) > 10 * stderr
    assert abs(samples.mean() - absorption_time(noncommut_tree_dyn_chain(8)).mean) <= 4 * stderr
