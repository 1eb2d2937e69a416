"""The reduction operators of the MPI layer, on numpy buffers.

- ``sum``: element-wise sum of float64 vectors (commutative).  The data are whole
  numbers below 1024, so every order of summation gives the same float exactly and a
  result can be compared with the sequential reduction bit for bit.
- ``matmul``: products of 2 x 2 integer matrices modulo the prime 65521 (associative,
  not commutative): ``elements`` must be a multiple of 4, the vector holding
  ``elements / 4`` matrices.  Integer arithmetic is exact, so a wrong order shows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from hetcoll.core.errors import InputError

__all__ = ["OPERATORS", "Operator", "operand", "sequential_reduction"]

_MODULUS = 65521  # a prime below 2^16: products of two entries stay far below 2^63


@dataclass(frozen=True)
class Operator:
    """An associative operator on flat numpy buffers.

    Attributes
    ----------
    name : str
    commutative : bool
    dtype : numpy dtype
    combine : callable
        ``combine(left, right) -> left ⊕ right`` (new array).
    """

    name: str
    commutative: bool
    dtype: type
    combine: Callable[[np.ndarray, np.ndarray], np.ndarray]

    def check_elements(self, elements: int) -> None:
        """Refuse a vector length the operator cannot use."""
        if self.name == "matmul" and elements % 4:
            raise InputError(f"--elements {elements}: the matmul operator needs a multiple "
                             f"of 4 (2 x 2 matrices)")


def _matmul(left: np.ndarray, right: np.ndarray) -> np.ndarray:
    product = np.matmul(left.reshape(-1, 2, 2), right.reshape(-1, 2, 2)) % _MODULUS
    return product.reshape(-1)


OPERATORS = {
    "sum": Operator("sum", True, np.float64, np.add),
    "matmul": Operator("matmul", False, np.int64, _matmul),
}


def operand(operator: Operator, rank: int, elements: int, seed: int) -> np.ndarray:
    """Rank ``rank``'s value: a reproducible vector (the same on every rank that asks).

    >>> operand(OPERATORS["sum"], 1, 3, seed=0).tolist() == operand(
    ...     OPERATORS["sum"], 1, 3, seed=0).tolist()
    True
    """
    rng = np.random.default_rng([seed, rank])
    if operator.name == "sum":
        return rng.integers(0, 1024, elements).astype(np.float64)
    return rng.integers(0, _MODULUS, elements).astype(np.int64)


def sequential_reduction(operator: Operator, values: list[np.ndarray]) -> np.ndarray:
    """v_0 ⊕ v_1 ⊕ ... ⊕ v_(p-1), left to right: the reference every algorithm must meet.

    >>> a = np.array([1, 1, 0, 1]); b = np.array([1, 0, 1, 1])  # [[1,1],[0,1]], [[1,0],[1,1]]
    >>> sequential_reduction(OPERATORS["matmul"], [a, b]).tolist()
    [2, 1, 1, 1]
    >>> sequential_reduction(OPERATORS["matmul"], [b, a]).tolist()
    [1, 1, 1, 2]
    """
    result = values[0]
    for value in values[1:]:
        result = operator.combine(result, value)
    return result
