"""Issue 10 on the LP commands: warnings, repeatable name flags, report's solver flags,
progress bars and compact numbers.  Expected values are worked out by hand in comments."""

from __future__ import annotations

import dataclasses
import json
import os
import pty
import select
import subprocess
import sys
import termios
from fractions import Fraction as F
from pathlib import Path

import pytest

from hetcoll.cli import main
from hetcoll.core.display import approx_str, number_text
from hetcoll.core.errors import LimitError

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
TWO = str(EXAMPLES / "two_processor.json")


def run(capsys, *argv):
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def run_json(capsys, *argv):
    status, out, err = run(capsys, *argv, "--json")
    return status, json.loads(out), err


# -- 1. warnings -------------------------------------------------------------------

# The two-processor reduce (NOTES.md section 1): trees of weights 1/3 and 2/3, TP = 1.
# With TF: r = (floor(TF/3), floor(2TF/3)), TP* = (r1 + r2) / TF.
@pytest.mark.parametrize("period, throughput, expected", [
    ("1/1000", "0", ["gives every tree r(t) = floor(weight·TF) = 0 uses: throughput 0"]),
    ("1", "0", ["gives every tree"]),
    # r = (0, 1): TP* = 1/2, one tree dropped, half of TP lost.
    ("2", "1/2", ["drops 1 of 2 trees", "loses 50% of the LP throughput"]),
    # r = (2, 4): TP* = 6/7, a loss of 1/7 > 10%.
    ("7", "6/7", ["loses 14.2857% of the LP throughput"]),
    # r = (33, 66): TP* = 99/100, a loss of 1%: no warning.
    ("100", "99/100", []),
])
def test_fixed_period_warnings(capsys, period, throughput, expected):
    status, data, err = run_json(capsys, "schedule", "reduce", TWO, "--fixed-period", period)
    assert status == 0 and data["throughput_exact"] == throughput
    assert len(data["warnings"]) == len(expected)
    for warning, text in zip(data["warnings"], expected, strict=True):
        assert text in warning
    # One stderr line per warning, the same sentences.
    assert err.splitlines() == [f"hetcoll schedule reduce: warning: {w}"
                                for w in data["warnings"]]


def test_fixed_period_warning_says_the_smallest_useful_period(capsys):
    # The heaviest tree weighs 2/3: one use per period needs TF >= 3/2.
    status, out, err = run(capsys, "schedule", "reduce", TWO, "--fixed-period", "1/1000")
    assert status == 0 and "TF must be at least 3/2 (≈ 1.5) for one use" in err
    assert "throughput 0; LP optimum 1" in out


def test_exact_period_has_no_warning(capsys):
    status, data, err = run_json(capsys, "schedule", "reduce", TWO)
    assert (status, data["warnings"], err) == (0, [], "")


def test_too_few_periods_to_measure_the_steady_state_are_warned_about(capsys):
    # The two-processor reduce schedule has pipeline depth 2 (docs/schedule.md): with
    # K = 2 no period is full; with K = 3 period 2 is.
    status, data, err = run_json(capsys, "schedule", "reduce", TWO, "--periods", "2")
    assert status == 0 and data["execution"]["steady_throughput"] is None
    (warning,) = data["warnings"]
    assert "do not fill the pipeline (depth 2)" in warning and "at least 3 periods" in warning
    assert err == f"hetcoll schedule reduce: warning: {warning}\n"
    status, data, err = run_json(capsys, "schedule", "reduce", TWO, "--periods", "3")
    assert (data["execution"]["steady_throughput"], data["warnings"], err) == ("1", [], "")


def test_a_starved_scatter_target_is_warned_about():
    from hetcoll.lp.decomposition import ScatterPath, Transfer
    from hetcoll.lp.schedule import periodic_schedule

    # A is served by one path of weight 1/2, B by two of weight 1/4: TP = 1/2.  With
    # TF = 2: r = (1, 0, 0), B gets no message, TP* = min(1/2, 0) = 0.
    paths = [ScatterPath(F(1, 2), "A", (Transfer("S", "A", "A"),)),
             ScatterPath(F(1, 4), "B", (Transfer("S", "B", "B"),)),
             ScatterPath(F(1, 4), "B", (Transfer("S", "C", "B"), Transfer("C", "B", "B")))]
    s = periodic_schedule(paths, lambda *a: F(1, 4), lambda *a: F(1), source="S",
                          targets=["A", "B"], fixed_period=2)
    assert s.uses == (1, 0, 0) and s.throughput_exact == 0
    assert len(s.warnings) == 2
    assert s.warnings[0].startswith("the fixed period 2 leaves target B without any path use")
    assert s.warnings[1] == "the fixed period 2 drops 2 of 3 paths (weight below 1/TF: r(t) = 0)"
    assert s.to_dict()["warnings"] == list(s.warnings)
    # TF = 4: r = (2, 1, 1), TP* = min(2, 2)/4 = 1/2 = TP: nothing lost, no warning.
    assert periodic_schedule(paths, lambda *a: F(1, 4), lambda *a: F(1), source="S",
                             targets=["A", "B"], fixed_period=4).warnings == ()


