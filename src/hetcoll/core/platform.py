"""Platform model: processors with a computation cost, links with a communication cost.

A platform is the graph G = (V, E, c) of Legrand, Marchal and Robert (LMR,
"Platform model" slides): ``c(j, k)`` is the time to send one unit-size
message on link j -> k, and ``w`` the time a processor takes for one
reduction task.  Every number is kept exact (:class:`fractions.Fraction`).

One vocabulary, shared by every hetcoll package: ``comm`` is the time to send one
unit of data (:attr:`Link.comm`, LMR's c(j, k), RR's d(i, j): the simulator's cost
models answer it as ``comm(k, sender, receiver, interval)``) and ``comp`` the time of
one reduction operation (:attr:`Processor.comp`, LMR's w, RR's c_i: ``comp(k,
processor)``).  The file formats keep their keys ``"cost"`` and
``"compute"``, and the old attribute names remain as read-only aliases.

JSON format
-----------
::

    {
      "description": "free text (optional)",
      "processors": [{"name": "P0", "compute": "3/2"}, ...],
      "links": [{"from": "P0", "to": "P1", "cost": 1},
                {"from": "P1", "to": "P2", "cost": "0.5", "bidirectional": true},
                {"from": "P2", "to": "P0", "cost": "1/8", "latency": "1/100"}, ...],
      "scatter": {"source": "P0", "targets": ["P1", "P2"]},        (optional)
      "gather": {"sources": ["P1", "P2"], "target": "P0",
                 "sizes": {"P2": "1/2"}},                           (optional)
      "reduce": {"participants": ["P0", "P1"], "target": "P0"}     (optional)
    }

Numbers may be ints, floats or strings (``"3/7"``, ``"0.25"``).  A link with
``"bidirectional": true`` stands for the two directed links of the same cost.
``"scatter"``, ``"gather"`` and ``"reduce"`` are default scenarios, used by
``hetcoll report`` and by ``hetcoll lp`` when no roles are given.  A scatter or
gather scenario may give ``"sizes"``: the message size of some of its targets
(sources), exact numbers; the others default to 1.

A link's optional ``"latency"`` (default 0) is the start-up time alpha of the Hockney
model t = alpha + cost * m used by the scatterv/gatherv trees
(:mod:`hetcoll.sim.collectives`); the steady-state LPs ignore it (latency is amortised
in steady state).  Files without it keep their meaning.

GraphML files hold the same data: node attribute ``compute``, edge attribute
``cost`` (numbers or ``"p/q"`` strings) and optional ``latency``; undirected graphs
stand for both directions; the optional graph attributes ``description``,
``scatter``, ``gather`` and
``reduce`` hold the same values (the scenarios as JSON strings).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from pathlib import Path
from typing import Any

import networkx as nx

from hetcoll.core.errors import InputError
from hetcoll.core.jsonio import parse_json, read_text
from hetcoll.core.numbers import fraction_str, nonnegative_number, positive_fraction

__all__ = [
    "Link",
    "Platform",
    "Processor",
    "SCENARIO_KEYS",
    "platform_from_dict",
    "platform_from_networkx",
    "platform_to_dict",
    "platform_to_networkx",
    "read_platform",
    "write_platform",
]


@dataclass(frozen=True)
class Processor:
    """A processor and the time ``comp`` it takes for one reduction task.

    ``comp`` is LMR's w and RR's c_i; the platform file's key is ``"compute"``.
    """

    name: str
    comp: Fraction

    @property
    def compute(self) -> Fraction:
        """The platform file's name for :attr:`comp`."""
        return self.comp


@dataclass(frozen=True)
class Link:
    """A directed link; sending one unit-size message takes ``comm``.

    ``comm`` is LMR's c(j, k) and RR's d(i, j); the platform file's key is ``"cost"``.
    ``latency`` (key ``"latency"``, default 0) is the Hockney start-up time alpha: a
    message of size m takes ``latency + comm * m`` (Dichev, Rychkov, Lastovetsky, §2).
    The steady-state LPs ignore it.
    """

    source: str
    target: str
    comm: Fraction
    latency: Fraction = Fraction(0)

    @property
    def cost(self) -> Fraction:
        """The platform file's name for :attr:`comm`."""
        return self.comm


