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

from hetcoll.core.errors import HetcollError, InputError, LimitError, SolverError
from hetcoll.core.numbers import fraction_str, positive_fraction, to_fraction
from hetcoll.core.platform import Link, Platform, Processor, read_platform, write_platform

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
