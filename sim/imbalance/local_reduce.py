"""Marendić et al.'s Algorithm 2, LocalReduce, message by message.

Their Fig. 5 (the example run that fixes the handshake details) was lost, so
hetcoll makes the following choices, constrained by their Table 1 (with one
slow process the fast ones must combine tree-wise: ⌈log2 p⌉ combine steps
with no skew, not a chain of p - 1; see NOTES.md section 3).

The line and its direction
--------------------------
Processes form a line in rank order and data flows towards rank 0 (the
paper's "right neighbour" is the next *lower* rank, so that with the default
root 0 the chain ends at the root).  ``down[i]`` is the alive process data
goes to, ``up[i]`` the alive process data comes from.  A receiver computes
``own ⊕ received``: it holds the lower ranks, so operands are combined in
rank order and non-commutative operators are safe.  If the root is not rank
0, the final transfer from rank 0 to the root is part of the algorithm.

Messages (a control message costs α and occupies no port)
---------------------------------------------------------
- ``completion`` (i -> down[i]): i is ready with a subresult (S2).  Sent when
  i enters the reduction, after each of its combines, and after a redirect.
- ``handshake`` (i -> up[i]): i asks up[i] for its data (S3.1).  Sent on a
  completion from up[i] when i is ready and not already waiting for a reply;
  otherwise the completion is kept and answered when i is ready again.
- ``busy`` (i -> down[i]): the answer to a handshake when i is receiving or
  combining; down[i] forgets the offer and i sends a new completion when it
  is ready again.  (The paper's "complete handshake" has two outcomes; this
  is the refusing one.)
- ``data`` (i -> down[i]): the answer to a handshake when i is ready: α + nβ;
  then down[i] combines (nγ) and takes up[i] as its new up (S4).  i is
  finished.
- ``redirect`` (finished i -> up[i]): "your down is now down[i]", sent when i's
  data is delivered and in answer to any later completion (S6).

The tie-break that makes it tree-wise
-------------------------------------
A process waiting for the reply to its own handshake *defers* a handshake
from its down: if the reply is data it answers ``busy``, if it is ``busy`` it
sends its data.  With no skew this resolves from the head (rank p - 1, which
never waits) downwards: p-1 sends to p-2, which refuses p-3, which sends to
p-4, ...: neighbours pair off, then the survivors pair again, ⌈log2 p⌉ combine
steps (plus a ripple of control messages of a few α per pair).

Simultaneous events are handled in time order, then by the order in which
they were scheduled.

References
----------
Marendić et al., section 4, Algorithm 2 and Fig. 5 (lost); Table 1.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence
from typing import Any

from hetcoll.sim.imbalance.model import FlatModel, Operation

__all__ = ["local_reduce"]

_READY, _BUSY, _DONE = 0, 1, 2


def local_reduce(model: FlatModel, delays: Sequence, values: Sequence | None,
                 operator: Callable[[Any, Any], Any] | None, trace_on: bool = True):
    """Run LocalReduce; returns (terminations, root value, trace).

    Examples
    --------
    >>> from fractions import Fraction
    >>> m = FlatModel(4, 1, alpha=0, beta=1, gamma=1)
    >>> terminations, value, trace = local_reduce(m, [0] * 4, None, None)
    >>> terminations[0]  # two combine steps of 1 + 1
    Fraction(4, 1)
    """
    p, n, root = model.p, model.elements, model.root
    up = [i + 1 if i + 1 < p else None for i in range(p)]
    down = [i - 1 if i else None for i in range(p)]
    state = [None] * p            # None until started
    awaiting = [False] * p        # handshake sent up, no reply yet
    deferred = [False] * p        # a handshake from down waits for that reply
    offered = [False] * p         # a completion from up not yet answered
    data = None if values is None else [list(v) for v in values]
    last = list(delays)
    trace: list[Operation] = []
    events: list = []
    counter = 0

    def schedule(time, kind, *args):
        nonlocal counter
        heapq.heappush(events, (time, counter, kind, args))
        counter += 1

    def message(now, kind, sender, receiver, *args):
        end = now + model.latency(sender, receiver)
        last[sender] = max(last[sender], end)
        if trace_on:
            trace.append(Operation(kind, sender, receiver, now, end))
        schedule(end, kind, sender, receiver, *args)

    def ready(now, i):
        state[i] = _READY
        if down[i] is not None:
            message(now, "completion", i, down[i])
        if offered[i] and up[i] is not None:
            offered[i] = False
            awaiting[i] = True
            message(now, "handshake", i, up[i])

    def send_data(now, i):
        j = down[i]
        state[i] = _BUSY  # sending
        end = now + model.transfer(i, j, n)
        last[i] = max(last[i], end)
        last[j] = max(last[j], end)
        if trace_on:
            trace.append(Operation("data", i, j, now, end, n))
        # The receiver learns at the start of the rendezvous transfer.
        awaiting[j] = False
        state[j] = _BUSY
        if deferred[j]:
            deferred[j] = False
            message(now, "busy", j, down[j])
        schedule(end, "delivered", i, j)

    for i in range(p):
        schedule(delays[i], "start", i)
    while events:
        now, _, kind, args = heapq.heappop(events)
        if kind == "start":
            ready(now, args[0])
        elif kind == "completion":
            sender, i = args
            if state[i] == _DONE:
                message(now, "redirect", i, sender, down[i])
            elif state[i] == _READY and not awaiting[i] and up[i] == sender:
                awaiting[i] = True
                message(now, "handshake", i, sender)
            else:
                offered[i] = True
        elif kind == "handshake":
            sender, i = args
            if state[i] == _READY and not awaiting[i]:
                send_data(now, i)
            elif state[i] == _READY:
                deferred[i] = True
            else:
                message(now, "busy", i, sender)
        elif kind == "busy":
            _, i = args
            awaiting[i] = False
            if deferred[i] and state[i] == _READY:
                deferred[i] = False
                send_data(now, i)
        elif kind == "delivered":
            i, j = args
            state[i] = _DONE
            offered[i] = False
            up[j] = up[i]
            if up[i] is not None:
                message(now, "redirect", i, up[i], j)
            end = now + model.combine(j, n)
            last[j] = max(last[j], end)
            if trace_on:
                trace.append(Operation("combine", j, i, now, end, n))
            if data is not None:
                data[j] = [operator(a, b) for a, b in zip(data[j], data[i], strict=True)]
            schedule(end, "combined", j)
        elif kind == "combined":
            ready(now, args[0])
        else:  # redirect
            sender, i, new_down = args
            if state[i] != _DONE and down[i] == sender:
                down[i] = new_down
                if state[i] == _READY:
                    message(now, "completion", i, new_down)
    # Rank 0 holds the result; the final transfer to another root is part of the algorithm.
    value = None if data is None else data[0]
    if root != 0:
        start = last[0]
        end = start + model.transfer(0, root, n)
        if trace_on:
            trace.append(Operation("data", 0, root, start, end, n))
        last[0] = last[root] = end
    return last, value, trace
