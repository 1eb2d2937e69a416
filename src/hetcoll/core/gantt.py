"""Gantt charts shared by the simulator traces and the periodic schedules."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

__all__ = ["GanttBar", "gantt_chart"]


@dataclass(frozen=True)
class GanttBar:
    """One busy interval on one row of a Gantt chart.

    Attributes
    ----------
    row : str
        Row label, e.g. ``"P3 send"`` or ``"P3 compute"``.
    start, end : float
        Interval in time units (exact rationals are converted by the caller
        or accepted as anything ``float()`` understands).
    group : hashable
        Colour key (a tree index, a kind of operation...). Equal groups share
        a colour.
    label : str
        Short text drawn inside the bar when it fits.
    """

    row: str
    start: float
    end: float
    group: Hashable = 0
    label: str = ""


def gantt_chart(
    bars: Iterable[GanttBar],
    *,
    ax=None,
    title: str | None = None,
    row_order: Sequence[str] | None = None,
    legend_title: str | None = None,
):
    """Draw ``bars`` as a Gantt chart with matplotlib.

    Parameters
    ----------
    bars : iterable of GanttBar
    ax : matplotlib Axes, optional
        Drawn into a new figure when omitted.
    title : str, optional
    row_order : sequence of str, optional
        Top-to-bottom order of the rows; by default, order of first
        appearance.
    legend_title : str, optional
        When given (and there are at most 20 groups), a legend of the groups.

    Returns
    -------
    matplotlib.axes.Axes
    """
    import matplotlib.pyplot as plt

    bars = list(bars)
    rows = list(row_order) if row_order is not None else list(dict.fromkeys(b.row for b in bars))
    position = {row: i for i, row in enumerate(rows)}
    groups = list(dict.fromkeys(b.group for b in bars))
    cmap = plt.get_cmap("tab20" if len(groups) > 10 else "tab10")
    colour = {g: cmap(i % cmap.N) for i, g in enumerate(groups)}
    if ax is None:
        _, ax = plt.subplots(figsize=(10, 0.45 * len(rows) + 1.5))
    for bar in bars:
        y = position[bar.row]
        width = float(bar.end) - float(bar.start)
        ax.barh(y, width, left=float(bar.start), height=0.8, color=colour[bar.group],
                edgecolor="black", linewidth=0.5)
        if bar.label:
            ax.text(float(bar.start) + width / 2, y, bar.label, ha="center", va="center",
                    fontsize=7, clip_on=True)
    ax.set_yticks(range(len(rows)), rows)
    ax.invert_yaxis()
    ax.set_xlabel("time")
    if title:
        ax.set_title(title)
    if legend_title and 1 < len(groups) <= 20:
        from matplotlib.patches import Patch

        ax.legend(handles=[Patch(color=colour[g], label=str(g)) for g in groups],
                  title=legend_title, fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))
    ax.figure.tight_layout()
    return ax
