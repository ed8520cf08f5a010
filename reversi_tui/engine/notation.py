"""Text forms: squares ("d3"), RowCol ("cd"), move lists and 64-character positions."""

from __future__ import annotations

from reversi_tui.engine.board import COLUMNS, PASS, Color, Move, Position

__all__ = [
    "COLUMNS",
    "NotationError",
    "format_move_list",
    "format_position",
    "parse_move_list",
    "parse_position",
    "parse_rowcol",
    "parse_square",
    "rowcol_name",
    "square_name",
]


class NotationError(ValueError):
    """Text that does not spell a square, move list or position."""


def square_name(sq: Move) -> str:
    """``0 -> "a1"``, ``19 -> "d3"``; ``PASS -> "pass"``."""
    if sq == PASS:
        return "pass"
    if not 0 <= sq < 64:
        raise NotationError(f"no square has index {sq}")
    return COLUMNS[sq % 8] + str(sq // 8 + 1)


def parse_square(text: str) -> int:
    """``"d3"`` (or ``"D3"``) to a square index: column a-h then row 1-8."""
    t = text.strip().lower()
    if len(t) != 2 or t[0] not in COLUMNS or t[1] not in "12345678":
        raise NotationError(f"{text!r} is not a square: write a column a-h and a row 1-8, e.g. d3")
    return (int(t[1]) - 1) * 8 + COLUMNS.index(t[0])


def rowcol_name(sq: int) -> str:
    """RowCol notation of the line mode: row letter then column letter (d3 -> "cd")."""
    return COLUMNS[sq // 8] + COLUMNS[sq % 8]


def parse_rowcol(text: str) -> int:
    """Exactly two lower-case letters a-h, row first; anything else raises."""
    if len(text) != 2 or text[0] not in COLUMNS or text[1] not in COLUMNS:
        raise NotationError(f"{text!r} is not a RowCol move such as cd")
    return COLUMNS.index(text[0]) * 8 + COLUMNS.index(text[1])


def format_move_list(moves: list[Move]) -> str:
    """Concatenated squares (``"f5d6c3"``); passes are not written."""
    return "".join(square_name(m) for m in moves if m != PASS)


def parse_move_list(text: str, start: Position | None = None) -> list[Move]:
    """Moves from ``"f5d6c3..."`` (spaces allowed), with forced passes put back in.

    Each move is checked against the position it is played in.
    """
    t = "".join(text.split()).lower()
    if len(t) % 2:
        raise NotationError(f"{text!r} has an odd number of characters: moves are two each")
    pos = start or Position.initial()
    moves: list[Move] = []
    for i in range(0, len(t), 2):
        sq = parse_square(t[i : i + 2])
        if pos.must_pass:
            moves.append(PASS)
            pos = pos.pass_turn()
        if not pos.is_legal(sq):
            raise NotationError(f"move {i // 2 + 1} ({t[i : i + 2]}) is not legal there")
        moves.append(sq)
        pos = pos.play(sq)
    if pos.must_pass:
        moves.append(PASS)
    return moves


_CELLS = {"X": "b", "x": "b", "*": "b", "O": "w", "o": "w", "0": "w", "-": "", ".": ""}


def parse_position(text: str) -> Position:
    """A 64-character board (a1 b1 ... h8; X black, O white, - empty), a space, X or O.

    A trailing ``;`` and anything after it (move scores in test files) are ignored.
    """
    body = text.split(";", 1)[0].strip()
    parts = body.split()
    if len(parts) != 2 or len(parts[0]) != 64 or parts[1].upper() not in ("X", "O"):
        raise NotationError(
            "a position is 64 characters (a1 b1 ... h8 with X black, O white, - empty), "
            "a space and the side to move (X or O)"
        )
    black = white = 0
    for sq, ch in enumerate(parts[0]):
        kind = _CELLS.get(ch)
        if kind is None:
            raise NotationError(f"unexpected {ch!r} at {square_name(sq)}: use X, O or -")
        if kind == "b":
            black |= 1 << sq
        elif kind == "w":
            white |= 1 << sq
    turn = Color.BLACK if parts[1].upper() == "X" else Color.WHITE
    return Position(black, white, turn)


def format_position(pos: Position) -> str:
    """The 64-character board, a space and ``X`` or ``O`` for the side to move."""
    cells = []
    for sq in range(64):
        c = pos.color_at(sq)
        cells.append("X" if c is Color.BLACK else "O" if c is Color.WHITE else "-")
    return "".join(cells) + (" X" if pos.turn is Color.BLACK else " O")
