"""Fuzzing the commands of markov, sim and analytics (issue 10).

hypothesis drives ``hetcoll markov``, ``simulate``, ``bounds``, ``verify`` and
``optimum`` with generated numbers (huge and tiny exponents, many digits, negatives,
NaN and infinity spellings, zero denominators, ``"p/q"``, junk) and generated cost
files.  Every case must either exit 0 with one valid JSON object (no NaN or
Infinity) or exit 2 with exactly one line on stderr and no traceback.  The commands
run in-process through :func:`hetcoll.cli.main`, so a few thousand cases take well
under two minutes on one core.
"""

from __future__ import annotations

import contextlib
import io
import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from hetcoll.cli import main

FUZZ = settings(deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

SPECIAL = ["0", "-0", "0.0", "1", "-1", "nan", "NaN", "-nan", "inf", "-inf", "Infinity",
           "-Infinity", "1/0", "0/0", "-3/0", "1e999999999", "-1e999999999", "1e-999999999",
           "1e400", "1e-400", "1e300", "1e-300", "1e301", "1e-301", "1e100", "1e-100",
           "1e101", "1e-101", "1e160", "1e-12", "1e-8", "9" * 1200, "1" + "0" * 999,
           "0." + "0" * 1100 + "1", "1/" + "7" * 1001, "", " ", "abc", "1e", "e5", "0x10",
           "1_000", "1/2/3", "--1", "+2", " 3/4 ", "1e+0005", "٣", "½", "1.5e-3"]


def valid_number() -> st.SearchStrategy[str]:
    """A positive number in the supported range, in every spelling."""
    return st.one_of(
        st.integers(1, 1000).map(str),
        st.floats(1e-3, 1e3).map(repr),
        st.builds(lambda m, e: f"{m}e{e}", st.integers(1, 99), st.integers(-120, 120)),
        st.builds(lambda p, q: f"{p}/{q}", st.integers(1, 10**12), st.integers(1, 10**12)),
    )


def number_text() -> st.SearchStrategy[str]:
    """Text a user may type for a number: valid half of the time, else anything."""
    return st.one_of(
        valid_number(),
        st.one_of(
            st.sampled_from(SPECIAL),
            st.integers(-10**6, 10**6).map(str),
            st.floats(allow_nan=True, allow_infinity=True).map(repr),
            st.builds(lambda m, e: f"{m}e{e}", st.integers(-999, 999),
                      st.integers(-10**6, 10**6)),
            st.builds(lambda p, q: f"{p}/{q}", st.integers(-10**40, 10**40),
                      st.integers(-3, 10**40)),
            st.builds(lambda d: f"0.{d}", st.integers(0, 10**30)),
            st.text(max_size=6),
        ),
    )


def count_text(low: int, high: int, junk: list[str]) -> st.SearchStrategy[str]:
    """An integer flag: in [low, high] most of the time, else far outside it or junk.

    Far outside: below ``low``, or beyond 10^15, which every guard refuses at once (a
    value just above ``high`` could be legal and slow, e.g. 10^6 runs).
    """
    return st.one_of(st.integers(low, high).map(str), st.integers(low, high).map(str),
                     st.integers(-10**20, low - 1).map(str),
                     st.integers(10**15, 10**30).map(str), st.sampled_from(junk))


def json_number() -> st.SearchStrategy:
    """A cost as a JSON file holds it: number, string, or something else."""
    return st.one_of(
        number_text(),
        st.integers(-10**400, 10**400),
        st.floats(allow_nan=False, allow_infinity=False),
        st.sampled_from([None, True, [], {}, [1]]),
    )


def _refuse(constant: str):
    raise AssertionError(f"printed {constant}, which is not JSON")


def check(argv: list[str], *, fuzzed: bool = True) -> int:
    """Run ``hetcoll ARGV``; assert the exit-0-with-JSON or exit-2-with-one-line contract."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as exit_:  # argparse usage errors
            status = exit_.code
    stdout, stderr = out.getvalue(), err.getvalue()
    if fuzzed:
        event(f"exit {status}")  # --hypothesis-show-statistics: how many cases get through
    assert "Traceback" not in stderr, (argv, stderr)
    if status == 0:
        data = json.loads(stdout, parse_constant=_refuse)
        assert isinstance(data, dict) and data["status"] == 0, (argv, stdout[:300])
        # Warnings (legal but suspicious results) are one line each, also in the JSON.
        assert stderr.count("\n") == len(data.get("warnings", [])), (argv, stderr)
        return 0
    assert status == 2, (argv, status, stderr)
    assert stdout == "" and stderr.count("\n") == 1 and stderr.endswith("\n"), (argv, stderr)
    return 2


def flag(name: str, value: str) -> str:
    """``--name=value``: a value such as "-1" is then never read as another flag."""
    return f"--{name}={value}"


# ----------------------------------------------------------------------- markov
@settings(FUZZ, max_examples=500)
@given(chain=st.sampled_from(["tree-dyn", "noncommut-tree-dyn"]),
       n=count_text(1, 9, ["0", "-2", "1e3", "x", "99999999"]),
       rate_comm=st.one_of(st.none(), number_text()),
       rate_comp=st.one_of(st.none(), number_text()),
       quantiles=st.one_of(st.none(), st.lists(st.floats(0.001, 0.999).map(repr), max_size=3)
                           .map(",".join), st.lists(number_text(), max_size=3).map(",".join)),
       exact=st.booleans())
def test_markov(chain, n, rate_comm, rate_comp, quantiles, exact):
    argv = ["markov", chain, flag("n", n), "--json", "--max-states", "200"]
    argv += [flag("rate-comm", rate_comm)] if rate_comm is not None else []
    argv += [flag("rate-comp", rate_comp)] if rate_comp is not None else []
    argv += [flag("quantiles", quantiles)] if quantiles is not None else []
    argv += ["--exact"] if exact else []
    check(argv)


def test_markov_accepts_the_whole_documented_rate_range():
    # Not left to chance: the extremes of [1e-100, 1e100], together, in both chains.
    for chain in ("tree-dyn", "noncommut-tree-dyn"):
        for comm, comp in (("1e100", "1e-100"), ("1e-100", "1e100"), ("1e-12", "1")):
            assert check(["markov", chain, "--n", "6", flag("rate-comm", comm),
                          flag("rate-comp", comp), "--json"], fuzzed=False) == 0


# --------------------------------------------------------------------- simulate
@settings(FUZZ, max_examples=600)
@given(algorithm=st.sampled_from(["all", "tree-dyn", "binomial-stat", "fibonacci-stat",
                                  "noncommut-tree-dyn"]),
       n=count_text(1, 12, ["0", "10**9", "1e2", "", "100000000"]),
       mu_comm=st.one_of(st.none(), number_text()),
       cv_comm=st.one_of(st.none(), st.floats(0, 3).map(repr), number_text()),
       mu_comp=st.one_of(st.none(), number_text()),
       cv_comp=st.one_of(st.none(), st.floats(0, 3).map(repr), number_text()),
       runs=st.one_of(st.none(), count_text(1, 30, ["0", "100000000000000", "1.5"])),
       seed=st.one_of(st.none(), count_text(0, 2**70, ["-1", "x"])),
       quantiles=st.one_of(st.none(), st.lists(st.floats(0, 1).map(repr), max_size=3)
                           .map(",".join), st.lists(number_text(), max_size=3).map(",".join)))
def test_simulate_random_costs(algorithm, n, mu_comm, cv_comm, mu_comp, cv_comp, runs, seed,
                               quantiles):
    argv = ["simulate", algorithm, flag("n", n), "--json"]
    for name, value in (("mu-comm", mu_comm), ("cv-comm", cv_comm), ("mu-comp", mu_comp),
                        ("cv-comp", cv_comp), ("runs", runs), ("seed", seed),
                        ("quantiles", quantiles)):
        if value is not None:
            argv.append(flag(name, value))
    check(argv)


# ------------------------------------------------------------------ cost files
def matrix(n: int) -> st.SearchStrategy:
    return st.lists(st.lists(json_number(), min_size=n, max_size=n), min_size=n, max_size=n)


@st.composite
def cost_file(draw) -> str:
    """The text of a cost file: mostly well-formed, with generated numbers."""
    kind = draw(st.sampled_from(["numbers", "numbers", "numbers", "shape", "keys", "text"]))
    n = draw(st.integers(1, 4))
    if kind == "text":
        return draw(st.sampled_from(["", "{", "[]", "null", '{"comm": 1}', "\ufeff{}",
                                     '{"comm": [[0]], "comm": [[0]]}', "[" * 5000,
                                     '{"comm": [[0, 1], [1, 0]], "comp": [0, 0],}']))
    data: dict = {"comm": draw(matrix(n))}
    if draw(st.booleans()):
        data["comp"] = draw(st.lists(json_number(), min_size=n, max_size=n))
    if draw(st.booleans()):
        data["start_times"] = draw(st.lists(json_number(), min_size=n, max_size=n))
    if kind == "shape":
        data["comm"] = draw(st.one_of(matrix(n + 1).map(lambda m: m[:-1]), json_number(),
                                      st.lists(json_number(), max_size=3)))
        data["comp"] = draw(st.lists(json_number(), max_size=5))
    if kind == "keys":
        data[draw(st.sampled_from(["color", "Comm", "description"]))] = draw(json_number())
    text = json.dumps(data)
    if kind == "keys" and draw(st.booleans()):  # a repeated key
        text = text[:-1] + ', "comm": [[0]]}'
    return text


SCRATCH = Path(tempfile.mkdtemp(prefix="hetcoll-fuzz-"))


@settings(FUZZ, max_examples=500)
@given(text=cost_file(), command=st.sampled_from(
    [["optimum"], ["optimum", "--noncommutative"], ["optimum", "--root=1"],
     ["simulate", "all"], ["simulate", "tree-dyn", "--trace"]]))
def test_cost_files(text, command):
    path = SCRATCH / "costs.json"
    path.write_text(text, encoding="utf-8")
    check([*command, "--costs", str(path), "--json"])


# -------------------------------------------------------------- bounds, verify
@settings(FUZZ, max_examples=500)
@given(delta=st.one_of(st.none(), number_text()),
       n=st.one_of(st.none(), count_text(2, 10**30, ["2.5", "x", "1", "0"])),
       misprint=st.booleans())
def test_bounds(delta, n, misprint):
    argv = ["bounds", "--json"]
    argv += [flag("delta", delta)] if delta is not None else []
    argv += [flag("n", n)] if n is not None else []
    argv += ["--with-misprint"] if misprint else []
    check(argv)


@settings(FUZZ, max_examples=150)
@given(examples=count_text(1, 2, ["0", "10**9", "100000000000", "x"]),
       seed=count_text(0, 2**80, ["-3", "1e3"]),
       n_max=count_text(2, 4, ["1", "9", "100"]))
def test_verify(examples, seed, n_max):
    check(["verify", flag("examples", examples), flag("seed", seed), flag("n-max", n_max),
           "--json"])


@settings(FUZZ, max_examples=250)
@given(algorithm=st.sampled_from(["all", "tree-dyn", "fibonacci-stat"]),
       n=st.integers(1, 10), runs=st.integers(1, 20),
       mu_comm=st.builds(lambda m, e: f"{m}e{e}", st.integers(1, 9), st.integers(-300, 299)),
       cv_comm=st.floats(0, 4).map(repr),
       mu_comp=st.one_of(st.just("0"), st.builds(lambda m, e: f"{m}e{e}", st.integers(1, 9),
                                                 st.integers(-300, 299))))
def test_simulate_every_magnitude(algorithm, n, runs, mu_comm, cv_comm, mu_comp):
    # Legal magnitudes, all of them: finite statistics, or a one-line refusal when a
    # gamma parameter or a makespan truly leaves the float range.
    check(["simulate", algorithm, flag("n", str(n)), flag("runs", str(runs)),
           flag("mu-comm", mu_comm), flag("cv-comm", cv_comm), flag("mu-comp", mu_comp),
           "--json"])
