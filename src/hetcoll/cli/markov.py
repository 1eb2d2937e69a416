"""``hetcoll markov``: makespan distribution of the dynamic reductions with exponential costs."""

from __future__ import annotations

import argparse
import sys
from fractions import Fraction

from hetcoll.cli._common import (
    add_force_flag,
    add_json_flag,
    image_path,
    print_json,
    print_warnings,
    split_names,
)
from hetcoll.core.display import number_text
from hetcoll.core.errors import InputError, LimitError
from hetcoll.core.numbers import fraction_str, positive_fraction, to_fraction

CHAINS = {
    "tree-dyn": "Tree-dyn (commutative reduction, one slot)",
    "noncommut-tree-dyn": "Non-Commut-Tree-dyn (neighbouring intervals; left neighbour first, "
                          "the right interval's holder sends)",
}


def register(subparsers) -> None:
    """Add ``hetcoll markov tree-dyn`` and ``hetcoll markov noncommut-tree-dyn``."""
    parser = subparsers.add_parser(
        "markov", help="exact CTMC analysis of Tree-dyn and Non-Commut-Tree-dyn",
        description="Makespan of the dynamic reductions when every transfer and every "
        "reduction takes an exponential time (Benoit, Canon, Marchal, RR 8315, section 5): "
        "mean, variance (exact rationals with --exact) and quantiles.")
    chains = parser.add_subparsers(dest="chain", metavar="ALGORITHM", required=True)
    for name, text in CHAINS.items():
        sub = chains.add_parser(name, help=text, description=f"CTMC of {text}.")
        sub.add_argument("--n", type=int, required=True, help="number of processors (>= 1)")
        sub.add_argument("--rate-comm", default="1", metavar="L",
                         help="rate lambda_d of a transfer (mean time 1/L); '3', '1/2', '0.5' "
                         "(default 1)")
        sub.add_argument("--rate-comp", default=None, metavar="L",
                         help="rate lambda_c of a reduction; omit for zero computation cost")
        sub.add_argument("--exact", action="store_true",
                         help="also compute the mean and variance as exact rationals")
        sub.add_argument("--quantiles", default="0.1,0.9", metavar="P,P",
                         help="comma-separated probabilities in (0,1) (default 0.1,0.9); "
                         "'' for none")
        if name == "tree-dyn":
            sub.add_argument("--max-states", type=int, default=10_000_000,
                             help="give up, before building, beyond this many states: "
                             "n^2/4 + n - 1 with --rate-comp, n - 1 without (default "
                             "10000000, about 4 GB)")
        if name == "noncommut-tree-dyn":
            sub.add_argument("--max-states", type=int, default=2_000_000,
                             help="give up beyond this many states (default 2000000)")
            sub.add_argument("--max-transitions", type=int, default=30_000_000,
                             help="give up beyond this many transitions, which bound the "
                             "memory (default 30000000, a few GB)")
        sub.add_argument("--plot", metavar="FILE", default=None,
                         help="save a plot of the density and CDF of the makespan (PNG, PDF...)")
        sub.add_argument("--max-exact-states", type=int, default=30_000,
                         help="with --exact, give up beyond this many states: exact moments "
                         "carry thousands of digits per state (default 30000; tree-dyn n = 300 "
                         "with --rate-comp, 22799 states, takes about 20 s and 400 MB)")
        add_force_flag(sub, "--plot")
        add_json_flag(sub)
        sub.set_defaults(func=run)


def _rate(text: str, flag: str):
    """A positive exact rate in [1e-100, 1e100], so that the float moments are representable."""
    rate = positive_fraction(text, flag)
    # The k-th moment scales like rate^-k: keep the float results representable
    # (the same range as markov's chains check).
    if not Fraction(1, 10**100) <= rate <= 10**100:
        raise InputError(f"{flag} {text} is out of range: rates must lie in [1e-100, 1e100]")
    return rate


def _probabilities(text: str) -> dict[str, float]:
    """``{as typed: probability}``: JSON keys and text rows show what the user wrote."""
    if not text.strip():
        return {}
    probs = {}
    for item in split_names(text, "--quantiles"):
        p = float(to_fraction(item, f"--quantiles item {item!r}"))
        if not 0.0 < p < 1.0:
            raise InputError(f"--quantiles: {item} is not strictly between 0 and 1")
        probs[item] = p
    return probs


