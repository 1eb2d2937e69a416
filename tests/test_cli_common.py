import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from hetcoll.cli import build_parser
from hetcoll.cli._common import split_names, to_jsonable
from hetcoll.core.errors import InputError


def test_every_subcommand_has_help(capsys):
    parser = build_parser()
    commands = parser._subparsers._group_actions[0].choices  # argparse keeps them here
    assert {"lp", "schedule", "markov", "simulate", "bounds", "verify", "optimum", "report"} <= set(
        commands
    )
    for name in commands:
        with pytest.raises(SystemExit) as exit_info:
            parser.parse_args([name, "--help"])
        assert exit_info.value.code == 0
        assert "usage: hetcoll" in capsys.readouterr().out


def test_unknown_option_is_one_line_and_exit_2():
    done = subprocess.run([sys.executable, "-m", "hetcoll.cli", "bounds", "--nope"],
                          capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "unrecognized arguments: --nope" in done.stderr


def test_closed_stdout_pipe_is_not_an_error():
    # A reader such as `| head` that closes the pipe early must not produce a traceback
    # or "Broken pipe" and a failing exit status.
    code = (
        "import argparse\n"
        "from hetcoll.cli._common import run_command\n"
        "def boom(args):\n"
        "    raise BrokenPipeError\n"
        "raise SystemExit(run_command(argparse.Namespace(command='x', func=boom)))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert (done.returncode, done.stderr) == (0, "")


def test_split_names_rejects_empty_items():
    assert split_names("P1, P2", "--targets") == ["P1", "P2"]
    with pytest.raises(InputError, match="--targets"):
        split_names("P1,,P2", "--targets")
    with pytest.raises(InputError, match="--targets"):
        split_names(" ", "--targets")


def test_to_jsonable_renders_fractions_as_strings():
    assert to_jsonable({"a": (Fraction(1, 3), Fraction(2))}) == {"a": ["1/3", "2"]}


def test_output_path_refuses_existing_files_bad_suffixes_and_missing_directories(tmp_path):
    from hetcoll.cli._common import output_path

    existing = tmp_path / "chart.png"
    existing.write_bytes(b"user data")
    assert output_path(None, False, "--gantt") is None
    assert output_path(str(tmp_path / "new.svg"), False, "--gantt") == tmp_path / "new.svg"
    assert output_path(str(existing), True, "--gantt") == existing
    with pytest.raises(InputError, match=r"^--gantt .*chart\.png exists; add --force"):
        output_path(str(existing), False, "--gantt")
    with pytest.raises(InputError, match=r"--export .*a\.txt: use a \.lp or \.mps file name"):
        output_path(str(tmp_path / "a.txt"), False, "--export", (".lp", ".mps"))
    with pytest.raises(InputError, match=r"--plot .*: directory .*nowhere does not exist"):
        output_path(str(tmp_path / "nowhere" / "p.png"), False, "--plot")
    with pytest.raises(InputError, match="--plot .* is a directory"):
        output_path(str(tmp_path), True, "--plot")
    assert existing.read_bytes() == b"user data"


@pytest.mark.parametrize("argv", [
    ["lp", "reduce", "examples/two_processor.json", "--plot", "{missing}/u.png"],
    ["schedule", "reduce", "examples/two_processor.json", "--gantt", "{missing}/g.png"],
    ["simulate", "tree-dyn", "--costs", "examples/costs/heterogeneous_5.json", "--gantt",
     "{missing}/g.png"],
    ["optimum", "--costs", "examples/costs/heterogeneous_5.json", "--gantt", "{missing}/g.png"],
    ["markov", "tree-dyn", "--n", "3", "--plot", "{missing}/m.png"],
])
def test_every_output_option_checks_its_directory_first(tmp_path, capsys, argv):
    from hetcoll.cli import main

    missing = tmp_path / "missing"
    assert main([a.format(missing=missing) for a in argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"directory {missing} does not exist" in err


IMAGE_OPTIONS = [
    ["lp", "reduce", "examples/two_processor.json", "--plot", "{name}"],
    ["schedule", "reduce", "examples/two_processor.json", "--gantt", "{name}"],
    ["simulate", "tree-dyn", "--costs", "examples/costs/heterogeneous_5.json", "--gantt", "{name}"],
    ["optimum", "--costs", "examples/costs/heterogeneous_5.json", "--gantt", "{name}"],
    ["markov", "tree-dyn", "--n", "3", "--plot", "{name}"],
]


@pytest.mark.parametrize("argv", IMAGE_OPTIONS)
@pytest.mark.parametrize(("file_name", "shown"), [("chart.xyz", "'.xyz'"),
                                                  ("chart", "(no extension)")])
def test_every_image_option_refuses_unknown_formats(tmp_path, capsys, monkeypatch, argv,
                                                    file_name, shown):
    from hetcoll.cli import main

    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    target = tmp_path / file_name
    assert main([a.format(name=target) for a in argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"unknown image format {shown}" in err
    assert not target.exists()


@pytest.mark.parametrize("argv", IMAGE_OPTIONS)
def test_every_image_option_writes_a_pdf(tmp_path, capsys, monkeypatch, argv):
    from hetcoll.cli import main

    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    target = tmp_path / "chart.pdf"
    assert main([a.format(name=target) for a in argv]) == 0
    assert target.read_bytes()[:5] == b"%PDF-"


def test_resolve_scenario_takes_the_kind_explicitly():
    from argparse import Namespace
    from types import SimpleNamespace

    from hetcoll.cli._common import resolve_scenario

    platform = SimpleNamespace(scatter_defaults=None,
                               reduce_defaults={"participants": ["P0", "P1"], "target": "P0"})
    blank = {"source": None, "targets": None, "participants": None, "target": None}
    args = Namespace(platform="p.json", **blank)
    assert resolve_scenario(args, platform, "reduce") == (["P0", "P1"], "P0")
    with pytest.raises(InputError, match="p.json has no default scatter scenario: give "
                                         "--source and --targets"):
        resolve_scenario(args, platform, "scatter")
    args = Namespace(platform="p.json", **(blank | {"source": "S", "targets": "A, B"}))
    assert resolve_scenario(args, platform, "scatter") == ("S", ["A", "B"])
    args = Namespace(platform="p.json", **(blank | {"target": "P1"}))
    with pytest.raises(InputError, match="--participants is required with --target"):
        resolve_scenario(args, platform, "reduce")


def test_lp_and_schedule_share_the_scenario_options(capsys):
    from hetcoll.cli import main

    for command in ("lp", "schedule"):
        assert main([command, "scatter", "examples/two_processor.json", "--targets", "P1"]) == 2
        assert "--source is required with --targets" in capsys.readouterr().err
