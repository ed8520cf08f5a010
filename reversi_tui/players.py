"""Players as move sources: every mode is some pair of these.

A front end asks the player to move when it is that player's turn. A human's move
comes from the front end's own input (keys, clicks, lines); a computer's comes from
the engine's search, which the caller may run in a worker thread and stop through
``should_stop``. A remote player (online play) will be one more kind.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from reversi_tui.engine import Move, Position

if TYPE_CHECKING:
    from reversi_tui.engine.ai import SearchResult

#: The computer's levels, weakest first. Spelled out here rather than imported so that
#: starting the app does not pay for building the AI's tables (a test keeps them equal).
LEVEL_NAMES = ("easy", "medium", "hard", "expert")
#: Every name ``--black``/``--white`` accept: a human, or the computer at a level.
PLAYER_CHOICES = ("human", *LEVEL_NAMES)


class Player(Protocol):
    @property
    def is_human(self) -> bool: ...

    @property
    def label(self) -> str: ...

    def choose_move(self, position: Position) -> Move: ...


@dataclass
class Human:
    """A person at this terminal; the front end supplies the moves."""

    name: str = "Human"

    @property
    def is_human(self) -> bool:
        return True

    @property
    def label(self) -> str:
        return self.name

    def choose_move(self, position: Position) -> Move:
        raise RuntimeError("a human's moves come from the front end's input")


@dataclass
class Computer:
    """The engine's AI at a level; ``think_time`` overrides the level's budget."""

    level: str
    think_time: float | None = None
    seed: int | None = None
    _rng: random.Random = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if self.level not in LEVEL_NAMES:
            raise ValueError(f"unknown level {self.level!r}: choose from {', '.join(LEVEL_NAMES)}")
        self._rng = random.Random(self.seed)

    @property
    def is_human(self) -> bool:
        return False

    @property
    def label(self) -> str:
        return f"Computer ({self.level})"

    def search(
        self, position: Position, should_stop: Callable[[], bool] | None = None
    ) -> SearchResult:
        """The full search result (move, score, depth, nodes, seconds)."""
        from reversi_tui.engine.ai import choose_move

        return choose_move(
            position,
            self.level,
            think_time=self.think_time,
            rng=self._rng,
            should_stop=should_stop,
        )

    def choose_move(self, position: Position) -> Move:
        return self.search(position).move


def make_player(choice: str, think_time: float | None = None, seed: int | None = None) -> Player:
    """A player from a ``--black``/``--white`` value: ``human`` or a level name."""
    if choice == "human":
        return Human()
    return Computer(choice, think_time=think_time, seed=seed)
