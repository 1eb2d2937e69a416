"""The README's Python tour must run as printed."""

import re
from fractions import Fraction
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_readme_python_tour_runs(monkeypatch):
    text = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks, "the README has no Python example"
    monkeypatch.chdir(ROOT)
    namespace: dict = {}
    exec(compile(blocks[0], "README.md", "exec"), namespace)  # noqa: S102
    # The two-site platform's throughput is certified, and no non-clairvoyant algorithm
    # beats the clairvoyant optimum.
    assert namespace["result"].certified
    assert isinstance(namespace["result"].throughput_exact, Fraction)
    simulated = namespace["sim"].simulate("tree-dyn", namespace["comm"], namespace["comp"])
    optimum = namespace["analytics"].clairvoyant_optimum(namespace["comm"], namespace["comp"])
    assert optimum.makespan <= simulated.makespan


def test_readme_starts_with_exactly_two_commands():
    commands = [line for line in (ROOT / "README.md").read_text().splitlines()
                if line.startswith("$ ")]
    venv = "$ python3 -m venv .venv && .venv/bin/pip install -q "
    assert commands[:2] == [
        venv + ". && .venv/bin/hetcoll report examples",
        venv + "'.[test]' && .venv/bin/python -m pytest",
    ]
    ci = (ROOT / ".ci" / "run").read_text()
    assert "README.md" in ci and "head -n 2" in ci


@pytest.mark.parametrize("guide", ["lp", "schedule", "markov", "sim", "analytics", "DEVELOPING"])
def test_readme_links_resolve(guide):
    assert f"docs/{guide}.md" in (ROOT / "README.md").read_text()
    assert (ROOT / "docs" / f"{guide}.md").is_file()
