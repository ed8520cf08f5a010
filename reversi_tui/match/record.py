"""A game as a value: start, moves, players, result and times.

``GameRecord`` is what outlives a match: the autosave file, the records
database row and the exported game files are all made from it, and
``GameRecord.game()`` replays it through the engine, so a record that does not
follow the rules cannot be loaded by accident.

Its JSON form (``to_dict``/``from_dict``, inside every autosave) is ``RecordForm``, a
msgspec struct as the network protocol's messages are: a wrong field is refused with
its path (``... - at `$.result.winner```), a field it does not know is let be (a later
release may add one), and the moves are replayed before a record is given back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from enum import StrEnum
from typing import Annotated, Any, Final, Literal, TypeVar

import msgspec

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

__all__ = ["GameRecord", "RecordError", "RecordForm", "Result", "Termination", "parse_moves"]


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
    """Who won and how; ``discs`` are the counts on the board when it ended. A game
    ended on a disconnection may be a draw (the player still there chose one)."""

    termination: Termination
    winner: Color | None
    discs: Outcome

    def __post_init__(self) -> None:
        if self.termination is Termination.NORMAL and self.winner is not self.discs.winner:
            raise ValueError("at a normal end the side with more discs wins")
        if self.termination not in (Termination.NORMAL, Termination.DISCONNECTION) and (
            self.winner is None
        ):
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

    @classmethod
    def abandoned_draw(cls, discs: Outcome) -> Result:
        """A game left by one player and declared a draw by the other: 32-32."""
        return cls(Termination.DISCONNECTION, None, discs)

    @property
    def final_score(self) -> tuple[int, int]:
        """(black, white): the empties go to the winner (split on a draw); a forfeit's
        winner is given every square the loser does not hold, as tournaments count it."""
        if self.termination is Termination.NORMAL:
            return self.discs.final_score
        if self.winner is None:  # a draw claimed on a disconnection
            return 32, 32
        if self.winner is Color.BLACK:
            return 64 - self.discs.white, self.discs.white
        return self.discs.black, 64 - self.discs.black

    @property
    def summary(self) -> str:
        """One line: ``Black wins, 40-24``, ``Draw, 32-32``, ``White wins by resignation``,
        ``Draw: the opponent left``."""
        if self.termination is not Termination.NORMAL:
            if self.winner is None:
                return "Draw: the opponent left"
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
        """``RecordForm``'s plain data: players in their text form (``PlayerSpec.text``);
        ``from_dict`` also reads the dicts of fields the first releases wrote."""
        data: dict[str, Any] = msgspec.to_builtins(RecordForm.of(self))
        return data

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        """The inverse of ``to_dict``; every field is checked and the moves replayed.

        Raises RecordError naming the path of a wrong field (``$.moves[3]``).
        """
        try:
            form = msgspec.convert(data, RecordForm)
        except msgspec.ValidationError as error:
            raise RecordError(str(error)) from None
        return form.record()


# The JSON form ----------------------------------------------------------------------------
Winner = Literal["black", "white"]
_WINNERS: Final[dict[Color, Winner]] = {Color.BLACK: "black", Color.WHITE: "white"}
Discs = Annotated[int, msgspec.Meta(ge=0, le=64)]


class ResultForm(msgspec.Struct, frozen=True, kw_only=True):
    """A result: how the game ended, the winner (None: a draw) and the discs on the board."""

    termination: Termination
    winner: Winner | None
    black: Discs
    white: Discs


class OldPlayerForm(msgspec.Struct, frozen=True, kw_only=True):
    """A player as the first releases wrote it (save version 1): a dict of its fields."""

    kind: PlayerKind
    level: str
    think_time: float | None
    depth: int | None = None


class RecordForm(msgspec.Struct, frozen=True, kw_only=True):
    """A ``GameRecord`` as JSON: the start (``format_position``), every ply (``f5``,
    ``pass``), each player's text form (or the first releases' dict), the result and
    the ISO 8601 times. Fields it does not know are ignored."""

    start: str
    moves: list[str]
    black: str | OldPlayerForm
    white: str | OldPlayerForm
    result: ResultForm | None
    started: str
    ended: str | None

    @classmethod
    def of(cls, record: GameRecord) -> RecordForm:
        result = record.result
        return cls(
            start=format_position(record.start),
            moves=[square_name(m) for m in record.moves],
            black=record.black.text,
            white=record.white.text,
            result=None
            if result is None
            else ResultForm(
                termination=result.termination,
                winner=None if result.winner is None else _WINNERS[result.winner],
                black=result.discs.black,
                white=result.discs.white,
            ),
            started=record.started.isoformat(),
            ended=None if record.ended is None else record.ended.isoformat(),
        )

    def record(self, at: str = "$") -> GameRecord:
        """The record this form gives, ``at`` the path of the form in its file.

        Raises RecordError naming the path of the first field that is not what it
        should be, or saying why the moves and the result do not go together.
        """
        record = GameRecord(
            start=_at(f"{at}.start", parse_position, self.start),
            moves=parse_moves(self.moves, f"{at}.moves"),
            black=_at(f"{at}.black", _player_of, self.black),
            white=_at(f"{at}.white", _player_of, self.white),
            result=None if self.result is None else _at(f"{at}.result", _result_of, self.result),
            started=_at(f"{at}.started", datetime.fromisoformat, self.started),
            ended=None
            if self.ended is None
            else _at(f"{at}.ended", datetime.fromisoformat, self.ended),
        )
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


def parse_moves(names: Sequence[str], at: str = "$") -> tuple[Move, ...]:
    """Plies as records and saves write them (``f5``, ``pass``); RecordError naming the
    path of the first that is not a square (``$.moves[3]``)."""
    return tuple(_at(f"{at}[{i}]", _move_of, name) for i, name in enumerate(names))


_T = TypeVar("_T")
_V = TypeVar("_V")


def _at(path: str, convert: Callable[[_V], _T], value: _V) -> _T:
    """``convert(value)``; its ValueError as a RecordError naming ``path``, as msgspec does."""
    try:
        return convert(value)
    except ValueError as error:
        raise RecordError(f"{error} - at `{path}`") from None


def _move_of(name: str) -> Move:
    return PASS if name == "pass" else parse_square(name)


def _player_of(form: str | OldPlayerForm) -> PlayerSpec:
    """A player: its text form, or the dict of fields the first releases wrote; read
    as a recorded one (``PlayerSpec.from_record``: an engine in a record never runs)."""
    if isinstance(form, str):
        return PlayerSpec.from_record(form)
    return PlayerSpec.from_record(
        PlayerSpec(form.kind, form.level, form.think_time, form.depth).text
    )


def _result_of(form: ResultForm) -> Result:
    discs = Outcome(form.black, form.white)
    if discs.black + discs.white > 64:
        raise ValueError("disc counts out of range")
    winner = None if form.winner is None else Color[form.winner.upper()]
    return Result(form.termination, winner, discs)
