"""Optimal steady-state throughput of series of scatters (SSSP), gathers (SSGP) and
reduces (SSRP): one solver for the typed operations of :mod:`hetcoll.lp.operations`."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import highspy
import numpy as np

from hetcoll.core.display import approx_str, number_text
from hetcoll.core.errors import InputError
from hetcoll.core.numbers import fraction_str
from hetcoll.core.platform import Platform
from hetcoll.core.results import Result, exact_pair, to_jsonable
from hetcoll.lp.certify import CertificationError, certify_basis
from hetcoll.lp.highs import (
    HIGHS_LARGE_COEFFICIENT,
    MAX_LP_VARIABLES,
    check_lp_size,
    rerun,
    solve_sparse_lp,
)
from hetcoll.lp.model import SparseLP
from hetcoll.lp.operations import Gather, Operation, OperationRoles, Reduce, Scatter

__all__ = ["SteadyStateResult", "steady_state_gather_lp", "steady_state_lp",
           "steady_state_reduce_lp", "steady_state_scatter_lp"]

# Values HiGHS reports below this are floating-point noise, not flows.
_FLOAT_ZERO = 1e-12
_CAPACITY_KINDS = ("out-port", "in-port", "compute")
_PORT_KEYS = {"out-port": "out", "in-port": "in"}

MessageType = Hashable
Task = tuple[int, int, int]


@dataclass
class SteadyStateResult(OperationRoles, Result):
    """Outcome of :func:`steady_state_lp` (and the scatter, gather and reduce shortcuts).

    In the style of :class:`scipy.optimize.OptimizeResult`.

    Attributes
    ----------
    status : int
        0: optimal and exactly certified; 1: optimal in floating point only (certification
        off or failed, see ``message``); 2: HiGHS did not find an optimum.
    message : str
    success : bool
        ``status in (0, 1)``: an optimum was found (certified or not).
    operation : Scatter, Gather or Reduce
        What was solved, with exact sizes (and, for a reduce, the exact task-cost table).
    kind : {"scatter", "gather", "reduce"}
        ``operation.kind``.
    platform : Platform
    throughput : float
        TP, operations completed per time unit (NaN without an optimum).
    throughput_exact : Fraction or None
        TP exactly, when ``certified``.
    certified : bool
        True when the optimum was verified in exact arithmetic (primal feasibility,
        dual feasibility, equal objectives).
    flows, flows_exact : dict
        ``{(from_name, to_name, msg_type): rate}``, non-zero entries only; ``msg_type``
        is the target's name (scatter), the source's name (gather) or the interval
        ``(k, m)`` (reduce).  ``flows_exact`` holds Fractions, or is None when not
        certified.
    tasks, tasks_exact : dict
        ``{(processor_name, (k, l, m)): rate}`` of tasks T(k,l,m); empty but for a reduce.
    port_utilisation : dict
        ``{name: {"out": fraction of time sending, "in": fraction of time receiving}}``.
    compute_utilisation : dict
        ``{name: alpha(P_i)}`` (reduce; empty otherwise).
    bottlenecks : list of dict
        Saturated resources with a positive dual value, most constraining first; keys
        ``resource``, ``processor``, ``kind`` ("out-port", "in-port" or "compute"),
        ``dual`` (float), ``dual_exact`` (Fraction or None), ``share`` (dual / TP) and
        ``utilisation``.  ``dual`` is the marginal gain: one more unit of time per time
        unit on that resource raises TP by ``dual``; by LP duality the duals add up to
        TP, so ``share`` adds up to 1.
    num_variables, num_constraints : int
    timings : dict
        Seconds spent in ``build``, ``solve`` and ``certify``.

    The roles are also attributes (``source``, ``targets``, ``sources``,
    ``participants``, ``target``): those of the operation, None for the others.
    """

    status: int
    message: str
    operation: Operation
    platform: Platform
    throughput: float
    throughput_exact: Fraction | None
    certified: bool
    flows: dict[tuple[str, str, MessageType], float]
    flows_exact: dict[tuple[str, str, MessageType], Fraction] | None
    tasks: dict[tuple[str, Task], float]
    tasks_exact: dict[tuple[str, Task], Fraction] | None
    port_utilisation: dict[str, dict[str, float]]
    compute_utilisation: dict[str, float]
    bottlenecks: list[dict[str, Any]]
    num_variables: int
    num_constraints: int
    timings: dict[str, float]

    @property
    def success(self) -> bool:
        """True when an optimum was found: ``status`` 0 (certified) or 1 (float only)."""
        return self.status in (0, 1)

    @property
    def warnings(self) -> list[str]:
        """Legal but suspicious results, one sentence each: an optimum whose exact
        certification was asked for and failed (its numbers are floating point only).

        A zero optimum cannot happen: the operations refuse roles that cannot reach
        each other before the solve."""
        if self.status == 1 and self.message != _NOT_CERTIFIED:
            return [f"the optimum TP ≈ {approx_str(self.throughput)} is not certified "
                    f"(floating point only): {self.message}"]
        return []

    @property
    def message_sizes(self) -> dict[MessageType, Fraction]:
        """``{message type: exact size}``."""
        return self.operation.message_sizes

    def transfer_time(self, from_name: str, to_name: str, msg_type: MessageType) -> Fraction:
        """Exact time to send one message of ``msg_type`` on link from -> to (cost × size).

        Raises
        ------
        InputError
            If there is no such link or message type.
        """
        sizes = self.message_sizes
        if msg_type not in sizes:
            raise InputError(f"unknown message type {msg_type!r} for this {self.kind}")
        return self.platform.link_cost(from_name, to_name) * sizes[msg_type]

    def task_time(self, processor_name: str, task: Task) -> Fraction:
        """Exact time processor ``processor_name`` takes for task T(k,l,m) (reduce only).

        Raises
        ------
        InputError
            For a scatter or gather, an unknown processor or a task outside the reduce.
        """
        return self.operation.task_cost(self.platform, processor_name, task)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary (exact numbers as ``"p/q"`` strings).

        Keys: ``status``, ``message``, ``success``, ``warnings``, ``kind``,
        ``throughput`` (null
        without an optimum), ``throughput_exact``, ``certified``, the roles
        (``source``/``targets``, ``sources``/``target`` or ``participants``/``target``),
        ``sizes`` (scatter and gather: per process), ``bottlenecks``, ``flows``,
        ``tasks``, ``port_utilisation``, ``compute_utilisation``, ``num_variables``,
        ``num_constraints`` and ``timings``.
        """
        exact = self.certified
        flows = self.flows_exact if exact else self.flows
        tasks = self.tasks_exact if exact else self.tasks
        data: dict[str, Any] = {
            "status": self.status, "message": self.message, "success": self.success,
            "warnings": self.warnings, "kind": self.kind,
            **exact_pair("throughput", self.throughput_exact if exact else self.throughput),
            "certified": exact,
            **self.operation.role_dict(),
        }
        if not self.operation.has_tasks:
            data["sizes"] = {name: fraction_str(size) for name, size in self.operation.sizes}
        data["bottlenecks"] = to_jsonable(self.bottlenecks)
        data["flows"] = [{"from": a, "to": b, "type": list(t) if isinstance(t, tuple) else t,
                          "rate": float(v), "rate_exact": fraction_str(v) if exact else None}
                         for (a, b, t), v in (flows or {}).items()]
        data["tasks"] = [{"processor": p, "task": list(t), "rate": float(v),
                          "rate_exact": fraction_str(v) if exact else None}
                         for (p, t), v in (tasks or {}).items()]
        data["port_utilisation"] = self.port_utilisation
        data["compute_utilisation"] = self.compute_utilisation
        data["num_variables"] = self.num_variables
        data["num_constraints"] = self.num_constraints
        data["timings"] = self.timings
        return data

    def as_dict(self) -> dict[str, Any]:
        """Alias of :meth:`to_dict` (the name before the common result contract)."""
        return self.to_dict()

    def summary(self) -> str:
        """A few human-readable lines: throughput, certification, top bottlenecks."""
        if not self.success:
            return f"{self.kind}: no optimum ({self.message})"
        if self.certified:
            tp = f"{number_text(self.throughput_exact)} operations per time unit (certified exact)"
        else:
            tp = (f"≈ {approx_str(self.throughput)} operations per time unit (not certified: "
                  f"{self.message})")
        lines = [f"{self.kind} throughput TP = {tp}"]
        for b in self.bottlenecks[:5]:
            lines.append(f"  bottleneck {b['resource']}: dual {b['dual']:.4g} "
                         f"({100 * b['share']:.1f}% of TP), busy {100 * b['utilisation']:.1f}%")
        return "\n".join(lines)




