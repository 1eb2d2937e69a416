"""Point-to-point performance models t(i, j, m) for the scatterv/gatherv trees.

Every tree builder and predictor of :mod:`hetcoll.sim.collectives` asks one question:
how long does sending ``m`` units of data from process ``i`` to process ``j`` take?
The answer comes from an object with the :class:`PointToPoint` interface, so that
other models (LMO, PLogP) can come later without touching the algorithms.

- :class:`HockneyModel`: t(i, j, m) = alpha_ij + beta_ij m, alpha and beta read from a
  platform's links (``"latency"`` and ``"cost"``); a pair without a link has no time.
- :class:`StarHockney`: every process hangs on one switch by its own link:
  t(i, j, m) = a_i + a_j + max(b_i, b_j) m (a cluster; memory O(p), for large p).
- :func:`fit_hockney` and :func:`read_pingpong_csv`: alpha and beta per pair by least
  squares from ping-pong measurements.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np

from hetcoll.core.errors import InputError
from hetcoll.core.jsonio import read_text
from hetcoll.core.numbers import nonnegative_number, positive_fraction
from hetcoll.core.platform import Platform

__all__ = [
    "HockneyFit",
    "HockneyModel",
    "PointToPoint",
    "StarHockney",
    "fit_hockney",
    "read_pingpong_csv",
]


@runtime_checkable
class PointToPoint(Protocol):
    """What the tree builders and predictors ask of a communication model.

    Attributes
    ----------
    names : tuple of str
        The processes the model knows.
    """

    names: tuple[str, ...]

    def time(self, src: str, dst: str, size: Fraction) -> Fraction | None:
        """Exact time to send ``size`` units from ``src`` to ``dst``; None if impossible."""

    def approx(self, src: np.ndarray, dst: np.ndarray, size: np.ndarray) -> np.ndarray:
        """The same in floats, vectorised over index arrays into :attr:`names`.

        ``inf`` where a pair cannot communicate.  Used only to shortlist candidates:
        every decision is confirmed with :meth:`time`.
        """


class HockneyModel:
    """Hockney's model on a platform's links: t(i, j, m) = latency_ij + cost_ij * m.

    Parameters
    ----------
    platform : Platform
        Each link gives alpha (its ``latency``) and beta (its ``cost``) for its
        ordered pair; a pair without a link cannot communicate (``time`` is None).

    Examples
    --------
    >>> from hetcoll.core.platform import platform_from_dict
    >>> p = platform_from_dict({"processors": [{"name": "A", "compute": 1},
    ...                                        {"name": "B", "compute": 1}],
    ...                         "links": [{"from": "A", "to": "B", "cost": "1/2",
    ...                                    "latency": 3}]})
    >>> HockneyModel(p).time("A", "B", Fraction(4)), HockneyModel(p).time("B", "A", 1)
    (Fraction(5, 1), None)

    References
    ----------
    Hockney, "The communication challenge for MPP", Parallel Computing 20 (1994);
    Dichev, Rychkov, Lastovetsky, §3 (their predictions use Hockney's model).
    """

    def __init__(self, platform: Platform) -> None:
        self.platform = platform
        self.names = platform.names
        p = len(self.names)
        self._alpha = np.zeros((p, p))
        self._beta = np.full((p, p), np.inf)
        index = platform.index
        for link in platform.links:
            i, j = index[link.source], index[link.target]
            self._alpha[i, j] = float(link.latency)
            self._beta[i, j] = float(link.comm)

    def time(self, src: str, dst: str, size: Fraction) -> Fraction | None:
        link = self.platform.link(src, dst)
        return None if link is None else link.latency + link.comm * size

    def approx(self, src: np.ndarray, dst: np.ndarray, size: np.ndarray) -> np.ndarray:
        return self._alpha[src, dst] + self._beta[src, dst] * size


@dataclass(frozen=True)
class StarHockney:
    """Processes on one switch, each by its own link (latency a_i, cost per unit b_i).

    t(i, j, m) = a_i + a_j + max(b_i, b_j) m: latency adds along the two hops, the
    slower link bounds the rate.  It holds O(p) numbers, so it serves for large p.

    Attributes
    ----------
    names : tuple of str
    latency, cost : tuple of Fraction
        a_i >= 0 and b_i > 0, one per process.

    Examples
    --------
    >>> m = StarHockney.build(["A", "B"], [1, 2], ["1/10", "1/4"])
    >>> m.time("A", "B", Fraction(8))
    Fraction(5, 1)
    """

    names: tuple[str, ...]
    latency: tuple[Fraction, ...]
    cost: tuple[Fraction, ...]

    @classmethod
    def build(cls, names: Sequence[str], latency: Sequence[object],
              cost: Sequence[object]) -> StarHockney:
        """Validate and convert the per-process parameters (InputError naming the process)."""
        names = tuple(names)
        if len(latency) != len(names) or len(cost) != len(names):
            raise InputError("StarHockney: one latency and one cost per process")
        return cls(names, tuple(nonnegative_number(a, f"latency of {n}")
                                for n, a in zip(names, latency, strict=True)),
                   tuple(positive_fraction(b, f"cost of {n}")
                         for n, b in zip(names, cost, strict=True)))

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", {n: i for i, n in enumerate(self.names)})
        object.__setattr__(self, "_a", np.array([float(a) for a in self.latency]))
        object.__setattr__(self, "_b", np.array([float(b) for b in self.cost]))

    def time(self, src: str, dst: str, size: Fraction) -> Fraction | None:
        i, j = self._index[src], self._index[dst]
        return self.latency[i] + self.latency[j] + max(self.cost[i], self.cost[j]) * size

    def approx(self, src: np.ndarray, dst: np.ndarray, size: np.ndarray) -> np.ndarray:
        return self._a[src] + self._a[dst] + np.maximum(self._b[src], self._b[dst]) * size


@dataclass(frozen=True)
class HockneyFit:
    """Hockney parameters of one ordered pair fitted from measurements.

    Attributes
    ----------
    source, target : str
    latency, cost : float
        alpha (intercept, clipped at 0) and beta (slope) of t = alpha + beta m.
    residual : float
        Root mean square of the residuals.
    samples : int
    """

    source: str
    target: str
    latency: float
    cost: float
    residual: float
    samples: int


def fit_hockney(samples: Mapping[tuple[str, str], Sequence[tuple[float, float]]]
                ) -> list[HockneyFit]:
    """Least-squares fit of t = alpha + beta m for each pair, alpha >= 0 and beta > 0.

    Parameters
    ----------
    samples : mapping of (source, target) to sequence of (size, time)
        One-way times (halve a ping-pong round trip before calling, as
        :func:`read_pingpong_csv` does).

    Returns
    -------
    list of HockneyFit
        In the mapping's order.

    Raises
    ------
    InputError
        If a pair has fewer than two distinct sizes, or its fitted slope is not
        positive (the times do not grow with the size).

    See Also
    --------
    read_pingpong_csv : reads the samples from a CSV file.

    Examples
    --------
    >>> fit = fit_hockney({("A", "B"): [(0, 2.0), (10, 3.0), (20, 4.0)]})[0]
    >>> round(fit.latency, 9), round(fit.cost, 9)
    (2.0, 0.1)

    References
    ----------
    Dichev, Rychkov, Lastovetsky, §3: Hockney's model, estimated per pair.
    """
    from scipy.optimize import lsq_linear

    fits = []
    for (a, b), rows in samples.items():
        data = np.asarray(rows, dtype=float).reshape(-1, 2)
        if len(np.unique(data[:, 0])) < 2:
            raise InputError(f"pair {a}->{b}: need measurements at two sizes at least")
        # Solve on sizes and times scaled to at most 1: at the scale of seconds and
        # elements (1e-5 s, 1e5 elements) lsq_linear's absolute tolerances stopped far
        # from the optimum (a flat pair came out with a slope of 1e-7 s/element); the
        # bounded-variable solver (bvls) is exact for two unknowns.
        size_scale = float(np.abs(data[:, 0]).max()) or 1.0
        time_scale = float(np.abs(data[:, 1]).max()) or 1.0
        design = np.column_stack([np.ones(len(data)), data[:, 0] / size_scale])
        solution = lsq_linear(design, data[:, 1] / time_scale,
                              bounds=([0, 0], [np.inf, np.inf]), method="bvls")
        alpha = solution.x[0] * time_scale
        beta = solution.x[1] * time_scale / size_scale
        # The bound beta >= 0 leaves beta at 0 (or a rounding error above it) when the
        # times do not grow with the size.
        if not solution.x[1] > 1e-9:
            raise InputError(f"pair {a}->{b}: the times do not grow with the size "
                             f"(fitted cost per unit {beta:g})")
        residual = float(np.sqrt(np.mean((alpha + beta * data[:, 0] - data[:, 1]) ** 2)))
        fits.append(HockneyFit(a, b, float(alpha), float(beta), residual, len(data)))
    return fits


def read_pingpong_csv(path: str | Path) -> dict[tuple[str, str], list[tuple[float, float]]]:
    """Read ping-pong measurements: columns ``source,target,size,time``.

    ``time`` is the round trip of a message of ``size`` units; the one-way time is
    half of it, and the pair's samples count for both directions unless the file
    also measures the reverse pair.

    Raises
    ------
    InputError
        Naming the line: a missing column, a negative or non-numeric value.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "pp.csv"
    >>> _ = path.write_text("source,target,size,time\\nA,B,0,4\\nA,B,10,6\\n")
    >>> read_pingpong_csv(path)[("B", "A")]
    [(0.0, 2.0), (10.0, 3.0)]
    """
    reader = csv.DictReader(io.StringIO(read_text(path)))
    missing = {"source", "target", "size", "time"} - set(reader.fieldnames or ())
    if missing:
        raise InputError(f"{path}: the CSV lacks the column {sorted(missing)[0]!r}")
    measured: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for line, row in enumerate(reader, start=2):
        values = []
        for key in ("size", "time"):
            values.append(float(nonnegative_number(row[key], f"{path} line {line}: {key}")))
        measured.setdefault((row["source"], row["target"]), []).append(
            (values[0], values[1] / 2))
    samples = dict(measured)
    for (a, b), rows in measured.items():
        samples.setdefault((b, a), list(rows))
    return samples
