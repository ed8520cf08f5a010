"""Boards whose side to move (X) has 35 legal moves: more than any game reaches (33).

Found by simulated annealing on the move count; the C search must take any board,
and these overflowed its child list once. Each is given with its mirror images.
"""

from __future__ import annotations

from reversi_tui.engine.bitboard import FULL

#: Rows 1 to 8, columns a to h: X moves, O waits, ``-`` is empty.
DIAGRAMS = (
    """
    --------
    -OOOXOO-
    -XX-OXX-
    -O----O-
    -OO-OXO-
    -XXX-XO-
    -OXOO-O-
    --X-----
    """,
    """
    -XX-----
    -OXOOOO-
    --O--XX-
    ---XO-O-
    -OX--XO-
    XXXO-XO-
    -OXOO-O-
    --------
    """,
)


def _board(diagram: str, disc: str) -> int:
    squares = "".join(diagram.split())
    return sum(1 << sq for sq, ch in enumerate(squares) if ch == disc)


def _mirror(board: int) -> int:
    """Left to right: column c becomes 7 - c."""
    return sum(1 << (sq - sq % 8 + 7 - sq % 8) for sq in range(64) if board >> sq & 1)


def _flip(board: int) -> int:
    """Top to bottom: row r becomes 7 - r."""
    return int.from_bytes(board.to_bytes(8, "little"), "big") & FULL


def _images(p: int, o: int) -> list[tuple[int, int]]:
    out = []
    for a, b in ((p, o), (_mirror(p), _mirror(o))):
        out += [(a, b), (_flip(a), _flip(b))]
    return out


#: (X, O) for each diagram and its mirror images.
MANY_MOVES = [image for d in DIAGRAMS for image in _images(_board(d, "X"), _board(d, "O"))]
