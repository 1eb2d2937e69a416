"""Time of the clairvoyant optimum against n (commutative and non-commutative).

Random heterogeneous instances: d(i, j) and c_i drawn on a rational grid in
[1, 4] (exact arithmetic, as users run it).  Prints one row per n with the
median and maximum over ``--repeats`` instances; ``--plot FILE`` draws it.

    .venv/bin/python benchmarks/bench_optimum.py --n-max 10 --repeats 3
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np

from hetcoll.analytics import clairvoyant_optimum


def instance(rng: np.random.Generator, n: int) -> tuple[list, list]:
    grid = rng.integers(4, 17, size=(n, n + 1))
    comm = [[Fraction(int(grid[i, j]), 4) for j in range(n)] for i in range(n)]
    return comm, [Fraction(int(grid[i, n]), 4) for i in range(n)]


def measure(n: int, repeats: int, noncommutative: bool, rng: np.random.Generator) -> list[float]:
    times = []
    for _ in range(repeats):
        comm, comp = instance(rng, n)
        start = time.perf_counter()
        clairvoyant_optimum(comm, comp, noncommutative=noncommutative)
        times.append(time.perf_counter() - start)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-max", type=int, default=9, help="largest n (default 9)")
    parser.add_argument("--repeats", type=int, default=3, help="instances per n (default 3)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--plot", metavar="FILE", help="save a log-scale plot to FILE")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.plot and Path(args.plot).exists():
        sys.exit(f"{args.plot} exists; not overwriting it")
    rng = np.random.default_rng(args.seed)
    rows = []
    for n in range(2, args.n_max + 1):
        row = {"n": n}
        for name, flag in (("commutative", False), ("noncommutative", True)):
            times = measure(n, args.repeats, flag, rng)
            row[name] = {"median_s": statistics.median(times), "max_s": max(times)}
        rows.append(row)
        if not args.json:
            print(f"n = {n:2d}: commutative median {row['commutative']['median_s']:.4f} s "
                  f"(max {row['commutative']['max_s']:.4f}), non-commutative median "
                  f"{row['noncommutative']['median_s']:.5f} s", flush=True)
    if args.json:
        print(json.dumps(rows, indent=2))
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(6, 3.5))
        for name in ("commutative", "noncommutative"):
            ax.plot([r["n"] for r in rows], [r[name]["median_s"] for r in rows], "o-", label=name)
        ax.axhline(10, color="grey", linestyle=":", label="10 s goal")
        ax.set_yscale("log")
        ax.set_xlabel("n")
        ax.set_ylabel("seconds (median)")
        ax.set_title("clairvoyant optimum, exact")
        ax.legend()
        fig.tight_layout()
        fig.savefig(args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
