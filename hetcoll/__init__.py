"""hetcoll: collective communications on heterogeneous platforms.

The science lives in four packages with one job each:

- :mod:`lp` -- steady-state scatter/reduce LPs (Legrand, Marchal, Robert) and
  their periodic schedules;
- :mod:`markov` -- absorbing CTMCs and first-step analysis of dynamic
  reductions (Benoit, Canon, Marchal, section 5);
- :mod:`sim` -- the exact discrete-event simulator and Monte Carlo engine;
- :mod:`analytics` -- approximation bounds, tight instances, clairvoyant
  optimum and theorem verification (may import the three others).

This package holds what they share (exact numbers, input errors, Gantt
charts) and the ``hetcoll`` command line.
"""

from hetcoll.errors import InputError
from hetcoll.exact import fraction_str, to_fraction

__version__ = "0.1.0"
__all__ = ["InputError", "fraction_str", "to_fraction", "__version__"]
