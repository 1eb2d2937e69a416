"""Absorbing continuous-time Markov chains of dynamic reductions.

A generic toolkit (:class:`AbsorbingCTMC` and the ``absorption_*`` functions),
the chains of Tree-dyn and Non-Commut-Tree-dyn with exponential costs, and the
paper's closed forms (Benoit, Canon, Marchal, RR 8315, section 5).
"""

from hetcoll.markov.closed_forms import tree_dyn_closed_form, tree_dyn_closed_form_value
from hetcoll.markov.ctmc import (
    AbsorbingCTMC,
    AbsorptionResult,
    absorption_cdf,
    absorption_moments,
    absorption_pdf,
    absorption_quantiles,
    absorption_time,
    exact_absorption_moments,
)
from hetcoll.markov.reductions import noncommut_tree_dyn_chain, tree_dyn_chain

__all__ = [
    "AbsorbingCTMC",
    "AbsorptionResult",
    "absorption_cdf",
    "absorption_moments",
    "absorption_pdf",
    "absorption_quantiles",
    "absorption_time",
    "exact_absorption_moments",
    "noncommut_tree_dyn_chain",
    "tree_dyn_chain",
    "tree_dyn_closed_form",
    "tree_dyn_closed_form_value",
]
