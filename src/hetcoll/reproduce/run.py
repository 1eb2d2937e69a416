"""``reproduce``: evaluate every claim and write the report, figures and claims.json."""

from __future__ import annotations

import base64
import html
import json
import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hetcoll.core.errors import InputError
from hetcoll.core.results import Result, to_jsonable
from hetcoll.reproduce.claims import VERDICTS, Claim, Context, select_specs

__all__ = ["OWNED", "ReproductionResult", "reproduce"]

#: The files and folders reproduce writes in its output folder; nothing else is touched.
OWNED = frozenset({"report.md", "report.html", "claims.json", "cells",
                   *(f"figure{k}.{ext}" for k in (4, 5, 6) for ext in ("png", "pdf"))})


@dataclass
class ReproductionResult(Result):
    """The outcome of :func:`reproduce`.

    Attributes
    ----------
    status : int
        0: every selected claim has a verdict.
    message : str
    out : Path
    quick : bool
    seconds : float
    verdicts : dict of str to int
        How many claims got each verdict.
    claims : list of Claim
    sweeps : dict of str to dict
        Per sweep: its grid, cells, cells computed by this run, seconds.
    files : list of str
        The files written (relative to ``out``).
    """

    status: int
    message: str
    out: Path
    quick: bool
    seconds: float
    verdicts: dict[str, int]
    claims: list[Claim] = field(default_factory=list)
    sweeps: dict[str, dict] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)


def _check_folder(out: Path, force: bool) -> None:
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {out}: exists and is not a folder")
    if not out.exists() or force:
        return
    foreign = sorted(p.name for p in out.iterdir() if p.name not in OWNED)
    if foreign:
        raise InputError(f"--out {out}: holds files hetcoll reproduce did not write "
                         f"({', '.join(foreign[:3])}{', ...' if len(foreign) > 3 else ''}); "
                         f"choose another folder, or --force to write its own files beside them")


def _write_text(path: Path, text: str) -> None:
    partial = path.with_name(path.name + ".part")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, path)


def _cell(value: Any) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")


def _markdown(result: ReproductionResult, figures: dict[str, list[Path]],
              sweeps: dict[str, dict]) -> str:
    scale = "quick (reduced scale)" if result.quick else "full (paper scale)"
    lines = [
        "# hetcoll reproduce: the four papers' claims",
        "",
        f"Scale: {scale}; {len(result.claims)} claims in {result.seconds:.0f} s; "
        + ", ".join(f"{v}: {n}" for v, n in result.verdicts.items()) + ".",
        "",
        "Papers: RR = Benoit, Canon, Marchal, Inria RR-8315 (2013); HP = its HeteroPar 2013 "
        "version; LMR = Legrand, Marchal, Robert (JPDC 2005, slides 2004); MLH = Marendić et "
        "al.; DRL = Dichev, Rychkov, Lastovetsky.  Verdicts: reproduced (hetcoll agrees), "
        "differs (hetcoll's value or reading differs, e.g. a typo or a weaker/stronger bound), "
        "refuted (hetcoll computes a counter-example), not reproducible (the reason says why).",
        "",
        "| id | paper | where | claim | paper's value | hetcoll's value | verdict | reason |",
        "|---|---|---|---|---|---|---|---|",
    ]
    lines += [f"| {c.id} | {c.paper} | {_cell(c.where)} | {_cell(c.statement)} | "
              f"{_cell(c.paper_value)} | {_cell(c.hetcoll_value)} | **{c.verdict}** | "
              f"{_cell(c.reason)} |" for c in result.claims]
    if sweeps:
        lines += ["", "## Sweeps", "", "| sweep | grid | cells | computed this run | seconds |",
                  "|---|---|---:|---:|---:|"]
        lines += [f"| {name} | " + "; ".join(f"{k}: {', '.join(map(str, v))}"
                                            for k, v in log["grid"].items())
                  + f" | {log['cells']} | {log['computed']} | {log['seconds']} |"
                  for name, log in sweeps.items()]
    if figures:
        lines += ["", "## Figures", ""]
        for name, paths in figures.items():
            lines += [f"![{name}]({paths[0].name}) ([PDF]({paths[1].name}))", ""]
    lines += ["", "Evidence for every claim (numbers and files): `claims.json`; the sweeps' "
              "cells: `cells/`.", ""]
    return "\n".join(lines)


