"""``hetcoll tree``: the JSON contract, both networks, SimGrid platforms, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hetcoll.cli import main

ROOT = Path(__file__).resolve().parent.parent
HAND = str(ROOT / "examples" / "trees" / "hand_4proc.json")
TWO_SITES = str(ROOT / "examples" / "trees" / "drl_two_sites.xml")
ALGORITHMS = ["flat", "binomial", "binomial-min-first", "binomial-max-first", "traff",
              "traff-model"]


def run_json(capsys, *argv):
    assert main(["tree", *argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == 0
    return data


def test_json_contract_on_the_hand_example(capsys):
    data = run_json(capsys, "scatterv", HAND, "--root", "P0", "--sizes", "P0=1,P1=4,P2=1,P3=8")
    assert list(data["trees"]) == ALGORITHMS
    mf = data["trees"]["binomial-min-first"]
    # By hand (tests/test_trees.py): P0 sends to P1 (with P3's block) then P2; time 36.
    assert mf["parent"] == {"P0": None, "P1": "P0", "P2": "P0", "P3": "P1"}
    assert mf["children"] == {"P0": ["P1", "P2"], "P1": ["P3"], "P2": [], "P3": []}
    assert (mf["time"], mf["time_exact"]) == (36.0, "36")
    assert data["trees"]["traff-model"]["time_exact"] == "10"
    assert data["inputs"]["sizes"] == {"P0": "1", "P1": "4", "P2": "1", "P3": "8"}


def test_one_algorithm_and_the_root_without_a_size(capsys):
    data = run_json(capsys, "gatherv", HAND, "--root", "P0", "--sizes", "P1=4,P2=1,P3=8",
                    "--algorithm", "binomial")
    assert list(data["trees"]) == ["binomial"]
    # P3 -> P2 (9 units, latency 1): [0, 9]; P1 -> P0 (cost 1): [0, 4]; P2 -> P0 (9 units,
    # latency 11/4, cost 1/4): [9, 14].  The root's own block is 0 here, as in the hand case
    # the root's block is not transferred.
    assert data["trees"]["binomial"]["time_exact"] == "14"


def test_two_sites_both_networks(capsys):
    pairwise = run_json(capsys, "scatterv", TWO_SITES, "--root", "bordeplage-1.bordeaux",
                        "--sizes-by-speed", "39e6")
    routed = run_json(capsys, "scatterv", TWO_SITES, "--root", "bordeplage-1.bordeaux",
                      "--sizes-by-speed", "39e6", "--network", "routed")
    assert list(pairwise["trees"]) == ALGORITHMS == list(routed["trees"])
    for name in ALGORITHMS:
        p, r = pairwise["trees"][name], routed["trees"][name]
        assert p["children"] == r["children"] and len(p["parent"]) == 39
        assert p["time_exact"] == r["by_network"]["pairwise"]["time_exact"]
        assert r["time_exact"] == p["by_network"]["routed"]["time_exact"]
        # Sharing a link never makes a transfer faster.
        assert r["time"] >= p["time"] * (1 - 1e-12)
    # Max-first sends to far nodes first: their transfers meet on the wide-area link.
    mf = routed["trees"]["binomial-max-first"]
    assert mf["time"] > 2 * mf["by_network"]["pairwise"]["time"]


def test_gantt_file(tmp_path, capsys):
    out = tmp_path / "g.png"
    assert main(["tree", "gatherv", HAND, "--root", "P0", "--sizes", "P1=4,P3=8",
                 "--gantt", str(out)]) == 0
    assert out.stat().st_size > 0
    assert main(["tree", "gatherv", HAND, "--root", "P0", "--sizes", "P1=4",
                 "--gantt", str(out)]) == 2
    assert "exists" in capsys.readouterr().err


@pytest.mark.parametrize("argv, culprit", [
    (["--root", "P9", "--sizes", "P0=1"], "--root 'P9'"),
    (["--root", "P0", "--sizes", "P0=1,X=3"], "'X' is not a processor"),
    (["--root", "P0", "--sizes", "P1=-1"], "size of P1 must be non-negative"),
    (["--root", "P0", "--sizes", "P1=1,P1=2"], "'P1' is given twice"),
    (["--root", "P0", "--sizes", "P1"], "expected NAME=SIZE"),
    (["--root", "P0", "--sizes", "P1=1", "--algorithm", "fib"], "--algorithm 'fib'"),
    (["--root", "P0", "--sizes", "P1=1", "--max-hosts", "3"], "--max-hosts applies"),
    (["--root", "P0", "--sizes-by-speed", "0"], "--sizes-by-speed must be positive"),
])
def test_bad_input_exits_2_with_one_line(capsys, argv, culprit):
    assert main(["tree", "scatterv", HAND, *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and culprit in err


def test_missing_link_names_the_pair(tmp_path, capsys):
    platform = tmp_path / "p.json"
    platform.write_text(json.dumps({
        "processors": [{"name": n, "compute": 1} for n in "ABC"],
        "links": [{"from": "A", "to": "B", "cost": 1}, {"from": "A", "to": "C", "cost": 1}]}))
    assert main(["tree", "gatherv", str(platform), "--root", "A", "--sizes", "B=1,C=1",
                 "--algorithm", "flat"]) == 2
    assert "no link B->A" in capsys.readouterr().err


def test_max_hosts_guard(capsys):
    assert main(["tree", "scatterv", TWO_SITES, "--root", "bordeplage-1.bordeaux",
                 "--sizes", "bordeplage-2.bordeaux=1", "--max-hosts", "10"]) == 2
    err = capsys.readouterr().err
    assert "--max-hosts" in err and err.count("\n") == 1
