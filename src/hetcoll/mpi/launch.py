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
from fractions import Fraction
from pathlib import Path
from typing import Any

from hetcoll.core.errors import InputError, LimitError, SolverError
from hetcoll.core.platform import Platform
from hetcoll.core.results import Result
from hetcoll.mpi.algorithms import ALGORITHMS, UNORDERED
from hetcoll.mpi.calibrate import DEFAULT_SIZES, calibrated_platform
from hetcoll.mpi.operators import OPERATORS
from hetcoll.sim.collectives import (
    ALGORITHMS as VCOLLECTIVE_ALGORITHMS,
)
from hetcoll.sim.collectives import (
    KINDS,
    CommTree,
    HockneyModel,
    StarHockney,
    build_tree,
)

__all__ = ["INSTALL_HINT", "MAX_RANKS", "VCOLLECTIVE_ALGORITHMS", "MpiRunResult",
           "build_rank_tree", "mpi_available", "output_rank", "rank_names", "rank_tree",
           "run_calibration", "run_reduce", "run_vcollective", "uniform_model"]

INSTALL_HINT = ("the MPI layer needs mpi4py and an MPI library: pip install 'hetcoll[mpi]' "
                "(mpi4py and the mpich wheel, which provides mpiexec)")

#: Guards: ranks started on this machine, and the total size of the vectors.
MAX_RANKS = 64
MAX_TOTAL_BYTES = 4 * 2**30

#: The uniform model's latency per endpoint and cost per element (seconds).
UNIFORM_LATENCY = Fraction(1, 100_000)
UNIFORM_COST = Fraction(1, 1_000_000_000)

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


