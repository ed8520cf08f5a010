"""What the screens say: counts with the right noun (one disc, two discs) and scores
said one way everywhere (Black's first, the winner in words)."""

from __future__ import annotations

from reversi_tui.engine import Color, Outcome
from reversi_tui.match import Result
from reversi_tui.tui.screens.game import hint_words
from reversi_tui.tui.screens.game_over import result_text
from reversi_tui.tui.words import plural

from .helpers import LAST_MOVE, make_app, ui
from .test_game_screen import finish_last_move


def test_plural_counts_one_and_many() -> None:
    assert plural(1, "disc") == "1 disc"
    assert plural(0, "disc") == "0 discs"
    assert plural(2, "square") == "2 squares"
    assert plural(1, "loss", "losses") == "1 loss"
    assert plural(3, "loss", "losses") == "3 losses"


def test_one_empty_square_goes_to_the_winner() -> None:
    """Issue 17: "1 empty squares go to the winner."."""
    one = result_text(Result.from_board(Outcome(34, 29)))
    assert "1 empty square goes to the winner." in one
    two = result_text(Result.from_board(Outcome(34, 28)))
    assert "2 empty squares go to the winner." in two


def test_a_hint_worth_one_disc_says_disc() -> None:
    assert hint_words(1.2, False, Color.BLACK) == "about +1 disc for Black at the end (estimated)"
    assert hint_words(-1.0, False, Color.WHITE) == "about -1 disc for White at the end (estimated)"
    assert hint_words(0.0, False, Color.WHITE) == "about +0 discs for White at the end (estimated)"


async def test_review_of_a_one_move_game_says_one_move() -> None:
    app = make_app(start=LAST_MOVE)
    async with app.run_test(size=(80, 24)) as pilot:
        await finish_last_move(app, pilot)
        await pilot.press("r", "home")
        assert ui(app).status == "The start position (0 of 1 move)."
