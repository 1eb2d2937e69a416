"""Series of gathers (SSGP) and irregular message sizes (issue 12).

Oracles: hand-solved LPs; the scatter LP on the reversed platform (a gather is a
scatter with every link and role turned round); pulp + CBC (an independent
formulation and solver); scaling laws; the exact executor.
"""

import json
from fractions import Fraction

import pulp
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hetcoll.cli import main
from hetcoll.core.errors import InputError
from hetcoll.lp import (
    Gather,
    Link,
    Platform,
    Processor,
    Reduce,
    Scatter,
    execute_schedule,
    gather_lp_pulp,
    platform_from_dict,
    read_platform,
    resolve_operation,
    scatter_lp_pulp,
    schedule_from_lp,
    steady_state_gather_lp,
    steady_state_lp,
    steady_state_reduce_lp,
    steady_state_scatter_lp,
    validate_gather_path,
    write_platform,
)

pytestmark = pytest.mark.filterwarnings("ignore:PULP_CBC_CMD is deprecated:DeprecationWarning")

small = st.fractions(min_value=Fraction(1, 4), max_value=8, max_denominator=4)
sizes = st.fractions(min_value=Fraction(1, 3), max_value=4, max_denominator=3)


@st.composite
def platforms(draw, max_size=5):
    """Each ordered pair linked or not, plus a ring so that everyone reaches everyone."""
    n = draw(st.integers(2, max_size))
    names = [f"P{i}" for i in range(n)]
    ring = {(names[i], names[(i + 1) % n]) for i in range(n)}
    costs = {(a, b): draw(small if (a, b) in ring else st.none() | small)
             for a in names for b in names if a != b}
    return Platform(tuple(Processor(name, Fraction(1)) for name in names),
                    tuple(Link(a, b, c) for (a, b), c in costs.items() if c is not None))


@st.composite
def gather_cases(draw):
    """A platform, sources, a target, and sizes for some of the sources."""
    p = draw(platforms())
    target = draw(st.sampled_from(p.names))
    rest = [n for n in p.names if n != target]
    sources = draw(st.lists(st.sampled_from(rest), min_size=1, unique=True))
    named = draw(st.lists(st.sampled_from(sources), unique=True))
    return p, sources, target, {name: draw(sizes) for name in named}


def reversed_platform(p: Platform) -> Platform:
    return Platform(p.processors, tuple(Link(k.target, k.source, k.comm) for k in p.links))


def cbc():
    return pulp.PULP_CBC_CMD(msg=False)


# --- hand-solved cases -------------------------------------------------------------------

def star():
    # A -> T (cost 1), B -> T (cost 2), B -> A (cost 1/2).
    return platform_from_dict({
        "processors": [{"name": n, "compute": 1} for n in "TAB"],
        "links": [{"from": "A", "to": "T", "cost": 1}, {"from": "B", "to": "T", "cost": 2},
                  {"from": "B", "to": "A", "cost": "1/2"}]})


def test_gather_hand_case_with_irregular_sizes():
    # Sizes A = 3, B = 1/2.  Everything ends in T's in-port: 3·1·TP from A plus
    # (1/2)·c·TP for B's message, c = 2 directly or 1 via A (B->A costs 1/4, A->T 1/2,
    # but then A's out-port carries 3·TP + TP/2 <= 1).  Direct: 3TP + TP <= 1, TP = 1/4.
    # Via A, fraction x of B's message: in-port 3TP + (1/2)(2(1-x) + x)TP <= 1 and
    # A's out-port 3TP + (x/2)TP <= 1; x = 1 gives 7/2·TP <= 1: TP = 2/7 > 1/4.
    r = steady_state_gather_lp(star(), ["A", "B"], "T", message_sizes={"A": 3, "B": "1/2"})
    assert r.certified and r.throughput_exact == Fraction(2, 7)
    assert r.flows_exact == {("A", "T", "A"): Fraction(2, 7), ("B", "A", "B"): Fraction(2, 7),
                             ("A", "T", "B"): Fraction(2, 7)}
    assert r.sources == ("A", "B") and r.target == "T" and r.kind == "gather"
    assert r.transfer_time("B", "A", "B") == Fraction(1, 4)
    # The in-port of T and the out-port of A are both saturated.
    assert {b["resource"] for b in r.bottlenecks} <= {"in-port of T", "out-port of A"}
    assert sum(b["dual_exact"] for b in r.bottlenecks) == r.throughput_exact


