"""Property tests on random platforms: LP -> trees/paths -> schedule -> exact run."""

import functools
import itertools
import json
from collections import defaultdict
from fractions import Fraction as F

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from hetcoll import lp
from hetcoll.lp.decomposition import (
    cancel_flow_cycles,
    decompose_reduce_flows,
    decompose_scatter_flows,
    validate_reduction_tree,
    validate_scatter_path,
)
from hetcoll.lp.executor import execute_schedule
from hetcoll.lp.schedule import periodic_schedule, schedule_from_lp

costs = st.sampled_from([F(1, 3), F(1, 2), F(1), F(3, 2), F(2), F(3)])


@st.composite
def scenarios(draw):
    """A small platform (a bidirectional ring plus random links) and a collective."""
    n = draw(st.integers(2, 5))
    names = [f"P{i}" for i in range(n)]
    links = {}
    for i in range(n):
        j = (i + 1) % n
        if i != j:
            links[names[i], names[j]] = draw(costs)
            links[names[j], names[i]] = draw(costs)
    for a in names:
        for b in names:
            if a != b and (a, b) not in links and draw(st.booleans()):
                links[a, b] = draw(costs)
    platform = {
        "processors": [{"name": name, "compute": str(draw(costs))} for name in names],
        "links": [{"from": a, "to": b, "cost": str(c)} for (a, b), c in links.items()],
    }
    order = draw(st.permutations(names))
    if draw(st.booleans()):
        k = draw(st.integers(2, n))
        roles = {"participants": list(order[:k]), "target": draw(st.sampled_from(names))}
        return "reduce", json.dumps(platform), json.dumps(roles)
    k = draw(st.integers(1, n - 1))
    return "scatter", json.dumps(platform), json.dumps({"source": order[0],
                                                        "targets": list(order[1:k + 1])})


@functools.lru_cache(maxsize=512)
def solve(kind, platform_json, roles_json):
    platform = lp.platform_from_dict(json.loads(platform_json))
    roles = json.loads(roles_json)
    if kind == "reduce":
        return lp.steady_state_reduce_lp(platform, **roles)
    return lp.steady_state_scatter_lp(platform, **roles)


def components_of(result):
    if result.kind == "reduce":
        return decompose_reduce_flows(result.flows_exact, result.tasks_exact,
                                      result.participants, result.target)
    return decompose_scatter_flows(result.flows_exact, result.source, result.targets)


def evaluate_tree(tree, participants, target):
    """Run a reduction tree symbolically, independently of ``lp.decomposition``.

    Tokens (processor, interval) start at the owners; a transfer moves a token, a task
    T(k,l,m) on P consumes v[k,l] and v[l+1,m] held by P (in that operand order) and
    makes v[k,m] there.  Every operation must fire exactly once, in some causal order,
    and leave exactly v[0,N] on the target.  Raises AssertionError otherwise.
    """
    n_last = len(participants) - 1
    held = {(name, (k, k)) for k, name in enumerate(participants)}
    pending = [("send", t) for t in tree.transfers] + [("task", t) for t in tree.tasks]
    assert tree.weight > 0
    def fire(kind, op):
        """Run ``op`` if its inputs are held; return what it makes, else None."""
        if kind == "send":
            if (op.sender, op.value) not in held:
                return None
            assert op.sender != op.receiver
            held.remove((op.sender, op.value))
            return op.receiver, op.value
        k, split, m = op.task
        assert 0 <= k <= split < m <= n_last
        left, right = (op.processor, (k, split)), (op.processor, (split + 1, m))
        if left not in held or right not in held:
            return None
        held.difference_update({left, right})
        return op.processor, (k, m)

    while pending:
        index, made = next(((i, made) for i, op in enumerate(pending)
                            if (made := fire(*op)) is not None), (None, None))
        assert made is not None, f"operations never enabled: {pending}"
        assert made not in held, f"{made} held twice"
        held.add(made)
        del pending[index]
    assert held == {(target, (0, n_last))}, held


