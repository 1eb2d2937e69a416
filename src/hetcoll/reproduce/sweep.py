"""Resumable parameter sweeps: one JSON file per finished cell.

A :class:`Sweep` is a named list of cells (plain coordinates) and a function
computing one cell.  :func:`run_sweep` computes the cells that have no file
yet, locally (joblib threads) or on a Dask cluster, and writes each one
atomically under ``DIR/cells/<sweep>/`` as soon as it finishes, so an
interrupted run resumes where it stopped.  Each cell draws its randomness from
a numpy ``SeedSequence`` made from the cell's own key, so its result does not
depend on ``jobs``, on the scheduler, nor on which cells ran before.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from hetcoll.core.errors import InputError

__all__ = ["Sweep", "cell_key", "cell_seed", "run_sweep"]


@dataclass(frozen=True)
class Sweep:
    """A named grid of cells computed by one function.

    Attributes
    ----------
    name : str
        Folder name under ``DIR/cells/`` (letters, digits, ``-`` and ``_``).
    cells : tuple of dict
        Each cell's coordinates: JSON-able numbers and strings.  They include
        every scale parameter (runs...), so a quick cell never stands for a full one.
    function : callable
        ``function(coordinates, seed_sequence) -> dict`` (JSON-able); a
        module-level function, so that Dask workers can unpickle it.
    """

    name: str
    cells: tuple[dict, ...]
    function: Callable[[dict, np.random.SeedSequence], dict]


def cell_key(coordinates: dict) -> str:
    """A file-name-safe key naming a cell by its coordinates.

    Examples
    --------
    >>> cell_key({"cv": 0.1, "runs": 1000})
    'cv=0.1_runs=1000'
    """
    return "_".join(f"{name}={coordinates[name]!r}".replace("'", "")
                    for name in sorted(coordinates))


def cell_seed(sweep: str, coordinates: dict) -> np.random.SeedSequence:
    """The cell's own SeedSequence: a hash of the sweep name and the cell key.

    Examples
    --------
    >>> cell_seed("f", {"cv": 1}).entropy == cell_seed("f", {"cv": 1}).entropy
    True
    """
    digest = hashlib.sha256(f"{sweep}/{cell_key(coordinates)}".encode()).digest()
    return np.random.SeedSequence(int.from_bytes(digest[:16], "little"))


def _compute(function: Callable, name: str, coordinates: dict) -> dict:
    return function(coordinates, cell_seed(name, coordinates))


def _write_atomic(path: Path, payload: dict) -> None:
    partial = path.with_name(path.name + ".part")
    partial.write_text(json.dumps(payload, indent=1, allow_nan=False))
    os.replace(partial, path)  # a killed run never leaves a truncated cell


def _read_cell(path: Path, coordinates: dict) -> dict | None:
    try:
        stored = json.loads(path.read_text())
    except (OSError, ValueError):
        return None  # unreadable: computed again
    if stored.get("coordinates") != coordinates:
        return None
    return stored["result"]


def _local(sweep: Sweep, todo: list[dict], jobs: int) -> Iterator[tuple[dict, dict]]:
    if jobs == 1:
        for coordinates in todo:
            yield coordinates, _compute(sweep.function, sweep.name, coordinates)
        return
    from joblib import Parallel, delayed

    # Threads: the compiled Monte Carlo loops release the GIL.
    parallel = Parallel(n_jobs=jobs, prefer="threads", return_as="generator_unordered")
    yield from parallel(delayed(lambda c: (c, _compute(sweep.function, sweep.name, c)))(c)
                        for c in todo)


def _dask(sweep: Sweep, todo: list[dict], address: Any) -> Iterator[tuple[dict, dict]]:
    try:
        from dask.distributed import Client, as_completed
    except ImportError as error:
        raise InputError("--scheduler needs dask.distributed: pip install 'dask[distributed]'"
                         ) from error
    try:
        client = Client(address, timeout=10)  # as_completed finds it as the default client
    except OSError as error:
        raise InputError(f"--scheduler {address}: cannot reach it ({error})") from error
    try:
        futures = {client.submit(_compute, sweep.function, sweep.name, c,
                                 key=f"{sweep.name}-{cell_key(c)}", pure=False): c
                   for c in todo}
        for future in as_completed(futures):
            yield futures[future], future.result()
    finally:
        client.close()


def run_sweep(sweep: Sweep, directory: Path, *, jobs: int = 1, scheduler: Any = None,
              progress: bool = False,
              on_cell: Callable[[dict, dict], None] | None = None) -> list[dict]:
    """Compute the cells of ``sweep`` not yet stored in ``directory``; return all results.

    Parameters
    ----------
    sweep : Sweep
    directory : Path
        Cells go to ``directory / "cells" / sweep.name / (key + ".json")``.
    jobs : int
        Threads computing cells at once (ignored with ``scheduler``).
    scheduler : str or None
        Address of a Dask scheduler (``tcp://host:8786``, or a ``LocalCluster``'s
        ``scheduler_address``): the cells run on its workers.
    progress : bool
        A tqdm bar for this sweep on stderr (shown on a terminal only).
    on_cell : callable, optional
        Called with (coordinates, result) after each newly computed cell is stored.

    Returns
    -------
    list of dict
        The cells' results in the order of ``sweep.cells``.

    Raises
    ------
    InputError
        If ``jobs`` < 1, or ``scheduler`` is given and dask.distributed is absent.

    Examples
    --------
    >>> import tempfile
    >>> def draw(coordinates, seed):
    ...     return {"x": float(np.random.default_rng(seed).random()) * coordinates["scale"]}
    >>> sweep = Sweep("demo", ({"scale": 1}, {"scale": 2}), draw)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     first = run_sweep(sweep, Path(folder))
    ...     again = run_sweep(sweep, Path(folder), jobs=2)  # read back, nothing recomputed
    >>> first == again
    True
    """
    from tqdm import tqdm

    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise InputError(f"--jobs must be a positive integer, got {jobs!r}")
    folder = Path(directory) / "cells" / sweep.name
    folder.mkdir(parents=True, exist_ok=True)
    results: dict[str, dict] = {}
    todo = []
    for coordinates in sweep.cells:
        key = cell_key(coordinates)
        stored = _read_cell(folder / f"{key}.json", coordinates)
        if stored is None:
            todo.append(coordinates)
        else:
            results[key] = stored
    bar = tqdm(total=len(sweep.cells), initial=len(results), desc=sweep.name, unit="cell",
               leave=False, disable=not (progress and sys.stderr.isatty()))
    stream = (_local(sweep, todo, jobs) if scheduler is None
              else _dask(sweep, todo, scheduler))
    try:
        for coordinates, result in stream:
            key = cell_key(coordinates)
            _write_atomic(folder / f"{key}.json",
                          {"sweep": sweep.name, "coordinates": coordinates, "result": result})
            results[key] = result
            bar.update()
            if on_cell is not None:
                on_cell(coordinates, result)
    finally:
        bar.close()
    return [results[cell_key(c)] for c in sweep.cells]
