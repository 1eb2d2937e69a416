"""``hetcoll bounds``, ``hetcoll verify``, ``hetcoll optimum``: approximation analysis.

- ``hetcoll bounds [--delta D] [--n N] [--latex] [--json]``: Table 1 of
  RR 8315; JSON: a list of ``{"algorithm", "regime", "theorem", "expression",
  "value", ...}`` (``value`` is null unless both Δ and n are given).
- ``hetcoll verify [--examples K] [--seed S] [--json]``: checks Theorems 1 to 5
  and Marendić's Lemma 1 on random instances against the clairvoyant optimum;
  exit status 1 if a check fails (a refuted theorem is a finding, not a
  failure).
- ``hetcoll optimum --costs FILE.json [--noncommutative] [--json]``: the
  clairvoyant optimum and its tree (cost file as for ``hetcoll simulate``).
"""

from __future__ import annotations

import argparse
import math
import sys
from fractions import Fraction

from hetcoll.cli._common import (
    add_force_flag,
    add_json_flag,
    image_path,
    print_json,
    read_costs_option,
    to_jsonable,
)
from hetcoll.core.errors import InputError, LimitError
from hetcoll.core.numbers import fraction_str, to_fraction
from hetcoll.core.results import exact_pair


#: Image formats of ``hetcoll optimum --gantt`` (matplotlib rejects others mid-run).
def register(subparsers) -> None:
    bounds = subparsers.add_parser(
        "bounds", help="Table 1: approximation ratios of the non-clairvoyant reductions",
        description="Print Table 1 of Benoit, Canon, Marchal (RR 8315, section 4): the proven "
        "approximation ratio of Binomial-stat, Tree-dyn and Fibonacci-stat for c = 0, any c "
        "and c = d, symbolic in Delta = D/d and n, or evaluated.",
        epilog="example:\n  hetcoll bounds --delta 2 --n 64 --json",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    bounds.add_argument("--delta", metavar="D", help="Delta = D/d >= 1 (number or p/q)")
    bounds.add_argument("--n", type=int, metavar="N", help="number of processors, >= 2")
    bounds.add_argument("--latex", action="store_true", help="print a LaTeX tabular")
    bounds.add_argument("--with-misprint", action="store_true",
                        help="also list HeteroPar's misprinted Fibonacci-stat c=d cell")
    add_json_flag(bounds)
    bounds.set_defaults(func=run_bounds)

    verify = subparsers.add_parser(
        "verify", help="check Theorems 1-5 and Marendic's Lemma 1 on random instances",
        description="Simulate every Table 1 algorithm on random instances (costs in [d, D], "
        "c_i = c) and check makespan <= ratio x proof lower bound and <= ratio x clairvoyant "
        "optimum, exactly; check Marendic et al.'s Lemma 1 (Algorithm 1 optimal for tau = 0). "
        "Exit status 1 if a check fails; a refuted theorem is reported, not counted as a "
        "failure.",
        epilog="example:\n  hetcoll verify --examples 200 --seed 1",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    verify.add_argument("--examples", type=int, default=200, metavar="K",
                        help="random instances per regime (default 200)")
    verify.add_argument("--seed", type=int, default=0, metavar="S", help="seed (default 0)")
    verify.add_argument("--n-max", type=int, default=7, metavar="N",
                        help="largest number of processors, 2..8 (default 7)")
    verify.add_argument("--max-examples", type=int, default=100_000, metavar="K",
                        help="refuse more --examples than this before any work (default "
                        "100000: about an hour per regime; the instances' parameters are "
                        "drawn up front)")
    add_json_flag(verify)
    verify.set_defaults(func=run_verify)

    optimum = subparsers.add_parser(
        "optimum", help="clairvoyant optimum of a reduction (exact; n <= 12, 40 non-commutative)",
        description="The minimum makespan of a reduction over every tree and order of "
        "receptions, all costs known (exact DP over subsets, or intervals with "
        "--noncommutative), and its tree.",
        epilog="example:\n  hetcoll optimum --costs examples/costs/heterogeneous_5.json",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    optimum.add_argument("--costs", metavar="FILE.json", required=True,
                         help='JSON object with "comm" (n x n matrix), "comp" (list of n) and '
                         'optionally "start_times"; numbers or "p/q" strings')
    optimum.add_argument("--noncommutative", action="store_true",
                         help="only reduce neighbouring intervals v[k,m]")
    optimum.add_argument("--root", type=int, metavar="R",
                         help="processor that must end with the result (default: any)")
    optimum.add_argument("--max-processors", type=int, metavar="N",
                         help="refuse larger instances before any work (default 12, or 40 with "
                         "--noncommutative: about 30 s and 12 s; the work grows like n^2 3^(n-1) "
                         "and n^4)")
    optimum.add_argument("--gantt", metavar="FILE",
                         help="draw the schedule into FILE (.png, .pdf or .svg)")
    add_force_flag(optimum, "--gantt")
    add_json_flag(optimum)
    optimum.set_defaults(func=run_optimum)


def run_bounds(args) -> int:
    from hetcoll.analytics import HETEROPAR_MISPRINT, render_table, table1

    delta = None if args.delta is None else to_fraction(args.delta, "--delta")
    if args.json and args.latex:
        raise InputError("--latex and --json are exclusive")
    cells = table1() + ([HETEROPAR_MISPRINT] if args.with_misprint else [])
    try:
        evaluated = [cell.evaluate(delta, args.n) for cell in cells]
    except InputError as error:
        raise InputError(f"--delta/--n: {error}") from None
    if args.json:
        both = delta is not None and args.n is not None
        print_json({"cells": [{"algorithm": cell.algorithm, "regime": cell.regime,
                               "theorem": cell.theorem, "expression": cell.text(),
                               **(_value(value) if both else exact_pair("value", None)),
                               "evaluated": cell.text(delta, args.n),
                               "latex": cell.latex(), "tight": cell.tight or None,
                               "note": cell.note or None}
                              for cell, value in zip(cells, evaluated, strict=True)]},
                   inputs={"delta": delta, "n": args.n, "with_misprint": args.with_misprint})
        return 0
    print(render_table(delta, args.n, fmt="latex" if args.latex else "plain"))
    if not args.latex:
        print("\nDelta = D/d; phi = golden ratio (1/log2(phi) ~ 1.44). Tight: Theorem 1 exactly, "
              "Theorem 4 as n grows.\nHeteroPar's Table 1 prints Delta for Fibonacci-stat at "
              "c = d: a misprint (RR 8315, Theorem 5),\nthough Delta holds: (k Delta + 1)/(k + 1) "
              "<= Delta from the proofs of Theorems 4 and 5.")
    return 0


def _value(value) -> dict:
    """A cell's value as ``value`` (float) and ``value_exact`` (``"p/q"`` when rational)."""
    exact = Fraction(int(value.p), int(value.q)) if value.is_Rational else None
    number = float(value)
    if not math.isfinite(number):
        raise InputError(f"--delta/--n: the bound {value} overflows floating point")
    return {"value": number, "value_exact": None if exact is None else fraction_str(exact)}


def run_verify(args) -> int:
    from hetcoll.analytics import verify_lemma1, verify_theorems

    if args.examples > args.max_examples:
        raise LimitError(f"--examples {args.examples} is over --max-examples "
                         f"{args.max_examples}; raise it with --max-examples")
    checks = verify_theorems(args.examples, args.seed, n_max=args.n_max,
                             progress=not args.json and sys.stderr.isatty())
    checks.append(verify_lemma1(args.examples, args.seed, n_max=min(args.n_max, 8)))
    failed = any(check.verdict == "fail" for check in checks)
    if args.json:
        print_json({"status": int(failed),
                    "message": "a theorem check failed" if failed else "every check passed",
                    "checks": [check.to_dict() for check in checks]},
                   inputs={"examples": args.examples, "seed": args.seed, "n_max": args.n_max})
        return 1 if failed else 0
    print(f"{args.examples} random instances per regime, n in 2..{args.n_max}, seed {args.seed}")
    print(f"{'theorem':<17} {'algorithm':<20} {'regime':<6} {'instances':>9} "
          f"{'worst ratio':>11} {'bound there':>11} {'max ratio/bound':>15}  status")
    for check in checks:
        print(f"{check.theorem:<17} {check.algorithm:<20} {check.regime:<6} "
              f"{check.instances:>9} {float(check.worst_ratio):>11.4f} "
              f"{check.bound_at_worst:>11.4f} {check.closest_to_bound:>15.4f}  {check.verdict}"
              + (f" ({check.proof_gaps} proof gaps)" if check.proof_gaps else ""))
    for check in checks:
        if check.counterexample is not None:
            print(f"\n{check.theorem} ({check.algorithm}, {check.regime}) {check.verdict}: "
                  f"{to_jsonable(check.counterexample)}")
    return 1 if failed else 0


def run_optimum(args) -> int:
    from hetcoll.analytics import clairvoyant_optimum

    gantt = image_path(args.gantt, args.force, "--gantt")
    if args.max_processors is not None and args.max_processors < 1:
        raise InputError(f"--max-processors must be at least 1, got {args.max_processors}")
    cost_file = read_costs_option(args.costs)
    try:
        result = clairvoyant_optimum(cost_file.costs.d, cost_file.costs.c,
                                     noncommutative=args.noncommutative,
                                     start_times=cost_file.start_times, root=args.root,
                                     max_processors=args.max_processors,
                                     progress=not args.json and sys.stderr.isatty())
    except LimitError as error:
        raise LimitError(f"{error}; raise it with --max-processors") from None
    if gantt is not None:
        _draw(result, gantt)
    if args.json:
        print_json(result, inputs={"costs": args.costs, "n": cost_file.n,
                                   "noncommutative": args.noncommutative, "root": args.root})
        return 0
    kind = "non-commutative" if result.noncommutative else "commutative"
    print(f"clairvoyant optimum ({kind}): makespan {fraction_str(result.makespan)} "
          f"({float(result.makespan):g}); result on P{result.root}")
    print("tree (children in order of reception):")
    print(result.tree_text())
    print("schedule:")
    for op in result.operations:
        print(f"  P{op.sender} -> P{op.receiver}: transfer [{fraction_str(op.transfer_start)}, "
              f"{fraction_str(op.transfer_end)}], reduce [{fraction_str(op.compute_start)}, "
              f"{fraction_str(op.compute_end)}]")
    if gantt is not None:
        print(f"Gantt chart written to {gantt}")
    return 0


def _draw(result, path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    from hetcoll.core.gantt import GanttBar, gantt_chart

    bars = []
    for op in result.operations:
        bars.append(GanttBar(f"P{op.receiver} comm", float(op.transfer_start),
                             float(op.transfer_end), "transfer", f"<-{op.sender}"))
        bars.append(GanttBar(f"P{op.receiver} comp", float(op.compute_start),
                             float(op.compute_end), "reduce", f"{op.sender}"))
    n = len(result.children)
    rows = [f"P{i} {kind}" for i in range(n) for kind in ("comm", "comp")]
    ax = gantt_chart(bars, title=f"clairvoyant optimum, makespan {float(result.makespan):g}",
                     row_order=rows, legend_title="operation")
    ax.figure.savefig(path)