def test_an_uncertified_optimum_is_warned_about_unless_certification_was_off(capsys):
    from hetcoll import lp

    platform = lp.read_platform(TWO)
    result = lp.steady_state_lp(platform, lp.Reduce(["P0", "P1"], "P0"))
    assert result.warnings == []
    failed = dataclasses.replace(result, status=1, certified=False, throughput_exact=None,
                                 message="optimal in floating point; exact certification "
                                 "failed: no basis")
    (warning,) = failed.warnings
    assert warning.startswith("the optimum TP ≈ 1 is not certified")
    status, data, err = run_json(capsys, "lp", "reduce", TWO, "--no-certify")
    assert (status, data["status"], data["warnings"], err) == (0, 1, [], "")


def test_report_collects_the_warnings_of_every_scenario(monkeypatch, capsys):
    from hetcoll.lp import steady_state as module

    # Make every certification fail: each of the three scenarios warns once.
    monkeypatch.setattr(module, "_certify", lambda highs, model, progress: (None, "broken"))
    status, data, err = run_json(capsys, "report", TWO)
    assert status == 0 and len(data["warnings"]) == 3
    assert data["warnings"][0].startswith(f"{TWO}: scatter: the optimum TP ≈ 1 is not certified")
    assert len(err.splitlines()) == 3 and err.startswith("hetcoll report: warning: ")


# -- 2. repeatable name flags ---------------------------------------------------------

@pytest.fixture
def comma_names(tmp_path):
    """S linked both ways to "x,y" and "P 0", every link of cost 1."""
    path = tmp_path / "names.json"
    names = ["S", "x,y", "P 0"]
    path.write_text(json.dumps({
        "processors": [{"name": n, "compute": 1} for n in names],
        "links": [{"from": a, "to": b, "cost": 1} for a in names for b in names
                  if a != b and "S" in (a, b)]}))
    return str(path)


def test_scatter_to_names_with_commas_and_spaces(capsys, comma_names):
    # S's out-port sends 2 (size of x,y) + 1 per scatter: TP = 1/3.
    status, data, _ = run_json(capsys, "lp", "scatter", comma_names, "--source", "S",
                               "--target", "x,y", "--target", "P 0", "--size", "x,y=2")
    assert status == 0 and data["targets"] == ["x,y", "P 0"]
    assert data["throughput_exact"] == "1/3" and data["sizes"] == {"x,y": "2", "P 0": "1"}


def test_gather_from_names_with_commas_mixes_list_and_repeated_flags(capsys, comma_names):
    # S's in-port receives 1 + 1/2 per gather: TP = 2/3.
    status, data, _ = run_json(capsys, "schedule", "gather", comma_names, "--sources", "P 0",
                               "--source", "x,y", "--target", "S", "--sizes", "P 0=1",
                               "--size", "x,y = 1/2")
    assert status == 0 and data["sources"] == ["P 0", "x,y"]
    assert data["throughput_exact"] == "2/3" and data["execution"]["valid"] is True


def test_repeated_participants_equal_the_comma_list(capsys):
    _, listed, _ = run_json(capsys, "lp", "reduce", TWO, "--participants", "P0,P1",
                            "--target", "P0")
    _, repeated, _ = run_json(capsys, "lp", "reduce", TWO, "--participant", "P0",
                              "--participant", "P1", "--target", "P0")
    assert repeated["participants"] == ["P0", "P1"] and repeated["throughput_exact"] == "1"
    assert listed["flows"] == repeated["flows"]


@pytest.mark.parametrize("argv, culprit", [
    (["lp", "scatter", TWO, "--source", "P0", "--target", " "], "--target"),
    (["lp", "scatter", TWO, "--source", "P0", "--target", "P1", "--size", "P1"], "--size"),
    (["lp", "scatter", TWO, "--source", "P0", "--target", "P1", "--sizes", "P1=1",
      "--size", "P1=2"], "given twice"),
    (["lp", "scatter", TWO, "--source", "P0", "--target", "P1", "--size", "P1=-1"],
     "--size: size of P1"),
    (["lp", "reduce", TWO, "--participant", "P0"], "--target is required"),
])
def test_bad_repeated_flags_are_one_line(capsys, argv, culprit):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == "" and err.count("\n") == 1 and culprit in err


# -- 3. report takes the solver flags ---------------------------------------------