@dataclass(frozen=True)
class Platform:
    """A validated heterogeneous platform (build it with :func:`platform_from_dict` & co).

    Attributes
    ----------
    processors : tuple of Processor
        In the order given; names are unique.
    links : tuple of Link
        Directed, no self-loops, at most one link per ordered pair.
    description : str
    scatter_defaults : dict or None
        ``{"source": str, "targets": [str, ...]}``, the default scatter scenario.
    reduce_defaults : dict or None
        ``{"participants": [str, ...], "target": str}``, the default reduce scenario.
    gather_defaults : dict or None
        ``{"sources": [str, ...], "target": str}`` (and optional ``"sizes"``), the
        default gather scenario.
    """

    processors: tuple[Processor, ...]
    links: tuple[Link, ...]
    description: str = ""
    scatter_defaults: dict[str, Any] | None = field(default=None, hash=False)
    reduce_defaults: dict[str, Any] | None = field(default=None, hash=False)
    gather_defaults: dict[str, Any] | None = field(default=None, hash=False)

    def __post_init__(self) -> None:
        _validate(self)

    @property
    def names(self) -> tuple[str, ...]:
        """Processor names, in order."""
        return tuple(p.name for p in self.processors)

    @cached_property
    def index(self) -> dict[str, int]:
        """Map from processor name to its position in :attr:`processors`."""
        return {p.name: i for i, p in enumerate(self.processors)}

    @cached_property
    def _link_costs(self) -> dict[tuple[str, str], Fraction]:
        return {(link.source, link.target): link.comm for link in self.links}

    @cached_property
    def _links(self) -> dict[tuple[str, str], Link]:
        return {(link.source, link.target): link for link in self.links}

    def link(self, a: str, b: str) -> Link | None:
        """The link ``a -> b``, or None when the platform has none."""
        return self._links.get((a, b))

    def compute_cost(self, name: str) -> Fraction:
        """Time processor ``name`` takes for one reduction task.

        Raises
        ------
        InputError
            If there is no such processor.
        """
        return self.processors[self.require(name, "processor")].compute

    def link_cost(self, a: str, b: str) -> Fraction:
        """Cost of the link ``a -> b``.

        Raises
        ------
        InputError
            If there is no such link.
        """
        try:
            return self._link_costs[(a, b)]
        except KeyError:
            raise InputError(f"no link {a}->{b} in the platform") from None

    def require(self, name: object, what: str) -> int:
        """Index of processor ``name``; InputError naming ``what`` if it is unknown."""
        if not isinstance(name, str) or name not in self.index:
            raise InputError(f"{what} {name!r} is not a processor of the platform")
        return self.index[name]

    def scenario(self, kind: str) -> dict[str, Any] | None:
        """The platform file's default scenario of ``kind`` (``"scatter"``, ``"gather"``,
        ``"reduce"``), or None."""
        return getattr(self, f"{kind}_defaults")

    def graph(self) -> nx.DiGraph:
        """The platform as a :class:`networkx.DiGraph` (same as :func:`platform_to_networkx`)."""
        return platform_to_networkx(self)


def _validate(platform: Platform) -> None:
    if not platform.processors:
        raise InputError("the platform has no processors")
    seen: set[str] = set()
    for proc in platform.processors:
        if not isinstance(proc.name, str) or not proc.name.strip():
            raise InputError(f"processor name must be a non-empty string, got {proc.name!r}")
        if proc.name in seen:
            raise InputError(f"duplicate processor name {proc.name!r}")
        seen.add(proc.name)
        positive_fraction(proc.comp, f"compute cost of processor {proc.name}")
    pairs: set[tuple[str, str]] = set()
    for link in platform.links:
        for end in (link.source, link.target):
            if end not in seen:
                raise InputError(
                    f"link {link.source}->{link.target} names unknown processor {end!r}")
        if link.source == link.target:
            raise InputError(f"self-loop on processor {link.source!r}")
        if (link.source, link.target) in pairs:
            raise InputError(f"duplicate link {link.source}->{link.target}")
        pairs.add((link.source, link.target))
        positive_fraction(link.comm, f"cost of link {link.source}->{link.target}")
        nonnegative_number(link.latency, f"latency of link {link.source}->{link.target}")
    for key in SCENARIO_KEYS:
        if platform.scenario(key) is not None:
            _check_scenario(platform, platform.scenario(key), key, _SCENARIO_FIELDS[key])


#: The scenarios a platform file may hold, and the role fields of each.
SCENARIO_KEYS = ("scatter", "gather", "reduce")
_SCENARIO_FIELDS = {"scatter": ("source", "targets"), "gather": ("sources", "target"),
                    "reduce": ("participants", "target")}


