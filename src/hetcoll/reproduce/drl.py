"""Claims of Dichev, Rychkov, Lastovetsky (DRL): irregular scatterv/gatherv.

Both experiments need the model-based scatterv/gatherv trees (package
``hetcoll.sim.collectives``, import guarded: ``not reproducible`` until merged),
under both network models (pairwise and routed).

References
----------
K. Dichev, V. Rychkov, A. Lastovetsky, Two algorithms of irregular
scatter/gather operations for heterogeneous platforms.
"""

from __future__ import annotations

from hetcoll.reproduce.claims import ClaimSpec, pending

SCATTERV = "hetcoll.sim.collectives"

CLAIMS = [
    ClaimSpec(f"DRL-{platform}-{tree}-{network}", "DRL", f"section 5, {where}",
              statement, value, pending(SCATTERV))
    for platform, where, trees in (
        ("hcl", "HCL cluster (14 nodes)", (
            ("binomial", "The max-first binomial tree is 25-35% faster than the rank-order "
             "binomial for large messages.", "25-35% faster"),
            ("traff", "Modified Träff performs about as the original.", "≈ original"))),
        ("grid5000", "Grid5000 (39 nodes, 2 sites)", (
            ("binomial", "The min-first binomial tree cuts scatterv/gatherv time by up to 75%.",
             "up to 75%"),
            ("traff", "Model-based Träff cuts scatterv/gatherv time by up to 60%.",
             "up to 60%"))))
    for tree, statement, value in trees
    for network in ("pairwise", "routed")
]
