"""Cost models and cost distributions.

A *cost model* answers two questions for the event engine: the cost of the
k-th communication started (from ``sender`` to ``receiver``, carrying the
interval ``[a, b]`` of original values) and the cost of the k-th computation
started (on ``processor``).  Explicit matrices (:class:`MatrixCosts`) ignore
``k``; per-run random draws (:class:`SequenceCosts`) ignore everything but
``k``, which is how common random numbers are shared across methods
(Benoit, Canon, Marchal, RR 8315, section 6).  A later Hockney model
(alpha + beta * size) only has to read ``interval``.

A *cost distribution* (:class:`Gamma`, :class:`Exponential`,
:class:`Deterministic`, :class:`FrozenScipy`) draws i.i.d. non-negative costs
for the Monte Carlo engine.

A *cost file* (:func:`read_cost_file`) is the JSON form of explicit costs used by
``hetcoll simulate --costs`` and ``hetcoll optimum --costs``.
"""

from __future__ import annotations

import math
import os
from abc import ABC, abstractmethod
from dataclasses import dataclass
from fractions import Fraction
from numbers import Real
from typing import Any, Protocol, runtime_checkable

import numpy as np

from hetcoll.core.errors import InputError
from hetcoll.core.jsonio import read_json
from hetcoll.core.numbers import (
    Number,
    is_float,
    nonnegative_number,
    number_list,
    validate_start_times,
)

__all__ = [
    "CostFile",
    "CostModel",
    "MatrixCosts",
    "SequenceCosts",
    "CostDistribution",
    "Gamma",
    "Exponential",
    "Deterministic",
    "FrozenScipy",
    "as_distribution",
    "read_cost_file",
]



@runtime_checkable
class CostModel(Protocol):
    """What the event engine asks about costs.

    Attributes
    ----------
    n : int or None
        Number of processors the model is made for, if it knows.
    exact : bool
        True when every cost is a :class:`~fractions.Fraction`.
    """

    n: int | None
    exact: bool

    def comm(self, k: int, sender: int, receiver: int, interval: tuple[int, int]) -> Number:
        """Cost of the k-th communication started (0-based)."""

    def comp(self, k: int, processor: int) -> Number:
        """Cost of the k-th computation started (0-based)."""


def _rows(comm: object) -> list[list]:
    if isinstance(comm, np.ndarray):
        if comm.ndim != 2 or comm.shape[0] != comm.shape[1]:
            raise InputError(f"comm must be a square n x n matrix, got shape {comm.shape}")
        return [list(row) for row in comm]
    rows = number_list(comm, "comm")
    if not rows:
        raise InputError("comm must be a non-empty n x n matrix")
    result = []
    for i, row in enumerate(rows):
        row = number_list(row, f"comm row {i}")
        if len(row) != len(rows):
            raise InputError(f"comm must be a square n x n matrix: row {i} has {len(row)} "
                             f"entries, expected {len(rows)}")
        result.append(row)
    return result


@dataclass(frozen=True)
class MatrixCosts:
    """Explicit costs: d(i, j) from a matrix, c_i from a vector.

    Build it with :meth:`from_input`, which validates and converts user data.

    Attributes
    ----------
    d : tuple of tuple of Fraction or float
        ``d[i][j]`` is the time to send one value from P_i to P_j (the diagonal
        is 0 and never used).
    c : tuple of Fraction or float
        ``c[i]`` is the time of one reduction on P_i.
    exact : bool
        True when every cost is a Fraction.
    """

    d: tuple[tuple[Number, ...], ...]
    c: tuple[Number, ...]
    exact: bool

    @property
    def n(self) -> int:
        return len(self.c)

    @classmethod
    def from_input(cls, comm: object, comp: object = None, *,
                   exact: bool | None = None) -> MatrixCosts:
        """Validate and convert a user's cost matrix and vector.

        Parameters
        ----------
        comm : n x n nested sequence or numpy array
            Entries are ints, Fractions, floats or strings such as ``"3/7"``;
            the diagonal is ignored.
        comp : length-n sequence, optional
            Computation costs; zero when omitted.
        exact : bool, optional
            Force exact (True) or float (False) arithmetic.  By default exact
            unless some entry is a float.

        Raises
        ------
        InputError
            If the matrix is not square, or a cost is missing, not a number,
            negative or infinite (the message names the link or processor).
        """
        rows = _rows(comm)
        n = len(rows)
        comp_list = [0] * n if comp is None else number_list(comp, "comp")
        if len(comp_list) != n:
            raise InputError(f"comp has {len(comp_list)} entries but comm is {n} x {n}")
        if exact is None:
            exact = not any(is_float(v) for i, row in enumerate(rows)
                            for j, v in enumerate(row) if i != j)
            exact = exact and not any(is_float(v) for v in comp_list)
        zero = Fraction(0) if exact else 0.0
        d = tuple(tuple(zero if i == j
                        else nonnegative_number(v, f"cost of link P{i}->P{j}", exact)
                        for j, v in enumerate(row)) for i, row in enumerate(rows))
        c = tuple(nonnegative_number(v, f"computation cost of P{i}", exact)
                  for i, v in enumerate(comp_list))
        return cls(d, c, exact)

    def comm(self, k: int, sender: int, receiver: int, interval: tuple[int, int]) -> Number:
        return self.d[sender][receiver]

    def comp(self, k: int, processor: int) -> Number:
        return self.c[processor]


