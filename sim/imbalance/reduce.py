"""One reduction under load imbalance, any algorithm, exact with rational inputs."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import reduce as _fold
from typing import Any

import numpy as np

from hetcoll.core.errors import InputError
from hetcoll.sim.imbalance.dynamic import perfect_knowledge, tree_dyn
from hetcoll.sim.imbalance.local_reduce import local_reduce
from hetcoll.sim.imbalance.model import FlatModel, ImbalanceResult, metrics
from hetcoll.sim.imbalance.static import STATIC_ALGORITHMS, run_programs

__all__ = ["ALGORITHMS", "IN_ORDER", "WHOLE_VECTOR", "simulate_reduction"]

ALGORITHMS = (*STATIC_ALGORITHMS, "perfect-knowledge", "local-reduce", "tree-dyn",
              "noncommut-tree-dyn")
#: Algorithms that combine the operands in rank order (non-commutative operators);
#: binomial only with root 0 (its tree is on ranks relative to the root).
IN_ORDER = ("linear", "binomial", "direct-send", "rabenseifner", "local-reduce",
            "noncommut-tree-dyn")
#: Algorithms whose every message carries the whole vector.
WHOLE_VECTOR = ("linear", "binary", "binomial", "perfect-knowledge", "local-reduce",
                "tree-dyn", "noncommut-tree-dyn")


def simulate_reduction(
    algorithm: str,
    model: FlatModel,
    delays: Sequence | None = None,
    *,
    values: Sequence[Sequence] | None = None,
    operator: Callable[[Any, Any], Any] | None = None,
    trace: bool = True,
) -> ImbalanceResult:
    """Simulate one reduction under start-time skew, message by message.

    Parameters
    ----------
    algorithm : str
        One of :data:`ALGORITHMS`.
    model : FlatModel
        α, β, γ, the vector length, p and the root.
    delays : length-p sequence, optional
        When each process enters the reduction (type 1 imbalance); zeros by
        default.
    values : length-p sequence of vectors, optional
        Each process's vector (``model.elements`` entries), to reduce real
        data; the result's ``value`` is then the root's vector.
    operator : callable, optional
        Combines two elements, left operand first; ``+`` by default.
    trace : bool
        Keep the operations (for Gantt charts).

    Returns
    -------
    ImbalanceResult
        Exact (Fraction) metrics when the model and the delays are rational.

    Raises
    ------
    InputError
        Unknown algorithm, delays or values of the wrong length, a negative
        delay, rabenseifner with p not a power of two.

    Examples
    --------
    >>> m = FlatModel(4, 2, alpha=1, beta=1, gamma=1)
    >>> r = simulate_reduction("binomial", m)
    >>> r.T1_root   # formula (2): 2 (α + 2β + 2γ)
    Fraction(10, 1)
    >>> simulate_reduction("local-reduce", m, [0, 0, 7, 0], values=["ab", "cd", "ef", "gh"],
    ...                    operator=str.__add__).value
    ['aceg', 'bdfh']

    References
    ----------
    Marendić et al., sections 2.1, 3, 4 and 5.1.
    """
    if algorithm not in ALGORITHMS:
        raise InputError(f"unknown algorithm {algorithm!r}; expected one of "
                         f"{', '.join(ALGORITHMS)}")
    starts = model.delays(delays)
    if values is not None:
        if len(values) != model.p:
            raise InputError(f"values has {len(values)} vectors, expected p = {model.p}")
        for i, vector in enumerate(values):
            if len(vector) != model.elements:
                raise InputError(f"the vector of P{i} has {len(vector)} elements, expected "
                                 f"{model.elements}")
        operator = operator or (lambda a, b: a + b)
    if algorithm in STATIC_ALGORITHMS:
        last, value, ops = run_programs(model, algorithm, starts, values, operator)
    elif algorithm == "local-reduce":
        last, value, ops = local_reduce(model, starts, values, operator, trace)
    elif algorithm == "perfect-knowledge":
        last, value, ops = perfect_knowledge(model, starts, values, operator)
    else:
        last, value, ops = tree_dyn(model, algorithm, starts, values, operator)
    in_order = None
    if values is not None:
        expected = [_fold(operator, column) for column in zip(*values, strict=True)]
        in_order = all(bool(np.all(x == y)) for x, y in zip(value, expected, strict=True))
    return ImbalanceResult(0, "reduction complete", algorithm, model.p, model.root, starts,
                           last, **metrics(starts, last, model.root), value=value,
                           in_order=in_order, trace=ops if trace else [])
