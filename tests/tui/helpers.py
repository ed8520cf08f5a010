"""Shared helpers for the TUI tests: an app with stand-in computers, and waiting on it.

The real engine is CPU-bound pure Python; with it running, every Pilot press
waits for the app to go idle. The stand-ins (``tests/fakes.py``) answer at once
or when a test releases them, so the tests exercise the app's orchestration,
not the search.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from textual.pilot import Pilot

from reversi_tui.engine import Game, Position, parse_position, parse_square
from reversi_tui.engine.ai.result import SearchResult
from reversi_tui.engine.notation import parse_move_list
from reversi_tui.match import MatchSettings, MatchState
from reversi_tui.match.sources import MoveSource
from reversi_tui.tui.app import ReversiApp
from reversi_tui.tui.screens.game import GameScreen
from reversi_tui.tui.widgets.board import Board

from ..fakes import fake_sources, spec_of
from ..timing import patience

#: White to move; a1 flips so much that Black must pass afterwards.
PASS_FOLLOWS = "-XOOO----OOO-X--OOOXX------XXX-----XXX----XXXXXX--XXXXX--OOO---- O"
#: Black to move with one empty square (b8): the move ends the game 34-30 for Black.
LAST_MOVE = "XOOOOOOOXOOXOXXOXOXOXOXOXOXOOXXOXOXXOXXOXOXXXOXOXOOOOXXOX-OOOOXO X"


def quick_advisor(position: Position, should_stop: Callable[[], bool]) -> SearchResult:
    return SearchResult(position.legal_moves[-1], 4.0, 3, 100, 0.01)


def make_app(
    black: MoveSource | None = None,
    white: MoveSource | None = None,
    *,
    start: str | None = None,
    moves: str | None = None,
    **kwargs: object,
) -> ReversiApp:
    """Humans where no source is given; new games get fresh stand-ins. ``start`` is a
    position to start from, ``moves`` a move list (``f5d6...``) already played."""
    settings = MatchSettings(spec_of(black), spec_of(white))
    kwargs.setdefault("advisor", quick_advisor)
    kwargs.setdefault("delay", 0.0)
    kwargs.setdefault("reply_delay", 0.0)
    return ReversiApp(
        settings,
        make_source=fake_sources(black, white),
        game=(
            Game.from_moves(None, parse_move_list(moves))
            if moves
            else Game(parse_position(start))
            if start
            else None
        ),
        **kwargs,  # type: ignore[arg-type]
    )


def ui(app: ReversiApp) -> GameScreen:
    return app.game_screen


async def wait_until(pilot: Pilot[int], condition: Callable[[], bool], limit: float = 5.0) -> None:
    """Let the app run until ``condition`` holds (a worker thread reached a state), at most
    ``limit`` seconds (scaled by the time factor)."""
    deadline = time.monotonic() + patience(limit)
    while not condition():
        assert time.monotonic() < deadline, "the app never reached the expected state"
        await pilot.pause(0.01)


async def settle(app: ReversiApp, pilot: Pilot[int]) -> None:
    """Wait until the match waits for a person (or is over or paused) and no hint runs."""
    screen = ui(app)

    def idle() -> bool:
        match = screen.match
        hint_busy = any(w.group == "hint" and not w.is_finished for w in screen.workers)
        waiting = match.state is not MatchState.READY and not match.thinking
        return waiting and not hint_busy

    await wait_until(pilot, idle)
    await pilot.pause()


def cell_offset(board: Board, square: str) -> tuple[int, int]:
    """A click offset (from the widget's outer edge) in the middle of a square."""
    geo = board.geometry
    x, y = geo.cell_origin(parse_square(square))
    return x + geo.cell_w // 2, y + geo.cell_h // 2
