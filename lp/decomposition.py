"""Exact decomposition of steady-state LP solutions into weighted trees and paths.

A solution of SSRP (series of reduces) is a flow of partial values
``v[k,m]`` along links plus task rates; a solution of SSSP (series of
scatters) is one flow per message type.  Legrand, Marchal and Robert turn
such a solution into a weighted set of reduction trees (or of source-to-target
paths) whose weighted sum is the solution; these objects are what a periodic
schedule repeats.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import networkx as nx

from hetcoll.core.errors import InputError
from hetcoll.core.numbers import fraction_str, to_fraction

__all__ = [
    "GatherPath",
    "ReductionTree",
    "ScatterPath",
    "Task",
    "Transfer",
    "cancel_flow_cycles",
    "decompose_gather_flows",
    "decompose_reduce_flows",
    "decompose_scatter_flows",
    "validate_gather_path",
    "validate_reduction_tree",
    "validate_scatter_path",
]

Interval = tuple[int, int]
TaskKey = tuple[int, int, int]


@dataclass(frozen=True)
class Transfer:
    """One message on one link: ``sender -> receiver`` carrying ``value``.

    ``value`` is an interval ``(k, m)`` (the partial value v[k,m]) for a
    reduce, and the name of the target whose message it is for a scatter.
    """

    sender: str
    receiver: str
    value: Hashable


@dataclass(frozen=True)
class Task:
    """The task T(k,l,m), v[k,m] = v[k,l] ⊕ v[l+1,m], computed on ``processor``."""

    processor: str
    task: TaskKey


@dataclass(frozen=True)
class ReductionTree:
    """A reduction tree used ``weight`` times per time unit.

    Attributes
    ----------
    weight : Fraction
        Uses per time unit (its share of the throughput).
    transfers : tuple of Transfer
        Each value's route, in route order, values in post-order of the tree.
    tasks : tuple of Task
        In post-order (operands before results).
    """

    weight: Fraction
    transfers: tuple[Transfer, ...]
    tasks: tuple[Task, ...]


@dataclass(frozen=True)
class ScatterPath:
    """A route of the message for ``target``, used ``weight`` times per time unit.

    Attributes
    ----------
    weight : Fraction
    target : str
        Whose message the path carries; the path ends there.
    transfers : tuple of Transfer
        In route order, from the source to ``target``.
    """

    weight: Fraction
    target: str
    transfers: tuple[Transfer, ...]

    @property
    def value(self) -> str:
        """The message type the path carries (named by its target)."""
        return self.target

    @property
    def tasks(self) -> tuple[Task, ...]:
        """Scatters compute nothing: always empty (uniform with ReductionTree)."""
        return ()


@dataclass(frozen=True)
class GatherPath:
    """A route of the message of ``source`` to the target, used ``weight`` times per time unit.

    Attributes
    ----------
    weight : Fraction
    source : str
        Whose message the path carries; the path starts there.
    transfers : tuple of Transfer
        In route order, from ``source`` to the gather's target.
    """

    weight: Fraction
    source: str
    transfers: tuple[Transfer, ...]

    @property
    def value(self) -> str:
        """The message type the path carries (named by its source)."""
        return self.source

    @property
    def tasks(self) -> tuple[Task, ...]:
        """Gathers compute nothing: always empty (uniform with ReductionTree)."""
        return ()


def _exact_positive(values: Mapping, what: str) -> dict:
    exact = {}
    for key, value in values.items():
        number = to_fraction(value, f"{what} {key!r}")
        if number < 0:
            raise InputError(f"{what} {key!r} is negative: {fraction_str(number)}")
        if number:
            exact[key] = number
    return exact


def cancel_flow_cycles(
    flows: Mapping[tuple[str, str, Hashable], object],
) -> dict[tuple[str, str, Hashable], Fraction]:
    """Remove every directed cycle of each value type from an exact flow.

    For each value type separately, while the positive links of that type
    contain a directed cycle, subtract the smallest rate on the cycle from
    every link of the cycle.  Conservation is preserved at every node, and
    each cancellation zeroes a link, so there are at most as many rounds as
    non-zeros.  Cycles only waste port time: the throughput is unchanged.

    Parameters
    ----------
    flows : mapping (sender, receiver, value_type) -> rate
        Non-negative exact rates (zeros are dropped).

    Returns
    -------
    dict
        The acyclic flow, non-zero entries only.

    Raises
    ------
    InputError
        If a rate is negative or not a number.

    Examples
    --------
    >>> cancel_flow_cycles({("a", "b", 0): 2, ("b", "a", 0): 1, ("b", "c", 0): 1})
    {('a', 'b', 0): Fraction(1, 1), ('b', 'c', 0): Fraction(1, 1)}

    References
    ----------
    Legrand, Marchal, Robert (2004), "Series of Reduce -- Periodic schedule";
    NOTES.md §1, "From LP to schedule", step 2.
    """
    exact = _exact_positive(flows, "flow")
    by_type: dict[Hashable, nx.DiGraph] = defaultdict(nx.DiGraph)
    for sender, receiver, value in exact:
        if sender == receiver:
            raise InputError(f"flow {(sender, receiver, value)!r} is a self-loop")
        by_type[value].add_edge(sender, receiver)
    for value, graph in by_type.items():
        while True:
            try:
                cycle = nx.find_cycle(graph)
            except nx.NetworkXNoCycle:
                break
            amount = min(exact[u, v, value] for u, v in cycle)
            for u, v in cycle:
                exact[u, v, value] -= amount
                if not exact[u, v, value]:
                    del exact[u, v, value]
                    graph.remove_edge(u, v)
    return exact


class _Residual:
    """Positive residual rates with, per (processor, value), who supplies it."""

    def __init__(self, flows: dict, tasks: dict):
        self.flows = flows
        self.tasks = tasks
        # supply[(processor, value)] -> ordered keys of flows/tasks that bring it there
        self.supply: dict[tuple[str, Hashable], dict] = defaultdict(dict)
        for key in flows:
            sender, receiver, value = key
            self.supply[receiver, value][("flow", key)] = None
        for key in tasks:
            processor, (k, _, m) = key
            self.supply[processor, (k, m)][("task", key)] = None

    def rate(self, item) -> Fraction:
        kind, key = item
        return (self.flows if kind == "flow" else self.tasks)[key]

    def first_supplier(self, processor: str, value: Hashable):
        suppliers = self.supply.get((processor, value))
        if not suppliers:
            return None
        return next(iter(suppliers))

    def subtract(self, items: Iterable, amount: Fraction) -> None:
        for kind, key in items:
            table = self.flows if kind == "flow" else self.tasks
            table[key] -= amount
            if not table[key]:
                del table[key]
                place = (key[1], key[2]) if kind == "flow" else (key[0], key[1][::2])
                del self.supply[place][(kind, key)]


def decompose_reduce_flows(
    flows_exact: Mapping[tuple[str, str, Interval], object],
    tasks_exact: Mapping[tuple[str, TaskKey], object],
    participants: Sequence[str],
    target: str,
) -> list[ReductionTree]:
    """Decompose an exact SSRP solution into weighted reduction trees.

    First the cycles of every interval type are cancelled
    (:func:`cancel_flow_cycles`).  Then, while the target still receives or
    computes v[0,N], one tree is traced backwards from it: a value v[k,m]
    needed on processor P comes from a positive transfer into P or a positive
    task on P producing it, recursively, down to each v_k on its owner.
    Transfer routes are acyclic after cancellation, and tasks strictly shrink
    the intervals, so the trace ends.  The tree gets the smallest residual
    rate among the variables it uses, which is subtracted; that zeroes at
    least one variable, so there are at most as many trees as non-zeros.  The
    traced tree is itself a conserving flow, so the residual remains an SSRP
    solution and the trace never gets stuck.

    Parameters
    ----------
    flows_exact : mapping (sender, receiver, (k, m)) -> rate
        ``s(P_i -> P_j, v[k,m])`` of the LP, exact.
    tasks_exact : mapping (processor, (k, l, m)) -> rate
        ``cons(P_i, T(k,l,m))`` of the LP, exact.
    participants : sequence of str
        Owners of v_0..v_N, in operand order.
    target : str

    Returns
    -------
    list of ReductionTree
        Their weights add up to the throughput, and their weighted sum of
        transfers and tasks equals the cycle-cancelled solution exactly.

    Raises
    ------
    InputError
        If the data are not an SSRP solution: a negative rate, an interval or
        task out of range, a value that cannot be traced back to its owners,
        or rates left over that no tree explains (e.g. a broken conservation).

    Examples
    --------
    The two-processor case of NOTES.md §1 (target P0 owns v_0, P1 owns v_1):

    >>> flows = {("P1", "P0", (1, 1)): "1/3", ("P0", "P1", (0, 0)): "2/3",
    ...          ("P1", "P0", (0, 1)): "2/3"}
    >>> tasks = {("P0", (0, 0, 1)): "1/3", ("P1", (0, 0, 1)): "2/3"}
    >>> sorted(t.weight for t in decompose_reduce_flows(flows, tasks, ["P0", "P1"], "P0"))
    [Fraction(1, 3), Fraction(2, 3)]

    References
    ----------
    Legrand, Marchal, Robert (2004), "Series of Reduce -- Periodic schedule":
    "there exists an algorithm which extracts from the solution a set of
    weighted trees ... polynomial ... equal to the original solution".
    """
    participants = list(participants)
    n_last = len(participants) - 1
    if n_last < 1:
        raise InputError("a reduce needs at least two participants")
    if len(set(participants)) != len(participants):
        raise InputError(f"participants must be distinct, got {participants}")
    for sender, receiver, value in flows_exact:
        if not (isinstance(value, tuple) and len(value) == 2
                and 0 <= value[0] <= value[1] <= n_last):
            raise InputError(f"flow {(sender, receiver, value)!r}: bad interval {value!r}")
    for processor, task in tasks_exact:
        if not (isinstance(task, tuple) and len(task) == 3
                and 0 <= task[0] <= task[1] < task[2] <= n_last):
            raise InputError(f"task {(processor, task)!r}: bad task {task!r}")
    owner = {(k, k): name for k, name in enumerate(participants)}
    residual = _Residual(cancel_flow_cycles(flows_exact), _exact_positive(tasks_exact, "task"))
    root = (0, n_last)
    trees = []
    while residual.first_supplier(target, root) is not None:
        used: list = []
        transfers: list[Transfer] = []
        tasks: list[Task] = []
        _trace_value(residual, owner, root, target, used, transfers, tasks)
        weight = min(residual.rate(item) for item in used)
        residual.subtract(used, weight)
        trees.append(ReductionTree(weight, tuple(transfers), tuple(tasks)))
    _check_empty(residual.flows, residual.tasks)
    return trees


def _trace_value(residual: _Residual, owner: dict, value: Interval, place: str,
                 used: list, transfers: list, tasks: list) -> None:
    """Append to ``used`` the variables that bring ``value`` to ``place``."""
    route: list[Transfer] = []
    while owner.get(value) != place:
        item = residual.first_supplier(place, value)
        if item is None:
            raise InputError(f"v[{value[0]},{value[1]}] reaches {place} but nothing supplies "
                             "it there: the flows break conservation")
        used.append(item)
        kind, key = item
        if kind == "task":
            processor, (k, mid, m) = key
            _trace_value(residual, owner, (k, mid), processor, used, transfers, tasks)
            _trace_value(residual, owner, (mid + 1, m), processor, used, transfers, tasks)
            tasks.append(Task(processor, (k, mid, m)))
            break
        sender, receiver, _ = key
        route.append(Transfer(sender, receiver, value))
        place = sender
    transfers.extend(reversed(route))


def _check_empty(flows: dict, tasks: dict) -> None:
    if flows:
        key, rate = next(iter(flows.items()))
        raise InputError(f"flow {key!r} (rate {fraction_str(rate)}) is in no tree: "
                         "the flows break conservation")
    if tasks:
        key, rate = next(iter(tasks.items()))
        raise InputError(f"task {key!r} (rate {fraction_str(rate)}) is in no tree: "
                         "the task rates break conservation")


def decompose_scatter_flows(
    flows_exact: Mapping[tuple[str, str, str], object],
    source: str,
    targets: Sequence[str],
) -> list[ScatterPath]:
    """Decompose an exact SSSP solution into weighted source-to-target paths.

    Per message type: cancel cycles (:func:`cancel_flow_cycles`), then, while
    the target of the type receives some, walk backwards from it along
    positive links to the source, give the path the smallest rate on it and
    subtract (classic flow decomposition; at most one path per non-zero).

    Parameters
    ----------
    flows_exact : mapping (sender, receiver, target_name) -> rate
        ``send(P_i -> P_j, m_k)`` of the LP, exact; ``m_k`` is named by its
        target.
    source : str
    targets : sequence of str

    Returns
    -------
    list of ScatterPath
        Grouped by target in the order of ``targets``; for each target the
        weights add up to the throughput.

    Raises
    ------
    InputError
        If a rate is negative, a message type is not a target, or some flow
        is left that no path explains (broken conservation).

    Examples
    --------
    >>> flows = {("S", "A", "B"): 1, ("A", "B", "B"): 1, ("S", "A", "A"): "1/2"}
    >>> [(p.target, p.weight, len(p.transfers))
    ...  for p in decompose_scatter_flows(flows, "S", ["A", "B"])]
    [('A', Fraction(1, 2), 1), ('B', Fraction(1, 1), 2)]

    References
    ----------
    Legrand, Marchal, Robert (2004), "Series of Scatter -- Building a
    schedule"; NOTES.md §1 (source exempt from conservation, net inflow).
    """
    targets = list(targets)
    if source in targets:
        raise InputError(f"the source {source} cannot be one of the targets")
    return _decompose_paths(flows_exact, {t: source for t in targets}, {t: t for t in targets},
                            ScatterPath, "target")


def decompose_gather_flows(
    flows_exact: Mapping[tuple[str, str, str], object],
    sources: Sequence[str],
    target: str,
) -> list[GatherPath]:
    """Decompose an exact SSGP solution into weighted source-to-target paths.

    The scatter decomposition (:func:`decompose_scatter_flows`) with the roles turned
    round: per message type (named by its source), cancel cycles, then peel paths
    from the source to the target, walking backwards from the target.

    Parameters
    ----------
    flows_exact : mapping (sender, receiver, source_name) -> rate
        ``send(P_i -> P_j, m_k)`` of the LP, exact; ``m_k`` is named by its source.
    sources : sequence of str
    target : str

    Returns
    -------
    list of GatherPath
        Grouped by source in the order of ``sources``; for each source the weights
        add up to the throughput.

    Raises
    ------
    InputError
        If a rate is negative, a message type is not a source, the target is a
        source, or some flow is left that no path explains (broken conservation).

    Examples
    --------
    >>> flows = {("A", "T", "A"): 1, ("B", "A", "B"): "1/2", ("A", "T", "B"): "1/2"}
    >>> [(p.source, p.weight, len(p.transfers))
    ...  for p in decompose_gather_flows(flows, ["A", "B"], "T")]
    [('A', Fraction(1, 1), 1), ('B', Fraction(1, 2), 2)]

    References
    ----------
    Legrand, Marchal, Robert (2004), "Series of Scatter -- Building a schedule"
    (the same construction, roles turned round: hetcoll issue 12).
    """
    sources = list(sources)
    if target in sources:
        raise InputError(f"the target {target} cannot be one of the sources")
    return _decompose_paths(flows_exact, {s: s for s in sources}, {s: target for s in sources},
                            GatherPath, "source")


def _decompose_paths(flows_exact, origin: dict, destination: dict, make, role: str) -> list:
    """Classic flow decomposition of a multi-commodity flow, one type after the other.

    Message types are named by a process of ``role`` (``"target"``, ``"source"``).
    """
    for key in flows_exact:
        if key[2] not in origin:
            raise InputError(f"flow {key!r}: message type {key[2]!r} is not a {role}")
    residual = _Residual(cancel_flow_cycles(flows_exact), {})
    paths = []
    for value, goal in destination.items():
        while residual.first_supplier(goal, value) is not None:
            used = []
            route = []
            place = goal
            while place != origin[value]:
                item = residual.first_supplier(place, value)
                if item is None:
                    raise InputError(f"message of {value} reaches {place} but nothing "
                                     "supplies it there: the flows break conservation")
                used.append(item)
                sender, receiver, _ = item[1]
                route.append(Transfer(sender, receiver, value))
                place = sender
            weight = min(residual.rate(item) for item in used)
            residual.subtract(used, weight)
            paths.append(make(weight, value, tuple(reversed(route))))
    _check_empty(residual.flows, {})
    return paths


def validate_reduction_tree(tree: ReductionTree, participants: Sequence[str],
                            target: str) -> None:
    """Check that ``tree`` is a valid non-commutative reduction tree.

    Parameters
    ----------
    tree : ReductionTree
    participants : sequence of str
        Owners of v_0..v_N, in operand order.
    target : str

    Valid means: the tasks form a full binary tree over the operand order
    (root v[0,N], task T(k,l,m) has children v[k,l] and v[l+1,m], leaves the
    v_k), each interval appears once; each value's transfers form a simple
    route from where it is created (the owner of v_k, or the processor of its
    task) to where it is used (the processor of the parent task, or the
    target for v[0,N]); no other transfer; a positive weight.

    Raises
    ------
    InputError
        Naming the first defect found.

    Examples
    --------
    >>> tree = ReductionTree(Fraction(1), (Transfer("B", "A", (1, 1)),),
    ...                      (Task("A", (0, 0, 1)),))
    >>> validate_reduction_tree(tree, ["A", "B"], "A")

    References
    ----------
    Legrand, Marchal, Robert (2004), "Reduce -- Reduction trees";
    NOTES.md §1 (non-commutative operator, intervals v[k,m]).
    """
    n_last = len(participants) - 1
    if tree.weight <= 0:
        raise InputError(f"tree weight must be positive, got {fraction_str(tree.weight)}")
    made_at: dict[Interval, str] = {(k, k): name for k, name in enumerate(participants)}
    used_at: dict[Interval, str] = {(0, n_last): target}
    for task in tree.tasks:
        k, mid, m = task.task
        if not 0 <= k <= mid < m <= n_last:
            raise InputError(f"task T{task.task} on {task.processor} is out of range")
        if (k, m) in made_at:
            raise InputError(f"v[{k},{m}] is produced twice (again by T{task.task} "
                             f"on {task.processor})")
        made_at[k, m] = task.processor
        for child in ((k, mid), (mid + 1, m)):
            if child in used_at:
                raise InputError(f"v[{child[0]},{child[1]}] is used twice "
                                 f"(again by T{task.task} on {task.processor})")
            used_at[child] = task.processor
    # A full binary tree over 0..N: every used interval is made, every made
    # non-leaf interval is used, and the root is made.
    for value in used_at:
        if value not in made_at:
            raise InputError(f"v[{value[0]},{value[1]}] is used but never produced")
    for value in made_at:
        if value[0] != value[1] and value not in used_at:
            raise InputError(f"v[{value[0]},{value[1]}] is produced but never used")
    routes: dict[Interval, list[Transfer]] = defaultdict(list)
    for transfer in tree.transfers:
        if transfer.value not in used_at:
            raise InputError(f"transfer {transfer.sender}->{transfer.receiver} carries "
                             f"{transfer.value!r}, which is not in the tree")
        routes[transfer.value].append(transfer)
    for value, goal in used_at.items():
        _check_route(routes.get(value, []), made_at[value], goal,
                     f"v[{value[0]},{value[1]}]")


def _check_route(route: Sequence[Transfer], start: str, goal: str, what: str) -> None:
    place = start
    seen = {place}
    for transfer in route:
        if transfer.sender != place:
            raise InputError(f"{what}: transfer {transfer.sender}->{transfer.receiver} "
                             f"does not leave {place}, where the value is")
        place = transfer.receiver
        if place in seen:
            raise InputError(f"{what}: the route visits {place} twice")
        seen.add(place)
    if place != goal:
        raise InputError(f"{what} ends at {place}, but it is needed at {goal}")


def validate_scatter_path(path: ScatterPath, source: str) -> None:
    """Check that ``path`` is a simple route from ``source`` to its target.

    Parameters
    ----------
    path : ScatterPath
    source : str

    Raises
    ------
    InputError
        If the weight is not positive, a transfer carries another message,
        or the transfers do not chain from ``source`` to ``path.target``
        without revisiting a processor.

    Examples
    --------
    >>> validate_scatter_path(ScatterPath(Fraction(1), "B", (Transfer("S", "B", "B"),)), "S")

    References
    ----------
    Legrand, Marchal, Robert (2004), "Series of Scatter"; NOTES.md §1 (SSSP).
    """
    if path.weight <= 0:
        raise InputError(f"path weight must be positive, got {fraction_str(path.weight)}")
    for transfer in path.transfers:
        if transfer.value != path.target:
            raise InputError(f"path to {path.target}: transfer {transfer.sender}->"
                             f"{transfer.receiver} carries the message for {transfer.value}")
    _check_route(path.transfers, source, path.target, f"message for {path.target}")


def validate_gather_path(path: GatherPath, target: str) -> None:
    """Check that ``path`` is a simple route from its source to ``target``.

    Parameters
    ----------
    path : GatherPath
    target : str

    Raises
    ------
    InputError
        If the weight is not positive, a transfer carries another message, or the
        transfers do not chain from ``path.source`` to ``target`` without revisiting
        a processor.

    Examples
    --------
    >>> validate_gather_path(GatherPath(Fraction(1), "B", (Transfer("B", "T", "B"),)), "T")

    References
    ----------
    hetcoll issue 12 (SSGP, the scatter LP with the roles turned round).
    """
    if path.weight <= 0:
        raise InputError(f"path weight must be positive, got {fraction_str(path.weight)}")
    for transfer in path.transfers:
        if transfer.value != path.source:
            raise InputError(f"path from {path.source}: transfer {transfer.sender}->"
                             f"{transfer.receiver} carries the message of {transfer.value}")
    _check_route(path.transfers, path.source, target, f"message of {path.source}")
