"""Fuzz the LP commands (``hetcoll lp``, ``hetcoll schedule``, ``hetcoll report``).

Generated platform files hold generated numbers: huge and tiny exponents, thousands of
digits, negatives, NaN and infinity spellings, zero denominators, p/q strings, and
broken JSON.  Every case must exit 0 with one valid JSON object (no NaN, no Infinity),
or exit 2 with exactly one line on stderr, never a traceback; quickly.
"""

from __future__ import annotations

import contextlib
import io
import json
import tempfile
import time
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hetcoll.cli import main

SPELLINGS = ["nan", "NaN", "inf", "-inf", "Infinity", "-Infinity", "1/0", "0/0", "", " ",
             "1e", "--1", "0x10", "1_000", "½", "1/2/3", "1e-", "e5", "+", "1.2.3", "١"]

exponents = st.builds(lambda m, e: f"{m}e{e}", st.sampled_from(["1", "-1", "2.5", "9"]),
                      st.one_of(st.integers(-400, 400), st.integers(-10**12, 10**12)))
digits = st.text("0123456789", min_size=1, max_size=3000)
ratios = st.builds(lambda p, q: f"{p}/{q}", st.integers(-10**30, 10**30),
                   st.integers(-10**30, 10**30))
number_texts = st.one_of(exponents, digits, ratios, st.sampled_from(SPELLINGS),
                         st.integers(-10**6, 10**6).map(str))
# Numbers as JSON numbers too: floats (json writes NaN and Infinity for the odd ones).
numbers = st.one_of(number_texts, st.integers(-10**400, 10**400), st.floats(),
                    st.just(1), st.just("1/2"))


def _json_without_nan(text: str):
    def refuse(name):
        raise AssertionError(f"the output holds {name}")

    return json.loads(text, parse_constant=refuse)


def _run(argv: list[str]) -> tuple[int, str, str, float]:
    out, err = io.StringIO(), io.StringIO()
    start = time.monotonic()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as exit_:  # argparse's usage errors, as in a real process
            status = exit_.code
    return status, out.getvalue(), err.getvalue(), time.monotonic() - start


def _check(status: int, out: str, err: str, elapsed: float) -> None:
    assert "Traceback" not in err and "Traceback" not in out
    assert elapsed < 20, f"took {elapsed:.1f} s"
    if status == 2:
        assert out == "" and err.count("\n") == 1, err
    else:
        # 0, or 1 for an optimum that could not be certified: a valid JSON object.
        assert status in (0, 1), (status, err)
        data = _json_without_nan(out)
        assert isinstance(data, dict) and {"status", "message", "hetcoll_version"} <= set(data)


@st.composite
def platforms(draw):
    names = draw(st.lists(st.sampled_from(["A", "B", "C", "D", "P 0", "x,y"]), min_size=2,
                          max_size=4, unique=True))
    processors = [{"name": name, "compute": draw(numbers)} for name in names]
    pairs = [(a, b) for a in names for b in names if a != b]
    chosen = draw(st.lists(st.sampled_from(pairs), min_size=1, max_size=len(pairs),
                           unique=True))
    links = [{"from": a, "to": b, "cost": draw(numbers)} for a, b in chosen]
    data = {"processors": processors, "links": links,
            "reduce": {"participants": names[:2], "target": names[0]},
            "scatter": {"source": names[0], "targets": names[1:]},
            "gather": {"sources": names[1:], "target": names[0]}}
    if draw(st.booleans()):  # sizes of the scenario's processes, generated numbers too
        data["gather"]["sizes"] = {name: draw(numbers) for name in names[1:]}
    return json.dumps(data)  # NaN and Infinity written as JSON's extensions


@settings(max_examples=350, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(text=platforms(), kind=st.sampled_from(["reduce", "scatter", "gather"]),
       command=st.sampled_from(["lp", "schedule"]))
def test_generated_platforms(text, kind, command):
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "platform.json"
        path.write_text(text)
        _check(*_run([command, kind, str(path), "--json"]))


EXAMPLE = str(Path(__file__).resolve().parents[1] / "examples" / "two_processor.json")


@settings(max_examples=250, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(value=number_texts, flag=st.sampled_from(["--fixed-period", "--periods",
                                                 "--time-limit", "--max-variables",
                                                 "--max-intervals"]))
def test_generated_flag_values(value, flag):
    _check(*_run(["schedule", "reduce", EXAMPLE, flag, value, "--json"]))


# Names as a user may type them: real ones, unknown ones, commas, '=', blanks.
typed_names = st.sampled_from(["P0", "P1", "P2", "", " ", "P1,P0", "P1=2", "x,y", "P 0"])


@settings(max_examples=250, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(command=st.sampled_from(["lp", "schedule"]), kind=st.sampled_from(["scatter", "gather"]),
       names=st.lists(typed_names, min_size=1, max_size=3),
       sizes=st.lists(st.tuples(typed_names, number_texts), max_size=2),
       listed=st.one_of(st.none(), st.builds(lambda n, v: f"{n}={v}", typed_names,
                                             number_texts)))
def test_generated_names_and_sizes(command, kind, names, sizes, listed):
    # The list role by the repeatable one-name flag, sizes by --size and --sizes.
    single, other = ("--target", ["--source", "P0"]) if kind == "scatter" else (
        "--source", ["--target", "P0"])
    argv = [command, kind, EXAMPLE, *other]
    for name in names:
        argv += [single, name]
    for name, value in sizes:
        argv += ["--size", f"{name}={value}"]
    if listed is not None:
        argv += ["--sizes", listed]
    _check(*_run([*argv, "--json"]))


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(value=number_texts, flag=st.sampled_from(["--time-limit", "--max-variables",
                                                 "--max-intervals"]))
def test_generated_report_flag_values(value, flag):
    _check(*_run(["report", EXAMPLE, flag, value, "--json"]))


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(text=st.one_of(st.text(max_size=200), st.binary(max_size=200).map(
    lambda b: b.decode("latin-1")), st.just("[" * 5000), st.just('{"a": 1, "a": 2}')))
def test_generated_file_contents(text):
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "platform.json"
        path.write_text(text, encoding="utf-8", errors="surrogateescape")
        _check(*_run(["report", str(path), "--json"]))
