"""The game model every front end drives: history, forced passes, undo/redo, result."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from reversi_tui.engine.board import PASS, Color, IllegalMoveError, Move, Outcome, Position
from reversi_tui.engine.notation import format_move_list

#: Corners a handicap fills, in order: a1, h8, h1, a8.
HANDICAP_CORNERS = (0, 63, 7, 56)


@dataclass(frozen=True, slots=True)
class Ply:
    """One move or pass: the position before and after, and the discs it flipped."""

    before: Position
    move: Move
    after: Position
    flipped: int

    @property
    def color(self) -> Color:
        return self.before.turn

    @property
    def is_pass(self) -> bool:
        return self.move == PASS


def handicap_position(corners: int, color: Color) -> Position:
    """The start with ``corners`` (0-4) corner discs pre-placed for ``color``; black moves first."""
    if not 0 <= corners <= 4:
        raise ValueError("a handicap is 0 to 4 corner discs")
    start = Position.initial()
    extra = sum(1 << sq for sq in HANDICAP_CORNERS[:corners])
    if color is Color.BLACK:
        return Position(start.black | extra, start.white, Color.BLACK)
    return Position(start.black, start.white | extra, Color.BLACK)


class Game:
    """A game from a start position: the one source of truth the views render from.

    Passes are forced, so the model plays them itself: after every move (and at
    the start) a side with no legal move passes automatically, and the pass is a
    ply in the history. Undo takes back a move together with the forced pass
    that followed it.
    """

    def __init__(self, start: Position | None = None) -> None:
        self.start = start if start is not None else Position.initial()
        self._plies: list[Ply] = []
        self._redo: list[list[Ply]] = []
        self._force_passes()

    @classmethod
    def with_handicap(cls, corners: int, color: Color) -> Game:
        return cls(handicap_position(corners, color))

    @classmethod
    def from_moves(cls, start: Position | None, moves: Iterable[Move]) -> Game:
        """Replay a record: squares, with each forced pass either written (``PASS``) or implied.

        A written pass must be one the rules force at that point; raises
        IllegalMoveError (a ValueError) naming the first move that cannot be played.
        """
        game = cls(start)
        unmatched = sum(1 for p in game._plies if p.is_pass)  # forced passes not yet written
        for index, move in enumerate(moves, 1):
            if move == PASS:
                if not unmatched:
                    raise IllegalMoveError(f"ply {index}: a pass is only allowed when forced")
                unmatched -= 1
                continue
            try:
                added = game.play(move)
            except IllegalMoveError as error:
                raise IllegalMoveError(f"ply {index}: {error}") from None
            unmatched = sum(1 for p in added if p.is_pass)
        return game

    # State -------------------------------------------------------------------------
    @property
    def position(self) -> Position:
        return self._plies[-1].after if self._plies else self.start

    @property
    def plies(self) -> tuple[Ply, ...]:
        return tuple(self._plies)

    @property
    def turn(self) -> Color:
        return self.position.turn

    @property
    def legal_moves(self) -> list[Move]:
        return self.position.legal_moves

    @property
    def is_over(self) -> bool:
        return self.position.is_game_over

    def outcome(self) -> Outcome | None:
        """Disc counts and winner of the finished game; None while it goes on."""
        return self.position.outcome() if self.is_over else None

    @property
    def last_move(self) -> Ply | None:
        """The last ply that placed a disc (passes skipped)."""
        for ply in reversed(self._plies):
            if not ply.is_pass:
                return ply
        return None

    @property
    def moves(self) -> list[Move]:
        """Every ply's move, passes included."""
        return [p.move for p in self._plies]

    @property
    def move_number(self) -> int:
        """Number of the next disc to be placed (1 at the start)."""
        return sum(1 for p in self._plies if not p.is_pass) + 1

    def move_list(self) -> str:
        """The usual concatenated form, ``f5d6c3...`` (passes not written)."""
        return format_move_list(self.moves)

    # Changes -----------------------------------------------------------------------
    def play(self, move: Move) -> list[Ply]:
        """Play a square; returns the plies added (the move, then any forced pass)."""
        if self.is_over:
            raise IllegalMoveError("the game is over")
        if move == PASS:
            raise IllegalMoveError("passes are played automatically when a side has no move")
        before = self.position
        after = before.play(move)
        added = [Ply(before, move, after, before.flips(move))]
        self._plies.extend(added)
        added.extend(self._force_passes())
        self._redo.clear()
        return added

    def _force_passes(self) -> list[Ply]:
        pos = self.position
        if not pos.must_pass:
            return []
        ply = Ply(pos, PASS, pos.pass_turn(), 0)
        self._plies.append(ply)
        return [ply]

    @property
    def can_undo(self) -> bool:
        return any(not p.is_pass for p in self._plies)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    @property
    def redo_moves(self) -> list[Move]:
        """The taken-back plies, in the order redo would play them again (passes included).

        ``Game.from_moves(start, moves + redo_moves)`` followed by one ``undo`` per
        move that is not a pass rebuilds the same game with the same redo stack.
        """
        return [ply.move for group in reversed(self._redo) for ply in group]

    def undo(self) -> list[Ply]:
        """Take back the last move and the forced pass after it; returns them (oldest first)."""
        if not self.can_undo:
            return []
        taken: list[Ply] = []
        while self._plies[-1].is_pass:
            taken.append(self._plies.pop())
        taken.append(self._plies.pop())
        taken.reverse()
        self._redo.append(taken)
        return taken

    def redo(self) -> list[Ply]:
        """Play again what the last undo took back."""
        if not self._redo:
            return []
        plies = self._redo.pop()
        self._plies.extend(plies)
        return plies
