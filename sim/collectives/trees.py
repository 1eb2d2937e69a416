"""Communication trees for scatterv and gatherv (Dichev, Rychkov, Lastovetsky, §2).

Every builder takes the operation (``"scatterv"`` or ``"gatherv"``), the root, each
process's own block size m_i (a mapping whose order is the rank order, the platform's
processor order on the command line) and, for the model-based ones, a point-to-point
model t(i, j, m) (:mod:`hetcoll.sim.collectives.model`).  It returns a
:class:`CommTree`: the parent of every process and, for every node, the ordered list
of its children, the order in which it sends to them (scatterv) or receives from them
(gatherv).

The trees
---------
``flat``
    The root talks to every other process in rank order (the MPI default).
``binomial``
    The traditional binomial tree over ranks relative to the root (rank r = the
    process (root + r) mod p): r's children are r + 2^k for 2^k below r's lowest
    set bit (every k for the root).
``binomial-min-first``, ``binomial-max-first``
    DRL's model-based binomial tree: the positions of the binomial tree are filled
    in depth-first pre-order, a node's subtrees in increasing order (the order-0
    subtree first); each position takes the free process with the minimal (maximal)
    predicted time t(parent, i, m_i), t(i, parent, m_i) for gatherv.  Ties go to the
    earliest process in rank order.  A process without a link to the parent is
    never chosen while one with a link is free.
``traff``
    Träff's idea (IPDPS 2004) as hetcoll implements it, since DRL cite it without
    describing it: the processes stay in rank order relative to the root, so every
    subtree is a contiguous range (contiguous buffers); a node holding the range
    [itself, rest] cuts off the suffix whose total block size best balances what it
    keeps (its own block included), makes the suffix's first process a child, and
    repeats on what it keeps.  With equal sizes and p a power of two this is exactly
    the binomial tree (graceful degradation); unequal sizes move the cuts.
``traff-model``
    DRL's modified Träff: at a node j holding a set S, sort S by decreasing
    predicted time t(j, i, m_i); cut the sorted list into consecutive subsets
    balanced in total predicted time (the same halving as ``traff``, j's own weight
    being 0), so the first subsets hold few slow processes and the last many fast
    ones; each subset's head is the process that receives (sends) the whole
    subset's data from (to) j fastest; recurse in every subset with fresh
    predictions from its head.

Sending order (DRL do not say it): in scatterv a node sends to its children largest
subtree first (the first subset cut off first), as MPICH's binomial scatter does; in
gatherv a node receives from them in the reverse order, smallest subtree first, as
MPICH's binomial gather does.  ``flat`` uses rank order both ways.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from hetcoll.core.errors import InputError
from hetcoll.sim.collectives.model import PointToPoint

__all__ = [
    "ALGORITHMS",
    "KINDS",
    "CommTree",
    "binomial_max_first_tree",
    "binomial_min_first_tree",
    "binomial_tree",
    "build_tree",
    "flat_tree",
    "traff_model_tree",
    "traff_tree",
]

#: The operations a tree serves.
KINDS = ("scatterv", "gatherv")


@dataclass(frozen=True)
class CommTree:
    """A scatterv or gatherv communication tree.

    Attributes
    ----------
    kind : {"scatterv", "gatherv"}
    root : str
    parent : dict of str to str or None
        Every process, in rank order; the root's parent is None.
    children : dict of str to tuple of str
        Every process, in rank order, with its children in sending (scatterv) or
        receiving (gatherv) order.
    algorithm : str
        The builder that made it.
    """

    kind: str
    root: str
    parent: dict[str, str | None]
    children: dict[str, tuple[str, ...]]
    algorithm: str = ""

    def to_dict(self) -> dict:
        """``{"parent": {...}, "children": {name: [ordered names]}}``."""
        return {"parent": dict(self.parent),
                "children": {k: list(v) for k, v in self.children.items()}}


def _check(kind: str, root: str, sizes: Mapping[str, Fraction]) -> list[str]:
    if kind not in KINDS:
        raise InputError(f"unknown operation {kind!r}; expected scatterv or gatherv")
    names = list(sizes)
    if root not in sizes:
        raise InputError(f"root {root!r} is not one of the processes")
    for name, size in sizes.items():
        if not isinstance(size, Fraction) or size < 0:
            raise InputError(f"size of {name} must be an exact number >= 0, got {size!r}")
    return names


def _tree(kind: str, root: str, names: Sequence[str], kids: Mapping[str, Sequence[str]],
          algorithm: str) -> CommTree:
    """Assemble a CommTree; ``kids`` lists children in scatterv order (first cut first)."""
    children = {n: tuple(kids.get(n, ())) if kind == "scatterv" else tuple(kids.get(n, ()))[::-1]
                for n in names}
    parent: dict[str, str | None] = dict.fromkeys(names)
    for node, below in children.items():
        for child in below:
            parent[child] = node
    return CommTree(kind, root, parent, children, algorithm)


def _relative(names: Sequence[str], root: str) -> list[str]:
    start = names.index(root)
    return list(names[start:]) + list(names[:start])


def flat_tree(kind: str, root: str, sizes: Mapping[str, Fraction]) -> CommTree:
    """The root sends to (receives from) every other process, in rank order.

    Parameters
    ----------
    kind : {"scatterv", "gatherv"}
    root : str
    sizes : mapping of str to Fraction
        Every process's own block, in rank order.

    Returns
    -------
    CommTree

    Raises
    ------
    InputError
        If ``root`` is not a key of ``sizes``, a size is negative, or ``kind`` unknown.

    Examples
    --------
    >>> sizes = dict.fromkeys("ABC", Fraction(1))
    >>> flat_tree("gatherv", "B", sizes).children["B"]
    ('A', 'C')
    """
    names = _check(kind, root, sizes)
    others = [n for n in names if n != root]
    # Rank order both ways, whatever the kind: undo _tree's reversal for gatherv.
    return _tree(kind, root, names, {root: others if kind == "scatterv" else others[::-1]},
                 "flat")


def _binomial_children(q: int, p: int) -> list[int]:
    """Positions of q's children in a p-node binomial tree, smallest subtree first."""
    low = q & -q if q else p
    out, step = [], 1
    while step < low and q + step < p:
        out.append(q + step)
        step <<= 1
    return out


