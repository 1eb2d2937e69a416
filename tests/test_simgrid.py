"""SimGrid platform XML: routes, units, zones and clusters, and the refusals.

Expected values are typed from the files by hand (sums of latencies, bottleneck
bandwidths, the links SimGrid's documentation lists for a cluster route).
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from hetcoll.cli import main
from hetcoll.core.errors import InputError, LimitError
from hetcoll.core.platform import read_platform
from hetcoll.core.simgrid import parse_simgrid, read_simgrid

HEAD = "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"

TWO_HOP = HEAD + """<platform version="4.1">
  <zone id="z" routing="Full">
    <host id="A" speed="1Gf"/>
    <host id="B" speed="500Mf"><prop id="x" value="y"/></host>
    <host id="C" speed="2Gf,1Gf"/>
    <link id="l1" bandwidth="100MBps" latency="10us"/>
    <link id="l2" bandwidth="400Mbps" latency="1ms"/>
    <link id="l3" bandwidth="1MiBps" latency="0.5s" sharing_policy="SPLITDUPLEX"/>
    <link id="loop" bandwidth="1GBps" latency="1us" sharing_policy="FATPIPE"/>
    <route src="A" dst="A"><link_ctn id="loop"/></route>
    <route src="A" dst="B"><link_ctn id="l1"/><link_ctn id="l2"/></route>
    <route src="A" dst="C" symmetrical="NO"><link_ctn id="l3" direction="UP"/></route>
    <route src="B" dst="C"><link_ctn id="l3" direction="UP"/><link_ctn id="l1"/></route>
  </zone>
</platform>
"""


def test_two_hop_route_latency_and_cost():
    sg = parse_simgrid(TWO_HOP, operation_size=10**9)
    p = sg.platform
    assert p.names == ("A", "B", "C")
    # Latency 10 us + 1 ms; bottleneck 400 Mb/s = 50e6 bytes/s.
    for a, b in (("A", "B"), ("B", "A")):
        assert p.link(a, b).latency == F(101, 100000)
        assert p.link(a, b).cost == F(1, 50 * 10**6)
    assert sg.routes[("A", "B")] == ("l1", "l2") and sg.routes[("B", "A")] == ("l2", "l1")
    # symmetrical="NO": no C -> A; the reverse of B -> C swaps UP and DOWN.
    assert p.link("C", "A") is None and p.link("A", "C").cost == F(1, 2**20)
    assert sg.routes[("C", "B")] == ("l1", "l3_DOWN")
    # Compute cost: operation size / speed (the first of several speeds).
    assert [proc.comp for proc in p.processors] == [1, 2, F(1, 2)]
    assert sg.links["loop"].fatpipe and not sg.links["l1"].fatpipe


def test_lv08_calibration():
    sg = parse_simgrid(TWO_HOP, calibration="LV08")
    assert sg.platform.link("A", "B").latency == F(101, 100000) * F(1301, 100)
    assert sg.platform.link("A", "B").cost == F(1, 50 * 10**6) / F(97, 100)


def test_floyd_and_dijkstra_go_through_routers():
    text = HEAD + """<platform version="4.1"><zone id="z" routing="{routing}">
      <host id="A" speed="1f"/><host id="B" speed="1f"/>
      <router id="R1"/><router id="R2"/>
      <link id="a" bandwidth="10Bps" latency="1s"/><link id="b" bandwidth="5Bps" latency="2s"/>
      <link id="c" bandwidth="1Bps" latency="0s"/><link id="d" bandwidth="1Bps" latency="0s"/>
      <link id="e" bandwidth="1Bps" latency="0s"/>
      <route src="A" dst="R1"><link_ctn id="a"/></route>
      <route src="R1" dst="B"><link_ctn id="b"/></route>
      <route src="A" dst="R2"><link_ctn id="c"/><link_ctn id="d"/></route>
      <route src="R2" dst="B"><link_ctn id="e"/></route>
    </zone></platform>"""
    for routing in ("Floyd", "Dijkstra"):
        sg = parse_simgrid(text.format(routing=routing))
        assert sg.routes[("A", "B")] == ("a", "b")  # 2 hops, 2 links, against 2 hops, 3 links
        assert sg.platform.link("B", "A").latency == 3
        assert sg.platform.link("A", "B").cost == F(1, 5)


def test_cluster_route_is_up_backbone_down():
    text = HEAD + """<platform version="4.1">
      <cluster id="acme" prefix="node-" radical="0-3,7" suffix=".acme.org" speed="1Gf"
               bw="125MBps" lat="50us" bb_bw="2.25GBps" bb_lat="500us"/></platform>"""
    sg = parse_simgrid(text)
    assert sg.platform.names == tuple(f"node-{i}.acme.org" for i in (0, 1, 2, 3, 7))
    assert sg.routes[("node-0.acme.org", "node-2.acme.org")] == (
        "acme_link_0_UP", "acme_backbone", "acme_link_2_DOWN")
    link = sg.platform.link("node-7.acme.org", "node-0.acme.org")
    assert link.latency == F(600, 10**6) and link.cost == F(1, 125 * 10**6)


def test_two_sites_route_crosses_the_gateways():
    sg = read_simgrid("examples/trees/drl_two_sites.xml")
    assert len(sg.platform.names) == 39
    assert sg.routes[("bordereau-3.bordeaux", "violette-8.toulouse")] == (
        "bordereau_link_3_UP", "bordereau_backbone", "uplink_bordereau",
        "wan_bordeaux_toulouse", "uplink_violette", "violette_backbone",
        "violette_link_8_DOWN")
    link = sg.platform.link("violette-8.toulouse", "bordereau-3.bordeaux")
    assert link.latency == F(56, 10**4) and link.cost == F(1, 125 * 10**6)
    assert sg.routes[("pastel-1.toulouse", "violette-1.toulouse")] == (
        "pastel_link_1_UP", "pastel_backbone", "uplink_pastel", "uplink_violette",
        "violette_backbone", "violette_link_1_DOWN")


def test_every_command_reads_xml(tmp_path, capsys):
    path = tmp_path / "p.xml"
    path.write_text(TWO_HOP)
    assert read_platform(path).link("A", "B").latency == F(101, 100000)
    assert main(["lp", "scatter", str(path), "--source", "A", "--targets", "B,C",
                 "--json"]) == 0
    assert '"throughput"' in capsys.readouterr().out


BAD = {
    "malformed": (HEAD + "<platform version='4.1'><zone id='z' routing='Full'></platform>",
                  "malformed XML"),
    "unknown host": (HEAD + """<platform version="4.1"><zone id="z" routing="Full">
        <host id="A" speed="1f"/><link id="l" bandwidth="1Bps" latency="0"/>
        <route src="A" dst="Nowhere"><link_ctn id="l"/></route></zone></platform>""",
                     "unknown host or router 'Nowhere'"),
    "missing bandwidth": (HEAD + """<platform version="4.1"><zone id="z" routing="Full">
        <host id="A" speed="1f"/><link id="l" latency="1ms"/></zone></platform>""",
                          "bandwidth of link l is missing"),
    "entity expansion": ("""<?xml version="1.0"?>
