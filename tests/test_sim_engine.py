"""The exact event simulator: paper formulas, hand-solved schedules, properties."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hetcoll import InputError, sim


def homogeneous(n, d, c):
    return [[d] * n for _ in range(n)], [c] * n


def ceil_log2(n):
    return math.ceil(math.log2(n))


def fib(k):
    a, b = 0, 1
    for _ in range(k):
        a, b = b, a + b
    return a


def paper_fibonacci_order(n):
    """Smallest k with F_(k+2) >= n (RR 8315, section 3.2), from the definition."""
    return next(k for k in range(100) if fib(k + 2) >= n)


# c = 0, c = d, c < d (rational), c > d.
PAIRS = [(1, 0), (1, 1), (Fraction(3, 2), Fraction(1, 3)), (1, 3)]


# --- homogeneous costs ------------------------------------------------------------------

@pytest.mark.parametrize("d, c", PAIRS)
def test_fibonacci_stat_homogeneous_duration(d, c):
    # RR 8315 section 4 (from [7]): d + (k - 1) max(d, c) + c, for every n (truncated).
    for n in range(2, 101):
        k = paper_fibonacci_order(n)
        result = sim.simulate("fibonacci-stat", *homogeneous(n, d, c))
        assert result.makespan == d + (k - 1) * max(d, c) + c, n


@pytest.mark.parametrize("d, c", PAIRS)
def test_tree_dyn_homogeneous_duration(d, c):
    for n in range(2, 101):
        assert sim.simulate("tree-dyn", *homogeneous(n, d, c)).makespan == ceil_log2(n) * (d + c)


@pytest.mark.parametrize("d, c", PAIRS)
def test_binomial_stat_homogeneous_duration(d, c):
    # ceil(log2 n)(d + c) holds when n is a power of two or c = 0.  Otherwise
    # P_0's last sender (an incomplete subtree) is ready early and its transfer
    # overlaps P_0's previous computation: the round recurrence below, written
    # from the paper's description, gives the exact time.
    def rounds(n):
        if n == 1:
            return 0
        k = ceil_log2(n)
        last_ready = rounds(n - 2 ** (k - 1))
        previous_reception_end = (k - 2) * (d + c) + d
        return max(max(last_ready, previous_reception_end) + d, (k - 1) * (d + c)) + c

    for n in range(2, 101):
        makespan = sim.simulate("binomial-stat", *homogeneous(n, d, c)).makespan
        assert makespan == rounds(n), n
        if c == 0 or n & (n - 1) == 0:
            assert makespan == ceil_log2(n) * (d + c)


def test_binomial_stat_overlap_hand_solved():
    # n = 3, d = 1, c = 3: P1 -> P0 in [0, 1], compute [1, 4]; P2 -> P0 in [1, 2]
    # while P0 computes; second computation [4, 7].
    result = sim.simulate("binomial-stat", *homogeneous(3, 1, 3))
    assert result.makespan == 7
    assert [(e.kind, e.processor, e.start, e.end) for e in result.trace] == [
        ("transfer", 1, 0, 1), ("compute", 0, 1, 4), ("transfer", 2, 1, 2),
        ("compute", 0, 4, 7)]


# --- worst-case instances (RR 8315, section 4) -----------------------------------------

def tight(n, d, big):
    return [[d if i < j else big for j in range(n)] for i in range(n)]


@pytest.mark.parametrize("n", range(2, 40))
def test_theorem1_tight_instance_binomial(n):
    assert sim.simulate("binomial-stat", tight(n, 1, 5), [0] * n).makespan == 5 * ceil_log2(n)


@pytest.mark.parametrize("n", range(2, 40))
def test_theorem1_tight_instance_tree_dyn(n):
    makespan = sim.simulate("tree-dyn", tight(n, 1, 5), [0] * n).makespan
    if n & (n - 1) == 0:
        assert makespan == 5 * ceil_log2(n)
    else:
        # The processor left out waits in the slot and receives from a lower
        # index at cost d: the ratio is reached at powers of two only.  By
        # hand for n = 5: P1 -> P0 and P3 -> P2 in [0, 5] (P4 in the slot);
        # P0 -> P4 in [5, 6] (d); P4 -> P2 in [6, 11]: D floor(log2 n) + d.
        assert makespan == 5 * math.floor(math.log2(n)) + 1


def test_tree_dyn_odd_hand_solved():
    # P0 slot, P1 -> P0 [0, D]; P2 slot; at D, P0 sends to P2 at cost d.
    result = sim.simulate("tree-dyn", tight(3, 1, 5), [0, 0, 0])
    assert result.makespan == 6
    assert result.root == 2 and result.value == result.order == (2, 0, 1)
    assert not result.in_order and "out of order" in result.message


def test_fibonacci_four_thirds_delta():
    # Figure 2(b): P0 receives four messages, from P1, P2, P3, P5 in that order.
    # They cost D and everything else d: 4D, while 3d is possible.
    d, big = Fraction(1), Fraction(7, 2)
    comm = [[d] * 8 for _ in range(8)]
    for sender in (1, 2, 3, 5):
        comm[sender][0] = big
    result = sim.simulate("fibonacci-stat", comm, [0] * 8)
    assert result.makespan == 4 * big
    assert [e.processor for e in result.trace if e.kind == "transfer" and e.peer == 0] == [
        1, 2, 3, 5]
    assert sim.simulate("fibonacci-stat", tight(8, d, big), [0] * 8).makespan == 4 * big


def test_noncommut_figure3_pairs_and_worst_case():
    d, big, eps = Fraction(1), Fraction(4), Fraction(1, 10)
    comm = tight(8, d, big)
    first = sim.simulate("noncommut-tree-dyn", comm, [0] * 8)
    first_step = [(e.processor, e.peer) for e in first.trace if e.kind == "transfer"][:4]
    assert first_step == [(1, 0), (3, 2), (5, 4), (7, 6)]
    assert all(e.end - e.start == big for e in first.trace if e.kind == "transfer")
    # Figure 3: P2 and P4 finish slightly before P0 and P6 and pair up; then
    # two more steps are needed: 4D in all.
    comm[1][0] = comm[7][6] = big + eps
    worst = sim.simulate("noncommut-tree-dyn", comm, [0] * 8)
    assert worst.makespan == 4 * big
    later = [(e.processor, e.peer, e.start) for e in worst.trace if e.kind == "transfer"][4:]
    assert later == [(4, 2, big), (2, 0, 2 * big), (6, 0, 3 * big)]
    assert worst.value == tuple(range(8))


def test_figure2_trees():
    assert sim.binomial_tree(8) == [[1, 2, 4], [], [3], [], [5, 6], [], [7], []]
    assert sim.fibonacci_tree(8) == [[1, 2, 3, 5], [], [], [4], [], [6, 7], [], []]
    assert sim.fibonacci_order(8) == 4


# --- exactness, start times, values ------------------------------------------------------

def test_exact_and_float_modes():
    # P1 sends to P0 (the slot), which then computes.
    exact = sim.simulate("tree-dyn", [[0, "1/3"], ["2/7", 0]], ["1/5", 0])
    assert exact.makespan == Fraction(2, 7) + Fraction(1, 5)
    assert isinstance(exact.makespan, Fraction)
    floating = sim.simulate("tree-dyn", np.array([[0.0, 0.25], [0.5, 0.0]]), [0.125, 0.0])
    assert floating.makespan == 0.625 and isinstance(floating.makespan, float)
    assert floating.makespan_float == 0.625


def test_start_times_delay_the_reduction():
    # P1 joins at 5: Tree-dyn pairs P0 with P2 first (P0 slot, P2 sends at 0).
    comm, comp = homogeneous(3, 1, 0)
    result = sim.simulate("tree-dyn", comm, comp, start_times=[0, 5, 0])
    assert [(e.processor, e.peer, e.start) for e in result.trace if e.kind == "transfer"] == [
        (2, 0, 0), (1, 0, 5)]
    assert result.makespan == 6


def test_sequence_costs_number_operations_by_start():
    costs = sim.SequenceCosts.from_input([5, 1, 2], [0, 0, 0])
    result = sim.simulate("binomial-stat", costs)
    transfers = [e for e in result.trace if e.kind == "transfer"]
    assert [(e.index, e.processor, e.end - e.start) for e in transfers] == [
        (0, 1, 5), (1, 3, 1), (2, 2, 2)]
    assert result.makespan == 7


def test_matrix_product_is_reduced_in_order():
    rng = np.random.default_rng(0)
    mats = [rng.integers(-3, 4, size=(2, 2)) for _ in range(11)]
    expected = mats[0]
    for m in mats[1:]:
        expected = expected @ m
    comm = rng.integers(1, 9, size=(11, 11)).tolist()
    for algorithm in sim.NON_COMMUTATIVE_SAFE:
        result = sim.simulate(algorithm, comm, [1] * 11, values=mats, operator=np.matmul)
        assert np.array_equal(result.value, expected), algorithm


def test_single_processor():
    result = sim.simulate("fibonacci-stat", [[0]], [3])
    assert result.makespan == 0 and result.trace == [] and result.value == (0,)


# --- properties on random platforms --------------------------------------------------------

costs = st.fractions(min_value=0, max_value=10, max_denominator=6)


@st.composite
def platforms(draw, max_n=8):
    n = draw(st.integers(1, max_n))
    comm = [[draw(costs) for _ in range(n)] for _ in range(n)]
    comp = [draw(costs) for _ in range(n)]
    starts = draw(st.none() | st.lists(costs, min_size=n, max_size=n))
    return n, comm, comp, starts


def check_ports(result, comm, comp, starts):
    n = result.n
    transfers = [e for e in result.trace if e.kind == "transfer"]
    computes = [e for e in result.trace if e.kind == "compute"]
    assert len(transfers) == len(computes) == n - 1
    assert [e.index for e in transfers] == list(range(n - 1))
    assert [e.index for e in computes] == list(range(n - 1))
    senders = [e.processor for e in transfers]
    assert len(set(senders)) == n - 1 and result.root not in senders
    for e in transfers:
        assert e.end - e.start == comm[e.processor][e.peer]
        assert e.start >= (starts[e.processor] if starts else 0)
        # The sender is finished with everything it received.
        for other in result.trace:
            if other.processor == e.processor and other is not e and other.kind == "compute":
                assert other.end <= e.start
            if other.kind == "transfer" and other.peer == e.processor:
                assert other.end <= e.start
    for p in range(n):
        incoming = sorted((e.start, e.end) for e in transfers if e.peer == p)
        work = sorted((e.start, e.end) for e in computes if e.processor == p)
        for intervals in (incoming, work):
            assert all(a[1] <= b[0] for a, b in zip(intervals, intervals[1:], strict=False))
        arrivals = sorted(e.end for e in transfers if e.peer == p)
        # Reduce on receipt: the j-th computation starts after the j-th arrival.
        assert all(w[0] >= a for w, a in zip(work, arrivals, strict=True))
    for e in computes:
        assert e.end - e.start == comp[e.processor]
    assert result.makespan == max([e.end for e in result.trace] + list(starts or [0]))


@settings(max_examples=60)
@given(platforms(), st.sampled_from(sim.ALGORITHMS))
def test_traces_respect_the_port_rules(platform, algorithm):
    n, comm, comp, starts = platform
    check_ports(sim.simulate(algorithm, comm, comp, start_times=starts), comm, comp, starts)


@settings(max_examples=40)
@given(platforms(), st.sampled_from(sim.ALGORITHMS))
def test_makespan_lower_bound(platform, algorithm):
    n, comm, comp, _ = platform
    if n == 1:
        return
    d_min = min(comm[i][j] for i in range(n) for j in range(n) if i != j)
    assert sim.simulate(algorithm, comm, comp).makespan >= d_min * ceil_log2(n)


@settings(max_examples=60)
@given(platforms(), st.sampled_from(sim.ALGORITHMS))
def test_reduced_value(platform, algorithm):
    n, comm, comp, starts = platform
    words = [chr(ord("a") + i) * (i % 3 + 1) for i in range(n)]
    result = sim.simulate(algorithm, comm, comp, start_times=starts, values=words)
    if algorithm in sim.NON_COMMUTATIVE_SAFE:
        assert result.value == "".join(words)
        assert result.in_order and result.order == tuple(range(n))
    else:
        # Commutative methods may reorder: the multiset of letters is right.
        assert sorted(result.value) == sorted("".join(words))
        assert sorted(result.order) == list(range(n))
        assert sorted(sim.simulate(algorithm, comm, comp, start_times=starts).value) == list(
            range(n))
    # Integers under +: every method's sum is the sequential one (a multiset check).
    numbers = [7**i % 101 for i in range(n)]
    assert sim.simulate(algorithm, comm, comp, start_times=starts, values=numbers,
                        operator=lambda a, b: a + b).value == sum(numbers)


# --- bad input --------------------------------------------------------------------------------

@pytest.mark.parametrize("args, kwargs, culprit", [
    (("tree-din", [[0, 1], [1, 0]]), {}, "unknown algorithm"),
    (("tree-dyn", [[0, 1], [1]]), {}, "row 1"),
    (("tree-dyn", [[0, -1], [1, 0]]), {}, "link P0->P1"),
    (("tree-dyn", [[0, "x"], [1, 0]]), {}, "link P0->P1"),
    (("tree-dyn", [[0, 1], [float("nan"), 0]]), {}, "link P1->P0"),
    (("tree-dyn", [[0, 1], [1, 0]], [1]), {}, "comp has 1"),
    (("tree-dyn", [[0, 1], [1, 0]], [1, -2]), {}, "computation cost of P1"),
    (("tree-dyn", [[0, 1], [1, 0]]), {"start_times": [0]}, "start_times"),
    (("fibonacci-stat", [[0] * 4] * 4), {"fibonacci_order": 2}, "fibonacci_order 2"),
    (("tree-dyn", sim.SequenceCosts.from_input([1]), [0]), {}, "comp must be omitted"),
])
def test_bad_input(args, kwargs, culprit):
    with pytest.raises(InputError, match=culprit) as info:
        sim.simulate(*args, **kwargs)
    assert "\n" not in str(info.value)


# --- policies of one's own --------------------------------------------------------------------

@pytest.mark.parametrize("d, c", PAIRS)
def test_static_tree_star_and_chain(d, c):
    n = 7
    comm, comp = homogeneous(n, d, c)
    # Star: receptions back to back, computations queue behind them.
    star = sim.simulate(sim.StaticTree([list(range(1, n))] + [[]] * (n - 1), "star"), comm, comp)
    assert star.algorithm == "star"
    assert star.makespan == (n - 1) * d + c if c <= d else d + (n - 1) * c
    # Chain P6 -> P5 -> ... -> P0: nothing overlaps.
    chain = sim.simulate(sim.StaticTree([[i + 1] for i in range(n - 1)] + [[]]), comm, comp)
    assert chain.makespan == (n - 1) * (d + c)
    assert chain.value == tuple(range(n))


@pytest.mark.parametrize("children", [
    [[1], [0]],                 # a cycle, no root
    [[], [2], [3], [1]],        # a cycle beside the root
    [[1, 1], [], []],           # P1 twice, P2 never
    [[5], [], []],              # no such processor
])
def test_static_tree_rejects_non_trees(children):
    with pytest.raises(InputError, match="one tree"):
        sim.StaticTree(children)


def test_static_tree_out_of_order():
    result = sim.simulate(sim.StaticTree([[2, 1], [], []]), [[0] * 3] * 3, values=["a", "b", "c"])
    assert result.value == "acb" and result.order == (0, 2, 1) and not result.in_order


def test_static_tree_size_must_match():
    with pytest.raises(InputError, match="3 processors, but there are 2"):
        sim.simulate(sim.StaticTree([[1, 2], [], []]), [[0, 1], [1, 0]])


def test_a_policy_breaking_the_port_rules_is_stopped():
    class Greedy:
        """Sends everything to P0 at once: P0 would receive two values together."""

        name = "greedy"

        def reset(self, n):
            self.done = False

        def decide(self, state):
            if not self.done:
                self.done = True
                yield from ((p, 0) for p in range(1, state.n))

    with pytest.raises(RuntimeError, match="greedy broke the port rules: P2 -> P0"):
        sim.simulate(Greedy(), *homogeneous(3, 1, 0))
