"""Claim records and the registry of claim definitions.

A paper's claims are one module of :class:`ClaimSpec` objects (its ``CLAIMS``
list); :data:`PAPER_MODULES` lists those modules.  Evaluating a spec in a
:class:`Context` gives a :class:`Claim`: the paper's value, hetcoll's value and
a verdict with its reason and evidence.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from hetcoll.core.errors import InputError
from hetcoll.reproduce.sweep import Sweep, run_sweep

__all__ = ["PAPER_MODULES", "VERDICTS", "Claim", "ClaimSpec", "Context", "Outcome", "pending",
           "all_specs", "erratum", "select_specs"]

#: The verdicts a claim may get.
VERDICTS = ("reproduced", "differs", "refuted", "not reproducible")

#: One module of claim definitions per paper, in report order.
PAPER_MODULES = (
    "hetcoll.reproduce.rrhp",
    "hetcoll.reproduce.lmr",
    "hetcoll.reproduce.mlh",
    "hetcoll.reproduce.drl",
)


@dataclass
class Outcome:
    """What evaluating a claim found.

    Attributes
    ----------
    hetcoll_value : str
    verdict : str
        One of :data:`VERDICTS`.
    reason : str
        Why this verdict (the tolerance used, the counter-example...).
    evidence : dict
        Numbers and files (paths relative to the output folder) backing it.
    """

    hetcoll_value: str
    verdict: str
    reason: str
    evidence: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, got {self.verdict!r}")


@dataclass(frozen=True)
class ClaimSpec:
    """The definition of one quantitative claim of a paper.

    Attributes
    ----------
    id : str
        Unique, stable (``--only`` selects by it), e.g. ``"RR-fig4-best"``.
    paper : str
        ``"RR"``, ``"HP"``, ``"LMR"``, ``"MLH"`` or ``"DRL"`` (NOTES.md's names).
    where : str
        Section, figure or table.
    statement : str
        The claim in one sentence.
    paper_value : str
    evaluate : callable
        ``evaluate(context) -> Outcome``.
    """

    id: str
    paper: str
    where: str
    statement: str
    paper_value: str
    evaluate: Callable[[Context], Outcome]


@dataclass
class Claim:
    """One evaluated claim: the record written to ``claims.json``."""

    id: str
    paper: str
    where: str
    statement: str
    paper_value: str
    hetcoll_value: str
    verdict: str
    reason: str
    evidence: dict

    @classmethod
    def from_spec(cls, spec: ClaimSpec, outcome: Outcome) -> Claim:
        """Join a definition and its outcome."""
        return cls(spec.id, spec.paper, spec.where, spec.statement, spec.paper_value,
                   outcome.hetcoll_value, outcome.verdict, outcome.reason, outcome.evidence)

    def to_dict(self) -> dict:
        """Plain data for JSON."""
        return asdict(self)


@dataclass
class Context:
    """What claim definitions share during one reproduction.

    Attributes
    ----------
    out : Path
        The output folder.
    quick : bool
        Reduced scale.
    jobs : int
    scheduler : str or None
    progress : bool
    on_cell : callable or None
        Passed to :func:`run_sweep` (tests interrupt sweeps with it).
    figures : dict of str to list of Path
        Figures written so far, by name (the report embeds them).
    sweeps : dict of str to dict
        Per sweep run: its grid (the values of each coordinate), how many cells it
        has, how many this run computed (the others were read back) and the seconds.
    """

    out: Path
    quick: bool = False
    jobs: int = 1
    scheduler: Any = None
    progress: bool = False
    on_cell: Callable[[dict, dict], None] | None = None
    figures: dict[str, list[Path]] = field(default_factory=dict)
    sweeps: dict[str, dict] = field(default_factory=dict)
    _sweeps: dict[str, list[dict]] = field(default_factory=dict)
    _cache: dict[str, Any] = field(default_factory=dict)

    def sweep(self, sweep: Sweep) -> list[dict]:
        """The results of ``sweep`` (computed once per reproduction, resumable)."""
        if sweep.name not in self._sweeps:
            computed = []

            def count(coordinates: dict, result: dict) -> None:
                computed.append(coordinates)
                if self.on_cell is not None:
                    self.on_cell(coordinates, result)

            start = time.perf_counter()
            self._sweeps[sweep.name] = run_sweep(
                sweep, self.out, jobs=self.jobs, scheduler=self.scheduler,
                progress=self.progress, on_cell=count)
            self.sweeps[sweep.name] = {
                "grid": {name: sorted({c[name] for c in sweep.cells})
                         for name in sweep.cells[0]},
                "cells": len(sweep.cells), "computed": len(computed),
                "seconds": round(time.perf_counter() - start, 1)}
        return self._sweeps[sweep.name]

    def cached(self, name: str, compute: Callable[[], Any]) -> Any:
        """``compute()`` once per reproduction (shared by several claims)."""
        if name not in self._cache:
            self._cache[name] = compute()
        return self._cache[name]


def all_specs() -> list[ClaimSpec]:
    """Every claim definition of every paper module, in report order."""
    specs = [spec for module in PAPER_MODULES
             for spec in importlib.import_module(module).CLAIMS]
    ids = [spec.id for spec in specs]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise ValueError(f"duplicate claim ids: {', '.join(duplicates)}")
    return specs


def select_specs(only: list[str] | None) -> list[ClaimSpec]:
    """The specs named in ``only`` (ids or id prefixes such as ``RR-fig4``), or all.

    Raises
    ------
    InputError
        If a name matches no claim.

    Examples
    --------
    >>> [s.id for s in select_specs(["LMR-two-processor"])]
    ['LMR-two-processor']
    """
    specs = all_specs()
    if not only:
        return specs
    chosen = []
    for name in only:
        matches = [s for s in specs if s.id == name or s.id.startswith(name + "-")]
        if not matches:
            raise InputError(f"--only: no claim {name!r} (see hetcoll reproduce --list)")
        chosen += [s for s in matches if s not in chosen]
    return [s for s in specs if s in chosen]


def pending(module: str) -> Callable[[Context], Outcome]:
    """An evaluator for a claim whose package is not merged yet (import guarded).

    The claim gets ``not reproducible`` with the reason "needs MODULE (not merged
    yet)" when MODULE cannot be imported, and "claim definition not written yet"
    when it can (the paper's module is then where to write it).

    Examples
    --------
    >>> pending("hetcoll.no_such_package")(None).reason
    'needs hetcoll.no_such_package (not merged yet)'
    """
    def evaluate(ctx: Context) -> Outcome:
        try:
            importlib.import_module(module)
        except ImportError:
            return Outcome("none", "not reproducible", f"needs {module} (not merged yet)",
                           {"requires": module})
        return Outcome("none", "not reproducible",
                       f"{module} is installed but this claim's definition is not written yet",
                       {"requires": module})
    return evaluate


def erratum(hetcoll_value: str, reason: str) -> Callable[[Context], Outcome]:
    """An evaluator for an error of the text (a typo, a misnamed formula): ``differs``.

    Examples
    --------
    >>> erratum("lambda_d", "a typo")(None).verdict
    'differs'
    """
    def evaluate(ctx: Context) -> Outcome:
        return Outcome(hetcoll_value, "differs", reason, {})
    return evaluate
