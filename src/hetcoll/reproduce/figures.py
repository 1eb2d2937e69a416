"""RR 8315's Figures 4 to 6, redrawn from the sweeps (PNG and PDF).

Figure 4: mean makespan per CV with the 10%-90% quantile ribbon of each
method.  Figure 5: the ratio of Fibonacci-stat's mean to Tree-dyn's over
CV × μ_c/μ_d, with the contour line at 1.  Figure 6: the method of best mean
among the non-commutative ones, per square.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

__all__ = ["figure4", "figure5", "figure6"]

#: Colours of the methods, as in RR Figure 4's legend order.
COLOURS = {"binomial-stat": "tab:orange", "fibonacci-stat": "tab:green",
           "tree-dyn": "tab:blue", "noncommut-tree-dyn": "tab:purple"}


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(fig, out: Path, name: str) -> list[Path]:
    paths = [out / f"{name}.png", out / f"{name}.pdf"]
    for path in paths:
        # A fixed creation date keeps the PDF identical from run to run.
        fig.savefig(path, dpi=120, metadata={"CreationDate": None} if path.suffix == ".pdf"
                    else None)
    _pyplot().close(fig)
    return paths


def figure4(cvs: Sequence[float], cells: Sequence[dict], out: Path, runs: int) -> list[Path]:
    """Draw Figure 4; return the PNG and PDF paths.

    Parameters
    ----------
    cvs : sequence of float
    cells : sequence of dict
        Per CV, ``{method: {"mean", "quantiles": {"0.1", "0.9"}}}``.
    out : Path
    runs : int
        Runs per CV (for the caption).

    Returns
    -------
    list of Path
    """
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8, 5))
    for method, colour in COLOURS.items():
        mean = [c[method]["mean"] for c in cells]
        low = [c[method]["quantiles"]["0.1"] for c in cells]
        high = [c[method]["quantiles"]["0.9"] for c in cells]
        ax.plot(cvs, mean, marker="o", color=colour, label=method)
        ax.fill_between(cvs, low, high, color=colour, alpha=0.2)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("coefficient of variation of the communication costs")
    ax.set_ylabel("makespan (mean; ribbon: 10% to 90% quantiles)")
    ax.set_title(f"RR 8315 Figure 4: n = 64, μ_d = 1, μ_c = 0, {runs:,} runs per CV")
    ax.legend()
    fig.tight_layout()
    return _save(fig, out, "figure4")


def _grid_axes(ax, cvs, ratios):
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("coefficient of variation (CV_c = CV_d)")
    ax.set_ylabel("μ_c / μ_d")
    ax.set_xlim(cvs[0], cvs[-1])
    ax.set_ylim(ratios[0], ratios[-1])


def _edges(values: Sequence[float]) -> np.ndarray:
    """Cell edges on a log axis, half-way (geometrically) between the centres."""
    logs = np.log10(values)
    middle = (logs[1:] + logs[:-1]) / 2
    return 10 ** np.concatenate([[2 * logs[0] - middle[0]], middle,
                                 [2 * logs[-1] - middle[-1]]])


def figure5(cvs: Sequence[float], ratios: Sequence[float], ratio: np.ndarray, out: Path,
            runs: int) -> list[Path]:
    """Draw Figure 5: ``ratio[i, j]`` at μ_c/μ_d = ratios[i], CV = cvs[j]; contour at 1."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 5))
    mesh = ax.pcolormesh(_edges(cvs), _edges(ratios), ratio, cmap="RdBu_r",
                         vmin=min(ratio.min(), 2 - ratio.max()),
                         vmax=max(ratio.max(), 2 - ratio.min()))
    fig.colorbar(mesh, ax=ax, label="mean Fibonacci-stat / mean Tree-dyn")
    if ratio.min() < 1 < ratio.max():
        contour = ax.contour(cvs, ratios, ratio, levels=[1.0], colors="black")
        ax.clabel(contour, fmt="%g")
    _grid_axes(ax, _edges(cvs)[[0, -1]], _edges(ratios)[[0, -1]])
    ax.set_title(f"RR 8315 Figure 5: n = 64, μ_d = 1, {runs:,} runs per square")
    fig.tight_layout()
    return _save(fig, out, "figure5")


def figure6(cvs: Sequence[float], ratios: Sequence[float], best: np.ndarray,
            methods: Sequence[str], out: Path, runs: int) -> list[Path]:
    """Draw Figure 6: ``best[i, j]`` indexes ``methods`` (the best mean) per square."""
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Patch

    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 5))
    colours = [COLOURS[m] for m in methods]
    ax.pcolormesh(_edges(cvs), _edges(ratios), best, cmap=ListedColormap(colours),
                  vmin=-0.5, vmax=len(methods) - 0.5)
    ax.legend(handles=[Patch(color=c, label=m) for m, c in zip(methods, colours, strict=True)],
              loc="upper left", fontsize="small")
    _grid_axes(ax, _edges(cvs)[[0, -1]], _edges(ratios)[[0, -1]])
    ax.set_title(f"RR 8315 Figure 6: best mean, n = 64, {runs:,} runs per square")
    fig.tight_layout()
    return _save(fig, out, "figure6")