@dataclass(frozen=True)
class SequenceCosts:
    """Costs by order of start: the k-th communication costs ``comm[k]``.

    This is the common-random-numbers model of RR 8315, section 6: one run
    draws n - 1 communication and n - 1 computation costs, and every method
    gives the k-th operation it starts the k-th cost, whoever the processors.

    Attributes
    ----------
    comm_costs, comp_costs : tuple of Fraction or float
        n - 1 costs each.
    exact : bool
    """

    comm_costs: tuple[Number, ...]
    comp_costs: tuple[Number, ...]
    exact: bool

    @property
    def n(self) -> int:
        return len(self.comm_costs) + 1

    @classmethod
    def from_input(cls, comm: object, comp: object = None, *,
                   exact: bool | None = None) -> SequenceCosts:
        """Validate per-run cost sequences (``comp`` defaults to zeros).

        Raises
        ------
        InputError
            If the lengths differ or a cost is not a non-negative number.
        """
        comm_list = number_list(comm, "comm sequence")
        comp_list = [0] * len(comm_list) if comp is None else number_list(comp, "comp sequence")
        if len(comp_list) != len(comm_list):
            raise InputError(f"comp sequence has {len(comp_list)} costs, comm sequence "
                             f"{len(comm_list)}: a reduction of n values needs n - 1 of each")
        if exact is None:
            exact = not any(is_float(v) for v in comm_list + comp_list)
        return cls(tuple(nonnegative_number(v, f"communication cost #{k}", exact)
                         for k, v in enumerate(comm_list)),
                   tuple(nonnegative_number(v, f"computation cost #{k}", exact)
                         for k, v in enumerate(comp_list)), exact)

    def comm(self, k: int, sender: int, receiver: int, interval: tuple[int, int]) -> Number:
        return self.comm_costs[k]

    def comp(self, k: int, processor: int) -> Number:
        return self.comp_costs[k]


class CostDistribution(ABC):
    """An i.i.d. law of non-negative costs for the Monte Carlo engine.

    Every subclass has a ``mean`` attribute (the expected cost).
    """

    mean: float

    @abstractmethod
    def _draw(self, rng: np.random.Generator, size: tuple[int, ...]) -> np.ndarray:
        """Raw draws (float64)."""

    def sample(self, rng: np.random.Generator, size: int | tuple[int, ...]) -> np.ndarray:
        """Draw costs of shape ``size`` with ``rng``.

        Raises
        ------
        InputError
            If the law produced a negative or non-finite cost.
        """
        size = (size,) if isinstance(size, int) else tuple(size)
        draws = np.asarray(self._draw(rng, size), dtype=np.float64)
        if draws.size and not (np.isfinite(draws).all() and draws.min() >= 0):
            raise InputError(f"{self!r} drew a negative or non-finite cost; costs must be >= 0")
        return draws


def _nonneg(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, Real):
        raise InputError(f"{what} must be a number, got {value!r}")
    value = float(value)
    if not (np.isfinite(value) and value >= 0):
        raise InputError(f"{what} must be finite and >= 0, got {value!r}")
    if value > 1e300:  # sums of such costs overflow to a silent inf makespan
        raise InputError(f"{what} {value!r} is too large for floating point (over 1e300)")
    return value


