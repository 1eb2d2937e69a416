"""Exact certification of an LP optimum from the simplex basis HiGHS returns.

The LPs of :mod:`lp.model` read: maximise x_0 subject to A_cap x <= 1, A_eq x = 0,
x >= 0.  Given a basis (basic columns B, basic rows), every nonbasic column sits at 0
and every nonbasic row at its bound, so the basic solution solves the square system
``A[N_rows, B] x_B = b[N_rows]``; the dual values solve
``A[N_rows, B]^T y_N = c_B`` (complementary slackness), with y = 0 on basic rows.

Both systems are solved in exact rationals, block by block after a block triangular
permutation (:func:`solve_sparse_exact`; FLINT's ``fmpq_mat`` with Dixon p-adic lifting
for the larger blocks), then checked *over the whole LP*, independently of how they were found:

- primal feasibility: x >= 0, A_cap x <= 1, A_eq x = 0;
- dual feasibility: y_cap >= 0 and A^T y >= c (every reduced cost has the right sign);
- equal objectives: x_0 = sum of y_cap (= b^T y).

A basis that is exactly primal feasible but not exactly optimal (floating-point
tolerances let a tiny wrong-signed reduced cost pass) is repaired with exact primal
simplex pivots before the checks.

Weak duality then proves that x is optimal and x_0 is the exact optimum.  Any failure
(a singular or infeasible basis from floating-point pivoting, a nonbasic variable away
from its bound) is reported, never papered over.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import networkx as nx
import numpy as np
import scipy.sparse as sp
from flint import fmpq, fmpq_mat
from scipy.sparse.csgraph import connected_components, maximum_bipartite_matching

from hetcoll.lp.model import SparseLP

__all__ = ["Certificate", "CertificationError", "certify_basis"]

# HiGHS basis status codes (highspy.HighsBasisStatus).
LOWER, BASIC, UPPER, ZERO, NONBASIC = 0, 1, 2, 3, 4


class CertificationError(Exception):
    """The basis does not yield an exactly optimal solution; the message says why."""


@dataclass(frozen=True)
class Certificate:
    """An exactly verified optimal primal-dual pair.

    Attributes
    ----------
    objective : Fraction
        The optimum (TP).
    x : dict[int, Fraction]
        Non-zero primal values by column.
    row_activity : dict[int, Fraction]
        Non-zero capacity-row activities (time used per time unit) by row.
    y : dict[int, Fraction]
        Non-zero dual values by row.
    pivots : int
        Exact simplex pivots needed to repair the floating-point basis.
    """

    objective: Fraction
    x: dict[int, Fraction]
    row_activity: dict[int, Fraction]
    y: dict[int, Fraction]
    pivots: int = 0


def _fraction(value: fmpq) -> Fraction:
    return Fraction(int(value.p), int(value.q))


def _to_fmpq(value: Fraction) -> fmpq:
    return fmpq(value.numerator, value.denominator)


def solve_sparse_exact(rows: np.ndarray, cols: np.ndarray, vals: np.ndarray, size: int,
                       rhs: list[fmpq]) -> list[fmpq]:
    """Solve ``M z = rhs`` exactly for a sparse square ``M`` (COO ``rows, cols, vals``).

    The matrix is permuted to block triangular form (a perfect matching puts nonzeros
    on the diagonal; the strongly connected components of the resulting dependency
    graph are the diagonal blocks, solved in topological order).  LP bases are
    very reducible, so only small blocks reach the dense FLINT solver.

    Raises
    ------
    ZeroDivisionError
        If ``M`` is singular.

    Examples
    --------
    >>> import numpy as np
    >>> from flint import fmpq
    >>> vals = np.array([fmpq(2), fmpq(1), fmpq(3)], dtype=object)  # [[2, 1], [0, 3]]
    >>> solve_sparse_exact(np.array([0, 0, 1]), np.array([0, 1, 1]), vals, 2,
    ...                    [fmpq(1), fmpq(1)])
    [1/3, 1/3]
    """
    pattern = sp.csr_array((np.ones(len(rows)), (rows, cols)), shape=(size, size))
    match = maximum_bipartite_matching(pattern, perm_type="column")  # column of row i
    if np.any(match < 0):
        raise ZeroDivisionError("structurally singular")
    owner = np.empty(size, dtype=np.int64)
    owner[match] = np.arange(size)  # row whose diagonal holds column j
    # Equation i needs the unknown of column j, which equation owner[j] determines.
    needs = owner[cols]
    graph = sp.csr_array((np.ones(len(rows)), (rows, needs)), shape=(size, size))
    _, label = connected_components(graph, directed=True, connection="strong")
    if np.any(label[rows] < label[needs]):
        # scipy numbers strong components in the order Tarjan/Pearce completes them,
        # which is dependencies first; this is not documented, so check and otherwise
        # sort the components topologically.
        dag = nx.DiGraph()
        dag.add_nodes_from(np.unique(label).tolist())
        dag.add_edges_from((a, b) for a, b in zip(label[rows].tolist(), label[needs].tolist(),
                                                   strict=True) if a != b)
        rank = np.empty(label.max() + 1, dtype=np.int64)
        rank[list(nx.topological_sort(dag))[::-1]] = np.arange(label.max() + 1)
        label = rank[label]
    by_block = np.argsort(label, kind="stable")
    bounds = np.flatnonzero(np.diff(label[by_block])) + 1
    order = np.argsort(rows, kind="stable")
    rows, cols, vals = rows[order], cols[order].tolist(), vals[order]
    start = np.searchsorted(rows, np.arange(size + 1)).tolist()
    z: list[fmpq | None] = [None] * size
    for members in np.split(by_block, bounds):  # dependencies first
        members = members.tolist()
        position = {int(match[i]): k for k, i in enumerate(members)}
        dense = fmpq_mat(len(members), len(members))
        known = []
        for k, i in enumerate(members):
            total = rhs[i]
            for e in range(start[i], start[i + 1]):
                j = cols[e]
                if j in position:
                    dense[k, position[j]] = vals[e]
                else:
                    total -= vals[e] * z[j]
            known.append(total)
        if len(members) == 1:
            solution = [known[0] / dense[0, 0]]
        else:
            column = dense.solve(fmpq_mat(len(members), 1, known),
                                 algorithm="dixon" if len(members) > 40 else None)
            solution = [column[k, 0] for k in range(len(members))]
        for j, k in position.items():
            z[j] = solution[k]
    return z


class _ExactLP:
    """The LP of a :class:`SparseLP` with exact coefficients (fmpq), for basis algebra."""

    def __init__(self, model: SparseLP):
        matrix = model.matrix  # CSC: entries come out column by column
        coo = matrix.tocoo()
        self.n_rows, self.n_cols = model.shape
        self.n_capacity = model.n_capacity
        self.rows, self.cols = coo.row.astype(np.int64), coo.col.astype(np.int64)
        self.colptr = matrix.indptr
        weights = model.exact_weights(_to_fmpq)
        capacity = self.rows < self.n_capacity
        self.vals = np.empty(len(self.rows), dtype=object)
        self.vals[capacity] = weights[self.cols[capacity]]
        # Conservation coefficients are exactly +1 or -1.
        self.vals[~capacity] = [fmpq(int(v)) for v in np.rint(coo.data[~capacity])]
        self.rhs = np.array([fmpq(1)] * self.n_capacity
                            + [fmpq(0)] * (self.n_rows - self.n_capacity), dtype=object)

    def column(self, j: int) -> tuple[np.ndarray, np.ndarray]:
        lo, hi = self.colptr[j], self.colptr[j + 1]
        return self.rows[lo:hi], self.vals[lo:hi]

    def solve(self, basic_cols: np.ndarray, nonbasic_rows: np.ndarray, rhs: list,
              transpose: bool = False) -> list:
        """Solve ``A[N, B] z = rhs`` (or its transpose) exactly."""
        row_pos = np.full(self.n_rows, -1, dtype=np.int64)
        row_pos[nonbasic_rows] = np.arange(len(nonbasic_rows))
        col_pos = np.full(self.n_cols, -1, dtype=np.int64)
        col_pos[basic_cols] = np.arange(len(basic_cols))
        inside = (row_pos[self.rows] >= 0) & (col_pos[self.cols] >= 0)
        r, c = row_pos[self.rows[inside]], col_pos[self.cols[inside]]
        if transpose:
            r, c = c, r
        if not len(basic_cols):
            return []
        return solve_sparse_exact(r, c, self.vals[inside], len(basic_cols), rhs)

    def times(self, x: np.ndarray, cols: np.ndarray) -> np.ndarray:
        """``A[:, cols] @ x[cols]``, exactly, for every row."""
        used = np.isin(self.cols, cols)
        out = np.array([fmpq(0)] * self.n_rows, dtype=object)
        if used.any():
            np.add.at(out, self.rows[used], self.vals[used] * x[self.cols[used]])
        return out

    def excess(self, y: np.ndarray) -> np.ndarray:
        """``A^T y - c`` for every column (>= 0 everywhere at a dual feasible y)."""
        priced = y[self.rows] != 0
        out = np.array([fmpq(0)] * self.n_cols, dtype=object)
        if priced.any():
            np.add.at(out, self.cols[priced], self.vals[priced] * y[self.rows[priced]])
        out[0] -= 1  # objective coefficient of TP
        return out


def _basic_solution(lp: _ExactLP, basic_cols: np.ndarray, nonbasic_rows: np.ndarray):
    """Exact primal x (all columns), row activities and dual y (all rows) of a basis."""
    try:
        x_basic = lp.solve(basic_cols, nonbasic_rows, list(lp.rhs[nonbasic_rows]))
        y_nonbasic = lp.solve(basic_cols, nonbasic_rows,
                              [fmpq(1) if c == 0 else fmpq(0) for c in basic_cols],
                              transpose=True)
    except ZeroDivisionError:
        raise CertificationError("the basis matrix is singular in exact arithmetic") from None
    x = np.array([fmpq(0)] * lp.n_cols, dtype=object)
    x[basic_cols] = x_basic
    y = np.array([fmpq(0)] * lp.n_rows, dtype=object)
    y[nonbasic_rows] = y_nonbasic
    return x, lp.times(x, basic_cols), y


def _primal_infeasibility(lp: _ExactLP, x: np.ndarray, activity: np.ndarray) -> str | None:
    if any(v < 0 for v in x):
        return "the basic solution has a negative variable (primal infeasible)"
    if any(v > 1 for v in activity[:lp.n_capacity]):
        return "the basic solution overloads a port or processor"
    if any(v != 0 for v in activity[lp.n_capacity:]):
        return "the basic solution violates a conservation law"
    return None


def _pivot(lp: _ExactLP, basic_cols: np.ndarray, nonbasic_rows: np.ndarray, x: np.ndarray,
           activity: np.ndarray, entering: int) -> tuple[np.ndarray, np.ndarray, bool]:
    """One exact primal simplex pivot; returns the new basis and whether it was degenerate.

    ``entering < n_cols`` is a column raised from 0; otherwise the capacity row
    ``entering - n_cols`` is released from its bound 1.
    """
    if entering < lp.n_cols:
        rows, vals = lp.column(entering)
        moved = np.array([fmpq(0)] * lp.n_rows, dtype=object)
        moved[rows] = vals
        rhs = [-v for v in moved[nonbasic_rows]]
    else:
        rhs = [fmpq(-1) if r == entering - lp.n_cols else fmpq(0) for r in nonbasic_rows]
        moved = np.array([fmpq(0)] * lp.n_rows, dtype=object)
    step = np.array([fmpq(0)] * lp.n_cols, dtype=object)
    step[basic_cols] = lp.solve(basic_cols, nonbasic_rows, rhs)
    moved = moved + lp.times(step, basic_cols)  # change of every row's activity per unit
    basic_rows = np.setdiff1d(np.arange(lp.n_rows), nonbasic_rows)
    candidates = [(x[j] / -step[j], int(j)) for j in basic_cols if step[j] < 0]
    for r in basic_rows:
        if r == entering - lp.n_cols:
            continue
        if r < lp.n_capacity and moved[r] > 0:
            candidates.append(((1 - activity[r]) / moved[r], lp.n_cols + int(r)))
        elif r >= lp.n_capacity and moved[r] != 0:
            candidates.append((fmpq(0), lp.n_cols + int(r)))  # conservation stays at 0
    if not candidates:
        raise CertificationError("the LP looks unbounded in exact arithmetic")
    # Minimum ratio test; ties go to the lowest index (Bland).
    ratio, out = min(candidates)
    cols, rows = set(basic_cols.tolist()), set(nonbasic_rows.tolist())
    if entering < lp.n_cols:
        cols.add(entering)
    else:
        rows.discard(entering - lp.n_cols)
    if out < lp.n_cols:
        cols.discard(out)
    else:
        rows.add(out - lp.n_cols)
    return (np.array(sorted(cols), dtype=np.int64), np.array(sorted(rows), dtype=np.int64),
            ratio == 0)


def certify_basis(model: SparseLP, col_status: np.ndarray, row_status: np.ndarray, *,
                  max_pivots: int = 1000) -> Certificate:
    """Recover and verify the exact optimum of ``model`` from a simplex basis.

    If the basis is primal feasible in exact arithmetic but not optimal (floating-point
    tolerances accepted a slightly wrong sign), exact primal simplex pivots (Dantzig's
    rule, Bland's after a degenerate pivot, so no cycling) move it to an exactly
    optimal basis.

    Parameters
    ----------
    model : SparseLP
    col_status, row_status : ndarray of int
        HiGHS basis statuses (``int(highspy.HighsBasisStatus)``).
    max_pivots : int
        Give up after this many exact pivots.

    Returns
    -------
    Certificate

    Raises
    ------
    CertificationError
        If the basis is malformed, singular or primal infeasible in exact arithmetic, or
        no exact optimum is reached within ``max_pivots`` pivots.

    Examples
    --------
    The scatter counter-example of NOTES.md §1 (true TP 1/2), from HiGHS's basis:

    >>> import numpy as np
    >>> from hetcoll.lp import read_platform
    >>> from hetcoll.lp.model import build_scatter_lp
    >>> from hetcoll.lp.highs import solve_sparse_lp
    >>> from hetcoll.lp.steady_state import _status_array
    >>> p = read_platform("examples/scatter_counterexample.json")
    >>> model = build_scatter_lp(p, 0, np.array([1, 2]), [Fraction(1)] * 2)
    >>> basis = solve_sparse_lp(model).highs.getBasis()
    >>> certify_basis(model, _status_array(basis.col_status),
    ...               _status_array(basis.row_status)).objective
    Fraction(1, 2)

    References
    ----------
    Chvátal, *Linear Programming* (1983), ch. 3 and 5: a basis is optimal iff it is
    primal feasible and its reduced costs have the right sign (dual feasible); the
    primal and dual objectives are then equal (strong duality).  Applied to LMR's
    SSSP / SSRP (NOTES.md §1).
    """
    basic_cols = np.flatnonzero(col_status == BASIC)
    nonbasic_rows = np.flatnonzero(row_status != BASIC)
    if len(basic_cols) != len(nonbasic_rows):
        raise CertificationError(f"malformed basis: {len(basic_cols)} basic columns for "
                                 f"{len(nonbasic_rows)} nonbasic rows")
    if np.any(col_status[col_status != BASIC] != LOWER):
        raise CertificationError("a nonbasic variable is not at its lower bound 0")
    capacity_nonbasic = nonbasic_rows[nonbasic_rows < model.n_capacity]
    if np.any(row_status[capacity_nonbasic] != UPPER):
        raise CertificationError("a nonbasic capacity row is not at its bound 1")

    lp = _ExactLP(model)
    pivots, degenerate = 0, False
    while True:
        x, activity, y = _basic_solution(lp, basic_cols, nonbasic_rows)
        problem = _primal_infeasibility(lp, x, activity)
        if problem is not None:
            raise CertificationError(problem)
        excess = lp.excess(y)
        improving = {int(j): excess[j] for j in np.flatnonzero(excess < 0)}
        improving |= {lp.n_cols + int(i): y[i] for i in nonbasic_rows
                      if i < lp.n_capacity and y[i] < 0}
        if not improving:
            break
        if pivots == max_pivots:
            raise CertificationError(f"no exactly optimal basis within {max_pivots} pivots")
        pivots += 1
        # Dantzig's rule (steepest reduced cost) while TP grows; Bland's rule (lowest
        # index) after a degenerate pivot, which rules out cycling.
        entering = (min(improving) if degenerate
                    else min(improving, key=lambda k: (improving[k], k)))
        basic_cols, nonbasic_rows, degenerate = _pivot(lp, basic_cols, nonbasic_rows, x,
                                                       activity, entering)

    # Checked again on purpose: the proof must not rest on the pivoting logic.
    if any(v < 0 for v in y[:lp.n_capacity]) or any(v < 0 for v in excess):
        raise CertificationError("the final basis is dual infeasible")
    objective = x[0]
    if objective != sum(y[:lp.n_capacity], fmpq(0)):
        raise CertificationError("primal and dual objectives differ")
    return Certificate(
        objective=_fraction(objective),
        x={int(j): _fraction(x[j]) for j in basic_cols if x[j] != 0},
        row_activity={i: _fraction(v) for i, v in enumerate(activity[:lp.n_capacity])
                      if v != 0},
        y={int(i): _fraction(y[i]) for i in nonbasic_rows if y[i] != 0},
        pivots=pivots,
    )
