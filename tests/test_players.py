import pytest

from reversi_tui.engine import Position
from reversi_tui.engine.ai import LEVELS
from reversi_tui.players import LEVEL_NAMES, PLAYER_CHOICES, Computer, Human, make_player


def test_level_names_match_the_ai() -> None:
    assert tuple(LEVELS) == LEVEL_NAMES
    assert ("human", *LEVELS) == PLAYER_CHOICES


def test_make_player() -> None:
    assert make_player("human").is_human
    computer = make_player("easy", think_time=0.05, seed=1)
    assert isinstance(computer, Computer)
    assert computer.label == "Computer (easy)"
    with pytest.raises(ValueError, match="unknown level"):
        make_player("grandmaster")


def test_computer_plays_a_legal_move() -> None:
    pos = Position.initial()
    assert make_player("easy", think_time=0.05, seed=2).choose_move(pos) in pos.legal_moves


def test_human_moves_come_from_the_front_end() -> None:
    with pytest.raises(RuntimeError):
        Human().choose_move(Position.initial())
