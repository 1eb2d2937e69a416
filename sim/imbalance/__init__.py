"""Reductions under load imbalance (Marendić et al.): cost model, algorithms, metrics.

- :class:`FlatModel`: α, β, γ per element, n elements, p processes, the root;
- :func:`simulate_reduction`: one exact message-level run of any of
  :data:`ALGORITHMS` under start-time skew, with T1-T5 and T1_root;
- :mod:`~hetcoll.sim.imbalance.formulas`: their closed forms (1)-(4);
- :mod:`~hetcoll.sim.imbalance.skew`: imbalance models and Monte Carlo.

References: P. Marendić, J. Lemeire, T. Haber, D. Vučinić, P. Schelkens, "An
investigation into the performance of reduction algorithms under load imbalance".
"""

from hetcoll.sim.imbalance.formulas import closed_forms, symbolic_formulas
from hetcoll.sim.imbalance.model import (
    FlatModel,
    ImbalanceResult,
    Operation,
    metrics,
    simplified_model,
)
from hetcoll.sim.imbalance.reduce import ALGORITHMS, IN_ORDER, WHOLE_VECTOR, simulate_reduction
from hetcoll.sim.imbalance.skew import (
    DelayVector,
    GammaSkew,
    GaussianSkew,
    SlowProcess,
    metrics_for_delays,
    sample_metrics,
    summarize_metrics,
)

__all__ = [
    "ALGORITHMS",
    "IN_ORDER",
    "WHOLE_VECTOR",
    "DelayVector",
    "FlatModel",
    "GammaSkew",
    "GaussianSkew",
    "ImbalanceResult",
    "Operation",
    "SlowProcess",
    "closed_forms",
    "metrics",
    "metrics_for_delays",
    "sample_metrics",
    "simplified_model",
    "simulate_reduction",
    "summarize_metrics",
    "symbolic_formulas",
]
