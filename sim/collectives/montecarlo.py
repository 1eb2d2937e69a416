"""Monte Carlo over noisy link times: rank the trees by mean and quantiles.

Each run multiplies every transfer's model time t(i, j, m) by an independent gamma
factor of mean 1 and coefficient of variation ``cv`` (shape 1/cv^2, scale cv^2, as in
Benoit, Canon, Marchal's study).  Common random numbers across trees: in a run, the
k-th transfer of every tree (in :func:`~hetcoll.sim.collectives.transfer_order`) gets
the same factor, so the trees are compared run by run.  The pairwise one-port
recurrences are evaluated for all runs at once with numpy (one vector operation per
transfer); the routed network runs a compiled fluid simulation per run (numba), the
factor scaling both the transfer's latency and its bytes.  Runs come in chunks of
:data:`CHUNK_RUNS`, chunk i drawing from ``SeedSequence(seed).spawn(...)[i]``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from hetcoll.core.errors import InputError, LimitError
from hetcoll.sim.collectives.model import PointToPoint
from hetcoll.sim.collectives.predict import _link_time, subtree_volumes, transfer_order
from hetcoll.sim.collectives.routed import Network, _dependencies, _require_routes
from hetcoll.sim.collectives.trees import ALGORITHMS, CommTree, build_tree

__all__ = ["CHUNK_RUNS", "MAX_RUNS", "TreeSummary", "noisy_routed_times", "noisy_times",
           "tree_monte_carlo"]

#: Runs drawn at once (one seed each chunk): results do not depend on anything else.
CHUNK_RUNS = 16384

#: Most runs without raising ``max_runs``.
MAX_RUNS = 10**7


@dataclass(frozen=True)
class TreeSummary:
    """Completion-time statistics of one tree over noisy runs.

    Attributes
    ----------
    algorithm : str
    model_time : float
        The noiseless prediction.
    mean, std : float
    quantiles : dict of float to float
    runs : int
    """

    algorithm: str
    model_time: float
    mean: float
    std: float
    quantiles: dict[float, float]
    runs: int


def noisy_times(tree: CommTree, sizes: Mapping[str, Fraction], model: PointToPoint,
                factors: np.ndarray) -> np.ndarray:
    """Completion times of ``tree`` when transfer k's time is scaled by ``factors[:, k]``.

    Parameters
    ----------
    tree : CommTree
    sizes : mapping of str to Fraction
    model : PointToPoint
    factors : ndarray, shape (runs, at least p - 1)

    Returns
    -------
    ndarray, shape (runs,)

    Raises
    ------
    InputError
        As :func:`~hetcoll.sim.collectives.pairwise_prediction`.

    Examples
    --------
    >>> from hetcoll.sim.collectives import StarHockney, flat_tree
    >>> sizes = {"A": Fraction(0), "B": Fraction(2), "C": Fraction(3)}
    >>> model = StarHockney.build("ABC", [0, 0, 0], [1, 1, 1])
    >>> noisy_times(flat_tree("scatterv", "A", sizes), sizes, model,
    ...             np.array([[1.0, 1.0], [2.0, 0.5]])).tolist()
    [5.0, 5.5]
    """
    volume = subtree_volumes(tree, sizes)
    index = {name: i for i, name in enumerate(tree.parent)}
    runs = factors.shape[0]
    done = np.zeros((len(index), runs))
    port = np.zeros((len(index), runs))
    for k, (src, dst) in enumerate(transfer_order(tree)):
        carried = volume[dst] if tree.kind == "scatterv" else volume[src]
        duration = float(_link_time(model, src, dst, carried)) * factors[:, k]
        s, d = index[src], index[dst]
        if tree.kind == "scatterv":
            end = np.maximum(port[s], done[s]) + duration
            port[s] = end
        else:
            end = np.maximum(port[d], done[s]) + duration
            port[d] = end
        done[d] = end
    return done[index[tree.root]] if tree.kind == "gatherv" else done.max(axis=0)


def noisy_routed_times(tree: CommTree, sizes: Mapping[str, Fraction], network: Network,
                       factors: np.ndarray) -> np.ndarray:
    """As :func:`noisy_times`, the transfers sharing the network's links (max-min).

    Floats: within about 1e-12 relative of :func:`~hetcoll.sim.collectives.routed_prediction`
    with all factors 1.

    Raises
    ------
    InputError
        If a pair the tree uses has no route.

    Examples
    --------
    >>> from hetcoll.core.platform import read_platform
    >>> from hetcoll.sim.collectives import Network, binomial_tree
    >>> p = read_platform("examples/trees/hand_4proc.json")
    >>> sizes = {"P0": Fraction(1), "P1": Fraction(4), "P2": Fraction(1), "P3": Fraction(8)}
    >>> tree = binomial_tree("scatterv", "P0", sizes)
    >>> noisy_routed_times(tree, sizes, Network.from_platform(p), np.ones((1, 3))).tolist()
    [14.0]
    """
    from hetcoll.sim.collectives._routed_kernel import routed_makespans

    volume = subtree_volumes(tree, sizes)
    order = transfer_order(tree)
    _require_routes(order, network)
    shared = {name: i for i, name in enumerate(
        sorted(n for n, link in network.links.items() if not link.fatpipe))}
    latency, size, cap, pointer, links = [], [], [], [0], []
    for src, dst in order:
        route = network.routes[(src, dst)]
        latency.append(float(sum((network.links[n].latency for n in route), Fraction(0))))
        size.append(float(volume[dst] if tree.kind == "scatterv" else volume[src]))
        fat = [network.links[n].bandwidth for n in route if network.links[n].fatpipe]
        cap.append(float(min(fat)) if fat else np.inf)
        links.extend(dict.fromkeys(shared[n] for n in route if n in shared))
        pointer.append(len(links))
    waits, unlocks = _dependencies(tree, order)
    capacity = np.zeros(len(shared))
    for name, i in shared.items():
        capacity[i] = float(network.links[name].bandwidth)
    n = len(order)
    return routed_makespans(
        np.array(latency, dtype=float).reshape(n), np.array(size, dtype=float).reshape(n),
        np.array(pointer, dtype=np.int64), np.array(links, dtype=np.int64), capacity,
        np.array(cap, dtype=float).reshape(n), np.array([len(w) for w in waits], dtype=np.int64),
        np.array(np.cumsum([0, *map(len, unlocks)]), dtype=np.int64),
        np.array([j for u in unlocks for j in u], dtype=np.int64),
        np.ascontiguousarray(factors[:, :n], dtype=float))


def tree_monte_carlo(kind: str, root: str, sizes: Mapping[str, Fraction],
                     model: PointToPoint, *, algorithms: Sequence[str] = ALGORITHMS,
                     runs: int = 10_000, cv: float = 0.3, seed: int = 0,
                     quantiles: Sequence[float] = (0.1, 0.5, 0.9),
                     network: Network | None = None,
                     max_runs: int = MAX_RUNS) -> dict[str, TreeSummary]:
    """Rank the trees of ``algorithms`` over ``runs`` noisy runs.

    Parameters
    ----------
    kind, root, sizes, model
        As :func:`~hetcoll.sim.collectives.build_tree`.
    algorithms : sequence of str
    runs : int
    cv : float
        Coefficient of variation of every transfer's time (0: the model itself).
    seed : int
    quantiles : sequence of float
    network : Network, optional
        Share its physical links (routed); default: pairwise, independent links.
    max_runs : int
        Refuse more runs (LimitError naming ``max_runs``).

    Returns
    -------
    dict of str to TreeSummary
        In the order of ``algorithms``.

    Raises
    ------
    InputError
        For a negative CV, no runs, or as the builders and the predictor.
    LimitError
        Over ``max_runs`` runs.

    Examples
    --------
    >>> from hetcoll.core.platform import read_platform
    >>> from hetcoll.sim.collectives import HockneyModel
    >>> p = read_platform("examples/trees/hand_4proc.json")
    >>> sizes = {"P0": Fraction(1), "P1": Fraction(4), "P2": Fraction(1), "P3": Fraction(8)}
    >>> out = tree_monte_carlo("scatterv", "P0", sizes, HockneyModel(p), runs=1000, cv=0)
    >>> out["traff-model"].mean, out["binomial-min-first"].quantiles[0.9]
    (10.0, 36.0)

    References
    ----------
    Benoit, Canon, Marchal, RR 8315, §6 (gamma costs, common random numbers);
    Dichev, Rychkov, Lastovetsky, §3.
    """
    if not isinstance(runs, int) or runs < 1:
        raise InputError(f"runs must be a positive integer, got {runs!r}")
    if runs > max_runs:
        raise LimitError(f"{runs} runs, over max_runs {max_runs}")
    if not cv >= 0 or not np.isfinite(cv):
        raise InputError(f"cv must be a finite number >= 0, got {cv!r}")
    trees = {name: build_tree(name, kind, root, sizes, model) for name in algorithms}

    def run(tree, factors):
        if network is None:
            return noisy_times(tree, sizes, model, factors)
        return noisy_routed_times(tree, sizes, network, factors)

    width = max(1, len(sizes) - 1)
    chunks = -(-runs // CHUNK_RUNS)
    seeds = np.random.SeedSequence(seed).spawn(chunks)
    samples: dict[str, list[np.ndarray]] = {name: [] for name in trees}
    for c in range(chunks):
        n = min(CHUNK_RUNS, runs - c * CHUNK_RUNS)
        rng = np.random.default_rng(seeds[c])
        factors = (rng.gamma(1 / cv**2, cv**2, size=(n, width)) if cv > 0
                   else np.ones((n, width)))
        for name, tree in trees.items():
            samples[name].append(run(tree, factors))
    out = {}
    for name, tree in trees.items():
        values = np.concatenate(samples[name])
        base = run(tree, np.ones((1, width)))[0]
        out[name] = TreeSummary(name, float(base), float(values.mean()),
                                float(values.std(ddof=1)) if runs > 1 else 0.0,
                                {q: float(np.quantile(values, q)) for q in quantiles}, runs)
    return out
