"""Every ``hetcoll`` command's ``--json`` is one object in the house envelope.

Issue 9: each command prints ONE JSON object holding at least ``status``, ``message``
and ``hetcoll_version``, with no NaN or Infinity (parsed here with a
``parse_constant`` that refuses them).  The commands of markov, sim and analytics
also carry the ``inputs`` that define the run, and the same quantity has the same
key in every command (``makespan``/``makespan_exact``, ``mean``...).
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest

from hetcoll import __version__
from hetcoll.cli import build_parser, main

ROOT = Path(__file__).resolve().parent.parent
PLATFORM = str(ROOT / "examples" / "two_processor.json")
COSTS = str(ROOT / "examples" / "costs" / "heterogeneous_5.json")


def _refuse(constant: str):
    raise AssertionError(f"the JSON holds {constant}, which is not JSON")


def run_json(capsys, argv: list[str]) -> dict:
    """Run ``hetcoll ARGV --json`` in-process; its stdout as one strict JSON object."""
    status = main([*argv, "--json"])
    captured = capsys.readouterr()
    data = json.loads(captured.out, parse_constant=_refuse)
    assert isinstance(data, dict)
    assert status == data["status"] == 0, captured.err
    assert isinstance(data["message"], str) and data["hetcoll_version"] == __version__
    assert list(data)[:3] == ["status", "message", "hetcoll_version"]
    return data


#: One small run of every command (name: argv), with the inputs it must echo.
COMMANDS = {
    "lp scatter": (["lp", "scatter", PLATFORM], None),
    "lp reduce": (["lp", "reduce", PLATFORM], None),
    "schedule scatter": (["schedule", "scatter", PLATFORM], None),
    "schedule reduce": (["schedule", "reduce", PLATFORM], None),
    "report": (["report", PLATFORM], None),
    "markov tree-dyn": (["markov", "tree-dyn", "--n", "4", "--rate-comp", "1/2", "--exact"],
                        {"algorithm": "tree-dyn", "n": 4, "rate_comm": "1", "rate_comp": "1/2",
                         "exact": True, "quantiles": ["0.1", "0.9"]}),
    "markov noncommut-tree-dyn": (["markov", "noncommut-tree-dyn", "--n", "5"],
                                  {"algorithm": "noncommut-tree-dyn", "n": 5}),
    "simulate random": (["simulate", "all", "--n", "8", "--runs", "200", "--seed", "3"],
                        {"algorithm": "all", "n": 8, "runs": 200, "seed": 3,
                         "comm": {"distribution": "gamma", "mean": 1.0, "cv": 1.0},
                         "comp": None}),
    "simulate exact": (["simulate", "tree-dyn", "--costs", COSTS],
                       {"algorithm": "tree-dyn", "costs": COSTS, "n": 5}),
    "simulate exact all": (["simulate", "all", "--costs", COSTS], {"algorithm": "all"}),
    "bounds": (["bounds", "--delta", "2", "--n", "64"], {"delta": "2", "n": 64}),
    "verify": (["verify", "--examples", "2", "--n-max", "3"],
               {"examples": 2, "seed": 0, "n_max": 3}),
    "optimum": (["optimum", "--costs", COSTS], {"costs": COSTS, "n": 5,
                                                 "noncommutative": False}),
}


#: Command families registered on other branches (merged later): run when present.
LATER = {
    "imbalance formulas": (["imbalance", "formulas", "--p", "8", "--elements", "1000",
                            "--alpha", "1e-6", "--beta", "1e-9", "--gamma", "2e-9"], None),
    "tree scatterv": (["tree", "scatterv", str(ROOT / "examples" / "trees" / "hand_4proc.json"),
                       "--root", "P0", "--sizes", "P0=1,P1=4,P2=1,P3=8"], None),
    # A fresh output directory per session (reproduce refuses one holding foreign files).
    "reproduce": (["reproduce", "--quick", "--only", "LMR-two-processor",
                   "--out", str(Path(tempfile.mkdtemp(prefix="hetcoll-json-")) / "out")],
                  None),
    "mpi run reduce": (["mpi", "run", "reduce", "--np", "2", "--algorithm", "binomial"], None),
}

#: The registered command families.
REGISTERED = set(build_parser()._subparsers._group_actions[0].choices)
ALL = COMMANDS | {name: run for name, run in LATER.items() if run[0][0] in REGISTERED}


def test_every_command_family_is_covered():
    families = {argv[0] for argv, _ in ALL.values()}
    missing = REGISTERED - families
    assert not missing, f"add a small --json run of {sorted(missing)} to COMMANDS"


@pytest.mark.parametrize("name", sorted(ALL))
def test_json_envelope(capsys, name):
    argv, inputs = ALL[name]
    data = run_json(capsys, argv)
    if inputs is not None:
        assert inputs.items() <= data["inputs"].items()


def test_same_quantity_same_key(capsys):
    # The makespan of one instance: the exact run and the optimum render it alike.
    run = run_json(capsys, ["simulate", "tree-dyn", "--costs", COSTS])
    best = run_json(capsys, ["optimum", "--costs", COSTS])
    for data in (run, best):
        assert isinstance(data["makespan"], float) and isinstance(data["makespan_exact"], str)
    # Optimum <= Tree-dyn on the same costs (a property, not the code's own number).
    num, _, den = best["makespan_exact"].partition("/")
    assert float(num) / float(den or 1) == pytest.approx(best["makespan"])
    assert best["makespan"] <= run["makespan"]
    first = best["operations"][0]
    assert isinstance(first["transfer_start"], float) and "transfer_start_exact" in first
    # Means: markov (exact and float) and the Monte Carlo use "mean".
    chain = run_json(capsys, ["markov", "tree-dyn", "--n", "4", "--exact"])
    assert (chain["mean"], chain["mean_exact"]) == (2.5, "5/2")  # 1/2 + 1 + 1, by hand
    study = run_json(capsys, ["simulate", "tree-dyn", "--n", "4", "--runs", "100"])
    assert {"mean", "std", "quantiles"} <= set(study["tree-dyn"])
    # Bounds: a rational cell has its exact value beside the float.
    cell = run_json(capsys, ["bounds", "--delta", "3/2", "--n", "8"])["cells"][0]
    assert (cell["value"], cell["value_exact"]) == (1.5, "3/2")  # Theorem 1: Delta


def test_verify_rows_keep_their_verdict_under_status(capsys):
    data = run_json(capsys, ["verify", "--examples", "2", "--n-max", "3"])
    rows = data["checks"]
    assert {row["status"] for row in rows} == {"pass"}
    assert all(row["verdict"] == row["status"] and row["success"] for row in rows)


def test_quantile_keys_as_typed(capsys):
    chain = run_json(capsys, ["markov", "tree-dyn", "--n", "4", "--quantiles", "0.50,1/10"])
    assert list(chain["quantiles"]) == ["0.50", "1/10"]
    assert chain["inputs"]["quantiles"] == ["0.50", "1/10"]
    study = run_json(capsys, ["simulate", "tree-dyn", "--n", "4", "--runs", "100",
                              "--quantiles", "0.50,1/10"])
    assert list(study["tree-dyn"]["quantiles"]) == ["0.50", "1/10"]
