"""Steady-state LPs for series of scatters, gathers and reduces (Legrand, Marchal, Robert).

- :class:`Platform` and its I/O: the heterogeneous platform graph;
- :class:`Scatter`, :class:`Gather`, :class:`Reduce`: the typed operations, with
  per-process message sizes; :func:`resolve_operation` reads them from a platform
  file's scenarios;
- :func:`steady_state_lp` (and :func:`steady_state_scatter_lp`,
  :func:`steady_state_gather_lp`, :func:`steady_state_reduce_lp`): the optimal
  steady-state throughput (LPs SSSP, SSGP and SSRP), solved with HiGHS and certified
  in exact rational arithmetic, as a :class:`SteadyStateResult`;
- :func:`scatter_lp_pulp`, :func:`gather_lp_pulp`, :func:`reduce_lp_pulp`: the same
  LPs written with pulp, readable and exportable to ``.lp``/``.mps`` files;
- :func:`plot_utilisation`: busy time of every port and processor, bottlenecks hatched.
"""

from hetcoll.core.platform import (
    Link,
    Platform,
    Processor,
    platform_from_dict,
    platform_from_networkx,
    platform_to_dict,
    platform_to_networkx,
    read_platform,
    write_platform,
)
from hetcoll.lp.operations import Gather, Operation, Reduce, Scatter
from hetcoll.lp.plots import plot_utilisation
from hetcoll.lp.pulp_model import gather_lp_pulp, reduce_lp_pulp, scatter_lp_pulp
from hetcoll.lp.scenarios import (
    SCENARIO_ROLES,
    default_operations,
    resolve_operation,
    scenario_roles,
)
from hetcoll.lp.steady_state import (
    SteadyStateResult,
    steady_state_gather_lp,
    steady_state_lp,
    steady_state_reduce_lp,
    steady_state_scatter_lp,
)

__all__ = [
    "SCENARIO_ROLES",
    "Gather",
    "Link",
    "Operation",
    "Platform",
    "Processor",
    "Reduce",
    "Scatter",
    "SteadyStateResult",
    "default_operations",
    "gather_lp_pulp",
    "platform_from_dict",
    "platform_from_networkx",
    "platform_to_dict",
    "platform_to_networkx",
    "plot_utilisation",
    "read_platform",
    "reduce_lp_pulp",
    "resolve_operation",
    "scatter_lp_pulp",
    "scenario_roles",
    "steady_state_gather_lp",
    "steady_state_lp",
    "steady_state_reduce_lp",
    "steady_state_scatter_lp",
    "write_platform",
]

# Periodic schedules built from the LP solutions (issue 3).
from hetcoll.lp.colouring import Matching, weighted_bipartite_edge_colouring  # noqa: E402
from hetcoll.lp.decomposition import (  # noqa: E402
    GatherPath,
    ReductionTree,
    ScatterPath,
    Task,
    Transfer,
    cancel_flow_cycles,
    decompose_gather_flows,
    decompose_reduce_flows,
    decompose_scatter_flows,
    validate_gather_path,
    validate_reduction_tree,
    validate_scatter_path,
)
from hetcoll.lp.executor import ExecutionResult, ScheduleViolation, execute_schedule  # noqa: E402
from hetcoll.lp.schedule import (  # noqa: E402
    Schedule,
    ScheduleMatching,
    Slot,
    periodic_schedule,
    schedule_from_lp,
    schedule_gantt,
)

__all__ += [
    "ExecutionResult",
    "GatherPath",
    "Matching",
    "ReductionTree",
    "ScatterPath",
    "Schedule",
    "ScheduleMatching",
    "ScheduleViolation",
    "Slot",
    "Task",
    "Transfer",
    "cancel_flow_cycles",
    "decompose_gather_flows",
    "decompose_reduce_flows",
    "decompose_scatter_flows",
    "execute_schedule",
    "periodic_schedule",
    "schedule_from_lp",
    "schedule_gantt",
    "validate_gather_path",
    "validate_reduction_tree",
    "validate_scatter_path",
    "weighted_bipartite_edge_colouring",
]