#: The message of an optimum whose certification was not asked for (no warning then).
_NOT_CERTIFIED = "optimal (floating point; certification not requested)"


def _check_coefficients(model: SparseLP, platform: Platform) -> None:
    """InputError naming the cheapest and dearest costs when HiGHS would refuse the LP.

    The LP is solved on scaled coefficients (:mod:`hetcoll.lp.highs`), so only the
    *span* of costs x sizes matters: HiGHS takes at most 1e15 either side of 1.
    """
    data = np.abs(model.matrix.data[model.matrix.indices < model.n_capacity])
    data = data[data > 0]
    if not data.size:
        return
    orders = math.log10(data.max()) - math.log10(data.min())
    if orders < 2 * math.log10(HIGHS_LARGE_COEFFICIENT):
        return
    costs = [(link.comm, f"link {link.source}->{link.target}") for link in platform.links]
    costs += [(proc.comp, f"processor {proc.name}") for proc in platform.processors]
    (low, cheapest), (high, dearest) = (min(costs, key=lambda item: item[0]),
                                        max(costs, key=lambda item: item[0]))
    raise InputError(
        f"costs x sizes span {orders:.0f} orders of magnitude, beyond what HiGHS can "
        f"solve (at most 30): the cheapest cost is {cheapest}'s, {float(low):.3g}, the "
        f"dearest {dearest}'s, {float(high):.3g}")


