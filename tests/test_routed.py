"""The routed predictor: max-min fair sharing of physical links (hand cases), and
agreement with the pairwise predictor whenever no link is shared."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hetcoll.core.platform import platform_from_dict
from hetcoll.core.simgrid import PhysicalLink, parse_simgrid, read_simgrid
from hetcoll.sim.collectives import (
    ALGORITHMS,
    HockneyModel,
    Network,
    build_tree,
    max_min_rates,
    noisy_routed_times,
    pairwise_prediction,
    routed_prediction,
)
from hetcoll.sim.collectives.trees import CommTree


def _links(**bandwidths):
    return {name: PhysicalLink(name, F(bw), F(0), name.startswith("fat"))
            for name, bw in bandwidths.items()}


def test_two_flows_on_one_link_share_it_equally():
    assert max_min_rates({"f": ("L",), "g": ("L",)}, _links(L=10)) == {"f": 5, "g": 5}


def test_a_flow_crossing_a_bottleneck_frees_bandwidth_for_the_other():
    # g is held to 2 by M; f takes the rest of L: 10 - 2.
    rates = max_min_rates({"f": ("L",), "g": ("L", "M")}, _links(L=10, M=2))
    assert rates == {"f": 8, "g": 2}
    # Three levels: h alone on N (cap 3) with f; f, g on L.
    rates = max_min_rates({"f": ("L", "N"), "g": ("L",), "h": ("N",)}, _links(L=10, N=3))
    assert rates == {"f": F(3, 2), "h": F(3, 2), "g": F(17, 2)}


def test_fatpipe_gives_every_flow_the_whole_bandwidth():
    assert max_min_rates({"f": ("fat",), "g": ("fat",)}, _links(fat=10)) == {"f": 10, "g": 10}


CONTENDED = """<platform version="4.1"><zone id="z" routing="Full">
  <host id="R" speed="1f"/><host id="A" speed="1f"/><host id="B" speed="1f"/>
  <host id="C" speed="1f"/><host id="D" speed="1f"/>
  <link id="RA" bandwidth="10Bps" latency="0"/><link id="RB" bandwidth="10Bps" latency="0"/>
  <link id="AC" bandwidth="100Bps" latency="0.5s"/><link id="BD" bandwidth="100Bps" latency="0"/>
  <link id="L" bandwidth="10Bps" latency="0.5s"/>
  <route src="R" dst="A"><link_ctn id="RA"/></route>
  <route src="R" dst="B"><link_ctn id="RB"/></route>
  <route src="A" dst="C"><link_ctn id="AC"/><link_ctn id="L"/></route>
  <route src="B" dst="D"><link_ctn id="BD"/><link_ctn id="L"/></route>
</zone></platform>"""


def test_two_transfers_meet_on_a_shared_link():
    sg = parse_simgrid(CONTENDED)
    sizes = {"R": F(0), "A": F(0), "B": F(0), "C": F(20), "D": F(10)}
    tree = CommTree("scatterv", "R", {"R": None, "A": "R", "B": "R", "C": "A", "D": "B"},
                    {"R": ("A", "B"), "A": ("C",), "B": ("D",), "C": (), "D": ()})
    # Pairwise: R->A [0, 2], R->B [2, 3], A->C 1 + 20/10: [2, 5], B->D 1/2 + 10/10: [3, 9/2].
    assert pairwise_prediction(tree, sizes, HockneyModel(sg.platform)).time == 5
    # Routed: A->C waits its latency 1 until 3, moves 10 bytes alone at 10 B/s until
    # B->D, started at 3, ends its latency (1/2) at 7/2... by hand:
    #   [3, 7/2]: A->C alone at 10: 5 bytes, 15 left;
    #   from 7/2 both cross L at 5 B/s: B->D's 10 bytes take 2, until 11/2; A->C has 5 left;
    #   from 11/2 A->C alone at 10: 1/2 more, ends at 6.
    run = routed_prediction(tree, sizes, Network.from_simgrid(sg))
    assert run.time == 6
    assert [(t.source, t.target, t.start, t.end) for t in run.transfers] == [
        ("R", "A", 0, 2), ("R", "B", 2, 3), ("A", "C", 2, 6), ("B", "D", 3, F(11, 2))]
    # The compiled float twin of the Monte Carlo agrees, and scales with its factors:
    # doubling every transfer's latency and bytes doubles every time.
    factors = np.array([[1.0] * 4, [2.0] * 4])
    assert noisy_routed_times(tree, sizes, Network.from_simgrid(sg), factors).tolist() == \
        pytest.approx([6.0, 12.0], rel=1e-12)


@st.composite
def complete_platforms(draw):
    p = draw(st.integers(2, 7))
    names = [f"Q{i}" for i in range(p)]
    links = [{"from": a, "to": b, "cost": str(draw(st.fractions(F(1, 4), 3, max_denominator=4))),
              "latency": str(draw(st.fractions(0, 2, max_denominator=3)))}
             for a in names for b in names if a != b]
    platform = platform_from_dict({"processors": [{"name": n, "compute": 1} for n in names],
                                   "links": links})
    sizes = {n: F(draw(st.integers(0, 5))) for n in names}
    return platform, sizes, draw(st.sampled_from(names)), draw(st.sampled_from(
        ["scatterv", "gatherv"]))


@given(complete_platforms())
def test_routed_equals_pairwise_when_no_link_is_shared(case):
    # Every directed link its own physical link: a tree uses each at most once.
    platform, sizes, root, kind = case
    model, network = HockneyModel(platform), Network.from_platform(platform)
    for algorithm in ALGORITHMS:
        tree = build_tree(algorithm, kind, root, sizes, model)
        assert (routed_prediction(tree, sizes, network).time
                == pairwise_prediction(tree, sizes, model).time)


def test_flat_tree_never_shares_on_the_two_sites():
    # The root's transfers follow one another: nothing runs at the same time.
    sg = read_simgrid("examples/trees/drl_two_sites.xml")
    sizes = {n: F(10**6 * (1 + i % 3)) for i, n in enumerate(sg.platform.names)}
    for kind in ("scatterv", "gatherv"):
        tree = build_tree("flat", kind, "pastel-3.toulouse", sizes)
        assert (routed_prediction(tree, sizes, Network.from_simgrid(sg)).time
                == pairwise_prediction(tree, sizes, HockneyModel(sg.platform)).time)
