"""Benchmark of the MPI layer: real runs against MPI's own collectives, and predictions.

Usage::

    python benchmarks/bench_mpi.py             # np = 4 (about two minutes)
    python benchmarks/bench_mpi.py --quick     # smaller vectors, for a smoke test

1. Reduce, np = 4, 1,048,576 doubles, sum: every algorithm and ``MPI_Reduce`` in the
   same mpiexec run, without delays and with rank 1 starting 50 ms late; T1_root of
   each relative to ``MPI_Reduce``'s (medians over the repeats are printed too).
2. Calibration (ping-pongs per pair, Hockney fit), then reduce (262,144 doubles, rank
   1 50 ms late: the message-level simulator) and scatterv and gatherv of 262,144
   doubles per rank (the pairwise tree predictor), predicted on the calibrated platform
   against measured (``hetcoll mpi compare``), with the error.

Writes Markdown tables to standard output and, with ``--out DIR``, ``mpi.md`` and
``mpi_compare.png`` there.  On a machine with fewer cores than ranks the ranks share
cores (oversubscription): timings then measure the operating system's scheduler too.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import numpy as np

from hetcoll.core.platform import platform_from_dict
from hetcoll.mpi import ALGORITHMS, run_reduce
from hetcoll.mpi.compare import compare_reduce, compare_vcollective, comparison_plot
from hetcoll.mpi.launch import VCOLLECTIVE_ALGORITHMS, run_calibration


def reduce_table(n_ranks: int, elements: int, repeats: int) -> list[str]:
    lines = ["| algorithm | T1_root, no delay (ms) | × MPI_Reduce | T1_root, rank 1 +50 ms "
             "(ms) | × MPI_Reduce |", "|---|---:|---:|---:|---:|"]
    runs = {}
    for label, delay in (("none", [0.0] * n_ranks),
                         ("slow", [0.0, 0.05] + [0.0] * (n_ranks - 2))):
        result = run_reduce(n_ranks, list(ALGORITHMS), elements=elements,
                            delays=[delay] * repeats)
        assert result.success, result.message
        runs[label] = {name: float(np.median([r["T1_root"] for r in row["repeats"]]))
                       for name, row in result.algorithms.items()}
        library = result.mpi_library
    for name in ALGORITHMS:
        cells = []
        for label in ("none", "slow"):
            t, base = runs[label][name], runs[label]["mpi"]
            cells += [f"{1e3 * t:.2f}", f"{t / base:.2f}"]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return [f"Reduce, np = {n_ranks}, {elements:,} doubles, sum; median of {repeats} runs "
            f"after a warm-up ({library}).", "", *lines]


def compare_tables(n_ranks: int, elements: int, repeats: int, out: Path | None
                   ) -> list[str]:
    calibration = run_calibration(n_ranks)
    platform = platform_from_dict(calibration["platform"])
    links = calibration["platform"]["links"]
    alphas = [1e6 * link["latency"] for link in links]
    betas = [1e9 * link["cost"] for link in links]
    lines = [f"Calibration, np = {n_ranks}: alpha {min(alphas):.1f} to {max(alphas):.1f} us, "
             f"beta {min(betas):.3f} to {max(betas):.3f} ns per double.", ""]
    delays = [0.0, 0.05] + [0.0] * (n_ranks - 2)
    reduce = compare_reduce(n_ranks, platform, list(ALGORITHMS), elements=elements,
                            delays=delays, repeats=repeats)
    assert reduce.success, reduce.message
    lines += [f"reduce, {elements:,} doubles, rank 1 starts 50 ms late: predicted (message-"
              f"level simulator, calibrated) against measured T1_root (fastest of {repeats}).",
              "", "| algorithm | predicted (ms) | measured (ms) | mean (ms) | error |",
              "|---|---:|---:|---:|---:|"]
    for name, row in reduce.algorithms.items():
        predicted = "-" if row["predicted"] is None else f"{1e3 * row['predicted']:.2f}"
        error = "-" if row["relative_error"] is None else f"{100 * row['relative_error']:+.0f} %"
        lines.append(f"| {name} | {predicted} | {1e3 * row['measured']:.2f} | "
                     f"{1e3 * row['measured_mean']:.2f} | {error} |")
    lines.append("")
    algorithms = [*VCOLLECTIVE_ALGORITHMS, "mpi"]
    results = {}
    for kind in ("scatterv", "gatherv"):
        results[kind] = compare_vcollective(kind, n_ranks, platform, algorithms,
                                            blocks=[elements] * n_ranks, repeats=repeats)
        assert results[kind].success, results[kind].message
        lines += [f"{kind}, {elements:,} doubles per rank: predicted (pairwise, calibrated) "
                  f"against measured T3 (fastest of {repeats}; mean beside it).", "",
                  "| tree | predicted (ms) | measured (ms) | mean (ms) | error |",
                  "|---|---:|---:|---:|---:|"]
        for name, row in results[kind].algorithms.items():
            lines.append(f"| {name} | {1e3 * row['predicted']:.2f} | "
                         f"{1e3 * row['measured']:.2f} | {1e3 * row['measured_mean']:.2f} | "
                         f"{100 * row['relative_error']:+.0f} % |")
        lines.append("")
    if out is not None:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, axes = plt.subplots(1, 2, figsize=(12, 3.8))
        for ax, (kind, result) in zip(axes, results.items(), strict=True):
            comparison_plot(result, ax=ax, title=f"{kind}, np = {n_ranks}, "
                            f"{elements:,} doubles per rank")
        fig.tight_layout()
        fig.savefig(out / "mpi_compare.png", dpi=110)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--np", type=int, default=4)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    elements = 65_536 if args.quick else 1_048_576
    repeats = 3 if args.quick else 7
    text = [f"Machine: {os.cpu_count()} cores; np = {args.np}.", "",
            *reduce_table(args.np, elements, repeats), "",
            *compare_tables(args.np, elements // 4, repeats, args.out)]
    print("\n".join(text))
    if args.out is not None:
        (args.out / "mpi.md").write_text("\n".join(text) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