def run(args: argparse.Namespace) -> int:
    """Build the chain, analyse it, print the result."""
    from hetcoll.markov import absorption_time, noncommut_tree_dyn_chain, tree_dyn_chain

    if args.n < 1:
        raise InputError(f"--n must be at least 1, got {args.n}")
    rate_comm = _rate(args.rate_comm, "--rate-comm")
    rate_comp = None if args.rate_comp is None else _rate(args.rate_comp, "--rate-comp")
    probs = _probabilities(args.quantiles)
    plot = image_path(args.plot, args.force, "--plot")
    guards = [("--max-states", args.max_states), ("--max-exact-states", args.max_exact_states)]
    if args.chain == "noncommut-tree-dyn":
        guards.append(("--max-transitions", args.max_transitions))
    for flag, value in guards:
        if value < 1:
            raise InputError(f"{flag} must be at least 1, got {value}")
    progress = sys.stderr.isatty()
    try:
        if args.chain == "tree-dyn":
            chain = tree_dyn_chain(args.n, rate_comm, rate_comp, max_states=args.max_states)
        else:
            chain = noncommut_tree_dyn_chain(args.n, rate_comm, rate_comp,
                                             max_states=args.max_states,
                                             max_transitions=args.max_transitions,
                                             progress=progress)
    except LimitError as error:
        flag = "--max-transitions" if "max_transitions" in str(error) else "--max-states"
        raise LimitError(f"{error}; raise it with {flag}") from None
    if args.exact and chain.n_states > args.max_exact_states:
        # Exact moments hold thousands of digits per state (n = 300: 21 s, 400 MB).
        raise LimitError(f"--exact on a chain of {chain.n_states} states, over "
                         f"--max-exact-states {args.max_exact_states}; raise it with "
                         "--max-exact-states")
    result = absorption_time(chain, exact=args.exact, quantiles=list(probs.values()),
                             progress=progress)
    by_probability = dict(zip(probs.values(), probs, strict=True))
    out = {
        "algorithm": args.chain,
        "n": args.n,
        "rate_comm": rate_comm,
        "rate_comp": rate_comp,
        **result.to_dict(),
        "quantiles": {text: result.quantiles[p] for text, p in probs.items()},
    }
    del out["status"], out["message"]  # the envelope's
    if plot is not None:
        _plot(chain, result, args, plot)
        out["plot"] = str(plot)
    print_warnings(args.command, result.warnings)
    if args.json:
        print_json({"status": result.status, "message": result.message, **out},
                   inputs={"algorithm": args.chain, "n": args.n, "rate_comm": rate_comm,
                           "rate_comp": rate_comp, "exact": args.exact,
                           "quantiles": list(probs)})
        return 0
    comp = "zero" if rate_comp is None else f"rate {number_text(rate_comp)}"
    print(f"{args.chain}, n = {args.n}: transfers at rate {number_text(rate_comm)}, "
          f"reductions {comp}")
    print(f"  states       {result.states} ({result.transitions} transitions)")
    print(f"  mean         {result.mean:.10g}"
          + (f" = {fraction_str(result.mean_exact)}" if result.mean_exact is not None else ""))
    print(f"  variance     {result.variance:.10g}"
          + (f" = {fraction_str(result.variance_exact)}"
             if result.variance_exact is not None else ""))
    for p, t in result.quantiles.items():
        print(f"  quantile {by_probability[p]:<4} {t:.10g}")
    if plot is not None:
        print(f"  plot         {plot}")
    return 0


def _plot(chain, result, args, path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    from hetcoll.markov import absorption_cdf, absorption_pdf

    times = np.linspace(0.0, result.mean + 5 * result.variance ** 0.5, 200)
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8))
    left.plot(times, absorption_pdf(chain, times))
    left.set(xlabel="makespan", ylabel="density", title=f"{args.chain}, n = {args.n}")
    right.plot(times, absorption_cdf(chain, times))
    right.set(xlabel="makespan", ylabel="P(makespan <= t)")
    for ax in (left, right):
        ax.axvline(result.mean, color="grey", linestyle="--", label="mean")
        for t in result.quantiles.values():
            ax.axvline(t, color="grey", linestyle=":")
    left.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
