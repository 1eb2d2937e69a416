"""The Examples sections of every installed module run and give what they show.

The modules are walked in the installed ``hetcoll`` packages, so a new module's
doctests are collected without editing this file.  Each package is walked on its
own: in an editable install the science packages live outside ``hetcoll.__path__``.
"""

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ["hetcoll", "hetcoll.core", "hetcoll.cli", "hetcoll.lp", "hetcoll.markov",
            "hetcoll.sim", "hetcoll.analytics"]
MODULES = sorted({*PACKAGES, *(
    info.name for package in PACKAGES
    for info in pkgutil.walk_packages(importlib.import_module(package).__path__,
                                      f"{package}.")
    if not info.name.endswith(".__main__")  # runs the command line when imported
)})


def test_every_package_is_walked():
    names = set(MODULES)
    assert {"hetcoll.core.numbers", "hetcoll.lp.steady_state", "hetcoll.markov.ctmc",
            "hetcoll.sim.engine", "hetcoll.analytics.bounds", "hetcoll.cli"} <= names


@pytest.mark.filterwarnings("ignore:PULP_CBC_CMD is deprecated:DeprecationWarning")
@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name, monkeypatch):
    import matplotlib

    matplotlib.use("Agg")
    monkeypatch.chdir(ROOT)  # examples read examples/*.json
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
