"""The immutable position: two disc masks and the side to move."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Final

from reversi_tui.engine import bitboard

#: The move value of a pass. Squares are 0..63 (a1=0, h1=7, a8=56, h8=63).
PASS: Final = -1
#: Column letters by column index (square ``sq`` is in column ``COLUMNS[sq % 8]``).
#: Defined here for this module's messages; import it from ``notation``.
COLUMNS: Final = "abcdefgh"

Move = int


class Color(IntEnum):
    """A side. Black moves first."""

    BLACK = 0
    WHITE = 1

    @property
    def opponent(self) -> Color:
        return Color.WHITE if self is Color.BLACK else Color.BLACK

    @property
    def title(self) -> str:
        """``"Black"`` or ``"White"``, for messages."""
        return self.name.capitalize()


class IllegalMoveError(ValueError):
    """A move that the rules do not allow in this position."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game (or the count of an unfinished one).

    ``black``/``white`` are the discs on the board. The final score follows the
    official rule: empty squares go to the winner, split evenly on a tie.
    """

    black: int
    white: int

    @property
    def empties(self) -> int:
        return 64 - self.black - self.white

    @property
    def winner(self) -> Color | None:
        if self.black > self.white:
            return Color.BLACK
        if self.white > self.black:
            return Color.WHITE
        return None

    @property
    def margin(self) -> int:
        """How many more discs the winner has on the board (empties not counted)."""
        return abs(self.black - self.white)

    @property
    def final_score(self) -> tuple[int, int]:
        """(black, white) with the empties given to the winner, halved on a tie."""
        e = self.empties
        if self.black > self.white:
            return self.black + e, self.white
        if self.white > self.black:
            return self.black, self.white + e
        return self.black + e // 2, self.white + e - e // 2


@dataclass(frozen=True, slots=True)
class Position:
    """A position: black and white disc masks and the side to move. Hashable."""

    black: int
    white: int
    turn: Color = Color.BLACK

    def __post_init__(self) -> None:
        if self.black & self.white:
            raise ValueError("a square cannot hold both a black and a white disc")
        if (self.black | self.white) >> 64:
            raise ValueError("disc masks must fit in 64 bits")

    @classmethod
    def initial(cls) -> Position:
        """The standard start: d4 and e5 white, d5 and e4 black, black to move."""
        return cls(black=(1 << 28) | (1 << 35), white=(1 << 27) | (1 << 36))

    # Masks from the mover's point of view ------------------------------------------
    @property
    def player(self) -> int:
        return self.black if self.turn is Color.BLACK else self.white

    @property
    def opponent(self) -> int:
        return self.white if self.turn is Color.BLACK else self.black

    def discs(self, color: Color) -> int:
        return self.black if color is Color.BLACK else self.white

    def color_at(self, sq: int) -> Color | None:
        bit = 1 << sq
        if self.black & bit:
            return Color.BLACK
        if self.white & bit:
            return Color.WHITE
        return None

    # Moves -------------------------------------------------------------------------
    @property
    def legal_mask(self) -> int:
        return bitboard.legal_moves(self.player, self.opponent)

    @property
    def legal_moves(self) -> list[Move]:
        """Legal squares, lowest first; empty when the side to move must pass."""
        return list(bitboard.squares(self.legal_mask))

    def is_legal(self, move: Move) -> bool:
        if move == PASS:
            return self.must_pass
        return 0 <= move < 64 and bool(self.legal_mask >> move & 1)

    def flips(self, sq: int) -> int:
        """Mask of the discs a move at ``sq`` would flip (0 when it is not legal)."""
        if not 0 <= sq < 64 or (self.black | self.white) >> sq & 1:
            return 0
        return bitboard.flips(self.player, self.opponent, sq)

    @property
    def must_pass(self) -> bool:
        """The side to move has no move while the other side has one."""
        return not self.legal_mask and bool(bitboard.legal_moves(self.opponent, self.player))

    @property
    def is_game_over(self) -> bool:
        return not self.legal_mask and not bitboard.legal_moves(self.opponent, self.player)

    def play(self, move: Move) -> Position:
        """The position after ``move`` (a square or ``PASS``); raises IllegalMoveError."""
        if move == PASS:
            return self.pass_turn()
        f = self.flips(move)
        if not f:
            raise IllegalMoveError(f"{_name(move)} is not a legal move for {self.turn.title}")
        bit = 1 << move
        p, o = self.player | f | bit, self.opponent ^ f
        if self.turn is Color.BLACK:
            return Position(p, o, Color.WHITE)
        return Position(o, p, Color.BLACK)

    def pass_turn(self) -> Position:
        """Hand the move over; only allowed when the side to move has no move."""
        if not self.must_pass:
            raise IllegalMoveError(
                f"{self.turn.title} cannot pass: "
                + ("the game is over" if self.is_game_over else "a legal move exists")
            )
        return Position(self.black, self.white, self.turn.opponent)

    # Counting ----------------------------------------------------------------------
    def count(self, color: Color) -> int:
        return self.discs(color).bit_count()

    @property
    def empties(self) -> int:
        return 64 - (self.black | self.white).bit_count()

    def outcome(self) -> Outcome:
        """Disc counts and winner; meaningful as a result once ``is_game_over``."""
        return Outcome(self.black.bit_count(), self.white.bit_count())


def _name(sq: int) -> str:
    if 0 <= sq < 64:
        return COLUMNS[sq % 8] + str(sq // 8 + 1)
    return f"square {sq}"
