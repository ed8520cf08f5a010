"""The copy of the moves (``m``) as words and clipboard text, without the app."""

from __future__ import annotations

from reversi_tui.engine import Color, Game
from reversi_tui.tui.move_copy import copy_moves


def copied(game: Game) -> tuple[list[str], str]:
    clipboard: list[str] = []
    return clipboard, copy_moves(game, clipboard.append, "...")


def test_no_moves_copies_nothing() -> None:
    clipboard, status = copied(Game())
    assert clipboard == [] and status == "No moves to copy yet."


def test_the_moves_are_copied_and_a_long_list_is_cut_in_the_status() -> None:
    game = Game()
    for _ in range(14):
        game.play(game.legal_moves[0])
    moves = game.move_list()
    clipboard, status = copied(game)
    assert len(moves) == 28 and game.start == Game().start
    assert clipboard == [moves]
    assert status.startswith(f"Copied the moves ({moves[:24]}...) to the clipboard")


def test_a_handicap_game_is_copied_with_its_start() -> None:
    game = Game.with_handicap(1, Color.BLACK)
    game.play(game.legal_moves[0])
    clipboard, status = copied(game)
    assert clipboard[0] != game.move_list() and clipboard[0].endswith(game.move_list())
    assert "the start position and the moves" in status