def evaluate_path(path, source):
    """A scatter path: a chain of sends of m_target from the source to the target."""
    assert path.weight > 0
    at, seen = source, {source}
    for transfer in path.transfers:
        assert transfer.value == path.target and transfer.sender == at
        at = transfer.receiver
        assert at not in seen
        seen.add(at)
    assert at == path.target


@settings(max_examples=60)
@given(scenarios())
def test_decomposition_sums_exactly_to_the_cycle_free_lp_solution(scenario):
    result = solve(*scenario)
    assert result.success and result.flows_exact is not None
    cancelled = cancel_flow_cycles(result.flows_exact)
    # Cycle cancellation: below the LP flow, acyclic per type, and what it
    # removed is a circulation (zero net flow at every node, per type).
    graphs = defaultdict(nx.DiGraph)
    net = defaultdict(F)
    for (a, b, value), rate in result.flows_exact.items():
        left = cancelled.get((a, b, value), F(0))
        assert 0 <= left <= rate
        if left:
            graphs[value].add_edge(a, b)
        net[a, value] += rate - left
        net[b, value] -= rate - left
    assert all(nx.is_directed_acyclic_graph(g) for g in graphs.values())
    assert not any(net.values())

    components = components_of(result)
    flow_sum, task_sum = defaultdict(F), defaultdict(F)
    for component in components:
        for t in component.transfers:
            flow_sum[t.sender, t.receiver, t.value] += component.weight
        for t in component.tasks:
            task_sum[t.processor, t.task] += component.weight
    assert dict(flow_sum) == cancelled
    assert dict(task_sum) == dict(result.tasks_exact or {})
    if result.kind == "reduce":
        assert sum(c.weight for c in components) == result.throughput_exact
        for tree in components:
            validate_reduction_tree(tree, result.participants, result.target)
            evaluate_tree(tree, result.participants, result.target)
    else:
        for target in result.targets:
            assert sum(p.weight for p in components if p.target == target) \
                == result.throughput_exact
        for path in components:
            validate_scatter_path(path, result.source)
            evaluate_path(path, result.source)
    # Polynomially many: each extraction zeroes a variable.
    assert len(components) <= len(cancelled) + len(result.tasks_exact or {})


@settings(max_examples=40)
@given(scenarios())
def test_matchings_are_one_port_and_fit_the_period(scenario):
    result = solve(*scenario)
    schedule = schedule_from_lp(result)
    assert schedule.throughput_exact == result.throughput_exact
    for weight, uses in zip((c.weight for c in schedule.components), schedule.uses,
                            strict=True):
        assert uses == weight * schedule.period and uses >= 1
    assert all(c.weight.denominator <= schedule.period for c in schedule.components)
    covered = defaultdict(F)
    clock = F(0)
    for matching in schedule.matchings:
        assert matching.start == clock and matching.duration > 0
        clock += matching.duration
        senders = [a for a, _ in matching.edges]
        receivers = [b for _, b in matching.edges]
        assert len(set(senders)) == len(senders) and len(set(receivers)) == len(receivers)
        for edge in matching.edges:
            covered[edge] += matching.duration
    assert clock <= schedule.period
    # Each link is busy, per period, for exactly uses x link cost of its transfers.
    needed = defaultdict(F)
    platform = result.platform
    for component, uses in zip(schedule.components, schedule.uses, strict=True):
        for t in component.transfers:
            needed[t.sender, t.receiver] += uses * platform.link_cost(t.sender, t.receiver)
    assert dict(covered) == dict(needed)


