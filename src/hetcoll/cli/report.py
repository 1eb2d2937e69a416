"""``hetcoll report``: the main job, a report on every given platform.

The report is a list of sections (:data:`SECTIONS`).  Each section computes, for one
platform, a JSON-ready value and renders it as text lines; other command modules add
theirs with :func:`register_section` (they are imported after this one, see
``SUBCOMMAND_MODULES``).  Sections share a per-platform ``context`` dict, so a later
section can reuse earlier results: the steady-state section stores its
:class:`lp.SteadyStateResult` objects in ``context["lp"]`` keyed by scenario
(``"scatter"``, ``"reduce"``); the periodic-schedule section builds a schedule from
each of them, validates it with the exact executor and stores the
:class:`lp.Schedule` objects in ``context["schedule"]``, keyed the same way.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hetcoll.cli._common import SCENARIO_OPTIONS, add_json_flag, print_json, solve_scenario
from hetcoll.core.errors import InputError

__all__ = ["SECTIONS", "ReportSection", "register_section"]

PLATFORM_SUFFIXES = (".json", ".graphml")

#: The periodic-schedule section runs the executor over the pipeline depth plus this
#: many periods of uses (the default of ``hetcoll schedule``).
EXTRA_PERIODS = 10


@dataclass(frozen=True)
class ReportSection:
    """One section of ``hetcoll report``.

    Attributes
    ----------
    key : str
        JSON key of the section.
    title : str
        Heading of the text output.
    compute : callable
        ``compute(platform, context) -> value`` (JSON-ready; None to skip the section).
    render : callable
        ``render(value) -> list of str``, the text lines.
    """

    key: str
    title: str
    compute: Callable[[Any, dict[str, Any]], Any]
    render: Callable[[Any], list[str]]


SECTIONS: list[ReportSection] = []


def register_section(section: ReportSection) -> None:
    """Append ``section`` to the report (sections run in registration order)."""
    if any(s.key == section.key for s in SECTIONS):
        raise ValueError(f"report section {section.key!r} is already registered")
    SECTIONS.append(section)


def _steady_state(platform, context: dict[str, Any]) -> list[dict[str, Any]] | None:
    results = {}
    for kind, defaults in (("scatter", platform.scatter_defaults),
                           ("reduce", platform.reduce_defaults)):
        if defaults is not None:
            scenario = tuple(defaults[name] for name, *_ in SCENARIO_OPTIONS[kind])
            results[kind] = solve_scenario(platform, kind, scenario)
    context["lp"] = results
    if not results:
        return None
    rows = []
    for scenario, result in results.items():
        data = result.as_dict()
        row = {key: data[key] for key in ("status", "message", "certified", "throughput",
                                           "throughput_exact")}
        row["scenario"] = scenario
        row |= ({"source": result.source, "targets": list(result.targets)}
                if scenario == "scatter"
                else {"participants": list(result.participants), "target": result.target})
        row["top_bottleneck"] = result.bottlenecks[0] if result.bottlenecks else None
        rows.append(row)
    return rows


def _render_steady_state(rows: list[dict[str, Any]]) -> list[str]:
    lines = []
    for row in rows:
        if row["scenario"] == "scatter":
            what = f"scatter {row['source']} -> {','.join(row['targets'])}"
        else:
            what = f"reduce {','.join(row['participants'])} -> {row['target']}"
        if row["certified"]:
            tp = f"TP = {row['throughput_exact']} (certified, ≈ {row['throughput']:.6g})"
        elif row["status"] == 1:
            tp = f"TP ≈ {row['throughput']:.6g} (NOT certified: {row['message']})"
        else:
            tp = f"no optimum: {row['message']}"
        lines.append(f"{what}: {tp}")
        top = row["top_bottleneck"]
        if top is not None:
            lines.append(f"    top bottleneck: {top['resource']} (dual {top['dual']:.4g}, "
                         f"{100 * top['share']:.0f}% of TP)")
    return lines


register_section(ReportSection("steady_state", "Steady-state throughput (LP, LMR)",
                               _steady_state, _render_steady_state))


def _periodic_schedule(platform, context: dict[str, Any]) -> list[dict[str, Any]] | None:
    """Schedule every LP of ``context["lp"]`` and validate it over depth + 10 periods.

    A row per scenario: ``scheduled`` False (with ``message``) when the LP gives no
    schedule (no certified optimum, zero throughput); else the period, the numbers of
    trees or paths (``components``) and matchings, the pipeline depth, and the
    executor's verdict: ``valid`` (False, with the violation as ``message``, when it
    finds a conflict), ``efficiency`` (float) and ``efficiency_exact`` (``"p/q"``).
    """
    from hetcoll import lp
    schedules = {}
    rows = []
    for scenario, result in context.get("lp", {}).items():
        row: dict[str, Any] = {"scenario": scenario}
        rows.append(row)
        try:
            schedule = lp.schedule_from_lp(result)
        except InputError as error:
            row |= {"scheduled": False, "valid": None, "message": str(error)}
            continue
        schedules[scenario] = schedule
        periods = schedule.depth + EXTRA_PERIODS
        row |= {"scheduled": True, "period": schedule.period,
                "throughput_exact": schedule.throughput_exact,
                "component_kind": "trees" if schedule.kind == "reduce" else "paths",
                "components": schedule.n_components, "matchings": len(schedule.matchings),
                "depth": schedule.depth, "periods": periods}
        try:
            execution = lp.execute_schedule(schedule, periods)
        except lp.ScheduleViolation as error:
            row |= {"valid": False, "message": str(error), "efficiency": None,
                    "efficiency_exact": None}
            continue
        row |= {"valid": execution.success, "message": execution.message,
                "efficiency": float(execution.efficiency),
                "efficiency_exact": execution.efficiency}
    context["schedule"] = schedules
    return rows or None


def _render_periodic_schedule(rows: list[dict[str, Any]]) -> list[str]:
    lines = []
    for row in rows:
        if not row["scheduled"]:
            lines.append(f"{row['scenario']}: no schedule: {row['message']}")
            continue
        what = row["component_kind"] if row["components"] != 1 else row["component_kind"][:-1]
        matchings = f"{row['matchings']} matching{'s' if row['matchings'] != 1 else ''}"
        lines.append(f"{row['scenario']}: period {row['period']}, {row['components']} {what}, "
                     f"{matchings}, pipeline depth {row['depth']}")
        verdict = row["message"] if row["valid"] else f"INVALID: {row['message']}"
        efficiency = ("" if row["efficiency"] is None
                      else f"; efficiency {row['efficiency']:.4f}")
        lines.append(f"    executor, {row['periods']} periods: {verdict}{efficiency}")
    return lines


register_section(ReportSection("periodic_schedule", "Periodic schedule (exactly validated)",
                               _periodic_schedule, _render_periodic_schedule))


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "report", help="report on platforms: solve every bundled scenario",
        description="Report on every platform file given (directories are searched for "
        "*.json and *.graphml): for each scenario in the file (its \"scatter\" and "
        "\"reduce\" keys), the optimal steady-state throughput, exact when certified, "
        "and the top bottleneck; then the periodic schedule built from it (period, trees "
        "or paths, matchings), validated by an exact run over the pipeline depth + "
        f"{EXTRA_PERIODS} periods.")
    parser.add_argument("paths", nargs="+", metavar="DIR_OR_FILE",
                        help="platform files, or directories holding them")
    add_json_flag(parser)
    parser.set_defaults(func=run)


def platform_files(paths: list[str]) -> list[Path]:
    """The platform files named by ``paths``, directories expanded (sorted)."""
    files = []
    for text in paths:
        path = Path(text)
        if path.is_dir():
            found = sorted(p for p in path.iterdir() if p.suffix.lower() in PLATFORM_SUFFIXES)
            if not found:
                raise InputError(f"{path}: no platform files (*.json, *.graphml) in directory")
            files += found
        elif path.exists():
            files.append(path)
        else:
            raise InputError(f"{path}: no such file or directory")
    return files


def run(args) -> int:
    from tqdm import tqdm

    from hetcoll import lp
    files = platform_files(args.paths)
    platforms = [(path, lp.read_platform(path)) for path in files]  # validate all first
    reports = []
    quiet = args.json or not sys.stderr.isatty()
    for path, platform in tqdm(platforms, desc="platforms", disable=quiet, leave=False):
        context: dict[str, Any] = {}
        sections = {}
        for section in SECTIONS:
            value = section.compute(platform, context)
            if value is not None:
                sections[section.key] = value
        reports.append({"file": str(path), "description": platform.description,
                        "processors": len(platform.processors), "links": len(platform.links),
                        "sections": sections})
    if args.json:
        print_json({"platforms": reports})
        return 0
    titles = {s.key: s.title for s in SECTIONS}
    render = {s.key: s.render for s in SECTIONS}
    for report in reports:
        print(f"== {report['file']} ({report['processors']} processors, "
              f"{report['links']} links)")
        if report["description"]:
            print(f"   {report['description']}")
        if not report["sections"]:
            print("   (no scenario in this file)")
        for key, value in report["sections"].items():
            print(f"-- {titles[key]}")
            for line in render[key](value):
                print(f"   {line}")
        print()
    return 0
