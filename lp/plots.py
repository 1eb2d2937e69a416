"""Pictures of a steady-state solution."""

from __future__ import annotations

import numpy as np

from hetcoll.lp.steady_state import SteadyStateResult

__all__ = ["plot_utilisation"]


def plot_utilisation(result: SteadyStateResult, *, ax=None):
    """Bar chart of every processor's busy fraction: out-port, in-port and compute.

    Saturated resources that constrain TP (positive dual value) are hatched, so the
    bottlenecks stand out.

    Parameters
    ----------
    result : SteadyStateResult
    ax : matplotlib Axes, optional
        Drawn into a new figure when omitted.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> from hetcoll.lp import read_platform, steady_state_reduce_lp
    >>> p = read_platform("examples/two_sites.json")
    >>> ax = plot_utilisation(steady_state_reduce_lp(p, **p.reduce_defaults))

    Raises
    ------
    KeyError
        If ``result`` has no optimum (its utilisations are empty): plot only a
        result with ``success`` True.

    References
    ----------
    Legrand, Marchal, Robert (2004), "Platform model" (one-port: busy fractions at
    most 1; alpha(P_i) the computing fraction); NOTES.md §1.
    """
    import matplotlib.pyplot as plt

    names = result.platform.names
    series = [("out-port", [result.port_utilisation[n]["out"] for n in names]),
              ("in-port", [result.port_utilisation[n]["in"] for n in names])]
    if result.operation.has_tasks:
        series.append(("compute", [result.compute_utilisation[n] for n in names]))
    tight = {(b["kind"], b["processor"]) for b in result.bottlenecks}
    if ax is None:
        _, ax = plt.subplots(figsize=(min(14.0, 2.0 + 0.35 * len(names) * len(series)), 3.5))
    width = 0.8 / len(series)
    x = np.arange(len(names))
    for s, (kind, values) in enumerate(series):
        bars = ax.bar(x + (s - (len(series) - 1) / 2) * width, values, width, label=kind)
        for bar, name in zip(bars, names, strict=True):
            if (kind, name) in tight:
                bar.set_hatch("///")
                bar.set_edgecolor("black")
    ax.set_xticks(x, names)
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("busy fraction of time")
    tp = (f"TP = {result.throughput_exact}" if result.certified
          else f"TP ≈ {result.throughput:.4g}")
    ax.set_title(f"{result.kind}: {tp} (hatched: bottlenecks)")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.figure.tight_layout()
    return ax