def check_slots_independently(schedule):
    """One period of slots, checked without the executor.

    Every operation of every used tree has one slot with the tree's uses; no port or
    CPU holds two pieces at once within [0, T] (the offsets repeat every period, so this
    is one-port in steady state); and for the same uses, whatever produces a value
    where it is used ends, in absolute time stage·T + offset, before its consumer starts.
    """
    period = schedule.period
    busy = defaultdict(list)
    slot_of = {}
    for slot in schedule.slots:
        op = slot.operation
        assert slot.count == schedule.uses[slot.component] > 0
        assert (slot.component, op) not in slot_of
        slot_of[slot.component, op] = slot
        holders = ([("cpu", op.processor)] if hasattr(op, "task")
                   else [("send", op.sender), ("recv", op.receiver)])
        for a, b in slot.pieces:
            assert 0 <= a < b <= period
            for holder in holders:
                busy[holder].append((a, b))
    for holder, pieces in busy.items():
        pieces.sort()
        for (_, end), (start, _) in itertools.pairwise(pieces):
            assert end <= start, (holder, pieces)
    for index, (component, uses) in enumerate(zip(schedule.components, schedule.uses,
                                                  strict=True)):
        if not uses:
            continue
        made = {}  # (value, processor) -> producing slot
        for op in (*component.transfers, *getattr(component, "tasks", ())):
            assert (index, op) in slot_of
            if hasattr(op, "task"):
                k, split, m = op.task
                made[(k, m), op.processor] = slot_of[index, op]
            else:
                made[op.value, op.receiver] = slot_of[index, op]
        for (_, op), slot in ((key, v) for key, v in slot_of.items() if key[0] == index):
            if hasattr(op, "task"):
                k, split, m = op.task
                needs = [((k, split), op.processor), ((split + 1, m), op.processor)]
            else:
                needs = [(op.value, op.sender)]
            for need in needs:
                if need in made:
                    producer = made[need]
                    assert (producer.stage * period + producer.end
                            <= slot.stage * period + slot.start), (need, producer, slot)


@settings(max_examples=40)
@given(scenarios(), st.integers(1, 3))
def test_executor_validates_and_measures_tp_per_period(scenario, extra):
    result = solve(*scenario)
    schedule = schedule_from_lp(result)
    check_slots_independently(schedule)
    periods = schedule.depth + extra
    run = execute_schedule(schedule, periods)
    assert run.success
    assert run.steady_throughput == result.throughput_exact
    assert run.completed == periods * result.throughput_exact * schedule.period
    # The whole run lasts at most K + depth periods: steady(K)/(TP K) -> 1.
    assert run.makespan <= (periods + schedule.depth) * schedule.period
    assert run.efficiency >= F(periods, periods + schedule.depth)
    assert run.efficiency <= 1


@settings(max_examples=40)
@given(scenarios(), st.fractions(min_value=F(1, 2), max_value=40, max_denominator=4))
def test_fixed_period_bound_holds_and_runs(scenario, fixed):
    result = solve(*scenario)
    components = components_of(result)
    roles = ({"participants": result.participants, "target": result.target}
             if result.kind == "reduce" else {"source": result.source, "targets": result.targets})
    schedule = periodic_schedule(components, result.transfer_time, result.task_time,
                                 fixed_period=fixed, **roles)
    assert schedule.period == fixed
    # r(t) = floor(weight(t) x TF) uses per fixed period, recomputed here by hand.
    uses = [(c.weight * fixed).numerator // (c.weight * fixed).denominator
            for c in components]
    assert list(schedule.uses) == uses
    if result.kind == "reduce":  # every use of a tree completes one reduce
        expected = F(sum(uses)) / fixed
    else:  # a scatter is complete when its slowest target has its message
        expected = min(F(sum(u for c, u in zip(components, uses, strict=True)
                               if c.target == target)) / fixed for target in result.targets)
    assert schedule.throughput_exact == expected
    assert schedule.loss == result.throughput_exact - expected
    assert 0 <= schedule.loss <= F(len(components)) / fixed
    assert schedule.lp_throughput == result.throughput_exact
    run = execute_schedule(schedule, schedule.depth + 1)
    assert run.steady_throughput == schedule.throughput_exact
