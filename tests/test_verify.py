"""Theorems 1 to 5 on random instances; the analytics command line."""

import json
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hetcoll import InputError
from hetcoll.analytics import (
    DELTA,
    TABLE1,
    Bound,
    check_instance,
    proof_lower_bound,
    random_instance,
    verify_theorems,
    worst_ratio,
)
from hetcoll.cli import main


@st.composite
def regime_instances(draw, regime):
    n = draw(st.integers(2, 6))
    delta = draw(st.sampled_from([Fraction(1), Fraction(3, 2), Fraction(2), Fraction(4)]))
    seed = draw(st.integers(0, 2**32 - 1))
    return random_instance(np.random.default_rng(seed), n, regime, delta)


def _check_cell(bound, instance):
    comm, comp = instance
    result = check_instance(bound.algorithm, bound.regime, comm, comp)
    assert result.makespan >= result.optimum  # nothing beats the clairvoyant optimum
    assert result.lower_bound <= result.optimum  # the proof's lower bound is one
    assert result.within_optimum, f"Theorem {bound.theorem} refuted on {instance}"
    assert result.within_lower_bound


@pytest.mark.parametrize("bound", TABLE1, ids=lambda b: f"{b.algorithm}-{b.regime}")
@settings(max_examples=12)
@given(data=st.data())
def test_theorem_holds_on_random_instances(bound, data):
    _check_cell(bound, data.draw(regime_instances(bound.regime)))


def test_random_instance_respects_its_regime():
    rng = np.random.default_rng(5)
    for regime, expected_c in (("c=0", 0), ("c=d", 1)):
        comm, comp = random_instance(rng, 4, regime, 3)
        links = [comm[i][j] for i in range(4) for j in range(4) if i != j]
        assert min(links) == 1 and max(links) == 3
        assert set(comp) == {expected_c}
    with pytest.raises(InputError):
        random_instance(rng, 1, "c=0")
    with pytest.raises(InputError):
        random_instance(rng, 3, "c=1")


def test_check_instance_rejects_wrong_regime():
    with pytest.raises(InputError, match="regime"):
        check_instance("tree-dyn", "c=0", [[0, 1], [1, 0]], [1, 1])
    with pytest.raises(InputError, match="identical"):
        check_instance("tree-dyn", "any c", [[0, 1], [1, 0]], [1, 2])


def test_proof_lower_bounds():
    assert proof_lower_bound(1, 8, 1, 0) == 3
    assert proof_lower_bound(3, 8, 1, 2) == 6
    assert proof_lower_bound(4, 8, 1, 1) == 5
    with pytest.raises(InputError):
        proof_lower_bound(6, 8, 1, 1)


def test_verify_reports_theorem1_tightness():
    checks = verify_theorems(30, seed=3, n_max=4)
    assert [c.verdict for c in checks] == ["pass"] * 9 and not any(c.status for c in checks)
    theorem1 = [c for c in checks if c.theorem == "Theorem 1"]
    # n = 2 with d(1, 0) = D, d(0, 1) = d is among the instances: ratio exactly Delta
    assert all(c.worst_ratio == Fraction(c.bound_at_worst) for c in theorem1)
    assert all(c.closest_to_bound == 1 for c in theorem1)
    assert all(0 < c.closest_to_bound <= 1 for c in checks)


