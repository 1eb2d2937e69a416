"""SSSP, SSGP and SSRP written with pulp: the readable formulation, one constraint per law.

These models state the LPs as the slides do (LMR, "Series of Scatter" and "Series of
Reduce"), with NOTES.md section 1 fixes, without any of the index arithmetic of
:mod:`lp.model`.  They are slow to build (pulp adds rows one at a time) but easy to
read and export (``problem.writeLP("sssp.lp")``, ``problem.writeMPS("sssp.mps")``), and
the tests solve them with pulp's bundled CBC to cross-check the sparse builder and
HiGHS with an independent formulation and solver.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from fractions import Fraction

import pulp

from hetcoll.core.numbers import positive_fraction
from hetcoll.core.platform import Platform, check_reduce_roles, check_scatter_roles

__all__ = ["gather_lp_pulp", "reduce_lp_pulp", "scatter_lp_pulp"]


def _name(*parts: object) -> str:
    return "_".join(str(p) for p in parts)


def _tokens(platform: Platform) -> dict[str, str]:
    """Processor name -> the token used in LP names (ASCII letters and digits only).

    Tokens are the names stripped of every other character when that keeps them
    non-empty and distinct (``P0`` stays ``P0``); otherwise every processor gets
    ``p<index>x<stripped name>``, unique by its index.  With tokens free of ``_`` and
    a fixed number of parts per kind of name, the LP names never collide (pulp
    refuses duplicates: processors ``a-b`` and ``ab``, or ``a_b`` and ``a``, used to
    stop the export with a traceback).
    """
    stripped = [re.sub(r"[^A-Za-z0-9]", "", name) for name in platform.names]
    if all(stripped) and len(set(stripped)) == len(stripped):
        return dict(zip(platform.names, stripped, strict=True))
    return {name: f"p{i}x{token}"
            for i, (name, token) in enumerate(zip(platform.names, stripped, strict=True))}


def _one_port(problem: pulp.LpProblem, platform: Platform, flows: dict,
              tokens: dict[str, str], sizes: Mapping | None = None) -> None:
    """Out-port and in-port constraints: time sending (receiving) per time unit <= 1.

    A message of type k takes ``sizes[k] × cost`` on a link (``sizes`` None: 1).
    """
    out_terms, in_terms = defaultdict(list), defaultdict(list)
    for (i, j, kind), variable in flows.items():
        size = 1 if sizes is None else sizes[kind]
        out_terms[i].append(variable * float(platform.link_cost(i, j) * size))
        in_terms[j].append(variable * float(platform.link_cost(i, j) * size))
    for name in platform.names:
        problem += pulp.lpSum(out_terms[name]) <= 1, _name("out", tokens[name])
        problem += pulp.lpSum(in_terms[name]) <= 1, _name("in", tokens[name])


def _incidence(flows: dict) -> tuple[defaultdict, defaultdict]:
    """Flow variables entering and leaving each (processor, message type)."""
    into, out_of = defaultdict(list), defaultdict(list)
    for (i, j, kind), variable in flows.items():
        into[j, kind].append(variable)
        out_of[i, kind].append(variable)
    return into, out_of


def scatter_lp_pulp(platform: Platform, source: str, targets: Sequence[str], *,
                    sizes: Mapping[str, object] | None = None) -> pulp.LpProblem:
    """SSSP(G) as a :class:`pulp.LpProblem`.

    Variables ``send_<i>_<j>_<k>`` (messages for target k per time unit on link i -> j)
    and ``TP``; constraints ``out_<i>``, ``in_<i>`` (one-port) and ``conserve_<i>_<k>``.
    ``<i>`` is the processor's name reduced to ASCII letters and digits, or
    ``p<index>x<that>`` for every processor when this would make two names collide.

    Parameters
    ----------
    platform : Platform
    source : str
    targets : sequence of str
    sizes : mapping, optional
        Message size per target (default 1).

    Returns
    -------
    pulp.LpProblem
        Maximise ``TP``; solve with e.g. ``problem.solve(pulp.PULP_CBC_CMD(msg=False))``.

    Raises
    ------
    InputError
        As :func:`lp.steady_state_scatter_lp`.

    Examples
    --------
    >>> import pulp
    >>> from hetcoll.lp import read_platform
    >>> problem = scatter_lp_pulp(read_platform("examples/scatter_counterexample.json"),
    ...                           "S", ["P1", "P2"])
    >>> problem.solve(pulp.PULP_CBC_CMD(msg=False)) == pulp.LpStatusOptimal
    True
    >>> round(pulp.value(problem.objective), 6)
    0.5

    References
    ----------
    LMR slides, "Throughput and Linear Program" (SSSP(G)); NOTES.md section 1.
    """
    check_scatter_roles(platform, source, targets)
    return _flow_lp_pulp(platform, "SSSP", {k: (source, k) for k in targets}, sizes)


def gather_lp_pulp(platform: Platform, sources: Sequence[str], target: str, *,
                   sizes: Mapping[str, object] | None = None) -> pulp.LpProblem:
    """SSGP(G), the gather LP, as a :class:`pulp.LpProblem`.

    The scatter formulation (:func:`scatter_lp_pulp`) with the roles turned round:
    ``send_<i>_<j>_<k>`` carries the message of source k; source k is exempt from the
    conservation of its own message, and TP is the net inflow of every message at the
    target.

    Parameters
    ----------
    platform : Platform
    sources : sequence of str
    target : str
    sizes : mapping, optional
        Message size per source (default 1).

    Returns
    -------
    pulp.LpProblem

    Raises
    ------
    InputError
        As :func:`lp.steady_state_gather_lp`.

    Examples
    --------
    >>> import pulp
    >>> from hetcoll.lp import read_platform
    >>> problem = gather_lp_pulp(read_platform("examples/two_processor.json"), ["P1"], "P0",
    ...                          sizes={"P1": 2})
    >>> problem.solve(pulp.PULP_CBC_CMD(msg=False)) == pulp.LpStatusOptimal
    True
    >>> round(pulp.value(problem.objective), 6)
    0.5

    References
    ----------
    LMR slides, "Throughput and Linear Program" (SSSP(G), roles turned round);
    hetcoll issue 12.
    """
    from hetcoll.lp.operations import check_gather_roles

    check_gather_roles(platform, sources, target)
    return _flow_lp_pulp(platform, "SSGP", {k: (k, target) for k in sources}, sizes)


def _flow_lp_pulp(platform: Platform, name: str, ends: dict[str, tuple[str, str]],
                  sizes: Mapping[str, object] | None) -> pulp.LpProblem:
    """The multi-commodity flow: type k from ``ends[k][0]`` to ``ends[k][1]``."""
    exact = {k: Fraction(1) if sizes is None or k not in sizes
             else positive_fraction(sizes[k], f"message size of {k!r}") for k in ends}
    problem = pulp.LpProblem(name, pulp.LpMaximize)
    tp = problem.add_variable("TP", lowBound=0)
    problem += tp
    tokens = _tokens(platform)
    send = {(link.source, link.target, k): problem.add_variable(
                _name("send", tokens[link.source], tokens[link.target], tokens[k]), lowBound=0)
            for link in platform.links for k in ends}
    _one_port(problem, platform, send, tokens, exact)
    into, out_of = _incidence(send)
    for k, (origin, destination) in ends.items():
        for node in platform.names:
            if node == origin:
                continue  # the origin of a message is exempt from its conservation
            inflow = pulp.lpSum(into[node, k])
            outflow = pulp.lpSum(out_of[node, k])
            if node == destination:  # TP is the net inflow of m_k at its destination
                problem += inflow - outflow == tp, _name("conserve", tokens[node], tokens[k])
            else:
                problem += inflow == outflow, _name("conserve", tokens[node], tokens[k])
    return problem


def reduce_lp_pulp(platform: Platform, participants: Sequence[str],
                   target: str) -> pulp.LpProblem:
    """SSRP(G) as a :class:`pulp.LpProblem` (unit sizes, default task costs).

    Variables ``s_<i>_<j>_<k>_<m>`` (values v[k,m] per time unit on link i -> j),
    ``cons_<i>_<k>_<l>_<m>`` (tasks T(k,l,m) per time unit on P_i) and ``TP``; processor
    names ``<i>`` as in :func:`scatter_lp_pulp`.

    Parameters
    ----------
    platform : Platform
    participants : sequence of str
        In operand order.
    target : str

    Returns
    -------
    pulp.LpProblem

    Raises
    ------
    InputError
        As :func:`lp.steady_state_reduce_lp`.

    Examples
    --------
    >>> from hetcoll.lp import read_platform
    >>> problem = reduce_lp_pulp(read_platform("examples/two_processor.json"),
    ...                          ["P0", "P1"], "P0")
    >>> problem.writeLP("/dev/null") is not None  # or a real file, to read the LP
    True

    References
    ----------
    LMR slides, "Series of Reduce" (SSRP(G)); NOTES.md section 1.
    """
    check_reduce_roles(platform, participants, target)
    last = len(participants) - 1
    intervals = [(k, m) for k in range(last + 1) for m in range(k, last + 1)]
    tasks = [(k, split, m) for k in range(last + 1) for m in range(k + 1, last + 1)
             for split in range(k, m)]
    problem = pulp.LpProblem("SSRP", pulp.LpMaximize)
    tp = problem.add_variable("TP", lowBound=0)
    problem += tp
    tokens = _tokens(platform)
    s = {(link.source, link.target, iv): problem.add_variable(
             _name("s", tokens[link.source], tokens[link.target], *iv), lowBound=0)
         for link in platform.links for iv in intervals
         if not (iv == (0, last) and link.source == target)}  # v[0,N] never leaves the target
    cons = {(name, task): problem.add_variable(_name("cons", tokens[name], *task), lowBound=0)
            for name in platform.names for task in tasks}
    _one_port(problem, platform, s, tokens)
    into, out_of = _incidence(s)
    for name in platform.names:
        problem += pulp.lpSum(cons[name, task] * float(platform.compute_cost(name))
                              for task in tasks) <= 1, _name("alpha", tokens[name])
    for name in platform.names:
        for k, m in intervals:
            if k == m and participants[k] == name:
                continue  # the owner of v_k is exempt
            received = pulp.lpSum(into[name, (k, m)])
            sent = pulp.lpSum(out_of[name, (k, m)])
            produced = pulp.lpSum(cons[name, (k, split, m)] for split in range(k, m))
            as_left = pulp.lpSum(cons[name, (k, m, n)] for n in range(m + 1, last + 1))
            as_right = pulp.lpSum(cons[name, (n, k - 1, m)] for n in range(k))
            if (k, m) == (0, last) and name == target:
                # TP = received v[0,N] + computed v[0,N] at the target.
                problem += received + produced == tp, _name("conserve", tokens[name], k, m)
            else:
                problem += (received + produced == sent + as_left + as_right,
                            _name("conserve", tokens[name], k, m))
    return problem