@dataclass(frozen=True)
class Gamma(CostDistribution):
    """Gamma costs of mean ``mean`` and coefficient of variation ``cv``.

    Shape 1/cv^2 and scale mean * cv^2, as in RR 8315, section 6; ``cv = 0``
    (or ``mean = 0``) gives the constant ``mean``.

    Parameters
    ----------
    mean : float
        Mean cost, finite and >= 0.
    cv : float
        Coefficient of variation (std / mean), finite and >= 0.

    Raises
    ------
    InputError
        If ``mean`` or ``cv`` is not a finite number >= 0, or if the shape
        1/cv^2 or the scale mean * cv^2 is not a positive finite float (e.g.
        ``cv = 1e-200``, whose square underflows to 0).

    References
    ----------
    Benoit, Canon, Marchal, RR 8315, section 6 (gamma costs of mean mu and
    coefficient of variation CV, Figures 4 to 6).

    Examples
    --------
    >>> import numpy as np
    >>> Gamma(2.0, 0.5).sample(np.random.default_rng(1), 100_000).mean().round(1)
    np.float64(2.0)
    """

    mean: float
    cv: float

    def __post_init__(self):
        object.__setattr__(self, "mean", _nonneg(self.mean, "gamma mean"))
        object.__setattr__(self, "cv", _nonneg(self.cv, "gamma coefficient of variation"))
        if self.cv > 0 and self.mean > 0:
            square = self.cv * self.cv  # overflows to inf, where ** raises
            shape = 1 / square if square > 0 else math.inf
            scale = self.mean * square
            if not (math.isfinite(shape) and math.isfinite(scale) and shape > 0 and scale > 0):
                raise InputError(
                    f"gamma coefficient of variation {self.cv!r} with mean {self.mean!r} is out "
                    f"of floating-point range (shape 1/cv^2 = {shape!r}, scale mean*cv^2 = "
                    f"{scale!r})")

    def _draw(self, rng, size):
        if self.cv == 0 or self.mean == 0:
            return np.full(size, self.mean)
        square = self.cv * self.cv
        return rng.gamma(1 / square, self.mean * square, size)


@dataclass(frozen=True)
class Exponential(CostDistribution):
    """Exponential costs of mean ``mean`` (rate 1/mean), as in RR 8315, section 5.

    Parameters
    ----------
    mean : float
        Mean cost 1/lambda, finite and >= 0.

    Raises
    ------
    InputError
        If ``mean`` is not a finite number >= 0.

    Examples
    --------
    >>> import numpy as np
    >>> Exponential(0.5).sample(np.random.default_rng(1), 100_000).mean().round(2)
    np.float64(0.5)

    References
    ----------
    Benoit, Canon, Marchal, RR 8315, section 5 (exponential costs: the
    Markov chain analysis of Tree-dyn).
    """

    mean: float

    def __post_init__(self):
        object.__setattr__(self, "mean", _nonneg(self.mean, "exponential mean"))

    def _draw(self, rng, size):
        return rng.exponential(self.mean, size)


@dataclass(frozen=True)
class Deterministic(CostDistribution):
    """Every cost equals ``value`` (the homogeneous platforms of RR 8315, section 4).

    Parameters
    ----------
    value : float
        The cost, finite and >= 0.

    Raises
    ------
    InputError
        If ``value`` is not a finite number >= 0.

    Examples
    --------
    >>> import numpy as np
    >>> Deterministic(2).sample(np.random.default_rng(0), 3)
    array([2., 2., 2.])

    References
    ----------
    Benoit, Canon, Marchal, RR 8315, section 4 (homogeneous costs c, d).
    """

    value: float

    def __post_init__(self):
        object.__setattr__(self, "value", _nonneg(self.value, "deterministic cost"))

    @property
    def mean(self) -> float:  # type: ignore[override]
        return self.value

    def _draw(self, rng, size):
        return np.full(size, self.value)


