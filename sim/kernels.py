"""Compiled event loops: many runs of one algorithm, one run after the other.

These are the Monte Carlo fast path.  They implement exactly the rules of
:mod:`sim.engine` (rounds, tie-breaks, numbering of operations for common
random numbers) with float64 costs, and compute the same float additions, so
a run gives bit for bit the makespan :func:`sim.simulate` gives with
:class:`sim.SequenceCosts` of the same draws (a test checks it).

Instead of scanning every processor each round as the exact engine does,
events sit in a binary heap, and a round only looks at the processors its
events touched (and, for the static trees, their parents; for
Non-Commut-Tree-dyn, their neighbours), sorted by index.  This gives the same
decisions: at the end of every round no two idle processors can still be
paired (Tree-dyn: at most one is idle, the one in the slot; Non-Commut: no
two idle neighbours; static: every startable transfer was started), so only
what changed in a round can act in it.

numba compiles the loop on first use (a few seconds, then cached on disk).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.trees import binomial_tree, fibonacci_tree

__all__ = [
    "makespans",
    "noncommut_tree_dyn_makespans",
    "static_tree_makespans",
    "tree_dyn_makespans",
]

_START, _RECEIVED, _COMPUTED = 0, 1, 2
_STATIC, _NONCOMMUT = 0, 2


@njit(cache=True, nogil=True, inline="always")
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


@njit(cache=True, nogil=True, inline="always")
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


@njit(cache=True, nogil=True, inline="always")
def _add(items, count, stamp, rnd, p):
    """Insert p into the sorted list items[:count] unless stamped this round."""
    if stamp[p] == rnd:
        return count
    stamp[p] = rnd
    i = count
    while i > 0 and items[i - 1] > p:
        items[i] = items[i - 1]
        i -= 1
    items[i] = p
    return count + 1


@njit(cache=True, nogil=True)
def _run_batch(kind, comm, comp, start, child_ptr, child_idx, parent):
    runs, n = start.shape
    out = np.empty(runs)
    present = np.zeros(n, np.bool_)
    sent = np.zeros(n, np.bool_)
    sending = np.zeros(n, np.bool_)
    receiving = np.zeros(n, np.bool_)
    computing = np.zeros(n, np.bool_)
    recv_from = np.zeros(n, np.int64)
    waiting = np.zeros(n, np.int64)
    next_child = np.zeros(n, np.int64)
    low = np.zeros(n, np.int64)
    high = np.zeros(n, np.int64)
    start_owner = np.zeros(n, np.int64)
    end_owner = np.zeros(n, np.int64)
    touched = np.zeros(3 * n, np.int64)
    candidates = np.zeros(3 * n, np.int64)
    touched_stamp = np.full(n, -1, np.int64)
    candidate_stamp = np.full(n, -1, np.int64)
    times = np.zeros(3 * n)
    keys = np.zeros(3 * n, np.int64)
    # Operations that end at the instant they start (cost 0) make the next round
    # at the same instant; they wait here instead of in the heap.
    instant = np.zeros(3 * n, np.int64)
    rnd = 0
    for run in range(runs):
        sent[:] = False
        sending[:] = False
        receiving[:] = False
        computing[:] = False
        waiting[:] = 0
        next_child[:] = 0
        size = 0
        count = 0
        for p in range(n):
            low[p] = p
            high[p] = p
            start_owner[p] = p
            end_owner[p] = p
            present[p] = False
            if start[run, p] <= 0.0:
                instant[count] = (p << 2) | _START
                count += 1
            else:
                size = _push(times, keys, size, start[run, p], (p << 2) | _START)
        kt = 0
        kc = 0
        now = 0.0
        while True:
            rnd += 1
            m = 0
            # Apply every event of this round: the instant ones, or else all the
            # heap's events at its earliest time.
            if count > 0:
                events = count
                count = 0
            elif size > 0:
                now = times[0]
                events = 0
                while size > 0 and times[0] == now:
                    instant[events] = keys[0]
                    events += 1
                    size = _pop(times, keys, size)
            else:
                break
            for e in range(events):
                key = instant[e]
                event, p = key & 3, key >> 2
                if event == _START:
                    present[p] = True
                elif event == _RECEIVED:
                    receiving[p] = False
                    s = recv_from[p]
                    sending[s] = False
                    sent[s] = True
                    waiting[p] += 1
                    # The exact engine merges when the computation starts: the
                    # same round for the dynamic algorithms, which alone read it.
                    if low[s] < low[p]:
                        low[p] = low[s]
                    if high[s] > high[p]:
                        high[p] = high[s]
                    start_owner[low[p]] = p
                    end_owner[high[p]] = p
                else:
                    computing[p] = False
                m = _add(touched, m, touched_stamp, rnd, p)
            # Reduce on receipt, by processor index.
            for i in range(m):
                p = touched[i]
                if waiting[p] > 0 and not computing[p]:
                    waiting[p] -= 1
                    computing[p] = True
                    end = now + comp[run, kc]
                    kc += 1
                    if end == now:
                        instant[count] = (p << 2) | _COMPUTED
                        count += 1
                    else:
                        size = _push(times, keys, size, end, (p << 2) | _COMPUTED)
            # Who may act this round, by increasing index.
            c = 0
            for i in range(m):
                p = touched[i]
                c = _add(candidates, c, candidate_stamp, rnd, p)
                if kind == _STATIC:
                    if parent[p] >= 0:
                        c = _add(candidates, c, candidate_stamp, rnd, parent[p])
                else:
                    if low[p] > 0:
                        c = _add(candidates, c, candidate_stamp, rnd, end_owner[low[p] - 1])
                    if high[p] < n - 1:
                        c = _add(candidates, c, candidate_stamp, rnd, start_owner[high[p] + 1])
            for i in range(c):
                p = candidates[i]
                if kind == _STATIC:
                    receiver = p
                    position = next_child[receiver]
                    if (position == child_ptr[receiver + 1] - child_ptr[receiver]
                            or not present[receiver] or receiving[receiver]):
                        continue
                    sender = child_idx[child_ptr[receiver] + position]
                    if not (present[sender] and not sent[sender] and not sending[sender]
                            and not receiving[sender] and not computing[sender]
                            and waiting[sender] == 0
                            and next_child[sender] == child_ptr[sender + 1] - child_ptr[sender]):
                        continue
                    next_child[receiver] += 1
                else:
                    if not (present[p] and not sent[p] and not sending[p]
                            and not receiving[p] and not computing[p] and waiting[p] == 0):
                        continue
                    left = end_owner[low[p] - 1] if low[p] > 0 else -1
                    right = start_owner[high[p] + 1] if high[p] < n - 1 else -1
                    if left >= 0 and present[left] and not sent[left] \
                            and not sending[left] and not receiving[left] \
                            and not computing[left] and waiting[left] == 0:
                        sender = p
                        receiver = left
                    elif right >= 0 and present[right] and not sent[right] \
                            and not sending[right] and not receiving[right] \
                            and not computing[right] and waiting[right] == 0:
                        sender = right
                        receiver = p
                    else:
                        continue
                sending[sender] = True
                receiving[receiver] = True
                recv_from[receiver] = sender
                end = now + comm[run, kt]
                kt += 1
                if end == now:
                    instant[count] = (receiver << 2) | _RECEIVED
                    count += 1
                else:
                    size = _push(times, keys, size, end, (receiver << 2) | _RECEIVED)
        out[run] = now
    return out


@njit(cache=True, nogil=True)
def _tree_dyn_batch(comm, comp, start):
    """Tree-dyn alone: the rules of the generic loop, with far less state.

    In Tree-dyn a processor has at most one pending event (it has started, it
    has received, or it has computed), and after every round at most one
    processor is idle, the one in the slot: so a round is just its events,
    sorted by processor.  Key = processor << 1 | (1 if it becomes idle).
    """
    runs, n = start.shape
    out = np.empty(runs)
    times = np.zeros(n)
    keys = np.zeros(n, np.int64)
    batch = np.zeros(n, np.int64)
    instant = np.zeros(n, np.int64)
    for run in range(runs):
        size = 0
        count = 0
        for p in range(n):
            if start[run, p] <= 0.0:
                instant[count] = (p << 1) | 1
                count += 1
            else:
                size = _push(times, keys, size, start[run, p], (p << 1) | 1)
        slot = -1
        kt = 0
        kc = 0
        now = 0.0
        while True:
            if count > 0:
                events = count
                batch[:count] = instant[:count]
                count = 0
            elif size > 0:
                now = times[0]
                events = 0
                while size > 0 and times[0] == now:
                    key = keys[0]
                    size = _pop(times, keys, size)
                    i = events
                    while i > 0 and batch[i - 1] > key:
                        batch[i] = batch[i - 1]
                        i -= 1
                    batch[i] = key
                    events += 1
            else:
                break
            # Computations first, then the idle processors, by index.
            for e in range(events):
                key = batch[e]
                if key & 1 == 0:
                    end = now + comp[run, kc]
                    kc += 1
                    if end == now:
                        instant[count] = key | 1
                        count += 1
                    else:
                        size = _push(times, keys, size, end, key | 1)
            for e in range(events):
                key = batch[e]
                if key & 1 == 1:
                    if slot < 0:
                        slot = key >> 1
                        continue
                    end = now + comm[run, kt]
                    kt += 1
                    if end == now:
                        instant[count] = slot << 1
                        count += 1
                    else:
                        size = _push(times, keys, size, end, slot << 1)
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


_NONE = np.zeros(1, np.int64)


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
    return _run_batch(_STATIC, comm, comp, start, child_ptr, child_idx, parent)


def tree_dyn_makespans(comm, comp=None, start=None) -> np.ndarray:
    """Makespans of Tree-dyn over many runs (arguments as :func:`static_tree_makespans`)."""
    comm, comp, start = _prepare(comm, comp, start)
    return _tree_dyn_batch(comm, comp, start)


def noncommut_tree_dyn_makespans(comm, comp=None, start=None) -> np.ndarray:
    """Makespans of Non-Commut-Tree-dyn over many runs (arguments as above)."""
    comm, comp, start = _prepare(comm, comp, start)
    return _run_batch(_NONCOMMUT, comm, comp, start, _NONE, _NONE, _NONE)


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
