"""What a match is set up with: who plays each colour, the start, the seed.

One typed value built by every front end (the command line, the new-game
dialog, later a save file and the network handshake) instead of loose strings,
so the same choices always make the same players.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum

from reversi_tui.engine import Color, Position, handicap_position
from reversi_tui.engine.ai.names import LEVEL_NAMES

__all__ = ["LEVEL_NAMES", "PLAYER_CHOICES", "MatchSettings", "PlayerKind", "PlayerSpec"]

#: Every name ``--black``/``--white`` accept: a human, or the computer at a level.
PLAYER_CHOICES = ("human", *LEVEL_NAMES)


class PlayerKind(StrEnum):
    """The kinds of move source a side can be (remote users and engines come later)."""

    HUMAN = "human"
    COMPUTER = "computer"


@dataclass(frozen=True, slots=True)
class PlayerSpec:
    """One side's player: a human, or the computer at a level with an optional clock."""

    kind: PlayerKind = PlayerKind.HUMAN
    level: str = "medium"
    #: Seconds per move for a computer (None: the level's own budget).
    think_time: float | None = None
    #: A fixed search depth instead of the clock (reproducible games; the arena uses it).
    depth: int | None = None

    def __post_init__(self) -> None:
        if self.kind is PlayerKind.COMPUTER and self.level not in LEVEL_NAMES:
            raise ValueError(f"unknown level {self.level!r}: choose from {', '.join(LEVEL_NAMES)}")
        if self.think_time is not None and not 0 < self.think_time < float("inf"):
            raise ValueError("think time must be a positive number of seconds")
        if self.depth is not None and not 1 <= self.depth <= 60:
            raise ValueError("a search depth is 1 to 60 plies")

    @classmethod
    def human(cls) -> PlayerSpec:
        return cls(PlayerKind.HUMAN)

    @classmethod
    def computer(
        cls, level: str, think_time: float | None = None, depth: int | None = None
    ) -> PlayerSpec:
        return cls(PlayerKind.COMPUTER, level, think_time, depth)

    @classmethod
    def parse(cls, choice: str, think_time: float | None = None) -> PlayerSpec:
        """A ``--black``/``--white`` value: ``human`` or a level name."""
        if choice == PlayerKind.HUMAN:
            return cls.human()
        return cls.computer(choice, think_time)

    @property
    def choice(self) -> str:
        """The ``--black``/``--white`` spelling: ``human`` or the level."""
        return "human" if self.kind is PlayerKind.HUMAN else self.level

    @property
    def label(self) -> str:
        return "Human" if self.kind is PlayerKind.HUMAN else f"Computer ({self.level})"


def handicap_of(start: Position) -> tuple[int, Color] | None:
    """The handicap (corners, colour) that gives ``start``: (0, Black) for the usual
    start, None for any other position (a loaded one)."""
    if start == handicap_position(0, Color.BLACK):
        return 0, Color.BLACK
    for corners in range(1, 5):
        for colour in Color:
            if start == handicap_position(corners, colour):
                return corners, colour
    return None


@dataclass(frozen=True, slots=True)
class MatchSettings:
    """Everything needed to start a game the same way again."""

    black: PlayerSpec = field(default_factory=PlayerSpec.human)
    white: PlayerSpec = field(default_factory=lambda: PlayerSpec.computer("medium"))
    #: Corner discs pre-placed (0-4, corners a1, h8, h1, a8) for ``handicap_colour``.
    handicap: int = 0
    handicap_colour: Color = Color.BLACK
    #: Makes the computers' choices among equal moves reproducible (None: random).
    seed: int | None = None

    def __post_init__(self) -> None:
        if not 0 <= self.handicap <= 4:
            raise ValueError("a handicap is 0 to 4 corner discs")

    def player(self, color: Color) -> PlayerSpec:
        return self.black if color is Color.BLACK else self.white

    @property
    def players(self) -> dict[Color, PlayerSpec]:
        return {Color.BLACK: self.black, Color.WHITE: self.white}

    def seed_for(self, color: Color) -> int | None:
        """Each colour's own seed, so two computers never mirror each other's choices."""
        return None if self.seed is None else self.seed + int(color)

    def start_position(self) -> Position:
        return handicap_position(self.handicap, self.handicap_colour)

    def with_players(self, black: PlayerSpec, white: PlayerSpec) -> MatchSettings:
        return replace(self, black=black, white=white)
