"""The clairvoyant optimum: the fastest reduction when every cost is known.

Model (RR 8315, section 3.1; NOTES.md section 2): P_i owns v_i; d(i, j) is the
time to send one value from P_i to P_j; c_i the time of one reduction on P_i.
A processor sends its (partial) value once, after all its own reductions;
it receives one value at a time, and reduces each received value on receipt,
in order of arrival; receiving may overlap its own computation.  A schedule is
therefore a reduction tree plus, for every processor, the order of its
receptions; starting every operation as early as possible is optimal, since
makespans never decrease when an operation is delayed.

Method: dynamic programming over subsets (commutative) or intervals
(non-commutative).  For a processor i and a set S of values it has reduced,
the future only depends on two numbers: when its receiving port is free (e)
and when its last reduction ends (f).  The DP keeps, for every (i, S), the
Pareto front of (e, f) pairs, built by appending a last child j with subtree T
(S = S' ∪ T): the child sends at its own earliest finishing time on T.  The
front is tiny in practice (one to three pairs), so the cost is about
n²·3^(n-1) steps: commutative n = 8 takes about 0.1 s in pure Python.
Why not an ILP with HiGHS: the reduction-order constraints are disjunctive
(big-M), the LP relaxations are weak, and the solver works in floating point,
whereas the DP is exact in integers (costs scaled to a common denominator).
Why not branch and bound: its run time depends on the costs; the DP's hardly does.

Brute force (:func:`brute_force_optimum`) enumerates the schedules the other
way round (every rooted labelled tree, every order of receptions, each
evaluated forward by :func:`evaluate_tree`), as an independent check.

References
----------
A. Benoit, L.-C. Canon, L. Marchal, "Non-clairvoyant reduction algorithms for
heterogeneous platforms", INRIA RR-8315 (2013), sections 3.1 and 4 (the
approximation ratios of section 4 are measured against lower bounds, never
against this optimum).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from hetcoll.core.errors import InputError, LimitError
from hetcoll.core.numbers import fraction_str, to_fraction, validate_start_times
from hetcoll.core.results import Result, exact_pair, to_jsonable
from hetcoll.sim.costs import MatrixCosts

__all__ = [
    "Operation",
    "OptimumResult",
    "clairvoyant_optimum",
    "simplified_model_optimum",
    "evaluate_tree",
    "brute_force_optimum",
]

#: Largest n the commutative DP accepts (about n²·3^(n-1) steps: n = 12 takes ~30 s).
MAX_PROCESSORS = 12
#: Largest n the non-commutative (interval, polynomial) DP accepts (n = 40: ~12 s).
MAX_PROCESSORS_NONCOMMUTATIVE = 40


@dataclass(frozen=True)
class Operation:
    """One reception and its reduction in a schedule.

    Attributes
    ----------
    sender, receiver : int
    transfer_start, transfer_end : Fraction
        The receiver's port is busy on this interval.
    compute_start, compute_end : Fraction
        The receiver reduces the received value on this interval.
    """

    sender: int
    receiver: int
    transfer_start: Fraction
    transfer_end: Fraction
    compute_start: Fraction
    compute_end: Fraction


@dataclass
class OptimumResult(Result):
    """The optimal schedule (``scipy.optimize.OptimizeResult`` style).

    Attributes
    ----------
    status : int
        0 on success; 1 if the optimal tree, evaluated again forward, does not give
        the DP's makespan (an internal inconsistency, never observed).
    message : str
    makespan : Fraction
        The minimum completion time.
    root : int
        Processor that holds the final value.
    children : dict of int to list of int
        Every processor's senders, in order of reception (leaves map to []).
    operations : list of Operation
        The schedule, sorted by transfer start.
    noncommutative : bool
        True when only neighbouring intervals were reduced.
    """

    status: int
    message: str
    makespan: Fraction
    root: int
    children: dict[int, list[int]]
    operations: list[Operation] = field(default_factory=list)
    noncommutative: bool = False

    def to_dict(self) -> dict:
        """JSON-ready data: ``makespan``/``makespan_exact``, ``root``, ``noncommutative``,
        ``children``, ``parent`` and the ``operations``, each time ``x`` as a float and
        ``x_exact`` as ``"p/q"``."""
        return {"status": self.status, "message": self.message, "success": self.success,
                **exact_pair("makespan", self.makespan), "root": self.root,
                "noncommutative": self.noncommutative, "children": to_jsonable(self.children),
                "parent": to_jsonable(self.parent),
                "operations": [{"sender": op.sender, "receiver": op.receiver,
                                **exact_pair("transfer_start", op.transfer_start),
                                **exact_pair("transfer_end", op.transfer_end),
                                **exact_pair("compute_start", op.compute_start),
                                **exact_pair("compute_end", op.compute_end)}
                               for op in self.operations]}

    as_dict = to_dict

    @property
    def parent(self) -> dict[int, int | None]:
        """Each processor's receiver (None for the root)."""
        parent: dict[int, int | None] = {self.root: None}
        for receiver, senders in self.children.items():
            for sender in senders:
                parent[sender] = receiver
        return parent

    def tree_text(self) -> str:
        """The tree as indented lines, children in order of reception."""
        lines: list[str] = []

        def walk(node: int, depth: int) -> None:
            lines.append("  " * depth + f"P{node}")
            for child in self.children[node]:
                walk(child, depth + 1)

        walk(self.root, 0)
        return "\n".join(lines)


