"""Scatterv/gatherv trees (DRL §2) and the pairwise predictor.

Oracles: trees and times computed by hand on examples/trees/hand_4proc.json (docs/trees.md
shows the arithmetic); the binomial shape and the mapping rule checked from their
definitions; an independent event-driven simulation for the predictor.
"""

import heapq
from fractions import Fraction as F

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hetcoll.core.errors import InputError
from hetcoll.core.platform import Link, Platform, Processor, platform_from_dict, read_platform
from hetcoll.sim.collectives import (
    ALGORITHMS,
    HockneyModel,
    StarHockney,
    build_tree,
    pairwise_prediction,
)
from hetcoll.sim.collectives.trees import CommTree

HAND = read_platform("examples/trees/hand_4proc.json")
HAND_SIZES = {"P0": F(1), "P1": F(4), "P2": F(1), "P3": F(8)}

# Children lists by hand (docs/trees.md, "A hand example"), scatterv sending order.
HAND_SCATTERV = {
    "flat": ({"P0": ("P1", "P2", "P3")}, 13),
    "binomial": ({"P0": ("P2", "P1"), "P2": ("P3",)}, 14),
    "binomial-min-first": ({"P0": ("P1", "P2"), "P1": ("P3",)}, 36),
    "binomial-max-first": ({"P0": ("P1", "P3"), "P1": ("P2",)}, 11),
    "traff": ({"P0": ("P3", "P2", "P1")}, 13),
    "traff-model": ({"P0": ("P2", "P3"), "P2": ("P1",)}, 10),
}
HAND_GATHERV = {
    "flat": ({"P0": ("P1", "P2", "P3")}, 13),
    "binomial": ({"P0": ("P1", "P2"), "P2": ("P3",)}, 14),
    "binomial-min-first": ({"P0": ("P2", "P1"), "P1": ("P3",)}, 36),
    "binomial-max-first": ({"P0": ("P3", "P1"), "P1": ("P2",)}, 11),
    "traff": ({"P0": ("P1", "P2", "P3")}, 13),
    "traff-model": ({"P0": ("P3", "P2"), "P2": ("P1",)}, 10),
}


@pytest.mark.parametrize("kind, table", [("scatterv", HAND_SCATTERV),
                                         ("gatherv", HAND_GATHERV)])
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_hand_example(kind, table, algorithm):
    model = HockneyModel(HAND)
    tree = build_tree(algorithm, kind, "P0", HAND_SIZES, model)
    children, time = table[algorithm]
    assert {k: v for k, v in tree.children.items() if v} == children
    assert pairwise_prediction(tree, HAND_SIZES, model).time == time


def test_hand_example_transfers():
    # min-first scatterv by hand: P0->P1 carries 12 units (cost 1) over [0, 12],
    # P0->P2 (latency 11/4, cost 1/4, 1 unit) over [12, 15], P1->P3 (cost 3, 8 units)
    # over [12, 36].
    model = HockneyModel(HAND)
    tree = build_tree("binomial-min-first", "scatterv", "P0", HAND_SIZES, model)
    run = pairwise_prediction(tree, HAND_SIZES, model)
    assert [(t.source, t.target, t.size, t.start, t.end) for t in run.transfers] == [
        ("P0", "P1", 12, 0, 12), ("P0", "P2", 1, 12, 15), ("P1", "P3", 8, 12, 36)]
    assert run.done == {"P0": 0, "P1": 12, "P2": 15, "P3": 36}


def test_latency_is_optional_and_round_trips(tmp_path):
    from hetcoll.core.platform import platform_to_dict, write_platform

    assert HAND.link("P0", "P1").latency == 0
    assert HAND.link("P0", "P2").latency == F(11, 4)
    data = platform_to_dict(HAND)
    assert "latency" not in data["links"][0] and data["links"][2]["latency"] == "11/4"
    for suffix in (".json", ".graphml"):
        write_platform(HAND, tmp_path / f"copy{suffix}")
        copy = read_platform(tmp_path / f"copy{suffix}")  # GraphML groups links by source
        assert set(copy.links) == set(HAND.links) and copy.processors == HAND.processors
    with pytest.raises(InputError, match="latency of link A->B must be non-negative"):
        platform_from_dict({"processors": [{"name": "A", "compute": 1},
                                           {"name": "B", "compute": 1}],
                            "links": [{"from": "A", "to": "B", "cost": 1, "latency": -1}]})


