"""Approximation bounds, tight instances, clairvoyant optimum, theorem checks.

References: Benoit, Canon, Marchal, INRIA RR-8315 (2013), section 4 and
Table 1; Marendić et al., "An investigation into the performance of reduction
algorithms under load imbalance", section 3.
"""

from hetcoll.analytics.bounds import (
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
from hetcoll.analytics.instances import (
    TightInstance,
    fibonacci_instance,
    figure3_instance,
    theorem1_instance,
    theorem4_instance,
    theorem4_limit,
    theorem4_ratio,
)
from hetcoll.analytics.lower_bounds import (
    ceil_log2,
    fibonacci_lower_bound,
    rounds_lower_bound,
)
from hetcoll.analytics.optimum import (
    Operation,
    OptimumResult,
    brute_force_optimum,
    clairvoyant_optimum,
    evaluate_tree,
    simplified_model_optimum,
)
from hetcoll.analytics.pipelining import (
    TreeVsSteadyState,
    steady_state_period,
    tree_vs_steady_state,
)
from hetcoll.analytics.verify import (
    InstanceCheck,
    TheoremCheck,
    check_instance,
    proof_lower_bound,
    random_instance,
    verify_lemma1,
    verify_theorems,
    worst_ratio,
)

__all__ = [
    "TreeVsSteadyState",
    "steady_state_period",
    "tree_vs_steady_state",
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
    "fibonacci_lower_bound",
    "render_table",
    "rounds_lower_bound",
    "simplified_model_optimum",
    "table1",
    "TightInstance",
    "fibonacci_instance",
    "figure3_instance",
    "theorem1_instance",
    "theorem4_instance",
    "theorem4_limit",
    "theorem4_ratio",
    "InstanceCheck",
    "TheoremCheck",
    "check_instance",
    "proof_lower_bound",
    "random_instance",
    "verify_lemma1",
    "verify_theorems",
    "worst_ratio",
]