def _from_positions(kind: str, root: str, names: Sequence[str], process: Sequence[str],
                    algorithm: str) -> CommTree:
    p = len(process)
    kids = {process[q]: [process[c] for c in reversed(_binomial_children(q, p))]
            for q in range(p)}
    return _tree(kind, root, names, kids, algorithm)


def binomial_tree(kind: str, root: str, sizes: Mapping[str, Fraction]) -> CommTree:
    """The traditional binomial tree over ranks relative to the root.

    Returns
    -------
    CommTree
        Rank r (process ``(root + r) mod p``) has children r + 2^k, 2^k below r's
        lowest set bit; scatterv sends to the largest subtree first, gatherv receives
        from the smallest first.

    Raises
    ------
    InputError
        As :func:`flat_tree`.

    Examples
    --------
    >>> sizes = dict.fromkeys("ABCD", Fraction(1))
    >>> binomial_tree("scatterv", "A", sizes).children
    {'A': ('C', 'B'), 'B': (), 'C': ('D',), 'D': ()}

    References
    ----------
    Thakur, Rabenseifner, Gropp (2005), binomial scatter and gather in MPICH.
    """
    names = _check(kind, root, sizes)
    return _from_positions(kind, root, names, _relative(names, root), "binomial")


def _pick(model: PointToPoint, kind: str, node: str, candidates: Sequence[str],
          volumes: Sequence[Fraction], largest: bool, approx: np.ndarray) -> int:
    """Index in ``candidates`` of the one with the least (largest) predicted time.

    ``approx`` (floats, inf for no link) shortlists; the exact times decide among
    near-equal values; ties go to the earliest candidate.  Candidates without a link
    lose unless all lack one.  ``candidates`` and ``volumes`` are read only for the
    shortlist, so they may be lazy sequences.
    """
    finite = np.isfinite(approx)
    if not finite.any():
        return 0
    values = np.where(finite, approx, -np.inf if largest else np.inf)
    best = values.max() if largest else values.min()
    near = np.flatnonzero(np.abs(values - best) <= 1e-9 * abs(best) + 1e-300)
    if len(near) == 1:
        return int(near[0])
    exact = [_time(model, kind, node, candidates[i], volumes[i]) for i in near]
    target = max(exact) if largest else min(exact)
    return int(near[exact.index(target)])


