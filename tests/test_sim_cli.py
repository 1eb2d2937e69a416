"""``hetcoll simulate``: JSON contract, exact runs, files, bad input."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from hetcoll.cli import main

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "costs"


ENVELOPE = ("status", "message", "hetcoll_version", "warnings", "inputs")


def run_json(capsys, *argv):
    """The JSON of ``hetcoll simulate ARGV --json``, without the envelope keys."""
    assert main(["simulate", *argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == 0
    return {key: value for key, value in data.items() if key not in ENVELOPE}


def test_monte_carlo_json_per_method(capsys):
    data = run_json(capsys, "all", "--n", "16", "--mu-comm", "1", "--cv-comm", "1", "--runs",
                    "3000", "--seed", "1")
    assert list(data) == ["binomial-stat", "fibonacci-stat", "tree-dyn", "noncommut-tree-dyn"]
    for summary in data.values():
        assert {"mean", "stderr", "quantiles"} <= set(summary)
        assert summary["runs"] == 3000
        low, mid, high = (summary["quantiles"][q] for q in ("0.1", "0.5", "0.9"))
        assert low <= mid <= high
        assert summary["stderr"] == pytest.approx(summary["std"] / math.sqrt(3000))
    # Exponential communications, n = 16: (2 H(7) + 2/16) / 1.
    expected = 2 * sum(1 / i for i in range(1, 8)) + 2 / 16
    tree = data["tree-dyn"]
    assert abs(tree["mean"] - expected) < 4 * tree["stderr"]
    # Same seed, same numbers.
    again = run_json(capsys, "tree-dyn", "--n", "16", "--runs", "3000", "--seed", "1")
    assert again["tree-dyn"] == tree


def test_monte_carlo_with_computations_and_text_output(capsys):
    assert main(["simulate", "fibonacci-stat", "--n", "13", "--mu-comm", "1", "--cv-comm", "0",
                 "--mu-comp", "1", "--runs", "10", "--quantiles", "0.5"]) == 0
    out = capsys.readouterr().out
    # Deterministic d = c = 1, n = 13, order 5: d + 4 max(d, c) + c = 6.
    assert "fibonacci-stat" in out and " 6 " in out and "q0.5" in out


def test_exact_run_json(capsys):
    data = run_json(capsys, "fibonacci-stat", "--costs", str(EXAMPLES / "fig2_homogeneous_8.json"),
                    "--trace")
    # d = c = 1, order 4: d + 3 max(d, c) + c = 5.
    assert data["makespan"] == 5.0 and data["makespan_exact"] == "5"
    assert data["order"] == list(range(8)) and data["in_order"] is True
    transfers = [e for e in data["trace"] if e["kind"] == "transfer"]
    assert [e["processor"] for e in transfers if e["peer"] == 0] == [1, 2, 3, 5]
    assert all(e["end"] - e["start"] == 1 for e in data["trace"])


def test_exact_run_all_and_rationals(capsys, tmp_path):
    costs = tmp_path / "c.json"
    costs.write_text(json.dumps({"comm": [[0, "1/3"], [0.1, 0]], "comp": ["1/7", 0]}))
    data = run_json(capsys, "all", "--costs", str(costs))
    # P1 -> P0 costs 1/10 (the decimal as typed), then P0 computes 1/7.
    for record in data.values():
        assert record["makespan_exact"] == "17/70"
        assert record["makespan"] == pytest.approx(17 / 70)


def test_theorem1_example(capsys):
    data = run_json(capsys, "all", "--costs", str(EXAMPLES / "theorem1_tight_8.json"))
    assert data["binomial-stat"]["makespan_exact"] == "12"
    assert data["tree-dyn"]["makespan_exact"] == "12"


def test_gantt_written_and_never_overwritten(capsys, tmp_path):
    target = tmp_path / "g.png"
    argv = ["simulate", "binomial-stat", "--costs", str(EXAMPLES / "fig2_homogeneous_8.json"),
            "--gantt", str(target)]
    assert main(argv) == 0
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    target.write_bytes(b"user data")
    assert main(argv) == 2
    assert "exists" in capsys.readouterr().err
    assert target.read_bytes() == b"user data"
    assert main([*argv, "--force"]) == 0
    assert target.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("argv, culprit", [
    (["tree-dyn"], "--n is required"),
    (["tree-dyn", "--n", "0"], "number of processors"),
    (["tree-dyn", "--n", "4", "--runs", "0"], "runs"),
    (["tree-dyn", "--n", "4", "--cv-comm", "-1"], "--cv-comm must be non-negative"),
    (["tree-dyn", "--n", "4", "--mu-comp", "-2"], "--mu-comp must be non-negative"),
    (["tree-dyn", "--n", "4", "--quantiles", "0.5,x"], "--quantiles"),
    (["tree-dyn", "--n", "4", "--trace"], "--trace needs --costs"),
    (["tree-dyn", "--costs", "FILE", "--runs", "5"], "--runs applies to random costs"),
    (["tree-dyn", "--costs", "FILE", "--n", "3"], "--n 3 disagrees"),
    (["fibonacci-stat", "--costs", "FILE", "--fibonacci-order", "1"], "fibonacci_order 1"),
    (["tree-dyn", "--costs", "MISSING"], "No such file"),
    (["tree-dyn", "--costs", "BADJSON"], "malformed JSON"),
    (["tree-dyn", "--costs", "NEGATIVE"], "link P1->P0"),
    (["tree-dyn", "--costs", "BINARY"], "not a UTF-8 text file"),
    (["tree-dyn", "--costs", "FILE", "--gantt", "GANTT_XYZ"], "unknown image format '.xyz'"),
    (["bogus", "--n", "4"], "invalid choice"),
    (["tree-dyn", "--n", "4", "--mu-comm", "nan"], "--mu-comm is not a number"),
    (["tree-dyn", "--n", "4", "--cv-comm", "inf"], "--cv-comm is not a number"),
    (["tree-dyn", "--n", "4", "--mu-comm", "1e-400"], "--mu-comm 1e-400 is out of range"),
    # Finite flags whose gamma shape 1/CV^2 or scale mean*CV^2 leaves the float range.
    (["tree-dyn", "--n", "4", "--cv-comm", "1e-200"], "--cv-comm 1e-200: gamma coefficient"),
    (["tree-dyn", "--n", "4", "--cv-comm", "1e200"], "--cv-comm 1e+200: gamma coefficient"),
    (["tree-dyn", "--n", "4", "--mu-comp", "1", "--cv-comp", "1e-170"], "--cv-comp 1e-170"),
    (["tree-dyn", "--n", "4", "--quantiles", ""], "--quantiles"),
    (["tree-dyn", "--n", "4", "--quantiles", "nan"], "--quantiles"),
    (["tree-dyn", "--n", "4", "--seed", "-1"], "seed"),
    (["tree-dyn", "--n", "4", "--jobs", "0"], "n_jobs"),
    # Flags that would otherwise be silently ignored.
    (["tree-dyn", "--n", "4", "--fibonacci-order", "3"], "--fibonacci-order applies to"),
    (["tree-dyn", "--costs", "FILE", "--fibonacci-order", "3"], "--fibonacci-order applies"),
    (["tree-dyn", "--n", "4", "--cv-comp", "1"], "--cv-comp needs --mu-comp"),
])
def test_bad_input_exits_2_with_one_line(capsys, tmp_path, argv, culprit):
    files = {"FILE": str(EXAMPLES / "fig2_homogeneous_8.json"),
             "MISSING": str(tmp_path / "missing.json"), "BADJSON": tmp_path / "bad.json",
             "NEGATIVE": tmp_path / "neg.json"}
    files["BADJSON"].write_text("{")
    files["GANTT_XYZ"] = tmp_path / "chart.xyz"
    files["BINARY"] = tmp_path / "binary.json"
    files["BINARY"].write_bytes(b"\xff\xfe{}")
    files["NEGATIVE"].write_text(json.dumps({"comm": [[0, 1], [-1, 0]], "comp": [0, 0]}))
    argv = [str(files.get(a, a)) for a in argv]
    if argv[0] == "bogus":  # argparse usage errors exit by themselves
        with pytest.raises(SystemExit) as info:
            main(["simulate", *argv])
        status = info.value.code
    else:
        status = main(["simulate", *argv])
    assert status == 2
    err = capsys.readouterr().err
    assert culprit in err and err.count("\n") == 1 and "Traceback" not in err


def test_negative_computation_mean_is_rejected(capsys):
    assert main(["simulate", "tree-dyn", "--n", "4", "--mu-comp", "-1"]) == 2
    assert "--mu-comp must be non-negative" in capsys.readouterr().err


def test_read_cost_file_is_exact_and_keeps_every_field():
    from fractions import Fraction

    from hetcoll.sim import CostFile, read_cost_file

    data = read_cost_file(EXAMPLES / "heterogeneous_5.json")
    assert isinstance(data, CostFile) and data.n == 5
    # Values typed in the file, not produced by the reader.
    assert data.costs.d[0][1] == Fraction(3, 2) and data.costs.d[4][0] == Fraction(9, 4)
    assert data.costs.c == (Fraction(1, 2), Fraction(1, 3), 1, Fraction(1, 4), 0)
    assert data.start_times == (0, 0, Fraction(1, 2), 0, 2)
    assert data.description.startswith("Asymmetric rational costs")


@pytest.mark.parametrize("content, culprit", [
    ({"comm": [[0, 1], [1]]}, "row 1 has 1 entries"),
    ({"comm": [[0, "x"], [1, 0]]}, "link P0->P1"),
    ({"comm": [[0, 1], [1, 0]], "comp": [0]}, "comp has 1 entries"),
    ({"comm": [[0, 1], [1, 0]], "comp": [0, -2]}, "computation cost of P1"),
    ({"comm": [[0, 1], [1, 0]], "start_times": [0]}, "start_times has 1 entries"),
    ({"comm": [[0, 1], [1, 0]], "start_times": [0, "-1/2"]}, "start time of P1"),
    ({"comm": [[0, 1], [1, 0]], "start_times": "0"}, "start_times must be a list"),
    ({"comm": [[0, 1], [1, 0]], "description": 3}, '"description" must be a string'),
    ({"comm": [[0, 1], [1, 0]], "cost": 1}, "unknown key 'cost'"),
    ({"comp": [0, 0]}, '"comm" matrix'),
    ({"comm": [[0, float("nan")], [1, 0]]}, "link P0->P1 must be finite"),
    ({"comm": [[0, float("inf")], [1, 0]]}, "link P0->P1 must be finite"),
    ({"comm": [[0, True], [1, 0]]}, "link P0->P1 must be a number"),
    ({"comm": [[0, None], [1, 0]]}, "link P0->P1 is missing"),
    ({"comm": []}, "non-empty n x n matrix"),
    ({"comm": [[0, 1], [1, 0]], "comp": 1}, "comp must be a list"),
    # Exact, but its float (and the float makespan) would overflow.
    ({"comm": [[0, 1], [10**400, 0]]}, "link P1->P0 1000000"),  # ... is out of range
    ({"comm": [[0, 1e302], [1, 0]]}, "link P0->P1 1e+302 is out of range"),
])
def test_read_cost_file_names_the_culprit(tmp_path, capsys, content, culprit):
    from hetcoll.core.errors import InputError
    from hetcoll.sim import read_cost_file

    path = tmp_path / "bad.json"
    path.write_text(json.dumps(content))
    with pytest.raises(InputError, match="bad.json") as info:
        read_cost_file(path)
    assert culprit in str(info.value)
    # The CLI names the option too, on one line.
    assert main(["optimum", "--costs", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"--costs {path}: " in err and culprit in err and err.count("\n") == 1


# ------------------------------------------------------------ issue 10: the extremes
@pytest.mark.parametrize("scale", ["1e160", "1e-290"])
def test_huge_and_tiny_costs_give_finite_statistics(capsys, scale):
    # Issue 10: --mu-comm 1e160 printed std and stderr as Infinity (their squares
    # overflow).  numpy's gamma draws are scale * standard gamma draws, so every
    # statistic is the mean-1 one times the scale.
    base = run_json(capsys, "tree-dyn", "--n", "64", "--runs", "1000")["tree-dyn"]
    scaled = run_json(capsys, "tree-dyn", "--n", "64", "--runs", "1000",
                      "--mu-comm", scale)["tree-dyn"]
    factor = float(scale)
    for key in ("mean", "std", "stderr"):
        assert math.isclose(scaled[key], base[key] * factor, rel_tol=1e-9), key
    for key, value in base["quantiles"].items():
        assert math.isclose(scaled["quantiles"][key], value * factor, rel_tol=1e-9)


@pytest.mark.parametrize("argv", [
    ["tree-dyn", "--n", "100000000", "--runs", "10"],  # grew to 11 GB
    ["tree-dyn", "--n", "10", "--runs", "100000000000000"],  # a MemoryError traceback
    ["all", "--n", "1000", "--runs", "100000", "--jobs", "64", "--max-memory", "0.5"],
])
def test_memory_guard_refuses_before_any_work(capsys, argv):
    assert main(["simulate", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "raise it with --max-memory" in err and "GB" in err


def test_memory_guard_can_be_raised(capsys):
    argv = ["simulate", "tree-dyn", "--n", "100000", "--runs", "200", "--json"]
    assert main([*argv, "--max-memory", "0.001"]) == 2
    assert "over max_memory = 0.001 GB" in capsys.readouterr().err
    assert main([*argv, "--max-memory", "1"]) == 0


def test_few_runs_warn_on_stderr_and_in_json(capsys):
    assert main(["simulate", "tree-dyn", "--n", "8", "--runs", "20", "--json"]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert data["warnings"] == ["only 20 runs: the quantiles and the standard error are rough"]
    assert captured.err == "hetcoll simulate: warning: " + data["warnings"][0] + "\n"
