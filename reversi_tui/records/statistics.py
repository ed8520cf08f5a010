"""Statistics from one player's side: per opponent and overall. Pure: games in, numbers out.

The viewer is a name (the local login name, as games are recorded under it).
A game counts when one side is a human of that name; other games are ignored.
Opponents are each computer level (whatever its think time), each engine (by its
command line or name) and each human name; kinds are read through ``PlayerSpec``. A
game in which both sides have the viewer's name (two people at one keyboard, both
recorded as the login name) counts once, from Black's side, against the viewer as a
human opponent.

Scores are final scores as tournaments count them (``Result.final_score``:
the empty squares go to the winner), so the viewer's and the opponent's
always add up to 64; a forfeit gives the winner every square the loser does
not hold. A resignation still counts as a win or a loss, and is also counted and
said as one (``Won by resignation``), so a 62-2 by resignation is not taken for
a game played out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum

from reversi_tui.engine import Color
from reversi_tui.match.record import Termination
from reversi_tui.match.settings import LEVEL_NAMES, PlayerKind, PlayerSpec
from reversi_tui.records.database import StoredGame

__all__ = [
    "Opponent",
    "Statistics",
    "Streak",
    "Tally",
    "Verdict",
    "ViewedGame",
    "statistics",
    "verdict_words",
    "view",
]

#: How many recent games each tally keeps unless told otherwise.
RECENT_GAMES = 5


class Verdict(StrEnum):
    """How a game went for the viewer."""

    WIN = "win"
    LOSS = "loss"
    DRAW = "draw"


@dataclass(frozen=True, slots=True, order=True)
class Opponent:
    """Who the viewer played: a computer level, an engine, or a human's name."""

    kind: PlayerKind
    #: The level for a computer, the program's name for an engine (never its command
    #: line: ``PlayerSpec.program_name``), the name for a human.
    name: str

    @classmethod
    def of(cls, spec: PlayerSpec, name: str) -> Opponent:
        """A person by the name recorded, a computer by its level, an engine by its name."""
        if spec.is_human:
            return cls(spec.kind, name)
        if spec.kind is PlayerKind.COMPUTER:
            return cls(spec.kind, spec.level)
        return cls(spec.kind, spec.program_name)

    @property
    def label(self) -> str:
        """``Computer (hard)``, ``GTP engine (gtp-rhino)`` (as the game showed it) or the
        human's name."""
        return self.kind.describe(self.name)


@dataclass(frozen=True, slots=True)
class ViewedGame:
    """One recorded game from the viewer's side."""

    game: StoredGame
    #: The colour the viewer played.
    colour: Color
    opponent: Opponent
    verdict: Verdict
    #: Final scores: (the viewer's, the opponent's); they add up to 64.
    score: tuple[int, int]

    @property
    def termination(self) -> Termination:
        """How the game ended: played out, or resigned (a forfeit)."""
        result = self.game.record.result
        return Termination.NORMAL if result is None else result.termination


#: How a verdict reads: ``Won``, ``Lost``, ``Drew``.
VERDICT_WORDS = {Verdict.WIN: "Won", Verdict.LOSS: "Lost", Verdict.DRAW: "Drew"}


def verdict_words(viewed: ViewedGame) -> str:
    """``Won``, ``Lost``, ``Drew``; ``Won by resignation`` when the game ended early."""
    words = VERDICT_WORDS[viewed.verdict]
    if viewed.termination is not Termination.NORMAL:
        return f"{words} by {viewed.termination.value}"
    return words


@dataclass(frozen=True, slots=True)
class Streak:
    """The same verdict ``length`` games running."""

    verdict: Verdict
    length: int


@dataclass(frozen=True, slots=True)
class Tally:
    """The viewer's games against one opponent (``opponent`` None: against everyone)."""

    opponent: Opponent | None
    games: int
    wins: int
    losses: int
    draws: int
    #: The viewer's final score averaged over the games (None without games).
    average_score: float | None
    #: The viewer's best final score as (viewer's, opponent's) (None without games).
    best_score: tuple[int, int] | None
    #: The verdict of the latest games and how many in a row (None without games).
    current_streak: Streak | None
    longest_winning_streak: int
    #: The latest games, newest first.
    recent: tuple[ViewedGame, ...]
    #: Of the wins and losses, those by resignation (counted in ``wins``/``losses`` too).
    wins_by_resignation: int = 0
    losses_by_resignation: int = 0

    @property
    def win_rate(self) -> float:
        """Wins over games played (draws are not wins), 0.0 without games."""
        return self.wins / self.games if self.games else 0.0

    @property
    def average_margin(self) -> float | None:
        """The viewer's average final disc difference (positive when ahead)."""
        return None if self.average_score is None else 2 * self.average_score - 64


