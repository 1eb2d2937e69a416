"""Claims of Legrand, Marchal, Robert (LMR): the steady-state LPs.

The slides' toy platforms were figures, lost in extraction; what can be
checked is the hand-checked two-processor case and the two counter-examples
of NOTES.md section 1 (the platforms are those of ``examples/``, inlined so
that an installed hetcoll needs no checkout).

References
----------
A. Legrand, L. Marchal, Y. Robert, Optimizing the steady-state throughput of
scatter and reduce operations on heterogeneous platforms, JPDC 65(12), 2005
(slides, 2004).
"""

from __future__ import annotations

from fractions import Fraction

from hetcoll import lp
from hetcoll.reproduce.claims import ClaimSpec, Context, Outcome, erratum

TWO_PROCESSOR = {
    "processors": [{"name": "P0", "compute": 3}, {"name": "P1", "compute": "3/2"}],
    "links": [{"from": "P0", "to": "P1", "cost": 1, "bidirectional": True}],
}
SCATTER_COUNTEREXAMPLE = {
    "processors": [{"name": p, "compute": 1} for p in ("S", "P1", "P2", "P3")],
    "links": [{"from": "S", "to": "P1", "cost": 1}, {"from": "S", "to": "P2", "cost": 1},
              {"from": "P1", "to": "P3", "cost": "1/100", "bidirectional": True}],
}
REDUCE_COUNTEREXAMPLE = {
    "processors": [{"name": "P0", "compute": "1/1000"}, {"name": "P1", "compute": 10},
                   {"name": "P2", "compute": 10}],
    "links": [{"from": "P1", "to": "P0", "cost": 1}, {"from": "P2", "to": "P0", "cost": 1},
              {"from": "P0", "to": "P1", "cost": "1/100"}],
}


def _two_processor(ctx: Context) -> Outcome:
    platform = lp.platform_from_dict(TWO_PROCESSOR)
    result = lp.steady_state_reduce_lp(platform, ["P0", "P1"], "P0")
    schedule = lp.schedule_from_lp(result)
    weights = sorted(tree.weight for tree in schedule.components)
    ok = (result.throughput_exact == 1 and result.certified and schedule.period == 3
          and weights == [Fraction(1, 3), Fraction(2, 3)])
    return Outcome(f"TP = {result.throughput_exact} (certified {result.certified}), period "
                   f"{schedule.period}, tree weights {[str(w) for w in weights]}",
                   "reproduced" if ok else "differs",
                   "exact LP optimum, tree decomposition and period equal the hand solution",
                   {"throughput_exact": str(result.throughput_exact),
                    "period": str(schedule.period), "tree_weights": [str(w) for w in weights],
                    "files": ["examples/two_processor.json"]})


def _counterexample(kind: str):
    def evaluate(ctx: Context) -> Outcome:
        if kind == "scatter":
            platform = lp.platform_from_dict(SCATTER_COUNTEREXAMPLE)
            result = lp.steady_state_scatter_lp(platform, "S", ["P1", "P2"])
        else:
            platform = lp.platform_from_dict(REDUCE_COUNTEREXAMPLE)
            result = lp.steady_state_reduce_lp(platform, ["P1", "P2"], "P0")
        tp = result.throughput_exact
        return Outcome(f"TP = {tp} (net inflow at the target, certified {result.certified})",
                       "refuted" if tp == Fraction(1, 2) else "differs",
                       "the literal slide LP gives 1 by cycling a message through a cheap link; "
                       "the true optimum is 1/2 (tests/test_lp.py solves the literal LP with "
                       "pulp)", {"throughput_exact": str(tp), "literal_lp": "1",
                                 "files": [f"examples/{kind}_counterexample.json"]})
    return evaluate


def _toys(ctx: Context) -> Outcome:
    return Outcome("none", "not reproducible",
                   "the slides' toy platforms and their weights were figures, lost in "
                   "extraction (NOTES.md): no number to compare", {})


CLAIMS = [
    ClaimSpec("LMR-two-processor", "LMR", "SSRP (NOTES.md section 1, hand-checked)",
              "Two processors (links 1, w(P0) = 3, w(P1) = 3/2): TP = 1 with two trees of "
              "weights 1/3 and 2/3, period 3.", "TP = 1, weights 1/3 and 2/3, period 3",
              _two_processor),
    ClaimSpec("LMR-scatter-literal", "LMR", "SSSP LP",
              "The slide's SSSP LP, read literally (gross inflow at the target), gives the "
              "optimal throughput.", "TP = 1 on the counter-example",
              _counterexample("scatter")),
    ClaimSpec("LMR-reduce-literal", "LMR", "SSRP LP",
              "The slide's SSRP LP, read literally (v[0,N] may leave the target), gives the "
              "optimal throughput.", "TP = 1 on the counter-example",
              _counterexample("reduce")),
    ClaimSpec("LMR-toy-examples", "LMR", "toy examples (slides)",
              "The slides' toy platforms reach the throughputs shown.", "lost in extraction",
              _toys),
    ClaimSpec("LMR-tp-line", "LMR", "SSRP, definition of the throughput",
              "TP sums v[0,m] over 0 <= l < N-1.", "v[0,m], 0 <= l < N-1",
              erratum("TP = received + computed v[0,N], for every 0 <= l < N",
                      "typos: v[0,m] stands for v[0,N], the range of l is off by one, and "
                      "v_0 ⊕ v_2 ⊕ ... stands for v_0 ⊕ v_1 ⊕ ... (lp.steady_state_reduce_lp's "
                      "docstring)")),
]
