"""The command line: help, argument errors and the perft benchmark."""

import subprocess
import sys

import pytest

from reversi_tui.cli import build_parser, main


def reversi(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "reversi_tui", *args],
        input=stdin.decode(),
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_help_lists_every_option_and_command() -> None:
    text = build_parser().format_help()
    for flag in (
        "--plain",
        "--black",
        "--white",
        "--handicap",
        "--handicap-colour",
        "--think-time",
        "--seed",
        "--delay",
        "--ascii",
        "--no-mouse",
        "--theme",
    ):
        assert flag in text
    for command in ("move", "solve", "arena", "bench"):
        assert command in text
    for level in ("easy", "medium", "hard", "expert"):
        assert level in text


@pytest.mark.parametrize(
    "args",
    [
        ["--black", "grandmaster"],
        ["--handicap", "5"],
        ["--handicap", "x"],
        ["--think-time", "-1"],
        ["--think-time", "nan"],
        ["--delay", "soon"],
        ["bench", "perft", "x"],
        ["bench"],
        ["arena", "--black", "hard"],
        ["no-such-command"],
    ],
)
def test_bad_arguments_give_usage_error_not_traceback(args: list[str]) -> None:
    done = reversi(*args)
    assert done.returncode == 2
    assert "error:" in done.stderr
    assert "Traceback" not in done.stderr


def test_bench_perft_prints_count_first(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "perft", "6"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "8200"
    assert "nodes/s" in lines[1]


def test_bench_perft_does_not_import_textual() -> None:
    code = (
        "import sys; from reversi_tui.cli import main; rc = main(['bench', 'perft', '4']); "
        "assert 'textual' not in sys.modules; sys.exit(rc)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "244"


def test_every_command_handler_exists() -> None:
    from importlib import import_module

    from reversi_tui.cli import _HANDLERS

    for key, target in _HANDLERS.items():
        module, _, name = target.partition(":")
        assert callable(getattr(import_module(module), name, None)), key
