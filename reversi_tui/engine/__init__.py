"""The pure rules engine: no UI, no disk, no network, no threads.

The public names below are the stable API; ``bitboard`` holds the raw primitives.
"""

from reversi_tui.engine.board import PASS, Color, IllegalMoveError, Move, Outcome, Position
from reversi_tui.engine.game import Game, Ply, handicap_position
from reversi_tui.engine.notation import (
    NotationError,
    format_position,
    parse_position,
    parse_rowcol,
    parse_square,
    rowcol_name,
    square_name,
)

__all__ = [
    "PASS",
    "Color",
    "Game",
    "IllegalMoveError",
    "Move",
    "NotationError",
    "Outcome",
    "Ply",
    "Position",
    "format_position",
    "handicap_position",
    "parse_position",
    "parse_rowcol",
    "parse_square",
    "rowcol_name",
    "square_name",
]
