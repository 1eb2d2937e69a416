"""The MPI reduce algorithms as per-process programs, run exactly on the flat model.

Each process runs two lanes, in program order:

- a *send lane* of :class:`Send` operations (one message at a time);
- a *receive lane* of :class:`Recv` and :class:`Combine` operations (receiving
  and combining are sequential: the next receive waits for the combine).

Buffers are named once (single assignment), so a send waits exactly for the
combines that produce what it sends.  A transfer starts when the sender's send
lane has reached it, its buffers exist and its port is free, and the
receiver's receive lane has reached the matching receive with its port free
(rendezvous); it takes α + mβ.  A combine of m elements takes mγ_j.  All
start and end times follow from these max-plus rules, so the order in which
the engine visits processes does not change them.

The algorithms (``root`` r, relative rank q = (i - r) mod p):

- ``linear``: every process sends its vector to the root, which receives in
  the order r-1, ..., 0, r+1, ..., p-1 and combines on receipt (prepending on
  the left, appending on the right): rank order, non-commutative safe.
- ``binomial``: MPICH's binomial tree on relative ranks; q receives from
  q + 1, q + 2, q + 4, ... while the bit is clear, then sends to q - 2^k.
  Rank order when r = 0.
- ``binary``: a binary heap on relative ranks (children 2q + 1, 2q + 2,
  received left child first).  Commutative operators only.
- ``direct-send``: reduce-scatter by direct exchange (at step s = 1..p-1,
  P_i sends block (i + s) mod p to its owner and receives its own block from
  (i - s) mod p, combining on receipt), then a binomial gather of the blocks
  to the root.  The blocks from ranks below j are prepended to P_j's block,
  those above are accumulated apart (they arrive in decreasing rank order) and
  appended at the end: rank order, with the same p - 1 combines.
- ``rabenseifner``: recursive halving (partners i XOR 1, 2, 4, ...; the lower
  rank keeps the lower half, the lower group's data on the left), then the
  binomial gather.  Only for p a power of two: the Rabenseifner-Träff
  treatment of other p is not implemented and such p is refused.

References
----------
Marendić et al., section 2.1, formulas (1)-(4); Thakur, Rabenseifner, Gropp,
"Optimization of collective communication operations in MPICH", IJHPCA 19(1),
2005 (binomial, reduce-scatter + gather, recursive halving).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from hetcoll.core.errors import InputError
from hetcoll.sim.imbalance.model import FlatModel, Operation

__all__ = ["STATIC_ALGORITHMS", "Send", "Recv", "Combine", "programs", "run_programs"]

STATIC_ALGORITHMS = ("linear", "binary", "binomial", "direct-send", "rabenseifner")

#: An item of a buffer: (buffer name, first element, end element).
Item = tuple[Any, int, int]


@dataclass(frozen=True)
class Send:
    """Send ``items`` (buffer slices of this process) to ``peer``."""

    peer: int
    items: tuple[Item, ...]


@dataclass(frozen=True)
class Recv:
    """Receive from ``peer`` into the buffers ``names`` (one per sent item)."""

    peer: int
    names: tuple[Any, ...]


@dataclass(frozen=True)
class Combine:
    """``out = left ⊕ right`` over the same element range (two items)."""

    out: Any
    left: Item
    right: Item


def _blocks(n: int, p: int) -> list[tuple[int, int]]:
    """MPI's block split of n elements over p processes (the first n mod p get one more)."""
    size, extra = divmod(n, p)
    bounds = [0]
    for i in range(p):
        bounds.append(bounds[-1] + size + (i < extra))
    return [(bounds[i], bounds[i + 1]) for i in range(p)]


def _linear(p, n, root, sends, recvs):
    acc = ("v", 0, n)
    for k in [*range(root - 1, -1, -1), *range(root + 1, p)]:
        sends[k].append(Send(root, (("v", 0, n),)))
        recvs[root].append(Recv(k, (("r", k),)))
        out = ("acc", k)
        pair = (("r", k), 0, n), acc
        recvs[root].append(Combine(out, *(pair if k < root else pair[::-1])))
        acc = (out, 0, n)
    return {root: [acc]}


def _binomial(p, n, root, sends, recvs):
    for q in range(p):
        me = (q + root) % p
        acc = ("v", 0, n)
        mask = 1
        while mask < p:
            if q & mask:
                sends[me].append(Send((q - mask + root) % p, (acc,)))
                break
            if q + mask < p:
                child = (q + mask + root) % p
                recvs[me].append(Recv(child, (("r", child),)))
                recvs[me].append(Combine(("acc", child), acc, (("r", child), 0, n)))
                acc = (("acc", child), 0, n)
            mask <<= 1
        if q == 0:
            final = acc
    return {root: [final]}


