"""Benchmark of the scatterv/gatherv trees, and DRL's experiments in simulation.

Usage::

    python benchmarks/bench_trees.py            # everything (about two minutes)
    python benchmarks/bench_trees.py --quick    # smaller Monte Carlo, for a smoke test

1. Each builder at p = 4,096 (processes on one switch, random Hockney parameters).
2. The pairwise predictor on binomial trees of p = 2^10 ... 2^16: time per process.
3. The 39-node Monte Carlo: 10^5 noisy runs x 6 trees, pairwise then routed.
4. DRL's experiments: (a) 14 nodes on one switch (HCL), (b) 39 nodes of 5 clusters on
   2 sites (examples/trees/drl_two_sites.xml), ranks cluster by cluster or (b') one node
   of each cluster in turn; block sizes proportional to CPU speed;
   reductions of the model-based trees against their originals, both network models,
   beside the paper's figures.  Printed as Markdown tables.
"""

from __future__ import annotations

import argparse
import os
import time
from fractions import Fraction
from pathlib import Path

import numpy as np

from hetcoll.core.simgrid import read_simgrid
from hetcoll.sim.collectives import (
    ALGORITHMS,
    DRL_PAIRS,
    HockneyModel,
    Network,
    StarHockney,
    build_tree,
    hcl_cluster,
    interleaved_order,
    pairwise_prediction,
    sizes_by_speed,
    tree_gains,
    tree_monte_carlo,
)

ROOT = Path(__file__).resolve().parents[1]


def builders(p: int = 4096) -> None:
    rng = np.random.default_rng(1)
    names = [f"n{i}" for i in range(p)]
    model = StarHockney.build(names, [Fraction(int(x), 10**6) for x in rng.integers(20, 100, p)],
                              [Fraction(1, int(x)) for x in rng.integers(10**7, 10**8, p)])
    sizes = {n: Fraction(int(x)) for n, x in zip(names, rng.integers(0, 10**6, p), strict=True)}
    print(f"\n## Builders, p = {p}\n\n| tree | seconds |\n|---|---|")
    for name in ALGORITHMS:
        start = time.perf_counter()
        build_tree(name, "scatterv", names[0], sizes, model)
        print(f"| {name} | {time.perf_counter() - start:.3f} |")


def predictor_scaling() -> None:
    print("\n## Pairwise predictor (binomial tree, exact)\n\n| p | seconds | us per process |"
          "\n|---|---|---|")
    for k in (10, 12, 14, 16):
        p = 1 << k
        names = [f"n{i}" for i in range(p)]
        # One denominator for every cost: the sums stay small, and the timing shows the
        # algorithm rather than the growth of exact denominators.
        model = StarHockney.build(names, [Fraction(i % 7, 10**5) for i in range(p)],
                                  [Fraction(1 + i % 5, 10**8) for i in range(p)])
        sizes = {n: Fraction(i % 1000) for i, n in enumerate(names)}
        tree = build_tree("binomial", "scatterv", names[0], sizes)
        start = time.perf_counter()
        pairwise_prediction(tree, sizes, model)
        spent = time.perf_counter() - start
        print(f"| {p} | {spent:.3f} | {spent / p * 1e6:.1f} |")


def monte_carlo(runs: int) -> None:
    sg = read_simgrid(ROOT / "examples/trees/drl_two_sites.xml")
    sizes = sizes_by_speed(sg.platform, 39 * 10**6)
    model, root = HockneyModel(sg.platform), sg.platform.names[0]
    print(f"\n## Monte Carlo, 39 nodes, {runs} runs x 6 trees, gamma CV 0.3, scatterv\n")
    results = {}
    for label, network in (("pairwise", None), ("routed", Network.from_simgrid(sg))):
        start = time.perf_counter()
        results[label] = tree_monte_carlo("scatterv", root, sizes, model, runs=runs, cv=0.3,
                                          seed=1, network=network)
        print(f"- {label}: {time.perf_counter() - start:.1f} s (numba compilation included)")
    print("\n| tree | pairwise mean (s) | pairwise q90 | routed mean | routed q90 |"
          "\n|---|---|---|---|---|")
    for name in ALGORITHMS:
        a, b = results["pairwise"][name], results["routed"][name]
        print(f"| {name} | {a.mean:.4f} | {a.quantiles[0.9]:.4f} | {b.mean:.4f} | "
              f"{b.quantiles[0.9]:.4f} |")


def reductions(title: str, sg, totals, paper: str, exponent: int = 1,
               order=None) -> None:
    print(f"\n## {title}\n\n{paper}\n")
    header = " | ".join(f"{a} vs {b} {net}" for a, b in DRL_PAIRS for net in ("pairwise",
                                                                               "routed"))
    print(f"| kind | total bytes | {header} |\n|---|---|" + "---|" * (2 * len(DRL_PAIRS)))
    for kind in ("scatterv", "gatherv"):
        for total in totals:
            gains = tree_gains(kind, sg, total, exponent=exponent, order=order)
            cells = [f"{100 * float(gain):+.0f}%" for pair in DRL_PAIRS for gain in gains[pair]]
            print(f"| {kind} | {total:.0e} | " + " | ".join(cells) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10^4 Monte Carlo runs")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    builders()
    predictor_scaling()
    monte_carlo(10**4 if args.quick else 10**5)
    print("\nReductions: 1 - time(model-based tree) / time(original tree); positive = "
          "faster.  Root: the first host.")
    totals = [10**5, 10**6, 10**7, 10**8]
    reductions("(a) HCL, 14 nodes on one switch, blocks proportional to speed", hcl_cluster(),
               totals, "DRL: not significant with speed-proportional blocks.")
    reductions("(a') HCL, blocks proportional to speed^3 (larger max/min ratio)",
               hcl_cluster(), totals, "DRL: max-first binomial 25-35% faster than binomial "
               "for large messages; modified Traff about the original.", exponent=3)
    two_sites = read_simgrid(ROOT / "examples/trees/drl_two_sites.xml")
    reductions("(b) Grid'5000, 39 nodes, 5 clusters, 2 sites, ranks cluster by cluster",
               two_sites, totals, "DRL: up to 75% (binomial, min-first) and up to 60% "
               "(Traff).")
    reductions("(b') the same, ranks taking one node of each cluster in turn", two_sites,
               totals, "DRL: up to 75% (binomial, min-first) and up to 60% (Traff).",
               order=interleaved_order(two_sites.platform.names))


if __name__ == "__main__":
    main()
