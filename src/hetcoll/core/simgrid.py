"""Platforms from SimGrid's XML (DTD version 4.1), with the routes' physical links.

:func:`read_simgrid` turns a SimGrid platform file into a hetcoll
:class:`~hetcoll.core.platform.Platform` and keeps, for the contention model of
:mod:`hetcoll.sim.collectives.routed`, the physical links and every host pair's route.

What is read
------------
- ``<zone>`` (or the older ``<AS>``) with ``routing="Full"``, ``"Floyd"``,
  ``"Dijkstra"`` or ``"DijkstraCache"``, nested to any depth; ``<host>`` (its first
  speed), ``<router>``, ``<link>`` (bandwidth, latency, ``sharing_policy`` SHARED,
  SPLITDUPLEX or FATPIPE), ``<route>`` and ``<zoneRoute>`` (or ``<ASroute>``) with
  ``<link_ctn id=... direction=UP|DOWN>``, symmetrical unless ``symmetrical="NO"``
  (the reverse route takes the links in reverse order, UP and DOWN swapped);
- ``<cluster>`` (flat topology): host ``prefix + radical + suffix``, private link
  ``ID_link_RADICAL`` (SPLITDUPLEX unless ``sharing_policy`` says otherwise), backbone
  ``ID_backbone`` when ``bb_bw`` is given, router ``prefix + ID + _router + suffix``;
  a host-to-host route is private link UP, backbone, private link DOWN;
- Floyd routes by hops, Dijkstra by number of links, as SimGrid does; an equal-length
  tie may pick another path than SimGrid;
- between zones, SimGrid's hierarchical routing: the route from the source to its
  zone's gateway, the zone route, then from the other gateway to the destination.

Other tags (``<prop>``, ``<config>``, ``<actor>``, ``<disk>``, ``<trace>``...) are
ignored; a zone with another routing (Vivaldi, fat-tree or torus cluster...) is refused.
A route from a host to itself (a loopback) is ignored: hetcoll has no self-links.
A pair without a route gets no link (SimGrid fails only when such a pair communicates;
so does hetcoll, naming the pair).

Units are SimGrid's: ``MBps`` is 10^6 bytes/s, ``MiBps`` 2^20 bytes/s, ``Mbps`` bits/s;
latency in ``s``, ``ms``, ``us``, ``ns``...; speed in ``f``, ``kf``, ``Mf``, ``Gf``...;
a bare number is in base units (bytes/s, seconds, flop/s).

What the platform keeps
-----------------------
Each routed host pair (a, b) becomes a link a -> b with ``latency`` = the sum of the
route's latencies and ``cost`` = 1 / its bottleneck bandwidth (seconds per byte), i.e.
Hockney's alpha and beta for the pair.  A processor's compute cost is
``operation_size / speed`` (default: one flop, negligible for scatter and gather,
which compute nothing).  The one-port LP model keeps that per-pair view: it loses the
sharing of a physical link by several routes (two pairs crossing one wide-area link
each get its full bandwidth) and the latency (the LPs ignore it).  The routed
predictor (:func:`hetcoll.sim.collectives.routed_prediction`) keeps both.

SimGrid's LV08 network model scales latency by 13.01 and bandwidth by 0.97; ask for it
with ``calibration="LV08"`` (off by default: the file's numbers are used as written).

The parser is defusedxml: a file that declares entities (the "billion laughs") or
refers to external ones is refused, never expanded.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import networkx as nx

from hetcoll.core.errors import InputError, LimitError
from hetcoll.core.jsonio import read_text
from hetcoll.core.numbers import positive_fraction, to_fraction
from hetcoll.core.platform import Link, Platform, Processor

__all__ = ["LV08", "MAX_HOSTS", "PhysicalLink", "SimGridPlatform", "parse_simgrid",
           "read_simgrid"]

#: Most hosts read by default (every pair gets a route: the work grows as hosts^2).
MAX_HOSTS = 4096

#: LV08 calibration: (latency factor, bandwidth factor) of SimGrid's default model.
LV08 = (Fraction(1301, 100), Fraction(97, 100))


@dataclass(frozen=True)
class PhysicalLink:
    """One physical link: flows through it share ``bandwidth`` unless ``fatpipe``.

    Attributes
    ----------
    name : str
        The file's id (``L_UP`` / ``L_DOWN`` for each half of a SPLITDUPLEX link).
    bandwidth : Fraction
        Bytes per second.
    latency : Fraction
        Seconds.
    fatpipe : bool
        FATPIPE: every flow gets the whole bandwidth (no sharing).
    """

    name: str
    bandwidth: Fraction
    latency: Fraction
    fatpipe: bool = False


@dataclass(frozen=True)
class SimGridPlatform:
    """A SimGrid platform: the hetcoll platform and what contention needs.

    Attributes
    ----------
    platform : Platform
        One processor per host (file order), one link per routed ordered pair.
    links : dict of str to PhysicalLink
    routes : dict of (str, str) to tuple of str
        The physical links of every routed host pair, in order.
    """

    platform: Platform
    links: dict[str, PhysicalLink] = field(hash=False)
    routes: dict[tuple[str, str], tuple[str, ...]] = field(hash=False)


# --- units ------------------------------------------------------------------------------------

_DECIMAL = {"": 1, "k": 10**3, "M": 10**6, "G": 10**9, "T": 10**12, "P": 10**15,
            "E": 10**18, "Z": 10**21, "Y": 10**24}
_BINARY = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50, "Ei": 2**60,
           "Zi": 2**70, "Yi": 2**80}
_PREFIX = _DECIMAL | _BINARY
_TIME = {"w": 604800, "d": 86400, "h": 3600, "m": 60, "s": 1, "ms": Fraction(1, 10**3),
         "us": Fraction(1, 10**6), "ns": Fraction(1, 10**9), "ps": Fraction(1, 10**12)}
_NUMBER = re.compile(r"^\s*([0-9.]+(?:[eE][+-]?[0-9]+)?)\s*([A-Za-z]*)\s*$")


def _quantity(text: str | None, kind: str, what: str) -> Fraction:
    """A SimGrid value with its unit, exact; ``kind`` is speed, bandwidth or latency."""
    if text is None:
        raise InputError(f"{what} is missing")
    match = _NUMBER.match(text)
    if match is None:
        raise InputError(f"{what} is not a number with a unit: {text!r}")
    value, unit = to_fraction(match.group(1), what), match.group(2)
    if kind == "latency":
        scale = _TIME.get(unit or "s")
    else:
        bases = {"speed": {"f": 1, "flops": 1}, "bandwidth": {"Bps": 1, "bps": Fraction(1, 8)}}
        scale = 1 if not unit else None
        for base, factor in bases[kind].items():
            if unit.endswith(base) and unit[:-len(base)] in _PREFIX:
                scale = _PREFIX[unit[:-len(base)]] * factor
                break
    if scale is None:
        raise InputError(f"{what}: unknown {kind} unit {unit!r} in {text!r}")
    return value * scale


# --- the zone tree ----------------------------------------------------------------------------


class _NoRoute(InputError):
    """A zone has no route between two of its members (the pair stays unlinked)."""


@dataclass
class _Route:
    links: tuple[str, ...]
    gw_src: str | None = None
    gw_dst: str | None = None


@dataclass
class _Zone:
    name: str
    routing: str
    parent: _Zone | None
    members: list[str] = field(default_factory=list)  # hosts, routers, child zones
    routes: dict[tuple[str, str], _Route] = field(default_factory=dict)
    cluster: dict | None = None
    graph: nx.DiGraph | None = None


_ROUTINGS = {"Full", "Floyd", "Dijkstra", "DijkstraCache", "None"}


class _Reader:
    def __init__(self, max_hosts: int) -> None:
        self.max_hosts = max_hosts
        self.hosts: dict[str, Fraction] = {}
        self.links: dict[str, PhysicalLink] = {}
        self.splitduplex: set[str] = set()
        self.owner: dict[str, _Zone] = {}   # netpoint (host, router, zone) -> its zone
        self.zones: dict[str, _Zone] = {}
        self.pending: list[tuple[_Zone, object]] = []  # routes, read once links are known

    # -- declarations
    def netpoint(self, name: str | None, zone: _Zone, what: str) -> str:
        if not name:
            raise InputError(f"a {what} in zone {zone.name!r} has no id")
        if name in self.owner or name in self.zones and what != "zone":
            raise InputError(f"{what} id {name!r} is declared twice")
        self.owner[name] = zone
        zone.members.append(name)
        return name

    def host(self, name: str | None, speed: str | None, zone: _Zone) -> None:
        name = self.netpoint(name, zone, "host")
        if len(self.hosts) >= self.max_hosts:
            raise LimitError(f"the platform has more than {self.max_hosts} hosts, over "
                             f"--max-hosts (max_hosts) {self.max_hosts}")
        first = (speed or "").split(",")[0]
        self.hosts[name] = positive_fraction(_quantity(first or None, "speed",
                                                       f"speed of host {name}"),
                                             f"speed of host {name}")

    def link(self, name: str | None, bandwidth: str | None, latency: str | None,
             policy: str | None) -> None:
        if not name:
            raise InputError("a link has no id")
        if name in self.links or name in self.splitduplex:
            raise InputError(f"link id {name!r} is declared twice")
        bw = positive_fraction(_quantity(bandwidth, "bandwidth", f"bandwidth of link {name}"),
                               f"bandwidth of link {name}")
        lat = _quantity(latency or "0", "latency", f"latency of link {name}")
        policy = (policy or "SHARED").upper()
        if policy == "SPLITDUPLEX":
            self.splitduplex.add(name)
            for half in ("UP", "DOWN"):
                self.links[f"{name}_{half}"] = PhysicalLink(f"{name}_{half}", bw, lat)
        elif policy in ("SHARED", "FATPIPE"):
            self.links[name] = PhysicalLink(name, bw, lat, policy == "FATPIPE")
        else:
            raise InputError(f"link {name}: unknown sharing_policy {policy!r}")

    def link_id(self, name: str | None, direction: str | None, where: str) -> str:
        direction = (direction or "NONE").upper()
        if name in self.splitduplex:
            if direction not in ("UP", "DOWN"):
                raise InputError(f"{where}: link {name!r} is SPLITDUPLEX; give direction "
                                 f"UP or DOWN")
            return f"{name}_{direction}"
        if name not in self.links:
            raise InputError(f"{where}: unknown link {name!r}")
        return name

    # -- routes
    def add_route(self, zone: _Zone, element, is_zone_route: bool) -> None:
        src, dst = element.get("src"), element.get("dst")
        tag = "zoneRoute" if is_zone_route else "route"
        where = f"{tag} {src}->{dst} in zone {zone.name}"
        for end in (src, dst):
            if end not in zone.members:
                known = "zone" if is_zone_route else "host or router"
                raise InputError(f"{where}: unknown {known} {end!r} (not declared in this "
                                 f"zone)")
        gw = (element.get("gw_src"), element.get("gw_dst")) if is_zone_route else (None, None)
        for g in gw:
            if is_zone_route and g not in self.owner:
                raise InputError(f"{where}: unknown gateway {g!r}")
        links = tuple(self.link_id(c.get("id"), c.get("direction"), where)
                      for c in element if _tag(c) == "link_ctn")
        if src == dst:  # a loopback: hetcoll has no self-links
            return
        zone.routes[(src, dst)] = _Route(links, *gw)
        if (element.get("symmetrical") or "YES").upper() != "NO":
            zone.routes.setdefault((dst, src), _Route(self.reverse(links), gw[1], gw[0]))

    def reverse(self, links: Iterable[str]) -> tuple[str, ...]:
        swap = {"_UP": "_DOWN", "_DOWN": "_UP"}
        out = []
        for name in reversed(tuple(links)):
            for end, other in swap.items():
                if name.endswith(end) and name[:-len(end)] in self.splitduplex:
                    name = name[:-len(end)] + other
                    break
            out.append(name)
        return tuple(out)

    def cluster(self, element, parent: _Zone | None) -> _Zone:
        name = element.get("id")
        if not name:
            raise InputError("a cluster has no id")
        topology = (element.get("topology") or "FLAT").upper()
        if topology != "FLAT":
            raise InputError(f"cluster {name}: topology {topology} is not supported "
                             f"(flat clusters only)")
        zone = self.zone(name, "Cluster", parent)
        prefix, suffix = element.get("prefix", ""), element.get("suffix", "")
        radicals = []
        for part in (element.get("radical") or "").split(","):
            low, _, high = part.partition("-")
            try:
                first, last = int(low), int(high or low)
            except ValueError:
                raise InputError(f"cluster {name}: bad radical {part!r}") from None
            if last - first + len(self.hosts) >= self.max_hosts:
                raise LimitError(f"cluster {name} has more than {self.max_hosts} hosts, over "
                                 f"--max-hosts (max_hosts) {self.max_hosts}")
            radicals.extend(range(first, last + 1))
        policy = element.get("sharing_policy") or "SPLITDUPLEX"
        private = {}
        for radical in radicals:
            host = f"{prefix}{radical}{suffix}"
            self.host(host, element.get("speed"), zone)
            link = f"{name}_link_{radical}"
            self.link(link, element.get("bw"), element.get("lat"), policy)
            private[host] = ((self.link_id(link, "UP", f"cluster {name}"),
                              self.link_id(link, "DOWN", f"cluster {name}")))
        backbone = None
        if element.get("bb_bw") is not None:
            backbone = f"{name}_backbone"
            self.link(backbone, element.get("bb_bw"), element.get("bb_lat"),
                      element.get("bb_sharing_policy"))
        router = element.get("router_id") or f"{prefix}{name}_router{suffix}"
        self.netpoint(router, zone, "router")
        zone.cluster = {"private": private, "backbone": backbone}
        return zone

    def zone(self, name: str | None, routing: str, parent: _Zone | None) -> _Zone:
        if not name:
            raise InputError("a zone has no id")
        if name in self.zones:
            raise InputError(f"zone id {name!r} is declared twice")
        if routing not in _ROUTINGS and routing != "Cluster":
            raise InputError(f"zone {name}: routing {routing!r} is not supported (use Full, "
                             f"Floyd, Dijkstra or a flat cluster)")
        zone = _Zone(name, routing, parent)
        self.zones[name] = zone
        if parent is not None:
            self.netpoint(name, parent, "zone")
        return zone

    def walk(self, element, zone: _Zone) -> None:
        for child in element:
            tag = _tag(child)
            if tag in ("zone", "AS"):
                self.walk(child, self.zone(child.get("id"), child.get("routing") or "None",
                                           zone))
            elif tag == "cluster":
                self.cluster(child, zone)
            elif tag == "host":
                self.host(child.get("id"), child.get("speed") or child.get("power"), zone)
            elif tag == "router":
                self.netpoint(child.get("id"), zone, "router")
            elif tag == "link":
                self.link(child.get("id"), child.get("bandwidth"), child.get("latency"),
                          child.get("sharing_policy"))
            elif tag in ("route", "zoneRoute", "ASroute"):
                self.pending.append((zone, child))
            elif tag in ("bypassRoute", "bypassZoneRoute", "bypassASroute"):
                raise InputError(f"<{tag}> is not supported")

    # -- routing
    def local(self, zone: _Zone, src: str, dst: str) -> _Route:
        if zone.cluster is not None:
            private, links = zone.cluster["private"], []
            if src in private:
                links.append(private[src][0])
            if zone.cluster["backbone"]:
                links.append(zone.cluster["backbone"])
            if dst in private:
                links.append(private[dst][1])
            return _Route(tuple(links))
        if zone.routing == "Full" or zone.routing == "None":
            route = zone.routes.get((src, dst))
            if route is None:
                raise _NoRoute(f"zone {zone.name}: no route from {src} to {dst}")
            return route
        if zone.graph is None:
            zone.graph = nx.DiGraph()
            zone.graph.add_nodes_from(zone.members)
            for (a, b), route in zone.routes.items():
                weight = 1 if zone.routing == "Floyd" else len(route.links)
                zone.graph.add_edge(a, b, weight=weight, route=route)
        try:
            path = nx.shortest_path(zone.graph, src, dst, weight="weight")
        except nx.NetworkXNoPath:
            raise _NoRoute(f"zone {zone.name}: no route from {src} to {dst}") from None
        hops = [zone.graph.edges[a, b]["route"] for a, b in zip(path, path[1:], strict=False)]
        return _Route(tuple(name for hop in hops for name in hop.links), hops[0].gw_src,
                      hops[-1].gw_dst)

    def chain(self, name: str) -> list[str]:
        """The zones from the root down to the netpoint's own zone."""
        zones, zone = [], self.owner[name]
        while zone is not None:
            zones.append(zone.name)
            zone = zone.parent
        return zones[::-1]

    def route(self, src: str, dst: str, depth: int = 0) -> tuple[str, ...]:
        if src == dst:
            return ()
        if depth > 64:
            raise InputError(f"the route from {src} to {dst} loops through gateways")
        up, down = self.chain(src), self.chain(dst)
        common = 0
        while common < min(len(up), len(down)) and up[common] == down[common]:
            common += 1
        zone = self.zones[up[common - 1]]
        a = up[common] if common < len(up) else src
        b = down[common] if common < len(down) else dst
        local = self.local(zone, a, b)
        links = list(local.links)
        if a != src:
            if local.gw_src is None:
                raise InputError(f"zone {zone.name}: the route {a}->{b} needs gw_src")
            links = [*self.route(src, local.gw_src, depth + 1), *links]
        if b != dst:
            if local.gw_dst is None:
                raise InputError(f"zone {zone.name}: the route {a}->{b} needs gw_dst")
            links = [*links, *self.route(local.gw_dst, dst, depth + 1)]
        return tuple(links)