<!DOCTYPE platform [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>
<platform version="4.1"><zone id="&b;" routing="Full"/></platform>""", "refused XML"),
    "external entity": ("""<?xml version="1.0"?>
<!DOCTYPE platform [<!ENTITY x SYSTEM "file:///etc/passwd">]>
<platform version="4.1"><zone id="&x;" routing="Full"/></platform>""", "refused XML"),
    "unknown unit": (HEAD + """<platform version="4.1"><zone id="z" routing="Full">
        <host id="A" speed="1 parsecs"/></zone></platform>""", "unknown speed unit"),
    "unsupported routing": (HEAD + """<platform version="4.1"><zone id="z"
        routing="Vivaldi"><host id="A" speed="1f"/></zone></platform>""",
                            "routing 'Vivaldi' is not supported"),
    "unknown link": (HEAD + """<platform version="4.1"><zone id="z" routing="Full">
        <host id="A" speed="1f"/><host id="B" speed="1f"/>
        <route src="A" dst="B"><link_ctn id="ghost"/></route></zone></platform>""",
                     "unknown link 'ghost'"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_files_exit_2_with_one_line(tmp_path, capsys, case):
    text, culprit = BAD[case]
    path = tmp_path / "bad.xml"
    path.write_text(text)
    with pytest.raises(InputError, match=culprit):
        read_simgrid(path)
    assert main(["tree", "scatterv", str(path), "--root", "A", "--sizes", "A=1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(path) in err and culprit in err


def test_host_limit():
    text = HEAD + """<platform version="4.1"><cluster id="big" prefix="n" suffix=""
        radical="0-99999999" speed="1f" bw="1Bps" lat="0"/></platform>"""
    with pytest.raises(LimitError, match="max_hosts"):
        parse_simgrid(text)
