"""Routed prediction: transfers share physical links with max-min fairness.

The tree's transfers keep their order and dependencies (one-port, as in
:func:`~hetcoll.sim.collectives.predict.pairwise_prediction`), but each runs on a
route of physical links: it first waits the route's latency (the sum along it), then
moves its bytes at the rate max-min fairness gives it among the transfers then
active, as SimGrid's flow model does (CM02 without TCP corrections).  Rates are
recomputed whenever a transfer starts or ends.  A SHARED link's bandwidth is split
among every flow that crosses it (in either direction, as SimGrid's SHARED policy);
a FATPIPE link gives each flow its whole bandwidth.  Exact with rational inputs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from hetcoll.core.errors import InputError
from hetcoll.core.platform import Platform
from hetcoll.core.simgrid import PhysicalLink, SimGridPlatform
from hetcoll.sim.collectives.predict import (
    Transfer,
    TreePrediction,
    subtree_volumes,
    transfer_order,
)
from hetcoll.sim.collectives.trees import CommTree

__all__ = ["Network", "max_min_rates", "routed_prediction"]


@dataclass(frozen=True)
class Network:
    """Physical links and the route of every ordered pair.

    Attributes
    ----------
    links : dict of str to PhysicalLink
    routes : dict of (str, str) to tuple of str
    """

    links: Mapping[str, PhysicalLink]
    routes: Mapping[tuple[str, str], tuple[str, ...]]

    @classmethod
    def from_simgrid(cls, platform: SimGridPlatform) -> Network:
        """The routes and physical links of a SimGrid platform."""
        return cls(platform.links, platform.routes)

    @classmethod
    def from_platform(cls, platform: Platform) -> Network:
        """Every directed link of a hetcoll platform is its own physical link.

        Bandwidth 1/cost, the link's latency: no two pairs share a link, so the routed
        prediction equals the pairwise one on every tree.

        Examples
        --------
        >>> from hetcoll.core.platform import read_platform
        >>> net = Network.from_platform(read_platform("examples/trees/hand_4proc.json"))
        >>> net.routes[("P0", "P2")], net.links["P0->P2"].bandwidth
        (('P0->P2',), Fraction(4, 1))
        """
        links = {f"{k.source}->{k.target}": PhysicalLink(f"{k.source}->{k.target}",
                                                        1 / k.comm, k.latency)
                 for k in platform.links}
        return cls(links, {(k.source, k.target): (f"{k.source}->{k.target}",)
                           for k in platform.links})


def max_min_rates(flows: Mapping[object, tuple[str, ...]],
                  links: Mapping[str, PhysicalLink]) -> dict[object, Fraction]:
    """Max-min fair rates of ``flows`` (each a route of link names), by progressive filling.

    Every flow's rate rises at the same pace; when a SHARED link is full, its flows
    are frozen at their current rate; a FATPIPE link caps each flow at its bandwidth.

    Parameters
    ----------
    flows : mapping of key to tuple of str
    links : mapping of str to PhysicalLink

    Returns
    -------
    dict of key to Fraction

    Examples
    --------
    Two flows on one link share it; a flow through a narrower second link frees
    bandwidth for the other:

    >>> L = {"a": PhysicalLink("a", Fraction(10), Fraction(0)),
    ...      "b": PhysicalLink("b", Fraction(2), Fraction(0))}
    >>> max_min_rates({1: ("a",), 2: ("a",)}, L)
    {1: Fraction(5, 1), 2: Fraction(5, 1)}
    >>> max_min_rates({1: ("a",), 2: ("a", "b")}, L)
    {2: Fraction(2, 1), 1: Fraction(8, 1)}

    References
    ----------
    Bertsekas and Gallager, Data Networks (1992), §6.5.2 (max-min fairness);
    Velho et al., "On the validity of flow-level TCP network models for grid and cloud
    simulations", ACM TOMACS 23(4), 2013 (SimGrid's flow model).
    """
    capacity = {}
    cap: dict[object, Fraction | None] = {}
    for flow, route in flows.items():
        fat = [links[name].bandwidth for name in route if links[name].fatpipe]
        cap[flow] = min(fat) if fat else None
        for name in route:
            if not links[name].fatpipe:
                capacity[name] = links[name].bandwidth
    users = {name: {f for f, route in flows.items() if name in route} for name in capacity}
    rates: dict[object, Fraction] = {}
    unfixed = set(flows)
    while unfixed:
        shares = {name: capacity[name] / len(users[name] & unfixed)
                  for name in capacity if users[name] & unfixed}
        level = min([*shares.values(), *(cap[f] for f in unfixed if cap[f] is not None)])
        full = {name for name, share in shares.items() if share == level}
        frozen = [f for f in flows if f in unfixed and (
            cap[f] == level or any(name in full for name in flows[f]))]
        for f in frozen:
            rates[f] = level
            for name in set(flows[f]):
                if name in capacity:
                    capacity[name] -= level
        unfixed -= set(frozen)
    return rates


def _dependencies(tree: CommTree, order: list[tuple[str, str]]
                  ) -> tuple[list[list[int]], list[list[int]]]:
    """For each transfer, the transfers it waits for and those it frees (one-port)."""
    index = {pair: i for i, pair in enumerate(order)}
    waits: list[list[int]] = [[] for _ in order]
    for node, kids in tree.children.items():
        previous = None
        for child in kids:
            pair = (node, child) if tree.kind == "scatterv" else (child, node)
            me = index[pair]
            if previous is not None:
                waits[me].append(previous)
            if tree.kind == "scatterv" and tree.parent[node] is not None:
                waits[me].append(index[(tree.parent[node], node)])
            if tree.kind == "gatherv":
                waits[me].extend(index[(g, child)] for g in tree.children[child])
            previous = me
    unlocks: list[list[int]] = [[] for _ in order]
    for i, w in enumerate(waits):
        for j in w:
            unlocks[j].append(i)
    return waits, unlocks


def _require_routes(order: list[tuple[str, str]], network: Network) -> None:
    for src, dst in order:
        if (src, dst) not in network.routes:
            raise InputError(f"no route {src}->{dst} in the platform, and the tree sends "
                             f"{src}->{dst}")


def routed_prediction(tree: CommTree, sizes: Mapping[str, Fraction],
                      network: Network) -> TreePrediction:
    """Completion time of ``tree`` when its transfers share the network's physical links.

    Parameters
    ----------
    tree : CommTree
    sizes : mapping of str to Fraction
        Every process's own block, in bytes (the unit of the bandwidths).
    network : Network

    Returns
    -------
    TreePrediction
        Exact with rational inputs.

    Raises
    ------
    InputError
        If a pair the tree uses has no route (naming the pair).

    See Also
    --------
    hetcoll.sim.collectives.pairwise_prediction : the same without sharing.
    max_min_rates : the bandwidth sharing.

    Examples
    --------
    >>> from hetcoll.core.platform import read_platform
    >>> from hetcoll.sim.collectives import HockneyModel, build_tree
    >>> p = read_platform("examples/trees/hand_4proc.json")
    >>> sizes = {"P0": Fraction(1), "P1": Fraction(4), "P2": Fraction(1), "P3": Fraction(8)}
    >>> tree = build_tree("binomial", "scatterv", "P0", sizes)
    >>> routed_prediction(tree, sizes, Network.from_platform(p)).time
    Fraction(14, 1)

    References
    ----------
    Casanova et al., "Versatile, scalable, and accurate simulation of distributed
    applications and platforms", JPDC 74(10), 2014 (SimGrid); NOTES.md §4.
    """
    volume = subtree_volumes(tree, sizes)
    order = transfer_order(tree)
    _require_routes(order, network)
    waits, unlocks = _dependencies(tree, order)
    waiting = [len(w) for w in waits]
    size = [volume[dst] if tree.kind == "scatterv" else volume[src] for src, dst in order]
    route = [network.routes[pair] for pair in order]
    start: dict[int, Fraction] = {}
    end: dict[int, Fraction] = {}
    wake: dict[int, Fraction] = {}   # end of the latency phase
    left: dict[int, Fraction] = {}   # bytes still to move
    now = Fraction(0)
    fresh = [i for i in range(len(order)) if waiting[i] == 0]
    while True:
        for i in fresh:
            start[i] = now
            wake[i] = now + sum((network.links[n].latency for n in route[i]), Fraction(0))
            left[i] = size[i]
        fresh = []
        # Transfers over now (zero bytes and zero latency included) free the next ones
        # before time moves on.
        finished = [i for i in left if wake[i] <= now and left[i] == 0]
        for i in finished:
            del left[i]
            end[i] = now
            for j in unlocks[i]:
                waiting[j] -= 1
                if waiting[j] == 0:
                    fresh.append(j)
        if finished:
            continue
        if not left:
            break
        moving = {i: route[i] for i in left if wake[i] <= now}
        rates = max_min_rates(moving, network.links) if moving else {}
        step = min([*(wake[i] for i in left if wake[i] > now),
                    *(now + left[i] / rates[i] for i in moving)])
        for i in moving:
            left[i] -= rates[i] * (step - now)
        now = step
    done = dict.fromkeys(tree.parent, Fraction(0))
    transfers = []
    for i, (src, dst) in enumerate(order):
        done[dst] = max(done[dst], end[i]) if tree.kind == "gatherv" else end[i]
        transfers.append(Transfer(src, dst, size[i], start[i], end[i]))
    time = done[tree.root] if tree.kind == "gatherv" else max(done.values())
    return TreePrediction(0, "ok", time, done, transfers)