def test_unit_gather_on_two_processors_and_its_schedule():
    p = read_platform("examples/two_processor.json")
    r = steady_state_lp(p, resolve_operation(p, "gather"))
    assert r.throughput_exact == 1
    schedule = schedule_from_lp(r)
    assert schedule.period == 1 and schedule.n_components == 1
    run = execute_schedule(schedule, 5)
    assert run.success and run.completed == 5 and run.steady_throughput == 1


# --- properties on random platforms ------------------------------------------------------

@settings(max_examples=25)
@given(gather_cases())
def test_gather_is_the_scatter_of_the_reversed_platform(case):
    p, sources, target, given = case
    gather = steady_state_gather_lp(p, sources, target, message_sizes=given)
    scatter = steady_state_scatter_lp(reversed_platform(p), target, sources,
                                      message_sizes=given)
    assert gather.certified and scatter.certified
    assert gather.throughput_exact == scatter.throughput_exact
    # Both match pulp's formulation, solved by CBC.
    for problem, tp in ((gather_lp_pulp(p, sources, target, sizes=given), gather),
                        (scatter_lp_pulp(reversed_platform(p), target, sources, sizes=given),
                         scatter)):
        assert problem.solve(cbc()) == pulp.LpStatusOptimal
        assert pulp.value(problem.objective) == pytest.approx(float(tp.throughput_exact),
                                                              rel=1e-6)


@settings(max_examples=25)
@given(gather_cases(), st.fractions(min_value=Fraction(1, 5), max_value=7, max_denominator=5),
       st.booleans())
def test_scaling_every_size_divides_tp(case, factor, as_scatter):
    p, names, root, given = case
    scaled = {name: given.get(name, 1) * factor for name in names}
    if as_scatter:  # the same draw read as a scatter from ``root`` to ``names``
        p = reversed_platform(p)
        tp = steady_state_scatter_lp(p, root, names, message_sizes=given).throughput_exact
        tp2 = steady_state_scatter_lp(p, root, names, message_sizes=scaled).throughput_exact
    else:
        tp = steady_state_gather_lp(p, names, root, message_sizes=given).throughput_exact
        tp2 = steady_state_gather_lp(p, names, root, message_sizes=scaled).throughput_exact
    assert tp2 == tp / factor


@settings(max_examples=20)
@given(gather_cases())
def test_sizes_of_one_give_the_unit_scatter_optimum(case):
    p, targets, source, _ = case
    p = reversed_platform(p)
    unit = steady_state_scatter_lp(p, source, targets)
    ones = steady_state_scatter_lp(p, source, targets,
                                   message_sizes={name: "1" for name in targets})
    assert ones.throughput_exact == unit.throughput_exact
    # ... which is the unit-size pulp formulation's optimum (the pre-issue-12 model).
    problem = scatter_lp_pulp(p, source, targets)
    assert problem.solve(cbc()) == pulp.LpStatusOptimal
    assert pulp.value(problem.objective) == pytest.approx(float(unit.throughput_exact),
                                                          rel=1e-6)


@settings(max_examples=25)
@given(gather_cases(), st.integers(1, 3))
def test_gather_schedule_validates_and_reaches_tp_per_period(case, extra):
    p, sources, target, given = case
    r = steady_state_gather_lp(p, sources, target, message_sizes=given)
    schedule = schedule_from_lp(r)
    for path in schedule.components:
        validate_gather_path(path, target)
    # The paths of each source carry TP in total: the exact decomposition.
    for source in sources:
        assert sum(c.weight for c in schedule.components if c.source == source) == \
            r.throughput_exact
    periods = schedule.depth + extra
    run = execute_schedule(schedule, periods)
    assert run.success
    assert run.steady_throughput == r.throughput_exact
    assert run.completed == periods * r.throughput_exact * schedule.period


@settings(max_examples=15)
@given(gather_cases(), st.fractions(min_value=Fraction(1, 2), max_value=20, max_denominator=3))
def test_gather_fixed_period_loss_bound(case, fixed):
    p, sources, target, given = case
    r = steady_state_gather_lp(p, sources, target, message_sizes=given)
    schedule = schedule_from_lp(r, fixed_period=fixed)
    # TP* = min over sources of floor-ed uses / T_f, recomputed by hand.
    expected = min(sum(Fraction(int(c.weight * fixed)) for c in schedule.components
                       if c.source == s) / fixed for s in sources)
    assert schedule.throughput_exact == expected
    assert 0 <= schedule.loss <= Fraction(schedule.n_components) / fixed
    assert execute_schedule(schedule, schedule.depth + 1).steady_throughput == expected


