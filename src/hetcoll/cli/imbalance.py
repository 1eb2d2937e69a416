"""``hetcoll imbalance``: reductions under load imbalance (Marendić et al.).

- ``hetcoll imbalance formulas --p P --elements N --alpha A --beta B --gamma G``
  prints the paper's closed forms (1)-(4), exactly, beside the simulated time
  of each algorithm with no skew.
- ``hetcoll imbalance run ALGORITHM ... [--delays | --slow | --gaussian |
  --gamma-skew]`` simulates one algorithm (or ``all``) message by message and
  prints T1-T5 and T1_root: exactly for fixed delays, as means and 10% / 90%
  quantiles over ``--runs`` draws for random ones.
"""

from __future__ import annotations

import argparse

from hetcoll.cli._common import (
    add_force_flag,
    add_json_flag,
    add_skew_flags,
    image_path,
    parse_skew,
    print_json,
    split_names,
)
from hetcoll.core.errors import InputError, LimitError
from hetcoll.core.numbers import fraction_str, to_fraction

#: --gantt draws at most this many processes (one row each).
GANTT_MAX_PROCESSES = 64


def register(subparsers) -> None:
    from hetcoll.sim.imbalance import ALGORITHMS

    parser = subparsers.add_parser(
        "imbalance", help="reductions under load imbalance (Marendić et al.)",
        description="Reductions whose processes start at different times: the paper's closed "
        "forms, and an exact message-level simulation of the MPI algorithms, LocalReduce, "
        "Algorithm 1, Tree-dyn and Non-Commut-Tree-dyn.")
    commands = parser.add_subparsers(dest="imbalance_command", metavar="COMMAND", required=True)

    formulas = commands.add_parser(
        "formulas", help="closed forms (1)-(4), exact, beside the simulated times",
        description="Marendić et al.'s equations (1)-(4), exactly as printed, evaluated in "
        "exact rationals; rabenseifner is null unless p is a power of two.",
        epilog="example:\n  hetcoll imbalance formulas --p 8 --elements 1000 --alpha 1e-6 "
        "--beta 1e-9 --gamma 2e-9", formatter_class=argparse.RawDescriptionHelpFormatter)
    _model_arguments(formulas)
    add_json_flag(formulas)
    formulas.set_defaults(func=_formulas)

    run = commands.add_parser(
        "run", help="simulate one algorithm (or all) under skew: T1-T5, T1_root",
        description="Simulate a reduction under start-time skew, message by message.  Fixed "
        "delays (--delays, --slow) give exact results; random ones (--gaussian, --gamma-skew) "
        "a Monte Carlo with common random numbers across algorithms.",
        epilog="example:\n  hetcoll imbalance run all --p 128 --elements 1024000 --alpha "
        "3.13e-6 --beta 2.63e-9 --gamma 3.90625e-9 --slow 5:0.04",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    run.add_argument("algorithm", metavar="ALGORITHM", choices=(*ALGORITHMS, "all"),
                     help=f"one of {', '.join(ALGORITHMS)}, or all")
    _model_arguments(run, platform=True)
    add_skew_flags(run)
    run.add_argument("--root", type=int, default=0, help="rank that receives the result "
                     "(default 0)")
    run.add_argument("--runs", type=int, help="random draws (default 1000; random skew only)")
    run.add_argument("--seed", type=int, help="random seed (default 0; random skew only)")
    run.add_argument("--jobs", type=int, default=1, help="worker threads, -1 for all cores "
                     "(results do not depend on it)")
    run.add_argument("--gantt", metavar="FILE", help="draw one run (the first draw for a random "
                     "skew) into FILE (.png, .pdf, .svg)")
    add_force_flag(run, "--gantt")
    add_json_flag(run)
    run.set_defaults(func=_run)


def _model_arguments(parser, platform: bool = False) -> None:
    group = parser.add_argument_group("cost model (numbers, decimals or p/q)")
    group.add_argument("--p", required=not platform, help="number of processes")
    group.add_argument("--elements", required=True, help="vector length n")
    group.add_argument("--alpha", required=True, help="latency per message (s)")
    group.add_argument("--beta", required=not platform, help="transfer time per element (s)")
    group.add_argument("--gamma", required=not platform, help="combine time per element (s); "
                       "a comma-separated list gives one per process (type 3 imbalance)")
    group.add_argument("--max-processes", type=int, default=1 << 16,
                       help="refuse p above this (default 65536)")
    if platform:
        group.add_argument("--platform", metavar="FILE", help="a hetcoll platform (JSON or "
                           "GraphML): its processors are the ranks, each link's cost is β per "
                           "element for that ordered pair (--beta for pairs without a link), "
                           "each processor's compute cost its γ (unless --gamma); then --p and "
                           "--beta are optional")


def _integer(text: str, flag: str) -> int:
    value = to_fraction(text, flag)
    if value.denominator != 1 or value < 1:
        raise InputError(f"{flag} must be a positive integer, got {text}")
    return int(value)


def _model(args, root: int = 0):
    from hetcoll.sim.imbalance import FlatModel

    if getattr(args, "platform", None) is not None:
        return _platform_model(args, root)
    for flag in ("beta", "gamma"):
        if getattr(args, flag) is None:
            raise InputError(f"--{flag} is required (or give --platform)")
    p = _integer(args.p, "--p")
    if p > args.max_processes:
        raise LimitError(f"--p {p} is over --max-processes {args.max_processes}")
    gamma = split_names(args.gamma, "--gamma")
    return FlatModel(p, _integer(args.elements, "--elements"), _number(args.alpha, "--alpha"),
                     _number(args.beta, "--beta"), gamma[0] if len(gamma) == 1 else gamma,
                     root=root, max_processes=args.max_processes)


def _platform_model(args, root: int):
    from hetcoll.core.platform import read_platform
    from hetcoll.sim.imbalance import FlatModel

    platform = read_platform(args.platform)
    p = len(platform.processors)
    if args.p is not None and _integer(args.p, "--p") != p:
        raise InputError(f"--p {args.p} disagrees with the {p} processors of --platform")
    if p > args.max_processes:
        raise LimitError(f"--platform has {p} processors, over --max-processes "
                         f"{args.max_processes}")
    gamma = None
    if args.gamma is not None:
        gamma = split_names(args.gamma, "--gamma")
        gamma = gamma[0] if len(gamma) == 1 else gamma
    return FlatModel.from_platform(platform, _integer(args.elements, "--elements"),
                                   _number(args.alpha, "--alpha"),
                                   None if args.beta is None else _number(args.beta, "--beta"),
                                   gamma, root)


def _number(text: str, flag: str):
    from hetcoll.core.numbers import nonnegative_number

    return nonnegative_number(text, flag)


def _inputs(args, model) -> dict:
    inputs = {"p": model.p, "elements": model.elements, "alpha": model.alpha,
              "beta": model.beta, "gamma": model.gamma, "root": model.root}
    if getattr(args, "platform", None) is not None:
        inputs["platform"] = args.platform
    return inputs


def _formulas(args) -> int:
    from hetcoll.sim.imbalance import simulate_reduction
    from hetcoll.sim.imbalance.formulas import closed_forms

    model = _model(args)
    forms = closed_forms(model.p, model.elements, model.alpha, model.beta, model.gamma
                         if not isinstance(model.gamma, list) else _refuse_list())
    simulated = {}
    for name in ("linear", "binary", "binomial", "direct-send", "rabenseifner"):
        if name == "rabenseifner" and model.p & (model.p - 1):
            simulated[name] = None
        else:
            simulated[name] = simulate_reduction(name, model, trace=False).T1_root
    if args.json:
        print_json({"formulas": forms,
                    "formulas_float": {k: None if v is None else float(v)
                                       for k, v in forms.items()},
                    "simulated_no_skew": simulated,
                    "simulated_no_skew_float": {k: None if v is None else float(v)
                                                for k, v in simulated.items()}},
                   inputs=_inputs(args, model))
        return 0
    print(f"p = {model.p}, n = {model.elements}: closed form vs simulated with no skew")
    print(f"{'algorithm':<14} {'formula':>14} {'simulated':>14}")
    for name in ("linear", "binary", "binomial", "direct-send", "rabenseifner"):
        formula = forms.get(name)
        print(f"{name:<14} {_show(formula):>14} {_show(simulated[name]):>14}")
    print("(formula (2), 'binary tree', is the binomial tree's time: see docs/imbalance.md)")
    return 0


def _refuse_list():
    raise InputError("--gamma: the closed forms take one gamma, not a list")


def _show(value) -> str:
    return "-" if value is None else f"{float(value):.6g}"


def _run(args) -> int:
    from hetcoll.sim.imbalance import ALGORITHMS, simulate_reduction
    from hetcoll.sim.imbalance.skew import DelayVector, sample_metrics, summarize_metrics

    names = list(ALGORITHMS) if args.algorithm == "all" else [args.algorithm]
    skew = parse_skew(args)
    model = _model(args)
    if not 0 <= args.root < model.p:
        raise InputError(f"--root must be a rank in 0..{model.p - 1}, got {args.root}")
    model = _model(args, root=args.root)
    # With `all`, leave out what this model refuses; the others still run.
    if args.algorithm == "all" and model.p & (model.p - 1):
        names.remove("rabenseifner")
    if args.algorithm == "all" and (not model.uniform or len(set(model.gammas)) > 1):
        names.remove("perfect-knowledge")
    gantt = image_path(args.gantt, args.force, "--gantt")
    if gantt is not None and model.p > GANTT_MAX_PROCESSES:
        raise LimitError(f"--gantt draws at most {GANTT_MAX_PROCESSES} processes, p = "
                         f"{model.p}")
    inputs = _inputs(args, model)
    if not skew.random:
        for flag in ("runs", "seed"):
            if getattr(args, flag) is not None:
                raise InputError(f"--{flag} applies to random skew (--gaussian, --gamma-skew)")
        delays = skew.vector(model.p) if skew != DelayVector(()) else [0] * model.p
        results = {name: simulate_reduction(name, model, delays, trace=gantt is not None)
                   for name in names}
        rows = {name: r.metric_dict() for name, r in results.items()}
        inputs["delays"] = delays
        drawn = results
    else:
        runs = 1000 if args.runs is None else args.runs
        seed = 0 if args.seed is None else args.seed
        samples = sample_metrics(names, model, skew, runs=runs, seed=seed, n_jobs=args.jobs)
        rows = summarize_metrics(samples)
        inputs |= {"skew": type(skew).__name__, "skew_parameters": vars(skew), "runs": runs,
                   "seed": seed}
        drawn = None
        if gantt is not None:
            import numpy as np

            first = skew.sample(np.random.default_rng(np.random.SeedSequence(seed).spawn(1)[0]),
                                1, model.p)[0]
            drawn = {name: simulate_reduction(name, model, [float(d) for d in first])
                     for name in names}
    if gantt is not None:
        _draw(list(drawn.values()), gantt)
    if args.json:
        print_json({"algorithms": rows}, inputs=inputs)
        return 0
    metrics = ("T1", "T2", "T3", "T4", "T5", "T1_root")
    print(f"{'algorithm':<20}" + "".join(f" {m:>12}" for m in metrics))
    for name, row in sorted(rows.items(), key=lambda item: item[1]["T1_root"]):
        print(f"{name:<20}" + "".join(f" {row[m]:>12.6g}" for m in metrics))
    if skew.random:
        print(f"means over {rows[names[0]]['runs']} draws (--json adds the 10% and 90% "
              f"quantiles)")
    else:
        exact = [r for r in drawn.values() if "T1_root_exact" in r.metric_dict()]
        for r in exact:
            print(f"{r.algorithm}: T1_root = {fraction_str(r.T1_root)} exactly")
    if gantt is not None:
        print(f"Gantt chart written to {gantt}")
    return 0


def _draw(results, path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    p = results[0].p
    fig, axes = plt.subplots(len(results), 1, squeeze=False,
                             figsize=(11, len(results) * (0.35 * p + 1.5)))
    for result, ax in zip(results, axes[:, 0], strict=True):
        result.gantt(ax=ax)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
