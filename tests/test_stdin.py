"""``-`` reads a platform or cost file from standard input."""

import json
import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _hetcoll(*argv, stdin: str):
    return subprocess.run([sys.executable, "-m", "hetcoll.cli", *argv], input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_platform_from_stdin():
    text = (EXAMPLES / "two_processor.json").read_text()
    run = _hetcoll("lp", "reduce", "-", "--participants", "P0,P1", "--target", "P0", "--json",
                   stdin=text)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["throughput_exact"] == "1"  # NOTES.md §1's hand case


def test_cost_file_from_stdin():
    text = (EXAMPLES / "costs" / "theorem1_tight_8.json").read_text()
    run = _hetcoll("simulate", "tree-dyn", "--costs", "-", "--json", stdin=text)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["makespan_exact"] == "12"  # Theorem 1's instance


def test_malformed_stdin_is_named():
    run = _hetcoll("lp", "reduce", "-", stdin='{"processors": [}')
    assert run.returncode == 2
    assert run.stderr.splitlines() == [
        "hetcoll lp: error: <stdin>: malformed JSON: Expecting value (line 1, column 17)"]
