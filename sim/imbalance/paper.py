"""Marendić et al.'s experimental settings (section 5.6, Table 1, Figs. 8-9) as data.

Shared by ``benchmarks/bench_imbalance.py`` and ``hetcoll reproduce``.

- Table 1: p = 128, n = 1,024,000 elements, α = 3.13 µs, β = 0.00263 µs per
  element (NOTES.md: their per-byte value fits per 8-byte element), a pairwise
  combine of 4 ms (γ = 4 ms / n), one slow process delayed 10-60 ms;
- Figs. 8-9: std::plus, γ = 1.79e-10 s per element.

References
----------
Marendić et al., section 5.6, Table 1, Figs. 8 and 9.
"""

from __future__ import annotations

from fractions import Fraction

__all__ = ["ALPHA", "BETA", "DELAYS_MS", "ELEMENTS", "GAMMA_PLUS", "GAMMA_TABLE1", "P",
           "TABLE1", "calibrated_beta"]

P = 128
ELEMENTS = 1_024_000
ALPHA = Fraction("3.13e-6")
BETA = Fraction("2.63e-9")
GAMMA_TABLE1 = Fraction(4, 1000) / ELEMENTS
GAMMA_PLUS = Fraction("1.79e-10")
DELAYS_MS = (10, 20, 30, 40, 60)
#: Table 1, by delay in ms: LocalReduce (s), Default (s), speed-up.
TABLE1 = {
    10: (0.0466108, 0.0502286, 1.08), 20: (0.0458913, 0.0599159, 1.32),
    30: (0.0466785, 0.0696198, 1.49), 40: (0.050597, 0.079698, 1.56),
    60: (0.0695058, 0.0996538, 1.43)}


def calibrated_beta() -> Fraction:
    """β such that one step α + nβ + 4 ms fits Table 1's Default column.

    The simulated binomial tree takes delay + 7 steps wherever the slow process is;
    their Default is delay + 7 s with s the mean of (Default - delay) / 7.

    Returns
    -------
    Fraction
        Seconds per element (about 1.65e-9).

    Examples
    --------
    >>> f"{float(calibrated_beta()):.3g}"
    '1.65e-09'
    """
    step = sum(Fraction(str(default)) - Fraction(delay, 1000)
               for delay, (_, default, _) in TABLE1.items()) / (7 * len(TABLE1))
    return (step - ALPHA - Fraction(4, 1000)) / ELEMENTS
