"""A game as a value: start, moves, players, result and times.

``GameRecord`` is what outlives a match: the autosave file, the records
database row and the exported game files are all made from it, and
``GameRecord.game()`` replays it through the engine, so a record that does not
follow the rules cannot be loaded by accident.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from reversi_tui.engine import (
    PASS,
    Color,
    Game,
    Move,
    Outcome,
    Position,
    format_position,
    parse_position,
    parse_square,
    square_name,
)
from reversi_tui.engine.notation import format_move_list
from reversi_tui.match.settings import PlayerKind, PlayerSpec

__all__ = ["GameRecord", "RecordError", "Result", "Termination"]


class RecordError(ValueError):
    """A record (or its serialised form) that does not describe a legal game."""


class Termination(StrEnum):
    """How a game ended."""

    #: Neither side could move: the discs decide.
    NORMAL = "normal"
    RESIGNATION = "resignation"
    TIME_FORFEIT = "time forfeit"
    DISCONNECTION = "disconnection"


@dataclass(frozen=True, slots=True)
class Result:
    """Who won and how; ``discs`` are the counts on the board when it ended."""

    termination: Termination
    winner: Color | None
    discs: Outcome

    def __post_init__(self) -> None:
        if self.termination is Termination.NORMAL and self.winner is not self.discs.winner:
            raise ValueError("at a normal end the side with more discs wins")
        if self.termination is not Termination.NORMAL and self.winner is None:
            raise ValueError(f"a game lost by {self.termination.value} has a winner")

    @classmethod
    def from_board(cls, outcome: Outcome) -> Result:
        """A game played out to the end: the discs decide."""
        return cls(Termination.NORMAL, outcome.winner, outcome)

    @classmethod
    def forfeit(cls, loser: Color, termination: Termination, discs: Outcome) -> Result:
        """A game lost by ``loser`` before the end (resigned, out of time, disconnected)."""
        if termination is Termination.NORMAL:
            raise ValueError("a forfeit needs a termination other than the normal end")
        return cls(termination, loser.opponent, discs)

    @property
    def final_score(self) -> tuple[int, int]:
        """(black, white): the empties go to the winner (split on a draw); a forfeit's
        winner is given every square the loser does not hold, as tournaments count it."""
        if self.termination is Termination.NORMAL:
            return self.discs.final_score
        assert self.winner is not None
        if self.winner is Color.BLACK:
            return 64 - self.discs.white, self.discs.white
        return self.discs.black, 64 - self.discs.black

    @property
    def summary(self) -> str:
        """One line: ``Black wins, 40-24``, ``Draw, 32-32``, ``White wins by resignation``."""
        if self.termination is not Termination.NORMAL:
            assert self.winner is not None
            return f"{self.winner.title} wins by {self.termination.value}"
        black, white = self.discs.black, self.discs.white
        if self.winner is None:
            return f"Draw, {black}-{white}"
        return f"{self.winner.title} wins, {black}-{white}"


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A whole game: replaying ``moves`` from ``start`` gives every position.

    ``moves`` holds every ply, forced passes written as ``PASS``; ``result`` is
    None while the game is unfinished.
    """

    start: Position
    moves: tuple[Move, ...]
    black: PlayerSpec
    white: PlayerSpec
    result: Result | None = None
    started: datetime = field(default_factory=_now)
    ended: datetime | None = None

    @classmethod
    def of(
        cls,
        game: Game,
        players: dict[Color, PlayerSpec],
        *,
        started: datetime | None = None,
        result: Result | None = None,
    ) -> GameRecord:
        """The record of ``game`` as it stands; a finished board gives its result itself."""
        if result is None and (outcome := game.outcome()) is not None:
            result = Result.from_board(outcome)
        return cls(
            start=game.start,
            moves=tuple(game.moves),
            black=players[Color.BLACK],
            white=players[Color.WHITE],
            result=result,
            started=started or _now(),
            ended=_now() if result is not None else None,
        )

    def game(self) -> Game:
        """The game replayed through the engine (undo works back to the start)."""
        try:
            return Game.from_moves(self.start, self.moves)
        except ValueError as error:
            raise RecordError(f"the record's moves do not replay: {error}") from None

    def player(self, color: Color) -> PlayerSpec:
        return self.black if color is Color.BLACK else self.white

    @property
    def is_finished(self) -> bool:
        return self.result is not None

    def move_list(self) -> str:
        """The usual concatenated form, ``f5d6c3...`` (passes implied)."""
        return format_move_list(list(self.moves))

    def finished(self, result: Result) -> GameRecord:
        return replace(self, result=result, ended=_now())

    # A plain-data form (JSON-ready): what a save file or a message carries ------------
    def to_dict(self) -> dict[str, Any]:
        """Players in their text form (``PlayerSpec.text``); ``from_dict`` also reads the
        dicts of fields the first releases wrote."""
        return {
            "start": format_position(self.start),
            "moves": [square_name(m) for m in self.moves],
            "black": self.black.text,
            "white": self.white.text,
            "result": None if self.result is None else _result_dict(self.result),
            "started": self.started.isoformat(),
            "ended": None if self.ended is None else self.ended.isoformat(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameRecord:
        """The inverse of ``to_dict``; every field is checked and the moves replayed."""
        try:
            record = cls(
                start=parse_position(data["start"]),
                moves=tuple(_parse_moves(data["moves"])),
                black=_spec_from(data["black"]),
                white=_spec_from(data["white"]),
                result=None if data["result"] is None else _result_from(data["result"]),
                started=datetime.fromisoformat(data["started"]),
                ended=None if data["ended"] is None else datetime.fromisoformat(data["ended"]),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise RecordError(f"not a game record: {error!r}") from None
        final = record.game().position
        result = record.result
        if result is None:
            if final.is_game_over:
                raise RecordError("the record's game is over but it has no result")
        elif result.discs != final.outcome():
            raise RecordError("the record's result does not match its final position")
        elif (result.termination is Termination.NORMAL) != final.is_game_over:
            raise RecordError("a game ends normally exactly when neither side can move")
        return record


def _parse_moves(names: Iterable[str]) -> list[Move]:
    if isinstance(names, str):
        raise TypeError("moves must be a list of squares")
    return [PASS if name == "pass" else parse_square(name) for name in names]


def _spec_from(data: str | dict[str, Any]) -> PlayerSpec:
    """A player: its text form, or the dict of fields the first releases wrote."""
    if isinstance(data, str):
        return PlayerSpec.from_text(data)
    think, depth = data["think_time"], data.get("depth")
    if think is not None and (isinstance(think, bool) or not isinstance(think, int | float)):
        raise TypeError("think_time must be a number")
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int)):
        raise TypeError("depth must be a whole number")
    return PlayerSpec(PlayerKind(data["kind"]), str(data["level"]), think, depth)


def _result_dict(result: Result) -> dict[str, Any]:
    return {
        "termination": result.termination.value,
        "winner": None if result.winner is None else result.winner.name.lower(),
        "black": result.discs.black,
        "white": result.discs.white,
    }


def _result_from(data: dict[str, Any]) -> Result:
    winner = data["winner"]
    discs = Outcome(int(data["black"]), int(data["white"]))
    if not (discs.black >= 0 and discs.white >= 0 and discs.black + discs.white <= 64):
        raise ValueError("disc counts out of range")
    return Result(
        Termination(data["termination"]),
        None if winner is None else Color[str(winner).upper()],
        discs,
    )