class _Lazy(Sequence):
    """``items[i]`` for the local indices ``index``, computed only when read."""

    def __init__(self, items: Sequence, index: np.ndarray) -> None:
        self.items, self.index = items, index

    def __len__(self) -> int:
        return len(self.index)

    def __getitem__(self, i):
        return self.items[self.index[i]]


def _approx(model: PointToPoint, kind: str, node: int, others: np.ndarray,
            volume: np.ndarray) -> np.ndarray:
    """Float t(node, other, volume) (t(other, node, volume) for gatherv), model indices."""
    node_at = np.full(len(others), node)
    return (model.approx(node_at, others, volume) if kind == "scatterv"
            else model.approx(others, node_at, volume))


def _time(model: PointToPoint, kind: str, node: str, other: str,
          volume: Fraction) -> Fraction | None:
    return (model.time(node, other, volume) if kind == "scatterv"
            else model.time(other, node, volume))


def _model_index(model: PointToPoint, names: Sequence[str]) -> np.ndarray:
    index = {n: i for i, n in enumerate(model.names)}
    missing = [n for n in names if n not in index]
    if missing:
        raise InputError(f"process {missing[0]!r} is not known to the communication model")
    return np.array([index[n] for n in names], dtype=np.intp)


def _mapped_binomial(kind: str, root: str, sizes: Mapping[str, Fraction],
                     model: PointToPoint, largest: bool) -> CommTree:
    names = _check(kind, root, sizes)
    p = len(names)
    where = _model_index(model, names)
    volume = np.array([float(sizes[n]) for n in names])
    exact = [sizes[n] for n in names]
    free = np.ones(p, dtype=bool)
    free[names.index(root)] = False
    process = [names.index(root)]
    for q in range(1, p):
        node = process[q - (q & -q)]
        candidates = np.flatnonzero(free)
        approx = _approx(model, kind, where[node], where[candidates], volume[candidates])
        chosen = candidates[_pick(model, kind, names[node], _Lazy(names, candidates),
                                  _Lazy(exact, candidates), largest, approx)]
        free[chosen] = False
        process.append(int(chosen))
    process = [names[i] for i in process]
    algorithm = "binomial-max-first" if largest else "binomial-min-first"
    return _from_positions(kind, root, names, process, algorithm)


def binomial_min_first_tree(kind: str, root: str, sizes: Mapping[str, Fraction],
                            model: PointToPoint) -> CommTree:
    """DRL's model-based binomial tree, minimum-first mapping.

    Parameters
    ----------
    kind : {"scatterv", "gatherv"}
    root : str
    sizes : mapping of str to Fraction
        Every process's own block m_i, in rank order (ties go to the earliest).
    model : PointToPoint
        t(i, j, m).

    Returns
    -------
    CommTree
        Binomial shape; position by position in depth-first pre-order (order-0
        subtree first), the free process with the least t(parent, i, m_i)
        (t(i, parent, m_i) for gatherv).

    Raises
    ------
    InputError
        As :func:`flat_tree`, or a process the model does not know.

    See Also
    --------
    binomial_max_first_tree, binomial_tree

    Examples
    --------
    >>> from hetcoll.sim.collectives.model import StarHockney
    >>> model = StarHockney.build("ABCD", [0, 0, 0, 0], [1, 3, 2, 1])
    >>> sizes = dict.fromkeys("ABCD", Fraction(1))
    >>> binomial_min_first_tree("scatterv", "A", sizes, model).children["A"]
    ('C', 'D')

    References
    ----------
    Dichev, Rychkov, Lastovetsky, §2, "Model-based binomial tree scatter/gather".
    """
    return _mapped_binomial(kind, root, sizes, model, largest=False)