def _status_array(statuses) -> np.ndarray:
    return np.fromiter((int(s) for s in statuses), dtype=np.int64, count=len(statuses))


# When a basis fails the exact checks (floating-point tolerances let a slightly
# infeasible or non-optimal basis pass), simplex re-solves from it with the tightest
# tolerances HiGHS accepts, first dual then primal.  Exact pivots repair a basis that is
# only slightly suboptimal; they are costly, so the early attempts get a small budget.
_ATTEMPTS = (
    (None, 25),
    ({"solver": "simplex", "simplex_strategy": 1, "primal_feasibility_tolerance": 1e-10,
      "dual_feasibility_tolerance": 1e-10}, 25),
    ({"solver": "simplex", "simplex_strategy": 4}, 1000),
)


def _certify(highs: highspy.Highs, model: SparseLP, progress: bool):
    """Certify the basis HiGHS holds, re-solving with tighter settings if it fails."""
    failures = []
    for options, max_pivots in _ATTEMPTS:
        if options is not None:
            for key, value in options.items():
                highs.setOptionValue(key, value)
            rerun(highs, progress=progress)  # warm start from the current basis
            if highs.getModelStatus() != highspy.HighsModelStatus.kOptimal:
                continue
        basis = highs.getBasis()
        try:
            if not basis.valid:
                raise CertificationError("HiGHS returned no valid basis")
            certificate = certify_basis(model, _status_array(basis.col_status),
                                        _status_array(basis.row_status),
                                        max_pivots=max_pivots)
        except CertificationError as error:
            failures.append(str(error))
            continue
        notes = ([f"{len(failures)} re-solve(s)"] if failures else []) + (
            [f"{certificate.pivots} exact pivot(s)"] if certificate.pivots else [])
        note = f" (after {', '.join(notes)})" if notes else ""
        return certificate, f"optimal; certified in exact rational arithmetic{note}"
    return None, ("optimal in floating point; exact certification failed: "
                  + "; then ".join(dict.fromkeys(failures)))


def _dense(values: Mapping[int, Fraction], size: int) -> np.ndarray:
    out = np.zeros(size)
    for i, v in values.items():
        out[i] = float(v)
    return out


def _by_variable(model: SparseLP, platform: Platform, type_names: list[MessageType],
                 tasks: list[Task], values: Mapping[int, Any]) -> tuple[dict, dict]:
    """Split non-zero column values into flows and task rates keyed by names."""
    flows, task_rates = {}, {}
    for j, value in sorted(values.items()):
        if j == 0:  # TP
            continue
        if j <= model.n_send:
            link = platform.links[model.send_edge[j - 1]]
            flows[link.source, link.target, type_names[model.send_type[j - 1]]] = value
        else:
            t = j - 1 - model.n_send
            task_rates[platform.names[model.task_node[t]], tasks[model.task_index[t]]] = value
    return flows, task_rates


