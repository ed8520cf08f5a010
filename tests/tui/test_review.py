"""Review keeps the shown move in view in the sidebar's move list, at every size."""

from __future__ import annotations

import pytest

from reversi_tui.engine import Game
from reversi_tui.tui.app import ReversiApp
from reversi_tui.tui.screens.game_over import GameOverScreen
from reversi_tui.tui.widgets.sidebar import MoveList, move_text

from .helpers import make_app, settle, ui, wait_until


def full_game() -> Game:
    """A game played to its end (60 moves), each side taking its first legal move."""
    game = Game()
    while not game.is_over:
        game.play(game.legal_moves[0])
    return game


def shown_row_in_view(app: ReversiApp) -> bool:
    screen = ui(app)
    moves = screen.sidebar.query_one(MoveList)
    assert screen.review is not None
    _, row = move_text(screen.game.plies, screen.review.index)
    return moves.scroll_y <= row < moves.scroll_y + moves.scrollable_content_region.height


@pytest.mark.parametrize("size", [(69, 20), (80, 24), (120, 40)])
async def test_review_opens_with_the_last_move_in_view(size: tuple[int, int]) -> None:
    """Issue 17: "reviewing 56/56" while the move list ended at move 55."""
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        ui(app).play_on(full_game())
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await pilot.press("r")
        await wait_until(pilot, lambda: ui(app).reviewing)
        await pilot.pause()
        await wait_until(pilot, lambda: shown_row_in_view(app))
        for key in ("home", "right", "end", "left", "left"):
            await pilot.press(key)
            await wait_until(pilot, lambda: shown_row_in_view(app))


async def test_the_shown_move_stays_in_view_when_the_list_shrinks() -> None:
    app = make_app()
    async with app.run_test(size=(80, 30)) as pilot:
        await settle(app, pilot)
        ui(app).play_on(full_game())
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await pilot.press("r")
        await wait_until(pilot, lambda: shown_row_in_view(app))
        await pilot.resize_terminal(80, 22)
        await wait_until(pilot, lambda: shown_row_in_view(app))
