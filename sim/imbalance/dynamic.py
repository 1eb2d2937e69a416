"""Whole-vector dynamic reductions on the flat model: Algorithm 1, Tree-dyn, Non-Commut-Tree-dyn.

Each reuses an existing simulator with the flat model's costs: a transfer of
the whole vector costs α + nβ, a combine nγ_receiver.

- ``perfect-knowledge``: :func:`hetcoll.sim.marendic.perfect_knowledge_reduction`
  with their simplified model, σ = α + nβ, τ = 0, ψ = α + nβ + nγ (see
  :mod:`hetcoll.sim.imbalance.model`); the sender terminates when its transfer
  ends, nγ before the merge.
- ``tree-dyn`` and ``noncommut-tree-dyn``: :func:`hetcoll.sim.simulate` (RR
  8315's rules and tie-breaks).  A process receives only when it is idle in
  both algorithms, so the engine's "receiving may overlap computing" never
  applies: the model is the flat model's.  RR's algorithms use a shared slot or
  neighbour discovery at no cost; no control message is charged.

Where the algorithm ends on another process than the root, one more transfer
(α + nβ) brings the result to the root.

References
----------
Marendić et al., section 3, Algorithm 1; Benoit, Canon, Marchal, RR 8315,
section 3 (Tree-dyn, Non-Commut-Tree-dyn).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from hetcoll.sim.imbalance.model import FlatModel, Operation, simplified_model

__all__ = ["perfect_knowledge", "tree_dyn"]


class _FlatCosts:
    """The flat model as a :class:`hetcoll.sim.CostModel` for the event engine."""

    def __init__(self, model: FlatModel):
        self.model = model
        self.n = model.p
        self.exact = model.exact

    def comm(self, k: int, sender: int, receiver: int, interval) -> Any:
        return self.model.transfer(sender, receiver, self.model.elements)

    def comp(self, k: int, processor: int) -> Any:
        return self.model.combine(processor, self.model.elements)


def _elementwise(operator):
    return lambda a, b: [operator(x, y) for x, y in zip(a, b, strict=True)]


def _to_root(model, holder, ready, last, trace):
    """The final transfer from ``holder`` to the root, when they differ."""
    if holder != model.root:
        end = ready + model.transfer(holder, model.root, model.elements)
        trace.append(Operation("data", holder, model.root, ready, end, model.elements))
        last[holder] = last[model.root] = end


def perfect_knowledge(model: FlatModel, delays: Sequence, values: Sequence | None,
                      operator: Callable[[Any, Any], Any] | None):
    """Algorithm 1 on the flat model; returns (terminations, root value, trace).

    Examples
    --------
    >>> m = FlatModel(3, 1, alpha=1, beta=0, gamma=1)
    >>> perfect_knowledge(m, [0, 0, 10], None, None)[0]  # P0 -> P1, P1 -> P2, P2 -> root
    [Fraction(13, 1), Fraction(11, 1), Fraction(13, 1)]
    """
    from hetcoll.sim.marendic import perfect_knowledge_reduction

    n = model.elements
    run = perfect_knowledge_reduction(list(delays), simplified_model(model))
    last = list(delays)
    data = None if values is None else [list(v) for v in values]
    combine = None if values is None else _elementwise(operator)
    trace = []
    for merge in run.merges:
        arrive = merge.end - model.combine(merge.receiver, n)
        start = arrive - model.transfer(merge.sender, merge.receiver, n)
        trace.append(Operation("data", merge.sender, merge.receiver, start, arrive, n))
        trace.append(Operation("combine", merge.receiver, merge.sender, arrive, merge.end, n))
        last[merge.sender] = max(last[merge.sender], arrive)
        last[merge.receiver] = max(last[merge.receiver], merge.end)
        if data is not None:
            data[merge.receiver] = combine(data[merge.receiver], data[merge.sender])
    _to_root(model, run.root, run.makespan, last, trace)
    return last, None if data is None else data[run.root], trace


def tree_dyn(model: FlatModel, algorithm: str, delays: Sequence, values: Sequence | None,
             operator: Callable[[Any, Any], Any] | None):
    """Tree-dyn or Non-Commut-Tree-dyn on the flat model; (terminations, value, trace).

    Examples
    --------
    >>> m = FlatModel(4, 1, alpha=1, beta=0, gamma=1)
    >>> tree_dyn(m, "noncommut-tree-dyn", [0] * 4, None, None)[0][0]
    Fraction(4, 1)
    """
    from hetcoll.sim.engine import simulate

    run = simulate(algorithm, _FlatCosts(model), start_times=list(delays),
                   values=None if values is None else [list(v) for v in values],
                   operator=None if values is None else _elementwise(operator))
    last = list(delays)
    trace = []
    for event in run.trace:
        kind = "data" if event.kind == "transfer" else "combine"
        trace.append(Operation(kind, event.processor, event.peer, event.start, event.end,
                               model.elements))
        for process in (event.processor, event.peer) if kind == "data" else \
                (event.processor,):
            last[process] = max(last[process], event.end)
    _to_root(model, run.root, run.makespan, last, trace)
    return last, None if values is None else run.value, trace
