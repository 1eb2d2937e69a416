"""Marendić et al.'s Algorithm 1: reduction under load imbalance, perfect knowledge.

Every process enters the reduction at its own start time (type 1 imbalance).
When a process is ready it checks whether a subresult was sent to it; if so
it receives and accumulates it, and is ready again when that is done;
otherwise it sends its subresult to the process that will be ready (execute
the check) first, and is finished.  The last process left holds the result.

Two cost models:

- :class:`SimplifiedModel` (their section 3, Figs. 1 and 2): a merge of a
  subresult sent at time a into a process ready at time b ends at
  max(a + τ, b) + ψ.  ψ covers receiving and combining; during the first τ
  of a transfer the receiver need not take part.  Their σ (time spent on the
  sender) does not delay anything, since a sender is finished: it is omitted.
  τ = 0 is their simplified model, under which Lemma 1 claims Algorithm 1 is
  optimal.
- :class:`sim.MatrixCosts` (hetcoll's model, RR 8315 section 3.1): the
  transfer from P_i to P_j takes d(i, j) on P_j's receiving port (one
  reception at a time, not before P_j's start time, possibly overlapping
  P_j's previous reduction), then P_j reduces for c_j.

"First ready" ties are broken by lower process index; so are simultaneous
events.  The operation is treated as commutative (any two processes merge).

References
----------
P. Marendić, J. Lemeire, T. Haber, D. Vučinić, P. Schelkens, "An
investigation into the performance of reduction algorithms under load
imbalance", section 3, Algorithm 1, Lemma 1, Figs. 1 to 4.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from hetcoll.core.errors import InputError
from hetcoll.core.numbers import (
    Number,
    is_float,
    nonnegative_number,
    number_list,
    validate_start_times,
)
from hetcoll.core.results import Result, exact_pair
from hetcoll.sim.costs import MatrixCosts

__all__ = ["SimplifiedModel", "Merge", "MarendicResult", "perfect_knowledge_reduction"]


@dataclass(frozen=True)
class SimplifiedModel:
    """Marendić et al.'s performance model of one communication-and-combination phase.

    Attributes
    ----------
    psi : Fraction or float
        ψ, time the receiver spends receiving and combining.
    tau : Fraction or float
        τ, time after the send during which the receiver need not participate
        (0 in the simplified model of their Fig. 2).

    Raises
    ------
    InputError
        If ψ or τ is negative or not a number.

    Examples
    --------
    >>> SimplifiedModel(psi="3/2").tau
    Fraction(0, 1)

    References
    ----------
    Marendić et al., section 3, Fig. 1 (σ, τ, ψ) and Fig. 2 (τ = 0).
    """

    psi: Number
    tau: Number = Fraction(0)

    def __post_init__(self):
        exact = not (is_float(self.psi) or is_float(self.tau))
        object.__setattr__(self, "psi", nonnegative_number(self.psi, "psi", exact))
        object.__setattr__(self, "tau", nonnegative_number(self.tau, "tau", exact))

    @property
    def exact(self) -> bool:
        return isinstance(self.psi, Fraction) and isinstance(self.tau, Fraction)


@dataclass(frozen=True)
class Merge:
    """One merge: ``sender`` sends at ``sent_at``; ``receiver`` is ready again at ``end``."""

    sender: int
    receiver: int
    sent_at: Number
    end: Number


@dataclass
class MarendicResult(Result):
    """Outcome of :func:`perfect_knowledge_reduction` (``scipy.optimize`` style).

    Attributes
    ----------
    status : int
        0 on success (the only status: bad input raises).
    message : str
    makespan : Fraction or float
        When the last merge ends (the root's start time if n = 1).
    root : int
        The process left with the result.
    merges : list of Merge
        In the order they were decided.
    """

    status: int
    message: str
    makespan: Number
    root: int
    merges: list[Merge] = field(default_factory=list)

    def to_dict(self) -> dict:
        """JSON-ready data: ``makespan``/``makespan_exact``, ``root``, ``children`` and
        every merge with ``sent_at``/``sent_at_exact`` and ``end``/``end_exact``."""
        return {"status": self.status, "message": self.message, "success": self.success,
                **exact_pair("makespan", self.makespan), "root": self.root,
                "children": self.children,
                "merges": [{"sender": m.sender, "receiver": m.receiver,
                            **exact_pair("sent_at", m.sent_at), **exact_pair("end", m.end)}
                           for m in self.merges]}

    as_dict = to_dict

    @property
    def children(self) -> dict[int, list[int]]:
        """Each process's senders, in order of reception."""
        children: dict[int, list[int]] = {}
        for merge in self.merges:
            children.setdefault(merge.sender, [])
            children.setdefault(merge.receiver, []).append(merge.sender)
        children.setdefault(self.root, [])
        return children


def perfect_knowledge_reduction(start_times: Sequence[object], model: SimplifiedModel | MatrixCosts
               ) -> MarendicResult:
    """Run Marendić et al.'s static optimised reduction (Algorithm 1), perfect knowledge.

    Parameters
    ----------
    start_times : sequence of numbers
        When each process enters the reduction (>= 0).
    model : SimplifiedModel or sim.MatrixCosts
        Their (ψ, τ) model, or explicit d(i, j) and c_i (see the module
        docstring).

    Returns
    -------
    MarendicResult
        Exact (Fraction) when the model and the start times are rational.

    Raises
    ------
    InputError
        If a start time is negative or not a number, or the model's size
        differs from the number of start times.

    Examples
    --------
    >>> perfect_knowledge_reduction([0, 0, 1, 5], SimplifiedModel(psi=2)).makespan
    Fraction(7, 1)

    References
    ----------
    Marendić et al., section 3, Algorithm 1 and Lemma 1.
    """
    entries = number_list(start_times, "start_times")
    n = len(entries)
    if isinstance(model, MatrixCosts):
        if model.n != n:
            raise InputError(f"start_times has {n} entries but the costs are for "
                             f"{model.n} processors")
    elif not isinstance(model, SimplifiedModel):
        raise InputError(f"model must be a SimplifiedModel or a sim.MatrixCosts, "
                         f"got {type(model).__name__}")
    exact = model.exact and not any(is_float(v) for v in entries)
    starts = validate_start_times(entries, None, exact)

    if isinstance(model, MatrixCosts):
        def transfer(i: int, j: int) -> Number:
            return model.d[i][j]

        def reduce(j: int) -> Number:
            return model.c[j]

        # Hetcoll's model: one reception at a time, none before the start time.
        port: list[Number] | None = list(starts)
    else:
        def transfer(i: int, j: int) -> Number:
            return model.tau

        def reduce(j: int) -> Number:
            return model.psi

        port = None

    ready = [(t, i) for i, t in enumerate(starts)]
    heapq.heapify(ready)
    pending: dict[int, tuple[int, Number]] = {}
    merges: list[Merge] = []
    while True:
        now, process = heapq.heappop(ready)
        if process in pending:
            sender, sent_at = pending.pop(process)
            arrival = max(sent_at, port[process]) if port is not None else sent_at
            arrival += transfer(sender, process)
            if port is not None:
                port[process] = arrival
            end = max(arrival, now) + reduce(process)
            merges.append(Merge(sender, process, sent_at, end))
            heapq.heappush(ready, (end, process))
        elif ready:
            # Perfect knowledge: the next process to check is the top of the heap.
            receiver = ready[0][1]
            pending[receiver] = (process, now)
        else:
            return MarendicResult(0, "reduction complete", now, process, merges)
