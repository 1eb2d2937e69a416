"""The main job: a report on platform files, every scenario solved, scheduled and run.

For each platform file, :func:`report` solves the steady-state LP of every scenario the
file holds (``"scatter"``, ``"gather"``, ``"reduce"``), certified in exact arithmetic;
then builds the periodic schedule of each optimum and validates it by an exact run of
the executor over the pipeline depth + :data:`EXTRA_PERIODS` periods.  A scenario
whose LP has no certified optimum, or whose schedule breaks the platform model, is a
verdict in its row, not an error of the report.

``hetcoll report`` (:mod:`hetcoll.cli.report`) only parses its arguments, calls
:func:`report` and prints :meth:`Report.to_dict` or :meth:`Report.lines`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hetcoll.core.display import approx_str, number_text
from hetcoll.core.errors import InputError
from hetcoll.core.platform import Platform
from hetcoll.core.results import Result, to_jsonable

__all__ = ["EXTRA_PERIODS", "PLATFORM_SUFFIXES", "SECTION_TITLES", "PlatformReport", "Report",
           "platform_files", "report", "report_platform", "schedule_rows",
           "steady_state_rows"]

PLATFORM_SUFFIXES = (".json", ".graphml")

#: The periodic-schedule section runs the executor over the pipeline depth plus this
#: many periods of uses (the default of ``hetcoll schedule``).
EXTRA_PERIODS = 10

#: Heading of each section of the text report, in report order.
SECTION_TITLES = {"steady_state": "Steady-state throughput (LP, LMR)",
                  "periodic_schedule": "Periodic schedule (exactly validated)"}


@dataclass
class PlatformReport(Result):
    """The report on one platform file.

    Attributes
    ----------
    status : int
        0 (a scenario that fails is a verdict in its row).
    message : str
    file : str
    description : str
    processors, links : int
        How many of each the platform has.
    steady_state : dict kind -> SteadyStateResult
        The LP of every scenario of the file.
    schedules : dict kind -> Schedule
        The periodic schedule of every scenario that has one.
    sections : dict
        JSON-ready rows per section (``"steady_state"``, ``"periodic_schedule"``; a
        section without rows is left out): see :func:`steady_state_rows` and
        :func:`schedule_rows`.
    """

    status: int
    message: str
    file: str
    description: str
    processors: int
    links: int
    steady_state: dict[str, Any] = field(repr=False)
    schedules: dict[str, Any] = field(repr=False)
    sections: dict[str, list[dict[str, Any]]]

    def to_dict(self) -> dict[str, Any]:
        """``status``, ``message``, ``success``, ``warnings``, ``file``, ``description``,
        ``processors``, ``links`` and ``sections`` (JSON-ready)."""
        return {"status": self.status, "message": self.message, "success": self.success,
                "warnings": self.warnings, "file": self.file, "description": self.description,
                "processors": self.processors, "links": self.links,
                "sections": to_jsonable(self.sections)}

    @property
    def warnings(self) -> list[str]:
        """Every scenario's LP and schedule warnings, each led by its scenario."""
        return [f"{kind}: {warning}"
                for kind, result in (*self.steady_state.items(), *self.schedules.items())
                for warning in result.warnings]

    def lines(self) -> list[str]:
        """The text report of this platform, one string per line."""
        lines = [f"== {self.file} ({self.processors} processors, {self.links} links)"]
        if self.description:
            lines.append(f"   {self.description}")
        if not self.sections:
            lines.append("   (no scenario in this file)")
        render = {"steady_state": lambda rows: _render_steady_state(rows, self.steady_state),
                  "periodic_schedule": _render_periodic_schedule}
        for key, rows in self.sections.items():
            lines.append(f"-- {SECTION_TITLES[key]}")
            lines += [f"   {line}" for line in render[key](rows)]
        return lines


@dataclass
class Report(Result):
    """The report on several platform files (see :func:`report`).

    Attributes
    ----------
    status : int
        0.
    message : str
    platforms : list of PlatformReport
    """

    status: int
    message: str
    platforms: list[PlatformReport]

    @property
    def warnings(self) -> list[str]:
        """Every platform's warnings, each led by its file name."""
        return [f"{p.file}: {warning}" for p in self.platforms for warning in p.warnings]

    def to_dict(self) -> dict[str, Any]:
        """``status``, ``message``, ``success``, ``warnings`` and ``platforms``
        (JSON-ready)."""
        return {"status": self.status, "message": self.message, "success": self.success,
                "warnings": self.warnings,
                "platforms": [p.to_dict() for p in self.platforms]}

    def lines(self) -> list[str]:
        """The text report, one string per line, a blank line after each platform."""
        return [line for p in self.platforms for line in [*p.lines(), ""]]


