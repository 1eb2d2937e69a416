"""Launch the MPI benchmark: under ``mpiexec`` started here, or in the current MPI world.

:func:`run_reduce` starts ``mpiexec -n NP python -m hetcoll.mpi.worker`` with the
configuration as JSON, and reads rank 0's report from its standard output.  Run under
an existing ``mpiexec`` (the environment says so), it runs in that world instead, so
that the same call works on a cluster.  ``mpiexec`` is looked for first beside the
running Python: the ``mpich`` wheel installs it in the virtual environment's ``bin/``.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hetcoll.core.errors import InputError, LimitError, SolverError
from hetcoll.core.results import Result
from hetcoll.mpi.algorithms import ALGORITHMS, UNORDERED
from hetcoll.mpi.operators import OPERATORS

__all__ = ["INSTALL_HINT", "MAX_RANKS", "MpiRunResult", "mpi_available", "run_reduce"]

INSTALL_HINT = ("the MPI layer needs mpi4py and an MPI library: pip install 'hetcoll[mpi]' "
                "(mpi4py and the mpich wheel, which provides mpiexec)")

#: Guards: ranks started on this machine, and the total size of the vectors.
MAX_RANKS = 64
MAX_TOTAL_BYTES = 4 * 2**30

_WORLD_VARIABLES = ("PMI_RANK", "PMI_SIZE", "OMPI_COMM_WORLD_SIZE", "PMIX_RANK")


@dataclass
class MpiRunResult(Result):
    """What :func:`run_reduce` measured.

    Attributes
    ----------
    status : int
        0 when every algorithm gave the correct value in every run; 1 otherwise.
    message : str
    np : int
        Number of ranks.
    mpi_library : str
        The MPI library's version string (first line).
    algorithms : dict
        Name -> ``{"correct", "T1", ..., "T5", "T1_root", "repeats": [...]}`` (seconds,
        means over the repeats; see :mod:`hetcoll.mpi.bench`).
    clock_offsets : list of float
        Each rank's clock minus rank 0's, as estimated.
    """

    status: int
    message: str
    np: int
    mpi_library: str
    algorithms: dict[str, Any] = field(default_factory=dict)
    clock_offsets: list[float] = field(default_factory=list)


def mpi_available() -> bool:
    """Whether mpi4py is installed (the ``mpi`` extra)."""
    return importlib.util.find_spec("mpi4py") is not None


def _mpiexec() -> str:
    beside = Path(sys.executable).parent / "mpiexec"
    found = str(beside) if beside.exists() else shutil.which("mpiexec")
    if found is None:
        raise InputError(f"no mpiexec found beside {sys.executable} or on PATH: "
                         f"{INSTALL_HINT}")
    return found


def _in_mpi_world() -> bool:
    return any(variable in os.environ for variable in _WORLD_VARIABLES)


def run_reduce(n_ranks: int, algorithms: Sequence[str], *, elements: int = 1024,
               operator: str = "sum", root: int = 0,
               delays: Sequence[Sequence[float]] = ((),), seed: int = 0,
               timeout: float = 600.0, max_ranks: int = MAX_RANKS) -> MpiRunResult:
    """Run reduce algorithms over MPI under MLH's protocol and check every result.

    Parameters
    ----------
    n_ranks : int
        Number of MPI ranks (``mpiexec -n``); ignored inside an existing MPI world,
        whose size is used.
    algorithms : sequence of str
        Names from :data:`hetcoll.mpi.algorithms.ALGORITHMS`.
    elements : int, default 1024
        Length of each rank's vector.
    operator : {"sum", "matmul"}
        See :mod:`hetcoll.mpi.operators`.
    root : int, default 0
    delays : sequence of sequences of float
        One entry per timed repeat: each rank's delay in seconds (an empty entry: no
        delay).  One warm-up run without delays comes first.
    seed : int
        Seeds the data.
    timeout : float
        Seconds before ``mpiexec`` is stopped (LimitError).
    max_ranks : int
        Guard on ``n_ranks``.

    Returns
    -------
    MpiRunResult

    Raises
    ------
    InputError
        Bad parameters, naming the field; mpi4py or mpiexec missing (with how to
        install them).
    LimitError
        Too many ranks or too much memory, or the run took longer than ``timeout``.
    SolverError
        If ``mpiexec`` failed.

    Examples
    --------
    >>> result = run_reduce(3, ["binomial", "tree-dyn"], elements=8)  # doctest: +SKIP
    >>> result.success, result.algorithms["tree-dyn"]["correct"]  # doctest: +SKIP
    (True, True)
    """
    if not mpi_available():
        raise InputError(INSTALL_HINT)
    if isinstance(n_ranks, bool) or not isinstance(n_ranks, int) or n_ranks < 1:
        raise InputError(f"--np must be a positive whole number, got {n_ranks!r}")
    if n_ranks > max_ranks:
        raise LimitError(f"--np {n_ranks} is over the limit of {max_ranks} ranks on one "
                         f"machine (raise it with --max-ranks)")
    op = OPERATORS.get(operator)
    if op is None:
        raise InputError(f"--op: unknown operator {operator!r} (sum or matmul)")
    if isinstance(elements, bool) or not isinstance(elements, int) or elements < 1:
        raise InputError(f"--elements must be a positive whole number, got {elements!r}")
    op.check_elements(elements)
    if elements * 8 * n_ranks * 3 > MAX_TOTAL_BYTES:
        raise LimitError(f"--elements {elements} on {n_ranks} ranks needs over "
                         f"{MAX_TOTAL_BYTES // 2**30} GiB")
    for name in algorithms:
        if name not in ALGORITHMS:
            raise InputError(f"unknown algorithm {name!r} (choose from "
                             f"{', '.join(ALGORITHMS)}, or all)")
        if name in UNORDERED and not op.commutative:
            raise InputError(f"{name} needs a commutative operator, not {operator}")
    if not 0 <= root < n_ranks:
        raise InputError(f"--root {root} is not a rank of 0..{n_ranks - 1}")
    runs = [list(d) if len(d) else [0.0] * n_ranks for d in delays]
    for index, run in enumerate(runs):
        if len(run) != n_ranks:
            raise InputError(f"delays of repeat {index} have {len(run)} entries for "
                             f"{n_ranks} ranks")
        if any(not 0 <= d <= 3600 for d in run):
            raise InputError(f"delays of repeat {index} must lie in [0, 3600] seconds")
    config = {"algorithms": list(algorithms), "operator": operator, "elements": elements,
              "root": root, "seed": seed, "delays": runs}
    if _in_mpi_world():
        from hetcoll.mpi.worker import run_in_world

        report = run_in_world(config)
    else:
        report = _launch(n_ranks, config, timeout)
    wrong = [name for name, row in report["algorithms"].items() if not row["correct"]]
    message = ("every result equals the sequential reduction" if not wrong else
               f"WRONG result from {', '.join(wrong)}")
    return MpiRunResult(status=1 if wrong else 0, message=message, np=report["np"],
                        mpi_library=report["mpi_library"], algorithms=report["algorithms"],
                        clock_offsets=report["clock_offsets"])


def _launch(n_ranks: int, config: dict[str, Any], timeout: float) -> dict[str, Any]:
    command = [_mpiexec(), "-n", str(n_ranks), sys.executable, "-m", "hetcoll.mpi.worker",
               json.dumps(config)]
    try:
        run = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise LimitError(f"the MPI run took over {timeout:g} s (raise it with "
                         f"--timeout)") from None
    lines = [line for line in run.stdout.splitlines() if line.startswith("{")]
    if run.returncode != 0 or not lines:
        last = (run.stderr.strip().splitlines() or ["no output"])[-1]
        raise SolverError(f"mpiexec -n {n_ranks} failed (exit {run.returncode}): {last}")
    return json.loads(lines[-1])