# --------------------------------------------------------------------------- input

def _instance(comm: object, comp: object, start_times: object, limit: float = math.inf
              ) -> tuple[list[list[Fraction]], list[Fraction], list[Fraction]]:
    costs = MatrixCosts.from_input(comm, comp, exact=True)
    n = costs.n
    if n > limit:
        raise LimitError(f"the exact optimum grows exponentially with n: {n} processors, over "
                         f"max_processors = {limit}")
    starts = _start_times(start_times, n)
    return [list(row) for row in costs.d], list(costs.c), starts


def _start_times(values: object, n: int) -> list[Fraction]:
    return [Fraction(0)] * n if values is None else validate_start_times(values, n)


def _scale(*groups: Sequence[Fraction]) -> int:
    """Common denominator, so that the DP runs on integers (exact and fast)."""
    return math.lcm(1, *(v.denominator for group in groups for v in group))


# ------------------------------------------------------------------------- the DP

# step(sender, receiver, sender_ready, port_free, compute_free) -> (port_free, compute_free)
Step = Callable[[int, int, int, int, int], tuple[int, int]]


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _splits(state: int, holder: int, noncommutative: bool) -> Iterator[int]:
    """The possible last subtrees T of ``state`` (as masks) when ``holder`` keeps the rest."""
    rest = state & ~(1 << holder)
    if noncommutative:
        # state is an interval [a, b]: T must be a prefix [a, k] or a suffix [k, b].
        low, high = (state & -state).bit_length() - 1, state.bit_length() - 1
        for k in range(low, holder):
            yield ((1 << (k + 1)) - 1) & state
        for k in range(holder + 1, high + 1):
            yield state & ~((1 << k) - 1)
        return
    sub = rest
    while sub:
        yield sub
        sub = (sub - 1) & rest


def _states(n: int, noncommutative: bool) -> list[int]:
    if noncommutative:
        return [((1 << (b + 1)) - 1) ^ ((1 << a) - 1)
                for length in range(2, n + 1) for a in range(n - length + 1)
                for b in [a + length - 1]]
    return sorted(range(1, 1 << n), key=int.bit_count)[n:] if n > 0 else []


def _pareto(candidates: list[tuple[int, int, tuple]]) -> list[tuple[int, int, tuple]]:
    candidates.sort(key=lambda entry: (entry[0], entry[1]))
    front = []
    for entry in candidates:
        if not front or entry[1] < front[-1][1]:
            front.append(entry)
    return front