def output_rank() -> bool:
    """Whether this process reports: always, unless it is a rank other than 0 of an
    MPI world started outside hetcoll (then rank 0 alone prints and writes files)."""
    if not _in_mpi_world():
        return True
    from mpi4py import MPI

    return MPI.COMM_WORLD.Get_rank() == 0


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

    See Also
    --------
    run_vcollective : scatterv and gatherv.

    Examples
    --------
    >>> result = run_reduce(3, ["binomial", "tree-dyn"], elements=8)  # doctest: +SKIP
    >>> result.success, result.algorithms["tree-dyn"]["correct"]  # doctest: +SKIP
    (True, True)
    """
    _check_common(n_ranks, max_ranks, root)
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
    config = {"collective": "reduce", "algorithms": list(algorithms),
              "operator": operator, "elements": elements, "root": root, "seed": seed,
              "delays": _delays(delays, n_ranks)}
    return _run(n_ranks, [config], timeout)[0]


def run_vcollective(kind: str, n_ranks: int, algorithms: Sequence[str], *,
                    blocks: Sequence[int] | None = None, elements: int = 1024,
                    root: int = 0, delays: Sequence[Sequence[float]] = ((),),
                    seed: int = 0, platform: Platform | None = None,
                    timeout: float = 600.0, max_ranks: int = MAX_RANKS
                    ) -> MpiRunResult | dict[str, MpiRunResult]:
    """Run scatterv or gatherv over MPI, following DRL trees, and check every block.

    Rank r is the process named ``P<r>`` (:func:`rank_names`) for the tree builders
    of :mod:`hetcoll.sim.collectives`; the model-based builders use ``platform``'s
    links (:class:`~hetcoll.sim.collectives.HockneyModel`; a platform written by
    ``hetcoll mpi calibrate`` has these names), or :func:`uniform_model`.

    Parameters
    ----------
    kind : {"scatterv", "gatherv", "scatterv,gatherv"}
        The last runs both under one ``mpiexec`` (one start-up instead of two).
    n_ranks : int
    algorithms : sequence of str
        Tree builders (:data:`VCOLLECTIVE_ALGORITHMS`), and ``mpi``:
        ``MPI_Scatterv``/``MPI_Gatherv``.
    blocks : sequence of int, optional
        Each rank's block, in float64 elements; by default ``elements`` each.
    elements : int, default 1024
    root, delays, seed, timeout, max_ranks
        As in :func:`run_reduce`.
    platform : Platform, optional
        The point-to-point model of the model-based trees.

    Returns
    -------
    MpiRunResult, or dict of kind to MpiRunResult for ``"scatterv,gatherv"``
        ``algorithms[name]`` also holds the tree (``"parent"``, ``"children"``, by
        rank) for the tree algorithms.

    Raises
    ------
    InputError, LimitError, SolverError
        As :func:`run_reduce`; also a block list of the wrong length or with a
        negative entry, or a platform without the processes ``P0``...

    Examples
    --------
    >>> run_vcollective("scatterv", 4, ["binomial", "mpi"]).success  # doctest: +SKIP
    True
    """
    if kind not in (*KINDS, "scatterv,gatherv"):
        raise InputError(f"unknown collective {kind!r} (reduce, scatterv or gatherv)")
    _check_common(n_ranks, max_ranks, root)
    if blocks is None:
        if isinstance(elements, bool) or not isinstance(elements, int) or elements < 0:
            raise InputError(f"--elements must be a whole number >= 0, got {elements!r}")
        blocks = [elements] * n_ranks
    blocks = list(blocks)
    if len(blocks) != n_ranks:
        raise InputError(f"--blocks has {len(blocks)} entries for {n_ranks} ranks")
    for rank, block in enumerate(blocks):
        if isinstance(block, bool) or not isinstance(block, int) or block < 0:
            raise InputError(f"--blocks: the block of rank {rank} must be a whole number "
                             f">= 0, got {block!r}")
    if sum(blocks) * 8 * 3 > MAX_TOTAL_BYTES:
        raise LimitError(f"--blocks total {sum(blocks)} elements needs over "
                         f"{MAX_TOTAL_BYTES // 2**30} GiB")
    for name in algorithms:
        if name != "mpi" and name not in VCOLLECTIVE_ALGORITHMS:
            raise InputError(f"unknown algorithm {name!r} (choose from "
                             f"{', '.join([*VCOLLECTIVE_ALGORITHMS, 'mpi'])}, or all)")
    kinds = [kind] if kind in KINDS else kind.split(",")
    trees = {k: {name: rank_tree(build_rank_tree(name, k, root, blocks, platform))
                 for name in algorithms if name != "mpi"} for k in kinds}
    jobs = [{"collective": k, "algorithms": list(algorithms), "blocks": blocks,
             "trees": trees[k], "root": root, "seed": seed,
             "delays": _delays(delays, n_ranks)} for k in kinds]
    results = _run(n_ranks, jobs, timeout)
    for k, result in zip(kinds, results, strict=True):
        for name, tree in trees[k].items():
            result.algorithms[name] |= tree
    return results[0] if kind in KINDS else dict(zip(kinds, results, strict=True))


def run_calibration(n_ranks: int, *, sizes: Sequence[int] = DEFAULT_SIZES,
                    rounds: int = 10, operator: str = "sum", timeout: float = 600.0,
                    max_ranks: int = MAX_RANKS) -> dict[str, Any]:
    """Measure every pair's ping-pong times and the operator's gamma; fit the platform.

    Parameters
    ----------
    n_ranks : int
        At least 2.
    sizes : sequence of int
        Message sizes in float64 elements (two distinct ones at least).
    rounds : int
        Ping-pongs per pair and size; the fastest is kept.
    operator : {"sum", "matmul"}
    timeout, max_ranks
        As in :func:`run_reduce`.

    Returns
    -------
    dict
        ``{"platform": platform dict (:func:`~hetcoll.mpi.calibrate.calibrated_platform`),
        "samples": [[i, j, size, seconds], ...], "gamma": [...], "np", "mpi_library"}``.

    Raises
    ------
    InputError, LimitError, SolverError
        As :func:`run_reduce`; fewer than two ranks or two sizes.

    Examples
    --------
    >>> run_calibration(2, sizes=[1, 1024])["platform"]["links"][0]["from"]  # doctest: +SKIP
    'P0'
    """
    _check_common(n_ranks, max_ranks, 0)
    if n_ranks < 2:
        raise InputError("--np: calibration needs two ranks at least")
    sizes = sorted(set(sizes))
    if len(sizes) < 2 or sizes[0] < 1:
        raise InputError("--sizes-range: need two distinct sizes >= 1 element at least")
    if sizes[-1] * 8 > MAX_TOTAL_BYTES // 4:
        raise LimitError(f"--sizes-range: {sizes[-1]} elements is over the limit")
    if operator not in OPERATORS:
        raise InputError(f"--op: unknown operator {operator!r} (sum or matmul)")
    config = {"collective": "calibrate", "sizes": sizes, "rounds": rounds,
              "operator": operator}
    report = _world_or_launch(n_ranks, config, timeout)
    platform = calibrated_platform(report["samples"], report["gamma"],
                                   rank_names(report["np"]))
    return report | {"platform": platform}


def rank_names(n_ranks: int) -> list[str]:
    """The process names of ranks 0..n-1 in trees and platforms.

    >>> rank_names(3)
    ['P0', 'P1', 'P2']
    """
    return [f"P{rank}" for rank in range(n_ranks)]


def uniform_model(n_ranks: int) -> StarHockney:
    """The model of the model-based trees without a platform: every rank alike.

    20 microseconds per message and 1 ns per element (8 GB/s), rough figures of
    shared memory; with identical links the mapping follows the block sizes only.

    >>> uniform_model(2).time("P0", "P1", Fraction(1000))
    Fraction(21, 1000000)
    """
    return StarHockney.build(rank_names(n_ranks), [UNIFORM_LATENCY] * n_ranks,
                             [UNIFORM_COST] * n_ranks)


def build_rank_tree(algorithm: str, kind: str, root: int, blocks: Sequence[int],
                    platform: Platform | None = None) -> CommTree:
    """The tree of ``algorithm`` on ranks named ``P0``..., block sizes ``blocks``.

    >>> build_rank_tree("binomial", "scatterv", 0, [1, 1, 1, 1]).children["P0"]
    ('P2', 'P1')
    """
    names = rank_names(len(blocks))
    if platform is not None:
        missing = [n for n in names if n not in platform.index]
        if missing:
            raise InputError(f"the platform has no process {missing[0]} (ranks are named "
                             f"P0..P{len(names) - 1}, as hetcoll mpi calibrate writes)")
        model: Any = HockneyModel(platform)
    else:
        model = uniform_model(len(blocks))
    sizes = {n: Fraction(b) for n, b in zip(names, blocks, strict=True)}
    return build_tree(algorithm, kind, names[root], sizes, model)


def rank_tree(tree: CommTree) -> dict[str, list]:
    """A tree on names ``P<r>`` as rank lists: ``{"parent": [...], "children": [[...]]}``.

    >>> rank_tree(build_rank_tree("flat", "gatherv", 1, [1, 1, 1]))
    {'parent': [1, None, 1], 'children': [[], [0, 2], []]}
    """
    def rank(name: str) -> int:
        return int(name[1:])

    names = sorted(tree.parent, key=rank)
    return {"parent": [None if tree.parent[n] is None else rank(tree.parent[n])
                       for n in names],
            "children": [[rank(c) for c in tree.children[n]] for n in names]}


def _check_common(n_ranks: int, max_ranks: int, root: int) -> None:
    if not mpi_available():
        raise InputError(INSTALL_HINT)
    if isinstance(n_ranks, bool) or not isinstance(n_ranks, int) or n_ranks < 1:
        raise InputError(f"--np must be a positive whole number, got {n_ranks!r}")
    if n_ranks > max_ranks:
        raise LimitError(f"--np {n_ranks} is over the limit of {max_ranks} ranks on one "
                         f"machine (raise it with --max-ranks)")
    if not 0 <= root < n_ranks:
        raise InputError(f"--root {root} is not a rank of 0..{n_ranks - 1}")


def _delays(delays: Sequence[Sequence[float]], n_ranks: int) -> list[list[float]]:
    runs = [list(d) if len(d) else [0.0] * n_ranks for d in delays]
    for index, run in enumerate(runs):
        if len(run) != n_ranks:
            raise InputError(f"delays of repeat {index} have {len(run)} entries for "
                             f"{n_ranks} ranks")
        if any(not 0 <= d <= 3600 for d in run):
            raise InputError(f"delays of repeat {index} must lie in [0, 3600] seconds")
    return runs


def _run(n_ranks: int, jobs: list[dict[str, Any]], timeout: float) -> list[MpiRunResult]:
    """Run one or more benchmark configurations in one MPI world."""
    batch = _world_or_launch(n_ranks, {"jobs": jobs}, timeout)
    results = []
    for report in batch["jobs"]:
        wrong = [name for name, row in report["algorithms"].items() if not row["correct"]]
        message = ("every result is correct" if not wrong else
                   f"WRONG result from {', '.join(wrong)}")
        results.append(MpiRunResult(
            status=1 if wrong else 0, message=message, np=batch["np"],
            mpi_library=batch["mpi_library"], algorithms=report["algorithms"],
            clock_offsets=report["clock_offsets"]))
    return results


def _world_or_launch(n_ranks: int, config: dict[str, Any], timeout: float) -> dict[str, Any]:
    if _in_mpi_world():
        from hetcoll.mpi.worker import run_in_world

        return run_in_world(config)
    return _launch(n_ranks, config, timeout)


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
