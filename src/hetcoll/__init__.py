"""hetcoll: collective communications on heterogeneous platforms.

One installed namespace, in layers (each imports only the layers below it):

- :mod:`hetcoll.core` -- exact numbers, strict JSON, errors, results, Gantt charts;
- :mod:`hetcoll.lp` -- steady-state scatter/reduce LPs (Legrand, Marchal, Robert)
  and their periodic schedules;
- :mod:`hetcoll.markov` -- absorbing CTMCs and first-step analysis of dynamic
  reductions (Benoit, Canon, Marchal, section 5);
- :mod:`hetcoll.sim` -- the exact discrete-event simulator and Monte Carlo engine;
- :mod:`hetcoll.analytics` -- approximation bounds, tight instances, clairvoyant
  optimum and theorem verification;
- :mod:`hetcoll.report` -- the main job, a report on platform files;
- :mod:`hetcoll.cli` -- the ``hetcoll`` command line (parses, calls, prints).

The science packages are imported on first use (``hetcoll.lp``...), so that
``import hetcoll`` stays cheap.
"""

from __future__ import annotations

import importlib
from importlib.metadata import PackageNotFoundError, version

from hetcoll.core.errors import HetcollError, InputError, LimitError, SolverError

try:
    __version__ = version("hetcoll")
except PackageNotFoundError:  # pragma: no cover - running from an uninstalled tree
    __version__ = "0+unknown"

_SUBPACKAGES = ("analytics", "core", "lp", "markov", "report", "sim")
_NUMBERS = ("fraction_str", "to_fraction")

__all__ = [
    "HetcollError",
    "InputError",
    "LimitError",
    "SolverError",
    "__version__",
    "fraction_str",
    "to_fraction",
]


def __getattr__(name: str):
    # `import hetcoll; hetcoll.lp.read_platform(...)` works without importing numba,
    # highspy and sympy for every command.
    if name in _SUBPACKAGES:
        return importlib.import_module(f"hetcoll.{name}")
    if name in _NUMBERS:
        return getattr(importlib.import_module("hetcoll.core.numbers"), name)
    raise AttributeError(f"module 'hetcoll' has no attribute {name!r}")
