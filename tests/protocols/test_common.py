"""The protocols' shared helpers: vertices, colours, scores, a game with explicit passes."""

from __future__ import annotations

import pytest

from reversi_tui.engine import PASS, Color, IllegalMoveError, NotationError, parse_square
from reversi_tui.protocols.common import (
    PlayedGame,
    disc_score,
    parse_color,
    parse_vertex,
    vertex_name,
)
from tests.protocols.helpers import moves_to_a_pass


def test_vertices_read_in_any_case_and_are_written_in_capitals() -> None:
    for text in ("d3", "D3"):
        assert parse_vertex(text) == parse_square("d3")
    for text in ("pass", "PASS", "PA", "pa"):
        assert parse_vertex(text) == PASS
    assert vertex_name(parse_square("h8")) == "H8"
    assert vertex_name(PASS) == "pass" and vertex_name(PASS, "PA") == "PA"
    for bad in ("i1", "a9", "", "d33"):
        with pytest.raises(NotationError):
            parse_vertex(bad)


def test_colours_and_scores() -> None:
    assert parse_color("B") is parse_color("black") is Color.BLACK
    assert parse_color("WHITE") is parse_color("w") is Color.WHITE
    with pytest.raises(NotationError):
        parse_color("red")
    assert [disc_score(40, 24), disc_score(20, 44), disc_score(32, 32)] == ["B+16", "W+24", "0"]


def test_a_pass_is_played_when_told_or_implied_and_undone_with_its_move() -> None:
    moves, position = moves_to_a_pass()
    game = PlayedGame()
    for move in moves:
        game.play(move)
    assert game.position == position
    with pytest.raises(IllegalMoveError):  # the side to move has no move at all
        game.play(position.pass_turn().legal_moves[0], position.turn)
    reply = position.pass_turn().legal_moves[0]
    game.play(reply, position.turn.opponent)
    assert game.moves[-2:] == [PASS, reply]
    assert game.undo() and game.moves == moves
    game.play(PASS)
    assert game.position == position.pass_turn()
    with pytest.raises(IllegalMoveError):
        game.play(PASS)  # the other side has a move


def test_a_move_out_of_turn_is_refused() -> None:
    game = PlayedGame()
    with pytest.raises(IllegalMoveError):
        game.play(parse_square("f5"), Color.WHITE)
    assert not game.undo()
