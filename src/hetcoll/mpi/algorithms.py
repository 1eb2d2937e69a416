"""Reduce algorithms over MPI, on numpy buffers (never pickled objects).

Every algorithm is a :class:`ReduceAlgorithm`: ``setup`` (collective, untimed: windows
and operators), ``reset`` (collective, before each run), ``reduce`` (timed: returns
the reduced value at the root, None elsewhere) and ``teardown``.  ``reduce`` returns
as soon as the calling rank's own part is over, so the caller can stamp its end time
(MLH's T2-T5 are per-process times).

The dynamic algorithms keep their shared state in an MPI window hosted by rank 0,
allocated with ``Win.Allocate`` and accessed inside one passive epoch
(``Lock_all`` ... ``Unlock_all``) with atomic operations followed by ``Flush``: with
``Win.Lock`` per operation, every access waited for the host rank to make MPI progress,
so a sleeping host stalled the whole dynamic algorithm (NOTES.md §5).

References
----------
Benoit, Canon, Marchal, RR 8315, section 3 (Binomial-stat, Fibonacci-stat, Tree-dyn,
Non-Commut-Tree-dyn); Thakur, Rabenseifner, Gropp, "Optimization of collective
communication operations in MPICH", IJHPCA 19(1), 2005 (binomial and Rabenseifner's
reduce); Marendić et al. (the benchmark protocol, :mod:`hetcoll.mpi.bench`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from hetcoll.core.errors import InputError
from hetcoll.mpi.operators import Operator
from hetcoll.sim.trees import binomial_tree, fibonacci_tree

__all__ = ["ALGORITHMS", "ReduceAlgorithm", "make_algorithm"]

_FINAL = 1  # the reduced value, sent to the root by whoever holds it
_COMMAND = 2  # Non-Commut-Tree-dyn: "send me your value" (payload: the merge number)
_MERGE = 100  # tag of the data of merge number m: _MERGE + m


class ReduceAlgorithm:
    """One reduce algorithm on one communicator (see the module docstring)."""

    #: Whether the algorithm reduces in rank order (safe for non-commutative operators).
    ordered = True

    def __init__(self, comm: Any, op: Operator, root: int, elements: int) -> None:
        self.comm, self.op, self.root, self.elements = comm, op, root, elements
        self.rank, self.size = comm.Get_rank(), comm.Get_size()

    def setup(self) -> None:  # noqa: B027 - most algorithms need none
        """Collective, untimed preparation."""

    def reset(self) -> None:  # noqa: B027
        """Collective, untimed, before each run."""

    def teardown(self) -> None:  # noqa: B027
        """Collective clean-up."""

    def reduce(self, value: np.ndarray) -> np.ndarray | None:
        raise NotImplementedError

    def run(self, value: np.ndarray) -> np.ndarray | None:
        """The timed call of the benchmark (:mod:`hetcoll.mpi.bench`): ``reduce``."""
        return self.reduce(value)

    def _buffer(self) -> np.ndarray:
        return np.empty(self.elements, dtype=self.op.dtype)

    def _deliver(self, value: np.ndarray | None, holder: int) -> np.ndarray | None:
        """Move the final value from ``holder`` to the root (part of every algorithm)."""
        if holder == self.root:
            return value if self.rank == self.root else None
        if self.rank == holder:
            self.comm.Send(value, dest=self.root, tag=_FINAL)
            return None
        if self.rank == self.root:
            final = self._buffer()
            self.comm.Recv(final, source=holder, tag=_FINAL)
            return final
        return None


class Linear(ReduceAlgorithm):
    """The root receives every value in rank order and combines left to right."""

    def reduce(self, value):
        if self.rank != self.root:
            self.comm.Send(value, dest=self.root, tag=_FINAL)
            return None
        result, incoming = None, self._buffer()
        for rank in range(self.size):
            if rank == self.root:
                operand = value
            else:
                self.comm.Recv(incoming, source=rank, tag=_FINAL)
                operand = incoming
            result = operand.copy() if result is None else self.op.combine(result, operand)
        return result


class StaticTree(ReduceAlgorithm):
    """A static tree given as ``children[r]`` (reception order), rooted at rank 0.

    Each receiver holds the interval just left of what it receives, so the order is
    kept (RR 8315, section 3.2); rank 0 then sends the result to the root.
    """

    def __init__(self, comm, op, root, elements, children: list[list[int]]) -> None:
        super().__init__(comm, op, root, elements)
        self.children = children[self.rank]
        self.parent = next((r for r, kids in enumerate(children) if self.rank in kids), None)

    def reduce(self, value):
        incoming = self._buffer()
        for child in self.children:
            self.comm.Recv(incoming, source=child, tag=_FINAL)
            value = self.op.combine(value, incoming)
        if self.parent is not None:
            self.comm.Send(value, dest=self.parent, tag=_FINAL)
            value = None
        return self._deliver(value, 0)


class Binomial(ReduceAlgorithm):
    """MPICH's binomial reduce: on ranks relative to the root when the operator
    commutes, else on absolute ranks with a final send to the root."""

    def reduce(self, value):
        base = self.root if self.op.commutative else 0
        relative = (self.rank - base) % self.size
        incoming, mask = self._buffer(), 1
        while mask < self.size:
            if relative & mask:
                self.comm.Send(value, dest=(relative - mask + base) % self.size, tag=_FINAL)
                value = None
                break
            source = relative | mask
            if source < self.size:
                self.comm.Recv(incoming, source=(source + base) % self.size, tag=_FINAL)
                value = self.op.combine(value, incoming)
            mask <<= 1
        return self._deliver(value, base)


def _halving_bounds(elements: int, parts: int) -> list[int]:
    """Block boundaries after recursive halving of [0, elements) into ``parts`` blocks."""
    if parts == 1:
        return [0, elements]
    middle = elements // 2
    left = _halving_bounds(middle, parts // 2)
    right = _halving_bounds(elements - middle, parts // 2)
    return left[:-1] + [middle + b for b in right]


class Rabenseifner(ReduceAlgorithm):
    """Reduce-scatter by recursive halving, then a binomial gather (commutative only).

    For p not a power of two, the first 2r ranks (r = p - 2^k) fold pairwise first, as
    in Rabenseifner's and MPICH's implementation: each even one sends its vector to the
    odd one above it and drops out.
    """

    ordered = False

    def reduce(self, value):
        power = 1 << (self.size.bit_length() - 1)
        extra = self.size - power
        incoming = self._buffer()
        if self.rank < 2 * extra:
            if self.rank % 2 == 0:
                self.comm.Send(value, dest=self.rank + 1, tag=_FINAL)
                return self._deliver(None, 1 if extra else 0)
            self.comm.Recv(incoming, source=self.rank - 1, tag=_FINAL)
            value = self.op.combine(incoming, value)
            new = self.rank // 2
        else:
            new = self.rank - extra

        def old(rank: int) -> int:
            return 2 * rank + 1 if rank < extra else rank + extra

        bounds = _halving_bounds(self.elements, power)
        low, high, distance = 0, power, power // 2
        value = value.copy()
        while distance:  # reduce-scatter: keep the half of the blocks holding my own
            middle = low + distance
            partner = new ^ distance
            keep, give = ((low, middle), (middle, high)) if new < middle else \
                ((middle, high), (low, middle))
            kept = slice(bounds[keep[0]], bounds[keep[1]])
            given = slice(bounds[give[0]], bounds[give[1]])
            part = np.empty(kept.stop - kept.start, dtype=self.op.dtype)
            self.comm.Sendrecv(np.ascontiguousarray(value[given]), dest=old(partner),
                               sendtag=_FINAL, recvbuf=part, source=old(partner),
                               recvtag=_FINAL)
            value[kept] = self.op.combine(value[kept], part)
            low, high = keep
            distance //= 2
        mask = 1  # binomial gather of the blocks to new rank 0
        while mask < power:
            if new & mask:
                span = slice(bounds[new], bounds[min(new + mask, power)])
                self.comm.Send(np.ascontiguousarray(value[span]), dest=old(new - mask),
                               tag=_FINAL)
                return self._deliver(None, old(0))
            if new + mask < power:
                span = slice(bounds[new + mask], bounds[min(new + 2 * mask, power)])
                part = np.empty(span.stop - span.start, dtype=self.op.dtype)
                self.comm.Recv(part, source=old(new + mask), tag=_FINAL)
                value[span] = part
            mask <<= 1
        return self._deliver(value, old(0))


class _Windowed(ReduceAlgorithm):
    """Shared int64 state in a window hosted by rank 0, inside one passive epoch."""

    words = 0

    def setup(self):
        from mpi4py import MPI

        self.MPI = MPI
        size = 8 * self.words if self.rank == 0 else 0
        self.window = MPI.Win.Allocate(size, disp_unit=8, comm=self.comm)
        self.window.Lock_all()
        self._one = np.ones(1, dtype=np.int64)
        self._result = np.zeros(1, dtype=np.int64)

    def reset(self):
        if self.rank == 0:
            self.window.Sync()
            memory = np.frombuffer(self.window.tomemory(), dtype=np.int64)
            memory[:] = self.initial_state()
            self.window.Sync()
        self.comm.Barrier()

    def initial_state(self) -> np.ndarray:
        raise NotImplementedError

    def teardown(self):
        self.window.Unlock_all()
        self.window.Free()

    def _cas(self, index: int, expected: int, new: int) -> int:
        self.window.Compare_and_swap(np.array([new], dtype=np.int64),
                                     np.array([expected], dtype=np.int64), self._result,
                                     0, index)
        self.window.Flush(0)
        return int(self._result[0])

    def _fetch_add(self, index: int) -> int:
        self.window.Fetch_and_op(self._one, self._result, 0, index, op=self.MPI.SUM)
        self.window.Flush(0)
        return int(self._result[0])


class TreeDyn(_Windowed):
    """RR's Tree-dyn: one slot (and a merge counter) in the window; commutative only.

    An idle rank swaps itself into the empty slot and waits for a value; finding the
    slot taken, it empties it and sends its value to the occupant, and leaves.  The
    rank that completes merge p - 1 holds the result.
    """

    ordered = False
    words = 2  # slot (-1: empty), merges started

    def initial_state(self):
        return np.array([-1, 0], dtype=np.int64)

    def reduce(self, value):
        if self.size == 1:
            return value
        incoming = self._buffer()
        status = self.MPI.Status()
        while True:
            occupant = self._cas(0, -1, self.rank)
            if occupant == -1:  # in the slot: wait for a value
                self.comm.Recv(incoming, source=self.MPI.ANY_SOURCE,
                               tag=self.MPI.ANY_TAG, status=status)
                value = self.op.combine(value, incoming)
                if status.Get_tag() - _MERGE == self.size - 1:
                    return self._deliver(value, self.rank)
                continue
            if self._cas(0, occupant, -1) != occupant:
                continue  # another rank took the occupant first
            merge = self._fetch_add(1) + 1
            self.comm.Send(value, dest=occupant, tag=_MERGE + merge)
            return self._wait_final()

    def _wait_final(self):
        if self.rank != self.root:
            return None
        final = self._buffer()
        self.comm.Recv(final, source=self.MPI.ANY_SOURCE, tag=_FINAL)
        return final


class NonCommutTreeDyn(_Windowed):
    """RR's Non-Commut-Tree-dyn: idle holders of neighbouring intervals pair up.

    The window holds a spin lock, the merge counter and, per interval [k, m]: its right
    end, its holder and whether it is idle (indexed by k), and its left end (indexed by
    m).  An idle holder pairs with its idle left neighbour first, else its right one;
    the holder of the right interval sends (the rule hetcoll's simulator and CTMC use).
    A rank that finds no idle neighbour marks itself idle and waits for either the
    right neighbour's value or a left neighbour's request for its own.
    """

    def setup(self):
        self.words = 2 + 4 * self.size
        super().setup()

    def initial_state(self):
        n = self.size
        ranks = np.arange(n, dtype=np.int64)
        # lock, merges | right end by left end | holder | idle | left end by right end
        return np.concatenate([[0, 0], ranks, ranks, np.zeros(n, dtype=np.int64), ranks])

    def _lock(self):
        while self._cas(0, 0, self.rank + 1) != 0:
            pass

    def _unlock(self):
        self._cas(0, self.rank + 1, 0)

    def _read(self) -> np.ndarray:
        state = np.empty(self.words, dtype=np.int64)
        self.window.Get(state, 0, 0)
        self.window.Flush(0)
        return state

    def _write(self, state: np.ndarray) -> None:
        self.window.Put(state[1:], 0, 1)  # everything but the lock
        self.window.Flush(0)

    def reduce(self, value):
        n = self.size
        if n == 1:
            return value
        MPI = self.MPI
        right_end, holder, idle, left_end = (slice(2 + i * n, 2 + (i + 1) * n)
                                             for i in range(4))
        start, incoming, status = self.rank, self._buffer(), MPI.Status()
        command = np.zeros(1, dtype=np.int64)
        while True:
            self._lock()
            state = self._read()
            end = int(state[right_end][start])
            left = int(state[left_end][start - 1]) if start > 0 else -1
            right = end + 1 if end + 1 < n else -1
            if left >= 0 and state[idle][left]:
                # I hold the right interval: I send, and the left one's grows.
                target, merge = int(state[holder][left]), int(state[1]) + 1
                state[1] = merge
                state[right_end][left], state[left_end][end] = end, left
                state[idle][left] = 0
                self._write(state)
                self._unlock()
                self.comm.Send(value, dest=target, tag=_MERGE + merge)
                return self._wait_final()
            if right >= 0 and state[idle][right]:
                # I hold the left interval: the right one sends to me.
                source, merge = int(state[holder][right]), int(state[1]) + 1
                new_end = int(state[right_end][right])
                state[1] = merge
                state[right_end][start], state[left_end][new_end] = new_end, start
                state[idle][right] = 0
                self._write(state)
                self._unlock()
                command[0] = merge
                self.comm.Send(command, dest=source, tag=_COMMAND)
                self.comm.Recv(incoming, source=source, tag=_MERGE + merge)
                value = self.op.combine(value, incoming)
                if merge == n - 1:
                    return self._deliver(value, self.rank)
                continue
            state[idle][start] = 1
            self._write(state)
            self._unlock()
            self.comm.Probe(source=MPI.ANY_SOURCE, tag=MPI.ANY_TAG, status=status)
            if status.Get_tag() == _COMMAND:
                self.comm.Recv(command, source=status.Get_source(), tag=_COMMAND)
                self.comm.Send(value, dest=status.Get_source(),
                               tag=_MERGE + int(command[0]))
                return self._wait_final()
            merge = status.Get_tag() - _MERGE
            self.comm.Recv(incoming, source=status.Get_source(), tag=status.Get_tag())
            value = self.op.combine(value, incoming)  # from my right neighbour
            if merge == n - 1:
                return self._deliver(value, self.rank)

    _wait_final = TreeDyn._wait_final


_CONTROL, _DATA = 3, 4  # LocalReduce: control messages [kind, argument], data
_COMPLETION, _HANDSHAKE, _REFUSE, _HEADER, _REDIRECT, _FINISH = range(6)
_READY, _BUSY, _DONE = 0, 1, 2


class LocalReduce(ReduceAlgorithm):
    """MLH's Algorithm 2, LocalReduce, following :func:`hetcoll.sim.imbalance.local_reduce`.

    The same line (data flows to lower ranks; the receiver computes own ⊕ received, so
    the order is kept), the same messages (completion, handshake, busy, data, whose
    header carries the sender's up neighbour and interval length, redirect) and the
    same tie-break (a rank waiting for its handshake's reply defers its down's
    handshake).  Rank 0 holds the result once its interval has all p values, and tells
    every rank to finish; finished ranks keep answering (redirect, busy) until then.
    Each rank's end stamp (``ended``) is when its own data left, or, at rank 0, when
    the result was complete, not when it stopped answering.  Clean-up: a barrier
    (nobody sends after it), then each rank receives the control messages still
    addressed to it, whose number the ranks exchange.
    """

    def reduce(self, value):
        import time

        from mpi4py import MPI

        comm, rank, p = self.comm, self.rank, self.size
        self.ended = None
        if p == 1:
            return value
        up = rank + 1 if rank + 1 < p else None
        down = rank - 1 if rank else None
        state, awaiting, deferred, offered = _READY, False, False, False
        length, finished, received = 1, False, 0
        sent = [0] * p
        incoming, message, status = self._buffer(), np.zeros(2, dtype=np.int64), MPI.Status()

        def control(kind: int, to: int, argument: int = -1) -> None:
            comm.Send(np.array([kind, argument], dtype=np.int64), dest=to, tag=_CONTROL)
            sent[to] += 1

        def ready() -> None:
            nonlocal state, offered, awaiting
            state = _READY
            if down is not None:
                control(_COMPLETION, down)
            if offered and up is not None:
                offered, awaiting = False, True
                control(_HANDSHAKE, up)

        def send_data() -> None:
            nonlocal state, offered
            state = _BUSY
            control(_HEADER, down, (-1 if up is None else up) * (p + 1) + length)
            comm.Send(value, dest=down, tag=_DATA)
            state, offered = _DONE, False
            self.ended = time.perf_counter()
            if up is not None:
                control(_REDIRECT, up, down)

        ready()
        while not finished:
            comm.Recv(message, source=MPI.ANY_SOURCE, tag=_CONTROL, status=status)
            received += 1
            kind, argument, sender = int(message[0]), int(message[1]), status.Get_source()
            if kind == _FINISH:
                finished = True
            elif kind == _COMPLETION:
                if state == _DONE:
                    control(_REDIRECT, sender, down)
                elif state == _READY and not awaiting and up == sender:
                    awaiting = True
                    control(_HANDSHAKE, sender)
                else:
                    offered = True
            elif kind == _HANDSHAKE:
                if state == _READY and not awaiting:
                    send_data()
                elif state == _READY:
                    deferred = True
                else:
                    control(_REFUSE, sender)
            elif kind == _REFUSE:
                awaiting = False
                if deferred and state == _READY:
                    deferred = False
                    send_data()
            elif kind == _HEADER:
                awaiting, state = False, _BUSY
                if deferred:
                    deferred = False
                    control(_REFUSE, down)
                comm.Recv(incoming, source=sender, tag=_DATA)
                value = self.op.combine(value, incoming)
                new_up, added = divmod(argument, p + 1)
                up = None if new_up == -1 else new_up
                length += added
                if length == p:  # rank 0 holds every value
                    self.ended = time.perf_counter()
                    for other in range(1, p):
                        control(_FINISH, other)
                    finished = True
                else:
                    ready()
            elif state != _DONE and down == sender:  # a redirect
                down = argument
                if state == _READY:
                    control(_COMPLETION, down)
        comm.Barrier()
        for _ in range(sum(comm.alltoall(sent)) - received):
            comm.Recv(message, source=MPI.ANY_SOURCE, tag=_CONTROL)
        if self.root != 0 and rank in (0, self.root):
            self.ended = None  # the final transfer to the root is part of the algorithm
        return self._deliver(value if rank == 0 else None, 0)


class MpiReduce(ReduceAlgorithm):
    """``MPI_Reduce`` itself, the baseline (a user-defined non-commutative op for matmul)."""

    def setup(self):
        from mpi4py import MPI

        self.MPI = MPI
        if self.op.commutative:
            self.mpi_op, self._created = MPI.SUM, False
            return
        combine, dtype = self.op.combine, self.op.dtype

        def function(inbuf, inoutbuf, datatype):
            left = np.frombuffer(inbuf, dtype=dtype)
            out = np.frombuffer(inoutbuf, dtype=dtype)
            out[:] = combine(left, out)  # MPI: inoutvec = invec ∘ inoutvec

        self.mpi_op, self._created = MPI.Op.Create(function, commute=False), True

    def teardown(self):
        if self._created:
            self.mpi_op.Free()

    def reduce(self, value):
        result = self._buffer() if self.rank == self.root else None
        self.comm.Reduce(value, result, op=self.mpi_op, root=self.root)
        return result


#: Name -> factory(comm, op, root, elements) of every reduce algorithm.
ALGORITHMS = {
    "linear": Linear,
    "binomial": Binomial,
    "rabenseifner": Rabenseifner,
    "binomial-stat": lambda comm, op, root, elements: StaticTree(
        comm, op, root, elements, binomial_tree(comm.Get_size())),
    "fibonacci-stat": lambda comm, op, root, elements: StaticTree(
        comm, op, root, elements, fibonacci_tree(comm.Get_size())),
    "tree-dyn": TreeDyn,
    "noncommut-tree-dyn": NonCommutTreeDyn,
    "local-reduce": LocalReduce,
    "mpi": MpiReduce,
}

#: Algorithms that do not keep rank order (commutative operators only).
UNORDERED = ("rabenseifner", "tree-dyn")


def make_algorithm(name: str, comm: Any, op: Operator, root: int,
                   elements: int) -> ReduceAlgorithm:
    """Build algorithm ``name`` on ``comm``.

    Raises
    ------
    InputError
        An unknown name, or an order-changing algorithm with a non-commutative operator.
    """
    if name not in ALGORITHMS:
        raise InputError(f"unknown algorithm {name!r} (choose from {', '.join(ALGORITHMS)})")
    if name in UNORDERED and not op.commutative:
        raise InputError(f"{name} changes the order of the operands: it needs a "
                         f"commutative operator, not {op.name}")
    return ALGORITHMS[name](comm, op, root, elements)
