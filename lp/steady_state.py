"""Optimal steady-state throughput of series of scatters (SSSP) and reduces (SSRP)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import highspy
import numpy as np

from hetcoll.core.errors import InputError
from hetcoll.core.numbers import fraction_str, positive_fraction
from hetcoll.core.platform import Platform, check_reduce_roles, check_scatter_roles
from hetcoll.lp.certify import CertificationError, certify_basis
from hetcoll.lp.highs import (
    HIGHS_LARGE_COEFFICIENT,
    MAX_LP_VARIABLES,
    check_lp_size,
    rerun,
    solve_sparse_lp,
)
from hetcoll.lp.model import (
    SparseLP,
    build_reduce_lp,
    build_scatter_lp,
    reduce_intervals,
    reduce_tasks,
)

__all__ = ["SteadyStateResult", "steady_state_reduce_lp", "steady_state_scatter_lp"]

# Values HiGHS reports below this are floating-point noise, not flows.
_FLOAT_ZERO = 1e-12
_CAPACITY_KINDS = ("out-port", "in-port", "compute")
_PORT_KEYS = {"out-port": "out", "in-port": "in"}

MessageType = str | tuple[int, int]
Task = tuple[int, int, int]


@dataclass
class SteadyStateResult:
    """Outcome of :func:`steady_state_scatter_lp` or :func:`steady_state_reduce_lp`.

    In the style of :class:`scipy.optimize.OptimizeResult`.

    Attributes
    ----------
    status : int
        0: optimal and exactly certified; 1: optimal in floating point only (certification
        off or failed, see ``message``); 2: HiGHS did not find an optimum.
    message : str
    success : bool
        ``status in (0, 1)``.
    kind : {"scatter", "reduce"}
    platform : Platform
    source, targets : str, tuple of str
        Scatter only (None otherwise).
    participants, target : tuple of str, str
        Reduce only (None otherwise); participants in operand order v_0 .. v_N.
    throughput : float
        TP, operations completed per time unit.
    throughput_exact : Fraction or None
        TP exactly, when ``certified``.
    certified : bool
        True when the optimum was verified in exact arithmetic (primal feasibility,
        dual feasibility, equal objectives).
    flows, flows_exact : dict
        ``{(from_name, to_name, msg_type): rate}``, non-zero entries only; ``msg_type``
        is the target's name (scatter) or the interval ``(k, m)`` (reduce).
        ``flows_exact`` holds Fractions, or is None when not certified.
    tasks, tasks_exact : dict
        ``{(processor_name, (k, l, m)): rate}`` of tasks T(k,l,m); empty for a scatter.
    port_utilisation : dict
        ``{name: {"out": fraction of time sending, "in": fraction of time receiving}}``.
    compute_utilisation : dict
        ``{name: alpha(P_i)}`` (reduce; empty for a scatter).
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
    """

    status: int
    message: str
    success: bool
    kind: str
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
    source: str | None = None
    targets: tuple[str, ...] | None = None
    participants: tuple[str, ...] | None = None
    target: str | None = None
    message_sizes: dict[MessageType, Fraction] = field(default_factory=dict, repr=False)
    _task_cost: Callable[[str, Task], Fraction] | None = field(default=None, repr=False)

    def transfer_time(self, from_name: str, to_name: str, msg_type: MessageType) -> Fraction:
        """Exact time to send one message of ``msg_type`` on link from -> to (cost × size).

        Raises
        ------
        InputError
            If there is no such link or message type.
        """
        if msg_type not in self.message_sizes:
            raise InputError(f"unknown message type {msg_type!r} for this {self.kind}")
        return self.platform.link_cost(from_name, to_name) * self.message_sizes[msg_type]

    def task_time(self, processor_name: str, task: Task) -> Fraction:
        """Exact time processor ``processor_name`` takes for task T(k,l,m) (reduce only).

        Raises
        ------
        InputError
            For a scatter, an unknown processor or a task outside the reduce.
        """
        if self._task_cost is None:
            raise InputError("a scatter has no computation tasks")
        self.platform.require(processor_name, "processor")
        k, split, m = task
        n = len(self.participants or ())
        if not 0 <= k <= split < m < n:
            raise InputError(f"task {task!r} is not a T(k,l,m) with 0 <= k <= l < m <= {n - 1}")
        return self._task_cost(processor_name, (k, split, m))

    def as_dict(self) -> dict[str, Any]:
        """Plain, JSON-ready summary (Fractions as Fractions; see ``to_jsonable``)."""
        flows = self.flows_exact if self.certified else self.flows
        data: dict[str, Any] = {
            "status": self.status, "message": self.message, "success": self.success,
            "kind": self.kind,
            # NaN (no optimum) is not JSON: null.
            "throughput": None if self.throughput != self.throughput else self.throughput,
            "throughput_exact": (fraction_str(self.throughput_exact)
                                 if self.throughput_exact is not None else None),
            "certified": self.certified,
        }
        if self.kind == "scatter":
            data |= {"source": self.source, "targets": list(self.targets or ())}
        else:
            data |= {"participants": list(self.participants or ()), "target": self.target}
        data["bottlenecks"] = self.bottlenecks
        data["flows"] = [{"from": a, "to": b, "type": list(t) if isinstance(t, tuple) else t,
                          "rate": float(v), "rate_exact": v if self.certified else None}
                         for (a, b, t), v in (flows or {}).items()]
        tasks = self.tasks_exact if self.certified else self.tasks
        data["tasks"] = [{"processor": p, "task": list(t), "rate": float(v),
                          "rate_exact": v if self.certified else None}
                         for (p, t), v in (tasks or {}).items()]
        data["port_utilisation"] = self.port_utilisation
        data["compute_utilisation"] = self.compute_utilisation
        data["num_variables"] = self.num_variables
        data["num_constraints"] = self.num_constraints
        data["timings"] = self.timings
        return data

    def summary(self) -> str:
        """A few human-readable lines: throughput, certification, top bottlenecks."""
        if not self.success:
            return f"{self.kind}: no optimum ({self.message})"
        tp = (f"{fraction_str(self.throughput_exact)} (certified exact, "
              f"≈ {self.throughput:.6g})" if self.certified
              else f"≈ {self.throughput:.6g} (not certified: {self.message})")
        lines = [f"{self.kind} throughput TP = {tp} operations per time unit"]
        for b in self.bottlenecks[:5]:
            lines.append(f"  bottleneck {b['resource']}: dual {b['dual']:.4g} "
                         f"({100 * b['share']:.1f}% of TP), busy {100 * b['utilisation']:.1f}%")
        return "\n".join(lines)


def _sizes(values: object, types: Sequence[MessageType], what: str) -> list[Fraction]:
    """Exact size of every message type; ``values`` is None, a mapping or a callable."""
    if values is None:
        return [Fraction(1)] * len(types)
    if callable(values):
        return [positive_fraction(values(t), f"{what} of {t!r}") for t in types]
    if not isinstance(values, Mapping):
        raise InputError(f"{what} must be a mapping or a callable, got {type(values).__name__}")
    known = set(types)
    for key in values:
        normal = tuple(key) if isinstance(key, list) else key
        if normal not in known:
            raise InputError(f"{what} names unknown message type {key!r}")
    normalised = {tuple(k) if isinstance(k, list) else k: v for k, v in values.items()}
    return [positive_fraction(normalised[t], f"{what} of {t!r}") if t in normalised
            else Fraction(1) for t in types]


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


def _certify(highs: highspy.Highs, model: SparseLP):
    """Certify the basis HiGHS holds, re-solving with tighter settings if it fails."""
    failures = []
    for options, max_pivots in _ATTEMPTS:
        if options is not None:
            for key, value in options.items():
                highs.setOptionValue(key, value)
            rerun(highs)  # warm start from the current basis
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


def _run(model: SparseLP, platform: Platform, kind: str, type_names: list[MessageType],
         tasks: list[Task], certify: bool, solver_options, build_time: float,
         scenario: dict[str, Any], task_cost, max_variables: int | None
         ) -> SteadyStateResult:
    check_lp_size(model, max_variables)
    _check_coefficients(model, platform)
    start = time.perf_counter()
    solved = solve_sparse_lp(model, solver_options)
    highs = solved.highs
    solve_time = time.perf_counter() - start
    timings = {"build": build_time, "solve": solve_time, "certify": 0.0}
    names = platform.names
    n_rows, n_cols = model.shape
    common = dict(kind=kind, platform=platform, num_variables=n_cols, num_constraints=n_rows,
                  timings=timings,
                  message_sizes=dict(zip(type_names, model.type_size, strict=True)),
                  _task_cost=task_cost, **scenario)
    model_status = highs.getModelStatus()
    if model_status != highspy.HighsModelStatus.kOptimal:
        return SteadyStateResult(
            status=2, message=f"HiGHS: {highs.modelStatusToString(model_status)}",
            success=False, throughput=float("nan"), throughput_exact=None, certified=False,
            flows={}, flows_exact=None, tasks={}, tasks_exact=None, port_utilisation={},
            compute_utilisation={}, bottlenecks=[], **common)

    solution = highs.getSolution()
    # HiGHS solved the scaled LP: x / scale, the same capacity-row activities, and
    # duals / scale (the duals add up to TP).
    x = np.asarray(solution.col_value) * solved.scale
    activity = np.asarray(solution.row_value)[:model.n_capacity]
    dual = np.asarray(solution.row_dual)[:model.n_capacity] * solved.scale
    certificate, message = None, "optimal (floating point; certification not requested)"
    if certify:
        start = time.perf_counter()
        certificate, message = _certify(highs, model)
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
    compute_utilisation = {name: 0.0 for name in names} if kind == "reduce" else {}
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
        status=0 if certified else 1, message=message, success=True,
        throughput=throughput,
        throughput_exact=certificate.objective if certified else None,
        certified=certified,
        flows=flows, flows_exact=flows_exact, tasks=task_rates, tasks_exact=tasks_exact,
        port_utilisation=port_utilisation, compute_utilisation=compute_utilisation,
        bottlenecks=bottlenecks, **common)


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
    full-duplex one-port model.

    Parameters
    ----------
    platform : Platform
    source : str
        Processor sending the messages.
    targets : sequence of str
        Distinct processors, other than the source, each receiving its own message.
    message_sizes : mapping or callable, optional
        Size of m_k per target name (default 1); sending m_k on link i -> j takes
        ``size(m_k) × c(i, j)``.
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
        size is invalid.
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
    start = time.perf_counter()
    source_index, target_index = check_scatter_roles(platform, source, targets)
    type_names: list[MessageType] = list(targets)
    sizes = _sizes(message_sizes, type_names, "message size")
    model = build_scatter_lp(platform, source_index, np.array(target_index), sizes)
    build_time = time.perf_counter() - start
    return _run(model, platform, "scatter", type_names, [], certify, solver_options,
                build_time, {"source": source, "targets": tuple(targets)}, None,
                max_variables)


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
    computation overlapping communication).

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
    start = time.perf_counter()
    owners, target_index = check_reduce_roles(platform, participants, target)
    n_values = len(owners)
    intervals = reduce_intervals(n_values)
    tasks = reduce_tasks(n_values)
    sizes = _sizes(interval_sizes, intervals, "interval size")
    names = platform.names
    task_cost = _task_cost_function(platform, task_costs, n_values)
    model = build_reduce_lp(
        platform, np.array(owners), target_index, sizes,
        lambda i, t: task_cost(names[i], tasks[t]), default_weights=task_costs is None)
    build_time = time.perf_counter() - start
    return _run(model, platform, "reduce", list(intervals), tasks, certify, solver_options,
                build_time, {"participants": tuple(participants), "target": target},
                task_cost, max_variables)


def _task_cost_function(platform: Platform, task_costs, n_values: int):
    """Exact ``w(name, (k, l, m))`` from the user's mapping or callable."""
    if task_costs is None:
        return lambda name, task: platform.compute_cost(name)
    if callable(task_costs):
        def from_callable(name: str, task: Task) -> Fraction:
            return positive_fraction(task_costs(name, task), f"task cost of T{task} on {name}")
        return from_callable
    if not isinstance(task_costs, Mapping):
        raise InputError("task_costs must be a mapping or a callable")
    costs = {}
    for key, value in task_costs.items():
        try:
            name, (k, split, m) = key
        except (TypeError, ValueError):
            raise InputError(f"task_costs key {key!r} is not (processor, (k, l, m))") from None
        platform.require(name, "task_costs processor")
        if not 0 <= k <= split < m < n_values:
            raise InputError(f"task_costs key {key!r}: no task T({k},{split},{m}) in this reduce")
        costs[(name, (k, split, m))] = positive_fraction(
            value, f"task cost of T({k},{split},{m}) on {name}")
    return lambda name, task: costs.get((name, task), platform.compute_cost(name))
