"""Compiled LocalReduce, Algorithm 1, Tree-dyn and Non-Commut-Tree-dyn (numba).

Each runs the very rules of its exact simulator (same events, same order of
simultaneous events, same float operations) on a batch of delay vectors, and
returns every process's termination time; the tests check that both give
identical floats, ties and zero costs included:

- :func:`local_reduce_terminations`: :func:`hetcoll.sim.imbalance.local_reduce.local_reduce`;
- :func:`perfect_knowledge_terminations`: :func:`hetcoll.sim.marendic.perfect_knowledge_reduction`
  with the rendezvous mapping (:func:`hetcoll.sim.imbalance.dynamic.perfect_knowledge`);
- :func:`tree_dyn_terminations`: :func:`hetcoll.sim.simulate` for Tree-dyn and
  Non-Commut-Tree-dyn on the flat model (:func:`hetcoll.sim.imbalance.dynamic.tree_dyn`).

They assume one α and β for every pair.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["local_reduce_terminations", "perfect_knowledge_terminations", "tree_dyn_terminations"]

_START, _COMPLETION, _HANDSHAKE, _BUSY, _DELIVERED, _COMBINED, _REDIRECT = range(7)
_IDLE, _READY, _WORKING, _DONE = -1, 0, 1, 2


@njit(cache=True)
def _push(times, counters, data, size, counter, time, kind, a, b, c):
    position = size
    times[position] = time
    counters[position] = counter
    data[position, 0], data[position, 1], data[position, 2], data[position, 3] = kind, a, b, c
    while position > 0:
        parent = (position - 1) // 2
        if times[parent] < times[position] or (times[parent] == times[position]
                                               and counters[parent] < counters[position]):
            break
        _swap(times, counters, data, parent, position)
        position = parent
    return size + 1


@njit(cache=True)
def _swap(times, counters, data, x, y):
    times[x], times[y] = times[y], times[x]
    counters[x], counters[y] = counters[y], counters[x]
    for k in range(4):
        data[x, k], data[y, k] = data[y, k], data[x, k]


@njit(cache=True)
def _pop(times, counters, data, size):
    size -= 1
    _swap(times, counters, data, 0, size)
    position = 0
    while True:
        smallest = position
        for child in (2 * position + 1, 2 * position + 2):
            if child < size and (times[child] < times[smallest] or (
                    times[child] == times[smallest] and counters[child] < counters[smallest])):
                smallest = child
        if smallest == position:
            return size
        _swap(times, counters, data, smallest, position)
        position = smallest


@njit(cache=True)
def _one_run(delays, alpha, transfer, combine, root, last, times, counters, data, up, down,
             state, awaiting, deferred, offered, queue_t, queue_c, queue_d):
    # Every control message takes α and every data transfer α + nβ, so each kind
    # arrives in the order it was sent: two FIFO queues (messages, deliveries) in
    # queue_* (messages from the front half, deliveries from the back half), the
    # sorted start times, and a heap for the combines (γ may differ per process).
    # The next event is the least (time, counter) of the four heads: the order of
    # the reference simulator's single heap.
    p = delays.shape[0]
    half = queue_t.shape[0] // 2
    order = np.argsort(delays, kind="mergesort")
    next_start = 0
    m_head, m_tail, d_head, d_tail = 0, 0, half, half
    size = 0
    counter = p  # the starts hold counters 0..p-1, in rank order
    for i in range(p):
        up[i] = i + 1 if i + 1 < p else -1
        down[i] = i - 1
        last[i] = delays[i]
        state[i] = _IDLE
        awaiting[i] = deferred[i] = offered[i] = False
    while True:
        source = -1
        best_t, best_c = np.inf, np.int64(0)
        if next_start < p:
            source, best_t, best_c = 0, delays[order[next_start]], order[next_start]
        if m_head < m_tail and (queue_t[m_head] < best_t or (
                queue_t[m_head] == best_t and queue_c[m_head] < best_c)):
            source, best_t, best_c = 1, queue_t[m_head], queue_c[m_head]
        if d_head < d_tail and (queue_t[d_head] < best_t or (
                queue_t[d_head] == best_t and queue_c[d_head] < best_c)):
            source, best_t, best_c = 2, queue_t[d_head], queue_c[d_head]
        if size > 0 and (times[0] < best_t or (times[0] == best_t and counters[0] < best_c)):
            source, best_t, best_c = 3, times[0], counters[0]
        if source < 0:
            break
        now = best_t
        if source == 0:
            kind, a, b, c = _START, order[next_start], 0, 0
            next_start += 1
        elif source == 1:
            kind, a, b, c = queue_d[m_head, 0], queue_d[m_head, 1], queue_d[m_head, 2], \
                queue_d[m_head, 3]
            m_head += 1
        elif source == 2:
            kind, a, b, c = _DELIVERED, queue_d[d_head, 1], queue_d[d_head, 2], 0
            d_head += 1
        else:
            kind, a, b, c = _COMBINED, data[0, 1], 0, 0
            size = _pop(times, counters, data, size)
        if m_tail + 4 > half or d_tail + 2 > queue_t.shape[0]:
            return False
        if kind in (_START, _COMBINED):
            i = a
            state[i] = _READY
            if down[i] >= 0:
                m_tail = _message(now + alpha, counter, _COMPLETION, i, down[i], 0, last,
                                  queue_t, queue_c, queue_d, m_tail)
                counter += 1
            if offered[i] and up[i] >= 0:
                offered[i] = False
                awaiting[i] = True
                m_tail = _message(now + alpha, counter, _HANDSHAKE, i, up[i], 0, last,
                                  queue_t, queue_c, queue_d, m_tail)
                counter += 1
        elif kind == _COMPLETION:
            sender, i = a, b
            if state[i] == _DONE:
                m_tail = _message(now + alpha, counter, _REDIRECT, i, sender, down[i], last,
                                  queue_t, queue_c, queue_d, m_tail)
                counter += 1
            elif state[i] == _READY and not awaiting[i] and up[i] == sender:
                awaiting[i] = True
                m_tail = _message(now + alpha, counter, _HANDSHAKE, i, sender, 0, last,
                                  queue_t, queue_c, queue_d, m_tail)
                counter += 1
            else:
                offered[i] = True
        elif kind == _HANDSHAKE:
            sender, i = a, b
            if state[i] == _READY and not awaiting[i]:
                m_tail, d_tail, counter = _send_data(now, i, down, state, awaiting, deferred,
                                                     last, alpha, transfer, queue_t, queue_c,
                                                     queue_d, m_tail, d_tail, counter)
            elif state[i] == _READY:
                deferred[i] = True
            else:
                m_tail = _message(now + alpha, counter, _BUSY, i, sender, 0, last,
                                  queue_t, queue_c, queue_d, m_tail)
                counter += 1
        elif kind == _BUSY:
            i = b
            awaiting[i] = False
            if deferred[i] and state[i] == _READY:
                deferred[i] = False
                m_tail, d_tail, counter = _send_data(now, i, down, state, awaiting, deferred,
                                                     last, alpha, transfer, queue_t, queue_c,
                                                     queue_d, m_tail, d_tail, counter)
        elif kind == _DELIVERED:
            i, j = a, b
            state[i] = _DONE
            offered[i] = False
            up[j] = up[i]
            if up[i] >= 0:
                m_tail = _message(now + alpha, counter, _REDIRECT, i, up[i], j, last,
                                  queue_t, queue_c, queue_d, m_tail)
                counter += 1
            end = now + combine[j]
            last[j] = max(last[j], end)
            size = _push(times, counters, data, size, counter, end, _COMBINED, j, 0, 0)
            counter += 1
        else:
            sender, i, new_down = a, b, c
            if state[i] != _DONE and down[i] == sender:
                down[i] = new_down
                if state[i] == _READY:
                    m_tail = _message(now + alpha, counter, _COMPLETION, i, new_down, 0, last,
                                      queue_t, queue_c, queue_d, m_tail)
                    counter += 1
    if root != 0:
        end = last[0] + transfer
        last[0] = end
        last[root] = end
    return True


@njit(cache=True)
def _message(end, counter, kind, sender, receiver, extra, last, queue_t, queue_c, queue_d,
             tail):
    last[sender] = max(last[sender], end)
    queue_t[tail] = end
    queue_c[tail] = counter
    queue_d[tail, 0], queue_d[tail, 1], queue_d[tail, 2], queue_d[tail, 3] = \
        kind, sender, receiver, extra
    return tail + 1


@njit(cache=True)
def _send_data(now, i, down, state, awaiting, deferred, last, alpha, transfer, queue_t, queue_c,
               queue_d, m_tail, d_tail, counter):
    j = down[i]
    state[i] = _WORKING
    end = now + transfer
    last[i] = max(last[i], end)
    last[j] = max(last[j], end)
    awaiting[j] = False
    state[j] = _WORKING
    if deferred[j]:
        deferred[j] = False
        m_tail = _message(now + alpha, counter, _BUSY, j, down[j], 0, last, queue_t, queue_c,
                          queue_d, m_tail)
        counter += 1
    queue_t[d_tail] = end
    queue_c[d_tail] = counter
    queue_d[d_tail, 1], queue_d[d_tail, 2] = i, j
    return m_tail, d_tail + 1, counter + 1


@njit(cache=True, nogil=True)
def _batch(delays, alpha, transfer, combine, root, out):
    p = delays.shape[1]
    capacity = p + 1
    # At most 5p control messages and p - 1 deliveries in a run (each process enters
    # and combines at most p times...): generous fixed bounds, checked in the loop.
    queue_t = np.empty(64 * p + 64)
    queue_c = np.empty(64 * p + 64, np.int64)
    queue_d = np.empty((64 * p + 64, 4), np.int64)
    times = np.empty(capacity)
    counters = np.empty(capacity, np.int64)
    data = np.empty((capacity, 4), np.int64)
    up = np.empty(p, np.int64)
    down = np.empty(p, np.int64)
    state = np.empty(p, np.int64)
    awaiting = np.zeros(p, np.bool_)
    deferred = np.zeros(p, np.bool_)
    offered = np.zeros(p, np.bool_)
    for run in range(delays.shape[0]):
        if not _one_run(delays[run], alpha, transfer, combine, root, out[run], times, counters,
                        data, up, down, state, awaiting, deferred, offered, queue_t, queue_c,
                        queue_d):
            return False
    return True


def local_reduce_terminations(delays: np.ndarray, alpha: float, transfer: float,
                              combine: np.ndarray, root: int) -> np.ndarray:
    """Termination times of LocalReduce for each row of ``delays`` (runs x p).

    ``transfer`` is α + nβ, ``combine[j]`` is nγ_j (floats).

    Examples
    --------
    >>> local_reduce_terminations(np.zeros((1, 4)), 0.0, 1.0, np.ones(4), 0)[0].tolist()
    [4.0, 1.0, 3.0, 1.0]
    """
    delays = np.ascontiguousarray(delays, dtype=np.float64)
    out = np.empty_like(delays)
    if not _batch(delays, float(alpha), float(transfer), np.asarray(combine, np.float64),
                  int(root), out):  # pragma: no cover - the capacity is a bound
        raise RuntimeError("LocalReduce kernel: event queue overflow")  # pragma: no cover
    return out


@njit(cache=True, nogil=True)
def _perfect_knowledge_batch(delays, psi, transfer, combine, root, out):
    runs, p = delays.shape
    # The combine heap of LocalReduce, keyed by (ready time, process index).
    keys = np.empty(p)
    ids = np.empty(p, np.int64)
    unused = np.empty((p, 4), np.int64)
    pending_from = np.empty(p, np.int64)
    pending_at = np.empty(p)
    for run in range(runs):
        last = out[run]
        size = 0
        for i in range(p):
            last[i] = delays[run, i]
            pending_from[i] = -1
            size = _push(keys, ids, unused, size, i, delays[run, i], 0, 0, 0, 0)
        while True:
            now, process = keys[0], ids[0]
            size = _pop(keys, ids, unused, size)
            if pending_from[process] >= 0:
                sender = pending_from[process]
                pending_from[process] = -1
                end = max(pending_at[process] + 0.0, now) + psi
                arrive = end - combine
                last[sender] = max(last[sender], arrive)
                last[process] = max(last[process], end)
                size = _push(keys, ids, unused, size, process, end, 0, 0, 0, 0)
            elif size > 0:
                pending_from[ids[0]] = process
                pending_at[ids[0]] = now
            else:
                if process != root:
                    end = now + transfer
                    last[process] = end
                    last[root] = end
                break


def perfect_knowledge_terminations(delays: np.ndarray, psi: float, transfer: float,
                                   combine: float, root: int) -> np.ndarray:
    """Termination times of Algorithm 1 (rendezvous mapping) for each row of ``delays``.

    ``psi`` is α + nβ + nγ, ``transfer`` α + nβ, ``combine`` nγ (floats); the rules
    and tie-breaks are :func:`hetcoll.sim.marendic.perfect_knowledge_reduction`'s,
    the terminations :func:`hetcoll.sim.imbalance.dynamic.perfect_knowledge`'s.

    Examples
    --------
    >>> perfect_knowledge_terminations(np.array([[0.0, 0.0, 10.0]]), 2.0, 1.0, 1.0,
    ...                                0)[0].tolist()
    [13.0, 11.0, 13.0]
    """
    delays = np.ascontiguousarray(delays, dtype=np.float64)
    out = np.empty_like(delays)
    _perfect_knowledge_batch(delays, float(psi), float(transfer), float(combine), int(root),
                             out)
    return out


_NONE, _SENDING, _RECEIVING, _COMPUTING = 0, 1, 2, 3


@njit(cache=True, nogil=True)
def _dynamic_batch(delays, transfer, combine, root, commutative, out):
    runs, p = delays.shape
    present = np.empty(p, np.bool_)
    sent = np.empty(p, np.bool_)
    kind = np.empty(p, np.int64)
    busy_end = np.empty(p)
    peer = np.empty(p, np.int64)
    ending = np.empty(p, np.bool_)
    low = np.empty(p, np.int64)
    high = np.empty(p, np.int64)
    by_start = np.empty(p, np.int64)
    by_end = np.empty(p, np.int64)
    order = np.empty(p, np.int64)
    for run in range(runs):
        last = out[run]
        starts = delays[run]
        order[:] = np.argsort(starts, kind="mergesort")
        for i in range(p):
            last[i] = starts[i]
            present[i] = sent[i] = False
            kind[i] = _NONE
            low[i] = high[i] = by_start[i] = by_end[i] = i
        next_start = 0
        slot = -1
        now = 0.0
        makespan = 0.0
        while True:
            while next_start < p and starts[order[next_start]] == now:
                present[order[next_start]] = True
                next_start += 1
            for i in range(p):
                ending[i] = kind[i] != _NONE and busy_end[i] == now
            for i in range(p):
                if ending[i]:
                    if kind[i] == _SENDING:
                        kind[i] = _NONE
                        sent[i] = True
                    elif kind[i] == _COMPUTING:
                        kind[i] = _NONE
            # Reduce on receipt: a reception that ends now starts its combine now.
            for i in range(p):
                if ending[i] and kind[i] == _RECEIVING:
                    s = peer[i]
                    if low[s] < low[i]:
                        low[i] = low[s]
                    if high[s] > high[i]:
                        high[i] = high[s]
                    by_start[low[i]] = i
                    by_end[high[i]] = i
                    kind[i] = _COMPUTING
                    busy_end[i] = now + combine[i]
                    last[i] = max(last[i], busy_end[i])
            for i in range(p):
                if not present[i] or sent[i] or kind[i] != _NONE:
                    continue
                if commutative:
                    if i == slot:
                        continue
                    if slot < 0:
                        slot = i
                        continue
                    sender, receiver = i, slot
                    slot = -1
                else:
                    sender = -1
                    if low[i] > 0:
                        left = by_end[low[i] - 1]
                        if present[left] and not sent[left] and kind[left] == _NONE:
                            sender, receiver = i, left
                    if sender < 0 and high[i] + 1 < p:
                        right = by_start[high[i] + 1]
                        if present[right] and not sent[right] and kind[right] == _NONE:
                            sender, receiver = right, i
                    if sender < 0:
                        continue
                end = now + transfer
                kind[sender] = _SENDING
                busy_end[sender] = end
                kind[receiver] = _RECEIVING
                busy_end[receiver] = end
                peer[receiver] = sender
                last[sender] = max(last[sender], end)
                last[receiver] = max(last[receiver], end)
            following = np.inf
            for i in range(p):
                if kind[i] != _NONE and busy_end[i] < following:
                    following = busy_end[i]
            if next_start < p and starts[order[next_start]] < following:
                following = starts[order[next_start]]
            if following == np.inf:
                break
            now = following
            makespan = max(makespan, now)
        holder = 0
        for i in range(p):
            if not sent[i]:
                holder = i
        if holder != root:
            end = makespan + transfer
            last[holder] = end
            last[root] = end


def tree_dyn_terminations(delays: np.ndarray, transfer: float, combine: np.ndarray, root: int,
                          commutative: bool) -> np.ndarray:
    """Termination times of Tree-dyn (``commutative``) or Non-Commut-Tree-dyn, per row.

    The rules and tie-breaks of :func:`hetcoll.sim.simulate` (RR 8315), on the flat
    model: ``transfer`` is α + nβ for every pair, ``combine[j]`` is nγ_j.  The
    terminations are those of :func:`hetcoll.sim.imbalance.dynamic.tree_dyn`.

    Examples
    --------
    >>> tree_dyn_terminations(np.zeros((1, 4)), 1.0, np.ones(4), 0, False)[0].tolist()
    [4.0, 1.0, 3.0, 1.0]
    """
    delays = np.ascontiguousarray(delays, dtype=np.float64)
    out = np.empty_like(delays)
    _dynamic_batch(delays, float(transfer), np.asarray(combine, np.float64), int(root),
                   bool(commutative), out)
    return out
