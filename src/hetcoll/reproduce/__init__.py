"""Reproduce the four papers: every quantitative claim as a record with a verdict.

:func:`reproduce` evaluates the claim definitions (one module per paper:
:mod:`~hetcoll.reproduce.rrhp` for RR 8315 and its HeteroPar version,
:mod:`~hetcoll.reproduce.lmr`, :mod:`~hetcoll.reproduce.mlh`,
:mod:`~hetcoll.reproduce.drl`), runs their Monte Carlo sweeps resumably (one
JSON file per cell, locally or on a Dask cluster) and writes ``report.md``,
``report.html``, ``claims.json`` and Figures 4 to 6 (PNG and PDF).

Adding a paper's claims is adding one module with a ``CLAIMS`` list of
:class:`ClaimSpec` and naming it in :data:`PAPER_MODULES`.

References
----------
The four papers of ``shared/papers`` (see each claim module).
"""

from hetcoll.reproduce.claims import (
    PAPER_MODULES,
    VERDICTS,
    Claim,
    ClaimSpec,
    Context,
    Outcome,
    all_specs,
    erratum,
    pending,
    select_specs,
)
from hetcoll.reproduce.run import OWNED, ReproductionResult, reproduce
from hetcoll.reproduce.sweep import Sweep, cell_key, cell_seed, run_sweep

__all__ = [
    "OWNED",
    "PAPER_MODULES",
    "VERDICTS",
    "Claim",
    "ClaimSpec",
    "Context",
    "Outcome",
    "ReproductionResult",
    "Sweep",
    "all_specs",
    "erratum",
    "cell_key",
    "cell_seed",
    "pending",
    "reproduce",
    "run_sweep",
    "select_specs",
]
