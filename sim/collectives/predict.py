"""Predicted time of one scatterv or gatherv over a tree, pairwise one-port model.

One-port, full duplex: a process sends one message at a time and receives one at a
time, and may do both at once.  Exact with rational inputs.

- Scatterv: the root starts at 0.  A node that holds its subtree's data sends to its
  children one after another, in its list order; the message to child c carries c's
  whole subtree (M_c units) and takes t(node, c, M_c).  Completion is when the last
  process holds its block.
- Gatherv: every block is ready at 0.  A node receives from its children one at a
  time, in its list order; each transfer starts when the child holds its subtree's
  data and the node's receive port is free, and takes t(c, node, M_c).  The node
  then sends the aggregate to its parent.  Completion is when the root holds
  everything.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from hetcoll.core.errors import InputError
from hetcoll.core.gantt import GanttBar, gantt_chart
from hetcoll.core.results import Result
from hetcoll.sim.collectives.model import PointToPoint
from hetcoll.sim.collectives.trees import CommTree

__all__ = ["Transfer", "TreePrediction", "pairwise_prediction", "subtree_volumes",
           "transfer_order", "tree_gantt"]


@dataclass(frozen=True)
class Transfer:
    """One message of a tree: ``size`` units from ``source`` to ``target``."""

    source: str
    target: str
    size: Fraction
    start: Fraction
    end: Fraction


@dataclass
class TreePrediction(Result):
    """Predicted run of one scatterv or gatherv.

    Attributes
    ----------
    status : int
        0.
    message : str
    time : Fraction
        Completion time.
    done : dict of str to Fraction
        Scatterv: when each process holds its block.  Gatherv: when each process
        holds its whole subtree's data.
    transfers : list of Transfer
        In start order of the tree's sequence (per node, in its list order).
    """

    status: int
    message: str
    time: Fraction
    done: dict[str, Fraction] = field(default_factory=dict)
    transfers: list[Transfer] = field(default_factory=list)


def subtree_volumes(tree: CommTree, sizes: Mapping[str, Fraction]) -> dict[str, Fraction]:
    """M_v: the total block size of v's subtree (v's own block included).

    Raises
    ------
    InputError
        If the tree and ``sizes`` do not cover the same processes.

    Examples
    --------
    >>> from hetcoll.sim.collectives.trees import binomial_tree
    >>> sizes = dict(zip("ABCD", map(Fraction, [1, 2, 3, 4])))
    >>> subtree_volumes(binomial_tree("scatterv", "A", sizes), sizes)["C"]
    Fraction(7, 1)
    """
    if set(tree.parent) != set(sizes):
        extra = sorted(set(tree.parent) ^ set(sizes))[0]
        raise InputError(f"the tree and the sizes disagree on process {extra!r}")
    volume = dict(sizes)
    for node in reversed(_preorder(tree)):
        for child in tree.children[node]:
            volume[node] += volume[child]
    return volume


def _preorder(tree: CommTree) -> list[str]:
    order, stack = [], [tree.root]
    while stack:
        node = stack.pop()
        order.append(node)
        stack.extend(reversed(tree.children[node]))
    return order


def transfer_order(tree: CommTree) -> list[tuple[str, str]]:
    """The tree's messages (sender, receiver), each after every message it waits for.

    Scatterv: a node's sends in its list order, after the message to that node.
    Gatherv: a node's receptions in its list order, after its children's own.

    Examples
    --------
    >>> from hetcoll.sim.collectives.trees import binomial_tree
    >>> sizes = dict.fromkeys("ABCD", Fraction(1))
    >>> transfer_order(binomial_tree("gatherv", "A", sizes))
    [('D', 'C'), ('B', 'A'), ('C', 'A')]
    """
    order = _preorder(tree)
    if tree.kind == "scatterv":
        return [(v, c) for v in order for c in tree.children[v]]
    # Post-order (children before parents) keeps each node's list order.
    post, stack = [], [(tree.root, False)]
    while stack:
        node, expanded = stack.pop()
        if expanded:
            post.extend((c, node) for c in tree.children[node])
            continue
        stack.append((node, True))
        stack.extend((c, False) for c in reversed(tree.children[node]))
    return post


def _link_time(model: PointToPoint, src: str, dst: str, size: Fraction) -> Fraction:
    time = model.time(src, dst, size)
    if time is None:
        raise InputError(f"no link {src}->{dst} in the platform, and the tree sends "
                         f"{src}->{dst}")
    return time


def pairwise_prediction(tree: CommTree, sizes: Mapping[str, Fraction],
                        model: PointToPoint) -> TreePrediction:
    """Completion time of ``tree`` on independent links (one-port, full duplex).

    Parameters
    ----------
    tree : CommTree
    sizes : mapping of str to Fraction
        Every process's own block.
    model : PointToPoint
        t(i, j, m), exact.

    Returns
    -------
    TreePrediction
        Exact when the model's times are.

    Raises
    ------
    InputError
        If a pair the tree uses has no link (naming the pair), or the tree and the
        sizes disagree.

    See Also
    --------
    hetcoll.sim.collectives.routed.routed_prediction : with shared links.

    Examples
    --------
    >>> from hetcoll.sim.collectives.model import StarHockney
    >>> from hetcoll.sim.collectives.trees import flat_tree
    >>> model = StarHockney.build("ABC", [0, 0, 0], [1, 1, 1])
    >>> sizes = {"A": Fraction(0), "B": Fraction(2), "C": Fraction(3)}
    >>> pairwise_prediction(flat_tree("scatterv", "A", sizes), sizes, model).time
    Fraction(5, 1)

    References
    ----------
    Dichev, Rychkov, Lastovetsky, §2 (t(i, j, m)); the one-port model of Legrand,
    Marchal, Robert (2004).
    """
    volume = subtree_volumes(tree, sizes)
    done: dict[str, Fraction] = dict.fromkeys(tree.parent, Fraction(0))
    port = dict(done)  # when each node's send (scatterv) or receive (gatherv) port frees
    transfers = []
    for src, dst in transfer_order(tree):
        if tree.kind == "scatterv":
            start = max(port[src], done[src])
            end = start + _link_time(model, src, dst, volume[dst])
            port[src] = done[dst] = end
        else:
            start = max(port[dst], done[src])
            end = start + _link_time(model, src, dst, volume[src])
            port[dst] = done[dst] = end
        transfers.append(Transfer(src, dst, volume[dst if tree.kind == "scatterv" else src],
                                  start, end))
    time = done[tree.root] if tree.kind == "gatherv" else max(done.values())
    return TreePrediction(0, "ok", time, done, transfers)


def tree_gantt(prediction: TreePrediction, *, ax=None, title: str | None = None):
    """Gantt chart of one predicted run: a ``send`` and a ``recv`` row per process.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> from hetcoll.sim.collectives.model import StarHockney
    >>> from hetcoll.sim.collectives.trees import flat_tree
    >>> sizes = {"A": Fraction(0), "B": Fraction(2)}
    >>> run = pairwise_prediction(flat_tree("scatterv", "A", sizes), sizes,
    ...                           StarHockney.build("AB", [0, 0], [1, 1]))
    >>> tree_gantt(run).get_xlabel()
    'time'
    """
    bars = []
    for t in prediction.transfers:
        label = f"{t.source}->{t.target}"
        bars.append(GanttBar(f"{t.source} send", float(t.start), float(t.end), t.target, label))
        bars.append(GanttBar(f"{t.target} recv", float(t.start), float(t.end), t.target, label))
    return gantt_chart(bars, ax=ax, title=title)
