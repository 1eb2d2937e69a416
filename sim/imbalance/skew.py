"""Imbalance models (type 1, start skew) and the Monte Carlo engine over them.

Models (Marendić et al., sections 2.2 and 5.2):

- :class:`DelayVector`: given delays d_0 .. d_(p-1);
- :class:`SlowProcess`: one process delayed, the others at 0 (their Table 1);
- :class:`GaussianSkew`: N(mean, sd) truncated at 0 (the law conditioned on
  d >= 0, drawn by inversion, not clipped);
- :class:`GammaSkew`: Gamma(shape k, scale θ), mean kθ (their Fig. 9: k = 2,
  θ = 0.5).

Type 3 imbalance (per-process combine times) is a list of γ in
:class:`~hetcoll.sim.imbalance.FlatModel`; type 2 (per-process data sizes)
is not modelled.

Monte Carlo (:func:`sample_metrics`): runs are cut into chunks of
:data:`CHUNK_RUNS`; chunk i draws from ``SeedSequence(seed).spawn(...)[i]``, so
results do not depend on ``n_jobs``.  Every algorithm sees the same delay
draws (common random numbers).  The static algorithms are timed for a whole
chunk at once (their max-plus programs run on arrays); LocalReduce runs in a
compiled kernel, and so do perfect-knowledge, Tree-dyn and Non-Commut-Tree-dyn
(with per-pair costs, the dynamic algorithms run the exact simulator in floats, one
run at a time).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import reduce as _fold

import numpy as np

from hetcoll.core.errors import InputError
from hetcoll.core.numbers import nonnegative_number, positive_fraction, validate_start_times
from hetcoll.sim.imbalance.kernels import (
    local_reduce_terminations,
    perfect_knowledge_terminations,
    tree_dyn_terminations,
)
from hetcoll.sim.imbalance.model import FlatModel, simplified_model
from hetcoll.sim.imbalance.reduce import ALGORITHMS, simulate_reduction
from hetcoll.sim.imbalance.static import STATIC_ALGORITHMS, run_programs

__all__ = ["CHUNK_RUNS", "DelayVector", "GammaSkew", "GaussianSkew", "METRICS", "SlowProcess",
           "metrics_for_delays", "sample_metrics", "summarize_metrics"]

#: Runs per chunk; each chunk has its own spawned seed.
CHUNK_RUNS = 4096
METRICS = ("T1", "T2", "T3", "T4", "T5", "T1_root")


@dataclass(frozen=True)
class DelayVector:
    """Given delays, one per process (deterministic)."""

    delays: tuple

    random = False

    def vector(self, p: int) -> list:
        """The delays, validated for p processes."""
        if len(self.delays) != p:
            raise InputError(f"delays has {len(self.delays)} entries, expected p = {p}")
        return validate_start_times(list(self.delays), p)


@dataclass(frozen=True)
class SlowProcess:
    """Process ``rank`` enters ``delay`` late, every other one at 0 (deterministic).

    >>> SlowProcess(2, "1/2").vector(3)
    [Fraction(0, 1), Fraction(0, 1), Fraction(1, 2)]
    """

    rank: int
    delay: object

    random = False

    def vector(self, p: int) -> list:
        """The delays for p processes."""
        if isinstance(self.rank, bool) or not isinstance(self.rank, int) \
                or not 0 <= self.rank < p:
            raise InputError(f"the slow rank must be in 0..{p - 1}, got {self.rank!r}")
        delays = [nonnegative_number(0, "delay")] * p
        delays[self.rank] = nonnegative_number(self.delay, f"delay of P{self.rank}")
        return delays


@dataclass(frozen=True)
class GaussianSkew:
    """Delays drawn from N(mean, sd) truncated at 0 (the conditional law on [0, ∞))."""

    mean: float
    sd: float

    random = True

    def __post_init__(self):
        object.__setattr__(self, "mean", float(nonnegative_number(self.mean, "gaussian mean")))
        object.__setattr__(self, "sd", float(positive_fraction(self.sd, "gaussian sd")))

    def sample(self, rng: np.random.Generator, runs: int, p: int) -> np.ndarray:
        """A (runs, p) array of delays."""
        from scipy.stats import truncnorm

        low = -self.mean / self.sd
        return truncnorm.ppf(rng.random((runs, p)), low, np.inf, loc=self.mean, scale=self.sd)


@dataclass(frozen=True)
class GammaSkew:
    """Delays drawn from Gamma(shape k, scale θ)."""

    k: float
    theta: float

    random = True

    def __post_init__(self):
        object.__setattr__(self, "k", float(positive_fraction(self.k, "gamma shape k")))
        object.__setattr__(self, "theta", float(positive_fraction(self.theta,
                                                                  "gamma scale theta")))

    def sample(self, rng: np.random.Generator, runs: int, p: int) -> np.ndarray:
        """A (runs, p) array of delays."""
        return rng.gamma(self.k, self.theta, (runs, p))


def _float_model(model: FlatModel) -> FlatModel:
    gamma = [float(g) for g in model.gammas] if isinstance(model.gamma, list) \
        else float(model.gamma)
    pairs = [{key: float(v) for key, v in pair.items()}
             for pair in (model.pair_alpha, model.pair_beta)]
    return FlatModel(model.p, model.elements, float(model.alpha), float(model.beta), gamma,
                     model.root, model.max_processes, *pairs)


def _terminations(algorithm: str, model: FlatModel, delays: np.ndarray) -> np.ndarray:
    """(runs, p) termination times of one algorithm on a chunk of delay draws."""
    if algorithm in STATIC_ALGORITHMS:
        def latest(*times):
            return _fold(np.maximum, times)

        columns = [delays[:, i].copy() for i in range(model.p)]
        last = run_programs(model, algorithm, columns, None, None, latest)[0]
        return np.stack([np.broadcast_to(t, delays.shape[:1]) for t in last], axis=1)
    n = model.elements
    if algorithm == "local-reduce" and model.uniform:
        return local_reduce_terminations(
            delays, model.alpha, model.transfer(0, 0, n),
            np.array([model.combine(j, n) for j in range(model.p)]), model.root)
    if algorithm == "perfect-knowledge":
        return perfect_knowledge_terminations(delays, simplified_model(model).psi,
                                              model.transfer(0, 0, n), model.combine(0, n),
                                              model.root)
    if algorithm in ("tree-dyn", "noncommut-tree-dyn") and model.uniform:
        return tree_dyn_terminations(delays, model.transfer(0, 0, n),
                                     np.array([model.combine(j, n) for j in range(model.p)]),
                                     model.root, algorithm == "tree-dyn")
    return np.array([simulate_reduction(algorithm, model, list(row), trace=False).terminations
                     for row in delays.tolist()])


def metrics_for_delays(algorithms: Sequence[str], model: FlatModel,
                       delays: np.ndarray) -> dict[str, dict[str, np.ndarray]]:
    """T1-T5 and T1_root of each algorithm for each row of ``delays`` (runs x p), in floats.

    The engine of :func:`sample_metrics`, for delay draws of one's own (e.g. every
    position of a slow process).

    Examples
    --------
    >>> m = FlatModel(4, 1, 0, 1, 1)
    >>> metrics_for_delays(["binomial"], m, np.zeros((2, 4)))["binomial"]["T1_root"].tolist()
    [4.0, 4.0]
    """
    model = _float_model(model)
    delays = np.asarray(delays, dtype=np.float64)
    if delays.ndim != 2 or delays.shape[1] != model.p:
        raise InputError(f"delays must be an array of shape (runs, {model.p}), got "
                         f"{delays.shape}")
    result = {}
    for name in algorithms:
        last = _terminations(name, model, delays)
        times = last - delays
        result[name] = {"T1": times[:, model.root], "T2": times.max(axis=1),
                        "T3": last.max(axis=1) - delays.min(axis=1), "T4": times.mean(axis=1),
                        "T5": times.min(axis=1), "T1_root": last[:, model.root]}
    return result


def _chunk(names, model, skew, runs, seed_seq):
    return metrics_for_delays(names, model, skew.sample(np.random.default_rng(seed_seq), runs,
                                                        model.p))


def sample_metrics(
    algorithms: str | Sequence[str],
    model: FlatModel,
    skew: GaussianSkew | GammaSkew,
    *,
    runs: int,
    seed: int,
    n_jobs: int = 1,
) -> dict[str, dict[str, np.ndarray]]:
    """T1-T5 and T1_root of each algorithm over ``runs`` random delay draws.

    Parameters
    ----------
    algorithms : str or sequence of str
        Names from :data:`~hetcoll.sim.imbalance.ALGORITHMS`, or ``"all"``.
    model : FlatModel
        Costs (used in floats).
    skew : GaussianSkew or GammaSkew
    runs : int
    seed : int
        Non-negative.
    n_jobs : int
        joblib threads, -1 for all cores; the result does not depend on it.

    Returns
    -------
    dict of str to dict of str to ndarray (runs,)
        Entry i of every array comes from the same delay draw.

    Raises
    ------
    InputError
        Unknown algorithm, bad runs, seed or n_jobs, rabenseifner with p not a
        power of two.

    Examples
    --------
    >>> m = FlatModel(8, 10, 0.1, 0.01, 0.02)
    >>> s = sample_metrics(["binomial", "local-reduce"], m, GammaSkew(2, 0.5), runs=100, seed=1)
    >>> bool((s["binomial"]["T1_root"] >= 0.1 + 0.1 + 0.2).all())
    True

    References
    ----------
    Marendić et al., sections 5.1 (metrics) and 5.6 (gamma imbalance).
    """
    names = ALGORITHMS if algorithms == "all" else (
        (algorithms,) if isinstance(algorithms, str) else tuple(algorithms))
    for name in names:
        if name not in ALGORITHMS:
            raise InputError(f"unknown algorithm {name!r}; expected one of "
                             f"{', '.join(ALGORITHMS)} or all")
    if not getattr(skew, "random", False):
        raise InputError("sample_metrics needs a random skew (GaussianSkew or GammaSkew); "
                         "run simulate_reduction once for fixed delays")
    if isinstance(runs, bool) or not isinstance(runs, int) or runs < 1:
        raise InputError(f"runs must be a positive integer, got {runs!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InputError(f"seed must be a non-negative integer, got {seed!r}")
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, int) or n_jobs == 0:
        raise InputError(f"n_jobs must be a non-zero integer, got {n_jobs!r}")
    if "rabenseifner" in names and model.p & (model.p - 1):
        raise InputError(f"rabenseifner needs p a power of two, got p = {model.p}")
    sizes = [CHUNK_RUNS] * (runs // CHUNK_RUNS) + [runs % CHUNK_RUNS] * (runs % CHUNK_RUNS > 0)
    seeds = np.random.SeedSequence(seed).spawn(len(sizes))
    if n_jobs == 1:
        chunks = [_chunk(names, model, skew, size, s) for size, s in zip(sizes, seeds,
                                                                         strict=True)]
    else:
        from joblib import Parallel, delayed

        chunks = Parallel(n_jobs=n_jobs, prefer="threads")(
            delayed(_chunk)(names, model, skew, size, s) for size, s in zip(sizes, seeds,
                                                                            strict=True))
    return {name: {metric: np.concatenate([c[name][metric] for c in chunks])
                   for metric in METRICS} for name in names}


def summarize_metrics(samples: dict[str, dict[str, np.ndarray]],
                      quantiles: Sequence[float] = (0.1, 0.9)) -> dict[str, dict[str, float]]:
    """Mean and quantiles of each metric: keys ``T1``, ``T1_q10``, ``T1_q90``, ... ``runs``.

    >>> summarize_metrics({"x": {"T1": np.array([1.0, 3.0])}})["x"]["T1"]
    2.0
    """
    summary = {}
    for name, metrics in samples.items():
        row: dict[str, float] = {}
        for metric, values in metrics.items():
            row[metric] = float(values.mean())
            for q in quantiles:
                row[f"{metric}_q{round(100 * q)}"] = float(np.quantile(values, q))
        row["runs"] = int(next(iter(metrics.values())).size)
        summary[name] = row
    return summary
