"""Scatterv/gatherv over MPI, calibration, the ``hetcoll mpi`` command line.

The oracle of the MPI runs is the data itself: every rank's scattered block, and the
root's gathered buffer, are compared with the blocks each rank generates from the
seed.  One ``mpiexec`` per np runs both collectives and every tree (the launches
dominate the time).
"""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

from hetcoll.cli import main
from hetcoll.core.errors import InputError
from hetcoll.core.platform import platform_from_dict, read_platform
from hetcoll.mpi import bench as bench_module
from hetcoll.mpi import launch
from hetcoll.mpi.calibrate import calibrated_platform
from hetcoll.mpi.launch import (
    VCOLLECTIVE_ALGORITHMS,
    build_rank_tree,
    rank_tree,
    run_vcollective,
)
from hetcoll.mpi.vcollectives import TreeGatherv, TreeScatterv, preorder
from hetcoll.sim.collectives import ALGORITHMS as TREE_BUILDERS

ALL = [*VCOLLECTIVE_ALGORITHMS, "mpi"]


@pytest.mark.parametrize("n_ranks", [1, 2, 3, 4, 5, 8])
def test_every_tree_scatters_and_gathers_the_right_blocks(n_ranks):
    rng = np.random.default_rng(100 + n_ranks)
    blocks = rng.integers(0, 40, n_ranks).tolist()
    blocks[-1] = 0  # an empty block travels too
    delays = [rng.uniform(0, 0.01, n_ranks).tolist() for _ in range(2)]
    root = n_ranks // 2
    results = run_vcollective("scatterv,gatherv", n_ranks, ALL, blocks=blocks, root=root,
                              delays=delays, seed=n_ranks)
    for kind, result in results.items():
        assert result.success, (kind, result.message)
        assert list(result.algorithms) == ALL
        for name, row in result.algorithms.items():
            assert row["correct"] and len(row["repeats"]) == 2, (kind, name)
            for run, delay in zip(row["repeats"], delays, strict=True):
                assert all(s >= d - 1e-3 for s, d in zip(run["starts"], delay, strict=True))
        # The tree that ran is the builder's, on ranks.
        for name in TREE_BUILDERS:
            tree = build_rank_tree(name, kind, root, blocks)
            assert result.algorithms[name]["children"] == rank_tree(tree)["children"]


def test_rank_trees_follow_the_builders_names_and_order():
    tree = build_rank_tree("binomial", "scatterv", 1, [1, 1, 1, 1])
    # Binomial from P1 in rank order relative to the root: P1 -> P3, P2; P3 -> P0.
    assert rank_tree(tree) == {"parent": [3, None, 1, 1], "children": [[], [3, 2], [], [0]]}
    assert preorder(rank_tree(tree)["children"], 1) == [1, 3, 0, 2]


class _Pipe:
    """Two in-process 'ranks' joined by a queue: enough for a two-node tree."""

    def __init__(self, rank, queue):
        self.rank, self.queue = rank, queue

    def Get_rank(self):
        return self.rank

    def Send(self, buffer, dest, tag):
        self.queue.append(np.array(buffer, copy=True))

    def Recv(self, buffer, source, tag):
        buffer[:] = self.queue.pop(0)


def test_tree_scatterv_packs_subtrees_in_preorder():
    # Root 0 with children [2, 1]; rank 2 has child 3: the message to 2 carries the
    # blocks of 2 and 3, in that order, then the root sends 1 its own block.
    children, parent = [[2, 1], [], [3], []], [None, 0, 0, 2]
    blocks = [1, 2, 3, 1]
    whole = np.arange(7.0)  # rank-ordered: [0], [1, 2], [3, 4, 5], [6]
    queue = []
    block = TreeScatterv(_Pipe(0, queue), 0, blocks, parent, children).run(whole)
    assert block.tolist() == [0.0]
    assert [m.tolist() for m in queue] == [[3.0, 4.0, 5.0, 6.0], [1.0, 2.0]]
    # And the gather at the root puts them back in rank order.
    queue[:] = [np.array([3.0, 4.0, 5.0, 6.0]), np.array([1.0, 2.0])]
    out = TreeGatherv(_Pipe(0, queue), 0, blocks, parent, children).run(np.array([0.0]))
    assert out.tolist() == whole.tolist()


def test_a_wrong_block_is_reported(monkeypatch, one_rank_world):
    monkeypatch.setattr(TreeScatterv, "run", lambda self, value: value[:1] + 1)
    config = {"collective": "scatterv", "algorithms": ["flat"], "blocks": [3],
              "trees": {"flat": {"parent": [None], "children": [[]]}}, "root": 0,
              "seed": 0, "delays": [[0.0]]}
    report = bench_module.run_benchmark(one_rank_world, config)
    assert report["algorithms"]["flat"]["correct"] is False


