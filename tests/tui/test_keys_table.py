"""Each key described once: the screens' keys, the help and the README agree with tui/keys.py."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from textual.binding import Binding
from textual.screen import Screen

from reversi_tui.tui import keys
from reversi_tui.tui.commands import game_commands
from reversi_tui.tui.keys import GAME_COMMANDS, GAME_HELP, KeyAction, help_rows
from reversi_tui.tui.screens.game import GameScreen
from reversi_tui.tui.screens.help import KEYS, REVIEW_KEYS
from reversi_tui.tui.screens.lobby import LobbyScreen
from reversi_tui.tui.screens.online_game import OnlineGameScreen
from reversi_tui.tui.widgets.board import Board

README = Path(__file__).resolve().parents[2] / "README.md"

#: Every action in the table.
TABLE: tuple[KeyAction, ...] = tuple(
    value for value in vars(keys).values() if isinstance(value, KeyAction)
)
SCREENS: tuple[type[Screen[Any]], ...] = (GameScreen, OnlineGameScreen, LobbyScreen)


def _bindings(screen: type[Screen[Any]]) -> list[Binding]:
    """The screen's own bindings and those of the project's screens it extends."""
    found: list[Binding] = []
    for cls in screen.__mro__:
        if cls.__module__.startswith("reversi_tui.") and "BINDINGS" in vars(cls):
            found += [b for b in vars(cls)["BINDINGS"] if isinstance(b, Binding)]
    return found


def _method(action: str) -> str:
    return "action_" + action.partition("(")[0]


@pytest.mark.parametrize("screen", SCREENS, ids=lambda s: s.__name__)
def test_every_bound_action_of_a_screen_is_in_the_table(screen: type[Screen[Any]]) -> None:
    table = {a.action for a in TABLE if a.action}
    bound = {b.action for b in _bindings(screen)}
    assert bound, screen
    assert bound <= table, bound - table


@pytest.mark.parametrize("screen", SCREENS, ids=lambda s: s.__name__)
def test_every_action_method_reached_by_a_key_is_in_the_table(
    screen: type[Screen[Any]],
) -> None:
    bound = {_method(b.action) for b in _bindings(screen)}
    defined = {
        name
        for cls in screen.__mro__
        if cls.__module__.startswith("reversi_tui.")
        for name in vars(cls)
        if name.startswith("action_")
    }
    table = {a.method for a in TABLE if a.action}
    reached = defined & bound
    assert reached, screen
    assert reached <= table, reached - table
    # And the other way: every key the screen binds runs a method it has.
    assert bound <= defined, bound - defined


def test_the_online_game_binds_only_its_own_keys() -> None:
    """No hidden bindings of local play's keys, and no actions overridden to refuse them."""
    assert {b.action for b in _bindings(OnlineGameScreen)} == {
        a.action for a in keys.ONLINE_GAME_KEYS
    }
    for action in keys.LOCAL_ONLY_KEYS:
        assert not hasattr(OnlineGameScreen, action.method), action


def test_each_local_only_key_says_why_not_online() -> None:
    """A key of local play pressed online is the online screen's or the board's own,
    or the status line says why it does nothing there (u and U only step in review)."""
    bound = {b.key for b in Binding.make_bindings([*_bindings(OnlineGameScreen), *Board.BINDINGS])}
    for action in keys.LOCAL_ONLY_KEYS:
        for binding in Binding.make_bindings([action.binding()]):
            assert binding.key in bound or binding.key in OnlineGameScreen.KEYS_ELSEWHERE, (
                action,
                binding.key,
            )


def test_the_help_is_generated_from_the_table() -> None:
    assert help_rows(GAME_HELP) == KEYS
    assert help_rows(keys.REVIEW_HELP) == REVIEW_KEYS
    described = [row for row, _ in KEYS + REVIEW_KEYS]
    assert len(described) == len(set(described))


def test_every_palette_command_is_in_the_table_and_runs_a_screen_method() -> None:
    for action in (*GAME_COMMANDS, keys.QUIT):
        assert action.command and action.command_help, action
        if action is not keys.HELP:
            assert hasattr(GameScreen, action.method), action

    class Screenish:
        """Stands in for the game screen: each method is its own name."""

        def __getattr__(self, name: str) -> str:
            return name

    made = list(game_commands(Screenish()))  # type: ignore[arg-type]
    assert [c.name for c in made] == [a.command for a in GAME_COMMANDS]
    assert [str(c.run) for c in made[:-1]] == [a.method for a in GAME_COMMANDS[:-1]]


def test_the_palette_over_an_online_game_offers_only_what_it_has() -> None:
    online = OnlineGameScreen.__new__(OnlineGameScreen)  # the methods are all it needs
    assert [c.name for c in game_commands(online)] == [keys.COPY_MOVES.command, keys.HELP.command]
    local = GameScreen.__new__(GameScreen)
    assert [c.name for c in game_commands(local)] == [a.command for a in GAME_COMMANDS]


#: A key as the help and the README write it: one character, a range (a-h),
#: a named key or a combination.
_KEY = re.compile(r"^(\S|\S-\S|(Ctrl|Shift)\+\S+|Enter|Space|Tab|Esc|Home|End|Left|Right|arrows)$")


def _key_tokens(text: str) -> set[str]:
    words = re.split(r"[\s,/]+", text.replace("`", ""))
    return {word for word in words if _KEY.match(word) and word not in {"a", "e.g."}}


def _readme_key_rows() -> list[str]:
    """The first cell of each row of the README's "keys | what they do" tables."""
    rows: list[str] = []
    in_table = False
    for line in README.read_text(encoding="utf-8").splitlines():
        if line.startswith("| keys | what they do |"):
            in_table = True
            continue
        if not line.startswith("|"):
            in_table = False
            continue
        if in_table and not line.startswith("|---"):
            rows.append(line.split("|")[1].strip())
    return rows


def test_the_readme_key_tables_list_the_game_screen_keys() -> None:
    rows = _readme_key_rows()
    assert len(rows) >= 10
    readme = set().union(*(_key_tokens(row) for row in rows))
    table = set().union(*(_key_tokens(keys_) for keys_, _ in help_rows(GAME_HELP)))
    assert readme == table, (sorted(readme - table), sorted(table - readme))