def binomial_max_first_tree(kind: str, root: str, sizes: Mapping[str, Fraction],
                            model: PointToPoint) -> CommTree:
    """DRL's model-based binomial tree, maximum-first mapping.

    As :func:`binomial_min_first_tree`, taking the free process with the largest
    predicted time at each position.

    Returns
    -------
    CommTree

    Raises
    ------
    InputError
        As :func:`binomial_min_first_tree`.

    See Also
    --------
    binomial_min_first_tree

    Examples
    --------
    >>> from hetcoll.sim.collectives.model import StarHockney
    >>> model = StarHockney.build("ABCD", [0, 0, 0, 0], [1, 3, 2, 1])
    >>> sizes = dict.fromkeys("ABCD", Fraction(1))
    >>> binomial_max_first_tree("scatterv", "A", sizes, model).children["A"]
    ('C', 'B')

    References
    ----------
    Dichev, Rychkov, Lastovetsky, §2.
    """
    return _mapped_binomial(kind, root, sizes, model, largest=True)


def _halve(own: Fraction, weights: Sequence[Fraction]) -> list[tuple[int, int]]:
    """Cut ``weights`` (after a node of weight ``own``) into suffix ranges, first cut first.

    The node keeps ``weights[:hi]``; each step cuts at the c in [0, hi) minimising
    |own + sum(weights[:c]) - sum(weights[c:hi])|, the larger c on a tie.
    """
    prefix = [Fraction(0), *itertools.accumulate(weights)]
    cuts, hi = [], len(weights)
    while hi > 0:
        half = (prefix[hi] - own) / 2
        c0 = min(bisect.bisect_left(prefix, half, 0, hi), hi - 1)
        options = {c for c in (c0 - 1, c0) if 0 <= c < hi}
        score = {c: abs(own + 2 * prefix[c] - prefix[hi]) for c in options}
        best = min(score.values())
        c = max(c for c in options if score[c] == best)
        # A plateau of zero weights ties with c: take its last cut.
        c = bisect.bisect_right(prefix, prefix[c], 0, hi) - 1
        cuts.append((c, hi))
        hi = c
    return cuts


def traff_tree(kind: str, root: str, sizes: Mapping[str, Fraction]) -> CommTree:
    """Träff-style tree by block sizes on identical links (see the module's docstring).

    Returns
    -------
    CommTree
        Every subtree is a contiguous range of ranks relative to the root.

    Raises
    ------
    InputError
        As :func:`flat_tree`.

    See Also
    --------
    traff_model_tree : DRL's modification, by predicted times.

    Examples
    --------
    >>> sizes = dict.fromkeys("ABCDEFGH", Fraction(1))
    >>> traff_tree("scatterv", "A", sizes).children["A"]  # binomial on equal sizes
    ('E', 'C', 'B')
    >>> traff_tree("scatterv", "A", dict(zip("ABCD", map(Fraction, [0, 6, 1, 1])))).children
    {'A': ('C', 'B'), 'B': (), 'C': ('D',), 'D': ()}

    References
    ----------
    Träff, "Hierarchical gather/scatter algorithms with graceful degradation", IPDPS
    2004 (not in the paper folder: this is hetcoll's reading); Dichev, Rychkov,
    Lastovetsky, §2.
    """
    names = _check(kind, root, sizes)
    kids: dict[str, list[str]] = {}
    stack = [_relative(names, root)]
    while stack:
        segment = stack.pop()
        head, rest = segment[0], segment[1:]
        for lo, hi in _halve(sizes[head], [sizes[n] for n in rest]):
            kids.setdefault(head, []).append(rest[lo])
            stack.append(rest[lo:hi])
    return _tree(kind, root, names, kids, "traff")


