"""Monte Carlo over random costs, with common random numbers across methods.

One run draws n - 1 communication costs and n - 1 computation costs (a
reduction of n values has exactly n - 1 of each); every method gives its k-th
communication started the k-th communication cost, and likewise for
computations (RR 8315, section 6), so the methods' makespans are paired run by
run.  Runs are cut into chunks of :data:`CHUNK_RUNS`; chunk i draws from
``SeedSequence(seed).spawn(...)[i]``, so results do not depend on ``n_jobs``.
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from tqdm.auto import tqdm

from hetcoll.core.errors import InputError, LimitError
from hetcoll.core.numbers import validate_start_times
from hetcoll.core.results import Result, to_jsonable
from hetcoll.sim.costs import CostDistribution, as_distribution
from hetcoll.sim.engine import ALGORITHMS
from hetcoll.sim.kernels import makespans
from hetcoll.sim.trees import _check_n, fibonacci_tree

__all__ = ["CHUNK_RUNS", "MAX_MEMORY", "MonteCarloSummary", "memory_estimate", "monte_carlo",
           "sample_makespans"]

#: Runs per chunk (at most; fewer for very large n, to keep a chunk's draws
#: near 32 MB): each chunk has its own spawned seed.  It depends on n only, so
#: results do not depend on how chunks are spread over workers.
CHUNK_RUNS = 8192


def _chunk_runs(n: int) -> int:
    return max(1, min(CHUNK_RUNS, (1 << 22) // n))


@dataclass(frozen=True)
class MonteCarloSummary(Result):
    """Makespan statistics of one method.

    Attributes
    ----------
    algorithm : str
    mean : float
    stderr : float
        Standard error of the mean, std / sqrt(runs).
    std : float
        Sample standard deviation (ddof = 1); 0 for a single run.
    quantiles : dict of float to float
    runs : int
    status : int
        0 (the statistics are always computed; see ``warnings``).
    message : str
    warnings : tuple of str
        Legal but suspicious facts: a single run (std and stderr undefined,
        reported as 0), fewer than 100 runs (rough quantiles).
    """

    algorithm: str
    mean: float
    stderr: float
    std: float
    quantiles: dict[float, float]
    runs: int
    status: int = 0
    message: str = "ok"
    warnings: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        """JSON-ready data (quantile keys as strings such as ``"0.1"``)."""
        return to_jsonable({
            "status": self.status, "message": self.message, "success": self.success,
            "algorithm": self.algorithm, "mean": self.mean, "stderr": self.stderr,
            "std": self.std, "quantiles": {repr(q): v for q, v in self.quantiles.items()},
            "runs": self.runs, "warnings": list(self.warnings)})

    as_dict = to_dict


#: Default ``max_memory`` of :func:`sample_makespans` and :func:`monte_carlo`, in bytes.
MAX_MEMORY = 2 * 10**9


def memory_estimate(n: int, runs: int, algorithms: Sequence[str], n_jobs: int = 1) -> int:
    """Bytes a Monte Carlo study needs at its peak (an upper estimate, from measurements).

    Each worker holds one chunk's draws (communication, computation and start
    times, and their contiguous copies: about 32 bytes per run and processor) and
    the compiled loop's state (about 100 bytes per processor, 400 with a static
    tree to build); the samples take 16 bytes per run and method (the chunks and
    their concatenation).

    >>> memory_estimate(10**8, 10, ["tree-dyn"]) > 10**10
    True
    """
    # joblib's convention: -1 is every core, -2 all but one...
    workers = max(1, n_jobs if n_jobs > 0 else (os.cpu_count() or 1) + 1 + n_jobs)
    static = any(name in ("binomial-stat", "fibonacci-stat") for name in algorithms)
    chunk = min(runs, _chunk_runs(n))
    per_worker = chunk * n * 32 + n * (400 if static else 100)
    return workers * per_worker + runs * 16 * len(algorithms)


def _check_memory(n, runs, names, n_jobs, max_memory) -> None:
    if max_memory is None:
        return
    need = memory_estimate(n, runs, names, n_jobs)
    if need > max_memory:
        raise LimitError(f"the Monte Carlo study (n = {n}, runs = {runs}) needs about "
                         f"{need / 1e9:.3g} GB, over max_memory = {max_memory / 1e9:.3g} GB")


def _scaled_statistics(values: np.ndarray, levels: list[float]) -> tuple:
    """Mean, std and quantiles computed on ``values / max``, then scaled back.

    Makespans may lie anywhere in about [1e-300, 1e300]: their squares (std) and
    sums (mean) would overflow or underflow in place.
    """
    scale = float(np.max(values)) if values.size else 0.0
    if not scale > 0:
        return 0.0, 0.0, [0.0] * len(levels)
    unit = values / scale
    std = float(unit.std(ddof=1)) * scale if values.size > 1 else 0.0
    return (float(unit.mean()) * scale, std,
            [q * scale for q in np.quantile(unit, levels).tolist()])


def _algorithm_list(algorithms: str | Sequence[str]) -> tuple[str, ...]:
    names = ALGORITHMS if algorithms == "all" else (
        (algorithms,) if isinstance(algorithms, str) else tuple(algorithms))
    if not names:
        raise InputError("no algorithm given")
    for name in names:
        if name not in ALGORITHMS:
            raise InputError(f"unknown algorithm {name!r}; expected one of "
                             f"{', '.join(ALGORITHMS)} or 'all'")
    return tuple(dict.fromkeys(names))


def _positive_int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
        raise InputError(f"{what} must be a positive integer, got {value!r}")
    return int(value)


def _seed_sequence(seed: object) -> np.random.SeedSequence:
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if isinstance(seed, np.random.Generator):
        return np.random.SeedSequence(seed.integers(2**63))
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise InputError(f"seed must be a non-negative integer, a SeedSequence or a "
                         f"numpy Generator, got {seed!r}")
    return np.random.SeedSequence(int(seed))


def _chunk(names, n, comm, comp, start, runs, seed_seq, fibonacci_order):
    rng = np.random.default_rng(seed_seq)
    comm_draws = comm.sample(rng, (runs, n - 1))
    comp_draws = None if comp is None else comp.sample(rng, (runs, n - 1))
    start_draws = start.sample(rng, (runs, n)) if isinstance(start, CostDistribution) else start
    return {name: makespans(name, comm_draws, comp_draws, start_draws,
                            fibonacci_order=fibonacci_order) for name in names}


def sample_makespans(
    algorithms: str | Sequence[str],
    n: int,
    comm: CostDistribution | float,
    comp: CostDistribution | float | None = None,
    *,
    runs: int,
    seed: int | np.random.SeedSequence | np.random.Generator,
    n_jobs: int = 1,
    start_times: Sequence | CostDistribution | None = None,
    fibonacci_order: int | None = None,
    progress: bool = False,
    max_memory: int | None = MAX_MEMORY,
) -> dict[str, np.ndarray]:
    """Raw makespans of each method over ``runs`` random runs, paired by run.

    Parameters
    ----------
    algorithms : str or sequence of str
        Names from :data:`sim.ALGORITHMS`, one name, or ``"all"``.
    n : int
        Number of processors.
    comm : CostDistribution or number
        Law of each communication cost (a number means a constant).
    comp : CostDistribution or number, optional
        Law of each computation cost; zero when omitted.
    runs : int
    seed : int, SeedSequence or Generator
    n_jobs : int
        joblib threads (the compiled loops release the GIL); -1 for all
        cores.  The result does not depend on it.
    start_times : length-n sequence or CostDistribution, optional
        Fixed start times, or a law drawn per run and processor.
    fibonacci_order : int, optional
    progress : bool
        tqdm bar over chunks (only shown on a terminal).
    max_memory : int or None, default :data:`MAX_MEMORY` (2 GB)
        Refuse, before any work, a study whose :func:`memory_estimate` exceeds
        this many bytes; None for no limit.

    Returns
    -------
    dict of str to ndarray of shape (runs,)
        Entry i of every array comes from the same cost draws.

    Raises
    ------
    InputError
        On an unknown algorithm, a bad count, seed, distribution or start time,
        or makespans beyond the float range (about 1.8e308).
    LimitError
        If the study would need more than ``max_memory`` bytes.

    Examples
    --------
    >>> from hetcoll.sim import Exponential
    >>> samples = sample_makespans("all", 8, Exponential(1.0), runs=1000, seed=1)
    >>> samples["tree-dyn"].shape
    (1000,)
    >>> paired = samples["fibonacci-stat"] - samples["tree-dyn"]  # same draws, run by run

    References
    ----------
    Benoit, Canon, Marchal, RR 8315, section 6 (protocol, common random numbers).
    """
    names = _algorithm_list(algorithms)
    n = _check_n(n)
    runs = _positive_int(runs, "runs")
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, int) or n_jobs == 0:
        raise InputError(f"n_jobs must be a non-zero integer, got {n_jobs!r}")
    _check_memory(n, runs, names, n_jobs, max_memory)
    comm = as_distribution(comm, "comm")
    comp = None if comp is None else as_distribution(comp, "comp")
    if "fibonacci-stat" in names:
        fibonacci_tree(n, fibonacci_order)  # validates the order before any work
    if start_times is not None and not isinstance(start_times, CostDistribution):
        start_times = np.array(validate_start_times(start_times, n, exact=False))
    chunk = _chunk_runs(n)
    sizes = [chunk] * (runs // chunk) + [runs % chunk] * (runs % chunk > 0)
    seeds = _seed_sequence(seed).spawn(len(sizes))
    tasks = zip(sizes, seeds, strict=True)

    bar = tqdm(total=runs, unit="run", disable=not (progress and sys.stderr.isatty()),
               desc=f"simulating n={n}")
    if n_jobs == 1:
        results = []
        for size, seed_seq in tasks:
            results.append(_chunk(names, n, comm, comp, start_times, size, seed_seq,
                                  fibonacci_order))
            bar.update(size)
    else:
        from joblib import Parallel, delayed

        parallel = Parallel(n_jobs=n_jobs, prefer="threads", return_as="generator")
        results = []
        for size, result in zip(sizes, parallel(
                delayed(_chunk)(names, n, comm, comp, start_times, size, seed_seq,
                                fibonacci_order) for size, seed_seq in tasks), strict=True):
            results.append(result)
            bar.update(size)
    bar.close()
    samples = {name: np.concatenate([r[name] for r in results]) for name in names}
    for name, values in samples.items():
        if not np.isfinite(values).all():
            raise InputError(f"{name}: a makespan overflows floating point (over 1.8e308): "
                             "the costs are too large")
    return samples


def monte_carlo(
    algorithms: str | Sequence[str],
    n: int,
    comm: CostDistribution | float,
    comp: CostDistribution | float | None = None,
    *,
    runs: int,
    seed: int | np.random.SeedSequence | np.random.Generator,
    quantiles: Sequence[float] = (0.1, 0.5, 0.9),
    n_jobs: int = 1,
    start_times: Sequence | CostDistribution | None = None,
    fibonacci_order: int | None = None,
    progress: bool = False,
    max_memory: int | None = MAX_MEMORY,
) -> dict[str, MonteCarloSummary]:
    """Mean, standard error and quantiles of each method's makespan.

    Parameters are those of :func:`sample_makespans`, plus ``quantiles``
    (levels in [0, 1]).

    Returns
    -------
    dict of str to MonteCarloSummary

    Raises
    ------
    InputError
        As :func:`sample_makespans`, or on a quantile outside [0, 1].
    LimitError
        As :func:`sample_makespans` (``max_memory``).

    Examples
    --------
    >>> from hetcoll.sim import Exponential
    >>> summary = monte_carlo("tree-dyn", 8, Exponential(1.0), runs=20_000, seed=3)
    >>> round(summary["tree-dyn"].mean, 1)  # (2 H(3) + 2/8) / 1 = 3.92
    3.9

    References
    ----------
    Benoit, Canon, Marchal, RR 8315, section 6, Figure 4 (mean, 10% and 90%
    quantiles).
    """
    levels = []
    for q in quantiles:
        if isinstance(q, bool) or not isinstance(q, int | float) or not 0 <= q <= 1:
            raise InputError(f"quantile levels must be numbers in [0, 1], got {q!r}")
        levels.append(float(q))
    samples = sample_makespans(algorithms, n, comm, comp, runs=runs, seed=seed, n_jobs=n_jobs,
                               start_times=start_times, fibonacci_order=fibonacci_order,
                               progress=progress, max_memory=max_memory)
    warnings = (("a single run: std and stderr are undefined, reported as 0",)
                if runs == 1 else
                (f"only {runs} runs: the quantiles and the standard error are rough",)
                if runs < 100 else ())
    summaries = {}
    for name, values in samples.items():
        mean, std, quantile_values = _scaled_statistics(values, levels)
        summaries[name] = MonteCarloSummary(
            name, mean, std / math.sqrt(values.size), std,
            dict(zip(levels, quantile_values, strict=True)), values.size, warnings=warnings)
    return summaries