def _binary(p, n, root, sends, recvs):
    for q in range(p):
        me = (q + root) % p
        acc = ("v", 0, n)
        for c in (2 * q + 1, 2 * q + 2):
            if c < p:
                child = (c + root) % p
                recvs[me].append(Recv(child, (("r", child),)))
                recvs[me].append(Combine(("acc", child), acc, (("r", child), 0, n)))
                acc = (("acc", child), 0, n)
        if q:
            sends[me].append(Send(((q - 1) // 2 + root) % p, (acc,)))
        else:
            final = acc
    return {root: [final]}


def _gather(p, root, held, sends, recvs):
    """Binomial gather of each process's ``held`` items to the root; returns the root's."""
    collected = {i: list(held[i]) for i in range(p)}
    for q in reversed(range(p)):  # a subtree's items are known before its parent's
        me = (q + root) % p
        mask = 1
        while mask < p:
            if q & mask:
                sends[me].append(Send((q - mask + root) % p, tuple(collected[me])))
                break
            if q + mask < p:
                child = (q + mask + root) % p
                names = tuple(("g", child, j) for j in range(len(collected[child])))
                recvs[me].append(Recv(child, names))
                collected[me].extend((name, lo, hi) for name, (_, lo, hi)
                                     in zip(names, collected[child], strict=True))
            mask <<= 1
    return {root: collected[root]}


def _direct_send(p, n, root, sends, recvs):
    blocks = _blocks(n, p)
    held = {}
    for i in range(p):
        for s in range(1, p):
            j = (i + s) % p
            sends[i].append(Send(j, (("v", *blocks[j]),)))
    for j in range(p):
        lo, hi = blocks[j]
        acc, right = ("v", lo, hi), None
        for s in range(1, p):
            k = (j - s) % p
            recvs[j].append(Recv(k, (("r", k),)))
            received = (("r", k), lo, hi)
            if k < j:
                recvs[j].append(Combine(("acc", k), received, acc))
                acc = (("acc", k), lo, hi)
            elif right is None:
                right = received
            else:
                recvs[j].append(Combine(("right", k), received, right))
                right = (("right", k), lo, hi)
        if right is not None:
            recvs[j].append(Combine(("block",), acc, right))
            acc = (("block",), lo, hi)
        held[j] = [acc]
    return _gather(p, root, held, sends, recvs)


def _rabenseifner(p, n, root, sends, recvs):
    if p & (p - 1):
        raise InputError(f"rabenseifner needs p a power of two, got p = {p} (the "
                         f"Rabenseifner-Träff treatment of other p is not implemented)")
    held = {}
    for i in range(p):
        acc = ("v", 0, n)
        mask, step = 1, 0
        while mask < p:
            partner = i ^ mask
            _, lo, hi = acc
            mid = lo + (hi - lo) // 2
            keep, give = ((lo, mid), (mid, hi)) if i < partner else ((mid, hi), (lo, mid))
            sends[i].append(Send(partner, ((acc[0], *give),)))
            recvs[i].append(Recv(partner, (("r", step),)))
            received, mine = (("r", step), *keep), (acc[0], *keep)
            out = ("acc", step)
            recvs[i].append(Combine(out, *((mine, received) if i < partner
                                           else (received, mine))))
            acc = (out, *keep)
            mask, step = mask << 1, step + 1
        held[i] = [acc]
    return _gather(p, root, held, sends, recvs)


_BUILDERS = {"linear": _linear, "binary": _binary, "binomial": _binomial,
             "direct-send": _direct_send, "rabenseifner": _rabenseifner}


def programs(algorithm: str, p: int, elements: int, root: int = 0):
    """The per-process programs of one static algorithm.

    Returns
    -------
    sends, recvs : list of list
        Each process's send lane and receive lane.
    result : list of Item
        The root's items that make up the reduced vector, in element order.

    Raises
    ------
    InputError
        Unknown algorithm, or rabenseifner with p not a power of two.

    Examples
    --------
    >>> sends, recvs, result = programs("binomial", 4, 8)
    >>> [s.peer for lane in sends for s in lane]  # P1 -> P0, P2 -> P0, P3 -> P2
    [0, 0, 2]
    """
    if algorithm not in _BUILDERS:
        raise InputError(f"unknown static algorithm {algorithm!r}; expected one of "
                         f"{', '.join(STATIC_ALGORITHMS)}")
    sends: list[list[Send]] = [[] for _ in range(p)]
    recvs: list[list] = [[] for _ in range(p)]
    final = _BUILDERS[algorithm](p, elements, root, sends, recvs)[root]
    return sends, recvs, sorted(final, key=lambda item: item[1])


def run_programs(model: FlatModel, algorithm: str, delays: Sequence, values: Sequence | None,
                 operator: Callable[[Any, Any], Any] | None, latest: Callable = max):
    """Run :func:`programs` on ``model``; returns (terminations, root value, trace).

    ``values[i]`` is P_i's vector (a sequence of ``model.elements`` entries) or
    None for a timing-only run; ``operator`` combines two elements.  The
    programs' control flow does not depend on the times, so ``delays`` may
    also be one numpy array of runs per process with ``latest`` an
    element-wise maximum: one pass then times every run at once (the Monte
    Carlo engine, :mod:`hetcoll.sim.imbalance.skew`).
    """
    p, n, root = model.p, model.elements, model.root
    sends, recvs, final = programs(algorithm, p, n, root)
    # buffers[i][name] = (first element, ready time, values or None)
    buffers = [{"v": (0, delays[i], None if values is None else list(values[i]))}
               for i in range(p)]
    send_free, recv_free = list(delays), list(delays)
    heads_s, heads_r = [0] * p, [0] * p
    terminations = list(delays)
    trace: list[Operation] = []

    def available(i, item):
        name, lo, hi = item
        return name in buffers[i]

    def read(i, item):
        name, lo, hi = item
        first, ready, data = buffers[i][name]
        return ready, None if data is None else data[lo - first:hi - first]

    def advance(i) -> list[int]:
        touched = []
        while heads_r[i] < len(recvs[i]) and isinstance(op := recvs[i][heads_r[i]], Combine) \
                and available(i, op.left) and available(i, op.right):
            (ready_l, left), (ready_r, right) = read(i, op.left), read(i, op.right)
            start = latest(recv_free[i], ready_l, ready_r)
            m = op.left[2] - op.left[1]
            end = start + model.combine(i, m)
            data = None if left is None else [operator(a, b) for a, b in
                                              zip(left, right, strict=True)]
            buffers[i][op.out] = (op.left[1], end, data)
            recv_free[i] = end
            terminations[i] = latest(terminations[i], end)
            trace.append(Operation("combine", i, -1, start, end, m))
            heads_r[i] += 1
            touched = [i]
        if heads_s[i] < len(sends[i]):
            op = sends[i][heads_s[i]]
            j = op.peer
            target = recvs[j][heads_r[j]] if heads_r[j] < len(recvs[j]) else None
            if isinstance(target, Recv) and target.peer == i \
                    and all(available(i, item) for item in op.items):
                parts = [read(i, item) for item in op.items]
                m = sum(hi - lo for _, lo, hi in op.items)
                start = latest(send_free[i], recv_free[j], *(ready for ready, _ in parts))
                end = start + model.transfer(i, j, m)
                for name, item, (_, data) in zip(target.names, op.items, parts, strict=True):
                    buffers[j][name] = (item[1], end, data)
                send_free[i] = recv_free[j] = end
                terminations[i] = latest(terminations[i], end)
                terminations[j] = latest(terminations[j], end)
                trace.append(Operation("data", i, j, start, end, m))
                heads_s[i] += 1
                heads_r[j] += 1
                touched = [i, j]
        return touched

    queue = deque(range(p))
    queued = [True] * p
    while queue:
        i = queue.popleft()
        queued[i] = False
        touched = advance(i)
        for k in touched:
            if not queued[k]:
                queued[k] = True
                queue.append(k)
        # A receive lane that just advanced may unblock the process that sends to it.
        for k in touched:
            if heads_r[k] < len(recvs[k]) and isinstance(op := recvs[k][heads_r[k]], Recv) \
                    and not queued[op.peer]:
                queued[op.peer] = True
                queue.append(op.peer)
    if any(heads_s[i] < len(sends[i]) or heads_r[i] < len(recvs[i]) for i in range(p)):
        raise RuntimeError(f"{algorithm}: the programs deadlocked")  # pragma: no cover
    value = None
    if values is not None:
        value = []
        for item in final:
            value.extend(read(root, item)[1])
    return terminations, value, trace
