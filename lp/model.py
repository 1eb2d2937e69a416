"""Sparse builders of the SSSP/SSGP and SSRP linear programs (LMR, scatter and reduce).

Both LPs share one layout, built with numpy index arithmetic (no per-coefficient Python
object): column 0 is TP, then one column per ``send``/``s`` variable (link, message type),
then (reduce only) one column per ``cons`` variable (processor, task).  The first rows are
capacities, all ``<= 1``: the out-port then the in-port of every processor (one-port
model), then (reduce) the compute time alpha of every processor.  The remaining rows are
conservation laws ``= 0``, one per (processor, message type) that is not exempt.

NOTES.md section 1 closes the slides' holes, and the builders follow it:

- scatter: the source is exempt from conservation; TP is the *net* inflow of m_k at P_k.
  The builder drops the variables that only waste capacity (m_k leaving P_k, anything
  entering the source), so net and gross inflow coincide: a flow cycling through a
  cheap neighbour of P_k cannot inflate TP.
- gather (SSGP): the same flow with the roles turned round; source P_k's message is
  exempt from conservation at P_k, TP is its net inflow at the target
  (:func:`build_flow_lp` builds both).
- reduce: conservation is waived for v[k,k] at its owner and for v[0,N] at the target,
  where TP = received v[0,N] + computed v[0,N]; the target never sends v[0,N] on (its
  variables are dropped), and v[k,k] is never sent back to its owner.  The slides' TP
  line has v[0,m] for v[0,N] and ``0 <= l < N-1`` for ``0 <= l < N``: every task
  T(0,l,N), 0 <= l < N, counts.

Dropping those variables does not change the optimum: in an optimal solution, flow into
an exempt node can be cancelled along its path back to that node.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import scipy.sparse as sp

from hetcoll.core.platform import Platform

__all__ = ["SparseLP", "build_flow_lp", "build_scatter_lp", "build_reduce_lp", "reduce_intervals",
           "reduce_tasks"]


@dataclass(frozen=True)
class SparseLP:
    """One steady-state LP in matrix form: maximise x[0] s.t. capacity rows <= 1, rest = 0.

    Attributes
    ----------
    matrix : scipy.sparse.csc_array
        Float coefficients (exact ones are recovered with :meth:`exact_weights`).
    n_capacity : int
        The first ``n_capacity`` rows are ``<= 1``; the others are ``= 0``.
    capacity_kind, capacity_node : ndarray
        For each capacity row: 0 out-port, 1 in-port, 2 compute; and the processor index.
    send_edge, send_type : ndarray
        For each send column (columns ``1 .. n_send``): link index and message-type index.
    task_node, task_index : ndarray
        For each task column (after the send columns): processor index and task index.
    edge_cost, type_size : list of Fraction
        Exact link costs (in ``platform.links`` order) and message sizes.
    task_weight : callable or None
        ``task_weight(node_index, task_index) -> Fraction``, the exact w(P_i, T)
        (None for a scatter, which has no tasks).
    """

    matrix: sp.csc_array
    n_capacity: int
    capacity_kind: np.ndarray
    capacity_node: np.ndarray
    send_edge: np.ndarray
    send_type: np.ndarray
    task_node: np.ndarray
    task_index: np.ndarray
    edge_cost: list[Fraction]
    type_size: list[Fraction]
    task_weight: Callable[[int, int], Fraction] | None

    @property
    def n_send(self) -> int:
        return len(self.send_edge)

    @property
    def shape(self) -> tuple[int, int]:
        return self.matrix.shape

    def exact_weights(self, convert: Callable[[Fraction], object] = Fraction) -> np.ndarray:
        """Object array: the exact capacity coefficient of every column (0 for TP).

        A send column has the same coefficient ``size × cost`` in its out-port and
        in-port rows; a task column has ``w(P_i, T)`` in its compute row.
        """
        costs = np.array([convert(c) for c in self.edge_cost] + [convert(Fraction(0))],
                         dtype=object)
        sizes = np.array([convert(s) for s in self.type_size], dtype=object)
        weights = np.empty(self.shape[1], dtype=object)
        weights[0] = convert(Fraction(0))
        weights[1:1 + self.n_send] = costs[self.send_edge] * sizes[self.send_type]
        weights[1 + self.n_send:] = [convert(self.task_weight(int(i), int(t)))
                                     for i, t in zip(self.task_node, self.task_index,
                                                     strict=True)]
        return weights


def _edges(platform: Platform) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    index = platform.index
    src = np.array([index[link.source] for link in platform.links], dtype=np.int64)
    dst = np.array([index[link.target] for link in platform.links], dtype=np.int64)
    cost = np.array([float(link.comm) for link in platform.links])
    return src, dst, cost


def _conservation_rows(waived: np.ndarray, first: int) -> np.ndarray:
    """Row number of each (processor, type) conservation law; -1 where it is waived."""
    rows = np.full(waived.shape, -1, dtype=np.int64)
    rows[~waived] = first + np.arange(int((~waived).sum()))
    return rows


def _assemble(n_rows: int, n_cols: int,
              parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]]) -> sp.csc_array:
    rows = np.concatenate([p[0] for p in parts])
    cols = np.concatenate([p[1] for p in parts])
    vals = np.concatenate([p[2] for p in parts])
    keep = rows >= 0  # entries on waived conservation laws vanish
    matrix = sp.csc_array((vals[keep], (rows[keep], cols[keep])), shape=(n_rows, n_cols))
    matrix.sum_duplicates()
    matrix.eliminate_zeros()  # highspy 1.14/1.15 slow down on explicit zeros
    return matrix


def _send_parts(src, dst, cost, e_idx, q_idx, size, cons_row, n_proc, first_col):
    """Matrix entries of the send columns: one-port capacities and conservation."""
    cols = first_col + np.arange(len(e_idx))
    weight = cost[e_idx] * size[q_idx]
    return [
        (src[e_idx], cols, weight),                      # out-port of the sender
        (n_proc + dst[e_idx], cols, weight),             # in-port of the receiver
        (cons_row[dst[e_idx], q_idx], cols, np.ones(len(cols))),    # received
        (cons_row[src[e_idx], q_idx], cols, -np.ones(len(cols))),   # sent
    ]


def build_flow_lp(platform: Platform, origins: np.ndarray, destinations: np.ndarray,
                  sizes: list[Fraction]) -> SparseLP:
    """The multi-commodity flow LP shared by series of scatters (SSSP) and gathers (SSGP).

    Message type q goes from ``origins[q]`` to ``destinations[q]``: a scatter has one
    origin (the source) and a destination per target, a gather an origin per source and
    one destination (the target).  Conservation of type q holds everywhere but at its
    origin (exempt); TP is the net inflow of type q at its destination, for every q.

    Parameters
    ----------
    platform : Platform
    origins, destinations : ndarray of int
        Processor indices, one of each per message type (validated by the caller:
        :meth:`hetcoll.lp.Scatter.check`, :meth:`hetcoll.lp.Gather.check`).
    sizes : list of Fraction
        ``sizes[q]``, the size of message type q.

    Returns
    -------
    SparseLP
        Column 0 is TP, then one column per (link, type) that may carry flow: no type
        leaves its destination (TP is the net inflow) and none enters its origin
        (exempt from conservation).  Rows: out-ports, in-ports, then conservation laws.

    Raises
    ------
    None
        The caller validates the roles; costs and sizes are positive Fractions.

    Examples
    --------
    The scatter counter-example (S, P1, P2, P3; 4 links; targets P1, P2): 8 link-type
    pairs less P1 -> P3 carrying m_P1 give 7 send columns plus TP; 2 x 4 port rows
    and 4 x 2 conservation laws less the source's 2.

    >>> from hetcoll.core.platform import read_platform
    >>> p = read_platform("examples/scatter_counterexample.json")
    >>> model = build_flow_lp(p, np.array([0, 0]), np.array([1, 2]), [Fraction(1)] * 2)
    >>> model.shape, model.n_capacity, model.n_send
    ((14, 8), 8, 7)

    References
    ----------
    Legrand, Marchal, Robert (2004), "Series of Scatter -- Throughput and Linear
    Program"; NOTES.md §1 (source exempt from conservation; TP = net inflow).  A gather
    is the same flow with the roles turned round (hetcoll issue 12).
    """
    n_proc, n_type = len(platform.processors), len(origins)
    src, dst, cost = _edges(platform)
    # No type leaves its destination (net inflow); nothing enters its exempt origin.
    keep = (dst[:, None] != origins[None, :]) & (src[:, None] != destinations[None, :])
    e_idx, q_idx = np.nonzero(keep)
    waived = np.zeros((n_proc, n_type), dtype=bool)
    waived[origins, np.arange(n_type)] = True
    n_capacity = 2 * n_proc
    cons_row = _conservation_rows(waived, n_capacity)
    n_rows = n_capacity + int((~waived).sum())
    n_cols = 1 + len(e_idx)
    size_f = np.array([float(s) for s in sizes])
    parts = _send_parts(src, dst, cost, e_idx, q_idx, size_f, cons_row, n_proc, 1)
    # TP = inflow of type q at its destination: "inflow - TP = 0".
    parts.append((cons_row[destinations, np.arange(n_type)],
                  np.zeros(n_type, dtype=np.int64), -np.ones(n_type)))
    matrix = _assemble(n_rows, n_cols, parts)
    empty = np.zeros(0, dtype=np.int64)
    return SparseLP(matrix, n_capacity, np.repeat([0, 1], n_proc), np.tile(np.arange(n_proc), 2),
                    e_idx, q_idx, empty, empty, [link.comm for link in platform.links],
                    list(sizes), None)


def build_scatter_lp(platform: Platform, source: int, targets: np.ndarray,
                     sizes: list[Fraction]) -> SparseLP:
    """SSSP(G) of LMR with NOTES.md section 1 fixes: :func:`build_flow_lp` from one source.

    Parameters
    ----------
    platform : Platform
    source : int
        Index of the source processor.
    targets : ndarray of int
        Indices of the targets; message type q is the message for ``targets[q]``.
    sizes : list of Fraction
        ``sizes[q]``, the size of message type q.

    Returns
    -------
    SparseLP

    Raises
    ------
    None

    Examples
    --------
    >>> from hetcoll.core.platform import read_platform
    >>> p = read_platform("examples/scatter_counterexample.json")
    >>> build_scatter_lp(p, 0, np.array([1, 2]), [Fraction(1)] * 2).shape
    (14, 8)

    References
    ----------
    Legrand, Marchal, Robert (2004), "Series of Scatter -- Throughput and Linear
    Program"; NOTES.md §1.
    """
    targets = np.asarray(targets)
    return build_flow_lp(platform, np.full(len(targets), source), targets, sizes)


def reduce_intervals(n_values: int) -> list[tuple[int, int]]:
    """Partial values v[k,m], 0 <= k <= m < n_values, in the order the LP uses.

    Parameters
    ----------
    n_values : int
        N + 1, the number of operands v_0..v_N.

    Returns
    -------
    list of (int, int)
        The n(n+1)/2 intervals (k, m), by k then m.

    Raises
    ------
    None

    Examples
    --------
    >>> reduce_intervals(3)
    [(0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2)]

    References
    ----------
    Legrand, Marchal, Robert (2004), "Series of Reduce" (partial values v[k,m]).
    """
    return [(k, m) for k in range(n_values) for m in range(k, n_values)]


def reduce_tasks(n_values: int) -> list[tuple[int, int, int]]:
    """Tasks T(k,l,m) computing v[k,m] = v[k,l] ⊕ v[l+1,m], 0 <= k <= l < m < n_values.

    Parameters
    ----------
    n_values : int
        N + 1, the number of operands v_0..v_N.

    Returns
    -------
    list of (int, int, int)
        The (n³ - n)/6 tasks (k, l, m), by k, then m, then l.

    Raises
    ------
    None

    Examples
    --------
    >>> reduce_tasks(3)
    [(0, 0, 1), (0, 0, 2), (0, 1, 2), (1, 1, 2)]

    References
    ----------
    Legrand, Marchal, Robert (2004), "Series of Reduce" (tasks T(k,l,m)); NOTES.md §1:
    the slides' range of l is off by one, it is k <= l < m.
    """
    return [(k, split, m) for k in range(n_values) for m in range(k + 1, n_values)
            for split in range(k, m)]


def build_reduce_lp(platform: Platform, owners: np.ndarray, target: int,
                    sizes: list[Fraction], task_weight: Callable[[int, int], Fraction],
                    default_weights: bool) -> SparseLP:
    """SSRP(G) of LMR (slides "Series of Reduce") with NOTES.md section 1 fixes.

    Parameters
    ----------
    platform : Platform
    owners : ndarray of int
        ``owners[k]``, the index of the processor owning v_k (validated by the caller,
        :func:`lp.platform.check_reduce_roles`).
    target : int
        Index of the processor receiving v[0,N].
    sizes : list of Fraction
        ``sizes[q]``, the size of interval q of ``reduce_intervals(len(owners))``.
    task_weight : callable
        ``task_weight(i, t)``: time of task t of ``reduce_tasks(len(owners))`` on
        processor i.
    default_weights : bool
        True when ``task_weight`` is the processor's compute cost for every task
        (a faster, vectorised path).

    Returns
    -------
    SparseLP
        Column 0 is TP, then sends, then tasks.  Conservation of v[k,k] at its owner
        and of v[0,N] at the target is waived (TP = received + computed v[0,N]
        there), and the target never sends v[0,N] on.

    Raises
    ------
    None
        The caller validates the roles; costs and sizes are positive Fractions.

    Examples
    --------
    The two-processor case of NOTES.md §1: 3 useful sends (v_0 to P1, v_1 to P0,
    v[0,1] to P0) and T(0,0,1) on each processor, plus TP.

    >>> from hetcoll.core.platform import read_platform
    >>> p = read_platform("examples/two_processor.json")
    >>> model = build_reduce_lp(p, np.array([0, 1]), 0, [Fraction(1)] * 3,
    ...                         lambda i, t: p.processors[i].compute, True)
    >>> model.shape[1], model.n_send, model.n_capacity
    (6, 3, 6)

    References
    ----------
    Legrand, Marchal, Robert (2004), "Series of Reduce -- Linear Program"; NOTES.md
    §1 (TP line v[0,N], not v[0,m]; 0 <= l < N; the target never re-sends v[0,N]).
    """
    n_proc, n_val = len(platform.processors), len(owners)
    intervals = reduce_intervals(n_val)
    interval_id = np.full((n_val, n_val), -1, dtype=np.int64)
    for q, (k, m) in enumerate(intervals):
        interval_id[k, m] = q
    n_type = len(intervals)
    final = interval_id[0, n_val - 1]
    singles = interval_id[np.arange(n_val), np.arange(n_val)]
    src, dst, cost = _edges(platform)

    # v[0,N] never leaves the target; v[k,k] never returns to its owner.
    keep = np.ones((len(src), n_type), dtype=bool)
    keep[:, final] = src != target
    keep[:, singles] &= dst[:, None] != owners[None, :]
    e_idx, q_idx = np.nonzero(keep)

    waived = np.zeros((n_proc, n_type), dtype=bool)
    waived[owners, singles] = True
    n_capacity = 3 * n_proc
    cons_row = _conservation_rows(waived, n_capacity)
    n_rows = n_capacity + int((~waived).sum())
    n_send = len(e_idx)

    task_k, task_l, task_m = np.array(reduce_tasks(n_val), dtype=np.int64).reshape(-1, 3).T
    n_task = len(task_k)
    task_node = np.repeat(np.arange(n_proc), n_task)
    task_index = np.tile(np.arange(n_task), n_proc)
    task_cols = 1 + n_send + np.arange(n_proc * n_task)
    n_cols = 1 + n_send + n_proc * n_task

    size_f = np.array([float(s) for s in sizes])
    compute_f = np.array([float(p.comp) for p in platform.processors])
    if default_weights:
        weight = compute_f[task_node]
    else:
        weight = np.array([float(task_weight(int(i), int(t)))
                           for i, t in zip(task_node, task_index, strict=True)])
    produced = interval_id[task_k, task_m][task_index]
    left = interval_id[task_k, task_l][task_index]
    right = interval_id[task_l + 1, task_m][task_index]
    ones = np.ones(len(task_cols))
    parts = _send_parts(src, dst, cost, e_idx, q_idx, size_f, cons_row, n_proc, 1)
    parts += [
        (2 * n_proc + task_node, task_cols, weight),           # compute time alpha
        (cons_row[task_node, produced], task_cols, ones),      # produced
        (cons_row[task_node, left], task_cols, -ones),         # consumed as left operand
        (cons_row[task_node, right], task_cols, -ones),        # consumed as right operand
        (np.array([cons_row[target, final]]), np.array([0]), np.array([-1.0])),  # TP
    ]
    matrix = _assemble(n_rows, n_cols, parts)
    return SparseLP(matrix, n_capacity, np.repeat([0, 1, 2], n_proc),
                    np.tile(np.arange(n_proc), 3), e_idx, q_idx, task_node, task_index,
                    [link.comm for link in platform.links], list(sizes), task_weight)
