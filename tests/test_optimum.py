"""The clairvoyant optimum: brute force, hand-solved cases, the simulator, lower bounds."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hetcoll import InputError, sim
from hetcoll.analytics import (
    brute_force_optimum,
    clairvoyant_optimum,
    evaluate_tree,
    fibonacci_lower_bound,
    rounds_lower_bound,
)

COSTS = st.sampled_from([Fraction(1), Fraction(3, 2), Fraction(2), Fraction(3), Fraction(1, 3)])


@st.composite
def instances(draw, n_min=1, n_max=5, zero_comp=False):
    n = draw(st.integers(n_min, n_max))
    comm = [[Fraction(0) if i == j else draw(COSTS) for j in range(n)] for i in range(n)]
    comp = [Fraction(0) if zero_comp else draw(st.sampled_from([0, Fraction(1, 2), 1, 2]))
            for _ in range(n)]
    return comm, comp


@settings(max_examples=40)
@given(instances(n_max=5), st.booleans())
def test_dp_equals_brute_force(instance, noncommutative):
    comm, comp = instance
    result = clairvoyant_optimum(comm, comp, noncommutative=noncommutative)
    brute, _, _ = brute_force_optimum(comm, comp, noncommutative=noncommutative)
    assert result.status == 0
    assert result.makespan == brute
    # the returned tree really achieves it
    assert evaluate_tree(comm, comp, result.children, result.root)[0] == result.makespan


@pytest.mark.parametrize("seed", range(5))
def test_dp_equals_brute_force_at_n5(seed):
    # n = 5 exactly (the limit), on a fine grid with heterogeneous c_i, so
    # that ties are rare and the order of receptions matters.
    rng = np.random.default_rng(seed)
    comm = [[Fraction(0) if i == j else Fraction(int(rng.integers(1, 25)), 4) for j in range(5)]
            for i in range(5)]
    comp = [Fraction(int(rng.integers(0, 9)), 4) for _ in range(5)]
    for noncommutative in (False, True):
        brute, root, children = brute_force_optimum(comm, comp, noncommutative=noncommutative)
        result = clairvoyant_optimum(comm, comp, noncommutative=noncommutative)
        assert result.makespan == brute
        assert evaluate_tree(comm, comp, children, root)[0] == brute


@settings(max_examples=20)
@given(instances(n_min=2, n_max=4), st.lists(st.integers(0, 8), min_size=4, max_size=4),
       st.booleans())
def test_dp_equals_brute_force_with_start_times(instance, delays, noncommutative):
    comm, comp = instance
    starts = [Fraction(t, 2) for t in delays[:len(comp)]]
    result = clairvoyant_optimum(comm, comp, noncommutative=noncommutative, start_times=starts)
    brute, _, _ = brute_force_optimum(comm, comp, noncommutative=noncommutative,
                                      start_times=starts)
    assert result.makespan == brute


@settings(max_examples=25)
@given(instances(n_min=2, n_max=6))
def test_optimum_below_every_algorithm_and_above_lower_bounds(instance):
    comm, comp = instance
    commutative = clairvoyant_optimum(comm, comp).makespan
    noncommutative = clairvoyant_optimum(comm, comp, noncommutative=True).makespan
    assert commutative <= noncommutative
    for algorithm in sim.ALGORITHMS:
        bound = noncommutative if algorithm in sim.NON_COMMUTATIVE_SAFE else commutative
        assert bound <= sim.simulate(algorithm, comm, comp).makespan
    n = len(comp)
    d = min(comm[i][j] for i in range(n) for j in range(n) if i != j)
    c = min(comp)
    # The proofs' lower bounds (RR 8315 section 4) never exceed the optimum.
    assert rounds_lower_bound(n, d, c) <= commutative
    assert fibonacci_lower_bound(n, d, c) <= commutative


@settings(max_examples=25)
@given(instances(n_min=2, n_max=7), st.lists(st.integers(0, 8), min_size=7, max_size=7))
def test_start_times_agree_with_the_simulator(instance, delays):
    comm, comp = instance
    n = len(comp)
    starts = [Fraction(t, 2) for t in delays[:n]]
    for algorithm, tree in (("binomial-stat", sim.binomial_tree(n)),
                            ("fibonacci-stat", sim.fibonacci_tree(n))):
        children = dict(enumerate(tree))
        assert evaluate_tree(comm, comp, children, 0, start_times=starts)[0] == \
            sim.simulate(algorithm, comm, comp, start_times=starts).makespan
    optimum = clairvoyant_optimum(comm, comp, start_times=starts).makespan
    assert optimum >= max(starts)
    for algorithm in sim.ALGORITHMS:
        assert optimum <= sim.simulate(algorithm, comm, comp, start_times=starts).makespan


@pytest.mark.parametrize("n", range(2, 9))
def test_homogeneous_c_equals_d_is_fibonacci(n):
    # Bar-Noy et al. (ref. [7] of RR 8315): with c = d, the optimum is (k+1)d,
    # k the smallest order with F_(k+2) >= n.
    fib = [1, 1, 2, 3, 5, 8, 13]  # F_1 .. F_7
    k = next(k for k in range(1, 6) if fib[k + 1] >= n)
    result = clairvoyant_optimum([[2] * n for _ in range(n)], [2] * n)
    assert result.makespan == 2 * (k + 1)


@pytest.mark.parametrize("n, expected", [(2, 1), (3, 2), (4, 2), (5, 3), (8, 3)])
def test_homogeneous_no_computation_is_binomial(n, expected):
    assert clairvoyant_optimum([[1] * n for _ in range(n)], [0] * n).makespan == expected


def test_hand_solved_cases():
    # n = 2: min over directions of transfer + the receiver's computation:
    # P0 -> P1 takes 5 + 1, P1 -> P0 takes 2 + 7.
    assert clairvoyant_optimum([[0, 5], [2, 0]], [7, 1]).makespan == 5 + 1
    assert clairvoyant_optimum([[0, 5], [2, 0]], [7, 1]).root == 1
    # n = 3, d = 1, c = 1: P0 receives twice, the second reception overlapping
    # the first reduction: 1 + 1 + 1 = 3 (a chain would take 4).
    result = clairvoyant_optimum([[1] * 3 for _ in range(3)], [1, 1, 1])
    assert result.makespan == 3 and len(result.children[result.root]) == 2
    # Non-commutative, n = 3: P0 and P2 cannot merge first; the middle P1 must
    # take part, so P0 -> P1 (1), then P2 -> P1 (cost 1) while P1 reduces:
    # 1 + 1 + 1 = 3 when P1 receives both and reduces each in 1.
    comm = [[0, 1, 9], [9, 0, 9], [9, 1, 0]]
    assert clairvoyant_optimum(comm, [1, 1, 1], noncommutative=True).makespan == 3
    # Start times delay the leaves: P1 joins at 5, so 5 + d + c.
    assert clairvoyant_optimum([[0, 1], [1, 0]], [1, 1], start_times=[0, 5]).makespan == 7
    # forcing the root
    assert clairvoyant_optimum([[0, 5], [2, 0]], [7, 1], root=0).makespan == 2 + 7


def test_operations_describe_the_schedule():
    result = clairvoyant_optimum([[0, 1, 1], [1, 0, 1], [1, 1, 0]], [1, 1, 1])
    assert len(result.operations) == 2
    last = max(result.operations, key=lambda op: op.compute_end)
    assert last.compute_end == result.makespan
    for op in result.operations:
        assert op.transfer_end - op.transfer_start == 1
        assert op.compute_start >= op.transfer_end
    assert result.parent[result.root] is None
    assert result.tree_text().splitlines()[0] == f"P{result.root}"


def test_noncommutative_tree_only_joins_neighbours():
    comm = [[0 if i == j else (1 if i < j else 4) for j in range(6)] for i in range(6)]
    result = clairvoyant_optimum(comm, [0] * 6, noncommutative=True)
    assert result.makespan == 3  # upward binomial: every transfer costs d = 1
    for op in result.operations:
        assert op.sender < op.receiver


@pytest.mark.parametrize("call, words", [
    (lambda: clairvoyant_optimum([[0, 1], [1]], [0, 0]), "row 1"),
    (lambda: clairvoyant_optimum([[0, -1], [1, 0]], [0, 0]), "P0->P1"),
    (lambda: clairvoyant_optimum([[0, 1], [1, 0]], [0, "x"]), "P1"),
    (lambda: clairvoyant_optimum([[0, 1], [1, 0]], [0, 0], root=2), "root"),
    (lambda: clairvoyant_optimum([[0, 1], [1, 0]], [0, 0], start_times=[0]), "start_times"),
    (lambda: clairvoyant_optimum([[1] * 13 for _ in range(13)], [0] * 13),
     "13 processors, over max_processors = 12"),
    (lambda: brute_force_optimum([[1] * 7 for _ in range(7)], [0] * 7), "n <= 6"),
    (lambda: evaluate_tree([[0, 1], [1, 0]], [0, 0], {0: []}, 0), "P1"),
])
def test_bad_input(call, words):
    with pytest.raises(InputError, match=words):
        call()
