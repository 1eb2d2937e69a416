"""House rules the suite enforces: the layering contract and ruff.

The layers, lowest first (a module may import its own layer's package and the layers
below it, never a layer above)::

    hetcoll.core  <-  hetcoll.lp, hetcoll.markov, hetcoll.sim  <-  hetcoll.analytics
                  <-  hetcoll.report  <-  hetcoll.cli

lp, markov and sim are independent of each other.  The imports are read from the
source files with :mod:`ast` (those inside functions included), so the check holds
for an editable install as for a wheel.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: package -> (source folder, layer); a higher layer may import a lower one.
PACKAGES = {
    "hetcoll.core": (ROOT / "src/hetcoll/core", 0),
    "hetcoll.lp": (ROOT / "lp", 1),
    "hetcoll.markov": (ROOT / "markov", 1),
    "hetcoll.sim": (ROOT / "sim", 1),
    "hetcoll.analytics": (ROOT / "analytics", 2),
    "hetcoll.mpi": (ROOT / "src/hetcoll/mpi", 2),
    "hetcoll.report": (ROOT / "src/hetcoll/report.py", 3),
    "hetcoll.reproduce": (ROOT / "src/hetcoll/reproduce", 3),
    "hetcoll.cli": (ROOT / "src/hetcoll/cli", 4),
}
BARE_NAMES = {"lp", "sim", "markov", "analytics"}


def _package_of(module: str) -> str | None:
    for package in PACKAGES:
        if module == package or module.startswith(package + "."):
            return package
    if module == "hetcoll":
        return "hetcoll"
    return None


def _imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            # `from hetcoll import lp` imports hetcoll.lp.
            found += [(node.lineno, f"{node.module}.{alias.name}"
                       if node.module == "hetcoll" else node.module) for alias in node.names]
    return found


def _violations(packages: dict[str, tuple[Path, int]] = PACKAGES, root: Path = ROOT
                ) -> list[str]:
    problems = []
    for package, (source, layer) in packages.items():
        files = [source] if source.is_file() else sorted(source.rglob("*.py"))
        for path in files:
            for line, module in _imports(path):
                where = f"{path.relative_to(root)}:{line} imports {module}"
                if module.split(".")[0] in BARE_NAMES:
                    problems.append(f"{where} (a bare name; use hetcoll.*)")
                    continue
                target = _package_of(module)
                if target is None or target == package:
                    continue
                if target == "hetcoll":
                    problems.append(f"{where} (import from hetcoll.core instead)")
                elif packages[target][1] >= layer:
                    problems.append(f"{where} (layer {packages[target][1]} "
                                    f"from layer {layer})")
    return problems


def test_layering_contract():
    assert _violations() == []


def test_the_layering_check_sees_a_violation(tmp_path):
    # The check itself can fail: a core module importing lp, sim importing markov, and
    # a bare name are reported.
    for name, text in {"core": "def f():\n    from hetcoll.lp import read_platform\n",
                       "sim": "import hetcoll.markov\nimport analytics\n"}.items():
        (tmp_path / name).mkdir()
        (tmp_path / name / "bad.py").write_text(text)
    packages = {"hetcoll.core": (tmp_path / "core", 0), "hetcoll.lp": (tmp_path / "lp", 1),
                "hetcoll.markov": (tmp_path / "markov", 1),
                "hetcoll.sim": (tmp_path / "sim", 1)}
    assert _violations(packages, tmp_path) == [
        "core/bad.py:2 imports hetcoll.lp (layer 1 from layer 0)",
        "sim/bad.py:1 imports hetcoll.markov (layer 1 from layer 1)",
        "sim/bad.py:2 imports analytics (a bare name; use hetcoll.*)",
    ]


def test_ruff_is_clean():
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent))
    if ruff is None:
        pytest.fail("ruff is not installed: install the test extras (pip install '.[test]')")
    result = subprocess.run([ruff, "check", "--no-cache", "--output-format", "concise", "."],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
