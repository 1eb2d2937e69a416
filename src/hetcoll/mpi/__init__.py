"""Collectives over real MPI: reduce algorithms, MLH's benchmark protocol, the launcher.

Optional: needs the ``mpi`` extra (mpi4py and an MPI library; ``pip install
'hetcoll[mpi]'`` brings the ``mpich`` wheel, which provides ``mpiexec``).  Importing
this package does not import mpi4py; running does.

- :func:`run_reduce` -- run algorithms under ``mpiexec`` (or the current MPI world),
  check every result against the sequential reduction, and report MLH's T1-T5;
- :mod:`hetcoll.mpi.algorithms` -- linear, binomial, Rabenseifner, Binomial-stat,
  Fibonacci-stat, Tree-dyn, Non-Commut-Tree-dyn and LocalReduce on numpy buffers, and
  ``MPI_Reduce`` (``mpi``);
- :func:`run_vcollective` -- scatterv and gatherv following the DRL trees
  (:mod:`hetcoll.mpi.vcollectives`), and ``MPI_Scatterv``/``MPI_Gatherv``;
- :func:`run_calibration` and :mod:`hetcoll.mpi.compare` -- Hockney calibration and
  predictions against measurements;
- :mod:`hetcoll.mpi.operators` -- a commutative sum and a non-commutative product of
  2 x 2 matrices.
"""

from hetcoll.mpi.algorithms import ALGORITHMS
from hetcoll.mpi.launch import (
    INSTALL_HINT,
    MpiRunResult,
    mpi_available,
    run_calibration,
    run_reduce,
    run_vcollective,
)
from hetcoll.mpi.operators import OPERATORS

__all__ = ["ALGORITHMS", "INSTALL_HINT", "OPERATORS", "MpiRunResult", "mpi_available",
           "run_calibration", "run_reduce", "run_vcollective"]
