"""``hetcoll simulate``: Monte Carlo study or exact run of the four reductions.

Two modes:

- random costs (default): ``hetcoll simulate all --n 64 --mu-comm 1 --cv-comm 1
  --runs 100000 --seed 1`` draws gamma costs with common random numbers and
  prints, per method, the mean, standard error and quantiles of the makespan;
  the JSON object is keyed by method name.
- explicit costs: ``hetcoll simulate tree-dyn --costs FILE.json`` (keys
  ``"comm"``, an n x n matrix, ``"comp"``, a list, optional ``"start_times"``)
  runs the exact simulator and prints ``"makespan"`` (float) and
  ``"makespan_exact"`` (string), the trace with ``--trace``, a Gantt chart with
  ``--gantt``.  With ``all``, the JSON object is keyed by method name.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from hetcoll.cli._common import (
    add_force_flag,
    add_json_flag,
    image_path,
    print_json,
    print_warnings,
    read_costs_option,
    split_names,
)
from hetcoll.core.errors import InputError, LimitError
from hetcoll.core.numbers import fraction_str, nonnegative_number, to_fraction

#: Options of the random-cost mode, which --costs does not take.
RANDOM_ONLY = ("n", "mu_comm", "cv_comm", "mu_comp", "cv_comp", "runs", "seed", "quantiles",
               "jobs", "max_memory")


def register(subparsers) -> None:
    from hetcoll.sim import ALGORITHMS

    parser = subparsers.add_parser(
        "simulate", help="simulate Binomial-stat, Fibonacci-stat, Tree-dyn, Non-Commut-Tree-dyn",
        description="Monte Carlo study of the non-clairvoyant reductions with gamma costs\n"
        "(common random numbers across methods, RR 8315 section 6), or, with --costs,\n"
        "one exact run on explicit costs.",
        epilog="examples:\n  hetcoll simulate all --n 64 --mu-comm 1 --cv-comm 1 --runs 100000 "
        "--seed 1\n  hetcoll simulate fibonacci-stat --costs examples/costs/fig2_homogeneous_8"
        ".json --trace --gantt fib.png",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("algorithm", metavar="ALGORITHM", choices=(*ALGORITHMS, "all"),
                        help=f"one of {', '.join(ALGORITHMS)}, or all")
    random = parser.add_argument_group("random costs (gamma: shape 1/CV^2, scale mean*CV^2)")
    random.add_argument("--n", type=int, help="number of processors")
    random.add_argument("--mu-comm", help="mean communication cost (default 1); numbers as "
                        "'2', '0.5', '1e-3' or '1/3'")
    random.add_argument("--cv-comm",
                        help="coefficient of variation of communications (default 1)")
    random.add_argument("--mu-comp", help="mean computation cost (default 0)")
    random.add_argument("--cv-comp",
                        help="coefficient of variation of computations (default: --cv-comm)")
    random.add_argument("--runs", type=int, help="number of runs (default 10000)")
    random.add_argument("--seed", type=int, help="random seed (default 0)")
    random.add_argument("--quantiles", help="comma-separated levels (default 0.1,0.5,0.9)")
    random.add_argument("--jobs", type=int, help="worker threads, -1 for all cores (default 1)")
    random.add_argument("--max-memory", type=float, metavar="GB",
                        help="refuse, before any work, a study needing more memory than this "
                        "(estimated from n, --runs and --jobs; default 2 GB)")
    exact = parser.add_argument_group("explicit costs (exact simulation)")
    exact.add_argument("--costs", metavar="FILE.json",
                       help='JSON object with "comm" (n x n matrix), "comp" (list of n) and '
                       'optionally "start_times"; numbers or "p/q" strings')
    exact.add_argument("--trace", action="store_true", help="print every transfer and "
                       "computation")
    exact.add_argument("--gantt", metavar="FILE", help="draw the schedule into FILE (.png, "
                       ".pdf, .svg)")
    add_force_flag(exact, "--gantt")
    parser.add_argument("--fibonacci-order", type=int, metavar="K",
                        help="order of Fibonacci-stat (default: smallest k with F(k+2) >= n)")
    add_json_flag(parser)
    parser.set_defaults(func=run)


def run(args) -> int:
    from hetcoll.sim import ALGORITHMS

    algorithms = ALGORITHMS if args.algorithm == "all" else (args.algorithm,)
    if args.fibonacci_order is not None and "fibonacci-stat" not in algorithms:
        raise InputError(f"--fibonacci-order applies to fibonacci-stat (or all), not "
                         f"{args.algorithm}")
    if args.costs is None and args.cv_comp is not None and args.mu_comp is None:
        raise InputError("--cv-comp needs --mu-comp (computations are free by default)")
    if args.costs is None:
        for flag in ("trace", "gantt", "force"):
            if getattr(args, flag):
                raise InputError(f"--{flag} needs --costs FILE.json (an exact run)")
        return _monte_carlo(args, algorithms)
    for name in RANDOM_ONLY:
        if getattr(args, name) is not None and name != "n":
            raise InputError(f"--{name.replace('_', '-')} applies to random costs, not --costs")
    return _exact(args, algorithms)



def _number(text: str | None, flag: str, default: float) -> float:
    """A non-negative number typed with ``flag`` (the core parser: range, NaN, p/q)."""
    if text is None:
        return default
    return float(nonnegative_number(text, flag))


def _gamma(sim, mean: float, cv: float, kind: str):
    """``sim.Gamma(mean, cv)``, with errors naming the flags they came from."""
    try:
        return sim.Gamma(mean, cv)
    except InputError as error:
        raise InputError(f"--mu-{kind} {mean:g} / --cv-{kind} {cv:g}: {error}") from None


def _monte_carlo(args, algorithms) -> int:
    from hetcoll import sim
    if args.n is None:
        raise InputError("--n is required (or give explicit costs with --costs)")
    mu_comm = _number(args.mu_comm, "--mu-comm", 1.0)
    cv_comm = _number(args.cv_comm, "--cv-comm", 1.0)
    mu_comp = _number(args.mu_comp, "--mu-comp", 0.0)
    cv_comp = _number(args.cv_comp, "--cv-comp", cv_comm)
    typed = ("0.1", "0.5", "0.9") if args.quantiles is None else split_names(args.quantiles,
                                                                              "--quantiles")
    levels = tuple(float(to_fraction(q, "--quantiles")) for q in typed)
    if args.max_memory is not None and not args.max_memory > 0:
        raise InputError(f"--max-memory must be a positive number of GB, got {args.max_memory}")
    comm = _gamma(sim, mu_comm, cv_comm, "comm")
    comp = _gamma(sim, mu_comp, cv_comp, "comp")
    if comp.mean == 0:
        comp = None
    runs = 10_000 if args.runs is None else args.runs
    seed = 0 if args.seed is None else args.seed
    try:
        summaries = sim.monte_carlo(
            algorithms, args.n, comm, comp, runs=runs, seed=seed, quantiles=levels,
            n_jobs=1 if args.jobs is None else args.jobs, fibonacci_order=args.fibonacci_order,
            progress=not args.json,
            max_memory=sim.MAX_MEMORY if args.max_memory is None else args.max_memory * 1e9)
    except LimitError as error:
        raise LimitError(f"{error}; raise it with --max-memory GB") from None
    first = next(iter(summaries.values()))
    print_warnings(args.command, first.warnings)
    if args.json:
        records = {}
        for name, summary in summaries.items():
            record = summary.to_dict()
            record["quantiles"] = {text: summary.quantiles[q]
                                   for text, q in zip(typed, levels, strict=True)}
            records[name] = record
        print_json({**records, "warnings": list(first.warnings)}, inputs={
            "algorithm": args.algorithm, "n": args.n, "runs": runs, "seed": seed,
            "comm": {"distribution": "gamma", "mean": mu_comm, "cv": cv_comm},
            "comp": None if comp is None else {"distribution": "gamma", "mean": mu_comp,
                                               "cv": cv_comp},
            "quantiles": list(typed), "fibonacci_order": args.fibonacci_order})
        return 0
    print(f"n = {args.n}, {first.runs} runs, seed {seed}; "
          f"communications gamma(mean {mu_comm:g}, CV {cv_comm:g}), computations "
          + (f"gamma(mean {mu_comp:g}, CV {cv_comp:g})" if comp else "free"))
    header = f"{'method':<20} {'mean':>10} {'stderr':>9}" + "".join(
        f" {'q' + q:>9}" for q in typed)
    print(header)
    for name, s in sorted(summaries.items(), key=lambda item: item[1].mean):
        print(f"{name:<20} {s.mean:>10.4g} {s.stderr:>9.4g}"
              + "".join(f" {s.quantiles[q]:>9.4g}" for q in levels))
    return 0


def _exact(args, algorithms) -> int:
    from hetcoll import sim
    gantt = image_path(args.gantt, args.force, "--gantt")
    cost_file = read_costs_option(args.costs)
    costs, starts = cost_file.costs, cost_file.start_times
    if args.n is not None and args.n != costs.n:
        raise InputError(f"--n {args.n} disagrees with the {costs.n} x {costs.n} matrix of "
                         f"--costs")
    results = [sim.simulate(name, costs, start_times=starts, fibonacci_order=args.fibonacci_order)
               for name in algorithms]
    if gantt is not None:
        _draw(results, gantt)
    if args.json:
        records = {r.algorithm: r.to_dict(trace=args.trace) for r in results}
        inputs = {"algorithm": args.algorithm, "costs": args.costs, "n": costs.n,
                  "fibonacci_order": args.fibonacci_order}
        if len(results) == 1:
            print_json(records[algorithms[0]], inputs=inputs)
        else:
            print_json(records, inputs=inputs)
        return 0
    for r in results:
        print(f"{r.algorithm}: makespan {fraction_str(r.makespan)} ({r.makespan_float:g}); "
              f"result on P{r.root}, combined as {list(r.order)}")
        if args.trace:
            for e in r.trace:
                what = (f"P{e.processor} -> P{e.peer} sends v[{e.interval[0]},{e.interval[1]}]"
                        if e.kind == "transfer" else
                        f"P{e.processor} computes v[{e.interval[0]},{e.interval[1]}] "
                        f"(operand from P{e.peer})")
                print(f"  {e.kind} #{e.index}: [{fraction_str(e.start)}, "
                      f"{fraction_str(e.end)}] {what}")
    if gantt is not None:
        print(f"Gantt chart written to {gantt}")
    return 0


def _draw(results, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    n = results[0].n
    fig, axes = plt.subplots(len(results), 1, squeeze=False,
                             figsize=(11, len(results) * (0.45 * 2 * n + 1.5)))
    for result, ax in zip(results, axes[:, 0], strict=True):
        result.gantt(ax=ax)
    fig.savefig(path)
    plt.close(fig)
