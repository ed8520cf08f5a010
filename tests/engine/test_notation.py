import pytest

from reversi_tui.engine import (
    Color,
    NotationError,
    Position,
    format_position,
    parse_position,
    parse_rowcol,
    parse_square,
    rowcol_name,
    square_name,
)
from reversi_tui.engine.notation import format_move_list, parse_move_list

START = "---------------------------OX------XO--------------------------- X"


def test_start_position_string_round_trip() -> None:
    assert format_position(Position.initial()) == START
    assert parse_position(START) == Position.initial()


def test_position_string_ignores_scores_after_semicolon() -> None:
    pos = parse_position(START.replace(" X", " O") + "; A2:+38;")
    assert pos.turn is Color.WHITE


@pytest.mark.parametrize(
    "text",
    [
        "",
        "X",
        START[:-2],
        START[:-1] + "Z",
        START.replace("O", "Q", 1),
        START + " extra",
        "-" * 65 + " X",
    ],
)
def test_bad_position_strings(text: str) -> None:
    with pytest.raises(NotationError):
        parse_position(text)


def test_squares() -> None:
    assert square_name(0) == "a1"
    assert square_name(63) == "h8"
    assert parse_square("d3") == 19
    assert parse_square("D3") == 19
    for bad in ("", "d", "d9", "i1", "33", "d3x"):
        with pytest.raises(NotationError):
            parse_square(bad)


def test_rowcol_is_row_then_column() -> None:
    assert rowcol_name(parse_square("d3")) == "cd"
    assert parse_rowcol("cd") == parse_square("d3")
    for bad in ("CD", "d3", "c", "cdd", "ci"):
        with pytest.raises(NotationError):
            parse_rowcol(bad)


def test_move_list_round_trip_with_pass() -> None:
    text = "f5d6c7f3d3c6b6c2b1b7a8"
    moves = parse_move_list(text)
    assert -1 in moves
    assert format_move_list(moves) == text
    with pytest.raises(NotationError):
        parse_move_list("f5f5")
    with pytest.raises(NotationError):
        parse_move_list("f5d")
