"""Tests of ``hetcoll markov``."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import pytest

from hetcoll.cli import markov as markov_module
from hetcoll.cli._common import HetcollArgumentParser, run_command


def cli(argv):
    """Run ``hetcoll markov ...`` through a parser holding only this family.

    Independent of the other families, so these tests do not depend on
    them being importable.
    """
    parser = HetcollArgumentParser(prog="hetcoll")
    markov_module.register(parser.add_subparsers(dest="command", required=True))
    return run_command(parser.parse_args(argv))


def run_json(capsys, *args):
    assert cli(["markov", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_registered_in_the_main_cli():
    from hetcoll.cli import SUBCOMMAND_MODULES

    assert "hetcoll.cli.markov" in SUBCOMMAND_MODULES


def test_n64_exact_prints_the_paper_value(capsys):
    out = run_json(capsys, "tree-dyn", "--n", "64", "--exact")
    h31 = sum(Fraction(1, i) for i in range(1, 32))
    assert out["mean_exact"] == str(2 * h31 + Fraction(1, 32))
    var = 2 * sum(Fraction(1, i * i) for i in range(1, 32)) + Fraction(4, 64**2)
    assert out["variance_exact"] == str(var)
    assert math.isclose(out["mean"], float(2 * h31 + Fraction(1, 32)), rel_tol=1e-12)
    assert out["states"] == 63
    assert set(out["quantiles"]) == {"0.1", "0.9"}
    assert out["quantiles"]["0.1"] < out["mean"] < out["quantiles"]["0.9"]


def test_rates_as_ratios_and_odd_n(capsys):
    # n = 3, one path: two transfers (rate 2) and two reductions (rate 1/3).
    out = run_json(capsys, "tree-dyn", "--n", "3", "--rate-comm", "2", "--rate-comp", "1/3",
                   "--exact", "--quantiles", "0.5")
    assert out["mean_exact"] == "7"  # 2 * 1/2 + 2 * 3
    assert out["variance_exact"] == str(2 * Fraction(1, 4) + 2 * 9)
    assert out["rate_comp"] == "1/3"
    assert list(out["quantiles"]) == ["0.5"]


def test_noncommut_json(capsys):
    out = run_json(capsys, "noncommut-tree-dyn", "--n", "6", "--exact", "--quantiles", "")
    assert out["mean_exact"] == "7/2"  # solved by hand in test_markov.py
    assert out["quantiles"] == {}
    assert out["states"] > 6


def test_without_exact_the_exact_keys_are_null(capsys):
    out = run_json(capsys, "tree-dyn", "--n", "10", "--rate-comp", "2")
    assert out["mean_exact"] is None and out["variance_exact"] is None
    assert out["mean"] > 0 and out["variance"] > 0


def test_text_output(capsys):
    assert cli(["markov", "tree-dyn", "--n", "4", "--exact"]) == 0
    text = capsys.readouterr().out
    assert "= 5/2" in text and "quantile 0.9" in text


@pytest.mark.parametrize(("args", "culprit"), [
    (["tree-dyn", "--n", "0"], "--n"),
    (["tree-dyn", "--n", "-3"], "--n"),
    (["tree-dyn", "--n", "4", "--rate-comm", "0"], "--rate-comm"),
    (["tree-dyn", "--n", "4", "--rate-comm", "fast"], "--rate-comm"),
    (["noncommut-tree-dyn", "--n", "4", "--rate-comp=-1/2"], "--rate-comp"),
    (["tree-dyn", "--n", "4", "--rate-comp", "inf"], "--rate-comp"),
    (["tree-dyn", "--n", "4", "--quantiles", "0.1,1"], "--quantiles"),
    (["tree-dyn", "--n", "4", "--quantiles", "0,0.5"], "--quantiles"),
    (["tree-dyn", "--n", "4", "--quantiles", "x"], "--quantiles"),
    (["noncommut-tree-dyn", "--n", "14", "--rate-comp", "1", "--max-states", "50"],
     "max_states"),
    (["noncommut-tree-dyn", "--n", "14", "--max-transitions", "100"], "max_transitions"),
    (["noncommut-tree-dyn", "--n", "4", "--max-states", "0"], "--max-states"),
    (["noncommut-tree-dyn", "--n", "4", "--max-transitions", "0"], "--max-transitions"),
    (["tree-dyn", "--n", "4", "--rate-comm", "nan"], "--rate-comm"),
    # Refused up front instead of a MemoryError traceback (about 19 GB).
    (["tree-dyn", "--n", "100000", "--rate-comp", "1"], "more than max_states=10000000"),
    (["tree-dyn", "--n", "40", "--rate-comp", "1", "--max-states", "100"], "max_states=100"),
    (["tree-dyn", "--n", "4", "--max-states", "0"], "--max-states"),
    (["tree-dyn", "--n", "4", "--rate-comm", "1e400"], "--rate-comm 1e400 is out of"),
    (["noncommut-tree-dyn", "--n", "4", "--rate-comp", "1e-400"], "--rate-comp 1e-400 is out"),
    (["tree-dyn", "--n", "4", "--rate-comm", "1e-300"], "--rate-comm 1e-300 is out of range"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, args, culprit):
    assert cli(["markov", *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and culprit in captured.err


def test_usage_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli(["markov", "tree-dyn", "--n", "2.5"])
    assert exit_info.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_plot_never_overwrites(tmp_path, capsys):
    target = tmp_path / "makespan.png"
    assert cli(["markov", "tree-dyn", "--n", "6", "--rate-comp", "1",
                    "--plot", str(target)]) == 0
    assert target.stat().st_size > 1000
    target.write_text("precious")
    assert cli(["markov", "tree-dyn", "--n", "6", "--plot", str(target)]) == 2
    assert "exists" in capsys.readouterr().err
    assert target.read_text() == "precious"
    assert cli(["markov", "tree-dyn", "--n", "6", "--plot", str(target), "--force"]) == 0
    assert target.read_bytes()[:4] == b"\x89PNG"


def test_plot_with_an_unknown_format_is_refused_before_any_work(tmp_path, capsys):
    target = tmp_path / "makespan.xyz"
    assert cli(["markov", "tree-dyn", "--n", "6", "--plot", str(target)]) == 2
    err = capsys.readouterr().err
    assert "--plot" in err and "unknown image format '.xyz'" in err and err.count("\n") == 1
    assert not target.exists()
    # No suffix: matplotlib would have written another file, FILE.png.
    assert cli(["markov", "tree-dyn", "--n", "6", "--plot", str(tmp_path / "plot")]) == 2
    assert "unknown image format (no extension)" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())