def _check_scenario(platform: Platform, scenario: object, key: str,
                    fields: tuple[str, str]) -> None:
    if not isinstance(scenario, Mapping):
        raise InputError(f'"{key}" must be an object with keys {fields[0]!r} and {fields[1]!r}')
    for name in fields:
        if name not in scenario:
            raise InputError(f'"{key}" scenario lacks the field {name!r}')
    optional = ("sizes",) if key != "reduce" else ()
    unknown = set(scenario) - set(fields) - set(optional)
    if unknown:
        raise InputError(f'"{key}" scenario has unknown field {sorted(unknown)[0]!r}')
    for name in fields:
        value = scenario[name]
        if name in _LIST_FIELDS:
            if not isinstance(value, list):
                raise InputError(f'"{key}" scenario: {name} must be a list of processor '
                                 f'names, got {value!r}')
            if not value:
                raise InputError(f'"{key}" scenario: {name} is empty')
            names = value
        else:
            if not isinstance(value, str):
                raise InputError(f'"{key}" scenario: {name} must be one processor name, '
                                 f'got {value!r}')
            names = [value]
        for item in names:
            platform.require(item, f'"{key}" scenario {name}')
    if "sizes" in scenario:
        _check_sizes(scenario["sizes"], key, next(f for f in fields if f in _LIST_FIELDS),
                     scenario)


def _check_sizes(sizes: object, key: str, owners: str, scenario: Mapping) -> None:
    """The ``"sizes"`` of a scenario: positive numbers for some of its ``owners``."""
    if not isinstance(sizes, Mapping):
        raise InputError(f'"{key}" scenario: sizes must be an object {{process: size}}, '
                         f'got {sizes!r}')
    for name, value in sizes.items():
        if name not in scenario[owners]:
            raise InputError(f'"{key}" scenario: size for {name!r}, which is not one of '
                             f'its {owners}')
        positive_fraction(value, f'"{key}" scenario: size of {name}')


#: Scenario fields that hold a list of processor names (the others hold one name).
_LIST_FIELDS = frozenset({"targets", "participants", "sources"})


# --- dict / JSON -------------------------------------------------------------------------


def platform_from_dict(data: Mapping[str, Any]) -> Platform:
    """Build a :class:`Platform` from the JSON structure described in this module.

    Parameters
    ----------
    data : mapping
        ``{"processors": [...], "links": [...]}`` and optional ``"description"``,
        ``"scatter"``, ``"gather"``, ``"reduce"``.

    Returns
    -------
    Platform

    Raises
    ------
    InputError
        Naming the culprit: a missing field, a duplicate or unknown processor name, a
        self-loop, a duplicate link, a missing/zero/negative/NaN/infinite cost...

    Examples
    --------
    >>> p = platform_from_dict({"processors": [{"name": "A", "compute": 1},
    ...                                        {"name": "B", "compute": "3/2"}],
    ...                         "links": [{"from": "A", "to": "B", "cost": "1/3"}]})
    >>> p.link_cost("A", "B")
    Fraction(1, 3)

    References
    ----------
    Legrand, Marchal, Robert (2004), "Platform model": c(j, k) is the time to send
    one unit-size message on link j -> k, w the time of one reduction task.
    """
    if not isinstance(data, Mapping):
        raise InputError(f"a platform must be a JSON object, got {type(data).__name__}")
    known = {"description", "processors", "links", *SCENARIO_KEYS}
    unknown = sorted(set(data) - known)
    if unknown:
        raise InputError(f"unknown top-level field {unknown[0]!r} in platform "
                         f"(expected some of {sorted(known)})")
    processors_data = _require_list(data, "processors")
    links_data = _require_list(data, "links")
    processors = []
    for i, item in enumerate(processors_data):
        if not isinstance(item, Mapping):
            raise InputError(f"processors[{i}] must be an object")
        name = item.get("name")
        if not isinstance(name, str) or not name.strip():
            raise InputError(f"processors[{i}] needs a non-empty string \"name\"")
        extra = sorted(set(item) - {"name", "compute"})
        if extra:
            raise InputError(f"processor {name!r} has unknown field {extra[0]!r}")
        processors.append(Processor(name, positive_fraction(
            item.get("compute"), f"compute cost of processor {name}")))
    links = []
    for i, item in enumerate(links_data):
        if not isinstance(item, Mapping):
            raise InputError(f"links[{i}] must be an object")
        extra = sorted(set(item) - {"from", "to", "cost", "latency", "bidirectional"})
        if extra:
            raise InputError(f"links[{i}] has unknown field {extra[0]!r}")
        a, b = item.get("from"), item.get("to")
        if not isinstance(a, str) or not isinstance(b, str):
            raise InputError(f"links[{i}] needs string \"from\" and \"to\" processor names")
        cost = positive_fraction(item.get("cost"), f"cost of link {a}->{b}")
        both = item.get("bidirectional", False)
        if not isinstance(both, bool):
            raise InputError(f"links[{i}] field \"bidirectional\" must be true or false")
        latency = nonnegative_number(item.get("latency", 0), f"latency of link {a}->{b}")
        links.append(Link(a, b, cost, latency))
        if both:
            links.append(Link(b, a, cost, latency))
    description = data.get("description", "")
    if not isinstance(description, str):
        raise InputError("platform \"description\" must be a string")
    return Platform(tuple(processors), tuple(links), description,
                    **{f"{key}_defaults": _copy_scenario(data.get(key)) for key in SCENARIO_KEYS})