@dataclass(frozen=True)
class FrozenScipy(CostDistribution):
    """Any frozen :mod:`scipy.stats` distribution, e.g. ``scipy.stats.lognorm(0.5)``.

    Draws use the engine's Generator (``random_state=rng``), so they are
    reproducible.  Negative draws raise :class:`~hetcoll.InputError`.
    """

    dist: Any

    def __post_init__(self):
        if not (hasattr(self.dist, "rvs") and hasattr(self.dist, "mean")):
            raise InputError(f"FrozenScipy needs a frozen scipy.stats distribution, "
                             f"got {type(self.dist).__name__}")

    @property
    def mean(self) -> float:  # type: ignore[override]
        return float(self.dist.mean())

    def _draw(self, rng, size):
        return self.dist.rvs(size=size, random_state=rng)


def as_distribution(value: object, what: str) -> CostDistribution:
    """A cost distribution, or a non-negative number read as :class:`Deterministic`.

    Raises
    ------
    InputError
        If ``value`` is neither.
    """
    if isinstance(value, CostDistribution):
        return value
    if isinstance(value, Real) and not isinstance(value, bool):
        return Deterministic(value)
    raise InputError(f"{what} must be a cost distribution (sim.Gamma, sim.Exponential, "
                     f"sim.Deterministic, sim.FrozenScipy) or a number, "
                     f"got {type(value).__name__}")


#: Keys a cost file may have.
COST_FILE_KEYS = ("comm", "comp", "start_times", "description")


@dataclass(frozen=True)
class CostFile:
    """Explicit costs read from a JSON cost file by :func:`read_cost_file`.

    Attributes
    ----------
    costs : MatrixCosts
        The communication matrix and computation costs, exact (Fractions).
    start_times : tuple of Fraction or None
        When each processor's value is ready (None: all at time 0).
    description : str or None
        The file's free-text ``"description"``.
    """

    costs: MatrixCosts
    start_times: tuple[Fraction, ...] | None = None
    description: str | None = None

    @property
    def n(self) -> int:
        """Number of processors."""
        return self.costs.n


def read_cost_file(path: str | os.PathLike[str]) -> CostFile:
    """Read and validate a JSON cost file.

    The file holds one JSON object with the keys

    - ``"comm"``: an n x n matrix, ``comm[i][j]`` the time to send a value from
      P_i to P_j (the diagonal is ignored);
    - ``"comp"`` (optional): a list of n reduction times, zeros when omitted;
    - ``"start_times"`` (optional): a list of n times at which the values are ready;
    - ``"description"`` (optional): free text.

    Costs are non-negative numbers or strings such as ``"3/7"`` or ``"0.1"``; a
    JSON decimal means what was typed (0.1 is 1/10), so every cost is exact.

    Parameters
    ----------
    path : str or path-like
        The file to read.

    Returns
    -------
    CostFile

    Raises
    ------
    InputError
        Starting with ``path``: not valid JSON, not an object, no ``"comm"``, an
        unknown key, a matrix that is not square (which row), a cost that is
        missing, negative or not a number (which link ``Pi->Pj``, which
        processor), a list of the wrong length (which field).
    OSError
        If the file cannot be read.

    Examples
    --------
    >>> costs = read_cost_file("examples/costs/heterogeneous_5.json")  # from the repository root
    >>> costs.n, costs.start_times[2]
    (5, Fraction(1, 2))

    References
    ----------
    Benoit, Canon, Marchal, RR 8315, section 3 (the cost model d(i, j), c_i).
    """
    data = read_json(path)
    if not isinstance(data, dict) or "comm" not in data:
        raise InputError(f'{path}: expected a JSON object with a "comm" matrix')
    unknown = sorted(set(data) - set(COST_FILE_KEYS))
    if unknown:
        raise InputError(f"{path}: unknown key {unknown[0]!r} (expected "
                         f"{', '.join(repr(k) for k in COST_FILE_KEYS)})")
    try:
        costs = MatrixCosts.from_input(data["comm"], data.get("comp"), exact=True)
        starts = data.get("start_times")
        if starts is not None:
            starts = tuple(validate_start_times(starts, costs.n))
    except InputError as error:
        raise InputError(f"{path}: {error}") from None
    description = data.get("description")
    if description is not None and not isinstance(description, str):
        raise InputError(f'{path}: "description" must be a string, got '
                         f"{type(description).__name__}")
    return CostFile(costs, starts, description)
