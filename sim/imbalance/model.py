"""The flat cost model of reductions under load imbalance, and what a run returns.

The model (Marendić et al., section 1.1; the issue's reading of it)
------------------------------------------------------------------
p processes each own a vector of ``elements`` elements.  Sending m elements
from P_i to P_j takes α + mβ; combining two m-element operands on P_j takes
mγ_j.  A process can send one message and receive one message at the same
time, but its receive-then-combine is sequential: it does not receive its next
operand while it combines.  A transfer is a rendezvous: it starts when the
sender's data is ready and its send port free *and* the receiver has reached
that receive with its receive port free (large vectors use MPI's rendezvous
protocol).  Control messages (LocalReduce's completion, handshake, busy and
redirect messages) cost α and occupy no port.

Time 0 is the barrier; P_i enters the reduction at its delay d_i (type 1
imbalance).  A process *terminates* at the end of the last operation it takes
part in; T_i = termination_i - d_i.  Metrics (their section 5.1): T1 the
root's T_i, T2 the maximum, T3 the last termination minus the earliest
initiation, T4 the mean, T5 the minimum; ``T1_root`` = T1 + d_root, the
absolute time at which the root holds the result (the figure the paper
reports).

Mapping to their σ/τ/ψ model (section 3, Figs. 1 and 2)
-------------------------------------------------------
Under the rendezvous reading a merge of a subresult offered at time a into a
process ready at time b ends at max(a, b) + α + nβ + nγ; the sender is busy for
α + nβ.  So σ = α + nβ, τ = 0 (their simplified model of Fig. 2) and
ψ = α + nβ + nγ_receiver (:func:`simplified_model`).  Under an eager reading
(the message travels before the receiver is ready) τ = α + nβ and ψ = nγ.

References
----------
P. Marendić, J. Lemeire, T. Haber, D. Vučinić, P. Schelkens, "An investigation
into the performance of reduction algorithms under load imbalance", sections
1.1, 3 and 5.1.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from hetcoll.core.errors import InputError
from hetcoll.core.numbers import (
    Number,
    is_float,
    nonnegative_number,
    number_list,
    validate_start_times,
)
from hetcoll.core.results import Result, exact_pair

__all__ = ["FlatModel", "Operation", "ImbalanceResult", "metrics", "simplified_model"]

#: Largest p a single exact run accepts unless ``max_processes`` is raised.
MAX_PROCESSES = 1 << 16


def _count(value: object, what: str, limit: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InputError(f"{what} must be a positive integer, got {value!r}")
    if limit is not None and value > limit:
        from hetcoll.core.errors import LimitError

        raise LimitError(f"{what} = {value} is over the limit {limit} (max_processes)")
    return value


@dataclass(frozen=True)
class FlatModel:
    """α, β, γ per element, a vector of ``elements`` elements on ``p`` processes.

    Parameters
    ----------
    p : int
        Number of processes (>= 1).
    elements : int
        Vector length n (>= 1).
    alpha, beta : number or str
        Latency per message and transfer time per element (>= 0).
    gamma : number or str, or a length-p sequence
        Combine time per element; a sequence gives each process its own
        (type 3 imbalance).
    root : int
        The process that must hold the result (default 0).
    max_processes : int
        Guard on p.
    pair_alpha, pair_beta : mapping of (sender, receiver) to number, optional
        Per-pair latency and transfer time per element, overriding ``alpha`` and
        ``beta`` for those ordered pairs (see :meth:`from_platform`).  Control
        messages use the pair's latency.

    Raises
    ------
    InputError
        p or elements not a positive integer, a negative or non-numeric α, β
        or γ, a γ list of the wrong length, or a root outside 0..p-1.

    Examples
    --------
    >>> m = FlatModel(4, 10, alpha=1, beta="1/10", gamma="1/5")
    >>> m.transfer(0, 1, 10), m.combine(1, 10)
    (Fraction(2, 1), Fraction(2, 1))
    """

    p: int
    elements: int
    alpha: Number
    beta: Number
    gamma: Any
    root: int = 0
    max_processes: int = MAX_PROCESSES
    pair_alpha: Any = None
    pair_beta: Any = None
    gammas: tuple = field(init=False, repr=False)
    exact: bool = field(init=False, repr=False)

    def __post_init__(self):
        _count(self.max_processes, "max_processes")
        _count(self.p, "p", self.max_processes)
        _count(self.elements, "elements")
        pairs = [dict(self.pair_alpha or {}), dict(self.pair_beta or {})]
        per_process = not isinstance(self.gamma, str | int | float | Fraction) and \
            not hasattr(self.gamma, "denominator")
        gammas = number_list(self.gamma, "gamma") if per_process else [self.gamma] * self.p
        if len(gammas) != self.p:
            raise InputError(f"gamma has {len(gammas)} entries, expected p = {self.p}")
        exact = not any(is_float(v) for v in (self.alpha, self.beta, *gammas, *pairs[0].values(),
                                              *pairs[1].values()))
        set_ = object.__setattr__
        for name, pair in zip(("pair_alpha", "pair_beta"), pairs, strict=True):
            checked = {}
            for key, value in pair.items():
                if not (isinstance(key, tuple) and len(key) == 2 and all(
                        isinstance(k, int) and not isinstance(k, bool) and 0 <= k < self.p
                        for k in key) and key[0] != key[1]):
                    raise InputError(f"{name}: {key!r} is not a pair of distinct ranks in "
                                     f"0..{self.p - 1}")
                checked[key] = nonnegative_number(value, f"{name[5:]} of P{key[0]}->P{key[1]}",
                                                  exact)
            set_(self, name, checked)
        set_(self, "exact", exact)
        set_(self, "alpha", nonnegative_number(self.alpha, "alpha", exact))
        set_(self, "beta", nonnegative_number(self.beta, "beta", exact))
        set_(self, "gammas", tuple(nonnegative_number(g, f"gamma of P{i}" if per_process
                                                      else "gamma", exact)
                                   for i, g in enumerate(gammas)))
        set_(self, "gamma", list(self.gammas) if per_process else self.gammas[0])
        if isinstance(self.root, bool) or not isinstance(self.root, int) \
                or not 0 <= self.root < self.p:
            raise InputError(f"root must be a rank in 0..{self.p - 1}, got {self.root!r}")

    @property
    def uniform(self) -> bool:
        """True when every pair has the same α and β (no per-pair override)."""
        return not self.pair_alpha and not self.pair_beta

    def latency(self, sender: int, receiver: int) -> Number:
        """α of the pair: the cost of a control message."""
        return self.pair_alpha.get((sender, receiver), self.alpha)

    def transfer(self, sender: int, receiver: int, elements: int) -> Number:
        """Time of one message of ``elements`` elements (α + mβ of the pair)."""
        if self.pair_alpha or self.pair_beta:
            return self.latency(sender, receiver) + elements * self.pair_beta.get(
                (sender, receiver), self.beta)
        return self.alpha + elements * self.beta

    @classmethod
    def from_platform(cls, platform, elements: int, alpha: object, beta: object = None,
                      gamma: object = None, root: int = 0) -> FlatModel:
        """A flat model whose β per pair and γ per process come from a platform.

        Ranks are the platform's processors in order.  A link's cost (the time to
        send one unit of data, :attr:`hetcoll.core.platform.Link.comm`) is read as
        β per element of that ordered pair; a processor's compute cost as its γ per
        element unless ``gamma`` is given.  The platform has no latency: α is
        ``alpha`` for every pair.  Pairs without a link use ``beta``.

        Raises
        ------
        InputError
            If ``beta`` is None and some ordered pair has no link (named).

        Examples
        --------
        >>> from hetcoll.core.platform import platform_from_dict
        >>> platform = platform_from_dict({"processors": [{"name": "a", "compute": 1},
        ...     {"name": "b", "compute": 2}], "links": [{"from": "a", "to": "b", "cost": 3,
        ...     "bidirectional": True}]})
        >>> FlatModel.from_platform(platform, 10, alpha=1).transfer(0, 1, 10)
        Fraction(31, 1)
        """
        names = platform.names
        index = {name: i for i, name in enumerate(names)}
        pair_beta = {(index[link.source], index[link.target]): link.comm
                     for link in platform.links}
        if beta is None:
            for i, a in enumerate(names):
                for j, b in enumerate(names):
                    if i != j and (i, j) not in pair_beta:
                        raise InputError(f"the platform has no link {a}->{b}; give a default "
                                         f"beta for pairs without a link")
            beta = 0
        if gamma is None:
            gamma = [processor.comp for processor in platform.processors]
        return cls(len(names), elements, alpha, beta, gamma, root, pair_beta=pair_beta)

    def combine(self, process: int, elements: int) -> Number:
        """Time for ``process`` to combine two operands of ``elements`` elements."""
        return elements * self.gammas[process]

    def number(self, value: object) -> Number:
        """``value`` in this model's arithmetic (Fraction if exact, else float)."""
        return Fraction(value) if self.exact else float(value)

    def delays(self, delays: Sequence | None) -> list[Number]:
        """Validate a delay vector (one per process; zeros when None)."""
        if delays is None:
            return [self.number(0)] * self.p
        entries = number_list(delays, "delays")
        if len(entries) != self.p:
            raise InputError(f"delays has {len(entries)} entries, expected p = {self.p}")
        exact = self.exact and not any(is_float(v) for v in entries)
        values = validate_start_times(entries, self.p, exact)
        return values if self.exact else [float(v) for v in values]