def test_missing_link_names_the_pair():
    p = platform_from_dict({"processors": [{"name": n, "compute": 1} for n in "ABC"],
                            "links": [{"from": "A", "to": "B", "cost": 1}]})
    sizes = dict.fromkeys("ABC", F(1))
    tree = build_tree("flat", "scatterv", "A", sizes)
    with pytest.raises(InputError, match="no link A->C"):
        pairwise_prediction(tree, sizes, HockneyModel(p))


def test_bad_sizes_and_root():
    with pytest.raises(InputError, match="root 'Z'"):
        build_tree("flat", "scatterv", "Z", HAND_SIZES)
    with pytest.raises(InputError, match="size of P1"):
        build_tree("binomial", "gatherv", "P0", {**HAND_SIZES, "P1": F(-1)})
    with pytest.raises(InputError, match="unknown algorithm"):
        build_tree("binary", "gatherv", "P0", HAND_SIZES)


# --- properties on random instances ----------------------------------------------------------


@st.composite
def instances(draw, max_p=12):
    p = draw(st.integers(1, max_p))
    names = [f"Q{i}" for i in range(p)]
    small = st.fractions(0, 5, max_denominator=4)
    latency = draw(st.lists(small, min_size=p, max_size=p))
    cost = draw(st.lists(st.fractions(F(1, 4), 4, max_denominator=4), min_size=p, max_size=p))
    model = StarHockney.build(names, latency, cost)
    sizes = dict(zip(names, draw(st.lists(st.integers(0, 6).map(F), min_size=p, max_size=p)),
                     strict=True))
    root = draw(st.sampled_from(names))
    kind = draw(st.sampled_from(["scatterv", "gatherv"]))
    return kind, root, sizes, model


def _is_spanning_tree(tree: CommTree, names, root) -> None:
    assert list(tree.parent) == list(names) and list(tree.children) == list(names)
    assert tree.parent[root] is None
    listed = [c for kids in tree.children.values() for c in kids]
    assert sorted(listed) == sorted(n for n in names if n != root)
    for node, kids in tree.children.items():
        for c in kids:
            assert tree.parent[c] == node
    for node in names:  # every process reaches the root
        seen = 0
        while node != root:
            node = tree.parent[node]
            seen += 1
            assert seen <= len(names)


@given(instances())
def test_every_tree_spans_the_processes(instance):
    kind, root, sizes, model = instance
    for algorithm in ALGORITHMS:
        _is_spanning_tree(build_tree(algorithm, kind, root, sizes, model), list(sizes), root)


def _positions(tree: CommTree) -> list[str]:
    """Depth-first pre-order, a node's subtrees in increasing order.

    The increasing order is the list order for gatherv and its reverse for scatterv:
    if a builder ordered the children otherwise, the positions would not have the
    binomial shape (a larger subtree would sit at q + 1, which has no child).
    """
    order, stack = [], [tree.root]
    while stack:
        v = stack.pop()
        order.append(v)
        increasing = tree.children[v][::-1] if tree.kind == "scatterv" else tree.children[v]
        stack.extend(reversed(increasing))
    return order


def _binomial_children(q, p):
    low = q & -q if q else 1 << p.bit_length()
    return [q + (1 << k) for k in range(p.bit_length()) if (1 << k) < low and q + (1 << k) < p]


