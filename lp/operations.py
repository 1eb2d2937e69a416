"""Typed collective operations: :class:`Scatter`, :class:`Gather` and :class:`Reduce`.

An operation knows its roles, its LP builder, how a solution decomposes (paths or
reduction trees), where values start and end in a schedule, and the JSON keys of its
roles; the solver, the schedule builder, the executor, the CLI and the report dispatch
on it instead of on a ``"scatter"``/``"reduce"`` string.

Scatter and gather are one multi-commodity flow with the roles turned round: message
type q goes from its origin to its destination (scatter: from the source to target q;
gather: from source q to the target), so they share one builder
(:func:`hetcoll.lp.model.build_flow_lp`), one pulp formulation and one decomposition.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

import numpy as np

from hetcoll.core.errors import InputError
from hetcoll.core.numbers import positive_fraction
from hetcoll.core.platform import (
    Platform,
    check_names,
    check_reduce_roles,
    check_scatter_roles,
    unreachable,
)
from hetcoll.lp.decomposition import (
    GatherPath,
    ReductionTree,
    ScatterPath,
    decompose_gather_flows,
    decompose_reduce_flows,
    decompose_scatter_flows,
)
from hetcoll.lp.model import (
    SparseLP,
    build_flow_lp,
    build_reduce_lp,
    reduce_intervals,
    reduce_tasks,
)

__all__ = ["OPERATION_KINDS", "Gather", "Operation", "OperationRoles", "Reduce", "Scatter",
           "check_gather_roles", "operation_from_roles"]

Task = tuple[int, int, int]


def _names(values: object, what: str) -> tuple[str, ...]:
    if isinstance(values, str) or not isinstance(values, Sequence):
        raise InputError(f"{what} must be a list of processor names, got {values!r}")
    return tuple(values)


def _size_table(sizes: object, types: Sequence[Hashable], what: str,
                owner: str) -> tuple[tuple[Hashable, Fraction], ...]:
    """Exact size of every message type, ``(type, size)`` in ``types`` order.

    ``sizes`` is None (all 1), a mapping (unnamed types default to 1) or a callable.
    """
    if sizes is None:
        return tuple((t, Fraction(1)) for t in types)
    if callable(sizes):
        return tuple((t, positive_fraction(sizes(t), f"{what} of {t!r}")) for t in types)
    if not isinstance(sizes, Mapping):
        raise InputError(f"{what}s must be a mapping or a callable, got {type(sizes).__name__}")
    known = set(types)
    given = {}
    for key, value in sizes.items():
        normal = tuple(key) if isinstance(key, list) else key
        if normal not in known:
            raise InputError(f"{what} for {key!r}, which is not one of the {owner}")
        given[normal] = positive_fraction(value, f"{what} of {key!r}")
    return tuple((t, given.get(t, Fraction(1))) for t in types)


class Operation:
    """Base of the typed operations (frozen dataclasses).

    Class attributes: ``kind`` (``"scatter"``, ``"gather"``, ``"reduce"``), ``roles``
    (the JSON keys of the roles, in the order of the constructor), ``value_key`` (the
    JSON key naming a transfer's value), ``component_kind`` (``"paths"`` or
    ``"trees"``) and ``has_tasks`` (whether the LP has computation tasks).
    """

    kind: ClassVar[str]
    roles: ClassVar[tuple[str, str]]
    value_key: ClassVar[str]
    component_kind: ClassVar[str]
    has_tasks: ClassVar[bool] = False

    def role_dict(self) -> dict[str, Any]:
        """The roles, JSON-ready: e.g. ``{"source": "S", "targets": ["A", "B"]}``."""
        return {name: list(value) if isinstance(value, tuple) else value
                for name, value in ((r, getattr(self, r)) for r in self.roles)}

    @property
    def message_sizes(self) -> dict[Hashable, Fraction]:
        """``{message type: exact size}``."""
        return dict(self.sizes)

    def describe(self) -> str:
        """One line: ``"scatter S -> A,B"``."""
        first, second = (getattr(self, r) for r in self.roles)
        show = (lambda v: ",".join(v) if isinstance(v, tuple) else v)  # noqa: E731
        return f"{self.kind} {show(first)} -> {show(second)}"

    def value_label(self, value: Hashable) -> str:
        """How a Gantt bar names a transferred value."""
        return f"m:{value}"

    def task_cost(self, platform: Platform, name: str, task: Task) -> Fraction:
        """Exact time of task ``task`` on ``name`` (only a reduce has tasks)."""
        raise InputError(f"a {self.kind} has no computation tasks")


class OperationRoles:
    """Mixin of results holding an ``operation``: its ``kind`` and roles as attributes.

    ``source``, ``targets``, ``sources``, ``participants`` and ``target`` are the
    operation's, None for the roles it does not have (the attributes of the results
    before the typed operations).
    """

    operation: Operation

    @property
    def kind(self) -> str:
        """``operation.kind``."""
        return self.operation.kind

    source = property(lambda self: getattr(self.operation, "source", None))
    targets = property(lambda self: getattr(self.operation, "targets", None))
    sources = property(lambda self: getattr(self.operation, "sources", None))
    participants = property(lambda self: getattr(self.operation, "participants", None))
    target = property(lambda self: getattr(self.operation, "target", None))


class _Flow(Operation):
    """A multi-commodity flow: message type q from ``origins[q]`` to ``destinations[q]``."""

    value_key_plural: ClassVar[str]
    component_kind = "paths"

    def types(self) -> tuple[str, ...]:
        """Message types, named by the processor whose message it is."""
        raise NotImplementedError

    def origins(self) -> tuple[str, ...]:
        raise NotImplementedError

    def destinations(self) -> tuple[str, ...]:
        raise NotImplementedError

    def build(self, platform: Platform) -> tuple[SparseLP, list[Hashable], list[Task]]:
        """Validate the roles on ``platform`` and build the LP (types, no tasks)."""
        self.check(platform)
        index = platform.index
        model = build_flow_lp(platform, np.array([index[n] for n in self.origins()]),
                              np.array([index[n] for n in self.destinations()]),
                              [size for _, size in self.sizes])
        return model, list(self.types()), []

    def initial(self) -> dict[Hashable, str]:
        """Where each value is available from the start of a schedule."""
        return dict(zip(self.types(), self.origins(), strict=True))

    def final(self) -> dict[Hashable, str]:
        """Where the arrival of each value completes (its part of) one operation."""
        return dict(zip(self.types(), self.destinations(), strict=True))

    def throughput(self, components: Sequence[Any], rates: Sequence[Fraction]) -> Fraction:
        """Operations per time unit: the slowest message type sets the pace."""
        per_type = dict.fromkeys(self.types(), Fraction(0))
        for component, rate in zip(components, rates, strict=True):
            per_type[component.value] += rate
        return min(per_type.values(), default=Fraction(0))


@dataclass(frozen=True)
class Scatter(_Flow):
    """A series of scatters: ``source`` sends its own message to every target.

    Parameters
    ----------
    source : str
    targets : sequence of str
    sizes : mapping, callable or None
        Size of the message of each target (default 1; unnamed targets get 1),
        exact (any number :func:`hetcoll.core.numbers.positive_fraction` reads).

    Examples
    --------
    >>> Scatter("S", ["A", "B"], {"B": "1/2"}).sizes
    (('A', Fraction(1, 1)), ('B', Fraction(1, 2)))
    >>> Scatter("S", ["A"], {"C": 2})
    Traceback (most recent call last):
    hetcoll.core.errors.InputError: message size for 'C', which is not one of the targets
    """

    source: str
    targets: tuple[str, ...]
    sizes: Any = field(default=None)

    kind = "scatter"
    roles = ("source", "targets")
    value_key = "target"

    def __post_init__(self) -> None:
        object.__setattr__(self, "targets", _names(self.targets, "targets"))
        object.__setattr__(self, "sizes",
                           _size_table(self.sizes, self.targets, "message size", "targets"))

    def types(self):
        return self.targets

    def origins(self):
        return (self.source,) * len(self.targets)

    def destinations(self):
        return self.targets

    def check(self, platform: Platform) -> None:
        """InputError on unknown, repeated or unreachable roles."""
        check_scatter_roles(platform, self.source, self.targets)

    def decompose(self, flows_exact, tasks_exact) -> list[ScatterPath]:
        return decompose_scatter_flows(flows_exact, self.source, self.targets)

    def pulp(self, platform: Platform):
        from hetcoll.lp.pulp_model import scatter_lp_pulp
        return scatter_lp_pulp(platform, self.source, self.targets, sizes=dict(self.sizes))


@dataclass(frozen=True)
class Gather(_Flow):
    """A series of gathers: every source sends its own message to ``target``.

    Parameters
    ----------
    sources : sequence of str
    target : str
    sizes : mapping, callable or None
        Size of the message of each source (default 1; unnamed sources get 1).

    Examples
    --------
    >>> Gather(["A", "B"], "T", {"A": 3}).message_sizes
    {'A': Fraction(3, 1), 'B': Fraction(1, 1)}
    """

    sources: tuple[str, ...]
    target: str
    sizes: Any = field(default=None)

    kind = "gather"
    roles = ("sources", "target")
    value_key = "source"

    def __post_init__(self) -> None:
        object.__setattr__(self, "sources", _names(self.sources, "sources"))
        object.__setattr__(self, "sizes",
                           _size_table(self.sizes, self.sources, "message size", "sources"))

    def types(self):
        return self.sources

    def origins(self):
        return self.sources

    def destinations(self):
        return (self.target,) * len(self.sources)

    def check(self, platform: Platform) -> None:
        """InputError on unknown or repeated roles, the target among the sources, or a
        source that cannot reach the target."""
        check_gather_roles(platform, self.sources, self.target)

    def decompose(self, flows_exact, tasks_exact) -> list[GatherPath]:
        return decompose_gather_flows(flows_exact, self.sources, self.target)

    def pulp(self, platform: Platform):
        from hetcoll.lp.pulp_model import gather_lp_pulp
        return gather_lp_pulp(platform, self.sources, self.target, sizes=dict(self.sizes))


@dataclass(frozen=True)
class Reduce(Operation):
    """A series of reduces of ``participants``' values (operand order) to ``target``.

    Parameters
    ----------
    participants : sequence of str
        Owners of v_0 .. v_N, in operand order (at least two).
    target : str
    interval_sizes : mapping, callable or None
        ``size(v[k,m])`` per interval ``(k, m)`` (default 1).
    task_costs : mapping, callable or None
        ``w(P_i, T(k,l,m))`` keyed ``(processor, (k, l, m))`` (default: the processor's
        compute cost).  Kept as given (a callable cannot be compared or hashed, so two
        reduces equal in roles and sizes compare equal whatever their task costs); the
        solver stores the exact table it used (:meth:`with_exact_task_costs`).

    Examples
    --------
    >>> Reduce(["P0", "P1"], "P0").sizes
    (((0, 0), Fraction(1, 1)), ((0, 1), Fraction(1, 1)), ((1, 1), Fraction(1, 1)))
    """

    participants: tuple[str, ...]
    target: str
    interval_sizes: Any = field(default=None)
    task_costs: Any = field(default=None, compare=False)

    kind = "reduce"
    roles = ("participants", "target")
    value_key = "interval"
    component_kind = "trees"
    has_tasks = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "participants", _names(self.participants, "participants"))
        intervals = reduce_intervals(len(self.participants))
        object.__setattr__(self, "interval_sizes", _size_table(
            self.interval_sizes, intervals, "interval size", "intervals of this reduce"))

    @property
    def sizes(self) -> tuple[tuple[Hashable, Fraction], ...]:
        return self.interval_sizes

    def check(self, platform: Platform) -> None:
        check_reduce_roles(platform, self.participants, self.target)

    def exact_task_costs(self, platform: Platform) -> dict[tuple[str, Task], Fraction]:
        """The task costs that differ from the default, exact and validated.

        A callable is evaluated on every (processor, task) pair, so the table (and a
        result holding it) pickles.
        """
        costs, n_values = self.task_costs, len(self.participants)
        if costs is None:
            return {}
        if callable(costs):
            return {(name, task): positive_fraction(costs(name, task),
                                                    f"task cost of T{task} on {name}")
                    for name in platform.names for task in reduce_tasks(n_values)}
        if not isinstance(costs, Mapping):
            raise InputError("task_costs must be a mapping or a callable")
        table = {}
        for key, value in costs.items():
            try:
                name, (k, split, m) = key
            except (TypeError, ValueError):
                raise InputError(f"task_costs key {key!r} is not (processor, (k, l, m))") \
                    from None
            platform.require(name, "task_costs processor")
            if not 0 <= k <= split < m < n_values:
                raise InputError(f"task_costs key {key!r}: no task T({k},{split},{m}) in "
                                 "this reduce")
            table[name, (k, split, m)] = positive_fraction(
                value, f"task cost of T({k},{split},{m}) on {name}")
        return table

    def with_exact_task_costs(self, platform: Platform) -> Reduce:
        """This reduce with ``task_costs`` replaced by its exact table (picklable)."""
        table = self.exact_task_costs(platform)
        return Reduce(self.participants, self.target, dict(self.interval_sizes),
                      table or None)

    def task_cost(self, platform: Platform, name: str, task: Task) -> Fraction:
        platform.require(name, "processor")
        k, split, m = task
        n = len(self.participants)
        if not 0 <= k <= split < m < n:
            raise InputError(f"task {task!r} is not a T(k,l,m) with 0 <= k <= l < m <= {n - 1}")
        table = self.task_costs if isinstance(self.task_costs, Mapping) else {}
        return table.get((name, (k, split, m)), platform.compute_cost(name))

    def build(self, platform: Platform) -> tuple[SparseLP, list[Hashable], list[Task]]:
        owners, target_index = check_reduce_roles(platform, self.participants, self.target)
        tasks = reduce_tasks(len(owners))
        table = self.exact_task_costs(platform)
        names = platform.names
        weight: Callable[[int, int], Fraction] = _TaskWeight(platform, table, names, tasks)
        model = build_reduce_lp(platform, np.array(owners), target_index,
                                [size for _, size in self.sizes], weight,
                                default_weights=not table)
        return model, [interval for interval, _ in self.sizes], tasks

    def initial(self) -> dict[Hashable, str]:
        return {(k, k): name for k, name in enumerate(self.participants)}

    def final(self) -> dict[Hashable, str]:
        return {(0, len(self.participants) - 1): self.target}

    def throughput(self, components, rates) -> Fraction:
        """Operations per time unit: every use of a tree completes one reduce."""
        return sum(rates, Fraction(0))

    def decompose(self, flows_exact, tasks_exact) -> list[ReductionTree]:
        return decompose_reduce_flows(flows_exact, tasks_exact, self.participants, self.target)

    def value_label(self, value: Hashable) -> str:
        return f"v[{value[0]},{value[1]}]"

    def pulp(self, platform: Platform):
        from hetcoll.lp.pulp_model import reduce_lp_pulp
        if self.task_costs is not None or any(s != 1 for _, s in self.sizes):
            raise InputError("the pulp formulation of a reduce has unit sizes and default "
                             "task costs")
        return reduce_lp_pulp(platform, self.participants, self.target)


@dataclass(frozen=True)
class _TaskWeight:
    """``weight(i, t)``: exact time of task ``tasks[t]`` on processor ``i`` (picklable)."""

    platform: Platform
    table: dict
    names: tuple[str, ...]
    tasks: list

    def __call__(self, i: int, t: int) -> Fraction:
        name = self.names[i]
        return self.table.get((name, self.tasks[t]), self.platform.processors[i].comp)


def check_gather_roles(platform: Platform, sources: Sequence[object],
                       target: object) -> tuple[list[int], int]:
    """Indices of a gather's ``sources`` and ``target``.

    Raises
    ------
    InputError
        If a name is unknown or repeated, the target is one of the sources, or a
        source cannot reach the target.

    Examples
    --------
    >>> from hetcoll.lp import read_platform
    >>> check_gather_roles(read_platform("examples/two_processor.json"), ["P1"], "P0")
    ([1], 0)
    """
    indices = check_names(platform, sources, "sources")
    target_index = platform.require(target, "target")
    if target_index in indices:
        raise InputError(f"target {target!r} is one of the sources")
    cut_off = unreachable(platform, sources, target)
    if cut_off:
        raise InputError(f"target {target!r} cannot be reached from source {cut_off[0]!r}")
    return indices, target_index


#: The operation class of each scenario kind.
OPERATION_KINDS: dict[str, type[Operation]] = {"scatter": Scatter, "gather": Gather,
                                               "reduce": Reduce}


def operation_from_roles(kind: str, first: object, second: object,
                         sizes: Mapping[str, object] | None = None) -> Operation:
    """The operation of ``kind`` with its two roles (in :attr:`Operation.roles` order).

    ``sizes`` are per-process message sizes (scatter, gather); a reduce takes none.

    Examples
    --------
    >>> operation_from_roles("gather", ["A", "B"], "T")
    Gather(sources=('A', 'B'), target='T', sizes=(('A', Fraction(1, 1)), ('B', Fraction(1, 1))))
    """
    if kind not in OPERATION_KINDS:
        raise InputError(f"unknown operation {kind!r} (expected one of "
                         f"{', '.join(OPERATION_KINDS)})")
    cls = OPERATION_KINDS[kind]
    if cls is Reduce:
        if sizes:
            raise InputError("a reduce takes no per-process sizes")
        return Reduce(first, second)
    return cls(first, second, sizes)

