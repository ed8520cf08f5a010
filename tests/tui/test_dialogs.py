"""Dialogs: new game, quit confirmation, help, and the too-small terminal."""

from __future__ import annotations

from textual.widgets import Select

from reversi_tui.engine import Color, parse_square
from reversi_tui.match import MatchSettings, PlayerSpec
from reversi_tui.tui.app import ReversiApp
from reversi_tui.tui.screens.confirm import ConfirmScreen
from reversi_tui.tui.screens.game_over import GameOverScreen
from reversi_tui.tui.screens.help import HelpScreen
from reversi_tui.tui.screens.new_game import NewGameScreen
from reversi_tui.tui.widgets.board import Board
from reversi_tui.tui.widgets.too_small import TooSmall

from ..fakes import fake_sources
from .helpers import LAST_MOVE, make_app, settle, ui


async def test_new_game_cancel_keeps_the_game() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        game = ui(app).game
        await pilot.press("n")
        assert isinstance(app.screen, NewGameScreen)
        assert app.screen.focused is not None and app.screen.focused.id == "black"
        assert "ends the current game" in app.screen.query_one("#new-game-note").render().plain
        await pilot.press("n")
        assert not isinstance(app.screen, NewGameScreen)
        assert ui(app).game is game and len(game.plies) == 1
        await pilot.press("n", "escape")
        assert ui(app).game is game


async def test_new_game_confirm_with_chosen_players_and_handicap() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await pilot.click("#new-game")
        assert isinstance(app.screen, NewGameScreen)
        app.screen.query_one("#white", Select).value = "human"
        app.screen.query_one("#handicap", Select).value = 2
        app.screen.query_one("#handicap-colour", Select).value = Color.WHITE
        await pilot.press("y")
        assert not isinstance(app.screen, NewGameScreen)
        assert ui(app).game.plies == ()
        assert ui(app).match.settings.white == PlayerSpec.human()
        assert ui(app).match.sources[Color.WHITE].takes_local_input
        assert ui(app).game.position.count(Color.WHITE) == 4
        assert ui(app).status.startswith("New game")


async def test_new_game_against_the_computer_as_white() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        app.screen.query_one("#black", Select).value = "easy"
        app.screen.query_one("#white", Select).value = "human"
        await pilot.press("y")
        await settle(app, pilot)
        assert len(ui(app).game.plies) == 1  # the computer opened as black
        assert ui(app).game.turn is Color.WHITE


async def test_quit_asks_during_a_game() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "q")
        assert isinstance(app.screen, ConfirmScreen)
        assert app.screen.focused is not None and app.screen.focused.id == "no"
        await pilot.press("n")
        assert not isinstance(app.screen, ConfirmScreen)
        assert app.is_running
        await pilot.press("q", "y")
        await pilot.pause()
        assert app.return_value == 0


async def test_quit_at_once_before_any_move() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("q")
        await pilot.pause()
        assert app.return_value == 0


async def test_help_opens_and_closes() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = app.screen.query_one("#keys").render()
        assert text is not None
        await pilot.press("question_mark")
        assert not isinstance(app.screen, HelpScreen)
        await pilot.press("question_mark", "escape")
        assert not isinstance(app.screen, HelpScreen)
        assert isinstance(app.focused, Board)


async def test_too_small_terminal_then_resized_back() -> None:
    app = make_app()
    async with app.run_test(size=(60, 16)) as pilot:
        await pilot.pause()
        assert app.query_one(TooSmall).display
        assert not app.query_one("#main").display
        assert "Please enlarge the terminal" in app.query_one(TooSmall).render()
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not app.query_one(TooSmall).display
        assert app.query_one("#main").display
        await pilot.press("enter")
        assert len(ui(app).game.plies) == 1


async def test_quit_from_the_game_over_dialog_quits_at_once() -> None:
    app = make_app(start=LAST_MOVE)
    async with app.run_test(size=(80, 24)) as pilot:
        ui(app).board.cursor = parse_square("b8")
        await pilot.press("enter")
        assert isinstance(app.screen, GameOverScreen)
        await pilot.click("#quit")  # a finished game loses nothing: no second question
        await pilot.pause()
        assert not any(isinstance(s, ConfirmScreen) for s in app.screen_stack)
        assert app.return_value == 0


async def test_new_game_after_the_game_over_dialog_needs_no_warning() -> None:
    app = make_app(start=LAST_MOVE)
    async with app.run_test(size=(80, 24)) as pilot:
        ui(app).board.cursor = parse_square("b8")
        await pilot.press("enter")
        assert isinstance(app.screen, GameOverScreen)
        await pilot.press("escape")
        assert ui(app).reviewing
        await pilot.press("n")
        assert isinstance(app.screen, NewGameScreen)
        assert "ends the current game" not in app.screen.query_one("#new-game-note").render().plain


async def test_a_computer_chosen_in_the_dialog_keeps_the_think_time_option() -> None:
    settings = MatchSettings(PlayerSpec.human(), PlayerSpec.computer("medium", think_time=2.0))
    app = ReversiApp(settings, make_source=fake_sources(), delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        app.screen.query_one("#black", Select).value = "easy"
        app.screen.query_one("#white", Select).value = "human"
        await pilot.press("y")
        assert ui(app).match.settings.black == PlayerSpec.computer("easy", think_time=2.0)
        assert ui(app).match.settings.white == PlayerSpec.human()