def _require_list(data: Mapping[str, Any], key: str) -> list:
    if key not in data:
        raise InputError(f"platform lacks the field {key!r}")
    if not isinstance(data[key], list):
        raise InputError(f"platform field {key!r} must be a list")
    return data[key]


def _copy_scenario(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: list(v) if isinstance(v, list) else dict(v) if isinstance(v, Mapping) else v
                for k, v in value.items()}
    return value


def _number(value: Fraction) -> int | str:
    return value.numerator if value.denominator == 1 else fraction_str(value)


def platform_to_dict(platform: Platform) -> dict[str, Any]:
    """The JSON structure of ``platform``; exact non-integers become ``"p/q"`` strings.

    Round trip: ``platform_from_dict(platform_to_dict(p)) == p``.

    Parameters
    ----------
    platform : Platform

    Returns
    -------
    dict
        ``"processors"``, ``"links"`` and, when set, ``"description"``, ``"scatter"``,
        ``"reduce"``; integers stay ints, other numbers become ``"p/q"`` strings.

    Raises
    ------
    None
        A :class:`Platform` is validated when built, so it always converts.

    Examples
    --------
    >>> p = platform_from_dict({"processors": [{"name": "A", "compute": 0.5}], "links": []})
    >>> platform_to_dict(p)
    {'processors': [{'name': 'A', 'compute': '1/2'}], 'links': []}

    References
    ----------
    Legrand, Marchal, Robert (2004), "Platform model"; NOTES.md §1.
    """
    data: dict[str, Any] = {}
    if platform.description:
        data["description"] = platform.description
    data["processors"] = [{"name": p.name, "compute": _number(p.comp)}
                          for p in platform.processors]
    data["links"] = [{"from": link.source, "to": link.target, "cost": _number(link.comm)}
                     | ({"latency": _number(link.latency)} if link.latency else {})
                     for link in platform.links]
    for key in SCENARIO_KEYS:
        if platform.scenario(key) is not None:
            data[key] = _copy_scenario(platform.scenario(key))
    return data


# --- networkx / GraphML -------------------------------------------------------------------


def platform_from_networkx(graph: nx.Graph) -> Platform:
    """Build a platform from a networkx graph.

    Parameters
    ----------
    graph : networkx.DiGraph or networkx.Graph
        Node attribute ``compute`` and edge attribute ``cost`` (numbers or ``"p/q"``
        strings).  An undirected graph gives both directions of every edge.  Graph
        attributes ``description``, ``scatter``, ``gather`` and ``reduce`` (dicts or
        JSON strings) are optional.

    Returns
    -------
    Platform

    Raises
    ------
    InputError
        If a node lacks ``compute``, an edge lacks ``cost``, or any value is invalid.

    Examples
    --------
    >>> import networkx as nx
    >>> g = nx.DiGraph()
    >>> g.add_node("A", compute=1); g.add_node("B", compute=2)
    >>> g.add_edge("A", "B", cost="1/2")
    >>> platform_from_networkx(g).link_cost("A", "B")
    Fraction(1, 2)

    References
    ----------
    Legrand, Marchal, Robert (2004), "Platform model"; NOTES.md §1.
    """
    if graph.is_multigraph():
        raise InputError("multigraphs are not supported: give one link per ordered pair")
    processors = []
    for node, attrs in graph.nodes(data=True):
        name = str(node)
        processors.append(Processor(name, positive_fraction(
            attrs.get("compute"), f"compute cost of processor {name}")))
    links = []
    for a, b, attrs in graph.edges(data=True):
        cost = positive_fraction(attrs.get("cost"), f"cost of link {a}->{b}")
        latency = nonnegative_number(attrs.get("latency", 0), f"latency of link {a}->{b}")
        links.append(Link(str(a), str(b), cost, latency))
        if not graph.is_directed():
            links.append(Link(str(b), str(a), cost, latency))
    scenarios = {}
    for key in SCENARIO_KEYS:
        value = graph.graph.get(key)
        if isinstance(value, str):
            try:
                value = parse_json(value)
            except InputError as error:
                raise InputError(f"graph attribute {key!r}: {error}") from None
        scenarios[key] = _copy_scenario(value)
    description = graph.graph.get("description", "")
    return Platform(tuple(processors), tuple(links), str(description),
                    **{f"{key}_defaults": value for key, value in scenarios.items()})