def _solve(n: int, step: Step, initial: list[tuple[int, int]], noncommutative: bool,
           root: int | None, progress: bool = False) -> tuple[int, int, dict[int, list[int]]]:
    """Run the DP; return (makespan, root, children) in scaled integer time."""
    # fronts[(i, S)]: Pareto list of (port_free, compute_free, back-pointer).
    fronts: dict[tuple[int, int], list[tuple[int, int, tuple]]] = {
        (i, 1 << i): [(initial[i][0], initial[i][1], ())] for i in range(n)}
    ready = {(i, 1 << i): (initial[i][1], 0) for i in range(n)}
    states = _states(n, noncommutative)
    if progress:
        from tqdm import tqdm

        states = tqdm(states, desc="optimum (DP over subsets)", leave=False, unit="set")
    for state in states:
        for holder in _bits(state):
            candidates = []
            for subtree in _splits(state, holder, noncommutative):
                before = fronts[(holder, state ^ subtree)]
                for sender in _bits(subtree):
                    sender_ready = ready[(sender, subtree)][0]
                    for index, (port, compute, _) in enumerate(before):
                        e, f = step(sender, holder, sender_ready, port, compute)
                        candidates.append((e, f, (index, subtree, sender)))
            if candidates:
                front = _pareto(candidates)
                fronts[(holder, state)] = front
                best = min(range(len(front)), key=lambda k: front[k][1])
                ready[(holder, state)] = (front[best][1], best)
    full = (1 << n) - 1
    roots = range(n) if root is None else [root]
    makespan, best_root = min((ready[(i, full)][0], i) for i in roots)

    children: dict[int, list[int]] = {i: [] for i in range(n)}

    def build(holder: int, state: int, index: int) -> None:
        back = fronts[(holder, state)][index][2]
        if not back:
            return
        previous, subtree, sender = back
        build(holder, state ^ subtree, previous)
        children[holder].append(sender)
        build(sender, subtree, ready[(sender, subtree)][1])

    build(best_root, full, ready[(best_root, full)][1])
    return makespan, best_root, children


# ---------------------------------------------------------------- public functions

def evaluate_tree(comm: object, comp: object, children: dict[int, Sequence[int]], root: int, *,
                  start_times: object = None) -> tuple[Fraction, list[Operation]]:
    """Makespan of a given reduction tree and reception order, every operation ASAP.

    A transfer to P_i starts when the sender has finished all its reductions
    and P_i's previous reception has ended (and not before P_i's start time);
    its reduction starts when the value has arrived and P_i's previous
    reduction has ended.

    Parameters
    ----------
    comm : n x n matrix
        d(i, j); ints, Fractions, floats or ``"p/q"`` strings (diagonal ignored).
    comp : length-n sequence
        c_i.
    children : dict of int to sequence of int
        Every processor's senders in order of reception (missing keys: leaves).
    root : int
        The processor that ends with the whole reduction.
    start_times : length-n sequence, optional
        P_i neither receives nor computes before its start time (default 0).

    Returns
    -------
    makespan : Fraction
    operations : list of Operation

    Raises
    ------
    InputError
        If the costs are invalid, or ``children`` is not a tree on all n
        processors rooted at ``root``.

    Examples
    --------
    >>> evaluate_tree([[0, 1], [1, 0]], [1, 1], {0: [1]}, 0)[0]
    Fraction(2, 1)

    References
    ----------
    RR 8315, section 3.1 (the model: one value sent per processor, one
    reception at a time, reduction on receipt).
    """
    d, c, starts = _instance(comm, comp, start_times)
    return _evaluate(d, c, starts, children, root)


def _evaluate(d: list[list[Fraction]], c: list[Fraction], starts: list[Fraction],
              children: dict[int, Sequence[int]], root: int) -> tuple[Fraction, list[Operation]]:
    n = len(c)
    seen: set[int] = set()
    operations: list[Operation] = []

    def finish(node: int) -> Fraction:
        if node in seen or not 0 <= node < n:
            raise InputError(f"children does not describe a tree: P{node} appears twice "
                             "or does not exist")
        seen.add(node)
        port = compute = starts[node]
        for sender in children.get(node, ()):
            ready = finish(sender)
            transfer_start = max(ready, port)
            port = transfer_start + d[sender][node]
            compute_start = max(port, compute)
            compute = compute_start + c[node]
            operations.append(Operation(sender, node, transfer_start, port, compute_start,
                                        compute))
        return compute

    makespan = finish(root)
    if len(seen) != n:
        missing = min(set(range(n)) - seen)
        raise InputError(f"children does not reach P{missing} from root P{root}")
    operations.sort(key=lambda op: (op.transfer_start, op.receiver))
    return makespan, operations


