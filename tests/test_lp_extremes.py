"""The LP at the extremes: scale, size, time, interrupts and the solver log."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest

from hetcoll import lp
from hetcoll.cli import main
from hetcoll.core import InputError, LimitError

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _two_processor(scale: str) -> lp.Platform:
    # NOTES.md §1's hand-checked case, every cost multiplied by `scale`: TP = 1 / scale.
    return lp.platform_from_dict({
        "processors": [{"name": "P0", "compute": str(3 * Fraction(scale))},
                       {"name": "P1", "compute": str(Fraction(3, 2) * Fraction(scale))}],
        "links": [{"from": "P0", "to": "P1", "cost": scale},
                  {"from": "P1", "to": "P0", "cost": scale}]})


@pytest.mark.parametrize("scale", ["1e-9", "1e-200", "1e150", "1/3"])
def test_tp_is_scale_invariant_and_exact(scale):
    # HiGHS alone said "Unbounded" at 1e-9; hetcoll solves scaled coefficients and
    # certifies the unscaled LP.
    result = lp.steady_state_reduce_lp(_two_processor(scale), ["P0", "P1"], "P0")
    assert result.certified
    assert result.throughput_exact == 1 / Fraction(scale)
    scatter = lp.steady_state_scatter_lp(_two_processor(scale), "P0", ["P1"])
    assert scatter.throughput_exact == 1 / Fraction(scale)


def test_tiny_costs_from_the_command_line(tmp_path, capsys):
    data = json.loads((EXAMPLES / "two_processor.json").read_text())
    for proc in data["processors"]:
        proc["compute"] = "1e-9"
    for link in data["links"]:
        link["cost"] = "1e-9"
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(data))
    assert main(["lp", "reduce", str(path), "--participants", "P0,P1", "--target", "P0",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    # P1 sends v_1 (1e-9) and P0 computes (1e-9): one reduce per 1e-9 on each resource.
    assert out["throughput_exact"] == "1000000000" and out["certified"] is True


def test_costs_spanning_too_many_orders_are_refused_by_name():
    platform = lp.platform_from_dict({
        "processors": [{"name": "A", "compute": 1}, {"name": "B", "compute": 1}],
        "links": [{"from": "A", "to": "B", "cost": "1e-200"},
                  {"from": "B", "to": "A", "cost": "1e200"}]})
    with pytest.raises(InputError, match="cheapest cost is link A->B's.*dearest link B->A's"):
        lp.steady_state_reduce_lp(platform, ["A", "B"], "A")


def _complete(n: int) -> dict:
    names = [f"P{i}" for i in range(n)]
    return {"processors": [{"name": p, "compute": 1 + i % 3} for i, p in enumerate(names)],
            "links": [{"from": a, "to": b, "cost": 1 + (i * 7 + j * 3) % 5}
                      for i, a in enumerate(names) for j, b in enumerate(names) if a != b],
            "reduce": {"participants": names, "target": names[0]}}


def test_size_guard_names_the_limit_and_the_flag(tmp_path, capsys):
    platform = lp.platform_from_dict(_complete(8))  # 2,626 variables
    with pytest.raises(LimitError, match="2,626 variables.*over the limit of 1,000"):
        lp.steady_state_reduce_lp(platform, platform.names, "P0", max_variables=1000)
    path = tmp_path / "k8.json"
    path.write_text(json.dumps(_complete(8)))
    assert main(["lp", "reduce", str(path), "--max-variables", "1000"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--max-variables" in err
    # The default refuses P = 40 (about 1.7 million variables) before building HiGHS's model.
    path.write_text(json.dumps(_complete(40)))
    start = time.monotonic()
    assert main(["lp", "reduce", str(path)]) == 2
    assert "over the limit of 500,000 variables" in capsys.readouterr().err
    assert time.monotonic() - start < 60  # a guard, not a benchmark: it did not solve


def test_time_limit_and_verbose_log(tmp_path):
    path = tmp_path / "k12.json"
    path.write_text(json.dumps(_complete(12)))
    run = subprocess.run([sys.executable, "-m", "hetcoll.cli", "lp", "reduce", str(path),
                          "--time-limit", "0.001", "--verbose", "--json"],
                         capture_output=True, text=True, timeout=120)
    out = json.loads(run.stdout)  # the log went to stderr: stdout is one JSON object
    assert run.returncode == 1 and out["status"] == 2
    assert "time limit" in out["message"].lower()
    assert "HiGHS" in run.stderr


def test_ctrl_c_during_a_solve_exits_130_at_once(tmp_path):
    # SSRP on a complete graph of 22 processors: about 174,000 variables, a solve of
    # well over 10 s on this machine.
    path = tmp_path / "k22.json"
    path.write_text(json.dumps(_complete(22)))
    log = tmp_path / "stderr.txt"
    with open(log, "w") as stderr:
        # --verbose: HiGHS's log on stderr tells when the solve has started.
        proc = subprocess.Popen([sys.executable, "-m", "hetcoll.cli", "lp", "reduce",
                                 str(path), "--verbose"], stdout=subprocess.PIPE,
                                stderr=stderr, text=True,
                                env=os.environ | {"PYTHONUNBUFFERED": "1"})
        deadline = time.monotonic() + 120
        while "Running HiGHS" not in log.read_text() and time.monotonic() < deadline:
            assert proc.poll() is None, log.read_text()
            time.sleep(0.1)
        time.sleep(1)  # well into the interior point method
        assert proc.poll() is None, "the solve ended before the interrupt"
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=30)
        elapsed = time.monotonic() - sent
    assert proc.returncode == 130
    # One line of ours (HiGHS's own log may still flush around it), no traceback.
    lines = log.read_text().splitlines()
    assert lines.count("hetcoll lp: interrupted") == 1
    assert not any("Traceback" in line or "KeyboardInterrupt" in line for line in lines)
    assert elapsed < 2, f"took {elapsed:.1f} s to stop"
