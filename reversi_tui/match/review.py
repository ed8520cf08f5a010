"""Review: a finished game's plies and how many of them are shown, as a value.

A screen holds one ``Review`` while a finished game is walked (None while a game
is live) and replaces it on every step: the value says which plies are on the
board, which changed since the last one shown (the flash), what the status line
says, and where "play on from here" cuts the game. Stepping skips forced passes,
so each step shows one more (or one fewer) disc played. No user interface here:
the analysis of a finished game will grow from this value.
"""

from __future__ import annotations

from dataclasses import dataclass

from reversi_tui.engine import Game, Move, Ply, Position, square_name


@dataclass(frozen=True)
class Review:
    """The plies of a finished game from ``start``, of which the first ``index`` are shown
    (0: the start position; ``len(plies)``: the final position)."""

    start: Position
    plies: tuple[Ply, ...]
    index: int

    def __post_init__(self) -> None:
        if not 0 <= self.index <= len(self.plies):
            raise ValueError(f"a review shows 0 to {len(self.plies)} plies, not {self.index}")

    @classmethod
    def of(cls, game: Game, index: int | None = None) -> Review:
        """``game`` shown up to ``index`` plies; at its end by default."""
        plies = game.plies
        return cls(game.start, plies, len(plies) if index is None else index)

    # Where it stands -----------------------------------------------------------------
    @property
    def at_start(self) -> bool:
        return self.index == 0

    @property
    def at_end(self) -> bool:
        return self.index == len(self.plies)

    @property
    def shown(self) -> tuple[Ply, ...]:
        """The plies on the board."""
        return self.plies[: self.index]

    @property
    def position(self) -> Position:
        """The position shown."""
        shown = self.shown
        return shown[-1].after if shown else self.start

    @property
    def last_move(self) -> Move | None:
        """The last disc played among the plies shown (None at the start)."""
        return next((p.move for p in reversed(self.shown) if not p.is_pass), None)

    @property
    def moves_shown(self) -> int:
        """Discs played up to the position shown (passes do not count)."""
        return _moves(self.shown)

    @property
    def total_moves(self) -> int:
        """Discs played in the whole game."""
        return _moves(self.plies)

    # Walking -------------------------------------------------------------------------
    def step(self, step: int) -> Review:
        """One disc back (``step`` < 0) or forward, with any forced pass next to it; the
        same review at an edge."""
        plies, index = self.plies, self.index
        if step < 0:
            while index and plies[index - 1].is_pass:
                index -= 1
            index = max(index - 1, 0)
        else:
            index = min(index + 1, len(plies))
            while index < len(plies) and plies[index].is_pass:
                index += 1
        return self._at(index)

    def edge(self, end: int) -> Review:
        """The start position (``end`` < 0) or the final one."""
        return self._at(len(self.plies) if end > 0 else 0)

    def _at(self, index: int) -> Review:
        return self if index == self.index else Review(self.start, self.plies, index)

    def changed(self, before: Review) -> tuple[Ply, ...]:
        """The plies between ``before`` and this review, either way (what to flash)."""
        low, high = sorted((before.index, self.index))
        return self.plies[low:high]

    # Words -----------------------------------------------------------------------------
    @property
    def status(self) -> str:
        """The status line for the position shown: ``Move 3 of 40: Black f5.``."""
        total = self.total_moves
        if self.at_start:
            return f"The start position (0 of {total} {_noun(total)})."
        last = next(p for p in reversed(self.shown) if not p.is_pass)
        return f"Move {self.moves_shown} of {total}: {last.color.title} {square_name(last.move)}."

    @property
    def edge_status(self) -> str:
        """What a step past an edge says: ``At the start of the game.``."""
        return f"At the {'start' if self.at_start else 'end'} of the game."

    # Playing on ----------------------------------------------------------------------
    @property
    def dropped(self) -> int:
        """The discs played after the position shown: what playing on from it drops."""
        return _moves(self.plies[self.index :])

    def cut(self) -> Game | None:
        """The game up to the position shown, to play on from (None at the end: nothing
        is left to play there)."""
        if self.at_end:
            return None
        return Game.from_moves(self.start, [p.move for p in self.shown])


def _moves(plies: tuple[Ply, ...]) -> int:
    return sum(1 for p in plies if not p.is_pass)


def _noun(count: int) -> str:
    return "move" if count == 1 else "moves"
