"""The routed predictor against SimGrid itself (Debian's python3-simgrid, SimGrid 3.32).

SimGrid's CM02 flow model, without TCP corrections, shares links by max-min as the
routed predictor does: both must give the same completion time, to rounding, on every
tree, including those whose transfers meet on the shared wide-area link (where the
pairwise model is off by a factor of two).  Skipped when the system Python has no
``simgrid`` module (``apt-get install python3-simgrid``).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from itertools import zip_longest
from pathlib import Path

import pytest

from hetcoll.core.simgrid import read_simgrid
from hetcoll.sim.collectives import (
    ALGORITHMS,
    HockneyModel,
    Network,
    build_tree,
    pairwise_prediction,
    routed_prediction,
    sizes_by_speed,
    subtree_volumes,
)

ROOT = Path(__file__).resolve().parents[1]
TWO_SITES = ROOT / "examples" / "trees" / "drl_two_sites.xml"
ORACLE = Path(__file__).resolve().parent / "simgrid_oracle.py"
SYSTEM_PYTHON = shutil.which("python3", path="/usr/bin")


def _has_simgrid() -> bool:
    if SYSTEM_PYTHON is None:
        return False
    probe = subprocess.run([SYSTEM_PYTHON, "-c", "import simgrid"], capture_output=True)
    return probe.returncode == 0


pytestmark = pytest.mark.skipif(not _has_simgrid(),
                                reason="python3-simgrid is not installed for /usr/bin/python3")


def _simgrid_time(platform: Path, tree, sizes, tmp_path: Path) -> float:
    volume = subtree_volumes(tree, sizes)
    spec = tmp_path / "tree.json"
    spec.write_text(json.dumps({"kind": tree.kind, "root": tree.root,
                                "children": {k: list(v) for k, v in tree.children.items()},
                                "volume": {k: int(v) for k, v in volume.items()}}))
    run = subprocess.run([SYSTEM_PYTHON, str(ORACLE), str(platform), str(spec)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    return float(run.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("interleave", [False, True])
@pytest.mark.parametrize("kind", ["scatterv", "gatherv"])
def test_routed_prediction_equals_simgrid(tmp_path, kind, interleave):
    sg = read_simgrid(TWO_SITES)
    names = list(sg.platform.names)
    if interleave:  # one node of each cluster in turn: more wide-area crossings at once
        clusters: dict[str, list[str]] = {}
        for name in names:
            clusters.setdefault(name.split("-")[0], []).append(name)
        names = [n for group in zip_longest(*clusters.values()) for n in group if n]
    base = sizes_by_speed(sg.platform, 39 * 10**6)
    sizes = {n: base[n] for n in names}
    model, network = HockneyModel(sg.platform), Network.from_simgrid(sg)
    contended = 0
    for algorithm in ALGORITHMS:
        tree = build_tree(algorithm, kind, names[0], sizes, model)
        routed = float(routed_prediction(tree, sizes, network).time)
        assert _simgrid_time(TWO_SITES, tree, sizes, tmp_path) == pytest.approx(routed,
                                                                                rel=1e-9)
        contended += routed > 1.01 * float(pairwise_prediction(tree, sizes, model).time)
    assert contended >= 1  # the comparison covers trees where sharing matters
