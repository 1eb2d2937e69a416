"""Prediction against measurement on a calibrated platform: reduce, scatterv, gatherv.

:func:`compare_reduce` runs the reduce algorithms over MPI with the given start delays
and simulates the same runs message by message with
:func:`hetcoll.sim.imbalance.simulate_reduction` on the platform
(:meth:`~hetcoll.sim.imbalance.FlatModel.from_platform`: β per pair from the links, γ
per rank from the processors, α the mean of the links' latencies, since the model has
one α): T1_root predicted against T1_root measured (the fastest repeat).  Algorithms
the simulator does not have (``binomial-stat``, ``fibonacci-stat``, and
``rabenseifner`` unless p is a power of two) are predicted as None; ``mpi`` is
predicted as MPICH's binomial reduce.

:func:`compare_vcollective` runs the trees over MPI (:func:`run_vcollective`) and
predicts each with :func:`hetcoll.sim.collectives.pairwise_prediction` on the same
platform's Hockney model, the one ``hetcoll mpi calibrate`` writes.  The measured time
is T3 = max e_i - min s_i (the last rank's end after the first rank's start: the
operation's completion, which the predictor models from time 0), the fastest of the
repeats, as the calibration keeps the fastest ping-pong (noise only adds time; the
mean is reported beside it); ``mpi`` (``MPI_Scatterv``/``MPI_Gatherv``) is predicted
as the flat tree, MPICH's linear loop.  Runs are without start delays: the pairwise predictor starts
every process at 0.

References
----------
Dichev, Rychkov, Lastovetsky, EuroMPI 2010, §3-4 (they too compare Hockney
predictions with measured times).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from hetcoll.core.errors import InputError
from hetcoll.core.platform import Platform
from hetcoll.core.results import Result
from hetcoll.mpi.launch import (
    MAX_RANKS,
    build_rank_tree,
    rank_names,
    run_reduce,
    run_vcollective,
)
from hetcoll.sim.collectives import HockneyModel, pairwise_prediction

__all__ = ["ComparisonResult", "compare_reduce", "compare_vcollective", "comparison_plot",
           "relative_error"]


@dataclass
class ComparisonResult(Result):
    """Predicted and measured times of each algorithm.

    Attributes
    ----------
    status : int
        0 when every run was correct, 1 otherwise.
    message : str
    np : int
    mpi_library : str
    algorithms : dict
        Name -> ``{"predicted", "measured", "measured_mean", "relative_error",
        "correct"}`` (seconds;
        relative_error = (predicted - measured) / measured).
    """

    status: int
    message: str
    np: int
    mpi_library: str
    algorithms: dict[str, Any] = field(default_factory=dict)


def relative_error(predicted: float, measured: float) -> float:
    """(predicted - measured) / measured.

    >>> relative_error(1.5, 1.0)
    0.5
    """
    return (predicted - measured) / measured


def compare_vcollective(kind: str, n_ranks: int, platform: Platform,
                        algorithms: Sequence[str], *, blocks: Sequence[int],
                        root: int = 0, repeats: int = 3, seed: int = 0,
                        timeout: float = 600.0, max_ranks: int = MAX_RANKS
                        ) -> ComparisonResult:
    """Run ``algorithms`` and predict each on ``platform`` (module docstring).

    Parameters
    ----------
    kind : {"scatterv", "gatherv"}
    n_ranks : int
    platform : Platform
        With processors ``P0``... and a link for every pair a tree uses (as
        ``hetcoll mpi calibrate`` writes).
    algorithms : sequence of str
        Tree builders and ``mpi``.
    blocks : sequence of int
        Each rank's block (float64 elements).
    root, repeats, seed, timeout, max_ranks
        As :func:`~hetcoll.mpi.launch.run_vcollective`.

    Returns
    -------
    ComparisonResult

    Raises
    ------
    InputError, LimitError, SolverError
        As :func:`~hetcoll.mpi.launch.run_vcollective` and the predictor (a pair
        without a link).

    Examples
    --------
    >>> from hetcoll.core.platform import read_platform
    >>> result = compare_vcollective("scatterv", 4, read_platform("platform.json"),
    ...                              ["binomial"], blocks=[1024] * 4)  # doctest: +SKIP
    """
    model = HockneyModel(platform)
    sizes = {n: Fraction(b) for n, b in zip(rank_names(len(blocks)), blocks, strict=True)}
    predicted = {name: float(pairwise_prediction(
        build_rank_tree("flat" if name == "mpi" else name, kind, root, blocks, platform),
        sizes, model).time) for name in algorithms}
    run = run_vcollective(kind, n_ranks, algorithms, blocks=blocks, root=root,
                          delays=[()] * repeats, seed=seed, platform=platform,
                          timeout=timeout, max_ranks=max_ranks)
    return _rows(run, predicted, "T3")


def compare_reduce(n_ranks: int, platform: Platform, algorithms: Sequence[str], *,
                   elements: int, delays: Sequence[float], root: int = 0,
                   repeats: int = 3, seed: int = 0, timeout: float = 600.0,
                   max_ranks: int = MAX_RANKS) -> ComparisonResult:
    """Run reduce ``algorithms`` with start ``delays`` and simulate each (module doc).

    Parameters
    ----------
    n_ranks : int
    platform : Platform
        Processors ``P0``... (``hetcoll mpi calibrate``'s file).
    algorithms : sequence of str
    elements : int
        Vector length (doubles, sum).
    delays : sequence of float
        Each rank's start delay in seconds, the same in every repeat.
    root, repeats, seed, timeout, max_ranks
        As :func:`~hetcoll.mpi.launch.run_reduce`.

    Returns
    -------
    ComparisonResult
        ``predicted`` and ``relative_error`` are None where the simulator has no model.

    Raises
    ------
    InputError, LimitError, SolverError
        As :func:`~hetcoll.mpi.launch.run_reduce`, and a platform whose processors are
        not ``P0``... in rank order.
    """
    from hetcoll.sim.imbalance import ALGORITHMS as SIMULATED
    from hetcoll.sim.imbalance import FlatModel, simulate_reduction

    names = rank_names(n_ranks)
    if list(platform.names) != names:
        raise InputError(f"--platform: expected processors {', '.join(names)} in rank order "
                         f"(as hetcoll mpi calibrate writes)")
    latencies = [link.latency for link in platform.links] or [Fraction(0)]
    model = FlatModel.from_platform(platform, elements, sum(latencies) / len(latencies),
                                    root=root)
    start = [Fraction(str(d)) for d in delays]
    predicted = {}
    for name in algorithms:
        simulated = "binomial" if name == "mpi" else name
        # The simulator's Rabenseifner needs a power of two (hetcoll.mpi folds the extras).
        modelled = simulated in SIMULATED and not (
            simulated == "rabenseifner" and n_ranks & (n_ranks - 1))
        predicted[name] = (float(simulate_reduction(simulated, model, start,
                                                    trace=False).T1_root)
                           if modelled else None)
    run = run_reduce(n_ranks, algorithms, elements=elements, root=root,
                     delays=[list(delays)] * repeats, seed=seed, timeout=timeout,
                     max_ranks=max_ranks)
    return _rows(run, predicted, "T1_root")


def _rows(run, predicted: dict, metric: str) -> ComparisonResult:
    rows = {}
    for name, value in predicted.items():
        row = run.algorithms[name]
        measured = min(r[metric] for r in row["repeats"])
        rows[name] = {"predicted": value, "measured": measured, "measured_mean": row[metric],
                      "relative_error": None if value is None
                      else relative_error(value, measured),
                      "correct": row["correct"]}
    return ComparisonResult(run.status, run.message, run.np, run.mpi_library, rows)


def comparison_plot(result: ComparisonResult, *, ax=None, title: str | None = None):
    """Bars of predicted and measured times per algorithm (milliseconds).

    Returns
    -------
    matplotlib.axes.Axes
    """
    import matplotlib.pyplot as plt
    import numpy as np

    if ax is None:
        _, ax = plt.subplots(figsize=(7, 3.5))
    names = list(result.algorithms)
    x = np.arange(len(names))
    for offset, key in ((-0.2, "predicted"), (0.2, "measured")):
        ax.bar(x + offset, [1e3 * (result.algorithms[n][key] or 0) for n in names], 0.4,
               label=key)
    ax.set_xticks(x, names, rotation=20)
    ax.set_ylabel("time (ms)")
    ax.legend()
    ax.set_title(title or f"predicted and measured, np = {result.np}")
    return ax
