"""Compiled event loops: many runs of one algorithm, one run after the other.

These are the Monte Carlo fast path.  They implement exactly the rules of
:mod:`sim.engine` (rounds, tie-breaks, numbering of operations for common
random numbers) with float64 costs, and compute the same float additions, so
a run gives bit for bit the makespan :func:`sim.simulate` gives with
:class:`sim.SequenceCosts` of the same draws (a hypothesis test checks it,
ties and zero costs included).

Instead of scanning every processor each round as the exact engine does,
events sit in a binary heap (operations that end at the instant they start,
cost 0, wait in a same-instant queue: they make the next round), and a round
only looks at the processors its events touched, sorted by index, plus, for
the static trees, their parents and, for Non-Commut-Tree-dyn, their
neighbours.  This gives the same decisions, because at the end of every round
nothing startable is left: Tree-dyn has at most one idle processor (in the
slot), Non-Commut-Tree-dyn no two idle neighbours, a static tree no transfer
whose two ends are ready.

Event keys pack ``processor << 2 | event``, so sorting keys sorts processors.
numba compiles each loop on first use (seconds; then cached on disk).

The three loops deliberately repeat two pieces of machinery: gathering a
round (same-instant queue, else the heap's earliest events) and scheduling an
event (``end == now``: same-instant queue, else the heap).  Both were tried as
shared ``@njit`` helpers (plain and ``inline="always"``): numba then adds
reference counting of the array arguments inside the hot loop, and at n = 64
the kernels ran 25-60% fewer runs per second (numba 0.68).  Keep them written
out; a change to one copy must be made to all three loops.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from hetcoll.sim.trees import binomial_tree, fibonacci_tree

__all__ = [
    "makespans",
    "noncommut_tree_dyn_makespans",
    "static_tree_makespans",
    "tree_dyn_makespans",
]

_START, _RECEIVED, _COMPUTED = 0, 1, 2
_ABSENT, _IDLE, _BUSY, _DONE = 0, 1, 2, 3


@njit(cache=True, nogil=True)
def _push(times, keys, size, time, key):
    i = size
    while i > 0:
        up = (i - 1) >> 1
        if times[up] <= time:
            break
        times[i] = times[up]
        keys[i] = keys[up]
        i = up
    times[i] = time
    keys[i] = key
    return size + 1


@njit(cache=True, nogil=True)
def _pop(times, keys, size):
    """Remove the root; returns the new size (the caller read the root first)."""
    size -= 1
    time = times[size]
    key = keys[size]
    i = 0
    while True:
        child = 2 * i + 1
        if child >= size:
            break
        if child + 1 < size and times[child + 1] < times[child]:
            child += 1
        if times[child] >= time:
            break
        times[i] = times[child]
        keys[i] = keys[child]
        i = child
    times[i] = time
    keys[i] = key
    return size


@njit(cache=True, nogil=True)
def _insert(items, count, value):
    """Insert ``value`` into the sorted ``items[:count]`` unless there; new count."""
    i = count
    while i > 0 and items[i - 1] > value:
        i -= 1
    if i > 0 and items[i - 1] == value:
        return count
    for j in range(count, i, -1):
        items[j] = items[j - 1]
    items[i] = value
    return count + 1


@njit(cache=True, nogil=True)
def _initial_events(times, keys, instant, start_row, n):
    """Start events: at time 0 in the instant queue, later ones in the heap."""
    size = 0
    count = 0
    for p in range(n):
        if start_row[p] <= 0.0:
            instant[count] = (p << 2) | _START
            count += 1
        else:
            size = _push(times, keys, size, start_row[p], (p << 2) | _START)
    return size, count


@njit(cache=True, nogil=True)
def _static_batch(comm, comp, start, child_ptr, child_idx, parent):
    """Static trees: P_r receives from child_idx[child_ptr[r]:child_ptr[r+1]] in order."""
    runs, n = start.shape
    out = np.empty(runs)
    n_children = child_ptr[1:] - child_ptr[:-1]
    present = np.zeros(n, np.bool_)
    receiving = np.zeros(n, np.bool_)
    computing = np.zeros(n, np.bool_)
    waiting = np.zeros(n, np.int64)
    computed = np.zeros(n, np.int64)
    next_child = np.zeros(n, np.int64)
    times = np.zeros(3 * n)
    keys = np.zeros(3 * n, np.int64)
    instant = np.zeros(3 * n, np.int64)
    batch = np.zeros(3 * n, np.int64)
    candidates = np.zeros(3 * n, np.int64)
    for run in range(runs):
        present[:] = False
        receiving[:] = False
        computing[:] = False
        waiting[:] = 0
        computed[:] = 0
        next_child[:] = 0
        size, count = _initial_events(times, keys, instant, start[run], n)
        kt = 0
        kc = 0
        now = 0.0
        while True:
            # The round: the same-instant queue, or else all the heap's earliest
            # events (inlined: a numba call with this many arrays costs 3x).
            events = 0
            if count > 0:
                for i in range(count):
                    events = _insert(batch, events, instant[i])
                count = 0
            elif size > 0:
                now = times[0]
                while size > 0 and times[0] == now:
                    events = _insert(batch, events, keys[0])
                    size = _pop(times, keys, size)
            else:
                break
            for e in range(events):
                event, p = batch[e] & 3, batch[e] >> 2
                if event == _START:
                    present[p] = True
                elif event == _RECEIVED:
                    receiving[p] = False
                    waiting[p] += 1
                else:
                    computing[p] = False
                    computed[p] += 1
            c = 0
            for e in range(events):
                p = batch[e] >> 2
                if waiting[p] > 0 and not computing[p]:
                    waiting[p] -= 1
                    computing[p] = True
                    end = now + comp[run, kc]
                    if end == now:  # cost 0: next round, same instant
                        instant[count] = (p << 2) | _COMPUTED
                        count += 1
                    else:
                        size = _push(times, keys, size, end, (p << 2) | _COMPUTED)
                    kc += 1
                c = _insert(candidates, c, p)
                if parent[p] >= 0:
                    c = _insert(candidates, c, parent[p])
            # A transfer starts when the sender has reduced all it will get and
            # the receiver's previous reception is over.
            for i in range(c):
                r = candidates[i]
                if next_child[r] == n_children[r] or not present[r] or receiving[r]:
                    continue
                sender = child_idx[child_ptr[r] + next_child[r]]
                if not present[sender] or computed[sender] != n_children[sender]:
                    continue
                next_child[r] += 1
                receiving[r] = True
                end = now + comm[run, kt]
                if end == now:  # cost 0: next round, same instant
                    instant[count] = (r << 2) | _RECEIVED
                    count += 1
                else:
                    size = _push(times, keys, size, end, (r << 2) | _RECEIVED)
                kt += 1
        out[run] = now
    return out


@njit(cache=True, nogil=True)
def _noncommut_batch(comm, comp, start):
    """Non-Commut-Tree-dyn; P_p holds [low[p], high[p]] (merged at transfer start,
    which no lookup can tell from the exact engine's merge at computation start:
    both ends are busy meanwhile)."""
    runs, n = start.shape
    out = np.empty(runs)
    state = np.zeros(n, np.int8)
    low = np.zeros(n, np.int64)
    high = np.zeros(n, np.int64)
    start_owner = np.zeros(n, np.int64)
    end_owner = np.zeros(n, np.int64)
    times = np.zeros(n)
    keys = np.zeros(n, np.int64)
    instant = np.zeros(n, np.int64)
    batch = np.zeros(n, np.int64)
    candidates = np.zeros(3 * n, np.int64)
    for run in range(runs):
        for p in range(n):
            state[p] = _ABSENT
            low[p] = p
            high[p] = p
            start_owner[p] = p
            end_owner[p] = p
        size, count = _initial_events(times, keys, instant, start[run], n)
        kt = 0
        kc = 0
        now = 0.0
        while True:
            # The round: the same-instant queue, or else all the heap's earliest
            # events (inlined: a numba call with this many arrays costs 3x).
            events = 0
            if count > 0:
                for i in range(count):
                    events = _insert(batch, events, instant[i])
                count = 0
            elif size > 0:
                now = times[0]
                while size > 0 and times[0] == now:
                    events = _insert(batch, events, keys[0])
                    size = _pop(times, keys, size)
            else:
                break
            # One pending event per processor: started, received, or computed.
            c = 0
            for e in range(events):
                event, p = batch[e] & 3, batch[e] >> 2
                if event == _RECEIVED:
                    end = now + comp[run, kc]
                    if end == now:  # cost 0: next round, same instant
                        instant[count] = (p << 2) | _COMPUTED
                        count += 1
                    else:
                        size = _push(times, keys, size, end, (p << 2) | _COMPUTED)
                    kc += 1
                    continue
                state[p] = _IDLE
                c = _insert(candidates, c, p)
                if low[p] > 0:
                    c = _insert(candidates, c, end_owner[low[p] - 1])
                if high[p] < n - 1:
                    c = _insert(candidates, c, start_owner[high[p] + 1])
            for i in range(c):
                p = candidates[i]
                if state[p] != _IDLE:
                    continue
                left = end_owner[low[p] - 1] if low[p] > 0 else -1
                right = start_owner[high[p] + 1] if high[p] < n - 1 else -1
                if left >= 0 and state[left] == _IDLE:
                    sender, receiver = p, left
                elif right >= 0 and state[right] == _IDLE:
                    sender, receiver = right, p
                else:
                    continue
                state[sender] = _DONE
                state[receiver] = _BUSY
                high[receiver] = high[sender]
                end_owner[high[receiver]] = receiver
                end = now + comm[run, kt]
                if end == now:  # cost 0: next round, same instant
                    instant[count] = (receiver << 2) | _RECEIVED
                    count += 1
                else:
                    size = _push(times, keys, size, end, (receiver << 2) | _RECEIVED)
                kt += 1
        out[run] = now
    return out


@njit(cache=True, nogil=True)
def _tree_dyn_batch(comm, comp, start):
    """Tree-dyn: a processor has at most one pending event (started, received,
    computed), and after every round at most one processor is idle, the one in
    the slot; so a round is just its events, sorted by processor."""
    runs, n = start.shape
    out = np.empty(runs)
    times = np.zeros(n)
    keys = np.zeros(n, np.int64)
    batch = np.zeros(n, np.int64)
    instant = np.zeros(n, np.int64)
    for run in range(runs):
        size, count = _initial_events(times, keys, instant, start[run], n)
        slot = -1
        kt = 0
        kc = 0
        now = 0.0
        while True:
            # The round: the same-instant queue, or else all the heap's earliest
            # events (inlined: a numba call with this many arrays costs 3x).
            events = 0
            if count > 0:
                for i in range(count):
                    events = _insert(batch, events, instant[i])
                count = 0
            elif size > 0:
                now = times[0]
                while size > 0 and times[0] == now:
                    events = _insert(batch, events, keys[0])
                    size = _pop(times, keys, size)
            else:
                break
            # Computations first, then the idle processors, by index.
            for e in range(events):
                if batch[e] & 3 == _RECEIVED:
                    end = now + comp[run, kc]
                    if end == now:  # cost 0: next round, same instant
                        instant[count] = (batch[e] & ~3) | _COMPUTED
                        count += 1
                    else:
                        size = _push(times, keys, size, end, (batch[e] & ~3) | _COMPUTED)
                    kc += 1
            for e in range(events):
                if batch[e] & 3 != _RECEIVED:
                    if slot < 0:
                        slot = batch[e] >> 2
                        continue
                    end = now + comm[run, kt]
                    if end == now:  # cost 0: next round, same instant
                        instant[count] = (slot << 2) | _RECEIVED
                        count += 1
                    else:
                        size = _push(times, keys, size, end, (slot << 2) | _RECEIVED)
                    kt += 1
                    slot = -1
        out[run] = now
    return out


def _prepare(comm, comp, start):
    comm = np.ascontiguousarray(comm, dtype=np.float64)
    if comm.ndim != 2:
        raise ValueError("comm must have shape (runs, n - 1)")
    runs, n = comm.shape[0], comm.shape[1] + 1
    comp = np.zeros_like(comm) if comp is None else np.ascontiguousarray(comp, np.float64)
    if comp.shape != comm.shape:
        raise ValueError("comp must have the shape of comm")
    # Always C-contiguous float64: one compiled specialisation serves every call.
    start = (np.zeros((runs, n)) if start is None else np.ascontiguousarray(
        np.broadcast_to(np.asarray(start, dtype=np.float64), (runs, n))))
    return comm, comp, start


def static_tree_makespans(children, comm, comp=None, start=None) -> np.ndarray:
    """Makespans of a static tree over many runs.

    Parameters
    ----------
    children : list of list of int
        ``children[r]``: the senders of P_r in reception order.
    comm, comp : ndarray of shape (runs, n - 1)
        The k-th communication and computation costs of each run; ``comp``
        defaults to zeros.
    start : array broadcastable to (runs, n), optional
        Start times; zeros by default.

    Returns
    -------
    ndarray of shape (runs,)
    """
    comm, comp, start = _prepare(comm, comp, start)
    child_ptr = np.zeros(len(children) + 1, np.int64)
    child_ptr[1:] = np.cumsum([len(c) for c in children])
    child_idx = np.array([c for cs in children for c in cs] or [0], np.int64)
    parent = np.full(len(children), -1, np.int64)
    for receiver, senders in enumerate(children):
        parent[senders] = receiver
    return _static_batch(comm, comp, start, child_ptr, child_idx, parent)


def tree_dyn_makespans(comm, comp=None, start=None) -> np.ndarray:
    """Makespans of Tree-dyn over many runs (arguments as :func:`static_tree_makespans`)."""
    comm, comp, start = _prepare(comm, comp, start)
    return _tree_dyn_batch(comm, comp, start)


def noncommut_tree_dyn_makespans(comm, comp=None, start=None) -> np.ndarray:
    """Makespans of Non-Commut-Tree-dyn over many runs (arguments as above)."""
    comm, comp, start = _prepare(comm, comp, start)
    return _noncommut_batch(comm, comp, start)


def makespans(algorithm: str, comm, comp=None, start=None, *,
              fibonacci_order: int | None = None) -> np.ndarray:
    """Makespans of ``algorithm`` (one of :data:`sim.ALGORITHMS`) on given draws.

    ``comm``/``comp`` have shape (runs, n - 1): the k-th communication and
    computation costs of each run, as :class:`sim.SequenceCosts` reads them.
    """
    n = np.shape(comm)[1] + 1
    if algorithm == "binomial-stat":
        return static_tree_makespans(binomial_tree(n), comm, comp, start)
    if algorithm == "fibonacci-stat":
        return static_tree_makespans(fibonacci_tree(n, fibonacci_order), comm, comp, start)
    if algorithm == "tree-dyn":
        return tree_dyn_makespans(comm, comp, start)
    if algorithm == "noncommut-tree-dyn":
        return noncommut_tree_dyn_makespans(comm, comp, start)
    raise ValueError(f"unknown algorithm {algorithm!r}")