def platform_files(paths: Iterable[str | Path]) -> list[Path]:
    """The platform files named by ``paths``, directories expanded (sorted).

    Raises
    ------
    InputError
        For a path that does not exist, or a directory without platform files.

    Examples
    --------
    >>> [p.name for p in platform_files(["examples"])][:2]
    ['reduce_counterexample.json', 'ring_with_chord.graphml']
    """
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


def steady_state_rows(results: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One JSON-ready row per solved scenario.

    Keys: ``status``, ``message``, ``certified``, ``throughput``,
    ``throughput_exact``, ``scenario`` (the kind), the roles of the operation
    (``source``/``targets``, ``sources``/``target`` or ``participants``/``target``),
    ``sizes`` (scatter and gather) and ``top_bottleneck`` (or None).
    """
    rows = []
    for scenario, result in results.items():
        data = result.to_dict()
        row = {key: data[key] for key in ("status", "message", "certified", "throughput",
                                           "throughput_exact")}
        row["scenario"] = scenario
        row |= result.operation.role_dict()
        if "sizes" in data:
            row["sizes"] = data["sizes"]
        row["top_bottleneck"] = data["bottlenecks"][0] if data["bottlenecks"] else None
        rows.append(row)
    return rows


def _render_steady_state(rows: list[dict[str, Any]], results: Mapping[str, Any]) -> list[str]:
    lines = []
    for row in rows:
        what = results[row["scenario"]].operation.describe()
        irregular = {name: size for name, size in row.get("sizes", {}).items() if size != "1"}
        if irregular:
            what += " (sizes " + ",".join(f"{n}={s}" for n, s in irregular.items()) + ")"
        if row["certified"]:
            tp = f"TP = {number_text(results[row['scenario']].throughput_exact)}, certified"
        elif row["status"] == 1:
            tp = f"TP ≈ {approx_str(row['throughput'])} (NOT certified: {row['message']})"
        else:
            tp = f"no optimum: {row['message']}"
        lines.append(f"{what}: {tp}")
        top = row["top_bottleneck"]
        if top is not None:
            lines.append(f"    top bottleneck: {top['resource']} (dual {top['dual']:.4g}, "
                         f"{100 * top['share']:.0f}% of TP)")
    return lines


def schedule_rows(results: Mapping[str, Any], *, extra_periods: int = EXTRA_PERIODS,
                  max_busy_intervals: int | None = None, progress: bool = False,
                  ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Schedule every LP result and validate it over depth + ``extra_periods`` periods.

    Parameters
    ----------
    results : mapping scenario -> SteadyStateResult
    extra_periods : int
    max_busy_intervals : int, optional
        The executor's size guard (default: :data:`hetcoll.lp.executor.MAX_BUSY_INTERVALS`).
    progress : bool
        Show the executor's progress bar on standard error.

    Returns
    -------
    schedules : dict scenario -> Schedule
    rows : list of dict
        A row per scenario: ``scheduled`` False (with ``message``) when the LP gives no
        schedule (no certified optimum, zero throughput); else the ``period``,
        ``throughput_exact``, ``component_kind`` (``"trees"`` or ``"paths"``), the
        numbers of ``components`` and ``matchings``, the pipeline ``depth``, the
        ``periods`` run, and the executor's verdict: ``valid`` (False, with the
        violation as ``message``, when it finds a conflict), ``efficiency`` (float)
        and ``efficiency_exact`` (``"p/q"``).

    Examples
    --------
    >>> from hetcoll import lp
    >>> p = lp.read_platform("examples/two_processor.json")
    >>> _, rows = schedule_rows({"gather": lp.steady_state_lp(p, lp.Gather(["P1"], "P0"))})
    >>> rows[0]["valid"], rows[0]["period"]
    (True, Fraction(1, 1))
    """
    from hetcoll import lp

    schedules = {}
    rows = []
    for scenario, result in results.items():
        row: dict[str, Any] = {"scenario": scenario}
        rows.append(row)
        try:
            schedule = lp.schedule_from_lp(result)
        except InputError as error:
            row |= {"scheduled": False, "valid": None, "message": str(error)}
            continue
        schedules[scenario] = schedule
        periods = schedule.depth + extra_periods
        row |= {"scheduled": True, "period": schedule.period,
                "throughput_exact": schedule.throughput_exact,
                "component_kind": schedule.operation.component_kind,
                "components": schedule.n_components, "matchings": len(schedule.matchings),
                "depth": schedule.depth, "periods": periods}
        try:
            execution = lp.execute_schedule(schedule, periods, progress=progress,
                                            **_given(max_busy_intervals=max_busy_intervals))
        except lp.ScheduleViolation as error:
            row |= {"valid": False, "message": str(error), "efficiency": None,
                    "efficiency_exact": None}
            continue
        row |= {"valid": execution.success, "message": execution.message,
                "efficiency": float(execution.efficiency),
                "efficiency_exact": execution.efficiency}
    return schedules, rows


def _render_periodic_schedule(rows: list[dict[str, Any]]) -> list[str]:
    lines = []
    for row in rows:
        if not row["scheduled"]:
            lines.append(f"{row['scenario']}: no schedule: {row['message']}")
            continue
        what = row["component_kind"] if row["components"] != 1 else row["component_kind"][:-1]
        matchings = f"{row['matchings']} matching{'s' if row['matchings'] != 1 else ''}"
        lines.append(f"{row['scenario']}: period {number_text(row['period'])}, "
                     f"{row['components']} {what}, {matchings}, pipeline depth {row['depth']}")
        verdict = row["message"] if row["valid"] else f"INVALID: {row['message']}"
        efficiency = ("" if row["efficiency"] is None
                      else f"; efficiency {row['efficiency']:.4f}")
        lines.append(f"    executor, {row['periods']} periods: {verdict}{efficiency}")
    return lines


def _given(**keywords: Any) -> dict[str, Any]:
    """The keywords that are not None: None leaves the library's default."""
    return {key: value for key, value in keywords.items() if value is not None}


def report_platform(platform: Platform, file: str | Path = "", *,
                    solver_options: Mapping[str, Any] | None = None,
                    max_variables: int | None = None, max_busy_intervals: int | None = None,
                    progress: bool = False) -> PlatformReport:
    """Solve, schedule and run every scenario of one platform.

    Parameters
    ----------
    platform : Platform
    file : str or Path
        How the report names the platform.
    solver_options, max_variables, max_busy_intervals, progress
        As :func:`report`.

    Returns
    -------
    PlatformReport

    Raises
    ------
    LimitError
        If an LP or an executor run is over its size guard.

    Examples
    --------
    >>> from hetcoll.lp import read_platform
    >>> r = report_platform(read_platform("examples/two_processor.json"))
    >>> [(row["scenario"], row["throughput_exact"]) for row in r.sections["steady_state"]]
    [('scatter', '1'), ('gather', '1'), ('reduce', '1')]
    """
    from hetcoll import lp

    results = {kind: lp.steady_state_lp(platform, operation, solver_options=solver_options,
                                        progress=progress,
                                        **_given(max_variables=max_variables))
               for kind, operation in lp.default_operations(platform).items()}
    schedules, rows = schedule_rows(results, max_busy_intervals=max_busy_intervals,
                                    progress=progress)
    sections = {}
    if results:
        sections = {"steady_state": steady_state_rows(results), "periodic_schedule": rows}
    return PlatformReport(0, "report built", str(file), platform.description,
                          len(platform.processors), len(platform.links), results, schedules,
                          sections)


def report(paths: Iterable[str | Path], *, progress: bool = False,
           solver_options: Mapping[str, Any] | None = None, max_variables: int | None = None,
           max_busy_intervals: int | None = None) -> Report:
    """The main job: report on every platform file of ``paths``.

    Parameters
    ----------
    paths : iterable of str or Path
        Platform files (``.json``, ``.graphml``), or directories holding them.
    progress : bool
        Show progress bars on stderr: over the platforms, the time of each HiGHS
        solve, and each exact run of a schedule.
    solver_options : mapping, optional
        HiGHS options for every LP (:func:`hetcoll.lp.steady_state_lp`), e.g.
        ``{"time_limit": 10.0}`` (a scenario that hits it is a verdict in its row).
    max_variables : int, optional
        LP size guard (default :data:`hetcoll.lp.highs.MAX_LP_VARIABLES`).
    max_busy_intervals : int, optional
        Executor size guard (default :data:`hetcoll.lp.executor.MAX_BUSY_INTERVALS`).

    Returns
    -------
    Report
        One :class:`PlatformReport` per file, in order.

    Raises
    ------
    InputError
        For a missing path, a directory without platform files, or an invalid
        platform file (all files are read before any LP is solved).
    LimitError
        If an LP or an executor run is over its size guard.

    Examples
    --------
    >>> r = report(["examples/two_processor.json"])
    >>> r.lines()[3]
    '   scatter P0 -> P1: TP = 1, certified'

    References
    ----------
    Legrand, Marchal, Robert (2004): steady-state LPs, periodic schedules and their
    asymptotic optimality; NOTES.md §1.
    """
    from tqdm import tqdm

    from hetcoll import lp

    files = platform_files(paths)
    platforms = [(path, lp.read_platform(path)) for path in files]  # validate all first
    reports = [report_platform(platform, path, solver_options=solver_options,
                               max_variables=max_variables,
                               max_busy_intervals=max_busy_intervals, progress=progress)
               for path, platform in tqdm(platforms, desc="platforms", disable=not progress,
                                          leave=False)]
    return Report(0, f"{len(reports)} platform(s) reported", reports)