def platform_to_networkx(platform: Platform, *, exact: bool = True) -> nx.DiGraph:
    """The platform as a :class:`networkx.DiGraph`.

    Parameters
    ----------
    platform : Platform
    exact : bool
        Attributes ``compute`` and ``cost`` are Fractions when True, floats otherwise.

    Returns
    -------
    networkx.DiGraph
        Graph attributes ``description`` and the scenarios as in the platform.

    Examples
    --------
    >>> p = read_platform("examples/two_processor.json")
    >>> platform_to_networkx(p, exact=False).edges["P0", "P1"]["cost"]
    1.0

    Raises
    ------
    None
        A :class:`Platform` is validated when built, so it always converts.

    References
    ----------
    Legrand, Marchal, Robert (2004), "Platform model"; NOTES.md §1.
    """
    convert = (lambda x: x) if exact else float
    graph = nx.DiGraph(description=platform.description)
    for key in SCENARIO_KEYS:
        if platform.scenario(key) is not None:
            graph.graph[key] = _copy_scenario(platform.scenario(key))
    for proc in platform.processors:
        graph.add_node(proc.name, compute=convert(proc.comp))
    for link in platform.links:
        graph.add_edge(link.source, link.target, cost=convert(link.comm),
                       **({"latency": convert(link.latency)} if link.latency else {}))
    return graph


# --- files -----------------------------------------------------------------------------------


def read_platform(path: str | Path) -> Platform:
    """Read a platform from a ``.json``, ``.graphml`` or SimGrid ``.xml`` file.

    Parameters
    ----------
    path : str or Path
        A ``.json`` file in the format of this module's docstring, or a ``.graphml``
        file (see :func:`platform_from_networkx`), or a SimGrid platform ``.xml``
        (:func:`hetcoll.core.simgrid.read_simgrid`, default options); the suffix
        chooses the reader.  ``"-"`` reads JSON from standard input.

    Returns
    -------
    Platform
        Validated, numbers exact; the file's ``"scatter"`` / ``"reduce"`` scenarios
        become :attr:`Platform.scatter_defaults` / :attr:`Platform.reduce_defaults`.

    Raises
    ------
    InputError
        If the file is not UTF-8 text, is malformed, its extension is unknown, or the
        platform is invalid; the message starts with the file name.
    OSError
        If the file cannot be read.

    Examples
    --------
    >>> read_platform("examples/ring_with_chord.graphml").link_cost("R0", "R3")
    Fraction(1, 4)

    References
    ----------
    Legrand, Marchal, Robert (2004), "Platform model" (G = (V, E, c)); NOTES.md §1.
    """
    stdin = str(path) == "-"
    path = Path(path)
    suffix = ".json" if stdin else path.suffix.lower()
    if suffix == ".xml":
        from hetcoll.core.simgrid import read_simgrid

        return read_simgrid(path).platform
    if suffix not in (".json", ".graphml"):
        raise InputError(f"{path}: unknown platform format {suffix!r} "
                         f"(use .json, .graphml or a SimGrid .xml)")
    text = read_text("-" if stdin else path)
    name = "<stdin>" if stdin else str(path)
    try:
        if suffix == ".json":
            return platform_from_dict(parse_json(text))
        try:
            graph = nx.parse_graphml(text)
        except Exception as error:  # networkx raises several XML/parse exception types
            raise InputError(f"malformed GraphML: {error}") from None
        return platform_from_networkx(graph)
    except InputError as error:
        raise InputError(f"{name}: {error}") from None


