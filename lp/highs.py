"""Running HiGHS on a steady-state LP: options, scaling, size guard, interrupts, log.

The steady-state LPs are scale-invariant: multiplying every cost by σ divides TP by σ.
HiGHS is not: with every cost at 1e-9 it drops the coefficients as noise and reports
the LP unbounded.  :func:`solve_sparse_lp` therefore solves on capacity rows scaled by
a power of two (exact in floating point) that brings the coefficients around 1, and
the caller certifies the *unscaled* problem exactly from the basis, which scaling
does not change.

HiGHS runs in a worker thread (highspy's ``startSolve``), so that Ctrl-C reaches
Python within 0.1 s even during a long solve: the solve is cancelled through HiGHS's
interrupt callbacks and :class:`KeyboardInterrupt` is raised at once.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import highspy
import numpy as np
from tqdm import tqdm

from hetcoll.core.errors import InputError, LimitError
from hetcoll.lp.model import SparseLP

__all__ = ["MAX_LP_VARIABLES", "HIGHS_LARGE_COEFFICIENT", "ScaledSolve", "check_lp_size",
           "rerun", "solve_sparse_lp"]

#: Default size guard: an LP with more columns is refused before HiGHS starts.  SSRP on
#: a complete graph of 24 processors, every one a participant, has 220,226 variables
#: and solved in 91 s on 2 cores; 40 processors (about 1.7 million) ran for over 9
#: minutes and 1.9 GB.
MAX_LP_VARIABLES = 500_000

#: HiGHS refuses a model with a matrix coefficient of this size or more (its option
#: ``large_matrix_value``), after scaling.
HIGHS_LARGE_COEFFICIENT = 1e15


def check_lp_size(model: SparseLP, max_variables: int | None) -> None:
    """Refuse an LP over ``max_variables`` columns (None: no limit).

    Raises
    ------
    LimitError
        Naming the size, the limit and the ``--max-variables`` flag that raises it.
    """
    n_rows, n_cols = model.shape
    if max_variables is not None and n_cols > max_variables:
        raise LimitError(
            f"the LP has {n_cols:,} variables and {n_rows:,} constraints, over the limit "
            f"of {max_variables:,} variables (raise it with --max-variables, or "
            f"max_variables= in Python)")


@dataclass
class ScaledSolve:
    """HiGHS after a solve, and the scale of the capacity rows it solved.

    HiGHS's column values are ``x / scale`` and its capacity-row duals ``y / scale``,
    where x and y solve the unscaled LP; the basis is the unscaled LP's basis.
    """

    highs: highspy.Highs
    scale: float


def _scale(model: SparseLP) -> float:
    """The power of two that centres the capacity coefficients on 1 (geometric mean)."""
    matrix = model.matrix
    capacity = matrix.indices < model.n_capacity
    values = np.abs(matrix.data[capacity])
    values = values[values > 0]
    if not values.size:
        return 1.0
    centre = 0.5 * (math.log2(values.min()) + math.log2(values.max()))
    return 2.0 ** -round(centre)


def rerun(highs: highspy.Highs, *, progress: bool = False) -> None:
    """Run HiGHS on its current model in a worker thread, honouring Ctrl-C at once.

    Parameters
    ----------
    highs : highspy.Highs
        Holding the model (and options) to solve.
    progress : bool
        Show the time elapsed in the solve on standard error (a tqdm bar, refreshed
        every 0.1 s and cleared at the end).

    Raises
    ------
    KeyboardInterrupt
        Within 0.1 s of Ctrl-C; the solve is cancelled (HiGHS stops at its next
        interrupt check) and left to end in the background.
    """
    highs.startSolve()
    with tqdm(desc="LP solve (HiGHS)", bar_format="{desc}: {elapsed} elapsed",
              disable=not progress, leave=False) as bar:
        try:
            while not highs.wait(0.1)[0]:
                bar.refresh()
        except KeyboardInterrupt:
            highs.cancelSolve()
            raise


def solve_sparse_lp(model: SparseLP, solver_options: Mapping[str, Any] | None = None, *,
                    progress: bool = False) -> ScaledSolve:
    """Solve ``max x[0]`` s.t. capacity rows <= 1 and the other rows = 0, x >= 0.

    Parameters
    ----------
    model : SparseLP
    solver_options : mapping, optional
        HiGHS options, passed through over the defaults (interior point then
        crossover).  ``time_limit`` (seconds) bounds the solve; ``output_flag=True``
        shows HiGHS's log, on standard error unless ``log_file`` says otherwise.
    progress : bool
        Show the time elapsed in the solve (:func:`rerun`).

    Returns
    -------
    ScaledSolve

    Raises
    ------
    InputError
        If HiGHS rejects an option, or refuses the model (a coefficient still over
        :data:`HIGHS_LARGE_COEFFICIENT` after scaling: costs spanning over 30 orders of
        magnitude).
    KeyboardInterrupt
        As :func:`rerun`.
    """
    highs = highspy.Highs()
    # These LPs have few rows and many columns: interior point then crossover (for the
    # basis that certification needs) solved SSRP at P = 16 eight times faster than
    # HiGHS's default dual simplex here.
    options = {"output_flag": False, "solver": "ipm", "run_crossover": "on"}
    options |= dict(solver_options or {})
    if options["output_flag"] and "log_file" not in options:
        # Standard output is for the result (--json); the log goes to standard error.
        options |= {"log_to_console": False, "log_file": "/dev/stderr"}
    for key, value in options.items():
        if highs.setOptionValue(key, value) != highspy.HighsStatus.kOk:
            raise InputError(f"HiGHS rejected solver option {key}={value!r}")
    highs.HandleUserInterrupt = True
    scale = _scale(model)
    matrix = model.matrix.copy()
    matrix.data[matrix.indices < model.n_capacity] *= scale
    largest = np.abs(matrix.data).max() if matrix.data.size else 0.0
    if largest >= HIGHS_LARGE_COEFFICIENT:
        raise InputError(
            f"the LP's costs x sizes span more than 30 orders of magnitude (after scaling, "
            f"a coefficient reaches {largest:.3g}, beyond what HiGHS accepts)")
    n_rows, n_cols = model.shape
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = n_cols, n_rows
    lp.sense_ = highspy.ObjSense.kMaximize
    cost = np.zeros(n_cols)
    cost[0] = 1.0
    lp.col_cost_ = cost
    lp.col_lower_ = np.zeros(n_cols)
    lp.col_upper_ = np.full(n_cols, highspy.kHighsInf)
    lp.row_lower_ = np.concatenate([np.full(model.n_capacity, -highspy.kHighsInf),
                                    np.zeros(n_rows - model.n_capacity)])
    lp.row_upper_ = np.concatenate([np.ones(model.n_capacity),
                                    np.zeros(n_rows - model.n_capacity)])
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = matrix.indptr
    lp.a_matrix_.index_ = matrix.indices
    lp.a_matrix_.value_ = matrix.data
    lp.a_matrix_.num_col_, lp.a_matrix_.num_row_ = n_cols, n_rows
    if highs.passModel(lp) == highspy.HighsStatus.kError:
        raise InputError("HiGHS refused the LP model (a coefficient out of its range?)")
    rerun(highs, progress=progress)
    return ScaledSolve(highs, scale)
