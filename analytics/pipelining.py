"""The bridge from one scatterv/gatherv over a tree to the steady state of a series.

A tree (:mod:`hetcoll.sim.collectives`) performs one operation in time T; a series of
the same operation, pipelined over every route of the platform, completes one
operation every 1/TP time units in steady state, TP being the optimal throughput of
the steady-state LP (:func:`hetcoll.lp.steady_state_lp`, a Scatter with the blocks as
message sizes for scatterv, a Gather for gatherv).  The ratio T / (1/TP) = T * TP
says what pipelining could gain: a series of k operations takes about k T one after
another over the tree, and about k / TP pipelined.

The two models differ in two ways, both in the steady state's favour: the LP ignores
link latency, which a long series amortises, and it may split a message over several
routes.  A ratio below 1 is impossible when latencies are 0 (one operation cannot
beat the steady-state period, which is a lower bound of any schedule's time per
operation), and possible with latencies, which only the tree pays.

References
----------
Dichev, Rychkov, Lastovetsky, EuroMPI 2010 (the trees); Legrand, Marchal, Robert,
JPDC 65(12), 2005 (the steady-state scatter and gather); NOTES.md §4.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from hetcoll.core.errors import InputError
from hetcoll.core.platform import Platform
from hetcoll.core.results import exact_pair
from hetcoll.lp import Gather, Scatter, steady_state_lp
from hetcoll.sim.collectives import CommTree, HockneyModel, pairwise_prediction

__all__ = ["TreeVsSteadyState", "steady_state_period", "tree_vs_steady_state"]


@dataclass(frozen=True)
class TreeVsSteadyState:
    """One operation over a tree against the steady-state period of the series.

    Attributes
    ----------
    time : Fraction
        The tree's single-operation time.
    period : Fraction
        1/TP, the steady-state time per operation.
    ratio : Fraction
        time / period: how many times faster the pipelined series completes each
        operation.
    """

    time: Fraction
    period: Fraction
    ratio: Fraction

    def to_dict(self) -> dict[str, Any]:
        """``period``/``ratio`` as floats with their ``_exact`` "p/q" twins."""
        return exact_pair("period", self.period) | exact_pair("ratio", self.ratio)


def steady_state_period(kind: str, root: str, sizes: Mapping[str, Fraction],
                        platform: Platform, **options: Any) -> Fraction:
    """1/TP of a series of scatterv (gatherv) with these block sizes, exact.

    Parameters
    ----------
    kind : {"scatterv", "gatherv"}
    root : str
    sizes : mapping of str to Fraction
        Each process's block; the root's own block and empty blocks move nothing.
    platform : Platform
    **options
        Passed to :func:`hetcoll.lp.steady_state_lp` (``max_variables``...).

    Returns
    -------
    Fraction
        0 when no block leaves (enters) the root.

    Raises
    ------
    InputError
        An unknown kind, or as the LP (a process the root cannot reach).
    hetcoll.core.errors.LimitError
        If the LP is over its size guard.

    Examples
    --------
    >>> from hetcoll.core.platform import read_platform
    >>> p = read_platform("examples/two_processor.json")
    >>> steady_state_period("gatherv", "P0", {"P0": Fraction(0), "P1": Fraction(1, 2)}, p)
    Fraction(1, 2)
    """
    if kind not in ("scatterv", "gatherv"):
        raise InputError(f"unknown operation {kind!r}; expected scatterv or gatherv")
    moving = {n: s for n, s in sizes.items() if n != root and s > 0}
    if not moving:
        return Fraction(0)
    operation = (Scatter(root, list(moving), moving) if kind == "scatterv"
                 else Gather(list(moving), root, moving))
    result = steady_state_lp(platform, operation, **options)
    if result.throughput_exact is None:
        raise InputError(f"the steady-state LP of this {kind} has no exact optimum: "
                         f"{result.message}")
    return 1 / result.throughput_exact


def tree_vs_steady_state(tree: CommTree, sizes: Mapping[str, Fraction],
                         platform: Platform, *, time: Fraction | None = None,
                         period: Fraction | None = None) -> TreeVsSteadyState:
    """Compare ``tree``'s single-operation time with 1/TP of the series (module doc).

    Parameters
    ----------
    tree : CommTree
    sizes : mapping of str to Fraction
    platform : Platform
    time : Fraction, optional
        The tree's time, if already predicted (e.g. by the routed predictor);
        default: :func:`~hetcoll.sim.collectives.pairwise_prediction` on the
        platform's Hockney model.
    period : Fraction, optional
        1/TP, if already solved (it depends on the operation, not the tree).

    Returns
    -------
    TreeVsSteadyState
        ``ratio`` is 0 when nothing moves (period 0).

    See Also
    --------
    steady_state_period

    Examples
    --------
    >>> from hetcoll.core.platform import read_platform
    >>> from hetcoll.sim.collectives import flat_tree
    >>> p = read_platform("examples/two_processor.json")
    >>> sizes = {"P0": Fraction(0), "P1": Fraction(1, 2)}
    >>> tree_vs_steady_state(flat_tree("gatherv", "P0", sizes), sizes, p).ratio
    Fraction(1, 1)
    """
    if time is None:
        time = pairwise_prediction(tree, sizes, HockneyModel(platform)).time
    if period is None:
        period = steady_state_period(tree.kind, tree.root, sizes, platform)
    return TreeVsSteadyState(time, period, time / period if period else Fraction(0))