def _html(result: ReproductionResult, figures: dict[str, list[Path]]) -> str:
    rows = "\n".join(
        "<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in (
            c.id, c.paper, c.where, c.statement, c.paper_value, c.hetcoll_value))
        + f'<td class="{c.verdict.replace(" ", "-")}"><b>{html.escape(c.verdict)}</b></td>'
        f"<td>{html.escape(c.reason)}</td></tr>" for c in result.claims)
    images = "\n".join(
        f'<h3>{name}</h3><img alt="{name}" src="data:image/png;base64,'
        f'{base64.b64encode(paths[0].read_bytes()).decode()}">' for name, paths in figures.items())
    summary = ", ".join(f"{v}: {n}" for v, n in result.verdicts.items())
    return f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>hetcoll reproduce</title>
<style>body{{font-family:sans-serif;margin:2em}}table{{border-collapse:collapse}}
td,th{{border:1px solid #ccc;padding:4px;vertical-align:top;font-size:90%}}
.reproduced{{background:#dfd}}.differs{{background:#ffd}}.refuted{{background:#fdd}}
.not-reproducible{{background:#eee}}img{{max-width:100%}}</style></head><body>
<h1>hetcoll reproduce: the four papers' claims</h1>
<p>{"quick (reduced scale)" if result.quick else "full (paper scale)"};
{len(result.claims)} claims in {result.seconds:.0f} s; {html.escape(summary)}.</p>
<table><tr><th>id</th><th>paper</th><th>where</th><th>claim</th><th>paper's value</th>
<th>hetcoll's value</th><th>verdict</th><th>reason</th></tr>
{rows}
</table>
<h2>Figures</h2>
{images}
</body></html>
"""


def reproduce(out: str | Path = "reproduce", *, quick: bool = False,
              only: Sequence[str] | None = None, jobs: int = 1, scheduler: Any = None,
              progress: bool = False, force: bool = False,
              on_cell: Callable[[dict, dict], None] | None = None) -> ReproductionResult:
    """Evaluate the papers' claims; write report.md, report.html, claims.json and figures.

    Parameters
    ----------
    out : str or Path
        Output folder, created if needed.  Sweep cells are kept in ``out/cells/``
        and reused by the next run (resume).
    quick : bool
        Reduced scale (every claim, in well under 2 minutes on 2 cores).
    only : sequence of str, optional
        Claim ids, or id prefixes such as ``"RR-fig4"``; all claims by default.
    jobs : int
        Sweep cells computed at once (threads).  Results do not depend on it.
    scheduler : str, optional
        A Dask scheduler's address: the sweeps' cells run on its workers.
    progress : bool
        tqdm bars (one for the claims, one per sweep) on a terminal.
    force : bool
        Write into a folder that holds other files (only :data:`OWNED` names are
        written; nothing else is touched).
    on_cell : callable, optional
        Called after each newly computed sweep cell is stored.

    Returns
    -------
    ReproductionResult

    Raises
    ------
    InputError
        An unknown claim id, a bad ``jobs``, or a folder with foreign files.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     result = reproduce(folder, quick=True, only=["LMR-two-processor"])
    >>> [(c.id, c.verdict) for c in result.claims]
    [('LMR-two-processor', 'reproduced')]

    References
    ----------
    The claims' own modules: :mod:`hetcoll.reproduce.rrhp`, ``lmr``, ``mlh``, ``drl``.
    """
    from tqdm import tqdm

    start = time.perf_counter()
    specs = select_specs(list(only) if only else None)
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise InputError(f"--jobs must be a positive integer, got {jobs!r}")
    out = Path(out)
    _check_folder(out, force)
    out.mkdir(parents=True, exist_ok=True)
    ctx = Context(out, quick=quick, jobs=jobs, scheduler=scheduler, progress=progress,
                  on_cell=on_cell)
    claims = []
    bar = tqdm(specs, desc="claims", unit="claim", disable=not (progress and sys.stderr.isatty()))
    for spec in bar:
        bar.set_postfix_str(spec.id)
        claims.append(Claim.from_spec(spec, spec.evaluate(ctx)))
    counts = Counter(c.verdict for c in claims)
    verdicts = {v: counts[v] for v in VERDICTS if counts[v]}
    result = ReproductionResult(0, f"{len(claims)} claims evaluated", out, quick,
                                time.perf_counter() - start, verdicts, claims, ctx.sweeps)
    figures = dict(sorted(ctx.figures.items()))
    _write_text(out / "claims.json", json.dumps(
        {"quick": quick, "seconds": round(result.seconds, 1), "verdicts": verdicts,
         "sweeps": ctx.sweeps, "claims": to_jsonable([c.to_dict() for c in claims])},
        indent=1, allow_nan=False))
    _write_text(out / "report.md", _markdown(result, figures, ctx.sweeps))
    _write_text(out / "report.html", _html(result, figures))
    result.files = ["claims.json", "report.md", "report.html",
                    *(p.name for paths in figures.values() for p in paths)]
    return result
