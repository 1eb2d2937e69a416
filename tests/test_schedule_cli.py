"""The ``hetcoll schedule`` command line."""

import json
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest

from hetcoll.cli import main

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
TWO = str(EXAMPLES / "two_processor.json")
SITES = str(EXAMPLES / "two_sites.json")


def run_json(capsys, *argv):
    assert main(["schedule", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_reduce_json_on_the_hand_case(capsys):
    data = run_json(capsys, "reduce", TWO, "--participants", "P0,P1", "--target", "P0")
    assert data["period"] == "3" and data["throughput_exact"] == "1"
    # NOTES.md section 1, by hand: P1 sends v_1 and P0 computes (1/3); P0 sends v_0,
    # P1 computes and returns v[0,1] (2/3).
    trees = {t["weight"]: t for t in data["trees"]}
    assert set(trees) == {"1/3", "2/3"}
    assert trees["1/3"]["transfers"] == [{"from": "P1", "to": "P0", "interval": [1, 1]}]
    assert trees["1/3"]["tasks"] == [{"processor": "P0", "task": [0, 0, 1]}]
    assert sorted(map(json.dumps, trees["2/3"]["transfers"])) == sorted(map(json.dumps, [
        {"from": "P0", "to": "P1", "interval": [0, 0]},
        {"from": "P1", "to": "P0", "interval": [0, 1]}]))
    assert trees["2/3"]["tasks"] == [{"processor": "P1", "task": [0, 0, 1]}]
    # Per period P1 -> P0 carries 1 + 2 unit messages: the maximum weighted degree, 3.
    assert sum(F(m["duration"]) for m in data["matchings"]) == 3
    assert data["execution"]["valid"] is True
    assert data["execution"]["steady_throughput"] == "1"


def test_defaults_from_the_platform_file(capsys):
    data = run_json(capsys, "reduce", TWO)
    assert data["participants"] == ["P0", "P1"] and data["target"] == "P0"
    data = run_json(capsys, "scatter", TWO)
    assert data["source"] == "P0" and data["paths"][0]["transfers"] == [
        {"from": "P0", "to": "P1", "target": "P1"}]


def test_fixed_period_reports_loss_and_bound(capsys):
    data = run_json(capsys, "reduce", TWO, "--fixed-period", "2")
    assert data["period"] == "2" and data["throughput_exact"] == "1/2"
    assert data["loss"] == "1/2" and data["loss_bound"] == "1"


def test_text_output_and_gantt(tmp_path, capsys):
    chart = tmp_path / "period.png"
    assert main(["schedule", "scatter", SITES, "--gantt", str(chart)]) == 0
    out = capsys.readouterr().out
    assert "scatter schedule: period 140, throughput 23/140" in out
    assert "schedule valid" in out
    assert chart.stat().st_size > 10_000
    # Never overwrite without --force.
    assert main(["schedule", "scatter", SITES, "--gantt", str(chart)]) == 2
    assert "exists; add --force" in capsys.readouterr().err
    assert main(["schedule", "scatter", SITES, "--gantt", str(chart),
                 "--force"]) == 0


@pytest.mark.parametrize("argv, culprit", [
    (["reduce", TWO, "--participants", "P0,P9", "--target", "P0"], "P9"),
    (["reduce", TWO, "--participants", "P0,P1"], "--target"),
    (["reduce", TWO, "--fixed-period", "-1"], "--fixed-period must be positive"),
    (["scatter", TWO, "--periods", "0"], "--periods"),
    (["scatter", TWO, "--gantt", "chart.txt"], ".png"),
    (["scatter", "examples/no_such_file.json"], "no_such_file"),
    (["reduce", TWO, "--fixed-period", "0"], "--fixed-period must be positive, got 0"),
    (["reduce", TWO, "--fixed-period", "nan"], "--fixed-period is not a number: 'nan'"),
    (["reduce", TWO, "--fixed-period", "inf"], "--fixed-period is not a number: 'inf'"),
    (["scatter", TWO, "--fixed-period", "1/0"], "--fixed-period is not a number: '1/0'"),
    (["scatter", TWO, "--periods", "-4"], "--periods must be at least 1, got -4"),
    (["reduce", TWO, "--periods", str(10**13)], "periods of this schedule make"),
    (["scatter", TWO, "--source", "P1", "--targets", "P1"], "target 'P1' is the source itself"),
    (["scatter", TWO, "--source", "P0", "--targets", ""], "--targets: expected a non-empty"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, culprit):
    assert main(["schedule", *argv]) == 2
    err = capsys.readouterr().err
    assert culprit in err and err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("argv", [["reduce", TWO, "--periods", "x"],
                                  ["reduce", TWO, "--periods", "2.5"],
                                  ["scatter", TWO, "--no-such-flag"]])
def test_usage_errors_are_one_line_and_exit_2(capsys, argv):
    with pytest.raises(SystemExit) as stop:
        main(["schedule", *argv])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("hetcoll") and "error:" in err


def test_help_and_console_entry_point():
    done = subprocess.run([sys.executable, "-m", "hetcoll.cli", "schedule", "reduce", "--help"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0
    for flag in ("--participants", "--target", "--fixed-period", "--gantt", "--json"):
        assert flag in done.stdout