def traff_model_tree(kind: str, root: str, sizes: Mapping[str, Fraction],
                     model: PointToPoint) -> CommTree:
    """DRL's modified Träff algorithm, by predicted times (see the module's docstring).

    Returns
    -------
    CommTree

    Raises
    ------
    InputError
        As :func:`binomial_min_first_tree`.

    See Also
    --------
    traff_tree

    Examples
    --------
    >>> from hetcoll.sim.collectives.model import StarHockney
    >>> model = StarHockney.build("ABCD", [0, 0, 0, 0], [1, 1, 1, 4])
    >>> sizes = dict.fromkeys("ABCD", Fraction(1))
    >>> traff_model_tree("scatterv", "A", sizes, model).children
    {'A': ('B', 'D'), 'B': ('C',), 'C': (), 'D': ()}

    References
    ----------
    Dichev, Rychkov, Lastovetsky, §2, "Model-based Träff algorithm" and their Fig. 1.
    """
    names = _check(kind, root, sizes)
    where = dict(zip(names, _model_index(model, names).tolist(), strict=True))
    order = {n: i for i, n in enumerate(names)}
    kids: dict[str, list[str]] = {}
    stack = [(root, [n for n in names if n != root])]
    while stack:
        node, members = stack.pop()
        if not members:
            continue
        times = {n: _time(model, kind, node, n, sizes[n]) for n in members}
        # Decreasing predicted time, no-link first (slowest), ties in rank order.
        members = sorted(members, key=lambda n: (times[n] is not None,
                                                 -(times[n] or 0), order[n]))
        weights = [times[n] or Fraction(0) for n in members]
        for lo, hi in _halve(Fraction(0), weights):
            subset = members[lo:hi]
            volume = sum((sizes[n] for n in subset), Fraction(0))
            approx = _approx(model, kind, where[node], np.array([where[n] for n in subset]),
                             np.full(len(subset), float(volume)))
            head = subset[_pick(model, kind, node, subset, [volume] * len(subset), False,
                                approx)]
            kids.setdefault(node, []).append(head)
            stack.append((head, [n for n in subset if n != head]))
    return _tree(kind, root, names, kids, "traff-model")


#: Builder of each algorithm name; the model-based ones take the model as 4th argument.
_BUILDERS: dict[str, tuple[Callable[..., CommTree], bool]] = {
    "flat": (flat_tree, False),
    "binomial": (binomial_tree, False),
    "binomial-min-first": (binomial_min_first_tree, True),
    "binomial-max-first": (binomial_max_first_tree, True),
    "traff": (traff_tree, False),
    "traff-model": (traff_model_tree, True),
}

#: The algorithm names, in the order ``--algorithm all`` runs them.
ALGORITHMS = tuple(_BUILDERS)


def build_tree(algorithm: str, kind: str, root: str, sizes: Mapping[str, Fraction],
               model: PointToPoint | None = None) -> CommTree:
    """Build the tree of ``algorithm`` (one of :data:`ALGORITHMS`).

    Raises
    ------
    InputError
        For an unknown algorithm, a model-based one without a model, or as the builder.

    Examples
    --------
    >>> build_tree("flat", "scatterv", "A", {"A": Fraction(0), "B": Fraction(2)}).parent
    {'A': None, 'B': 'A'}
    """
    if algorithm not in _BUILDERS:
        raise InputError(f"unknown algorithm {algorithm!r}; expected one of "
                         f"{', '.join(ALGORITHMS)}")
    builder, needs_model = _BUILDERS[algorithm]
    if not needs_model:
        return builder(kind, root, sizes)
    if model is None:
        raise InputError(f"algorithm {algorithm} needs a point-to-point model")
    return builder(kind, root, sizes, model)
