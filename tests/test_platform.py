"""Platform model: validation errors (API and CLI), JSON/GraphML/networkx round trips."""

import json
import re
from fractions import Fraction
from pathlib import Path

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hetcoll import InputError
from hetcoll.cli import main
from hetcoll.lp import (
    Link,
    Processor,
    platform_from_dict,
    platform_from_networkx,
    platform_to_dict,
    platform_to_networkx,
    read_platform,
    steady_state_reduce_lp,
    steady_state_scatter_lp,
    write_platform,
)

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def base():
    return {"processors": [{"name": "A", "compute": 1}, {"name": "B", "compute": "3/2"},
                           {"name": "C", "compute": 2.5}],
            "links": [{"from": "A", "to": "B", "cost": 1}, {"from": "B", "to": "C", "cost": "1/3"},
                      {"from": "C", "to": "A", "cost": 0.5}]}


def test_numbers_are_kept_exact():
    p = platform_from_dict(base())
    assert p.compute_cost("B") == Fraction(3, 2)
    assert p.compute_cost("C") == Fraction(5, 2)
    assert p.link_cost("B", "C") == Fraction(1, 3)
    assert p.link_cost("C", "A") == Fraction(1, 2)
    assert p.names == ("A", "B", "C")
    assert p.processors[0] == Processor("A", Fraction(1))
    assert p.links[0] == Link("A", "B", Fraction(1))


def test_bidirectional_links_give_both_directions():
    data = base()
    data["links"].append({"from": "A", "to": "C", "cost": "2/7", "bidirectional": True})
    data["links"] = data["links"][:2] + data["links"][3:]  # drop C->A (re-added by A<->C)
    p = platform_from_dict(data)
    assert p.link_cost("A", "C") == p.link_cost("C", "A") == Fraction(2, 7)


def edit(path, value):
    """A copy of base() with data[path...] = value (value None deletes the field)."""
    data = base()
    *head, last = path
    node = data
    for key in head:
        node = node[key]
    if value is None:
        del node[last]
    else:
        node[last] = value
    return data


BAD_PLATFORMS = [
    (edit(["processors", 1, "name"], "A"), "duplicate processor name 'A'"),
    (edit(["links", 0, "to"], "Z"), "unknown processor 'Z'"),
    (edit(["links", 0, "to"], "A"), "self-loop on processor 'A'"),
    (edit(["links", 2], {"from": "A", "to": "B", "cost": 2}), "duplicate link A->B"),
    (edit(["links", 1, "cost"], None), "cost of link B->C is missing"),
    (edit(["links", 1, "cost"], -1), "cost of link B->C must be positive"),
    (edit(["links", 1, "cost"], 0), "cost of link B->C must be positive"),
    (edit(["links", 1, "cost"], "nan"), "cost of link B->C is not a number"),
    (edit(["links", 1, "cost"], "inf"), "cost of link B->C is not a number"),
    (edit(["processors", 2, "compute"], None), "compute cost of processor C is missing"),
    (edit(["processors", 2, "compute"], "-3/7"), "compute cost of processor C must be positive"),
    (edit(["processors", 2, "colour"], "red"), "processor 'C' has unknown field 'colour'"),
    (edit(["processors"], []), "the platform has no processors"),
    (edit(["links"], None), "platform lacks the field 'links'"),
    (edit(["scatter"], {"source": "Z", "targets": ["A"]}), "scatter\" scenario source 'Z'"),
    (edit(["reduce"], {"participants": [], "target": "A"}), "participants is empty"),
    (edit(["reduce"], {"participants": ["A"]}), "lacks the field 'target'"),
    # Wrong JSON types name the field (audit: a string of targets or a list as the
    # source used to be accepted when read, and failed later without the file name).
    (edit(["scatter"], {"source": "A", "targets": "B"}),
     "\"scatter\" scenario: targets must be a list of processor names, got 'B'"),
    (edit(["scatter"], {"source": ["A"], "targets": ["B"]}),
     "\"scatter\" scenario: source must be one processor name, got ['A']"),
    (edit(["reduce"], {"participants": ["A", "B"], "target": 3}),
     "\"reduce\" scenario: target must be one processor name, got 3"),
    (edit(["reduce"], {"participants": ["A", 3], "target": "A"}),
     "\"reduce\" scenario participants 3 is not a processor"),
    (edit(["links", 1, "cost"], True), "cost of link B->C must be a number, got True"),
    (edit(["links", 1, "cost"], [1]), "cost of link B->C must be a number, got list [1]"),
    (edit(["links", 1, "cost"], "1/0"), "cost of link B->C is not a number: '1/0'"),
    (edit(["processors", 1, "compute"], {}), "compute cost of processor B must be a number"),
    (edit(["processors", 1, "name"], 5), 'processors[1] needs a non-empty string "name"'),
    (edit(["processors"], "x"), "platform field 'processors' must be a list"),
    (edit(["links", 0], "x"), "links[0] must be an object"),
    (edit(["links", 0, "bidirectional"], "yes"), 'links[0] field "bidirectional" must be true'),
    (edit(["description"], 5), 'platform "description" must be a string'),
]


