"""What every hetcoll package shares: exact numbers, strict JSON, errors, results.

One job per module:

- :mod:`hetcoll.core.errors` -- ``HetcollError`` and its subclasses, which the
  command line maps to exit codes;
- :mod:`hetcoll.core.numbers` -- the one parser of every number a user types;
- :mod:`hetcoll.core.jsonio` -- the one strict JSON loader of every file reader;
- :mod:`hetcoll.core.platform` -- the platform graph (processors, links) and its files;
- :mod:`hetcoll.core.results` -- the result base class and ``to_jsonable``;
- :mod:`hetcoll.core.gantt` -- Gantt charts of schedules and simulation traces.
"""

from __future__ import annotations

import importlib

from hetcoll.core.errors import HetcollError, InputError, LimitError, SolverError

# Where each lazily exported name lives: importing numpy and networkx on `import
# hetcoll.core` would put half a second before the command line can even parse its
# arguments (or honour Ctrl-C).
_LAZY = {
    "fraction_str": "numbers", "positive_fraction": "numbers", "to_fraction": "numbers",
    "Link": "platform", "Platform": "platform", "Processor": "platform",
    "read_platform": "platform", "write_platform": "platform",
}

__all__ = [
    "HetcollError",
    "InputError",
    "LimitError",
    "Link",
    "Platform",
    "Processor",
    "SolverError",
    "fraction_str",
    "positive_fraction",
    "read_platform",
    "to_fraction",
    "write_platform",
]


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(importlib.import_module(f"hetcoll.core.{_LAZY[name]}"), name)
    raise AttributeError(f"module 'hetcoll.core' has no attribute {name!r}")