@dataclass(frozen=True, slots=True)
class Statistics:
    """Everything the statistics screen shows for ``viewer``."""

    viewer: str
    overall: Tally
    #: One tally per opponent: the most played first; on a tie the computers, weakest
    #: first, then humans by name.
    opponents: tuple[Tally, ...]


def view(game: StoredGame, viewer: str) -> ViewedGame | None:
    """``game`` from ``viewer``'s side; None when the viewer did not play it."""
    record, result = game.record, game.record.result
    if result is None:
        return None
    if record.black.is_human and game.black_name == viewer:
        colour = Color.BLACK
    elif record.white.is_human and game.white_name == viewer:
        colour = Color.WHITE
    else:
        return None
    other = colour.opponent
    opponent_name = game.white_name if other is Color.WHITE else game.black_name
    black, white = result.final_score
    score = (black, white) if colour is Color.BLACK else (white, black)
    if result.winner is None:
        verdict = Verdict.DRAW
    else:
        verdict = Verdict.WIN if result.winner is colour else Verdict.LOSS
    return ViewedGame(
        game, colour, Opponent.of(record.player(other), opponent_name), verdict, score
    )


def tally(
    viewed: Sequence[ViewedGame], opponent: Opponent | None, recent: int = RECENT_GAMES
) -> Tally:
    """The numbers of ``viewed`` (in the order they were played)."""
    verdicts = [item.verdict for item in viewed]
    scores = [item.score for item in viewed]
    resigned = [item.verdict for item in viewed if item.termination is Termination.RESIGNATION]
    return Tally(
        opponent=opponent,
        games=len(viewed),
        wins=verdicts.count(Verdict.WIN),
        losses=verdicts.count(Verdict.LOSS),
        draws=verdicts.count(Verdict.DRAW),
        average_score=sum(mine for mine, _ in scores) / len(scores) if scores else None,
        best_score=max(scores) if scores else None,
        current_streak=_current_streak(verdicts),
        longest_winning_streak=_longest_run(verdicts, Verdict.WIN),
        recent=tuple(reversed(viewed[-recent:])) if recent > 0 else (),
        wins_by_resignation=resigned.count(Verdict.WIN),
        losses_by_resignation=resigned.count(Verdict.LOSS),
    )


def statistics(
    games: Iterable[StoredGame], viewer: str, *, recent: int = RECENT_GAMES
) -> Statistics:
    """``viewer``'s statistics from ``games`` (any order; games without the viewer ignored)."""
    viewed = sorted(
        (item for game in games if (item := view(game, viewer)) is not None),
        key=lambda item: (_finished_at(item.game), item.game.id),
    )
    by_opponent: dict[Opponent, list[ViewedGame]] = {}
    for item in viewed:
        by_opponent.setdefault(item.opponent, []).append(item)
    opponents = sorted(
        (tally(items, opponent, recent) for opponent, items in by_opponent.items()),
        key=lambda t: (-t.games, _rank(t.opponent)),
    )
    return Statistics(viewer, tally(viewed, None, recent), tuple(opponents))


def _rank(opponent: Opponent | None) -> tuple[int, int, str]:
    """Among opponents played as often: the computers weakest first, then engines by
    kind and name, then humans by name."""
    if opponent is None or opponent.kind is PlayerKind.HUMAN:
        return len(PlayerKind), 0, "" if opponent is None else opponent.name
    order = list(PlayerKind).index(opponent.kind)
    if opponent.kind is PlayerKind.COMPUTER and opponent.name in LEVEL_NAMES:
        return order, LEVEL_NAMES.index(opponent.name), opponent.name
    return order, len(LEVEL_NAMES), opponent.name


def _finished_at(game: StoredGame) -> datetime:
    """When the game ended, comparable across records (a naive time taken as UTC)."""
    moment = game.record.ended or game.record.started
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


def _current_streak(verdicts: Sequence[Verdict]) -> Streak | None:
    if not verdicts:
        return None
    last = verdicts[-1]
    length = 0
    for verdict in reversed(verdicts):
        if verdict is not last:
            break
        length += 1
    return Streak(last, length)


def _longest_run(verdicts: Sequence[Verdict], wanted: Verdict) -> int:
    longest = run = 0
    for verdict in verdicts:
        run = run + 1 if verdict is wanted else 0
        longest = max(longest, run)
    return longest
