"""An external engine in the app (issue 19): its name and latest search line in the
sidebar; a failure is a dialog that offers the computer in its place, the game kept."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Select

from reversi_tui.engine import Color
from reversi_tui.match import MatchSettings, MatchState, PlayerKind, PlayerSpec
from reversi_tui.players import Computer
from reversi_tui.players.engine import EngineSource
from reversi_tui.protocols.process import wait_for_ended
from reversi_tui.tui.app import ReversiApp
from reversi_tui.tui.screens.confirm import ConfirmScreen
from reversi_tui.tui.screens.match_view import STAND_IN

from ..fake_engines import engine_command
from .helpers import wait_until


async def test_a_thinking_engine_shows_its_name_and_search_line(tmp_path: Path) -> None:
    engine = PlayerSpec.from_text(f"nboard:{engine_command(tmp_path, 'nboard', 'hang')}")
    app = ReversiApp(MatchSettings(engine, PlayerSpec.human()), delay=0.0, reply_delay=0.0)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.game_screen
        await wait_until(pilot, lambda: "depth 7" in screen._turn_text(), limit=15)
        assert screen._turn_text() == "Move 1 · Black thinking: depth 7  eval 1.50  pv F5"
        # One name everywhere: its label, never its command line.
        assert screen._labels()[Color.BLACK] == "NBoard engine (fake_engine.py)"
        source = screen.match.sources[Color.BLACK]
        assert isinstance(source, EngineSource)
        await app.game_screen.match.aclose()  # quitting ends the thinking engine
    await wait_for_ended()


async def test_a_failed_engine_is_a_dialog_and_the_computer_plays_on() -> None:
    missing = PlayerSpec.from_text("gtp:no-such-engine -l 5")
    app = ReversiApp(MatchSettings(missing, PlayerSpec.human()), delay=0.0, reply_delay=0.0)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.game_screen
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), limit=15)
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        assert dialog.title_text == "A player failed"
        assert dialog.question.startswith(
            "GTP engine (no-such-engine) cannot start: no-such-engine is not a program"
        )
        assert screen.match.state is MatchState.FAILED and not screen.match.is_over
        await pilot.press("y")
        await wait_until(pilot, lambda: screen.match.local_to_move, limit=30)
        assert screen.match.settings.black == STAND_IN
        assert isinstance(screen.match.sources[Color.BLACK], Computer)
        assert len(screen.match.game.plies) == 1  # the computer played Black's first move


async def test_the_new_game_dialog_lists_the_configured_engines() -> None:
    from reversi_tui.match.engine_config import EngineConfig
    from reversi_tui.records.memory import SettingsMemory
    from reversi_tui.records.settings_file import StoredSettings
    from reversi_tui.tui.screens.new_game import NewGameScreen

    rhino = EngineConfig(PlayerKind.GTP, ("gtp-rhino", "-l", "5"))
    memory = SettingsMemory(None, StoredSettings(engines={"Rhino": rhino}))
    by_command = PlayerSpec.from_text("gtp:edax -gtp")
    app = ReversiApp(
        MatchSettings(PlayerSpec.human(), by_command), delay=0.0, reply_delay=0.0, memory=memory
    )
    async with app.run_test(size=(100, 30)) as pilot:
        app.game_screen.match.pause()
        await pilot.press("n")
        await wait_until(pilot, lambda: isinstance(app.screen, NewGameScreen))
        dialog = app.screen
        assert isinstance(dialog, NewGameScreen)
        assert dialog.players[-2:] == (
            ("Engine - Rhino", "engine:Rhino"),
            ("GTP engine (edax)", "gtp:edax -gtp"),
        )
        black = dialog.query_one("#black", Select)
        black.value = "engine:Rhino"
        await pilot.pause()
        assert dialog.settings().black == PlayerSpec.from_text("engine:Rhino")
        await app.game_screen.match.aclose()