def _run(model: SparseLP, platform: Platform, operation: Operation,
         type_names: list[MessageType], tasks: list[Task], certify: bool, solver_options,
         build_time: float, max_variables: int | None, progress: bool) -> SteadyStateResult:
    check_lp_size(model, max_variables)
    _check_coefficients(model, platform)
    start = time.perf_counter()
    solved = solve_sparse_lp(model, solver_options, progress=progress)
    highs = solved.highs
    solve_time = time.perf_counter() - start
    timings = {"build": build_time, "solve": solve_time, "certify": 0.0}
    names = platform.names
    n_rows, n_cols = model.shape
    common = dict(operation=operation, platform=platform, num_variables=n_cols,
                  num_constraints=n_rows, timings=timings)
    model_status = highs.getModelStatus()
    if model_status != highspy.HighsModelStatus.kOptimal:
        return SteadyStateResult(
            status=2, message=f"HiGHS: {highs.modelStatusToString(model_status)}",
            throughput=float("nan"), throughput_exact=None, certified=False,
            flows={}, flows_exact=None, tasks={}, tasks_exact=None, port_utilisation={},
            compute_utilisation={}, bottlenecks=[], **common)

    solution = highs.getSolution()
    # HiGHS solved the scaled LP: x / scale, the same capacity-row activities, and
    # duals / scale (the duals add up to TP).
    x = np.asarray(solution.col_value) * solved.scale
    activity = np.asarray(solution.row_value)[:model.n_capacity]
    dual = np.asarray(solution.row_dual)[:model.n_capacity] * solved.scale
    certificate, message = None, _NOT_CERTIFIED
    if certify:
        start = time.perf_counter()
        certificate, message = _certify(highs, model, progress)
        timings["certify"] = time.perf_counter() - start

    if certificate is not None:
        flows_exact, tasks_exact = _by_variable(model, platform, type_names, tasks,
                                                certificate.x)
        values = {j: float(v) for j, v in certificate.x.items()}
        activity = _dense(certificate.row_activity, model.n_capacity)
        dual_exact = {i: v for i, v in certificate.y.items() if i < model.n_capacity}
        dual = _dense(dual_exact, model.n_capacity)
        throughput = float(certificate.objective)
    else:
        flows_exact = tasks_exact = dual_exact = None
        values = {int(j): float(x[j]) for j in np.flatnonzero(x > _FLOAT_ZERO)}
        throughput = float(x[0])
    flows, task_rates = _by_variable(model, platform, type_names, tasks, values)

    port_utilisation = {name: {"out": 0.0, "in": 0.0} for name in names}
    compute_utilisation = {name: 0.0 for name in names} if operation.has_tasks else {}
    bottlenecks = []
    for row in range(model.n_capacity):
        resource = _CAPACITY_KINDS[model.capacity_kind[row]]
        name = names[model.capacity_node[row]]
        use = float(activity[row])
        if resource == "compute":
            compute_utilisation[name] = use
        else:
            port_utilisation[name][_PORT_KEYS[resource]] = use
        # Certified: the exact dual decides (a tiny positive dual is still a
        # bottleneck, so the duals add up to TP exactly); else the float one.
        if (dual_exact.get(row, 0) > 0 if dual_exact is not None
                else dual[row] > _FLOAT_ZERO):
            bottlenecks.append({
                "resource": f"{resource} of {name}", "processor": name, "kind": resource,
                "dual": float(dual[row]),
                "dual_exact": dual_exact.get(row) if dual_exact is not None else None,
                "share": float(dual[row]) / throughput if throughput > 0 else 0.0,
                "utilisation": use,
            })
    bottlenecks.sort(key=lambda b: (-b["dual"], b["resource"]))
    certified = certificate is not None
    return SteadyStateResult(
        status=0 if certified else 1, message=message,
        throughput=throughput,
        throughput_exact=certificate.objective if certified else None,
        certified=certified,
        flows=flows, flows_exact=flows_exact, tasks=task_rates, tasks_exact=tasks_exact,
        port_utilisation=port_utilisation, compute_utilisation=compute_utilisation,
        bottlenecks=bottlenecks, **common)


