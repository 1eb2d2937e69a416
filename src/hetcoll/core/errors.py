"""The exceptions hetcoll raises on purpose, and the exit status of each.

::

    HetcollError
    ├── InputError     bad user input: a platform, a cost, a parameter, a file (exit 2)
    │   └── LimitError a size or time guard refused the work; names the flag to raise it
    └── SolverError    a solver failed on valid input (exit 1)
"""

from __future__ import annotations

__all__ = ["HetcollError", "InputError", "LimitError", "SolverError"]


class HetcollError(Exception):
    """Base of every error hetcoll raises on purpose.

    The message is a single line that names the culprit.  ``exit_status`` is what
    the ``hetcoll`` command line returns after printing it on stderr.
    """

    exit_status = 1


class InputError(HetcollError, ValueError):
    """Invalid user input: a platform, a cost, a parameter or a file.

    The message names the culprit (which link, which processor, which field).  The
    command line exits with status 2; library callers can catch it as ``ValueError``.
    """

    exit_status = 2


class LimitError(InputError):
    """A resource guard refused the work before it started.

    The message names the limit and the flag (or keyword) that raises it, e.g.
    ``"the chain has 263167 states, over --max-states 100000"``.
    """


class SolverError(HetcollError, RuntimeError):
    """A solver failed on valid input (it crashed, or gave no usable answer)."""