def write_platform(platform: Platform, path: str | Path, *, overwrite: bool = False) -> None:
    """Write ``platform`` to a ``.json`` or ``.graphml`` file (exact numbers as ``"p/q"``).

    Parameters
    ----------
    platform : Platform
    path : str or Path
        The suffix (``.json`` or ``.graphml``) chooses the format.
    overwrite : bool, optional
        Replace an existing file (default False: refuse).

    Returns
    -------
    None
        :func:`read_platform` reads the file back to an equal platform.

    Raises
    ------
    InputError
        If the file exists and ``overwrite`` is False, or the extension is unknown.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "copy.graphml"
    >>> write_platform(read_platform("examples/two_sites.json"), path)
    >>> len(read_platform(path).links)
    28

    References
    ----------
    Legrand, Marchal, Robert (2004), "Platform model"; NOTES.md §1.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".json", ".graphml"):
        raise InputError(f"{path}: unknown platform format {suffix!r} (use .json or .graphml)")
    if path.exists() and not overwrite:
        raise InputError(f"{path} exists; refusing to overwrite it")
    if suffix == ".json":
        path.write_text(json.dumps(platform_to_dict(platform), indent=2) + "\n",
                        encoding="utf-8")
        return
    graph = nx.DiGraph(description=platform.description)
    for key in SCENARIO_KEYS:
        if platform.scenario(key) is not None:
            graph.graph[key] = json.dumps(platform.scenario(key))
    for proc in platform.processors:
        graph.add_node(proc.name, compute=fraction_str(proc.comp))
    for link in platform.links:
        graph.add_edge(link.source, link.target, cost=fraction_str(link.comm),
                       **({"latency": fraction_str(link.latency)} if link.latency else {}))
    nx.write_graphml(graph, path)


# --- scenario checks shared by the solvers -----------------------------------------------------


def unreachable(platform: Platform, sources: Iterable[str], target: str) -> list[str]:
    """Those of ``sources`` from which no path of links leads to ``target``."""
    able = nx.ancestors(_link_graph(platform), target) | {target}
    return [s for s in sources if s not in able]


def unreached(platform: Platform, source: str, targets: Iterable[str]) -> list[str]:
    """Those of ``targets`` that no path of links from ``source`` leads to."""
    able = nx.descendants(_link_graph(platform), source) | {source}
    return [t for t in targets if t not in able]


def _link_graph(platform: Platform) -> nx.DiGraph:
    graph = nx.DiGraph()
    graph.add_nodes_from(platform.names)
    graph.add_edges_from((link.source, link.target) for link in platform.links)
    return graph


def check_names(platform: Platform, names: Sequence[object], what: str) -> list[int]:
    """Indices of ``names``; InputError if the list is empty, has a duplicate or an unknown."""
    if isinstance(names, str) or not isinstance(names, Sequence):
        raise InputError(f"{what} must be a list of processor names, got {names!r}")
    if not names:
        raise InputError(f"{what}: the list is empty")
    indices = [platform.require(name, what[:-1] if what.endswith("s") else what)
               for name in names]
    if len(set(indices)) != len(indices):
        dup = next(n for n in names if list(names).count(n) > 1)
        raise InputError(f"{what}: {dup!r} is listed twice")
    return indices


def check_scatter_roles(platform: Platform, source: object,
                        targets: Sequence[object]) -> tuple[int, list[int]]:
    """Indices of a scatter's ``source`` and ``targets``.

    InputError if a name is unknown, the source is a target, or a target
    cannot be reached from the source.
    """
    source_index = platform.require(source, "source")
    target_index = check_names(platform, targets, "targets")
    if source_index in target_index:
        raise InputError(f"target {source!r} is the source itself")
    cut_off = unreached(platform, source, targets)
    if cut_off:
        raise InputError(f"target {cut_off[0]!r} cannot be reached from source {source!r}")
    return source_index, target_index


def check_reduce_roles(platform: Platform, participants: Sequence[object],
                       target: object) -> tuple[list[int], int]:
    """Indices of a reduce's ``participants`` (in operand order) and ``target``.

    InputError if a name is unknown or repeated, there are fewer than two
    participants, or the target cannot be reached from one of them.
    """
    owners = check_names(platform, participants, "participants")
    target_index = platform.require(target, "target")
    if len(owners) < 2:
        raise InputError("a reduce needs at least two participants")
    cut_off = unreachable(platform, participants, target)
    if cut_off:
        raise InputError(f"target {target!r} cannot be reached from participant {cut_off[0]!r}")
    return owners, target_index
