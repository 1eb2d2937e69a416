"""The wheel installs one namespace, ``hetcoll``, and lives beside foreign top-level packages.

hetcoll used to install ``lp``, ``sim``, ``markov`` and ``analytics`` at the top level:
installing Segment's ``analytics-python`` overwrote hetcoll's ``analytics`` without a
warning, and uninstalling it deleted hetcoll's copy.  These tests build the real wheel,
install it with pip in a fresh virtual environment beside a stand-in for that foreign
distribution, and run the command line there.

The fresh environment borrows the third-party dependencies (numpy, scipy...) of the
environment running the tests through a ``.pth`` line placed *after* its own
site-packages, so the wheel under test is what ``import hetcoll`` finds; nothing is
downloaded but the build backend.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BARE_NAMES = ("lp", "sim", "markov", "analytics")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """hetcoll's wheel, built by pip from a copy of the checkout."""
    work = tmp_path_factory.mktemp("build")
    source = work / "src"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".hypothesis",
        "benchmarks", "notebooks"))
    out = work / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet",
                    "--wheel-dir", str(out), str(source)], check=True, timeout=600)
    (found,) = out.glob("hetcoll-*.whl")
    return found


def _foreign_wheel(directory: Path) -> Path:
    """A minimal wheel of a foreign distribution that ships a top-level ``analytics``."""
    name, version = "analytics_standin", "1.0"
    dist_info = f"{name}-{version}.dist-info"
    files = {
        "analytics/__init__.py": "FOREIGN = 'not hetcoll'\n",
        f"{dist_info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
        f"{dist_info}/WHEEL": "Wheel-Version: 1.0\nGenerator: hand\nRoot-Is-Purelib: true\n"
                              "Tag: py3-none-any\n",
        f"{dist_info}/top_level.txt": "analytics\n",
    }
    files[f"{dist_info}/RECORD"] = "".join(f"{path},,\n" for path in files) + \
        f"{dist_info}/RECORD,,\n"
    path = directory / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        for member, text in files.items():
            archive.writestr(member, text)
    return path


def test_the_wheel_installs_nothing_at_the_top_level_but_hetcoll(wheel):
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    tops = {name.split("/")[0] for name in names}
    dist_info = {top for top in tops if top.endswith(".dist-info")}
    assert tops - dist_info == {"hetcoll"}
    assert {"hetcoll/lp/steady_state.py", "hetcoll/markov/ctmc.py", "hetcoll/sim/engine.py",
            "hetcoll/analytics/bounds.py", "hetcoll/core/numbers.py",
            "hetcoll/cli/__init__.py",
            "hetcoll/sim/collectives/platforms/drl_two_sites.xml"} <= set(names)
    (info,) = dist_info
    with zipfile.ZipFile(wheel) as archive:
        top_level = archive.read(f"{info}/top_level.txt").decode().split()
    assert top_level == ["hetcoll"]


@pytest.fixture(scope="module")
def fresh_env(tmp_path_factory, wheel) -> Path:
    """A new virtual environment with hetcoll's wheel and the foreign ``analytics``."""
    directory = tmp_path_factory.mktemp("venv")
    env = directory / "env"
    venv.EnvBuilder(with_pip=True).create(env)
    python = env / "bin" / "python"
    purelib = Path(subprocess.run([str(python), "-c", "import sysconfig; "
                                   "print(sysconfig.get_paths()['purelib'])"],
                                  check=True, capture_output=True, text=True).stdout.strip())
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
                    str(wheel), str(_foreign_wheel(directory))], check=True, timeout=300)
    # Then the dependencies, after the environment's own site-packages.  (Written before
    # the install, it let pip see the test environment's own hetcoll and skip the wheel.)
    (purelib / "zz_test_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    assert (env / "bin" / "hetcoll").exists()
    return env


def _run(env: Path, *argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(env / "bin" / argv[0]), *argv[1:]], capture_output=True,
                          text=True, timeout=300, cwd=env)


def test_bare_names_do_not_import_and_the_namespace_does(fresh_env):
    for name in BARE_NAMES:
        if name == "analytics":
            continue  # the foreign distribution's, checked below
        run = _run(fresh_env, "python", "-c", f"import {name}")
        assert run.returncode != 0 and "ModuleNotFoundError" in run.stderr, name
    run = _run(fresh_env, "python", "-c",
               "import hetcoll.lp, hetcoll.sim, hetcoll.markov, hetcoll.analytics, analytics;"
               "print(hetcoll.analytics.__file__); print(analytics.FOREIGN)")
    assert run.returncode == 0, run.stderr
    ours, foreign = run.stdout.splitlines()
    assert "/hetcoll/analytics/" in ours and foreign == "not hetcoll"


def test_the_cli_works_beside_and_after_the_foreign_analytics(fresh_env):
    def bounds():
        run = _run(fresh_env, "hetcoll", "bounds", "--delta", "2", "--n", "64", "--json")
        assert run.returncode == 0, run.stderr
        data = json.loads(run.stdout)
        assert data["status"] == 0 and data["cells"][0]["value"] == 2.0  # Theorem 1: Δ

    bounds()
    run = _run(fresh_env, "python", "-m", "pip", "uninstall", "--yes", "analytics_standin")
    assert run.returncode == 0, run.stderr
    assert _run(fresh_env, "python", "-c", "import analytics").returncode != 0
    bounds()
    version = _run(fresh_env, "hetcoll", "--version")
    assert version.returncode == 0 and version.stdout.startswith("hetcoll ")
