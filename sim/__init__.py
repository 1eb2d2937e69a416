"""Exact discrete-event simulator and Monte Carlo engine for reductions.

- :func:`simulate`: one reduction, event by event, exact with rational costs;
- :func:`sample_makespans`, :func:`monte_carlo`: many runs at once with random
  costs, common random numbers across methods (compiled event loops);
- cost models (:class:`MatrixCosts`, :class:`SequenceCosts`) and cost
  distributions (:class:`Gamma`, :class:`Exponential`, :class:`Deterministic`,
  :class:`FrozenScipy`);
- the static trees (:func:`binomial_tree`, :func:`fibonacci_tree`);
- Marendić et al.'s perfect-knowledge reduction under load imbalance
  (:func:`perfect_knowledge_reduction`, their Algorithm 1, module :mod:`sim.marendic`).

References: Benoit, Canon, Marchal, RR 8315 (sections 3 and 6).
"""

from hetcoll.sim.costs import (
    CostDistribution,
    CostFile,
    CostModel,
    Deterministic,
    Exponential,
    FrozenScipy,
    Gamma,
    MatrixCosts,
    SequenceCosts,
    read_cost_file,
)
from hetcoll.sim.engine import (
    ALGORITHMS,
    NON_COMMUTATIVE_SAFE,
    EngineState,
    Policy,
    SimulationResult,
    StaticTree,
    TraceEvent,
    simulate,
)
from hetcoll.sim.marendic import MarendicResult, SimplifiedModel, perfect_knowledge_reduction
from hetcoll.sim.montecarlo import (
    CHUNK_RUNS,
    MAX_MEMORY,
    MonteCarloSummary,
    memory_estimate,
    monte_carlo,
    sample_makespans,
)
from hetcoll.sim.trees import binomial_tree, fibonacci_order, fibonacci_tree

__all__ = [
    "ALGORITHMS",
    "CHUNK_RUNS",
    "MAX_MEMORY",
    "NON_COMMUTATIVE_SAFE",
    "CostDistribution",
    "CostFile",
    "CostModel",
    "Deterministic",
    "EngineState",
    "Exponential",
    "FrozenScipy",
    "Gamma",
    "MarendicResult",
    "MatrixCosts",
    "MonteCarloSummary",
    "Policy",
    "SequenceCosts",
    "SimplifiedModel",
    "SimulationResult",
    "StaticTree",
    "TraceEvent",
    "binomial_tree",
    "fibonacci_order",
    "fibonacci_tree",
    "memory_estimate",
    "monte_carlo",
    "perfect_knowledge_reduction",
    "read_cost_file",
    "sample_makespans",
    "simulate",
]
