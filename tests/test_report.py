"""``hetcoll report`` and :func:`hetcoll.report.report`: sections (text, JSON, failures)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace

import pytest

from hetcoll.cli import main
from hetcoll.report import report
from hetcoll.report import schedule_rows as schedule_section

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def report_json(capsys, *paths) -> dict:
    assert main(["report", *map(str, paths), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def schedule_rows(platform: dict) -> dict[str, dict]:
    return {row["scenario"]: row for row in platform["sections"]["periodic_schedule"]}


def test_two_processor_reduce_has_period_3_and_a_validated_schedule(capsys):
    (platform,) = report_json(capsys, EXAMPLES / "two_processor.json")["platforms"]
    # The existing section is still there, under its own key.
    assert {"steady_state", "periodic_schedule"} <= set(platform["sections"])
    reduce = schedule_rows(platform)["reduce"]
    # NOTES.md section 1 hand case: TP = 1 with tree weights 1/3 and 2/3, so period 3,
    # two trees (P1 -> P0, and P0 -> P1 -> P0).
    assert reduce["scheduled"] is True and reduce["valid"] is True
    assert reduce["period"] == "3" and reduce["throughput_exact"] == "1"
    assert reduce["component_kind"] == "trees" and reduce["components"] == 2
    assert reduce["matchings"] >= 1 and reduce["depth"] >= 1
    assert reduce["periods"] == reduce["depth"] + 10
    # K periods of uses complete K·TP·period operations within (K + depth) periods, so
    # K / (K + depth) <= efficiency, and < 1 as the pipeline fills and drains.
    efficiency = Fraction(reduce["efficiency_exact"])
    k, depth = reduce["periods"], reduce["depth"]
    assert Fraction(k, k + depth) <= efficiency < 1
    assert reduce["efficiency"] == pytest.approx(float(efficiency))
    # Scatter P0 -> P1 over one unit link: TP = 1, a single path, nothing to pipeline.
    scatter = schedule_rows(platform)["scatter"]
    assert (scatter["period"], scatter["component_kind"], scatter["components"]) == (
        "1", "paths", 1)
    assert scatter["valid"] is True and scatter["efficiency_exact"] == "1"


def test_every_example_gets_a_valid_schedule_with_the_lp_throughput(capsys):
    report = report_json(capsys, EXAMPLES)
    keys = {"scenario", "scheduled", "period", "throughput_exact", "component_kind",
            "components", "matchings", "depth", "periods", "valid", "message", "efficiency",
            "efficiency_exact"}
    scenarios = 0
    for platform in report["platforms"]:
        lp_rows = {row["scenario"]: row for row in platform["sections"]["steady_state"]}
        rows = schedule_rows(platform)
        assert set(rows) == set(lp_rows)
        for scenario, row in rows.items():
            scenarios += 1
            assert set(row) == keys and row["valid"] is True, (platform["file"], row)
            # The exact schedule reaches the certified LP optimum.
            assert row["throughput_exact"] == lp_rows[scenario]["throughput_exact"]
            assert 0 < Fraction(row["efficiency_exact"]) <= 1
    # 3 + 1 reduce counter-example + 3 ring + 1 scatter counter-example + 3 two-sites.
    assert scenarios == 11


def test_text_report_shows_the_schedule(capsys):
    assert main(["report", str(EXAMPLES / "two_processor.json")]) == 0
    out = capsys.readouterr().out
    assert "-- Periodic schedule (exactly validated)" in out
    assert "reduce: period 3, 2 trees, 2 matchings, pipeline depth 2" in out
    assert "scatter: period 1, 1 path, 1 matching, pipeline depth 0" in out
    assert "executor, 12 periods: schedule valid" in out


def test_an_lp_without_optimum_is_reported_not_scheduled():
    failed = SimpleNamespace(success=False, message="the LP is infeasible")
    schedules, (row,) = schedule_section({"reduce": failed})
    assert row["scheduled"] is False and row["valid"] is None
    assert "the LP is infeasible" in row["message"]
    assert schedules == {}


def test_an_executor_violation_is_a_verdict_not_a_crash(monkeypatch):
    from hetcoll import lp

    def broken(schedule, periods, **keywords):
        raise lp.ScheduleViolation("P0", Fraction(1), ("send A", "send B"), "two sends overlap")

    monkeypatch.setattr(lp, "execute_schedule", broken)
    (platform,) = report([EXAMPLES / "two_processor.json"]).platforms
    rows = platform.sections["periodic_schedule"]
    assert [row["valid"] for row in rows] == [False, False, False]
    assert all(row["efficiency"] is None for row in rows)
    assert "INVALID: two sends overlap on P0 at time 1: send A and send B" in "\n".join(
        platform.lines())
    assert set(platform.schedules) == {"scatter", "gather", "reduce"}


def test_no_scenario_no_section(tmp_path):
    path = tmp_path / "bare.json"
    path.write_text('{"processors": [{"name": "A", "compute": 1}], "links": []}')
    (platform,) = report([path]).platforms
    assert platform.sections == {} and platform.steady_state == {}
    assert "   (no scenario in this file)" in platform.lines()


def test_report_is_a_result_that_pickles_and_serialises():
    import pickle

    result = report([EXAMPLES / "two_processor.json"])
    assert result.success and result.status == 0
    data = json.loads(json.dumps(result.to_dict()))
    (platform,) = data["platforms"]
    assert set(platform) >= {"file", "description", "processors", "links", "sections"}
    again = pickle.loads(pickle.dumps(result))
    assert again.to_dict() == result.to_dict()
    assert again.platforms[0].steady_state["gather"].throughput_exact == 1


def test_gather_rows_in_the_report(capsys):
    (platform,) = report_json(capsys, EXAMPLES / "two_sites.json")["platforms"]
    gather = {row["scenario"]: row for row in platform["sections"]["steady_state"]}["gather"]
    assert gather["target"] == "A0" and len(gather["sources"]) == 7
    assert gather["sizes"]["B0"] == "2" and gather["sizes"]["A1"] == "1"
    assert gather["certified"] is True
    row = schedule_rows(platform)["gather"]
    assert row["valid"] is True and row["component_kind"] == "paths"
    assert row["throughput_exact"] == gather["throughput_exact"]
