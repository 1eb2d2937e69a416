"""Weighted edge-colouring of a bipartite graph into timed matchings.

This is the step of Legrand, Marchal and Robert's construction that turns the
busy times of a period into one-port-compatible communication rounds: senders
on one side, receivers on the other, edge weight = time the link is busy per
period.  The result is a sequence of matchings (sets of transfers that may run
at the same time under the one-port model) whose durations add up to the
maximum weighted degree.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from scipy.sparse import csr_array
from scipy.sparse.csgraph import maximum_bipartite_matching

from hetcoll.core.errors import InputError
from hetcoll.core.numbers import fraction_str, to_fraction

__all__ = ["Matching", "weighted_bipartite_edge_colouring"]


@dataclass(frozen=True)
class Matching:
    """One colour class: edges that run together for ``duration`` time units.

    Attributes
    ----------
    duration : Fraction
        How long every edge of the matching is active.
    edges : tuple of (left, right) pairs
        No two edges share a left vertex, and no two share a right vertex.
    """

    duration: Fraction
    edges: tuple[tuple[Hashable, Hashable], ...]


def weighted_bipartite_edge_colouring(
    weights: Mapping[tuple[Hashable, Hashable], object],
) -> list[Matching]:
    """Decompose a weighted bipartite graph into weighted matchings.

    Every edge ``(u, v)`` (``u`` on the left side, ``v`` on the right side) is
    covered by matchings whose durations add up exactly to its weight, and the
    durations of all matchings add up to the maximum weighted degree Δ, which
    is the least possible total (a vertex of degree Δ is busy in every round).

    Algorithm: pad the graph to a weighted-regular one (equal numbers of
    vertices on both sides, every vertex of weighted degree Δ, dummy edges
    joining deficient vertices greedily), so that the weight matrix divided by
    Δ is doubly stochastic.  By Birkhoff--von Neumann its support has a
    perfect matching; take one (Hopcroft--Karp,
    :func:`scipy.sparse.csgraph.maximum_bipartite_matching`), give it the
    smallest weight on it, subtract, and repeat.  Every round zeroes at least
    one edge, so there are at most ``E + 2n`` rounds (a pair's real and dummy layers count
    separately) for ``E`` edges and ``n``
    vertices per side, and the whole costs ``O((E + n) · E · sqrt(n))``.  All
    arithmetic is exact (:class:`~fractions.Fraction`).  Dummy edges are
    dropped from the output; no matching becomes empty, because a vertex of
    degree Δ has no dummy edge.

    Parameters
    ----------
    weights : mapping (left, right) -> number
        Non-negative edge weights (int, Fraction, decimal string...); zero
        weights are ignored.  Left and right vertices live in separate
        namespaces, so the same name may appear on both sides.

    Returns
    -------
    list of Matching
        In the order found; empty when there is no positive weight.

    Raises
    ------
    InputError
        If a weight is negative or not a number.

    Examples
    --------
    >>> ms = weighted_bipartite_edge_colouring({("a", "x"): 2, ("a", "y"): 1, ("b", "x"): 1})
    >>> sum(m.duration for m in ms)
    Fraction(3, 1)

    References
    ----------
    Legrand, Marchal, Robert (2004), slides "Series of Scatter -- Building a
    schedule" (weighted edge-colouring of the bipartite communication graph);
    A. Schrijver, *Combinatorial Optimization* (2003), Thm. 20.1 (Kőnig) and
    Cor. 20.1b (edge-colouring of weighted bipartite graphs).
    """
    exact: dict[tuple[Hashable, Hashable], Fraction] = {}
    for edge, weight in weights.items():
        value = to_fraction(weight, f"weight of edge {edge!r}")
        if value < 0:
            raise InputError(f"weight of edge {edge!r} must be non-negative, "
                             f"got {fraction_str(value)}")
        if value:
            exact[edge] = value
    if not exact:
        return []
    left = list(dict.fromkeys(u for u, _ in exact))
    right = list(dict.fromkeys(v for _, v in exact))
    n = max(len(left), len(right))
    li = {u: i for i, u in enumerate(left)}
    ri = {v: j for j, v in enumerate(right)}
    # Per support pair: [real weight left, dummy weight left].  A round uses
    # the real layer of a pair before its dummy layer, so an edge of a
    # matching is either real or dummy for the whole round.
    residual: dict[tuple[int, int], list[Fraction]] = {}
    for (u, v), weight in exact.items():
        residual[li[u], ri[v]] = [weight, Fraction(0)]
    row_degree = [Fraction(0)] * n
    col_degree = [Fraction(0)] * n
    for (i, j), (weight, _) in residual.items():
        row_degree[i] += weight
        col_degree[j] += weight
    delta = max(max(row_degree), max(col_degree))
    _pad_to_regular(residual, row_degree, col_degree, delta)

    matchings: list[Matching] = []
    while residual:
        keys = list(residual)
        rows = np.fromiter((i for i, _ in keys), dtype=np.int64, count=len(keys))
        cols = np.fromiter((j for _, j in keys), dtype=np.int64, count=len(keys))
        graph = csr_array((np.ones(len(keys), dtype=np.int8), (rows, cols)), shape=(n, n))
        match = maximum_bipartite_matching(graph, perm_type="column")
        # The residual stays weighted-regular, so a perfect matching exists.
        assert (match >= 0).all(), "weighted-regular bipartite graph without a perfect matching"
        pairs = [(i, int(match[i])) for i in range(n)]
        layers = [0 if residual[pair][0] else 1 for pair in pairs]
        duration = min(residual[pair][layer] for pair, layer in zip(pairs, layers, strict=True))
        for pair, layer in zip(pairs, layers, strict=True):
            residual[pair][layer] -= duration
            if not any(residual[pair]):
                del residual[pair]
        edges = tuple((left[i], right[j])
                      for (i, j), layer in zip(pairs, layers, strict=True) if layer == 0)
        matchings.append(Matching(duration, edges))
    return matchings


def _pad_to_regular(residual: dict[tuple[int, int], list[Fraction]], row_degree: list[Fraction],
                    col_degree: list[Fraction], delta: Fraction) -> None:
    """Add dummy weight until every row and column has weighted degree ``delta``.

    Both sides have the same total deficiency (n·Δ minus the total weight), so
    a two-pointer sweep pairs them off with at most ``2n`` dummy entries.
    Dummy weight on a real pair is kept in the pair's second layer.
    """
    n = len(row_degree)
    i = j = 0
    while True:
        while i < n and row_degree[i] == delta:
            i += 1
        while j < n and col_degree[j] == delta:
            j += 1
        if i == n or j == n:
            return
        add = min(delta - row_degree[i], delta - col_degree[j])
        residual.setdefault((i, j), [Fraction(0), Fraction(0)])[1] += add
        row_degree[i] += add
        col_degree[j] += add
