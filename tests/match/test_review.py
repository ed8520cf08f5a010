"""The review of a finished game as a value: steps skip passes, edges, words, the cut."""

from __future__ import annotations

import pytest

from reversi_tui.engine import PASS, Color, Game, Position, parse_square
from reversi_tui.engine.notation import parse_move_list
from reversi_tui.match.review import Review

#: White has no move after a8 (a forced pass) and Black's g2 ends the game.
PASS_GAME = "f5d6c7f3d3c6b6c2b1b7a8g2"


def finished() -> Game:
    game = Game.from_moves(None, parse_move_list(PASS_GAME))
    assert game.is_over
    return game


def test_a_review_opens_at_the_end_of_the_game() -> None:
    game = finished()
    review = Review.of(game)
    assert review.at_end and not review.at_start
    assert review.index == len(game.plies) == 13  # twelve discs and one pass
    assert review.position == game.position
    assert review.last_move == parse_square("g2")
    assert (review.moves_shown, review.total_moves) == (12, 12)
    assert review.status == "Move 12 of 12: Black g2."


def test_a_step_back_skips_a_forced_pass() -> None:
    game = finished()
    back = Review.of(game).step(-1)
    assert back.index == 12 and back.last_move == parse_square("a8")
    assert back.status == "Move 11 of 12: Black a8."
    again = back.step(1)
    assert again == Review.of(game)
    assert [p.move for p in again.changed(back)] == [parse_square("g2")]
    assert back.changed(again) == again.changed(back)
    # One more back: past White's forced pass to b7, in one step.
    before = back.step(-1)
    assert before.index == 10 and before.last_move == parse_square("b7")
    assert [p.move for p in back.changed(before)] == [parse_square("a8"), PASS]


def test_forward_over_a_pass_lands_after_it() -> None:
    review = Review.of(finished(), 10)  # b7 shown, a8 next
    forward = review.step(1)
    assert forward.index == 12  # a8 and White's pass after it
    assert forward.plies[11].move == PASS
    assert forward.last_move == parse_square("a8")
    assert forward.status == "Move 11 of 12: Black a8."


def test_edges_stay_where_they_are_and_say_so() -> None:
    game = finished()
    end = Review.of(game)
    assert end.step(1) is end
    assert end.edge(1) is end
    assert end.edge_status == "At the end of the game."
    start = end.edge(-1)
    assert start.at_start and start.position == game.start and start.last_move is None
    assert start.step(-1) is start
    assert start.edge_status == "At the start of the game."
    assert start.status == "The start position (0 of 12 moves)."


def test_the_start_position_counts_one_move_in_the_singular() -> None:
    game = Game.from_moves(None, parse_move_list("f5"))
    assert Review.of(game, 0).status == "The start position (0 of 1 move)."


def test_the_cut_plays_on_from_the_position_shown() -> None:
    game = finished()
    assert Review.of(game).cut() is None  # nothing to play on from at the end
    review = Review.of(game, 4)
    assert review.dropped == 8
    branch = review.cut()
    assert branch is not None and not branch.is_over
    assert branch.position == review.position and branch.move_list() == "f5d6c7f3"
    empty = Review.of(game, 0).cut()  # the start: a game with no move yet
    assert empty is not None and empty.plies == () and empty.start == game.start


def test_a_handicap_start_is_kept() -> None:
    game = Game.with_handicap(2, Color.WHITE)
    game.play(parse_square("f5"))
    review = Review.of(game, 0)
    assert review.position == game.start != Position.initial()
    branch = review.cut()
    assert branch is not None and branch.start == game.start


def test_an_index_outside_the_game_is_refused() -> None:
    game = finished()
    with pytest.raises(ValueError):
        Review.of(game, len(game.plies) + 1)
    with pytest.raises(ValueError):
        Review.of(game, -1)