def steady_state_lp(
    platform: Platform,
    operation: Operation,
    *,
    certify: bool = True,
    solver_options: Mapping[str, Any] | None = None,
    max_variables: int | None = MAX_LP_VARIABLES,
    progress: bool = False,
) -> SteadyStateResult:
    """Optimal steady-state throughput of a series of ``operation``, solved and certified.

    The generic entry point: the operation (:class:`~hetcoll.lp.Scatter`,
    :class:`~hetcoll.lp.Gather` or :class:`~hetcoll.lp.Reduce`) validates its roles on
    the platform and builds its LP; HiGHS solves it and the optimum is certified in
    exact rational arithmetic.

    Parameters
    ----------
    platform : Platform
    operation : Scatter, Gather or Reduce
    certify : bool
        Recover the exact optimum from the simplex basis and verify it (default True).
    solver_options : mapping, optional
        HiGHS options over the defaults (interior point + crossover), e.g.
        ``{"time_limit": 10.0}`` (seconds; then status 2, "Time limit reached") or
        ``{"output_flag": True}`` (HiGHS's log, on standard error).
    max_variables : int or None, default MAX_LP_VARIABLES
        Size guard: an LP with more variables is refused before the solve (None: none).
    progress : bool
        Show the time elapsed in the HiGHS solve on standard error (a tqdm bar).

    Returns
    -------
    SteadyStateResult

    Raises
    ------
    InputError
        As the operation's roles and sizes demand (see
        :func:`steady_state_scatter_lp`, :func:`steady_state_gather_lp`,
        :func:`steady_state_reduce_lp`).
    LimitError
        If the LP has more than ``max_variables`` variables.
    KeyboardInterrupt
        Within 0.1 s of Ctrl-C, even during the solve (:mod:`hetcoll.lp.highs`).

    Examples
    --------
    >>> from hetcoll.lp import Gather, read_platform
    >>> p = read_platform("examples/two_processor.json")
    >>> steady_state_lp(p, Gather(["P1"], "P0", {"P1": "1/2"})).throughput_exact
    Fraction(2, 1)

    References
    ----------
    A. Legrand, L. Marchal, Y. Robert, JPDC 65(12), 2005 (SSSP, SSRP); NOTES.md §1.
    """
    if not isinstance(operation, Scatter | Gather | Reduce):
        raise InputError(f"operation must be a Scatter, Gather or Reduce, got "
                         f"{type(operation).__name__}")
    start = time.perf_counter()
    if isinstance(operation, Reduce):
        operation = operation.with_exact_task_costs(platform)
    model, type_names, tasks = operation.build(platform)
    build_time = time.perf_counter() - start
    return _run(model, platform, operation, type_names, tasks, certify, solver_options,
                build_time, max_variables, progress)