def _tag(element) -> str:
    tag = element.tag if isinstance(element.tag, str) else ""
    return tag.rsplit("}", 1)[-1]


def parse_simgrid(text: str | bytes, *, operation_size: object = 1,
                  calibration: str | None = None, max_hosts: int = MAX_HOSTS,
                  description: str = "") -> SimGridPlatform:
    """Parse SimGrid platform XML text (see the module's docstring).

    Parameters
    ----------
    text : str or bytes
    operation_size : number, default 1
        Flops of one reduction task: a processor's compute cost is
        ``operation_size / speed`` seconds.
    calibration : {None, "LV08"}
        Scale latencies by 13.01 and bandwidths by 0.97, as SimGrid's LV08 model.
    max_hosts : int, default MAX_HOSTS
        Refuse larger platforms (every host pair is routed).
    description : str
        The platform's description.

    Returns
    -------
    SimGridPlatform

    Raises
    ------
    InputError
        One line naming the culprit: malformed XML, an entity declaration or external
        reference, an unknown host, zone or link in a route, a missing bandwidth or
        speed, an unknown unit, an unsupported routing.
    LimitError
        Over ``max_hosts`` hosts.

    Examples
    --------
    >>> xml = '''<platform version="4.1"><zone id="z" routing="Full">
    ...   <host id="A" speed="1Gf"/><host id="B" speed="2Gf"/>
    ...   <link id="l" bandwidth="125MBps" latency="50us"/>
    ...   <route src="A" dst="B"><link_ctn id="l"/></route></zone></platform>'''
    >>> sg = parse_simgrid(xml)
    >>> sg.platform.link("B", "A").latency, sg.platform.link("B", "A").cost
    (Fraction(1, 20000), Fraction(1, 125000000))
    >>> sg.routes[("A", "B")]
    ('l',)

    References
    ----------
    SimGrid platform description, https://simgrid.org/doc/latest/Platform.html (DTD 4.1).
    """
    import defusedxml.ElementTree as SafeTree
    from defusedxml import DefusedXmlException

    if calibration not in (None, "LV08"):
        raise InputError(f"unknown calibration {calibration!r} (use LV08 or none)")
    if isinstance(text, str):
        text = text.encode("utf-8")
    try:
        root = SafeTree.fromstring(text, forbid_dtd=False, forbid_entities=True,
                                   forbid_external=True)
    except DefusedXmlException as error:
        raise InputError(f"refused XML: {type(error).__name__} (entity declarations and "
                         f"external references are not read)") from None
    except SafeTree.ParseError as error:
        raise InputError(f"malformed XML: {error}") from None
    if _tag(root) != "platform":
        raise InputError(f"not a SimGrid platform: the root element is <{_tag(root)}>")
    reader = _Reader(max_hosts)
    top = reader.zone("(platform)", "Full", None)
    reader.walk(root, top)
    for zone, element in reader.pending:
        reader.add_route(zone, element, _tag(element) != "route")
    if not reader.hosts:
        raise InputError("the platform has no host")
    size = positive_fraction(operation_size, "operation size")
    latency_factor, bandwidth_factor = LV08 if calibration else (1, 1)
    links = {name: PhysicalLink(name, link.bandwidth * bandwidth_factor,
                                link.latency * latency_factor, link.fatpipe)
             for name, link in reader.links.items()}
    routes: dict[tuple[str, str], tuple[str, ...]] = {}
    platform_links = []
    for a in reader.hosts:
        for b in reader.hosts:
            if a == b:
                continue
            try:
                route = reader.route(a, b)
            except _NoRoute:
                continue  # as in SimGrid, an unrouted pair is an error only when used
            if not route:
                raise InputError(f"the route from {a} to {b} has no link")
            routes[(a, b)] = route
            platform_links.append(Link(a, b, 1 / min(links[n].bandwidth for n in route),
                                       sum((links[n].latency for n in route), Fraction(0))))
    processors = tuple(Processor(name, size / speed) for name, speed in reader.hosts.items())
    return SimGridPlatform(Platform(processors, tuple(platform_links), description),
                           links, routes)


def read_simgrid(path: str | Path, **options) -> SimGridPlatform:
    """Read a SimGrid platform file (:func:`parse_simgrid`; same options).

    Returns
    -------
    SimGridPlatform

    Raises
    ------
    InputError
        As :func:`parse_simgrid`, the message starting with the file name.

    Examples
    --------
    >>> sg = read_simgrid("examples/trees/drl_two_sites.xml")
    >>> len(sg.platform.processors), len(sg.routes)
    (39, 1482)
    """
    path = Path(path)
    text = read_text(path)
    try:
        return parse_simgrid(text, description=f"SimGrid platform {path.name}", **options)
    except InputError as error:
        raise InputError(f"{path}: {error}") from None
