"""The Examples sections of the lp docstrings run and give what they show."""

import doctest
from pathlib import Path

import pytest

import lp.certify
import lp.model
import lp.platform
import lp.plots
import lp.pulp_model
import lp.steady_state

MODULES = [lp.platform, lp.model, lp.certify, lp.steady_state, lp.pulp_model, lp.plots]


@pytest.mark.filterwarnings("ignore:PULP_CBC_CMD is deprecated:DeprecationWarning")
@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_docstring_examples(module, monkeypatch):
    import matplotlib

    matplotlib.use("Agg")
    monkeypatch.chdir(Path(__file__).resolve().parents[1])  # examples/ paths
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