# --- typed operations and scenarios -----------------------------------------------------

def test_operations_validate_their_sizes():
    assert Scatter("S", ["A", "B"], {"B": 2}).message_sizes == {"A": 1, "B": 2}
    with pytest.raises(InputError, match="'C', which is not one of the targets"):
        Scatter("S", ["A"], {"C": 1})
    with pytest.raises(InputError, match="'C', which is not one of the sources"):
        Gather(["A"], "T", {"C": 1})
    for bad in (0, -1, "0/1", "-1/2"):
        with pytest.raises(InputError, match="message size of 'A'"):
            Gather(["A"], "T", {"A": bad})
    with pytest.raises(InputError, match="sources must be a list"):
        Gather("AB", "T")


def test_gather_roles_are_checked():
    p = star()
    with pytest.raises(InputError, match="target 'T' is one of the sources"):
        steady_state_gather_lp(p, ["A", "T"], "T")
    with pytest.raises(InputError, match="target 'B' cannot be reached from source 'T'"):
        steady_state_gather_lp(p, ["T"], "B")
    with pytest.raises(InputError, match="'A' is listed twice"):
        steady_state_gather_lp(p, ["A", "A"], "T")


def test_generic_entry_point_matches_the_shortcuts():
    p = read_platform("examples/two_sites.json")
    pairs = [(Reduce(**p.reduce_defaults), steady_state_reduce_lp(p, **p.reduce_defaults)),
             (Scatter(**p.scatter_defaults), steady_state_scatter_lp(p, **p.scatter_defaults)),
             (Gather(p.gather_defaults["sources"], "A0", p.gather_defaults["sizes"]),
              steady_state_gather_lp(p, p.gather_defaults["sources"], "A0",
                                     message_sizes=p.gather_defaults["sizes"]))]
    for operation, shortcut in pairs:
        generic = steady_state_lp(p, operation)
        assert generic.certified and generic.operation == shortcut.operation
        assert generic.throughput_exact == shortcut.throughput_exact
        assert generic.flows_exact == shortcut.flows_exact
    with pytest.raises(InputError, match="operation must be a Scatter, Gather or Reduce"):
        steady_state_lp(p, "scatter")


def test_platform_scenario_sizes_round_trip(tmp_path):
    p = read_platform("examples/two_sites.json")
    assert p.gather_defaults["sizes"] == {"B0": 2, "B1": "1/2", "B3": "3/2"}
    for suffix in (".json", ".graphml"):
        write_platform(p, tmp_path / f"copy{suffix}")
        again = read_platform(tmp_path / f"copy{suffix}")
        assert resolve_operation(again, "gather") == resolve_operation(p, "gather")
    # Sizes given by the caller replace the file's.
    assert resolve_operation(p, "gather", sizes={"A1": 5}).message_sizes["B0"] == 1


@pytest.mark.parametrize("scenario, message", [
    ({"sources": ["P1"], "target": "P0", "sizes": {"P0": 1}},
     "size for 'P0', which is not one of its sources"),
    ({"sources": ["P1"], "target": "P0", "sizes": {"P1": 0}}, "size of P1"),
    ({"sources": ["P1"], "target": "P0", "sizes": [1]}, "sizes must be an object"),
    ({"sources": ["P1"], "target": "P0", "extra": 1}, "unknown field 'extra'"),
    ({"sources": "P1", "target": "P0"}, "sources must be a list"),
])
def test_bad_gather_scenarios_in_platform_files(scenario, message):
    with open("examples/two_processor.json") as file:
        data = json.load(file)
    data["gather"] = scenario
    with pytest.raises(InputError, match=message):
        platform_from_dict(data)


# --- command line ------------------------------------------------------------------------

