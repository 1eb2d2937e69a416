"""Decomposition of exact LP solutions into trees and paths: hand-solved cases."""

from fractions import Fraction as F
from pathlib import Path

import pytest

from hetcoll import lp
from hetcoll.core.errors import InputError
from hetcoll.lp.decomposition import (
    ReductionTree,
    ScatterPath,
    Task,
    Transfer,
    cancel_flow_cycles,
    decompose_reduce_flows,
    decompose_scatter_flows,
    validate_reduction_tree,
    validate_scatter_path,
)

# NOTES.md §1, solved by hand: P0 (target, v_0, w = 3), P1 (v_1, w = 3/2),
# both links of cost 1.  TP = 1 from two trees.
HAND_FLOWS = {("P1", "P0", (1, 1)): F(1, 3), ("P0", "P1", (0, 0)): F(2, 3),
              ("P1", "P0", (0, 1)): F(2, 3)}
HAND_TASKS = {("P0", (0, 0, 1)): F(1, 3), ("P1", (0, 0, 1)): F(2, 3)}
TREE_AT_P0 = ReductionTree(F(1, 3), (Transfer("P1", "P0", (1, 1)),), (Task("P0", (0, 0, 1)),))
TREE_AT_P1 = ReductionTree(F(2, 3), (Transfer("P0", "P1", (0, 0)), Transfer("P1", "P0", (0, 1))),
                           (Task("P1", (0, 0, 1)),))


def as_set(tree):
    return tree.weight, frozenset(tree.transfers), frozenset(tree.tasks)


def test_two_processor_hand_case_gives_the_two_trees_of_notes():
    trees = decompose_reduce_flows(HAND_FLOWS, HAND_TASKS, ["P0", "P1"], "P0")
    assert {as_set(t) for t in trees} == {as_set(TREE_AT_P0), as_set(TREE_AT_P1)}
    for tree in trees:
        validate_reduction_tree(tree, ["P0", "P1"], "P0")


def test_two_processor_example_file_through_the_lp():
    examples = Path(__file__).resolve().parents[1] / "examples"
    platform = lp.read_platform(examples / "two_processor.json")
    result = lp.steady_state_reduce_lp(platform, ["P0", "P1"], "P0")
    assert result.throughput_exact == 1
    trees = decompose_reduce_flows(result.flows_exact, result.tasks_exact, ["P0", "P1"], "P0")
    assert {as_set(t) for t in trees} == {as_set(TREE_AT_P0), as_set(TREE_AT_P1)}


def test_cycles_are_cancelled_per_value_type():
    flows = {("a", "b", "x"): F(3), ("b", "c", "x"): F(2), ("c", "a", "x"): F(2),
             ("b", "a", "y"): F(1), ("a", "b", "y"): F(1, 2)}
    # x: cycle a->b->c->a carries 2; y: cycle a<->b carries 1/2.
    assert cancel_flow_cycles(flows) == {("a", "b", "x"): F(1), ("b", "a", "y"): F(1, 2)}


def test_reduce_decomposition_removes_a_useless_cycle():
    flows = dict(HAND_FLOWS)
    # P1 bounces v[0,1] back and forth with a non-participant P2: pure waste.
    flows[("P1", "P2", (0, 1))] = F(1, 5)
    flows[("P2", "P1", (0, 1))] = F(1, 5)
    trees = decompose_reduce_flows(flows, HAND_TASKS, ["P0", "P1"], "P0")
    assert {as_set(t) for t in trees} == {as_set(TREE_AT_P0), as_set(TREE_AT_P1)}


def test_three_participants_with_a_relay_hand_case():
    # v_0 on A (target), v_1 on B, v_2 on C; C's value is relayed through R,
    # B computes v[1,2], A computes v[0,2].  One tree, weight 1/2.
    flows = {("C", "R", (2, 2)): F(1, 2), ("R", "B", (2, 2)): F(1, 2),
             ("B", "A", (1, 2)): F(1, 2)}
    tasks = {("B", (1, 1, 2)): F(1, 2), ("A", (0, 0, 2)): F(1, 2)}
    (tree,) = decompose_reduce_flows(flows, tasks, ["A", "B", "C"], "A")
    assert tree.weight == F(1, 2)
    assert tree.transfers == (Transfer("C", "R", (2, 2)), Transfer("R", "B", (2, 2)),
                              Transfer("B", "A", (1, 2)))
    assert tree.tasks == (Task("B", (1, 1, 2)), Task("A", (0, 0, 2)))