def simplified_model(model: FlatModel):
    """Their Fig. 2 model (τ = 0, ψ = α + nβ + nγ) for a homogeneous flat model.

    Raises
    ------
    InputError
        If γ differs between processes (ψ would depend on the receiver).

    Examples
    --------
    >>> simplified_model(FlatModel(4, 10, 1, 0, 1)).psi
    Fraction(11, 1)
    """
    from hetcoll.sim.marendic import SimplifiedModel

    if len(set(model.gammas)) > 1 or not model.uniform:
        raise InputError("perfect-knowledge needs one gamma for every process and the same "
                         "alpha and beta for every pair (their ψ is one number)")
    n = model.elements
    return SimplifiedModel(psi=model.alpha + n * model.beta + n * model.gammas[0], tau=0)


@dataclass(frozen=True)
class Operation:
    """One busy interval of a run, for the trace and the Gantt chart.

    ``kind`` is ``"data"``, ``"combine"`` or a control message kind
    (``"completion"``, ``"handshake"``, ``"busy"``, ``"redirect"``).  For a
    message, ``process`` sends to ``peer``; for a combine, ``process`` combines
    what ``peer`` sent.  ``elements`` is the size of the operand.
    """

    kind: str
    process: int
    peer: int
    start: Number
    end: Number
    elements: int = 0


