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


# ------------------------------------------------------------ issue 10: the extremes
def _erlang2_quantile(p: float) -> float:
    """x with P(Erlang(2, 1) <= x) = 1 - exp(-x)(1 + x) = p (bisection, by hand)."""
    low, high = 0.0, 100.0
    for _ in range(200):
        mid = (low + high) / 2
        if 1 - math.exp(-mid) * (1 + mid) < p:
            low = mid
        else:
            high = mid
    return low


def test_exact_answer_longer_than_python_int_str_limit(capsys):
    # Issue 10: n = 140 with computations died with "Exceeds the limit (4300 digits)".
    import sys

    out = run_json(capsys, "tree-dyn", "--n", "140", "--rate-comp", "1", "--exact",
                   "--quantiles", "")
    assert len(out["mean_exact"]) > 4300 and len(out["variance_exact"]) > 4300
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        mean, variance = Fraction(out["mean_exact"]), Fraction(out["variance_exact"])
    finally:
        sys.set_int_max_str_digits(limit)
    # The float solver (sparse triangular solves) is a second method.
    assert math.isclose(float(mean), out["mean"], rel_tol=1e-12)
    assert math.isclose(float(variance), out["variance"], rel_tol=1e-9)


@pytest.mark.parametrize("rate", ["1e-12", "1e-8", "1e-100"])
def test_slow_reductions_give_the_erlang_quantiles(capsys, rate):
    # n = 3: two transfers of rate 1 and two reductions of rate c, in series (see
    # tree_dyn_chain).  For small c the makespan is Erlang(2, c) up to an Erlang(2, 1):
    # its quantiles are x_p / c to within about 10 / (x_p / c).  Issue 10: 1e-12 was a
    # traceback in the quantile code, 1e-8 a hang.
    out = run_json(capsys, "tree-dyn", "--n", "3", "--rate-comp", rate,
                   "--quantiles", "0.1,0.5,0.9")
    c = float(rate)
    for text in ("0.1", "0.5", "0.9"):
        assert math.isclose(out["quantiles"][text], _erlang2_quantile(float(text)) / c,
                            rel_tol=1e-6)
    assert math.isclose(out["mean"], 2 + 2 / c, rel_tol=1e-12)


@pytest.mark.parametrize("rate", ["1e-100", "1e100"])
def test_quantiles_scale_with_the_rate(capsys, rate):
    # Only transfers: the time unit is 1/rate, so every quantile is the rate-1 one / rate.
    base = run_json(capsys, "tree-dyn", "--n", "6", "--quantiles", "0.1,0.9")
    scaled = run_json(capsys, "tree-dyn", "--n", "6", "--rate-comm", rate,
                      "--quantiles", "0.1,0.9")
    for key in ("0.1", "0.9"):
        assert math.isclose(scaled["quantiles"][key] * float(rate), base["quantiles"][key],
                            rel_tol=1e-9)


def test_stiff_large_chain_agrees_with_dense_expm(monkeypatch):
    # Above DENSE_LIMIT states a stiff chain (rates 1 and 1e-9) goes to the BDF solver;
    # scipy's dense expm on the same chain is an independent method.
    from hetcoll.markov import absorption_quantiles, ctmc, tree_dyn_chain

    chain = tree_dyn_chain(30, 1, "1/1000000000")
    assert chain.n_states > ctmc.DENSE_LIMIT
    warnings: list[str] = []
    stiff = absorption_quantiles(chain, [0.1, 0.5, 0.9], warnings=warnings)
    assert len(warnings) == 1 and "stiff" in warnings[0]
    monkeypatch.setattr(ctmc, "DENSE_LIMIT", 10_000)
    dense = absorption_quantiles(chain, [0.1, 0.5, 0.9])
    for p in (0.1, 0.5, 0.9):
        assert math.isclose(stiff[p], dense[p], rel_tol=1e-8)


def test_warnings_go_to_stderr_and_json(capsys):
    out = run_json(capsys, "tree-dyn", "--n", "30", "--rate-comp", "1e-9", "--quantiles", "0.5")
    assert len(out["warnings"]) == 1 and "stiff" in out["warnings"][0]
    # run_json consumed stderr; run again in text mode to see the line.
    assert cli(["markov", "tree-dyn", "--n", "30", "--rate-comp", "1e-9",
                "--quantiles", "0.5"]) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("hetcoll markov: warning: stiff")


@pytest.mark.parametrize(("args", "flag"), [
    (["tree-dyn", "--n", "100000", "--rate-comp", "1"], "--max-states"),
    (["noncommut-tree-dyn", "--n", "40", "--max-transitions", "1000"], "--max-transitions"),
    (["noncommut-tree-dyn", "--n", "40", "--rate-comp", "1", "--max-states", "100"],
     "--max-states"),
    (["tree-dyn", "--n", "400", "--rate-comp", "1", "--exact"], "--max-exact-states"),
])
def test_chain_guards_name_their_flag(capsys, args, flag):
    assert cli(["markov", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"raise it with {flag}" in err
