"""Every command's options and ``--help`` are what they were when each command came
to declare its own options (issue 17, item 10).

``tests/data/cli_help.json`` was written by ``describe_cli()`` from the code as it was
before: ``reversi --help``, each ``reversi CMD --help`` and ``reversi bench KIND --help``
at 80 columns, and for each parser its options (names, destination, default, type,
choices, metavar, help, required) and its groups of mutually exclusive options.
To accept a deliberate change: ``python tests/test_cli_help.py > tests/data/cli_help.json``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from reversi_tui.cli import build_parser, main

FROZEN = Path(__file__).parent / "data" / "cli_help.json"
#: Every command and subcommand there is.
COMMANDS = (
    "reversi",
    "reversi move",
    "reversi solve",
    "reversi arena",
    "reversi engine",
    "reversi online",
    "reversi serve",
    "reversi convert",
    "reversi history",
    "reversi analyse",
    "reversi bench",
    "reversi bench perft",
    "reversi bench solve",
    "reversi bench eval",
    "reversi bench search",
    "reversi bench tui",
    "reversi bench online",
    "reversi bench fuzz",
    "reversi train",
    "reversi train generate",
    "reversi train fit",
    "reversi train centre",
    "reversi train book",
    "reversi train probcut",
)


def _commands(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> list[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    found = [(path, parser)]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found += _commands(sub, (*path, name))
    return found


def _action(action: argparse.Action) -> dict[str, Any]:
    kind = action.type
    return {
        "options": list(action.option_strings),
        "dest": action.dest,
        "action": type(action).__name__,
        "nargs": action.nargs,
        "default": repr(action.default),
        # A type's name, public or not: ``_think_seconds`` moved to commands/options.py.
        "type": None if kind is None else getattr(kind, "__name__", repr(kind)).lstrip("_"),
        "choices": None if action.choices is None else sorted(map(str, action.choices)),
        "metavar": action.metavar,
        "required": action.required,
        "help": action.help,
    }


def _help(path: tuple[str, ...]) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        main([*path, "--help"])
    return out.getvalue()


def describe_cli() -> dict[str, Any]:
    """What the command line offers, command by command (``COLUMNS`` must be 80)."""
    described: dict[str, Any] = {}
    for path, parser in _commands(build_parser()):
        described[" ".join(("reversi", *path))] = {
            "help": _help(path).splitlines(),
            "options": [_action(a) for a in parser._actions],
            "exclusive": [
                [a.dest for a in group._group_actions]
                for group in parser._mutually_exclusive_groups
            ],
            # The handler a command's module names (``add_parser``) is not an option.
            "set_defaults": {
                k: repr(v) for k, v in sorted(parser._defaults.items()) if k != "handler"
            },
        }
    return described


@pytest.fixture
def frozen(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    monkeypatch.setenv("COLUMNS", "80")
    result: dict[str, Any] = json.loads(FROZEN.read_text(encoding="utf-8"))
    for command in result.values():
        for option in command["options"]:
            option["type"] = option["type"] and option["type"].lstrip("_")
    return result


def test_the_same_commands(frozen: dict[str, Any]) -> None:
    assert list(describe_cli()) == list(frozen) == list(COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_each_command_prints_the_same_help_and_takes_the_same_options(
    frozen: dict[str, Any], command: str
) -> None:
    now = describe_cli()[command]
    before = frozen[command]
    assert now["help"] == before["help"]
    assert [o["options"] or [o["dest"]] for o in now["options"]] == [
        o["options"] or [o["dest"]] for o in before["options"]
    ]
    assert now == before


def test_every_command_has_its_handler() -> None:
    """Named by its module's ``add_parser`` (``set_defaults(handler=...)``)."""
    for path, parser in _commands(build_parser()):
        if path in ((), ("bench",), ("train",)):
            continue
        assert callable(parser._defaults.get("handler")), path


def test_building_the_parser_imports_no_command_s_machinery() -> None:
    """The command modules stay light: Textual, the server, the search, the endgame
    tables and Rich load when a command runs, not to read the options."""
    code = (
        "import sys; from reversi_tui.cli import build_parser; build_parser(); "
        "heavy = ['textual', 'rich', 'reversi_tui.net.server', 'reversi_tui.engine.ai.search', "
        "'reversi_tui.engine.ai.endgame', 'reversi_tui.tui', 'reversi_tui.training', 'numpy']; "
        "print([m for m in heavy if m in sys.modules])"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_a_changed_help_line_is_caught(frozen: dict[str, Any]) -> None:
    """The comparison can fail: one word of one help line changed is seen."""
    parser = build_parser()
    parser._actions[-1].help = "something else"
    assert [_action(a) for a in parser._actions] != frozen["reversi"]["options"]


if __name__ == "__main__":
    os.environ["COLUMNS"] = "80"
    json.dump(describe_cli(), sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")


def test_the_line_mode_s_help_shows_a_move_and_says_rows_are_letters() -> None:
    """``RowCol`` alone told a newcomer nothing: the help shows a move in it."""
    plain = next(a for a in build_parser()._actions if "--plain" in a.option_strings)
    assert plain.help is not None
    assert "cd is d3" in plain.help
    assert "the row as a letter (a-h for rows 1-8)" in plain.help
