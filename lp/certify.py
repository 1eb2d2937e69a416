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
from scipy.sparse.csgraph import maximum_bipartite_matching

from lp.model import SparseLP

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
    """

    objective: Fraction
    x: dict[int, Fraction]
    row_activity: dict[int, Fraction]
    y: dict[int, Fraction]


def _fraction(value: fmpq) -> Fraction:
    return Fraction(int(value.p), int(value.q))


def _to_fmpq(value: Fraction) -> fmpq:
    return fmpq(value.numerator, value.denominator)


def _exact_entries(model: SparseLP, weights: np.ndarray, rows: np.ndarray, cols: np.ndarray,
                   data: np.ndarray) -> np.ndarray:
    """Exact coefficients of the given nonzeros (conservation entries are exactly ±1)."""
    exact = np.empty(len(rows), dtype=object)
    capacity = rows < model.n_capacity
    exact[capacity] = weights[cols[capacity]]
    exact[~capacity] = [fmpq(int(v)) for v in np.rint(data[~capacity])]
    return exact


def _matvec(rows: np.ndarray, exact: np.ndarray, vector: np.ndarray, factor_index: np.ndarray,
            size: int) -> np.ndarray:
    """``out[rows[i]] += exact[i] * vector[factor_index[i]]`` in exact arithmetic."""
    out = np.array([fmpq(0)] * size, dtype=object)
    if len(rows):
        np.add.at(out, rows, exact * vector[factor_index])
    return out


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
    """
    pattern = sp.csr_array((np.ones(len(rows)), (rows, cols)), shape=(size, size))
    match = maximum_bipartite_matching(pattern, perm_type="column")  # column of row i
    if np.any(match < 0):
        raise ZeroDivisionError("structurally singular")
    owner = np.empty(size, dtype=np.int64)
    owner[match] = np.arange(size)  # row whose diagonal holds column j
    # Equation i needs the unknown of column j, which equation owner[j] determines.
    graph = nx.DiGraph()
    graph.add_nodes_from(range(size))
    graph.add_edges_from(zip(rows.tolist(), owner[cols].tolist(), strict=True))
    blocks = nx.condensation(graph)
    order = np.argsort(rows, kind="stable")
    rows, cols, vals = rows[order], cols[order].tolist(), vals[order]
    start = np.searchsorted(rows, np.arange(size + 1)).tolist()
    z: list[fmpq | None] = [None] * size
    for block in reversed(list(nx.topological_sort(blocks))):  # dependencies first
        members = sorted(blocks.nodes[block]["members"])
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


def certify_basis(model: SparseLP, col_status: np.ndarray, row_status: np.ndarray) -> Certificate:
    """Recover and verify the exact optimum of ``model`` from a simplex basis.

    Parameters
    ----------
    model : SparseLP
    col_status, row_status : ndarray of int
        HiGHS basis statuses (``int(highspy.HighsBasisStatus)``).

    Returns
    -------
    Certificate

    Raises
    ------
    CertificationError
        If the basis is malformed or singular, or the solution it determines fails an
        exact feasibility or optimality check.
    """
    n_rows, n_cols = model.shape
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

    weights = model.exact_weights(_to_fmpq)
    matrix = model.matrix.tocoo()
    rows, cols, data = matrix.row, matrix.col, matrix.data
    row_pos = np.full(n_rows, -1, dtype=np.int64)
    row_pos[nonbasic_rows] = np.arange(len(nonbasic_rows))
    col_pos = np.full(n_cols, -1, dtype=np.int64)
    col_pos[basic_cols] = np.arange(len(basic_cols))

    size = len(basic_cols)
    in_basis = (row_pos[rows] >= 0) & (col_pos[cols] >= 0)
    b_rows, b_cols = row_pos[rows[in_basis]], col_pos[cols[in_basis]]
    b_vals = _exact_entries(model, weights, rows[in_basis], cols[in_basis], data[in_basis])
    rhs = [fmpq(1) if r < model.n_capacity else fmpq(0) for r in nonbasic_rows]
    cost = [fmpq(1) if c == 0 else fmpq(0) for c in basic_cols]
    try:
        x_basic = solve_sparse_exact(b_rows, b_cols, b_vals, size, rhs)
        y_nonbasic = solve_sparse_exact(b_cols, b_rows, b_vals, size, cost)
    except ZeroDivisionError:
        raise CertificationError("the basis matrix is singular in exact arithmetic") from None

    x = np.array([fmpq(0)] * n_cols, dtype=object)
    x[basic_cols] = x_basic
    y = np.array([fmpq(0)] * n_rows, dtype=object)
    y[nonbasic_rows] = y_nonbasic

    if any(v < 0 for v in x[basic_cols]):
        raise CertificationError("the basic solution has a negative variable (primal "
                                 "infeasible in exact arithmetic)")
    used = col_pos[cols] >= 0
    activity = _matvec(rows[used], _exact_entries(model, weights, rows[used], cols[used],
                                                  data[used]), x, cols[used], n_rows)
    if any(v > 1 for v in activity[:model.n_capacity]):
        raise CertificationError("the basic solution overloads a port or processor")
    if any(v != 0 for v in activity[model.n_capacity:]):
        raise CertificationError("the basic solution violates a conservation law")

    if any(v < 0 for v in y[:model.n_capacity]):
        raise CertificationError("a capacity row has a negative dual value (dual infeasible)")
    priced = y[rows] != 0
    reduced = _matvec(cols[priced], _exact_entries(model, weights, rows[priced], cols[priced],
                                                   data[priced]), y, rows[priced], n_cols)
    reduced[0] -= 1  # objective coefficient of TP
    if any(v < 0 for v in reduced):
        raise CertificationError("a reduced cost has the wrong sign (the basis is not "
                                 "optimal in exact arithmetic)")
    objective = x[0]
    if objective != sum(y[:model.n_capacity], fmpq(0)):
        raise CertificationError("primal and dual objectives differ")
    return Certificate(
        objective=_fraction(objective),
        x={int(j): _fraction(x[j]) for j in basic_cols if x[j] != 0},
        row_activity={i: _fraction(v) for i, v in enumerate(activity[:model.n_capacity])
                      if v != 0},
        y={int(i): _fraction(y[i]) for i in nonbasic_rows if y[i] != 0},
    )
