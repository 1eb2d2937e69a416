"""hetcoll.mpi: every algorithm over real MPI ranks, checked against the sequential reduction.

The ranks are started by mpiexec on this 2-core machine (oversubscribed from np = 3):
fine for correctness, not for timings.
"""

from __future__ import annotations

import numpy as np
import pytest

from hetcoll.core.errors import InputError, LimitError
from hetcoll.mpi import ALGORITHMS, run_reduce
from hetcoll.mpi import algorithms as algorithms_module
from hetcoll.mpi import bench as bench_module
from hetcoll.mpi.algorithms import ReduceAlgorithm, _halving_bounds
from hetcoll.mpi.operators import OPERATORS, operand, sequential_reduction

ORDERED = [name for name in ALGORITHMS if name not in ("rabenseifner", "tree-dyn")]


@pytest.mark.parametrize("n_ranks", [1, 2, 3, 4, 5, 8])
def test_every_algorithm_is_correct_with_random_delays(n_ranks):
    rng = np.random.default_rng(n_ranks)
    delays = [rng.uniform(0, 0.02, n_ranks).tolist() for _ in range(2)]
    total = run_reduce(n_ranks, list(ALGORITHMS), elements=24, delays=delays, seed=n_ranks,
                       root=n_ranks // 2)
    assert total.success, total.message
    assert set(total.algorithms) == set(ALGORITHMS)
    assert all(row["correct"] for row in total.algorithms.values())
    # Non-commutative: every order-keeping algorithm, root elsewhere than rank 0.
    product = run_reduce(n_ranks, ORDERED, elements=24, operator="matmul", delays=delays,
                         seed=n_ranks, root=n_ranks - 1)
    assert product.success and all(row["correct"] for row in product.algorithms.values())
    for row in total.algorithms.values():
        for run, delay in zip(row["repeats"], delays, strict=True):
            # A rank starts after its delay, and the root holds the result at T1_root.
            assert all(s >= d - 1e-3 for s, d in zip(run["starts"], delay, strict=True))
            assert run["T1_root"] == pytest.approx(run["ends"][n_ranks // 2], abs=1e-9)
            assert run["T3"] >= run["T2"] - 1e-9 >= run["T4"] - 2e-9 >= run["T5"] - 3e-9


def test_dynamic_algorithms_do_not_wait_for_a_sleeping_host():
    # Rank 0 hosts the shared window and is the root; it sleeps 300 ms. Tree-dyn's
    # other ranks merge without it (NOTES.md §5: with Win.Lock per operation they all
    # waited for the host); the binomial tree waits for rank 0's subtree.
    delays = [[0.3, 0.0, 0.0, 0.0]] * 2
    result = run_reduce(4, ["binomial", "tree-dyn", "noncommut-tree-dyn", "local-reduce"],
                        elements=1024, delays=delays, seed=1)
    assert result.success
    rows = result.algorithms
    for name in ("tree-dyn", "noncommut-tree-dyn", "local-reduce"):
        assert rows[name]["T1_root"] <= rows["binomial"]["T1_root"] + 0.05
    for run in rows["tree-dyn"]["repeats"]:
        # Two of ranks 1-3 send and leave long before the host wakes up.
        assert sorted(run["ends"][1:])[1] < 0.15, run["ends"]


def test_a_wrong_result_is_reported_not_hidden(monkeypatch, one_rank_world):
    # In-process, one rank: an algorithm that returns a wrong value is caught.
    class OffByOne(ReduceAlgorithm):
        def reduce(self, value):
            return value + 1

    monkeypatch.setitem(algorithms_module.ALGORITHMS, "wrong", OffByOne)
    config = {"algorithms": ["wrong", "linear"], "operator": "sum", "elements": 4,
              "root": 0, "seed": 0, "delays": [[0.0]]}
    report = bench_module.run_benchmark(one_rank_world, config)
    assert report["algorithms"]["wrong"]["correct"] is False
    assert report["algorithms"]["linear"]["correct"] is True


def test_matmul_is_not_commutative_and_the_reference_keeps_rank_order():
    op = OPERATORS["matmul"]
    values = [operand(op, rank, 8, seed=5) for rank in range(3)]
    forward = sequential_reduction(op, values)
    assert not np.array_equal(forward, sequential_reduction(op, values[::-1]))
    # (A B) C computed by hand on the first matrix of each value.
    a, b, c = (v[:4].reshape(2, 2) for v in values)
    assert forward[:4].tolist() == ((a @ b % 65521) @ c % 65521).reshape(-1).tolist()


def test_halving_bounds_split_in_rank_order():
    assert _halving_bounds(10, 4) == [0, 2, 5, 7, 10]
    assert _halving_bounds(3, 4) == [0, 0, 1, 2, 3]  # 3 = 1 + 2, each half halved


@pytest.mark.parametrize("kwargs, words", [
    ({"n_ranks": 0}, "--np"),
    ({"n_ranks": 100}, "over the limit of 64 ranks"),
    ({"n_ranks": 2, "algorithms": ["fastest"]}, "unknown algorithm 'fastest'"),
    ({"n_ranks": 2, "algorithms": ["tree-dyn"], "operator": "matmul"}, "commutative"),
    ({"n_ranks": 2, "operator": "matmul", "elements": 6}, "multiple of 4"),
    ({"n_ranks": 2, "root": 2}, "--root 2"),
    ({"n_ranks": 2, "delays": [[0.0]]}, "1 entries for 2 ranks"),
    ({"n_ranks": 2, "delays": [[0.0, -1.0]]}, "[0, 3600]"),
])
def test_bad_parameters_are_refused_by_name(kwargs, words):
    kwargs = {"algorithms": ["linear"]} | kwargs
    with pytest.raises((InputError, LimitError)) as error:
        run_reduce(kwargs.pop("n_ranks"), kwargs.pop("algorithms"), **kwargs)
    assert words in str(error.value)
