"""The program every rank runs under ``mpiexec``: ``python -m hetcoll.mpi.worker CONFIG``.

CONFIG is the JSON of :func:`hetcoll.mpi.launch.run_reduce` (or ``run_vcollective``,
``run_calibration``); rank 0 prints the report
as one JSON line on standard output.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from hetcoll.mpi.bench import run_benchmark
from hetcoll.mpi.calibrate import measure_calibration

__all__ = ["run_in_world"]


def run_in_world(config: dict[str, Any]) -> dict[str, Any] | None:
    """Run the benchmark on ``MPI.COMM_WORLD``; the report at rank 0, None elsewhere."""
    from mpi4py import MPI

    comm = MPI.COMM_WORLD
    if config.get("collective") == "calibrate":
        report = measure_calibration(comm, config["sizes"], config["rounds"],
                                     config["operator"])
    else:  # a batch of benchmark configurations, run one after another
        reports = [run_benchmark(comm, job) for job in config["jobs"]]
        report = {"jobs": reports} if comm.Get_rank() == 0 else None
    if report is not None:
        report |= {"np": comm.Get_size(),
                   "mpi_library": MPI.Get_library_version().strip().splitlines()[0]}
    return comm.bcast(report, root=0)


def main(argv: list[str]) -> int:
    report = run_in_world(json.loads(argv[0]))
    from mpi4py import MPI

    if MPI.COMM_WORLD.Get_rank() == 0:
        print(json.dumps(report), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
