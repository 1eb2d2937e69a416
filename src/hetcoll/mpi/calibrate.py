"""Calibration: Hockney alpha and beta per pair of ranks, and the operator's gamma.

Inside an MPI world, :func:`measure_calibration` runs ping-pongs between every pair of
ranks (one pair at a time, the others waiting at a barrier) over a range of message
sizes, keeping for each size the fastest of ``rounds`` round trips, halved: the
one-way time of SKaMPI and ReproMPI (the minimum filters out the operating system's
noise, which only ever adds time).  Each rank also times the operator's combine on a
vector and divides by its length: gamma, seconds per element.

:func:`calibrated_platform` fits t = alpha + beta m per ordered pair with
:func:`hetcoll.sim.collectives.fit_hockney` and returns a platform dict that the rest of
hetcoll reads (:func:`hetcoll.core.platform.platform_from_dict`): processors ``P<r>``
with ``compute`` = gamma, links with ``cost`` = beta and ``latency`` = alpha, sizes in
float64 elements.

References
----------
Hockney, "The communication challenge for MPP", Parallel Computing 20 (1994);
Dichev, Rychkov, Lastovetsky, §3 (per-pair Hockney parameters); Hunold and
Carpen-Amarie, "Reproducible MPI benchmarking is still not as easy as you think",
IEEE TPDS 27(12), 2016 (ReproMPI).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from hetcoll.mpi.operators import OPERATORS, operand
from hetcoll.sim.collectives import fit_hockney

__all__ = ["DEFAULT_SIZES", "calibrated_platform", "measure_calibration"]

#: Message sizes (float64 elements) of the ping-pongs by default.
DEFAULT_SIZES = (1, 1024, 16_384, 65_536, 262_144)

_PING = 11


def measure_calibration(comm: Any, sizes: Sequence[int], rounds: int = 10,
                        operator: str = "sum", gamma_elements: int = 262_144
                        ) -> dict[str, Any] | None:
    """Ping-pong every pair and time the operator (every rank calls it).

    Returns
    -------
    dict or None
        At rank 0: ``{"samples": [[i, j, size, one_way_seconds], ...], "gamma":
        [seconds per element of each rank]}``; None elsewhere.
    """
    rank, size = comm.Get_rank(), comm.Get_size()
    buffers = {m: np.zeros(m) for m in sizes}
    samples = []
    for i in range(size):
        for j in range(i + 1, size):
            comm.Barrier()
            if rank not in (i, j):
                continue
            for m, buffer in buffers.items():
                best = np.inf
                for _ in range(rounds + 1):  # the first round warms the path up
                    if rank == i:
                        sent = time.perf_counter()
                        comm.Send(buffer, dest=j, tag=_PING)
                        comm.Recv(buffer, source=j, tag=_PING)
                        best = min(best, time.perf_counter() - sent)
                    else:
                        comm.Recv(buffer, source=i, tag=_PING)
                        comm.Send(buffer, dest=i, tag=_PING)
                if rank == i:
                    samples.append([i, j, m, best / 2])
    op = OPERATORS[operator]
    elements = gamma_elements - gamma_elements % 4
    left, right = operand(op, 0, elements, 0), operand(op, 1, elements, 0)
    spans = []
    for _ in range(5):
        start = time.perf_counter()
        op.combine(left, right)
        spans.append(time.perf_counter() - start)
    gammas = comm.gather(min(spans) / elements, root=0)
    everything = comm.gather(samples, root=0)
    if rank != 0:
        return None
    return {"samples": [row for part in everything for row in part], "gamma": gammas}


def calibrated_platform(samples: Sequence[Sequence[float]], gamma: Sequence[float],
                        names: Sequence[str]) -> dict[str, Any]:
    """Fit Hockney's model per pair and build the platform dict.

    Parameters
    ----------
    samples : sequence of (i, j, size, one-way time)
        Ping-pong measurements between ranks i and j (both directions are taken to
        be the same, as a ping-pong cannot tell them apart).
    gamma : sequence of float
        Each rank's seconds per element of the operator (> 0).
    names : sequence of str
        Each rank's processor name.

    Returns
    -------
    dict
        ``{"processors": [{"name", "compute"}], "links": [{"from", "to", "cost",
        "latency"}, ...], "description"}`` with a link each way between every pair;
        the description names the largest residual of the fits.

    Raises
    ------
    hetcoll.core.errors.InputError
        As :func:`~hetcoll.sim.collectives.fit_hockney`: fewer than two sizes for a
        pair, or times that do not grow with the size.

    Examples
    --------
    >>> rows = [(0, 1, m, 2e-6 + 1e-9 * m) for m in (1, 1000, 10000)]
    >>> platform = calibrated_platform(rows, [1e-9, 2e-9], ["P0", "P1"])
    >>> [(link["from"], link["to"]) for link in platform["links"]]
    [('P0', 'P1'), ('P1', 'P0')]
    >>> round(platform["links"][0]["latency"] * 1e6, 6), platform["processors"][1]
    (2.0, {'name': 'P1', 'compute': 2e-09})
    """
    pairs: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for i, j, size, seconds in samples:
        for a, b in ((i, j), (j, i)):
            pairs.setdefault((names[int(a)], names[int(b)]), []).append(
                (float(size), float(seconds)))
    fits = fit_hockney(pairs)
    worst = max(fits, key=lambda f: f.residual)
    return {"description": f"hetcoll mpi calibrate: Hockney fit per pair, sizes in float64 "
                           f"elements, times in seconds; largest RMS residual "
                           f"{worst.residual:.3g} s ({worst.source}->{worst.target})",
            "processors": [{"name": n, "compute": float(g)}
                           for n, g in zip(names, gamma, strict=True)],
            "links": [{"from": f.source, "to": f.target, "cost": f.cost,
                       "latency": f.latency} for f in fits]}
