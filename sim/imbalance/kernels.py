"""Compiled LocalReduce for the Monte Carlo engine (numba).

:func:`local_reduce_terminations` runs the very rules of
:func:`hetcoll.sim.imbalance.local_reduce.local_reduce` (same events, same
order of simultaneous events, same float operations) on a batch of delay
vectors; the tests check that both give identical floats.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["local_reduce_terminations"]

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
             state, awaiting, deferred, offered):
    p = delays.shape[0]
    capacity = times.shape[0]
    size = 0
    counter = 0
    for i in range(p):
        up[i] = i + 1 if i + 1 < p else -1
        down[i] = i - 1
        last[i] = delays[i]
        state[i] = _IDLE
        awaiting[i] = deferred[i] = offered[i] = False
    for i in range(p):
        size = _push(times, counters, data, size, counter, delays[i], _START, i, 0, 0)
        counter += 1
    while size > 0:
        if size + 4 > capacity:
            return False
        now = times[0]
        kind, a, b, c = data[0, 0], data[0, 1], data[0, 2], data[0, 3]
        size = _pop(times, counters, data, size)
        if kind in (_START, _COMBINED):
            i = a
            state[i] = _READY
            if down[i] >= 0:
                end = now + alpha
                last[i] = max(last[i], end)
                size = _push(times, counters, data, size, counter, end, _COMPLETION, i,
                             down[i], 0)
                counter += 1
            if offered[i] and up[i] >= 0:
                offered[i] = False
                awaiting[i] = True
                end = now + alpha
                last[i] = max(last[i], end)
                size = _push(times, counters, data, size, counter, end, _HANDSHAKE, i, up[i], 0)
                counter += 1
        elif kind == _COMPLETION:
            sender, i = a, b
            if state[i] == _DONE:
                end = now + alpha
                last[i] = max(last[i], end)
                size = _push(times, counters, data, size, counter, end, _REDIRECT, i, sender,
                             down[i])
                counter += 1
            elif state[i] == _READY and not awaiting[i] and up[i] == sender:
                awaiting[i] = True
                end = now + alpha
                last[i] = max(last[i], end)
                size = _push(times, counters, data, size, counter, end, _HANDSHAKE, i, sender, 0)
                counter += 1
            else:
                offered[i] = True
        elif kind == _HANDSHAKE:
            sender, i = a, b
            if state[i] == _READY and not awaiting[i]:
                size, counter = _send_data(now, i, down, state, awaiting, deferred, last, alpha,
                                           transfer, times, counters, data, size, counter)
            elif state[i] == _READY:
                deferred[i] = True
            else:
                end = now + alpha
                last[i] = max(last[i], end)
                size = _push(times, counters, data, size, counter, end, _BUSY, i, sender, 0)
                counter += 1
        elif kind == _BUSY:
            i = b
            awaiting[i] = False
            if deferred[i] and state[i] == _READY:
                deferred[i] = False
                size, counter = _send_data(now, i, down, state, awaiting, deferred, last, alpha,
                                           transfer, times, counters, data, size, counter)
        elif kind == _DELIVERED:
            i, j = a, b
            state[i] = _DONE
            offered[i] = False
            up[j] = up[i]
            if up[i] >= 0:
                end = now + alpha
                last[i] = max(last[i], end)
                size = _push(times, counters, data, size, counter, end, _REDIRECT, i, up[i], j)
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
                    end = now + alpha
                    last[i] = max(last[i], end)
                    size = _push(times, counters, data, size, counter, end, _COMPLETION, i,
                                 new_down, 0)
                    counter += 1
    if root != 0:
        end = last[0] + transfer
        last[0] = end
        last[root] = end
    return True


@njit(cache=True)
def _send_data(now, i, down, state, awaiting, deferred, last, alpha, transfer, times, counters,
               data, size, counter):
    j = down[i]
    state[i] = _WORKING
    end = now + transfer
    last[i] = max(last[i], end)
    last[j] = max(last[j], end)
    awaiting[j] = False
    state[j] = _WORKING
    if deferred[j]:
        deferred[j] = False
        busy_end = now + alpha
        last[j] = max(last[j], busy_end)
        size = _push(times, counters, data, size, counter, busy_end, _BUSY, j, down[j], 0)
        counter += 1
    size = _push(times, counters, data, size, counter, end, _DELIVERED, i, j, 0)
    return size, counter + 1


@njit(cache=True, nogil=True)
def _batch(delays, alpha, transfer, combine, root, out):
    p = delays.shape[1]
    capacity = 16 * p + 16
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
                        data, up, down, state, awaiting, deferred, offered):
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
        raise RuntimeError("LocalReduce kernel: event queue overflow")
    return out
