"""Approximation bounds, tight instances, clairvoyant optimum, theorem checks.

References: Benoit, Canon, Marchal, INRIA RR-8315 (2013), section 4 and
Table 1; Marendić et al., "An investigation into the performance of reduction
algorithms under load imbalance", section 3.
"""

from analytics.bounds import (
    ALGORITHMS,
    DELTA,
    HETEROPAR_MISPRINT,
    LOG2_PHI,
    REGIMES,
    TABLE1,
    Bound,
    N,
    approximation_ratio,
    render_table,
    table1,
)
from analytics.lower_bounds import (
    ceil_log2,
    fibonacci,
    fibonacci_lower_bound,
    fibonacci_order,
    rounds_lower_bound,
)
from analytics.optimum import (
    Operation,
    OptimumResult,
    brute_force_optimum,
    clairvoyant_optimum,
    evaluate_tree,
    simplified_model_optimum,
)

__all__ = [
    "ALGORITHMS",
    "DELTA",
    "HETEROPAR_MISPRINT",
    "LOG2_PHI",
    "N",
    "REGIMES",
    "TABLE1",
    "Bound",
    "Operation",
    "OptimumResult",
    "approximation_ratio",
    "brute_force_optimum",
    "ceil_log2",
    "clairvoyant_optimum",
    "evaluate_tree",
    "fibonacci",
    "fibonacci_lower_bound",
    "fibonacci_order",
    "render_table",
    "rounds_lower_bound",
    "simplified_model_optimum",
    "table1",
]
