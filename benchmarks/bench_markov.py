"""Benchmark of the Markov analysis: time and number of states against n.

Families:

- Tree-dyn with computation cost (lambda_c = lambda_d = 1), float moments
  (mean and variance) up to n = 4096 and exact moments up to n = 256;
- Tree-dyn without computation cost (the paper's case), exact;
- Non-Commut-Tree-dyn with and without computation cost, float moments, n
  growing until one case exceeds the time budget (default 60 s);
- quantiles (10% and 90%) of Tree-dyn with computation cost.

Usage::

    python benchmarks/bench_markov.py [--quick] [--budget SECONDS] [--plot FILE] [--json]

Prints a Markdown table (or JSON).  Timings are wall-clock seconds of one run
(build the chain + solve), on whatever machine runs it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from hetcoll.markov import (
    absorption_moments,
    absorption_quantiles,
    exact_absorption_moments,
    noncommut_tree_dyn_chain,
    tree_dyn_chain,
)


def _timed(build, solve):
    start = time.perf_counter()
    chain = build()
    built = time.perf_counter()
    value = solve(chain)
    done = time.perf_counter()
    return chain.n_states, built - start, done - built, value


def _family(name, sizes, build, solve, budget, rows, only):
    if only and only not in name:
        return
    for n in sizes:
        states, t_build, t_solve, value = _timed(lambda n=n: build(n), solve)
        rows.append({"family": name, "n": n, "states": states, "build_s": t_build,
                     "solve_s": t_solve, "total_s": t_build + t_solve, "result": float(value)})
        print(f"  {name:38s} n={n:<5d} states={states:<9d} {t_build + t_solve:8.3f} s",
              file=sys.stderr)
        if t_build + t_solve > budget:
            break


def run(quick: bool, budget: float, only: str | None = None) -> list[dict]:
    rows: list[dict] = []

    def floats(chain):
        return absorption_moments(chain, 2)[0]

    def exact(chain):
        return exact_absorption_moments(chain, 2)[0]

    big = [64, 256, 1024] if quick else [64, 128, 256, 512, 1024, 2048, 4096]
    _family("tree-dyn, lambda_c = 1, floats", big, lambda n: tree_dyn_chain(n, 1, 1),
            floats, budget, rows, only)
    _family("tree-dyn, lambda_c = 1, exact", [16, 32, 64] if quick else [16, 32, 64, 128, 256],
            lambda n: tree_dyn_chain(n, 1, 1), exact, budget, rows, only)
    _family("tree-dyn, no computation, exact", [64, 256, 1024] if quick else
            [64, 256, 1024, 4096], lambda n: tree_dyn_chain(n), exact, budget, rows, only)
    _family("tree-dyn, lambda_c = 1, quantiles 10/90%", [16, 64] if quick else
            [16, 64, 128, 256, 512, 1024], lambda n: tree_dyn_chain(n, 1, 1),
            lambda c: absorption_quantiles(c, [0.1, 0.9])[0.1], budget, rows, only)
    nc_sizes = range(4, 17, 2) if quick else range(4, 61, 2)
    _family("noncommut-tree-dyn, no computation, floats", nc_sizes,
            lambda n: noncommut_tree_dyn_chain(n), floats, budget, rows, only)
    _family("noncommut-tree-dyn, lambda_c = 1, floats", nc_sizes,
            lambda n: noncommut_tree_dyn_chain(n, 1, 1), floats, budget, rows, only)
    _family("noncommut-tree-dyn, lambda_c = 1, exact", range(4, 15, 2) if quick else
            range(4, 31, 2), lambda n: noncommut_tree_dyn_chain(n, 1, 1), exact, budget, rows, only)
    return rows


def markdown(rows: list[dict]) -> str:
    lines = ["| case | n | states | build (s) | solve (s) | total (s) | E[C] (or 10% quantile) |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['family']} | {r['n']} | {r['states']} | {r['build_s']:.3f} | "
                     f"{r['solve_s']:.3f} | {r['total_s']:.3f} | {r['result']:.6g} |")
    return "\n".join(lines)


def plot(rows: list[dict], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5))
    for family in dict.fromkeys(r["family"] for r in rows):
        mine = [r for r in rows if r["family"] == family]
        n = [r["n"] for r in mine]
        left.loglog(n, [r["total_s"] for r in mine], marker="o", label=family)
        right.loglog(n, [r["states"] for r in mine], marker="o", label=family)
    left.set(xlabel="n", ylabel="wall-clock time (s)", title="time against n")
    right.set(xlabel="n", ylabel="transient states", title="states against n")
    left.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes only")
    parser.add_argument("--budget", type=float, default=60.0,
                        help="stop a family after a case longer than this (seconds)")
    parser.add_argument("--plot", metavar="FILE", help="save a log-log plot (not overwritten)")
    parser.add_argument("--only", metavar="TEXT", help="only the families whose name has TEXT")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.plot and os.path.exists(args.plot):
        parser.error(f"--plot: {args.plot} exists")
    rows = run(args.quick, args.budget, args.only)
    if args.plot:
        plot(rows, args.plot)
    print(json.dumps(rows, indent=2) if args.json else markdown(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
