"""Benchmark of the sim engines; reproduces the workload of RR 8315 Figure 4.

Usage::

    python benchmarks/bench_sim.py                # throughput, SimPy, 1% slice of Figure 4
    python benchmarks/bench_sim.py --full --jobs 2 --out benchmarks/results/fig4
    python benchmarks/bench_sim.py --plot benchmarks/results/fig4   # draw figure4.png

1. Simulated reductions per second at n = 64, gamma costs (mean 1, CV 1, no
   computation), per method: the compiled engine (one thread), and the exact
   Python engine for reference.
2. Tree-dyn written with SimPy (the usual Python choice), on the same draws:
   its makespans are checked equal to the compiled engine's, then timed.
3. Figure 4: 13 CVs (logspace(-2, 1, 13): 0.01 ... 10, quarter decades) x 4
   methods x R runs, n = 64, mu_d = 1, mu_c = 0.  By default a 1% slice
   (R = 10^4) is timed and extrapolated to R = 10^6.  ``--full`` runs R = 10^6
   and writes one JSON file per CV into ``--out`` (``cv_<CV>_runs_<R>.json``);
   files already there are skipped, so an interrupted run resumes where it
   stopped.  ``--plot DIR`` draws the figure from the largest run per CV.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

from hetcoll import sim
from hetcoll.sim.kernels import makespans

N = 64
CVS = np.logspace(-2, 1, 13)
FULL_RUNS = 1_000_000


def simpy_tree_dyn(comm: np.ndarray, comp: np.ndarray) -> float:
    """One Tree-dyn run in SimPy, same rules and same cost numbering as sim."""
    import simpy

    env = simpy.Environment()
    n = len(comm) + 1
    state = {"slot": None, "transfers": 0, "computations": 0}

    def reduction(sender, receiver):
        cost = comm[state["transfers"]]  # the k-th transfer started gets the k-th cost
        state["transfers"] += 1
        yield env.timeout(cost)
        cost = comp[state["computations"]]
        state["computations"] += 1
        yield env.timeout(cost)
        idle(receiver)

    def idle(p):
        if state["slot"] is None:
            state["slot"] = p
        else:
            receiver, state["slot"] = state["slot"], None
            env.process(reduction(p, receiver))

    for p in range(n):
        idle(p)
    env.run()
    return env.now


def draws(runs: int, cv: float, seed: int):
    rng = np.random.default_rng(seed)
    return sim.Gamma(1.0, cv).sample(rng, (runs, N - 1)), np.zeros((runs, N - 1))


def best_time(function, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return best


def throughput(runs: int) -> dict[str, dict[str, float]]:
    comm, comp = draws(runs, 1.0, 0)
    makespans("tree-dyn", comm[:2], comp[:2])  # JIT (or load the on-disk cache)
    table = {}
    exact_runs = 20
    for algorithm in sim.ALGORITHMS:
        seconds = best_time(lambda a=algorithm: makespans(a, comm, comp))
        exact = best_time(lambda a=algorithm: [
            sim.simulate(a, sim.SequenceCosts.from_input(list(comm[r]), list(comp[r])))
            for r in range(exact_runs)], repeat=1)
        table[algorithm] = {"compiled": runs / seconds, "exact_python": exact_runs / exact}
    # Random draws, shared by the four methods.
    table["gamma draws (per run)"] = {
        "compiled": runs / best_time(lambda: draws(runs, 1.0, 0)), "exact_python": float("nan")}
    return table


def simpy_comparison(runs: int) -> dict[str, float]:
    comm, comp = draws(runs, 1.0, 1)
    ours = makespans("tree-dyn", comm, comp)
    start = time.perf_counter()
    theirs = np.array([simpy_tree_dyn(comm[r], comp[r]) for r in range(runs)])
    simpy_rate = runs / (time.perf_counter() - start)
    if not np.array_equal(ours, theirs):
        raise SystemExit("SimPy and sim disagree on Tree-dyn makespans")
    big_comm, big_comp = draws(100 * runs, 1.0, 2)
    ours_rate = 100 * runs / best_time(lambda: makespans("tree-dyn", big_comm, big_comp))
    return {"simpy": simpy_rate, "sim": ours_rate, "speed-up": ours_rate / simpy_rate}


def figure4_point(cv: float, runs: int, jobs: int, seed: int) -> dict:
    start = time.perf_counter()
    summary = sim.monte_carlo("all", N, sim.Gamma(1.0, float(cv)), runs=runs, seed=seed,
                              n_jobs=jobs, progress=True)
    return {"cv": float(cv), "runs": runs, "seed": seed, "n": N, "mu_comm": 1.0,
            "mu_comp": 0.0, "seconds": time.perf_counter() - start,
            "methods": {name: s.as_dict() for name, s in summary.items()}}


def figure4(runs: int, jobs: int, seed: int, out: Path | None) -> float:
    """Run every CV (skipping those already in ``out``); return the seconds spent."""
    spent = 0.0
    for cv in CVS:
        target = None if out is None else out / f"cv_{cv:.4g}_runs_{runs}.json"
        if target is not None and target.exists():
            print(f"CV {cv:.4g}: already done ({target})", file=sys.stderr)
            continue
        point = figure4_point(cv, runs, jobs, seed)
        spent += point["seconds"]
        print(f"CV {cv:.4g}: {point['seconds']:.1f} s; means " + ", ".join(
            f"{k} {v['mean']:.3f}" for k, v in point["methods"].items()), file=sys.stderr)
        if target is not None:
            partial = target.with_suffix(".part")
            partial.write_text(json.dumps(point, indent=1))
            os.replace(partial, target)  # a killed run never leaves a truncated file
    return spent


def plot(out: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    largest = {}  # per CV, the point with the most runs
    for path in out.glob("cv_*_runs_*.json"):
        point = json.loads(path.read_text())
        if point["runs"] > largest.get(point["cv"], {"runs": 0})["runs"]:
            largest[point["cv"]] = point
    points = [largest[cv] for cv in sorted(largest)]
    if not points:
        raise SystemExit(f"no cv_*_runs_*.json in {out}")
    fig, ax = plt.subplots(figsize=(8, 5))
    cvs = [p["cv"] for p in points]
    for name in sim.ALGORITHMS:
        mean = [p["methods"][name]["mean"] for p in points]
        low = [p["methods"][name]["quantiles"]["0.1"] for p in points]
        high = [p["methods"][name]["quantiles"]["0.9"] for p in points]
        ax.plot(cvs, mean, marker="o", label=name)
        ax.fill_between(cvs, low, high, alpha=0.2)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("coefficient of variation of communication costs")
    ax.set_ylabel("makespan (mean; ribbon: 10% to 90% quantiles)")
    ax.set_title(f"RR 8315 Figure 4: n = {N}, mu_d = 1, mu_c = 0, "
                 f"{min(p['runs'] for p in points)} runs per CV")
    ax.legend()
    fig.tight_layout()
    target = out / "figure4.png"
    fig.savefig(target, dpi=120)
    return target


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--full", action="store_true",
                        help="run Figure 4 with 10^6 runs per CV (needs --out)")
    parser.add_argument("--out", type=Path, help="directory of the per-CV JSON files")
    parser.add_argument("--plot", type=Path, metavar="DIR",
                        help="only draw DIR/figure4.png from DIR/cv_*_runs_*.json")
    parser.add_argument("--jobs", type=int, default=2, help="threads for Figure 4 (default 2)")
    parser.add_argument("--seed", type=int, default=2013)
    parser.add_argument("--fraction", type=float, default=0.01,
                        help="slice of Figure 4 timed without --full (default 0.01)")
    args = parser.parse_args(argv)
    if args.plot:
        print(f"wrote {plot(args.plot)}")
        return 0
    if args.full:
        if args.out is None:
            parser.error("--full needs --out DIR (results are written per CV, resumable)")
        args.out.mkdir(parents=True, exist_ok=True)
        spent = figure4(FULL_RUNS, args.jobs, args.seed, args.out)
        print(f"Figure 4, {FULL_RUNS} runs x 4 methods x {len(CVS)} CVs: {spent:.0f} s "
              f"in this session; figure: {plot(args.out)}")
        return 0

    print(f"# sim benchmark (n = {N}, gamma costs mean 1 CV 1, mu_c = 0); machine shared")
    print("\n| method | compiled engine, runs/s (1 thread) | exact Python engine, runs/s |")
    print("|---|---:|---:|")
    for name, row in throughput(20_000).items():
        print(f"| {name} | {row['compiled']:,.0f} | {row['exact_python']:,.1f} |")
    versus = simpy_comparison(200)
    print(f"\nTree-dyn: SimPy {versus['simpy']:,.0f} runs/s, sim {versus['sim']:,.0f} runs/s "
          f"(same makespans checked): {versus['speed-up']:,.0f}x")
    runs = max(1, round(args.fraction * FULL_RUNS))
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
    spent = figure4(runs, args.jobs, args.seed, args.out)
    print(f"\nFigure 4 slice: {runs} runs x 4 methods x {len(CVS)} CVs, {args.jobs} threads: "
          f"{spent:.1f} s; extrapolated to {FULL_RUNS} runs: "
          f"{spent * FULL_RUNS / runs / 60:.1f} min")
    return 0


if __name__ == "__main__":
    sys.exit(main())