@pytest.mark.parametrize(("data", "message"), BAD_PLATFORMS)
def test_invalid_platforms_name_the_culprit(data, message):
    with pytest.raises(InputError, match=re.escape(message)) as error:
        platform_from_dict(data)
    assert "\n" not in str(error.value)


def test_nan_and_inf_floats_are_rejected():
    for value in (float("nan"), float("inf")):
        with pytest.raises(InputError, match="cost of link B->C must be finite"):
            platform_from_dict(edit(["links", 1, "cost"], value))


@pytest.mark.parametrize(("data", "message"), BAD_PLATFORMS)
def test_cli_reports_invalid_platform_in_one_line(tmp_path, capsys, data, message):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    assert main(["lp", "scatter", str(path), "--source", "A", "--targets", "B"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert message in err and "bad.json" in err


def test_malformed_json_and_graphml(tmp_path, capsys):
    (tmp_path / "bad.json").write_text('{"processors": [')
    with pytest.raises(InputError, match="bad.json: malformed JSON"):
        read_platform(tmp_path / "bad.json")
    (tmp_path / "bad.graphml").write_text("<graphml><node")
    with pytest.raises(InputError, match="bad.graphml: malformed GraphML"):
        read_platform(tmp_path / "bad.graphml")
    # Not UTF-8 (a UnicodeDecodeError is a ValueError, not an OSError): one line, exit 2.
    (tmp_path / "binary.json").write_bytes(b'\xff\xfe{"processors"')
    with pytest.raises(InputError, match="binary.json: not a UTF-8 text file"):
        read_platform(tmp_path / "binary.json")
    assert main(["lp", "reduce", str(tmp_path / "binary.json")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "binary.json: not a UTF-8 text file" in err
    # Pathological JSON: nesting past the recursion limit, an integer of 5000 digits.
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (tmp_path / "long.json").write_text('{"processors": [{"name": "A", "compute": '
                                        + "1" * 5000 + '}], "links": []}')
    # A repeated key: json would silently keep the last cost.
    (tmp_path / "twice.json").write_text('{"processors": [{"name": "A", "compute": 1, '
                                         '"compute": 2}], "links": []}')
    with pytest.raises(InputError, match="twice.json: malformed JSON: key 'compute' appears "
                       "twice in one object"):
        read_platform(tmp_path / "twice.json")
    for name in ("deep.json", "long.json", "twice.json"):
        assert main(["lp", "reduce", str(tmp_path / name)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"{name}: malformed JSON" in err
    (tmp_path / "p.txt").write_text("{}")
    with pytest.raises(InputError, match="unknown platform format '.txt'"):
        read_platform(tmp_path / "p.txt")
    assert main(["lp", "reduce", str(tmp_path / "bad.json"), "--participants", "A,B",
                 "--target", "A"]) == 2
    assert "malformed JSON" in capsys.readouterr().err
    assert main(["lp", "reduce", str(tmp_path / "missing.json")]) == 2
    assert "missing.json" in capsys.readouterr().err


def scenario_platform():
    # A -> B -> C, and D isolated: C cannot reach anything, D is unreachable.
    return platform_from_dict({
        "processors": [{"name": n, "compute": 1} for n in "ABCD"],
        "links": [{"from": "A", "to": "B", "cost": 1}, {"from": "B", "to": "C", "cost": 1}]})


SCATTER_ERRORS = [
    (("Z", ["B"]), "source 'Z' is not a processor"),
    (("A", ["B", "Z"]), "target 'Z' is not a processor"),
    (("A", []), "targets: the list is empty"),
    (("A", ["B", "B"]), "targets: 'B' is listed twice"),
    (("A", ["A", "B"]), "target 'A' is the source itself"),
    (("A", ["B", "D"]), "target 'D' cannot be reached from source 'A'"),
]
REDUCE_ERRORS = [
    ((["A", "Z"], "C"), "participant 'Z' is not a processor"),
    (([], "C"), "participants: the list is empty"),
    ((["A"], "C"), "at least two participants"),
    ((["A", "B", "A"], "C"), "'A' is listed twice"),
    ((["A", "B"], "Z"), "target 'Z' is not a processor"),
    ((["A", "D"], "C"), "target 'C' cannot be reached from participant 'D'"),
]


@pytest.mark.parametrize(("args", "message"), SCATTER_ERRORS)
def test_scatter_scenario_errors(args, message):
    with pytest.raises(InputError, match=message):
        steady_state_scatter_lp(scenario_platform(), *args)


@pytest.mark.parametrize(("args", "message"), REDUCE_ERRORS)
def test_reduce_scenario_errors(args, message):
    with pytest.raises(InputError, match=message):
        steady_state_reduce_lp(scenario_platform(), *args)


@pytest.fixture
def scenario_file(tmp_path):
    path = tmp_path / "chain.json"
    write_platform(scenario_platform(), path)
    return path


@pytest.mark.parametrize(("args", "message"), [a for a in SCATTER_ERRORS if a[0][1]])
def test_scatter_scenario_errors_through_cli(scenario_file, capsys, args, message):
    source, targets = args
    status = main(["lp", "scatter", str(scenario_file), "--source", source,
                   "--targets", ",".join(targets), "--json"])
    err = capsys.readouterr().err
    assert status == 2 and message in err and err.count("\n") == 1


@pytest.mark.parametrize(("args", "message"), [a for a in REDUCE_ERRORS if a[0][0]])
def test_reduce_scenario_errors_through_cli(scenario_file, capsys, args, message):
    participants, target = args
    status = main(["lp", "reduce", str(scenario_file), "--participants",
                   ",".join(participants), "--target", target])
    err = capsys.readouterr().err
    assert status == 2 and message in err and err.count("\n") == 1


def test_cli_empty_list_and_missing_scenario(scenario_file, capsys):
    assert main(["lp", "reduce", str(scenario_file), "--participants", "", "--target", "C"]) == 2
    assert "--participants: expected a non-empty" in capsys.readouterr().err
    assert main(["lp", "reduce", str(scenario_file)]) == 2
    assert "no default reduce scenario" in capsys.readouterr().err
    assert main(["lp", "scatter", str(scenario_file), "--source", "A"]) == 2
    assert "--targets is required with --source" in capsys.readouterr().err


def test_write_platform_never_overwrites_unless_asked(tmp_path):
    p = platform_from_dict(base())
    path = tmp_path / "p.json"
    path.write_text("precious")
    with pytest.raises(InputError, match="exists; refusing to overwrite"):
        write_platform(p, path)
    assert path.read_text() == "precious"
    write_platform(p, path, overwrite=True)
    assert read_platform(path) == p


# --- round trips ------------------------------------------------------------------------

names = st.lists(st.text("abcXYZ019_", min_size=1, max_size=4), min_size=2, max_size=5,
                 unique=True)
costs = st.fractions(min_value=Fraction(1, 50), max_value=100, max_denominator=50)


@st.composite
def platforms(draw):
    procs = draw(names)
    pairs = [(a, b) for a in procs for b in procs if a != b]
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=len(pairs)))
    # XML (GraphML) cannot hold control characters.
    text = st.text(st.characters(exclude_categories=("Cc", "Cs")), max_size=10)
    data = {"description": draw(text),
            "processors": [{"name": n, "compute": str(draw(costs))} for n in procs],
            "links": [{"from": a, "to": b, "cost": str(draw(costs))} for a, b in chosen],
            "reduce": {"participants": procs[:2], "target": procs[-1]}}
    if draw(st.booleans()):
        data["scatter"] = {"source": procs[0], "targets": procs[1:]}
    return platform_from_dict(data)


def same_platform(a, b):
    """Equal up to the order of links (networkx lists edges by adjacency)."""
    return (a.processors == b.processors and sorted(a.links, key=str) == sorted(b.links, key=str)
            and (a.description, a.scatter_defaults, a.reduce_defaults)
            == (b.description, b.scatter_defaults, b.reduce_defaults))


@settings(max_examples=30)
@given(platforms())
def test_dict_and_networkx_round_trips(p):
    assert platform_from_dict(json.loads(json.dumps(platform_to_dict(p)))) == p
    assert same_platform(platform_from_networkx(platform_to_networkx(p)), p)
    graph = platform_to_networkx(p, exact=False)
    for link in p.links:
        assert graph.edges[link.source, link.target]["cost"] == float(link.comm)


@settings(max_examples=15)
@given(platforms())
def test_file_round_trips(tmp_path_factory, p):
    folder = tmp_path_factory.mktemp("rt")
    for suffix in (".json", ".graphml"):
        write_platform(p, folder / f"p{suffix}")
        assert same_platform(read_platform(folder / f"p{suffix}"), p)


def test_undirected_networkx_graph_gives_both_directions():
    g = nx.Graph()
    g.add_node("X", compute="1/2")
    g.add_node("Y", compute=3)
    g.add_edge("X", "Y", cost="5/3")
    p = platform_from_networkx(g)
    assert p.link_cost("X", "Y") == p.link_cost("Y", "X") == Fraction(5, 3)
    with pytest.raises(InputError, match="no link X->Z"):
        p.link_cost("X", "Z")
    del g.nodes["Y"]["compute"]
    with pytest.raises(InputError, match="compute cost of processor Y is missing"):
        platform_from_networkx(g)


def test_bundled_graphml_example_reads():
    p = read_platform(str(EXAMPLES / "ring_with_chord.graphml"))
    assert len(p.processors) == 6
    assert p.link_cost("R0", "R3") == p.link_cost("R3", "R0") == Fraction(1, 4)
    assert p.reduce_defaults["target"] == "R3"
