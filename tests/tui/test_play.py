"""Playing through the app: keyboard, mouse, passes, undo/redo and the computer's turn."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable

from textual.pilot import Pilot
from textual.worker import WorkerCancelled

from reversi_tui.engine import PASS, Color, Position, parse_position, parse_square
from reversi_tui.tui.app import ReversiApp
from reversi_tui.tui.screens.game_over import GameOverScreen
from reversi_tui.tui.widgets.board import Board

from .helpers import LAST_MOVE, PASS_FOLLOWS, FirstMove, Gated, make_app


async def settle(app: ReversiApp, pilot: Pilot) -> None:
    """Wait until every worker is done and the messages they posted are handled."""
    with contextlib.suppress(WorkerCancelled):
        await app.workers.wait_for_complete()
    await pilot.pause()


async def wait_until(pilot: Pilot, condition: Callable[[], bool], limit: float = 5.0) -> None:
    """Let the app run until ``condition`` holds (a worker thread reached a state)."""
    deadline = time.monotonic() + limit
    while not condition():
        assert time.monotonic() < deadline, "the app never reached the expected state"
        await pilot.pause(0.01)


def cell_offset(board: Board, square: str) -> tuple[int, int]:
    """A click offset (from the widget's outer edge) in the middle of a square."""
    geo = board.geometry
    x, y = geo.cell_origin(parse_square(square))
    return x + geo.cell_w // 2, y + geo.cell_h // 2


async def test_whole_game_keyboard_only_against_the_computer() -> None:
    """Tab and Enter alone play a full game; the result dialog opens on Review board."""
    app = make_app(white=FirstMove())
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(70):
            if app.game.is_over:
                break
            await pilot.press("tab", "enter")
            await settle(app, pilot)
        assert app.game.is_over
        assert isinstance(app.screen, GameOverScreen)
        assert app.screen.focused is not None and app.screen.focused.id == "review"
        await pilot.press("enter")
        assert app.reviewing
        plies = len(app.game.plies)
        await pilot.press("u")  # in review, undo walks back one move at a time
        assert len(app.game.plies) < plies
        assert not app.thinking
        await pilot.press("U")
        assert len(app.game.plies) == plies
        assert not isinstance(app.screen, GameOverScreen)


async def test_enter_plays_at_cursor_and_updates_sidebar() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        assert app.board.cursor == parse_square("d3")
        await pilot.press("enter")
        assert app.game.moves == [parse_square("d3")]
        assert "d3" in app.sidebar.query_one("#moves-text").render().plain
        assert app.status == "Black played d3."


async def test_cursor_keys_and_typed_coordinates() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        board = app.board
        await pilot.press("down", "l", "right", "k", "up", "left")
        assert board.cursor == parse_square("e2")
        await pilot.press("f", "6")
        assert board.cursor == parse_square("f6")
        await pilot.press("h")  # moves left at once ...
        assert board.cursor == parse_square("e6")
        await pilot.press("5")  # ... and a digit right after makes it column h
        assert board.cursor == parse_square("h5")
        await pilot.press("c")
        column, _ = board._pending_column or (0, 0.0)
        board._pending_column = (column, 0.0)  # typed long ago: the digit no longer counts
        await pilot.press("2")
        assert board.cursor == parse_square("h5")


async def test_tab_cycles_legal_moves() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        seen = []
        for _ in range(4):
            await pilot.press("tab")
            seen.append(app.board.cursor)
        assert sorted(seen) == sorted(Position.initial().legal_moves)
        await pilot.press("shift+tab")
        assert app.board.cursor == seen[-2]


async def test_mouse_click_plays_a_legal_square() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.click(Board, offset=cell_offset(app.board, "f5"))
        assert app.game.moves == [parse_square("f5")]


async def test_click_on_illegal_square_says_why() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.click(Board, offset=cell_offset(app.board, "a1"))
        assert app.game.moves == []
        assert "a1 flips nothing" in app.status
        await pilot.click(Board, offset=cell_offset(app.board, "d4"))
        assert "d4 is taken" in app.status


async def test_hover_moves_cursor_and_previews_flips() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.hover(Board, offset=cell_offset(app.board, "d3"))
        assert app.board.cursor == parse_square("d3")
        assert app.board.preview == 1 << parse_square("d4")
        await pilot.hover(Board, offset=cell_offset(app.board, "a8"))
        assert app.board.preview == 0


async def test_forced_pass_is_announced_and_listed() -> None:
    app = make_app(start=PASS_FOLLOWS)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.click(Board, offset=cell_offset(app.board, "a1"))
        assert app.game.moves == [parse_square("a1"), PASS]
        assert "Black has no legal move and passes." in app.status
        assert any("passes" in n.message for n in app._notifications)
        assert "pass" in app.sidebar.query_one("#moves-text").render().plain
        assert app.game.turn is Color.WHITE


async def test_undo_takes_back_the_computers_reply_and_redo_replays_it() -> None:
    computer = FirstMove()
    app = make_app(white=computer)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await settle(app, pilot)
        assert len(app.game.plies) == 2
        await pilot.press("u")
        assert app.game.plies == ()
        assert app.game.turn is Color.BLACK
        await pilot.press("U")
        assert len(app.game.plies) == 2
        await pilot.press("u", "ctrl+r")
        assert len(app.game.plies) == 2
        assert computer.searches == 1


async def test_undo_cancels_a_search_in_progress() -> None:
    computer = Gated()
    app = make_app(white=computer)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        assert app.thinking
        await pilot.press("u")
        assert not app.thinking
        assert app.game.plies == ()
        computer.gate.set()
        await settle(app, pilot)
        assert app.game.plies == ()


async def test_computer_move_arrives_while_the_user_moves_the_cursor() -> None:
    computer = Gated()
    app = make_app(white=computer)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        assert app.thinking
        await pilot.press("down", "down", "right", "enter")
        assert "Wait" in app.status
        cursor = app.board.cursor
        computer.gate.set()
        await settle(app, pilot)
        await pilot.press("left")
        assert not app.thinking
        assert len(app.game.plies) == 2
        assert app.board.cursor == cursor - 1
        assert app.status.startswith("White played")


async def test_hint_moves_the_cursor_without_playing() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("i")
        await settle(app, pilot)
        assert app.game.plies == ()
        assert app.board.cursor == Position.initial().legal_moves[-1]
        assert app.status.startswith("Hint: e6")


async def test_computer_versus_computer_pauses_with_space() -> None:
    white = Gated()
    app = make_app(FirstMove(), white)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, white.started.is_set)
        assert len(app.game.plies) == 1  # black moved, white is thinking
        await pilot.press("space")
        assert app.paused and not app.thinking
        assert app.status == "Paused: Space resumes."
        await pilot.press("space")
        assert not app.paused and app.thinking
        white.gate.set()
        await wait_until(pilot, lambda: len(app.game.plies) >= 3)


async def test_last_move_ends_the_game_with_the_result() -> None:
    app = make_app(start=LAST_MOVE)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        assert app.game.is_over
        assert isinstance(app.screen, GameOverScreen)
        text = app.screen.query_one("#headline").render().plain
        assert text == "Black wins!"
        details = app.screen.query_one("#details").render().plain
        assert "Black 34, White 30" in details
        assert parse_position(LAST_MOVE).turn is Color.BLACK
