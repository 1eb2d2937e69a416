"""Cost of building and validating periodic schedules, against the LP solve.

On complete graphs of P processors (seeded random integer link costs 1..9
and compute costs 1..9), for the reduce of all P values to P0 and the
scatter from P0 to all others, time:

- the exact LP solve (HiGHS + certification), ``lp.steady_state_*_lp``;
- the decomposition into trees / paths;
- the edge-colouring of one period's busy times;
- the whole schedule construction (decomposition + colouring + layout);
- the exact execution of depth + 10 periods.

Usage::

    python benchmarks/bench_schedule.py [--max-p 12] [--repeat 3] [--plot FILE.png]

Prints a Markdown table (best of ``--repeat`` runs).
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict

import numpy as np
from tqdm.auto import tqdm

from hetcoll import lp
from hetcoll.lp.colouring import weighted_bipartite_edge_colouring
from hetcoll.lp.decomposition import decompose_reduce_flows, decompose_scatter_flows
from hetcoll.lp.executor import execute_schedule
from hetcoll.lp.schedule import schedule_from_lp


def complete_platform(p: int, rng: np.random.Generator) -> lp.Platform:
    names = [f"P{i}" for i in range(p)]
    return lp.platform_from_dict({
        "processors": [{"name": n, "compute": int(rng.integers(1, 10))} for n in names],
        "links": [{"from": a, "to": b, "cost": int(rng.integers(1, 10))}
                  for a in names for b in names if a != b],
    })


def best(function, repeat: int):
    times, value = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        value = function()
        times.append(time.perf_counter() - start)
    return min(times), value


def measure(kind: str, p: int, repeat: int, seed: int) -> dict:
    platform = complete_platform(p, np.random.default_rng(seed + p))
    names = list(platform.names)
    if kind == "reduce":
        t_lp, result = best(lambda: lp.steady_state_reduce_lp(platform, names, names[0]), repeat)
        t_dec, components = best(lambda: decompose_reduce_flows(
            result.flows_exact, result.tasks_exact, names, names[0]), repeat)
    else:
        t_lp, result = best(lambda: lp.steady_state_scatter_lp(platform, names[0], names[1:]),
                            repeat)
        t_dec, components = best(lambda: decompose_scatter_flows(
            result.flows_exact, names[0], names[1:]), repeat)
    t_sched, schedule = best(lambda: schedule_from_lp(result), repeat)
    busy = defaultdict(int)
    for component, uses in zip(schedule.components, schedule.uses, strict=True):
        for t in component.transfers:
            busy[t.sender, t.receiver] += uses * result.transfer_time(t.sender, t.receiver,
                                                                      t.value)
    t_col, matchings = best(lambda: weighted_bipartite_edge_colouring(busy), repeat)
    periods = schedule.depth + 10
    t_run, run = best(lambda: execute_schedule(schedule, periods), repeat)
    assert run.steady_throughput == result.throughput_exact
    nonzeros = len(result.flows_exact) + len(result.tasks_exact or {})
    return {"kind": kind, "P": p, "nonzeros": nonzeros, "trees": len(components),
            "matchings": len(matchings), "period_digits": len(str(schedule.period.numerator)),
            "lp": t_lp, "decomposition": t_dec, "colouring": t_col, "schedule": t_sched,
            "execution": t_run, "events": run.n_events}


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-p", type=int, default=12)
    parser.add_argument("--min-p", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--plot", metavar="FILE", help="also save a log-log plot to FILE")
    args = parser.parse_args(argv)
    jobs = [(kind, p) for kind in ("scatter", "reduce") for p in range(args.min_p, args.max_p + 1)]
    rows = [measure(kind, p, args.repeat, args.seed) for kind, p in tqdm(jobs, desc="bench")]
    print("| kind | P | LP non-zeros | trees/paths | matchings | digits of T | LP solve (s) "
          "| decomposition (s) | colouring (s) | schedule total (s) | execution (s) "
          "| events checked |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['kind']} | {r['P']} | {r['nonzeros']} | {r['trees']} | {r['matchings']} "
              f"| {r['period_digits']} | {r['lp']:.3f} | {r['decomposition']:.4f} "
              f"| {r['colouring']:.4f} | {r['schedule']:.4f} | {r['execution']:.4f} "
              f"| {r['events']} |")
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
        for ax, kind in zip(axes, ("scatter", "reduce"), strict=True):
            part = sorted((r for r in rows if r["kind"] == kind), key=lambda r: r["nonzeros"])
            x = [r["nonzeros"] for r in part]
            for key in ("lp", "decomposition", "colouring", "schedule", "execution"):
                ax.loglog(x, [r[key] for r in part], "o-", label=key)
            ax.set_title(f"{kind}, complete graphs P = {args.min_p}..{args.max_p}")
            ax.set_xlabel("LP non-zeros")
        axes[0].set_ylabel(f"seconds (best of {args.repeat})")
        axes[0].legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(args.plot, dpi=120)
    return rows


if __name__ == "__main__":
    main()