def clairvoyant_optimum(comm: object, comp: object = None, *, noncommutative: bool = False,
                        start_times: object = None, root: int | None = None,
                        max_processors: int | None = None,
                        progress: bool = False) -> OptimumResult:
    """The exact minimum makespan of a reduction, over every tree and order.

    Parameters
    ----------
    comm : n x n matrix
        d(i, j), the time to send one value from P_i to P_j (ints, Fractions,
        floats or ``"p/q"`` strings; the diagonal is ignored).
    comp : length-n sequence, optional
        c_i, the time of one reduction on P_i (0 when omitted).
    noncommutative : bool
        Only neighbouring intervals may be reduced: P_i holding v[k, m] may
        receive v[j, k-1] or v[m+1, j] only.
    start_times : length-n sequence, optional
        P_i starts (can receive, compute or send) at this time; 0 by default.
    root : int, optional
        Force the processor that ends with the result; by default any.
    max_processors : int, optional
        Refuse larger instances before any work; by default :data:`MAX_PROCESSORS`
        (12: about 30 s) or, non-commutative, :data:`MAX_PROCESSORS_NONCOMMUTATIVE`
        (40: about 12 s).  The work grows like n²·3^(n-1) (commutative) or n^4.
    progress : bool
        Show a tqdm bar over the DP's subsets.

    Returns
    -------
    OptimumResult
        ``makespan`` (Fraction), ``root``, ``children`` (the tree, children in
        order of reception) and ``operations`` (the schedule).

    Raises
    ------
    InputError
        If a cost is missing, negative or not a number, the matrix is not
        square, or ``root`` is out of range.
    LimitError
        If n > ``max_processors`` (the message names ``max_processors``).

    Examples
    --------
    >>> result = clairvoyant_optimum([[0, 1, 1], [1, 0, 1], [1, 1, 0]], [0, 0, 0])
    >>> result.makespan
    Fraction(2, 1)

    References
    ----------
    RR 8315, section 3.1 (model); the DP is hetcoll's (see the module docstring).
    """
    if max_processors is None:
        max_processors = MAX_PROCESSORS_NONCOMMUTATIVE if noncommutative else MAX_PROCESSORS
    d, c, starts = _instance(comm, comp, start_times, max_processors)
    n = len(c)
    if root is not None and (isinstance(root, bool) or not isinstance(root, int)
                             or not 0 <= root < n):
        raise InputError(f"root must be a processor index in 0..{n - 1}, got {root!r}")
    scale = _scale(*d, c, starts)
    di = [[int(v * scale) for v in row] for row in d]
    ci = [int(v * scale) for v in c]

    def step(sender: int, receiver: int, ready: int, port: int, compute: int) -> tuple[int, int]:
        arrival = max(ready, port) + di[sender][receiver]
        return arrival, max(arrival, compute) + ci[receiver]

    initial = [(int(t * scale),) * 2 for t in starts]
    makespan, best_root, children = _solve(n, step, initial, noncommutative, root, progress)
    check, operations = _evaluate(d, c, starts, children, best_root)
    status, message = 0, "optimal"
    if check != Fraction(makespan, scale):  # pragma: no cover - internal consistency
        status, message = 1, f"internal error: tree evaluates to {fraction_str(check)}"
    return OptimumResult(status, message, Fraction(makespan, scale), best_root, children,
                         operations, noncommutative)