def test_calibration_recovers_alpha_and_beta_from_synthetic_pingpongs(tmp_path):
    # Three ranks; pair (0, 1): alpha 5 us, beta 1 ns/element; (0, 2) and (1, 2):
    # alpha 40 us, beta 4 ns/element; 3 % multiplicative noise.
    rng = np.random.default_rng(7)
    truth = {(0, 1): (5e-6, 1e-9), (0, 2): (4e-5, 4e-9), (1, 2): (4e-5, 4e-9)}
    samples = [(i, j, m, (a + b * m) * rng.uniform(0.97, 1.03))
               for (i, j), (a, b) in truth.items()
               for m in (1, 1024, 16384, 65536, 262144) for _ in range(3)]
    platform = calibrated_platform(samples, [2e-10, 3e-10, 4e-10], ["P0", "P1", "P2"])
    links = {(link["from"], link["to"]): link for link in platform["links"]}
    assert len(links) == 6
    for (i, j), (alpha, beta) in truth.items():
        for pair in ((f"P{i}", f"P{j}"), (f"P{j}", f"P{i}")):
            assert links[pair]["cost"] == pytest.approx(beta, rel=0.05)
            assert links[pair]["latency"] == pytest.approx(alpha, rel=0.25, abs=2e-6)
    path = tmp_path / "platform.json"
    path.write_text(json.dumps(platform))
    read = read_platform(path)
    assert list(read.names) == ["P0", "P1", "P2"]
    assert float(read.link("P2", "P0").comm) == pytest.approx(4e-9, rel=0.05)
    assert float(read.compute_cost("P1")) == pytest.approx(3e-10)


def test_calibration_refuses_times_that_do_not_grow():
    # At the scale of real ping-pongs (10 us, 100 elements): fitted in seconds and
    # elements directly, lsq_linear stopped early at a slope of 9e-8 s/element.
    with pytest.raises(InputError, match="P0->P1"):
        calibrated_platform([(0, 1, 1, 2e-5), (0, 1, 100, 1e-5)], [1e-9, 1e-9],
                            ["P0", "P1"])


def test_calibrate_command_writes_a_readable_platform(tmp_path, capsys):
    out = tmp_path / "platform.json"
    assert main(["mpi", "calibrate", "--np", "2", "--out", str(out), "--sizes-range",
                 "1,4096,65536", "--rounds", "3"]) == 0
    platform = read_platform(out)
    assert list(platform.names) == ["P0", "P1"]
    assert platform.link("P0", "P1").comm > 0 and platform.compute_cost("P0") > 0
    assert "P0->P1" in capsys.readouterr().out
    # The file exists now: --force is needed to overwrite it.
    assert main(["mpi", "calibrate", "--np", "2", "--out", str(out)]) == 2
    assert "--force" in capsys.readouterr().err