def steady_state_scatter_lp(
    platform: Platform,
    source: str,
    targets: Sequence[str],
    *,
    message_sizes: Mapping[str, object] | Callable[[str], object] | None = None,
    certify: bool = True,
    solver_options: Mapping[str, Any] | None = None,
    max_variables: int | None = MAX_LP_VARIABLES,
) -> SteadyStateResult:
    """Optimal throughput of a series of scatters: the LP SSSP(G), solved and certified.

    The source sends a distinct message m_k to every target P_k, over and over; TP is
    the number of complete scatters per time unit in steady state, under the
    full-duplex one-port model.  Same as ``steady_state_lp(platform, Scatter(source,
    targets, message_sizes))``.

    Parameters
    ----------
    platform : Platform
    source : str
        Processor sending the messages.
    targets : sequence of str
        Distinct processors, other than the source, each receiving its own message.
    message_sizes : mapping or callable, optional
        Size of m_k per target name (default 1, also for targets the mapping does not
        name); sending m_k on link i -> j takes ``size(m_k) × c(i, j)``.
    certify : bool
        Recover the exact optimum from the simplex basis and verify it (default True).
    solver_options : mapping, optional
        HiGHS options over the defaults (interior point + crossover), e.g.
        ``{"time_limit": 10.0}`` (seconds; then status 2, "Time limit reached") or
        ``{"output_flag": True}`` (HiGHS's log, on standard error).
    max_variables : int or None, default MAX_LP_VARIABLES
        Size guard: an LP with more variables is refused before the solve (None: none).

    Returns
    -------
    SteadyStateResult
        ``flows`` keys are ``(from, to, target_name)``.

    Raises
    ------
    InputError
        If the source or a target is unknown, targets are empty or repeated, the
        source is a target, a target cannot be reached from the source, or a message
        size is invalid or names a process that is not a target.
    LimitError
        If the LP has more than ``max_variables`` variables.
    KeyboardInterrupt
        Within 0.1 s of Ctrl-C, even during the solve (:mod:`hetcoll.lp.highs`).

    Notes
    -----
    The slides' SSSP (LMR, slide "Throughput and Linear Program") has two holes,
    closed here as NOTES.md section 1 fixes: the source is exempt from conservation
    (read literally the slide forces its output to zero), and TP is the *net* inflow
    at each target (with gross inflow a message cycling through a cheap neighbour of
    its target inflates TP: see the counter-example in ``examples/``).

    Examples
    --------
    >>> from hetcoll.lp import platform_from_dict
    >>> p = platform_from_dict({"processors": [{"name": n, "compute": 1} for n in "SAB"],
    ...     "links": [{"from": "S", "to": "A", "cost": 1}, {"from": "S", "to": "B", "cost": 1}]})
    >>> steady_state_scatter_lp(p, "S", ["A", "B"]).throughput_exact
    Fraction(1, 2)

    References
    ----------
    A. Legrand, L. Marchal, Y. Robert, "Optimizing the steady-state throughput of
    scatter and reduce operations on heterogeneous platforms", JPDC 65(12), 2005;
    slides "Series of Scatter", LP SSSP(G).  NOTES.md section 1.
    """
    return steady_state_lp(platform, Scatter(source, targets, message_sizes), certify=certify,
                           solver_options=solver_options, max_variables=max_variables)


def steady_state_gather_lp(
    platform: Platform,
    sources: Sequence[str],
    target: str,
    *,
    message_sizes: Mapping[str, object] | Callable[[str], object] | None = None,
    certify: bool = True,
    solver_options: Mapping[str, Any] | None = None,
    max_variables: int | None = MAX_LP_VARIABLES,
) -> SteadyStateResult:
    """Optimal throughput of a series of gathers: the LP SSGP(G), solved and certified.

    Every source P_k sends its own message m_k to the target, over and over; TP is the
    number of complete gathers per time unit in steady state (full-duplex one-port).
    SSGP is SSSP with the roles turned round, built by the same builder
    (:func:`hetcoll.lp.model.build_flow_lp`): m_k is exempt from conservation at P_k,
    and TP is the net inflow of every m_k at the target.  On the reversed platform
    (every link turned round) with the target as source, the scatter LP has the same
    optimum.  Same as ``steady_state_lp(platform, Gather(sources, target,
    message_sizes))``.

    Parameters
    ----------
    platform : Platform
    sources : sequence of str
        Distinct processors, other than the target, each sending its own message.
    target : str
    message_sizes : mapping or callable, optional
        Size of m_k per source name (default 1, also for unnamed sources).
    certify : bool
        Recover the exact optimum from the simplex basis and verify it (default True).
    solver_options : mapping, optional
        HiGHS options, as in :func:`steady_state_scatter_lp`.
    max_variables : int or None, default MAX_LP_VARIABLES
        Size guard, as in :func:`steady_state_scatter_lp`.

    Returns
    -------
    SteadyStateResult
        ``flows`` keys are ``(from, to, source_name)``.

    Raises
    ------
    InputError
        If a source or the target is unknown, sources are empty or repeated, the target
        is a source, a source cannot reach the target, or a message size is invalid or
        names a process that is not a source.
    LimitError, KeyboardInterrupt
        As :func:`steady_state_scatter_lp`.

    Examples
    --------
    Two sources sharing the target's in-port, one with a message of size 1/2:
    TP (1 + 1/2) = 1.

    >>> from hetcoll.lp import platform_from_dict
    >>> p = platform_from_dict({"processors": [{"name": n, "compute": 1} for n in "TAB"],
    ...     "links": [{"from": "A", "to": "T", "cost": 1}, {"from": "B", "to": "T", "cost": 1}]})
    >>> steady_state_gather_lp(p, ["A", "B"], "T", message_sizes={"B": "1/2"}).throughput_exact
    Fraction(2, 3)

    References
    ----------
    A. Legrand, L. Marchal, Y. Robert, JPDC 65(12), 2005 (SSSP, whose roles a gather
    turns round); Dichev, Rychkov, Lastovetsky (irregular gathers, per-process sizes);
    hetcoll issue 12.
    """
    return steady_state_lp(platform, Gather(sources, target, message_sizes), certify=certify,
                           solver_options=solver_options, max_variables=max_variables)