def test_cli_verify_200_examples_passes(capsys):
    assert main(["verify", "--examples", "200", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["status"], data["inputs"]["examples"]) == (0, 200)
    records = data["checks"]
    assert len(records) == 10
    assert {r["status"] for r in records} == {"pass"}
    assert all(r["instances"] == 200 for r in records)
    assert all(r["worst_ratio"] <= r["bound_at_worst"] + 1e-12 for r in records)
    assert records[-1]["theorem"] == "Marendic Lemma 1" and records[-1]["worst_ratio"] == 1


def test_cli_verify_text(capsys):
    assert main(["verify", "--examples", "3", "--seed", "2", "--n-max", "3"]) == 0
    out = capsys.readouterr().out
    assert "Theorem 5" in out and "Marendic Lemma 1" in out and "pass" in out


def test_cli_bounds_json(capsys):
    assert main(["bounds", "--delta", "2", "--n", "64", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["inputs"] == {"delta": "2", "n": 64, "with_misprint": False}
    records = data["cells"]
    assert len(records) == 9
    for record in records:
        assert {"algorithm", "regime", "theorem", "expression", "value"} <= set(record)
    first = records[0]
    assert (first["algorithm"], first["regime"], first["theorem"], first["expression"],
            first["value"]) == ("binomial-stat", "c=0", 1, "Delta", 2.0)
    assert main(["bounds", "--json", "--with-misprint"]) == 0
    records = json.loads(capsys.readouterr().out)["cells"]
    assert len(records) == 10 and records[-1]["value"] is None
    assert "misprint" in records[-1]["note"]


def test_cli_bounds_text_and_latex(capsys):
    assert main(["bounds", "--delta", "3/2"]) == 0
    out = capsys.readouterr().out
    assert "5/2 (Th. 3)" in out and "misprint" in out
    assert main(["bounds", "--latex"]) == 0
    assert r"\begin{tabular}" in capsys.readouterr().out


def test_cli_optimum(tmp_path, capsys):
    path = tmp_path / "costs.json"
    path.write_text(json.dumps({"comm": [[0, 5], [2, 0]], "comp": [7, 1]}))
    assert main(["optimum", "--costs", str(path), "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["makespan_exact"] == "6" and record["root"] == 1
    assert record["children"] == {"0": [], "1": [0]}
    assert main(["optimum", "--costs", str(path), "--root", "0"]) == 0
    out = capsys.readouterr().out
    assert "makespan 9" in out and "P1 -> P0" in out
    gantt = tmp_path / "opt.png"
    assert main(["optimum", "--costs", str(path), "--gantt", str(gantt)]) == 0
    assert gantt.stat().st_size > 0
    # never overwrite without --force
    assert main(["optimum", "--costs", str(path), "--gantt", str(gantt)]) == 2
    assert "exists" in capsys.readouterr().err
    # an image format matplotlib does not know: one line, before any work
    assert main(["optimum", "--costs", str(path), "--gantt", str(tmp_path / "opt.xyz")]) == 2
    err = capsys.readouterr().err
    assert "--gantt" in err and ".png" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("argv, words", [
    (["bounds", "--delta", "0.5"], "Delta"),
    (["bounds", "--n", "1"], "n must be"),
    (["bounds", "--delta", "x"], "--delta"),
    (["verify", "--examples", "0"], "examples"),
    (["verify", "--examples", "1", "--seed", "-1"], "seed"),
    (["verify", "--n-max", "9"], "n_max"),
    (["verify", "--n-max", "1"], "n_max"),
    (["bounds", "--delta", "nan"], "--delta"),
    (["bounds", "--delta", "inf"], "--delta"),
    (["bounds", "--delta", "-2"], "Delta"),
    (["bounds", "--delta", "1e400", "--n", "4", "--json"], "--delta 1e400 is out of range"),
    (["bounds", "--n", "0"], "n must be"),
    (["bounds", "--json", "--latex"], "--latex"),
    (["optimum", "--costs", "/nonexistent/costs.json"], "No such file"),
])
def test_cli_errors_are_one_line(argv, words, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and len(err.strip().splitlines()) == 1


def test_cli_optimum_bad_matrix(tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"comm": [[0, 1], [-1, 0]], "comp": [0, 0]}))
    assert main(["optimum", "--costs", str(path)]) == 2
    assert "P1->P0" in capsys.readouterr().err


@pytest.mark.parametrize("text, extra, words", [
    ("{bad", [], "malformed JSON"),
    ("[]", [], "JSON object"),
    ('{"comm": [], "comp": []}', [], "comm"),
    ('{"comm": [[0, NaN], [1, 0]], "comp": [0, 0]}', [], "P0->P1"),
    ('{"comm": [[0, Infinity], [1, 0]], "comp": [0, 0]}', [], "P0->P1"),
    ('{"comm": [[0, true], [1, 0]], "comp": [0, 0]}', [], "P0->P1"),
    ('{"comm": [[0, 1], [1, 0]], "comp": [0, "x"]}', [], "P1"),
    ('{"comm": [[0, 1], [1, 0]], "comp": [0, 0], "start_times": [0, -1]}', [], "P1"),
    ('{"comm": [[0, 1], [1, 0]], "comp": [0, 0], "start_times": "ab"}', [], "start_times"),
    ('{"comm": [[0, 1], [1, 0]], "comp": [0, 0], "color": 1}', [], "color"),
    ('{"comm": [[0, 1], [1, 0]], "comp": [0, 0]}', ["--root", "2"], "root"),
    ('{"comm": [[0, 1], [1, 0]], "comp": [0, 0]}', ["--root", "-1"], "root"),
    ('{"comm": ' + json.dumps([[1] * 13] * 13) + ', "comp": ' + json.dumps([0] * 13) + "}",
     [], "13 processors, over max_processors = 12; raise it with --max-processors"),
])
def test_cli_optimum_bad_files_are_one_line(tmp_path, capsys, text, extra, words):
    path = tmp_path / "costs.json"
    path.write_text(text)
    assert main(["optimum", "--costs", str(path), *extra]) == 2
    err = capsys.readouterr().err
    assert words in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_library_budget_and_seed_checks():
    for call in (lambda: verify_theorems(1, seed=-1), lambda: verify_theorems("3"),
                 lambda: verify_theorems(1, n_max=2.5),
                 lambda: worst_ratio("tree-dyn", "c=0", 2, examples=0),
                 lambda: worst_ratio("tree-dyn", "c=0", 2, n_min=1),
                 lambda: worst_ratio("tree-dyn", "c=0", 2, n_min=5, n_max=4),
                 lambda: worst_ratio("nope", "c=0", 2),
                 lambda: worst_ratio("tree-dyn", "c=0", "1/2")):
        with pytest.raises(InputError):
            call()


def test_refuted_theorem_is_reported_not_failed(monkeypatch, capsys):
    # A deliberately false cell (Delta/2 for Binomial-stat at c = 0): verify must
    # mark it refuted, keep a counter-example, and still exit 0.
    import hetcoll.analytics.verify as verify

    false = Bound("binomial-stat", "c=0", 1, DELTA / 2)
    monkeypatch.setattr(verify, "TABLE1", tuple(
        false if (b.algorithm, b.regime) == ("binomial-stat", "c=0") else b for b in TABLE1))
    assert main(["verify", "--examples", "4", "--n-max", "3"]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("Theorem ")]
    refuted = [row for row in rows if "refuted" in row.split()]
    assert len(refuted) == 1 and "binomial-stat" in refuted[0] and "c=0" in refuted[0]
    assert sum("pass" in row.split() for row in rows) == 8
    assert "Theorem 1 (binomial-stat, c=0) refuted:" in out and "'optimum'" in out


def test_internal_contradiction_fails(monkeypatch, capsys):
    # An "optimum" above a simulated makespan is hetcoll contradicting itself: exit 1.
    import hetcoll.analytics.verify as verify

    real = verify.clairvoyant_optimum

    def inflated(comm, comp, **kwargs):
        result = real(comm, comp, **kwargs)
        result.makespan *= 10
        return result

    monkeypatch.setattr(verify, "clairvoyant_optimum", inflated)
    assert main(["verify", "--examples", "2", "--n-max", "3", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == 1 and data["message"] == "a theorem check failed"
    records = data["checks"]
    assert {r["status"] for r in records[:9]} == {"fail"}