def test_the_done_when_command(capsys):
    code = main(["mpi", "run", "reduce", "--np", "4", "--algorithm", "all", "--slow",
                 "1:0.05", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["status"] == 0 and data["np"] == 4
    assert data["mpi_library"]
    assert data["inputs"]["delays"] == [[0.0, 0.05, 0.0, 0.0]] * 3
    assert len(data["algorithms"]) == 9
    for name, row in data["algorithms"].items():
        assert row["correct"] is True, name
        assert set(row) >= {"T1", "T2", "T3", "T4", "T5", "T1_root", "repeats"}
        # Rank 1 starts 50 ms late in every repeat.
        assert all(run["starts"][1] >= 0.049 for run in row["repeats"])


def test_random_skew_draws_one_delay_vector_per_repeat(capsys):
    assert main(["mpi", "run", "reduce", "--np", "2", "--algorithm", "binomial",
                 "--gamma-skew", "2,0.005", "--repeats", "2", "--seed", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    first, second = data["inputs"]["delays"]
    assert first != second and min(first + second) >= 0
    # The same draws as the skew model's own, from the seed.
    from hetcoll.sim.imbalance import GammaSkew
    drawn = GammaSkew("2", "0.005").sample(np.random.default_rng(3), 2, 2)
    assert [first, second] == drawn.tolist()
    for run, delay in zip(data["algorithms"]["binomial"]["repeats"], (first, second),
                          strict=True):
        assert all(s >= d - 1e-3 for s, d in zip(run["starts"], delay, strict=True))


def test_run_and_compare_scatterv_from_the_command_line(tmp_path, capsys):
    platform = tmp_path / "p.json"
    platform.write_text(json.dumps(calibrated_platform(
        [(i, j, m, 1e-5 + 1e-9 * m) for i in range(3) for j in range(i + 1, 3)
         for m in (1, 1000)], [1e-9] * 3, ["P0", "P1", "P2"])))
    assert main(["mpi", "run", "gatherv", "--np", "3", "--blocks", "4,0,9", "--root", "2",
                 "--delays", "0,0.01,0", "--platform", str(platform), "--repeats", "1"]) == 0
    text = capsys.readouterr().out
    assert "traff-model" in text and "NO" not in text
    plot = tmp_path / "cmp.png"
    assert main(["mpi", "compare", "scatterv", "--np", "3", "--platform", str(platform),
                 "--algorithm", "binomial", "--elements", "1000", "--repeats", "1",
                 "--plot", str(plot), "--json"]) == 0
    row = json.loads(capsys.readouterr().out)["algorithms"]["binomial"]
    # Binomial scatterv from P0 over 3 ranks: P0 -> P2, then P0 -> P1, 1000 elements
    # each: 2 (1e-5 + 1e-6) = 2.2e-5 s.
    assert row["predicted"] == pytest.approx(2.2e-5)
    assert row["correct"] and row["measured"] > 0
    assert row["relative_error"] == pytest.approx(
        (row["predicted"] - row["measured"]) / row["measured"])
    assert plot.stat().st_size > 0


def test_compare_reduce_simulates_the_same_delays(tmp_path, capsys):
    platform = tmp_path / "p.json"
    platform.write_text(json.dumps(calibrated_platform(
        [(0, 1, m, 1e-5 + 1e-9 * m) for m in (1, 1000)], [1e-9, 1e-9], ["P0", "P1"])))
    assert main(["mpi", "compare", "reduce", "--np", "2", "--platform", str(platform),
                 "--algorithm", "linear", "--elements", "1000", "--slow", "1:0.01",
                 "--repeats", "1", "--json"]) == 0
    row = json.loads(capsys.readouterr().out)["algorithms"]["linear"]
    # Rank 1 starts at 10 ms and sends 1000 doubles (1e-5 + 1e-6 s); rank 0 combines
    # them (1e-6 s): 0.010012 s.
    assert row["predicted"] == pytest.approx(0.010012, rel=1e-6)
    assert row["correct"] and row["measured"] >= 0.01


@pytest.mark.parametrize("argv, culprit", [
    (["run", "reduce", "--np", "3", "--slow", "3:1"], "--slow"),
    (["run", "reduce", "--np", "3", "--delays", "0,1"], "--delays"),
    (["run", "scatterv", "--np", "2", "--blocks", "1,-2"], "--blocks"),
    (["run", "gatherv", "--np", "2", "--algorithm", "ring"], "ring"),
    (["run", "reduce", "--np", "2", "--blocks", "1,2"], "--blocks"),
    (["run", "reduce", "--np", "2", "--gaussian", "0.01"], "--gaussian"),
    (["run", "reduce", "--np", "2", "--gamma-skew", "2,-1"], "--gamma-skew"),
])
def test_bad_input_exits_2_naming_the_culprit(argv, culprit, capsys):
    assert main(["mpi", *argv]) == 2
    err = capsys.readouterr().err
    assert culprit in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("argv", [[], ["run", "reduce", "--np", "2"],
                                  ["calibrate", "--np", "2", "--out", "x.json"]])
def test_without_the_extra_hetcoll_mpi_says_how_to_install_it(argv, monkeypatch, capsys):
    monkeypatch.setattr(launch, "mpi_available", lambda: False)
    assert main(["mpi", *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "pip install 'hetcoll[mpi]'" in err[0]


def test_the_bridge_to_the_steady_state_on_a_hand_example():
    # A -> B cost 1, A -> C cost 2, B -> C cost 1 (both ways), no latency; blocks
    # B = C = 1, scatter from A.  Flat tree: 1 + 2 = 3.  Steady state: C's message
    # via B keeps A's port busy 1 + 1 = 2 per operation (direct: 1 + 2 = 3), B's
    # ports 2 and 1, C's 1: 1/TP = 2, so pipelining gains 3/2.
    from hetcoll.analytics import steady_state_period, tree_vs_steady_state
    from hetcoll.sim.collectives import flat_tree

    platform = platform_from_dict({
        "processors": [{"name": n, "compute": 1} for n in "ABC"],
        "links": [{"from": "A", "to": "B", "cost": 1, "bidirectional": True},
                  {"from": "A", "to": "C", "cost": 2, "bidirectional": True},
                  {"from": "B", "to": "C", "cost": 1, "bidirectional": True}]})
    sizes = {"A": Fraction(0), "B": Fraction(1), "C": Fraction(1)}
    bridge = tree_vs_steady_state(flat_tree("scatterv", "A", sizes), sizes, platform)
    assert (bridge.time, bridge.period, bridge.ratio) == (3, 2, Fraction(3, 2))
    # Gather is the mirror image: same period.
    assert steady_state_period("gatherv", "A", sizes, platform) == 2
    assert steady_state_period("gatherv", "A", {"A": Fraction(5)}, platform) == 0


def test_hetcoll_tree_json_has_the_steady_state_key(capsys):
    assert main(["tree", "scatterv", "examples/trees/hand_4proc.json", "--root", "P0",
                 "--sizes", "P0=1,P1=4,P2=1,P3=8", "--algorithm", "all", "--json"]) == 0
    trees = json.loads(capsys.readouterr().out)["trees"]
    periods = {row["steady_state"]["period_exact"] for row in trees.values()}
    assert len(periods) == 1  # one series, whatever the tree
    period = Fraction(periods.pop())
    for row in trees.values():
        ratio = Fraction(row["steady_state"]["ratio_exact"])
        assert ratio == Fraction(row["time_exact"]) / period
        # One operation over a tree is a one-port schedule: it cannot beat 1/TP.
        assert ratio >= 1
