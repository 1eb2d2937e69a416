"""Prediction against measurement: scatterv/gatherv trees on a calibrated platform.

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

from hetcoll.core.platform import Platform
from hetcoll.core.results import Result
from hetcoll.mpi.launch import MAX_RANKS, build_rank_tree, rank_names, run_vcollective
from hetcoll.sim.collectives import HockneyModel, pairwise_prediction

__all__ = ["ComparisonResult", "compare_vcollective", "comparison_plot", "relative_error"]


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
    rows = {}
    for name in algorithms:
        measured = min(r["T3"] for r in run.algorithms[name]["repeats"])
        rows[name] = {"predicted": predicted[name], "measured": measured,
                      "measured_mean": run.algorithms[name]["T3"],
                      "relative_error": relative_error(predicted[name], measured),
                      "correct": run.algorithms[name]["correct"]}
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
        ax.bar(x + offset, [1e3 * result.algorithms[n][key] for n in names], 0.4,
               label=key)
    ax.set_xticks(x, names, rotation=20)
    ax.set_ylabel("time (ms)")
    ax.legend()
    ax.set_title(title or f"predicted and measured, np = {result.np}")
    return ax