def run_json(capsys, *argv):
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_cli_gather_has_the_scatter_keys_with_roles_turned_round(capsys):
    scatter = run_json(capsys, "lp", "scatter", "examples/two_sites.json")
    gather = run_json(capsys, "lp", "gather", "examples/two_sites.json", "--sources",
                      "A1,B0", "--target", "A0", "--sizes", "B0=3,A1=1/2")
    assert set(gather) - {"sources", "target"} == set(scatter) - {"source", "targets"}
    assert gather["sources"] == ["A1", "B0"] and gather["target"] == "A0"
    assert gather["sizes"] == {"A1": "1/2", "B0": "3"} and gather["certified"]
    # The same gather through the library.
    p = read_platform("examples/two_sites.json")
    r = steady_state_gather_lp(p, ["A1", "B0"], "A0",
                               message_sizes={"B0": 3, "A1": Fraction(1, 2)})
    assert gather["throughput_exact"] == str(r.throughput_exact)


def test_cli_scatter_sizes_divide_tp(capsys):
    unit = run_json(capsys, "lp", "scatter", "examples/two_processor.json")
    double = run_json(capsys, "lp", "scatter", "examples/two_processor.json", "--sizes",
                      "P1=2")
    assert (unit["throughput_exact"], double["throughput_exact"]) == ("1", "1/2")


def test_cli_schedule_gather_is_validated(capsys):
    data = run_json(capsys, "schedule", "gather", "examples/two_sites.json")
    assert data["kind"] == "gather" and data["target"] == "A0"
    assert data["execution"]["valid"] is True
    assert data["throughput_exact"] == data["lp_throughput_exact"]
    assert all("source" in path for path in data["paths"])
    text_ok = main(["schedule", "gather", "examples/two_processor.json", "--sizes", "P1=1/3"])
    assert text_ok == 0 and "gather schedule: period 1, throughput 3" in capsys.readouterr().out


def test_cli_gather_export_is_the_pulp_model(tmp_path, capsys):
    out = tmp_path / "ssgp.lp"
    assert main(["lp", "gather", "examples/two_processor.json", "--export", str(out)]) == 0
    assert "SSGP" in out.read_text()


@pytest.mark.parametrize("argv, message", [
    (["lp", "gather", "--sources", "P1", "--target", "P0", "--sizes", "Z=1"],
     "message size for 'Z', which is not one of the sources"),
    (["lp", "scatter", "--source", "P0", "--targets", "P1", "--sizes", "P0=1"],
     "message size for 'P0', which is not one of the targets"),
    (["lp", "gather", "--sources", "P1", "--target", "P0", "--sizes", "P1=0"],
     "--sizes: size of P1"),
    (["schedule", "gather", "--sources", "P1", "--target", "P0", "--sizes", "P1=-1/2"],
     "--sizes: size of P1"),
    (["lp", "gather", "--sources", "P1", "--target", "P0", "--sizes", "P1"],
     "--sizes: expected NAME=SIZE"),
    (["lp", "gather", "--sources", "P1,P0", "--target", "P0"],
     "target 'P0' is one of the sources"),
    (["lp", "gather", "--sources", "P1"], "--target is required with --sources"),
    (["schedule", "gather", "--sources", "P1", "--target", "P9"],
     "target 'P9' is not a processor"),
])
def test_cli_bad_gather_input_is_one_line_and_exit_2(capsys, argv, message):
    argv = [*argv[:2], "examples/two_processor.json", *argv[2:]]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_cli_unreachable_target_is_one_line_and_exit_2(tmp_path, capsys):
    path = tmp_path / "star.json"
    write_platform(star(), path)
    assert main(["lp", "gather", str(path), "--sources", "T", "--target", "B"]) == 2
    err = capsys.readouterr().err
    assert "target 'B' cannot be reached from source 'T'" in err and err.count("\n") == 1


def test_gather_gantt_chart(tmp_path, capsys):
    import matplotlib

    matplotlib.use("Agg")
    from hetcoll.lp import schedule_gantt

    r = steady_state_gather_lp(star(), ["A", "B"], "T", message_sizes={"A": 3, "B": "1/2"})
    ax = schedule_gantt(schedule_from_lp(r))
    rows = [t.get_text() for t in ax.get_yticklabels()]
    # B sends to A, A relays to T: no compute row, T only receives.
    assert rows == ["A send", "A recv", "B send", "T recv"]
    assert "gather schedule" in ax.get_title() and "paths" in ax.get_title()
    matplotlib.pyplot.close(ax.figure)
    chart = tmp_path / "gather.png"
    assert main(["schedule", "gather", "examples/two_processor.json", "--gantt",
                 str(chart)]) == 0
    assert chart.read_bytes()[:4] == b"\x89PNG"
