"""Benchmark the steady-state reduce LP (SSRP) on complete graphs.

For P = 4, 6, 8, ... processors, all participating, on a complete graph with random
rational link and compute costs (fixed seed), report the LP size, the sparse build
time, the HiGHS solve time, the exact certification time and the time pulp takes to
build the same model (lp.reduce_lp_pulp).  Prints a markdown table.

    .venv/bin/python benchmarks/bench_lp.py --sizes 4 6 8 10 12 16 20 \\
        --output benchmarks/results/lp.md

Large sizes are expensive: certification is skipped above --certify-max and the pulp
build above --pulp-max; the run stops before a size once --budget seconds are spent.
"""

from __future__ import annotations

import argparse
import os
import platform as host
import sys
import time
from importlib.metadata import version
from pathlib import Path

import numpy as np
from tqdm import tqdm

from hetcoll import lp


def complete_platform(n: int, rng: np.random.Generator) -> lp.Platform:
    """Complete digraph on n processors, costs p/q with p in 1..9 and q in 1..4."""
    names = [f"P{i}" for i in range(n)]
    costs = rng.integers(1, 10, size=(n, n)), rng.integers(1, 5, size=(n, n))
    return lp.platform_from_dict({
        "processors": [{"name": name, "compute": f"{rng.integers(1, 10)}/{rng.integers(1, 5)}"}
                       for name in names],
        "links": [{"from": a, "to": b, "cost": f"{costs[0][i, j]}/{costs[1][i, j]}"}
                  for i, a in enumerate(names) for j, b in enumerate(names) if i != j]})


def measure(n: int, seed: int, certify: bool, pulp_build: bool) -> dict:
    platform = complete_platform(n, np.random.default_rng(seed))
    names = list(platform.names)
    result = lp.steady_state_reduce_lp(platform, names, names[0], certify=certify)
    row = {"P": n, "variables": result.num_variables, "constraints": result.num_constraints,
           "build": result.timings["build"], "solve": result.timings["solve"],
           "certify": result.timings["certify"] if certify else None,
           "certified": result.certified, "tp": result.throughput, "pulp": None}
    if pulp_build:
        start = time.perf_counter()
        lp.reduce_lp_pulp(platform, names, names[0])
        row["pulp"] = time.perf_counter() - start
    return row


def seconds(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def table(rows: list[dict]) -> str:
    lines = ["| P | variables | constraints | sparse build (s) | HiGHS solve (s) | "
             "certification (s) | pulp build (s) | build / solve | pulp / sparse build |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        cert = seconds(r["certify"]) + ("" if r["certify"] is None or r["certified"]
                                        else " (failed)")
        ratio = f"{r['build'] / r['solve']:.1%}" if r["solve"] > 0 else "–"
        speedup = f"{r['pulp'] / r['build']:.0f}×" if r["pulp"] else "–"
        lines.append(f"| {r['P']} | {r['variables']:,} | {r['constraints']:,} | "
                     f"{seconds(r['build'])} | {seconds(r['solve'])} | {cert} | "
                     f"{seconds(r['pulp'])} | {ratio} | {speedup} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[4, 6, 8, 10, 12])
    parser.add_argument("--seed", type=int, default=2004)
    parser.add_argument("--certify-max", type=int, default=16,
                        help="skip certification above this P (default 16)")
    parser.add_argument("--pulp-max", type=int, default=12,
                        help="skip the pulp build above this P (default 12)")
    parser.add_argument("--budget", type=float, default=300.0,
                        help="stop before a new size once this many seconds are spent")
    parser.add_argument("--output", type=Path, help="also write the table to this file")
    parser.add_argument("--force", action="store_true", help="overwrite --output")
    args = parser.parse_args(argv)
    if args.output and args.output.exists() and not args.force:
        parser.error(f"{args.output} exists; add --force to overwrite it")
    rows, start, skipped = [], time.perf_counter(), []
    for n in tqdm(args.sizes, desc="P", disable=not sys.stderr.isatty()):
        if time.perf_counter() - start > args.budget:
            skipped.append(n)
            continue
        rows.append(measure(n, args.seed, n <= args.certify_max, n <= args.pulp_max))
    text = table(rows)
    note = (f"\nMeasured on {host.machine()} with {host.python_implementation()} "
            f"{host.python_version()}, HiGHS {version('highspy')}, "
            f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the end.")
    if skipped:
        note += f" Sizes {skipped} skipped: time budget of {args.budget:.0f} s spent."
    print(text + "\n" + note)
    if args.output:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(text + "\n" + note + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
