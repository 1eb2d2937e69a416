"""Reductions under load imbalance: MLH Table 1 and Figures 8-9 in simulation, and speed.

Usage::

    python benchmarks/bench_imbalance.py                 # everything, markdown on stdout
    python benchmarks/bench_imbalance.py --out benchmarks/results/imbalance.md

1. Table 1 (Marendić et al., section 5.6): p = 128, n = 1,024,000 elements,
   α = 3.13 µs, β = 0.00263 µs per element (NOTES.md: their per-byte value fits
   per 8-byte element), a pairwise combine of 4 ms (γ = 4 ms / n), one slow
   process delayed 10, 20, 30, 40, 60 ms.  The paper does not say which process
   is slow, so every position is simulated (128 runs per delay and algorithm)
   and the mean, min and max of T1_root are reported; LocalReduce against the
   binomial tree (the MPI default), beside the paper's times and speed-ups.
2. Figure 9's setting: Gamma(k = 2, θ = 0.5 ms) start skew, vectors of 4 MB
   and 40 MB (524,288 and 5,242,880 doubles), γ = 1.79e-10 s per element
   (their std::plus), p = 128; mean T1_root of every algorithm.
   Figure 8's setting: one process 120 ms late, 2^20 elements.
3. Monte Carlo runs per second per algorithm at p = 128 with Gamma skew, one
   thread, and the time of one exact (rational) run at p = 1,024.
"""

from __future__ import annotations

import argparse
import os
import time
from fractions import Fraction

import numpy as np

from hetcoll.sim.imbalance import ALGORITHMS, FlatModel, simulate_reduction
from hetcoll.sim.imbalance.paper import (
    ALPHA,
    BETA,
    DELAYS_MS,
    ELEMENTS,
    GAMMA_PLUS,
    GAMMA_TABLE1,
    P,
    calibrated_beta,
)
from hetcoll.sim.imbalance.paper import TABLE1 as PAPER
from hetcoll.sim.imbalance.skew import GammaSkew, metrics_for_delays, sample_metrics


def table1() -> list[str]:
    lines = []
    beta_fit = calibrated_beta()
    for beta, title in ((BETA, "their α, β (one step α + nβ + 4 ms = 6.70 ms)"),
                        (beta_fit, f"β fitted to the Default column (β = {float(beta_fit):.3g}"
                                   f" s, step {1000 * float(ALPHA + ELEMENTS * beta_fit):.2f}"
                                   f" ms + 4 ms)")):
        lines += table1_rows(FlatModel(P, ELEMENTS, ALPHA, beta, GAMMA_TABLE1), title)
    return lines + every_algorithm()


def table1_rows(model: FlatModel, title: str) -> list[str]:
    lines = [f"### Table 1, {title}", "",
             "p = 128, n = 1,024,000, 4 ms per pairwise combine, one slow process. T1_root in "
             "seconds; simulated: mean over the 128 positions of the slow process [min, max]; "
             "paper: their measurement.", "",
             "| delay | LocalReduce sim | LocalReduce paper | binomial sim | Default paper | "
             "speed-up sim (of means) | speed-up paper |",
             "|---|---|---|---|---|---|---|"]
    start = time.perf_counter()
    for delay in DELAYS_MS:
        delays = np.eye(P) * delay / 1000  # row r: process r is the slow one
        result = metrics_for_delays(["local-reduce", "binomial"], model, delays)
        lr, bi = result["local-reduce"]["T1_root"], result["binomial"]["T1_root"]
        paper_lr, paper_default, paper_speedup = PAPER[delay]
        lines.append(f"| {delay} ms | {lr.mean():.4f} [{lr.min():.4f}, {lr.max():.4f}] | "
                     f"{paper_lr:.4f} | {bi.mean():.4f} [{bi.min():.4f}, {bi.max():.4f}] | "
                     f"{paper_default:.4f} | {bi.mean() / lr.mean():.2f} | {paper_speedup} |")
    elapsed = time.perf_counter() - start
    return lines + ["", f"(5 delays x 128 positions x 2 algorithms in {elapsed:.2f} s.)", ""]