def simplified_model_optimum(start_times: Sequence[object], psi: object, tau: object = 0
                             ) -> OptimumResult:
    """Optimum under Marendić et al.'s performance model, with start times.

    Merging P_a's value (ready at time a) into P_b (free at time b) ends at
    max(a + τ, b) + ψ: the receiver is busy for ψ (receive and combine), and
    the first τ of a transfer need not involve it.  τ = 0 is their simplified
    model (Fig. 2).  The operation is commutative.  Unlike
    :func:`clairvoyant_optimum`, receptions are not serialised: several τ
    phases may overlap at one receiver, as in their Fig. 1.

    Parameters
    ----------
    start_times : sequence of numbers
        When each process enters the reduction (its load imbalance).
    psi : number
        ψ >= 0, receive-and-combine time on the receiver.
    tau : number, optional
        τ >= 0 (default 0).

    Returns
    -------
    OptimumResult
        ``operations`` is left empty (the model has no separate transfers).

    Raises
    ------
    InputError
        If a time is negative or not a number, or there are more than 12 processes.

    Examples
    --------
    >>> simplified_model_optimum([0, 0, 0, 0], 1).makespan
    Fraction(2, 1)

    References
    ----------
    P. Marendić et al., "An investigation into the performance of reduction
    algorithms under load imbalance", section 3, Figs. 1 and 2, Lemma 1.
    """
    starts = validate_start_times(start_times, None)
    n = len(starts)
    if n > MAX_PROCESSORS:
        raise LimitError(f"the exact optimum grows exponentially with n: {n} processes, over "
                         f"{MAX_PROCESSORS}")
    psi_f, tau_f = to_fraction(psi, "psi"), to_fraction(tau, "tau")
    if psi_f < 0 or tau_f < 0:
        raise InputError("psi and tau must be non-negative")
    scale = _scale(starts, [psi_f, tau_f])
    psi_i, tau_i = int(psi_f * scale), int(tau_f * scale)

    def step(sender: int, receiver: int, ready: int, port: int, compute: int) -> tuple[int, int]:
        return 0, max(ready + tau_i, compute) + psi_i

    initial = [(0, int(t * scale)) for t in starts]
    makespan, best_root, children = _solve(n, step, initial, False, None)
    return OptimumResult(0, "optimal", Fraction(makespan, scale), best_root, children)


def _rooted_trees(n: int) -> Iterator[tuple[int, dict[int, list[int]]]]:
    """Every rooted labelled tree on n nodes, as (root, children sets)."""
    for root in range(n):
        others = [v for v in range(n) if v != root]
        for parents in itertools.product(range(n), repeat=len(others)):
            parent = dict(zip(others, parents, strict=True))
            if any(parent[v] == v for v in others):
                continue
            acyclic = True
            for v in others:
                steps, u = 0, v
                while u != root and steps <= n:
                    u, steps = parent[u], steps + 1
                if u != root:
                    acyclic = False
                    break
            if acyclic:
                children: dict[int, list[int]] = {v: [] for v in range(n)}
                for v in others:
                    children[parent[v]].append(v)
                yield root, children


def _neighbouring(children: dict[int, Sequence[int]], root: int) -> bool:
    """True when every reception joins two neighbouring intervals."""

    def interval(node: int) -> tuple[int, int] | None:
        low = high = node
        for child in children[node]:
            span = interval(child)
            if span is None:
                return None
            if span[1] == low - 1:
                low = span[0]
            elif span[0] == high + 1:
                high = span[1]
            else:
                return None
        return low, high

    return interval(root) is not None


def brute_force_optimum(comm: object, comp: object = None, *, noncommutative: bool = False,
                        start_times: object = None
                        ) -> tuple[Fraction, int, dict[int, list[int]]]:
    """Reference optimum by enumeration of every tree and every order (n <= 6).

    Independent of :func:`clairvoyant_optimum`'s DP: it lists every rooted
    labelled tree (n^(n-1) of them) and every order of each processor's
    receptions, and evaluates each schedule forward with :func:`evaluate_tree`.

    Parameters
    ----------
    comm, comp, noncommutative, start_times
        As in :func:`clairvoyant_optimum`.

    Returns
    -------
    makespan : Fraction
    root : int
    children : dict of int to list of int

    Raises
    ------
    InputError
        If the costs are invalid or n > 6.

    Examples
    --------
    >>> brute_force_optimum([[0, 2], [1, 0]], [0, 0])[0]
    Fraction(1, 1)

    References
    ----------
    RR 8315, section 3.1 (model); Cayley's n^(n-1) rooted labelled trees.
    """
    d, c, starts = _instance(comm, comp, start_times)
    n = len(c)
    if n > 6:
        raise InputError(f"brute force is for n <= 6, got {n}")
    best: tuple[Fraction, int, dict[int, list[int]]] | None = None
    for root, children in _rooted_trees(n):
        for orders in itertools.product(*(itertools.permutations(children[v]) for v in range(n))):
            ordered = {v: list(order) for v, order in enumerate(orders)}
            if noncommutative and not _neighbouring(ordered, root):
                continue
            makespan, _ = _evaluate(d, c, starts, ordered, root)
            if best is None or makespan < best[0]:
                best = (makespan, root, ordered)
    assert best is not None
    return best
