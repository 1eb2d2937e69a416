"""MLH's benchmark protocol, run inside an MPI world (every rank calls :func:`run_benchmark`).

For each algorithm: one warm-up run, then ``repeats`` timed runs.  Before each run the
ranks synchronise with a barrier, each sleeps its own delay (the start-time skew, type 1
imbalance of MLH §2.2), stamps its initiation time, calls the reduction and stamps its
termination time as soon as its own part is over.  The root checks its result against
the sequential reduction v_0 ⊕ v_1 ⊕ ... ⊕ v_(p-1) of the same data.

Clocks.  Times are read with :func:`time.perf_counter` and put on rank 0's clock: each
rank's offset to rank 0 is estimated once, from 20 ping-pongs, as in ReproMPI and
SKaMPI: rank 0 sends at a, the rank answers with its clock t, rank 0 receives at b, and
the ping-pong with the smallest b - a gives offset = t - (a + b) / 2 (its error is at
most half that round trip).  Time 0 of a run is the instant rank 0 leaves the barrier.

Metrics (MLH §5.1), over the ranks' initiation times s_i and termination times e_i:
T1 = e_root - s_root; T2 = max(e_i - s_i); T3 = max e_i - min s_i; T4 = mean(e_i - s_i);
T5 = min(e_i - s_i); and T1_root = e_root, the time at which the root holds the result,
time 0 being the barrier: T1 plus the root's imbalance, as MLH report it, where the
imbalance is the root's real start s_root (its delay, plus the sleep's overshoot).
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from hetcoll.mpi.algorithms import make_algorithm
from hetcoll.mpi.operators import OPERATORS, operand, sequential_reduction
from hetcoll.mpi.vcollectives import (
    MpiGatherv,
    MpiScatterv,
    TreeGatherv,
    TreeScatterv,
    VCollective,
)
from hetcoll.sim.imbalance.model import metrics

__all__ = ["estimate_clock_offsets", "run_benchmark"]

_PING = 7


def estimate_clock_offsets(comm: Any, rounds: int = 20) -> np.ndarray | None:
    """Each rank's clock minus rank 0's, at rank 0 (None elsewhere); see the module doc."""
    rank, size = comm.Get_rank(), comm.Get_size()
    stamp = np.zeros(1)
    offsets = np.zeros(size) if rank == 0 else None
    for other in range(1, size):
        if rank == 0:
            best = np.inf
            for _ in range(rounds):
                sent = time.perf_counter()
                comm.Send(stamp, dest=other, tag=_PING)
                comm.Recv(stamp, source=other, tag=_PING)
                received = time.perf_counter()
                if received - sent < best:
                    best = received - sent
                    offsets[other] = stamp[0] - (sent + received) / 2
        elif rank == other:
            for _ in range(rounds):
                comm.Recv(stamp, source=0, tag=_PING)
                stamp[0] = time.perf_counter()
                comm.Send(stamp, dest=0, tag=_PING)
    return offsets


def run_benchmark(comm: Any, config: dict[str, Any]) -> dict[str, Any] | None:
    """Run every algorithm of ``config`` on ``comm``; the report at rank 0, None elsewhere.

    Parameters
    ----------
    comm : mpi4py.MPI.Comm
    config : dict
        ``collective`` (``"reduce"``, the default, ``"scatterv"`` or ``"gatherv"``),
        ``algorithms`` (names), ``root``, ``seed`` and ``delays``: one list of
        per-rank delays in seconds for each repeat.  Reduce: ``operator`` (``"sum"`` or
        ``"matmul"``) and ``elements``.  Scatterv/gatherv: ``blocks`` (each rank's
        block size in float64 elements) and ``trees``: name -> ``{"parent": [rank or
        None], "children": [[ranks in order]]}`` (``mpi`` needs none).  Every rank
        that receives data checks it: the root the reduction or the gathered buffer,
        each rank its scattered block.

    Returns
    -------
    dict or None
        At rank 0: ``{"algorithms": {name: {"correct", "T1".."T5", "T1_root",
        "repeats": [per-run metrics, with each rank's "starts" and "ends"]}},
        "clock_offsets": [...]}``; the T values are means over the repeats.
    """
    rank, size = comm.Get_rank(), comm.Get_size()
    root = config["root"]
    value, expected, make = _prepare(comm, config)
    offsets = estimate_clock_offsets(comm)
    offsets = comm.bcast(offsets, root=0)
    report: dict[str, Any] = {}
    for name in config["algorithms"]:
        algorithm = make(name)
        algorithm.setup()
        runs, correct = [], True
        for index, delays in enumerate([[0.0] * size, *config["delays"]]):
            algorithm.reset()
            comm.Barrier()
            zero = comm.bcast(time.perf_counter(), root=0)  # rank 0 left the barrier
            time.sleep(delays[rank])
            start = time.perf_counter() - offsets[rank]
            result = algorithm.run(None if value is None else value.copy())
            # An algorithm whose ranks keep serving others after their own part (e.g.
            # LocalReduce's redirects) says when that part ended.
            end = (getattr(algorithm, "ended", None) or time.perf_counter()) - offsets[rank]
            stamps = comm.gather((start, end), root=0)
            ok = expected is None or bool(np.array_equal(result, expected))
            ok = comm.allreduce(ok, op=_logical_and())
            if index == 0:
                continue  # the warm-up run
            correct &= ok
            if rank == 0:
                starts = np.array([s for s, _ in stamps]) - zero
                ends = np.array([e for _, e in stamps]) - zero
                # The simulator's definitions, on measured times (module docstring).
                runs.append(metrics(starts.tolist(), ends.tolist(), root) |
                            {"correct": ok, "starts": starts.tolist(), "ends": ends.tolist()})
        algorithm.teardown()
        if rank == 0:
            keys = ("T1", "T2", "T3", "T4", "T5", "T1_root")
            report[name] = {"correct": correct} | {
                key: float(np.mean([run[key] for run in runs])) for key in keys
            } | {"repeats": runs}
    if rank != 0:
        return None
    return {"algorithms": report, "clock_offsets": [float(o) for o in offsets]}


def _prepare(comm: Any, config: dict[str, Any]) -> tuple[Any, Any, Any]:
    """This rank's input, the result it must hold (None: nothing to check) and a
    factory of the algorithms, for the collective ``config["collective"]``."""
    rank, size = comm.Get_rank(), comm.Get_size()
    root, seed = config["root"], config["seed"]
    kind = config.get("collective", "reduce")
    if kind == "reduce":
        op = OPERATORS[config["operator"]]
        elements = config["elements"]
        expected = (sequential_reduction(
            op, [operand(op, r, elements, seed) for r in range(size)])
            if rank == root else None)
        return (operand(op, rank, elements, seed), expected,
                lambda name: make_algorithm(name, comm, op, root, elements))
    blocks = config["blocks"]
    data = [operand(OPERATORS["sum"], r, blocks[r], seed) for r in range(size)]
    whole = np.concatenate(data)

    def make(name: str) -> VCollective:
        if name == "mpi":
            return (MpiScatterv if kind == "scatterv" else MpiGatherv)(comm, root, blocks)
        tree = config["trees"][name]
        return (TreeScatterv if kind == "scatterv" else TreeGatherv)(
            comm, root, blocks, tree["parent"], tree["children"])

    if kind == "scatterv":
        return (whole if rank == root else None), data[rank], make
    return data[rank], (whole if rank == root else None), make


def _logical_and():
    from mpi4py import MPI

    return MPI.LAND
