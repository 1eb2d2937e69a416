"""DRL's experimental setups, in simulation: platforms, sizes, and tree comparisons.

- :func:`sizes_by_speed`: blocks proportional to the processors' speeds (DRL §3: "a
  setup which assigns each node a message size based on its CPU speed");
- :func:`star_cluster`: hosts on one switch, each by its own full-duplex link (HCL's
  14 nodes on one Gigabit switch, DRL §3), as a SimGrid platform;
- :func:`compare_trees`: every tree and its time under both network models;
- :func:`hcl_cluster`, :func:`interleaved_order`, :func:`tree_gains`: DRL's two
  experiments (shared by ``benchmarks/bench_trees.py`` and ``hetcoll reproduce``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from itertools import zip_longest

import numpy as np

from hetcoll.core.platform import Platform
from hetcoll.core.simgrid import SimGridPlatform, parse_simgrid
from hetcoll.sim.collectives.model import HockneyModel
from hetcoll.sim.collectives.predict import TreePrediction, pairwise_prediction
from hetcoll.sim.collectives.routed import Network, routed_prediction
from hetcoll.sim.collectives.trees import ALGORITHMS, CommTree, build_tree

__all__ = ["DRL_PAIRS", "compare_trees", "hcl_cluster", "interleaved_order", "sizes_by_speed",
           "star_cluster", "tree_gains"]

#: (model-based tree, the original it is compared with), DRL section 5.
DRL_PAIRS = (("binomial-min-first", "binomial"), ("binomial-max-first", "binomial"),
             ("traff-model", "traff"))


def sizes_by_speed(platform: Platform, total: Fraction | int,
                   names: Sequence[str] | None = None) -> dict[str, Fraction]:
    """Blocks proportional to speed (1 / compute cost), rounded down to whole units.

    Parameters
    ----------
    platform : Platform
    total : Fraction or int
        About this many units in all (less the rounding).
    names : sequence of str, optional
        The processes taking part (default: all, in the platform's order).

    Returns
    -------
    dict of str to Fraction
        In the platform's order.

    Examples
    --------
    >>> from hetcoll.core.platform import platform_from_dict
    >>> p = platform_from_dict({"processors": [{"name": "A", "compute": 1},
    ...                                        {"name": "B", "compute": "1/3"}], "links": []})
    >>> sizes_by_speed(p, 100)
    {'A': Fraction(25, 1), 'B': Fraction(75, 1)}

    References
    ----------
    Dichev, Rychkov, Lastovetsky, §3.
    """
    chosen = set(platform.names if names is None else names)
    speed = {p.name: 1 / p.comp for p in platform.processors if p.name in chosen}
    whole = sum(speed.values())
    return {name: Fraction(int(Fraction(total) * s / whole)) for name, s in speed.items()}


def hcl_cluster() -> SimGridPlatform:
    """DRL's HCL cluster: 14 nodes on one Gigabit switch, HCL-like speeds, uneven NICs.

    The speeds (1.0-3.6 Gflops) are in no particular rank order (a sorted order would
    make rank order and max-first coincide); bandwidths 100-125 MB/s and latencies
    40-90 µs are drawn from a fixed seed (DRL give neither).

    Examples
    --------
    >>> len(hcl_cluster().platform.names)
    14

    References
    ----------
    Dichev, Rychkov, Lastovetsky, §5 (HCL, 14 nodes, one switch).
    """
    rng = np.random.default_rng(14)
    speeds = rng.permutation([3.6, 3.6, 3.4, 3.4, 3.0, 3.0, 2.8, 2.8, 2.8, 2.4, 2.0, 1.8, 1.8,
                              1.0]).tolist()
    names = [f"hcl{i + 1:02d}" for i in range(14)]
    return star_cluster({n: f"{s}Gf" for n, s in zip(names, speeds, strict=True)},
                        {n: f"{int(b)}MBps" for n, b in zip(names, rng.integers(100, 126, 14),
                                                            strict=True)},
                        {n: f"{int(x)}us" for n, x in zip(names, rng.integers(40, 90, 14),
                                                          strict=True)})


def interleaved_order(names: Sequence[str]) -> list[str]:
    """Rank order of a host file taking one node of each cluster in turn.

    A host's cluster is its name up to the first ``-``.

    Examples
    --------
    >>> interleaved_order(["a-1", "a-2", "a-3", "b-1"])
    ['a-1', 'b-1', 'a-2', 'a-3']
    """
    clusters: dict[str, list[str]] = {}
    for name in names:
        clusters.setdefault(name.split("-")[0], []).append(name)
    return [n for group in zip_longest(*clusters.values()) for n in group if n]


def tree_gains(kind: str, sg: SimGridPlatform, total: int, *, exponent: int = 1,
               order: Sequence[str] | None = None,
               pairs: Sequence[tuple[str, str]] = DRL_PAIRS
               ) -> dict[tuple[str, str], tuple[Fraction, Fraction]]:
    """1 - time(model-based tree) / time(original tree), under both network models.

    Parameters
    ----------
    kind : {"scatterv", "gatherv"}
    sg : SimGridPlatform
    total : int
        About this many bytes in all, in blocks proportional to speed^``exponent``.
    exponent : int
        1: :func:`sizes_by_speed`; larger: a larger max/min block ratio.
    order : sequence of str, optional
        The rank order (default: the platform's); the root is its first host.
    pairs : sequence of (str, str)

    Returns
    -------
    dict of (str, str) to (Fraction, Fraction)
        Per pair, the gain under the pairwise and under the routed model
        (positive: the model-based tree is faster).

    Examples
    --------
    >>> gains = tree_gains("scatterv", hcl_cluster(), 10**6)
    >>> sorted(gains) == sorted(DRL_PAIRS)
    True

    References
    ----------
    Dichev, Rychkov, Lastovetsky, §5.
    """
    network = Network.from_simgrid(sg)
    order = list(sg.platform.names) if order is None else list(order)
    if exponent == 1:
        sizes = sizes_by_speed(sg.platform, total)
    else:
        weight = {p.name: (1 / p.comp) ** exponent for p in sg.platform.processors}
        whole = sum(weight.values())
        sizes = {n: Fraction(int(total * w / whole)) for n, w in weight.items()}
    sizes = {n: sizes[n] for n in order}
    out = compare_trees(kind, order[0], sizes, sg.platform, network,
                        algorithms=sorted({name for pair in pairs for name in pair}))
    return {(a, b): tuple(1 - out[a][k].time / out[b][k].time for k in (1, 2))
            for a, b in pairs}


def star_cluster(speeds: Mapping[str, str], bandwidth: Mapping[str, str],
                 latency: Mapping[str, str]) -> SimGridPlatform:
    """Hosts on one switch, each by its own SPLITDUPLEX link (SimGrid units: ``"1Gf"``...).

    The route from a to b is a's link UP then b's link DOWN: latency adds, the slower
    link bounds the rate, and a host's sends (receives) share its UP (DOWN) half.

    Examples
    --------
    >>> sg = star_cluster({"a": "1Gf", "b": "2Gf"}, {"a": "100MBps", "b": "125MBps"},
    ...                   {"a": "50us", "b": "70us"})
    >>> sg.routes[("a", "b")], sg.platform.link("a", "b").latency
    (('a_UP', 'b_DOWN'), Fraction(3, 25000))
    """
    hosts = "".join(f'<host id="{h}" speed="{s}"/>' for h, s in speeds.items())
    links = "".join(f'<link id="{h}" bandwidth="{bandwidth[h]}" latency="{latency[h]}" '
                    f'sharing_policy="SPLITDUPLEX"/>' for h in speeds)
    routes = "".join(f'<route src="{a}" dst="{b}" symmetrical="NO"><link_ctn id="{a}" '
                     f'direction="UP"/><link_ctn id="{b}" direction="DOWN"/></route>'
                     for a in speeds for b in speeds if a != b)
    return parse_simgrid(f'<platform version="4.1"><zone id="switch" routing="Full">'
                         f'{hosts}{links}{routes}</zone></platform>',
                         description="hosts on one switch")


def compare_trees(kind: str, root: str, sizes: Mapping[str, Fraction], platform: Platform,
                  network: Network | None = None, algorithms: Sequence[str] = ALGORITHMS
                  ) -> dict[str, tuple[CommTree, TreePrediction, TreePrediction]]:
    """Every tree of ``algorithms`` with its pairwise and routed predictions.

    Parameters
    ----------
    kind, root, sizes
        As :func:`~hetcoll.sim.collectives.build_tree`.
    platform : Platform
        Its links give the Hockney model the builders use.
    network : Network, optional
        Default: the platform's links, each its own physical link.
    algorithms : sequence of str

    Returns
    -------
    dict of str to (CommTree, TreePrediction, TreePrediction)
        The tree, its pairwise prediction, its routed prediction.

    Raises
    ------
    InputError
        As the builders and predictors.

    Examples
    --------
    >>> from hetcoll.core.platform import read_platform
    >>> p = read_platform("examples/trees/hand_4proc.json")
    >>> sizes = {"P0": Fraction(1), "P1": Fraction(4), "P2": Fraction(1), "P3": Fraction(8)}
    >>> out = compare_trees("scatterv", "P0", sizes, p)
    >>> {name: int(pair.time) for name, (_, pair, _) in out.items()}["traff-model"]
    10
    """
    model = HockneyModel(platform)
    network = Network.from_platform(platform) if network is None else network
    out = {}
    for name in algorithms:
        tree = build_tree(name, kind, root, sizes, model)
        out[name] = (tree, pairwise_prediction(tree, sizes, model),
                     routed_prediction(tree, sizes, network))
    return out
