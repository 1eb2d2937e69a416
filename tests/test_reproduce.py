"""hetcoll reproduce: claim records, report files, resumable sweeps, Dask = local."""

from __future__ import annotations

import json

import pytest

from hetcoll.cli import main
from hetcoll.reproduce import (
    OWNED,
    VERDICTS,
    Sweep,
    all_specs,
    cell_key,
    reproduce,
    rrhp,
    run_sweep,
    select_specs,
)

FIGURES = [f"figure{k}.{ext}" for k in (4, 5, 6) for ext in ("png", "pdf")]


def test_quick_reproduces_every_claim(tmp_path):
    """The whole --quick run: every claim has a verdict, the files are written."""
    result = reproduce(tmp_path, quick=True, jobs=2)
    ids = [spec.id for spec in all_specs()]
    claims = {c.id: c for c in result.claims}
    assert list(claims) == ids
    for claim in result.claims:
        assert claim.verdict in VERDICTS and claim.reason and claim.paper_value
    stored = json.loads((tmp_path / "claims.json").read_text())
    assert [c["id"] for c in stored["claims"]] == ids
    assert {c["verdict"] for c in stored["claims"]} <= set(VERDICTS)
    for name in FIGURES:
        assert (tmp_path / name).stat().st_size > 1000, name
    assert (tmp_path / "figure4.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (tmp_path / "figure5.pdf").read_bytes()[:5] == b"%PDF-"
    html = (tmp_path / "report.html").read_text()
    assert html.count("data:image/png;base64,") == 3
    report = (tmp_path / "report.md").read_text()
    assert all(f"| {i} |" in report for i in ids)
    # Hand-checked values (NOTES.md): the two-processor LP, the errors already found.
    assert claims["LMR-two-processor"].verdict == "reproduced"
    assert claims["LMR-scatter-literal"].verdict == "refuted"
    assert claims["LMR-reduce-literal"].verdict == "refuted"
    # n = 3, d = 1, c = 3: P0 receives v_2 (from 1 to 2... its port is free) while it reduces
    # v_1 (1 to 4), then reduces v_2 (4 to 7): 7, not ⌈log2 3⌉(d + c) = 8.
    assert claims["RR-binomial-homogeneous"].evidence["makespan"] == "7"
    # c = 0, n = 8, d = 1: a binomial tree takes 3 rounds, below (k + 1) = 5.
    assert claims["RR-fibonacci-lower-bound"].evidence["optimum"] == "3"
    assert claims["HP-markov-mean"].verdict == "refuted"
    # 2H(32) + 1/32 - (2H(31) + 1/32) = 2/32 = 4/n at n = 64.
    assert "1/16" in claims["HP-markov-mean"].reason
    # Constant costs at n = 64: Binomial-stat 6(1 + c), Fibonacci-stat 9 + c: tie at 3/5.
    assert claims["RR-fig6-transition"].evidence["constant_costs"]["3/5"] == {
        "binomial-stat": "48/5", "fibonacci-stat": "48/5", "tree-dyn": "48/5"}
    assert claims["RR-fig6-transition"].verdict == "differs"
    assert result.sweeps["figure4"]["computed"] == 13
    # A second run reads every cell back: nothing computed, the same numbers.
    again = reproduce(tmp_path, quick=True, only=["RR-fig4-order"])
    assert again.sweeps["figure4"]["computed"] == 0
    assert again.claims[0].evidence == claims["RR-fig4-order"].evidence
    # MLH, hand-checked: n = 24, α = 3, β = 1, γ = 2.  Formula (1) at p = 3 is
    # 2(3 + 24 + 48) = 150, and the simulated linear reduction (two messages of
    # 3 + 24, each combined in 48, one after the other) takes the same.
    assert claims["MLH-formula1-linear"].verdict == "reproduced"
    assert claims["MLH-formula1-linear"].evidence["by_p"][3] == {"formula": "150",
                                                                 "linear": "150",
                                                                 "binomial": "150"}
    # (2) at p = 8: 3 rounds of 75 = 225, the binomial tree's time, not the binary tree's.
    formula2 = claims["MLH-formula2-binary"]
    assert formula2.verdict == "differs"
    assert formula2.evidence["by_p"][8]["formula"] == formula2.evidence["by_p"][8]["binomial"]
    assert formula2.evidence["by_p"][8]["formula"] == "225"
    # (4) at p = 4: 2·2·3 + 24 + (3/4)(24 + 48) = 90; the usual analysis 12 + 36 + 36 = 84.
    assert claims["MLH-formula4-rabenseifner"].evidence["by_p"][4] == {
        "formula": "90", "rabenseifner": "84", "binomial": "150"}
    assert claims["MLH-formula3-direct-send"].verdict == "differs"
    assert claims["MLH-lemma1"].verdict == "reproduced"
    assert claims["MLH-figures3-4"].verdict == "reproduced"
    # Table 1: their β puts the times one 6.70 ms step off (the binomial default is
    # delay + 7 steps: 10 ms + 46.9 ms = 0.0569 s); β fitted to the Default column matches.
    given = claims["MLH-table1-given-beta"]
    assert given.verdict == "differs"
    assert given.evidence["by_delay_ms"][10]["default"] == 0.0569
    assert claims["MLH-table1-fitted-beta"].verdict == "reproduced"
    assert result.sweeps["mlh-table1"]["cells"] == 10
    assert result.sweeps["mlh-figure9"]["grid"]["runs"] == [200]
    for name in ("MLH-figure8", "MLH-figure9-4mb", "MLH-figure9-40mb"):
        assert claims[name].verdict in ("reproduced", "differs"), name
    # DRL: both experiments under both network models, gains in percent per setting.
    for platform in ("hcl", "grid5000"):
        for tree in ("binomial", "traff"):
            for network in ("pairwise", "routed"):
                claim = claims[f"DRL-{platform}-{tree}-{network}"]
                assert claim.verdict != "not reproducible" and claim.evidence["gain_percent"]
    assert set(claims["DRL-grid5000-traff-routed"].evidence["gain_percent"]) == {
        "cluster by cluster", "interleaved"}
    assert not any("not merged" in c.reason for c in result.claims)

def test_cli_only_json_and_owned_files(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["reproduce", "--quick", "--only", "LMR,RR-tight-fibonacci", "--out", str(out),
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == 0 and data["inputs"]["only"] == ["LMR", "RR-tight-fibonacci"]
    assert [c["id"] for c in data["claims"]] == [
        s.id for s in select_specs(["LMR", "RR-tight-fibonacci"])]
    # Fibonacci-stat's bad case at d = 1, D = 3: 4D = 12 against 3d = 3.
    fib = next(c for c in data["claims"] if c["id"] == "RR-tight-fibonacci")
    assert fib["evidence"]["makespans"] == {"fibonacci-stat": "12"}
    assert fib["evidence"]["optimum"] == "3"
    assert {p.name for p in out.iterdir()} <= OWNED
    # A folder with a file of the user's: refused, then --force writes beside it.
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me")
    assert main(["reproduce", "--only", "LMR-tp-line", "--out", str(mine)]) == 2
    assert "notes.txt" in capsys.readouterr().err
    assert main(["reproduce", "--only", "LMR-tp-line", "--out", str(mine), "--force"]) == 0
    assert (mine / "notes.txt").read_text() == "keep me"
    assert (mine / "claims.json").exists()


@pytest.mark.parametrize("argv, culprit", [
    (["--only", "RR-no-such-claim"], "RR-no-such-claim"),
    (["--jobs", "0"], "--jobs"),
    (["--only", ","], "--only"),
])
def test_cli_bad_input_is_one_line(tmp_path, capsys, argv, culprit):
    try:
        status = main(["reproduce", "--out", str(tmp_path / "x"), *argv])
    except SystemExit as exit_:  # argparse's own errors
        status = exit_.code
    assert status == 2
    err = capsys.readouterr().err
    assert culprit in err and err.count("\n") == 1


def _small_grid() -> Sweep:
    cells = tuple({"cv": cv, "ratio": r, "runs": 50} for r in (0.5, 2.0) for cv in (0.1, 1.0))
    return Sweep("grid-test", cells, rrhp.grid_cell)


def test_interrupted_sweep_resumes_without_recomputing(tmp_path):
    sweep = _small_grid()
    computed = []

    def stop_after_two(coordinates, result):
        computed.append(cell_key(coordinates))
        if len(computed) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_sweep(sweep, tmp_path / "a", on_cell=stop_after_two)
    folder = tmp_path / "a" / "cells" / "grid-test"
    done = {p.name: p.stat().st_mtime_ns for p in folder.glob("*.json")}
    assert sorted(done) == sorted(f"{k}.json" for k in computed)
    recomputed = []
    resumed = run_sweep(sweep, tmp_path / "a", jobs=2,
                        on_cell=lambda c, r: recomputed.append(cell_key(c)))
    assert sorted(recomputed) == sorted(set(map(cell_key, sweep.cells)) - set(computed))
    assert {p.name: p.stat().st_mtime_ns for p in folder.glob("*.json")
            if p.name in done} == done
    assert not list(folder.glob("*.part"))
    # Uninterrupted, with another number of jobs: bit-identical.
    assert resumed == run_sweep(sweep, tmp_path / "b", jobs=1)


def test_dask_local_cluster_equals_local(tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    sweep = _small_grid()
    local = run_sweep(sweep, tmp_path / "local", jobs=2)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        remote = run_sweep(sweep, tmp_path / "dask", scheduler=cluster.scheduler_address)
    assert remote == local
    assert len(list((tmp_path / "dask" / "cells" / "grid-test").glob("*.json"))) == 4
