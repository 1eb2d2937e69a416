"""Model-based scatterv/gatherv trees and their predicted times (Dichev, Rychkov, Lastovetsky).

- point-to-point models t(i, j, m): :class:`HockneyModel` (a platform's links),
  :class:`StarHockney`, the least-squares fit :func:`fit_hockney`;
- tree builders: :func:`build_tree` and :data:`ALGORITHMS` (``flat``, ``binomial``,
  ``binomial-min-first``, ``binomial-max-first``, ``traff``, ``traff-model``);
- predictors: :func:`pairwise_prediction` (independent links, one-port) and
  :func:`routed_prediction` (physical links shared with max-min fairness);
- :func:`tree_monte_carlo`: noisy link times (gamma), trees ranked by mean and quantiles;
- :func:`tree_gantt`, a Gantt chart of one run.

References: Dichev, Rychkov, Lastovetsky, "Two algorithms of irregular scatter/gather
operations for heterogeneous platforms", EuroMPI 2010.
"""

from hetcoll.sim.collectives.experiments import (
    DRL_PAIRS,
    compare_trees,
    hcl_cluster,
    interleaved_order,
    sizes_by_speed,
    star_cluster,
    tree_gains,
)
from hetcoll.sim.collectives.model import (
    HockneyFit,
    HockneyModel,
    PointToPoint,
    StarHockney,
    fit_hockney,
    read_pingpong_csv,
)
from hetcoll.sim.collectives.montecarlo import (
    TreeSummary,
    noisy_routed_times,
    noisy_times,
    tree_monte_carlo,
)
from hetcoll.sim.collectives.predict import (
    Transfer,
    TreePrediction,
    pairwise_prediction,
    subtree_volumes,
    transfer_order,
    tree_gantt,
)
from hetcoll.sim.collectives.routed import Network, max_min_rates, routed_prediction
from hetcoll.sim.collectives.trees import (
    ALGORITHMS,
    KINDS,
    CommTree,
    binomial_max_first_tree,
    binomial_min_first_tree,
    binomial_tree,
    build_tree,
    flat_tree,
    traff_model_tree,
    traff_tree,
)

__all__ = [
    "ALGORITHMS",
    "DRL_PAIRS",
    "KINDS",
    "CommTree",
    "HockneyFit",
    "HockneyModel",
    "Network",
    "PointToPoint",
    "StarHockney",
    "Transfer",
    "TreePrediction",
    "TreeSummary",
    "binomial_max_first_tree",
    "binomial_min_first_tree",
    "binomial_tree",
    "build_tree",
    "compare_trees",
    "fit_hockney",
    "hcl_cluster",
    "interleaved_order",
    "flat_tree",
    "max_min_rates",
    "noisy_routed_times",
    "noisy_times",
    "pairwise_prediction",
    "read_pingpong_csv",
    "routed_prediction",
    "sizes_by_speed",
    "star_cluster",
    "subtree_volumes",
    "traff_model_tree",
    "traff_tree",
    "transfer_order",
    "tree_gains",
    "tree_gantt",
    "tree_monte_carlo",
]
