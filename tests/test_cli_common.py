import subprocess
import sys
from fractions import Fraction

import pytest

from hetcoll.cli import build_parser
from hetcoll.cli._common import split_names, to_jsonable
from hetcoll.errors import InputError


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