def metrics(delays: Sequence[Number], terminations: Sequence[Number], root: int) -> dict:
    """T1 to T5 and T1_root from initiation and termination times.

    >>> metrics([0.0, 2.0], [5.0, 3.0], root=1)
    {'T1': 1.0, 'T2': 5.0, 'T3': 5.0, 'T4': 3.0, 'T5': 1.0, 'T1_root': 3.0}
    """
    times = [t - d for d, t in zip(delays, terminations, strict=True)]
    mean = sum(times[1:], times[0]) / len(times)
    return {"T1": times[root], "T2": max(times), "T3": max(terminations) - min(delays),
            "T4": mean, "T5": min(times), "T1_root": terminations[root]}


@dataclass
class ImbalanceResult(Result):
    """Outcome of one simulated reduction under imbalance.

    Attributes
    ----------
    status : int
        0 on success.
    message : str
    algorithm : str
    p : int
    root : int
    delays : list
        Initiation times d_i.
    terminations : list
        When each process took part in its last operation.
    T1, T2, T3, T4, T5, T1_root : Fraction or float
        The metrics of :func:`metrics` (exact when every input was rational).
    value :
        The reduced vector at the root (None when no values were given).
    in_order : bool or None
        Whether the root's value combined the operands in rank order (None
        when no values were given).
    trace : list of Operation
    """

    status: int
    message: str
    algorithm: str
    p: int
    root: int
    delays: list
    terminations: list
    T1: Number
    T2: Number
    T3: Number
    T4: Number
    T5: Number
    T1_root: Number
    value: Any = None
    in_order: bool | None = None
    trace: list[Operation] = field(default_factory=list, repr=False)

    def metric_dict(self) -> dict:
        """``T1`` ... ``T5``, ``T1_root`` as floats, with ``_exact`` strings when exact."""
        data: dict = {}
        for name in ("T1", "T2", "T3", "T4", "T5", "T1_root"):
            pair = exact_pair(name, getattr(self, name))
            data[name] = pair[name]
            if isinstance(getattr(self, name), Fraction):
                data[f"{name}_exact"] = pair[f"{name}_exact"]
        return data

    def to_dict(self) -> dict:
        data = {"status": self.status, "message": self.message, "success": self.success,
                "algorithm": self.algorithm, "p": self.p, "root": self.root}
        data |= self.metric_dict()
        if self.in_order is not None:
            data["in_order"] = self.in_order
        return data

    def gantt(self, ax=None, title: str | None = None):
        """Draw the run: one row per process, operations coloured by kind."""
        from hetcoll.core.gantt import GanttBar, gantt_chart

        bars = []
        for op in self.trace:
            if op.kind == "combine":
                bars.append(GanttBar(f"P{op.process}", op.start, op.end, "combine",
                                     f"+{op.peer}"))
            else:
                bars.append(GanttBar(f"P{op.process}", op.start, op.end, op.kind,
                                     f"->{op.peer}"))
        rows = [f"P{i}" for i in range(self.p)]
        return gantt_chart(bars, ax=ax, row_order=rows, legend_title="operation",
                           title=title or f"{self.algorithm}, p = {self.p}, T1_root = "
                                          f"{float(self.T1_root):g}")