def test_report_passes_the_solver_flags_on(tmp_path, capsys):
    from hetcoll.report import report

    # Two-processor scatter: TP, one send variable per link and message: under 10.
    with pytest.raises(LimitError, match="--max-variables"):
        report([TWO], max_variables=2)
    with pytest.raises(LimitError, match="--max-intervals"):
        report([TWO], max_busy_intervals=3)
    log = tmp_path / "highs.log"
    report([TWO], solver_options={"output_flag": True, "log_file": str(log)})
    assert "HiGHS" in log.read_text()
    for flag, value in (("--max-variables", "2"), ("--max-intervals", "3")):
        status, out, err = run(capsys, "report", TWO, flag, value)
        assert status == 2 and out == "" and flag in err and err.count("\n") == 1
    status, data, _ = run_json(capsys, "report", TWO, "--time-limit", "30")
    assert status == 0 and data["platforms"][0]["sections"]["steady_state"][2][
        "throughput_exact"] == "1"


def test_report_verbose_shows_the_solver_log(capfd):
    assert main(["report", TWO, "--verbose"]) == 0
    assert "HiGHS" in capfd.readouterr().err


# -- 4. progress bars ---------------------------------------------------------------

def test_progress_keywords_draw_bars_on_stderr(capsys):
    from hetcoll import lp

    platform = lp.read_platform(TWO)
    operation = lp.Reduce(["P0", "P1"], "P0")
    lp.steady_state_lp(platform, operation)
    assert capsys.readouterr().err == ""
    result = lp.steady_state_lp(platform, operation, progress=True)
    assert "LP solve (HiGHS)" in capsys.readouterr().err
    schedule = lp.schedule_from_lp(result)
    lp.execute_schedule(schedule, 5)
    assert capsys.readouterr().err == ""
    lp.execute_schedule(schedule, 5, progress=True)
    assert "exact run" in capsys.readouterr().err


def _run_with_stderr(argv, tty: bool) -> str:
    """stderr of ``hetcoll argv``, a pseudo-terminal's or a pipe's."""
    command = [sys.executable, "-m", "hetcoll.cli", *argv]
    if not tty:
        return subprocess.run(command, capture_output=True, text=True, check=True).stderr
    master, slave = pty.openpty()
    # A terminal of 0 columns (a new pty's size) gets no bar from tqdm.
    termios.tcsetwinsize(slave, (24, 80))
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    chunks = []
    while True:
        ready, _, _ = select.select([master], [], [], 60)
        try:
            chunk = os.read(master, 4096) if ready else b""
        except OSError:  # the child closed the terminal
            chunk = b""
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    assert process.wait(60) == 0
    return b"".join(chunks).decode(errors="replace")


@pytest.mark.parametrize("argv", [["lp", "reduce", TWO], ["schedule", "reduce", TWO]])
def test_progress_bars_appear_on_a_terminal_only(argv):
    assert "LP solve (HiGHS)" in _run_with_stderr(argv, tty=True)
    assert "LP solve" not in _run_with_stderr(argv, tty=False)


def test_json_turns_the_bars_off_on_a_terminal():
    assert "LP solve" not in _run_with_stderr(["lp", "reduce", TWO, "--json"], tty=True)


# -- 5. compact numbers -------------------------------------------------------------

def test_number_text_by_hand():
    assert number_text(F(1, 3)) == "1/3 (≈ 0.333333)"
    assert number_text(F(38, 265)) == "38/265 (≈ 0.143396)"
    assert number_text(F(7)) == "7"
    assert number_text(0.25) == "0.25"
    assert number_text(None) == "-"
    # 1/3^40: a 20-digit denominator, elided.
    assert number_text(F(1, 3**40)) == "≈ 8.22526e-20"
    # Beyond floats: decimal rounding, never inf or 0.
    assert approx_str(F(10**400, 3)) == "3.33333e+399"
    assert approx_str(F(1, 7 * 10**400)) == "1.42857e-401"


def test_text_outputs_show_compact_numbers(capsys):
    _, out, _ = run(capsys, "lp", "reduce", TWO)
    # NOTES.md section 1: P0 -> P1 carries v_0 2/3 of the time.
    assert "TP = 1 operations per time unit (certified exact)" in out
    assert "P0 -> P1: v[0,0] × 2/3 (≈ 0.666667)" in out
    _, out, _ = run(capsys, "schedule", "reduce", TWO, "--fixed-period", "7")
    assert "period 7, throughput 6/7 (≈ 0.857143); LP optimum 1" in out
    assert "loss TP - TP* = 1/7 (≈ 0.142857) <= #trees / TF = 2/7 (≈ 0.285714)" in out
    _, out, _ = run(capsys, "report", str(EXAMPLES / "reduce_counterexample.json"))
    # NOTES.md section 1: the reduce counter-example's true TP is 1/2.
    assert "reduce P1,P2 -> P0: TP = 1/2 (≈ 0.5), certified" in out