def steady_state_reduce_lp(
    platform: Platform,
    participants: Sequence[str],
    target: str,
    *,
    interval_sizes: Mapping[tuple[int, int], object] | Callable[[tuple[int, int]], object]
    | None = None,
    task_costs: Mapping[tuple[str, Task], object] | Callable[[str, Task], object]
    | None = None,
    certify: bool = True,
    solver_options: Mapping[str, Any] | None = None,
    max_variables: int | None = MAX_LP_VARIABLES,
) -> SteadyStateResult:
    """Optimal throughput of a series of reduces: the LP SSRP(G), solved and certified.

    Participant ``participants[k]`` owns v_k; the target needs v_0 ⊕ v_1 ⊕ ... ⊕ v_N
    for an associative, non-commutative ⊕.  Any processor may relay partial values
    v[k,m] or compute tasks T(k,l,m): v[k,m] = v[k,l] ⊕ v[l+1,m].  TP is the number of
    complete reductions per time unit in steady state (full-duplex one-port model,
    computation overlapping communication).  Same as ``steady_state_lp(platform,
    Reduce(participants, target, interval_sizes, task_costs))``.

    Parameters
    ----------
    platform : Platform
    participants : sequence of str
        At least two distinct processors, in operand order.
    target : str
        Processor that receives the result (a participant or not).
    interval_sizes : mapping or callable, optional
        ``size(v[k,m])`` per interval ``(k, m)`` (default 1).
    task_costs : mapping or callable, optional
        ``w(P_i, T(k,l,m))`` keyed ``(processor_name, (k, l, m))`` (default: the
        processor's compute cost).  A callable receives ``(name, (k, l, m))``.
    certify : bool
        Recover the exact optimum from the simplex basis and verify it (default True).
    solver_options : mapping, optional
        HiGHS options, as in :func:`steady_state_scatter_lp`.
    max_variables : int or None, default MAX_LP_VARIABLES
        Size guard, as in :func:`steady_state_scatter_lp`.

    Returns
    -------
    SteadyStateResult
        ``flows`` keys are ``(from, to, (k, m))``; ``tasks`` keys ``(name, (k, l, m))``.

    Raises
    ------
    InputError
        Unknown, repeated or fewer than two participants, unknown target, a participant
        that cannot reach the target, or an invalid size or task cost.
    LimitError, KeyboardInterrupt
        As :func:`steady_state_scatter_lp`.

    Notes
    -----
    Conservation is waived for v[k,k] at its owner and for v[0,N] at the target, where
    TP = received v[0,N] + computed v[0,N] and v[0,N] is never sent on (NOTES.md
    section 1; with gross inflow the LP gives 1 instead of 1/2 on the counter-example
    in ``examples/``).  The slides' TP line (LMR, "definition of the throughput") has
    two typos: it reads v[0,m] for v[0,N] and sums over ``0 <= l < N-1`` where every
    T(0,l,N), ``0 <= l < N``, counts.

    Examples
    --------
    The hand-checked case of NOTES.md section 1 (TP = 1):

    >>> from hetcoll.lp import platform_from_dict
    >>> p = platform_from_dict({"processors": [{"name": "P0", "compute": 3},
    ...                                        {"name": "P1", "compute": "3/2"}],
    ...     "links": [{"from": "P0", "to": "P1", "cost": 1, "bidirectional": True}]})
    >>> steady_state_reduce_lp(p, ["P0", "P1"], "P0").throughput_exact
    Fraction(1, 1)

    References
    ----------
    A. Legrand, L. Marchal, Y. Robert, JPDC 65(12), 2005; slides "Series of Reduce",
    LP SSRP(G).  NOTES.md section 1.
    """
    return steady_state_lp(platform, Reduce(participants, target, interval_sizes, task_costs),
                           certify=certify, solver_options=solver_options,
                           max_variables=max_variables)