def every_algorithm() -> list[str]:
    """Every algorithm, the slow process at rank 5, exact."""
    model = FlatModel(P, ELEMENTS, ALPHA, BETA, GAMMA_TABLE1)
    lines = ["Every algorithm, slow process = rank 5, exact T1_root (s):", "",
              "| algorithm | " + " | ".join(f"{d} ms" for d in DELAYS_MS) + " |",
              "|---|" + "---|" * len(DELAYS_MS)]
    start = time.perf_counter()
    for name in ALGORITHMS:
        row = []
        for delay in DELAYS_MS:
            delays = [0] * P
            delays[5] = Fraction(delay, 1000)
            row.append(float(simulate_reduction(name, model, delays, trace=False).T1_root))
        lines.append(f"| {name} | " + " | ".join(f"{t:.4f}" for t in row) + " |")
    lines += ["", f"(5 delays x 9 algorithms, exact rationals, in "
                  f"{time.perf_counter() - start:.1f} s.)", ""]
    return lines


def figures(runs: int, jobs: int) -> list[str]:
    lines = ["### Figure 9's setting: Gamma(k = 2, θ = 0.5 ms) skew, p = 128", "",
             f"Mean T1_root in ms over {runs} draws (seed 1, common random numbers).", "",
             "| algorithm | 4 MB (524,288 doubles) | 40 MB (5,242,880 doubles) |",
             "|---|---|---|"]
    skew = GammaSkew(2, "0.0005")
    columns = {}
    for elements in (524_288, 5_242_880):
        model = FlatModel(P, elements, ALPHA, BETA, GAMMA_PLUS)
        samples = sample_metrics("all", model, skew, runs=runs, seed=1, n_jobs=jobs)
        columns[elements] = {name: 1000 * s["T1_root"].mean() for name, s in samples.items()}
    for name in ALGORITHMS:
        lines.append(f"| {name} | {columns[524_288][name]:.3f} | "
                     f"{columns[5_242_880][name]:.3f} |")
    lines += ["", "### Figure 8's setting: one process 120 ms late, 2^20 elements, std::plus",
              "", "Mean T1_root (ms) over the 128 positions of the slow process:", "",
              "| p | " + " | ".join(ALGORITHMS) + " |", "|---|" + "---|" * len(ALGORITHMS)]
    for p in (16, 32, 64, 128):
        model = FlatModel(p, 1 << 20, ALPHA, BETA, GAMMA_PLUS)
        result = metrics_for_delays(ALGORITHMS, model, np.eye(p) * 0.120)
        lines.append(f"| {p} | " + " | ".join(f"{1000 * result[n]['T1_root'].mean():.2f}"
                                               for n in ALGORITHMS) + " |")
    return lines + [""]


def speed() -> list[str]:
    model = FlatModel(P, ELEMENTS, ALPHA, BETA, GAMMA_TABLE1)
    skew = GammaSkew(2, "0.0005")
    lines = ["### Speed", "", f"Monte Carlo, p = 128, Gamma skew, one thread (load average "
             f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores):", "",
             "| algorithm | runs/s | one exact run at p = 1,024 (s) |", "|---|---|---|"]
    big = FlatModel(1024, ELEMENTS, ALPHA, BETA, GAMMA_TABLE1)
    big_delays = [Fraction(int(d * 1e6), 10**9) for d in
                  np.random.default_rng(0).gamma(2, 0.5, 1024)]
    for name in ALGORITHMS:
        runs = 2_000 if name == "direct-send" else 20_000
        sample_metrics(name, model, skew, runs=10, seed=0)  # compile
        start = time.perf_counter()
        sample_metrics(name, model, skew, runs=runs, seed=0)
        rate = runs / (time.perf_counter() - start)
        if name == "direct-send":
            exact = "(10^6 messages: not timed)"
        else:
            start = time.perf_counter()
            simulate_reduction(name, big, big_delays, trace=False)
            exact = f"{time.perf_counter() - start:.2f}"
        lines.append(f"| {name} | {rate:,.0f} | {exact} |")
    return lines + [""]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2000, help="gamma draws (default 2000)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", help="also write the markdown here")
    args = parser.parse_args()
    lines = [*table1(), *figures(args.runs, args.jobs), *speed()]
    text = "\n".join(lines)
    print(text)
    if args.out:
        with open(args.out, "w") as handle:
            handle.write(text + "\n")


if __name__ == "__main__":
    main()