@given(instances(max_p=20))
def test_binomial_shape_and_mapping_rule(instance):
    kind, root, sizes, model = instance
    names, p = list(sizes), len(sizes)
    for algorithm in ("binomial", "binomial-min-first", "binomial-max-first"):
        tree = build_tree(algorithm, kind, root, sizes, model)
        process = _positions(tree)
        at = {n: q for q, n in enumerate(process)}
        for q, node in enumerate(process):
            assert sorted(at[c] for c in tree.children[node]) == _binomial_children(q, p)
        if algorithm == "binomial":
            start = names.index(root)
            assert process == names[start:] + names[:start]
            continue
        sign = 1 if algorithm == "binomial-min-first" else -1
        for q in range(1, p):
            parent = tree.parent[process[q]]

            def key(n, parent=parent, sign=sign):
                t = (model.time(parent, n, sizes[n]) if kind == "scatterv"
                     else model.time(n, parent, sizes[n]))
                return (sign * t, names.index(n))

            assert key(process[q]) == min(key(n) for n in process[q:])


def _event_simulation(tree, sizes, model):
    """Independent oracle: a discrete-event simulation with explicit ports."""
    volume = {}

    def vol(v):
        volume[v] = sizes[v] + sum(vol(c) for c in tree.children[v])
        return volume[v]

    vol(tree.root)
    events, seq, done = [], 0, {}

    def push(time, what, *data):
        nonlocal seq
        heapq.heappush(events, (time, seq, what, data))
        seq += 1

    if tree.kind == "scatterv":
        push(F(0), "holds", tree.root)
        while events:
            now, _, what, data = heapq.heappop(events)
            if what == "holds":
                (node,) = data
                done[node] = now
                if tree.children[node]:
                    push(now, "send", node, 0)
            else:
                node, k = data
                child = tree.children[node][k]
                end = now + model.time(node, child, volume[child])
                push(end, "holds", child)
                if k + 1 < len(tree.children[node]):
                    push(end, "send", node, k + 1)
        return max(done.values())
    nxt = dict.fromkeys(tree.parent, 0)
    busy = dict.fromkeys(tree.parent, False)
    ready = set()

    def try_start(node, now):
        kids = tree.children[node]
        if busy[node]:
            return
        if nxt[node] == len(kids):
            if tree.parent[node] is None:
                done[node] = now
            else:
                push(now, "ready", node)
            busy[node] = True  # never again
            return
        child = kids[nxt[node]]
        if child in ready:
            busy[node] = True
            push(now + model.time(child, node, volume[child]), "received", node)

    for leaf in tree.parent:
        if not tree.children[leaf]:
            push(F(0), "check", leaf)
    while events:
        now, _, what, data = heapq.heappop(events)
        (node,) = data
        if what == "ready":
            ready.add(node)
            try_start(tree.parent[node], now)
        elif what == "received":
            busy[node] = False
            nxt[node] += 1
            try_start(node, now)
        else:
            try_start(node, now)
    return done[tree.root]


@st.composite
def random_trees(draw):
    kind, root, sizes, model = draw(instances())
    names = list(sizes)
    others = draw(st.permutations([n for n in names if n != root]))
    placed, kids = [root], {n: [] for n in names}
    for n in others:
        kids[draw(st.sampled_from(placed))].append(n)
        placed.append(n)
    children = {n: tuple(draw(st.permutations(kids[n]))) for n in names}
    parent = {n: next((v for v in names if n in children[v]), None) for n in names}
    return CommTree(kind, root, parent, children), sizes, model


@given(random_trees())
def test_pairwise_predictor_equals_event_simulation(case):
    tree, sizes, model = case
    assert pairwise_prediction(tree, sizes, model).time == _event_simulation(tree, sizes, model)


def test_large_builders_run():
    # p = 300 keeps the suite fast; benchmarks/bench_trees.py times p = 4096.
    names = [f"N{i}" for i in range(300)]
    model = StarHockney.build(names, [i % 7 for i in range(300)],
                              [F(1 + i % 5, 3) for i in range(300)])
    sizes = {n: F(i % 11) for i, n in enumerate(names)}
    for algorithm in ALGORITHMS:
        tree = build_tree(algorithm, "gatherv", "N5", sizes, model)
        _is_spanning_tree(tree, names, "N5")


def test_platform_links_keep_existing_equality():
    assert Link("A", "B", F(1)) == Link("A", "B", F(1), F(0))
    Platform((Processor("A", F(1)), Processor("B", F(1))), (Link("A", "B", F(1), F(1, 2)),))