def test_broken_conservation_is_reported():
    tasks = dict(HAND_TASKS)
    tasks[("P1", (0, 0, 1))] = F(1)  # P1 computes more v[0,1] than it sends on
    with pytest.raises(InputError, match=r"task .*P1.* is in no tree"):
        decompose_reduce_flows(HAND_FLOWS, tasks, ["P0", "P1"], "P0")


def test_value_out_of_nowhere_is_reported():
    flows = {("P1", "P0", (0, 1)): F(1)}
    with pytest.raises(InputError, match=r"v\[0,0\] reaches P1"):
        decompose_reduce_flows(flows, {("P1", (0, 0, 1)): F(1)}, ["P0", "P1"], "P0")


@pytest.mark.parametrize("flows, tasks, culprit", [
    ({("P1", "P0", (1, 2)): 1}, {}, r"bad interval \(1, 2\)"),
    ({}, {("P0", (0, 1, 1)): 1}, r"bad task \(0, 1, 1\)"),
    ({("P1", "P0", (1, 1)): -1}, {}, "negative"),
])
def test_bad_reduce_input_names_the_culprit(flows, tasks, culprit):
    with pytest.raises(InputError, match=culprit):
        decompose_reduce_flows(flows, tasks, ["P0", "P1"], "P0")


def test_scatter_paths_hand_case():
    # m_B reaches B two ways: S->B directly (1/4) and S->A->B (1/2).
    flows = {("S", "B", "B"): F(1, 4), ("S", "A", "B"): F(1, 2), ("A", "B", "B"): F(1, 2),
             ("S", "A", "A"): F(3, 4)}
    paths = decompose_scatter_flows(flows, "S", ["A", "B"])
    assert {(p.target, p.weight, p.transfers) for p in paths} == {
        ("A", F(3, 4), (Transfer("S", "A", "A"),)),
        ("B", F(1, 4), (Transfer("S", "B", "B"),)),
        ("B", F(1, 2), (Transfer("S", "A", "B"), Transfer("A", "B", "B"))),
    }
    for path in paths:
        validate_scatter_path(path, "S")


def test_scatter_rejects_foreign_message_type():
    with pytest.raises(InputError, match="'Z' is not a target"):
        decompose_scatter_flows({("S", "A", "Z"): 1}, "S", ["A"])


@pytest.mark.parametrize("tree, culprit", [
    # v_1 never reaches P0.
    (ReductionTree(F(1), (), (Task("P0", (0, 0, 1)),)), r"v\[1,1\] ends at P1"),
    # v[0,1] produced on P1 but the target is P0 and nothing brings it.
    (ReductionTree(F(1), (Transfer("P0", "P1", (0, 0)),), (Task("P1", (0, 0, 1)),)),
     r"v\[0,1\] ends at P1, but it is needed at P0"),
    # A transfer that does not leave where the value is.
    (ReductionTree(F(1), (Transfer("P0", "P0x", (1, 1)),), (Task("P0", (0, 0, 1)),)),
     "does not leave P1"),
    # Non-commutative order: v[0,1] cannot be made from a task T(1,1,2).
    (ReductionTree(F(1), (), (Task("P0", (1, 1, 2)),)), "out of range"),
    (ReductionTree(F(0), (Transfer("P1", "P0", (1, 1)),), (Task("P0", (0, 0, 1)),)),
     "positive"),
])
def test_invalid_trees_are_rejected(tree, culprit):
    with pytest.raises(InputError, match=culprit):
        validate_reduction_tree(tree, ["P0", "P1"], "P0")


def test_tree_with_value_made_twice_is_rejected():
    tree = ReductionTree(F(1), (Transfer("B", "A", (1, 2)),),
                         (Task("B", (1, 1, 2)), Task("A", (1, 1, 2)), Task("A", (0, 0, 2))))
    with pytest.raises(InputError, match=r"v\[1,2\] is produced twice"):
        validate_reduction_tree(tree, ["A", "B", "C"], "A")


def test_invalid_path_is_rejected():
    path = ScatterPath(F(1), "B", (Transfer("S", "A", "B"), Transfer("A", "S", "B"),
                                   Transfer("S", "B", "B")))
    with pytest.raises(InputError, match="visits S twice"):
        validate_scatter_path(path, "S")
