"""What every game-file format shares: the imported game, its errors, and the replay.

Pure: text in, values out. Every move read from a file is played on the engine
here, so a file that breaks the rules is refused with the move number and the
square, never loaded as a wrong board.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime

from reversi_tui.engine import PASS, Color, Game, Move, Position, square_name
from reversi_tui.match.record import GameRecord, RecordError, Result, Termination
from reversi_tui.match.settings import (
    MOST_THINK_SECONDS,
    MatchSettings,
    PlayerSpec,
    handicap_of,
    person_name,
)

#: Spellings of a pass in game files (any case).
PASS_WORDS = frozenset({"pass", "pa", "ps", "--"})


class FormatError(RecordError):
    """A game file that cannot be read, or whose moves break the rules."""


@dataclass(frozen=True)
class ImportedGame:
    """A game read from a file: the record, and every tag the file gave (names in
    ``Black``/``White``)."""

    record: GameRecord
    tags: dict[str, str] = field(default_factory=dict)

    @property
    def ours(self) -> bool:
        """Written here: the file says exactly who played (``BlackPlayer``/``WhitePlayer``)."""
        return "BlackPlayer" in self.tags or "WhitePlayer" in self.tags

    @property
    def players(self) -> tuple[PlayerSpec, PlayerSpec] | None:
        """Black's and White's players as the file gives them: who played (our own
        tags), else persons by the names it gives (``Black``/``White``, GGF's
        ``PB``/``PW``); None when it names nobody (a bare move list)."""
        if self.ours or any(given_name(self.tags.get(c)) for c in ("Black", "White")):
            return self.record.black, self.record.white
        return None


def opening_settings(
    start: Position, players: tuple[PlayerSpec, PlayerSpec] | None, current: MatchSettings
) -> MatchSettings:
    """The settings to show and play on a game opened from a file or the records
    (``reversi --load`` and Ctrl+O alike): the players that played it when known
    (``ImportedGame.players``: a finished game shows who really played it), else the
    ``current`` ones; the handicap its ``start`` gives."""
    black, white = players or (current.black, current.white)
    handicap, colour = handicap_of(start) or (0, Color.BLACK)
    return replace(current, black=black, white=white, handicap=handicap, handicap_colour=colour)


def no_such_game(count: int, index: int) -> FormatError:
    """Game ``index`` (from 0) asked of a file that holds ``count`` games."""
    games = "1 game" if count == 1 else f"{count} games"
    return FormatError(f"the file holds {games}; there is no game {index + 1}")


def decode_game_text(data: bytes) -> str:
    """A game file's bytes as text: UTF-16 with its byte order mark (as Windows tools
    write it), UTF-8 with or without one, else Latin-1.

    Raises FormatError (the reason, to follow "not a game file") for binary data and
    for UTF-16 that does not decode.
    """
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            text = data.decode("utf-16")  # reads the BOM, and drops it
        except UnicodeDecodeError:
            raise FormatError("its UTF-16 text is damaged") from None
    else:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = data.decode("latin-1")
    if "\0" in text:
        raise FormatError("it holds binary data")
    return text


def replay(start: Position, moves: list[tuple[str, Move]]) -> Game:
    """Play ``moves`` (as written, and as squares) from ``start``.

    Forced passes are played by the engine; a written pass is accepted where the
    rules force one and refused elsewhere. Raises FormatError naming the move
    number (discs placed, from 1) and the square.
    """
    game = Game(start)
    unmatched = sum(1 for p in game.plies if p.is_pass)
    number = 0
    for written, move in moves:
        if move == PASS:
            if not unmatched:
                raise FormatError(
                    f"a pass after move {number} is not allowed: {game.turn.title} has a legal move"
                )
            unmatched -= 1
            continue
        number += 1
        reason = _why_not(game, move)
        if reason:
            raise FormatError(f"move {number} ({written}) is not legal: {reason}")
        unmatched = sum(1 for p in game.play(move) if p.is_pass)
    return game


def _why_not(game: Game, move: Move) -> str:
    position = game.position
    if game.is_over:
        return "the game is already over"
    if position.color_at(move) is not None:
        return f"{square_name(move)} is taken"
    if not position.flips(move):
        return f"it flips nothing for {position.turn.title}"
    return ""


def record_of(
    game: Game,
    black: PlayerSpec,
    white: PlayerSpec,
    started: datetime,
    forfeit: Result | None = None,
) -> GameRecord:
    """The record of a replayed game; a finished board gives its result, and
    ``forfeit`` a game that ended before its board did (a resignation)."""
    outcome = game.outcome()
    result = forfeit if outcome is None else Result.from_board(outcome)
    return GameRecord(
        start=game.start,
        moves=tuple(game.moves),
        black=black,
        white=white,
        result=result,
        started=started,
        ended=started if result is not None else None,
    )


def forfeit_of(game: Game, termination: str | None, written: str | None) -> Result | None:
    """A game that ended before its board did, as a file says it (a ``Termination`` such
    as ``resignation`` and a final score whose larger side won); None otherwise."""
    if game.is_over or termination is None or written is None:
        return None
    try:
        how = Termination(termination.strip().lower())
    except ValueError:
        return None
    scores = re.match(r"^(\d{1,2})-(\d{1,2})$", written.strip())
    if how is Termination.NORMAL or scores is None or scores[1] == scores[2]:
        return None
    loser = Color.WHITE if int(scores[1]) > int(scores[2]) else Color.BLACK
    return Result.forfeit(loser, how, game.position.outcome())


_DATE = re.compile(
    r"(?P<y>\d{4})[-./](?P<m>\d{1,2})[-./](?P<d>\d{1,2})"
    r"(?:[ _T]+(?P<H>\d{1,2}):(?P<M>\d{2})(?::(?P<S>\d{2}))?)?"
)


def parse_date(text: str | None) -> datetime:
    """The moment a file gives: ``2026.11.23``, ``2026-11-23 07:31:22``, GGS's
    ``2003.12.15_13:24:03.MST`` or ``2000-4-16 11:13 EST`` (a named zone is read as
    UTC); now when absent or unreadable."""
    found = _DATE.search(text or "")
    if found:
        y, m, d, hh, mm, ss = (int(found[key] or 0) for key in ("y", "m", "d", "H", "M", "S"))
        try:
            return datetime(y, m, d, hh, mm, ss, tzinfo=UTC)
        except ValueError:
            pass
    return datetime.now(UTC)


def pgn_date(moment: datetime) -> str:
    """``2026.11.23``, the PGN way."""
    return moment.strftime("%Y.%m.%d")


def player_tag(spec: PlayerSpec) -> str:
    """Our own tag for a player: its text form for others to read (``human``,
    ``hard/2s``, ``engine:gtp-rhino``: an engine's name, never its command line)."""
    return spec.shared_text


#: What files write for a name nobody gave (``Human``: our label for the person here).
_NO_NAMES = frozenset({"", "?", "-", "unknown", "human"})


def given_name(text: str | None) -> str:
    """A player's name as a file gives it (``Black``, ``PB``), "" when it gives none."""
    name = person_name(text or "")
    return "" if name.lower() in _NO_NAMES else name


def parse_player_tag(text: str | None, name: str | None = None) -> PlayerSpec:
    """The player a file's tag (``BlackPlayer``) gives, with the ``name`` it played
    under (``Black``): a recorded player (``PlayerSpec.from_record``: an engine never
    runs from a file). Also the first releases' ``computer LEVEL [SECONDS]``. Without
    our tag, a person by that name, or the person here when the file names nobody."""
    named = given_name(name)
    words = (text or "").split()
    try:
        if len(words) in (2, 3) and words[0] == "computer":
            think = f"/{float(words[2])!r}s" if len(words) == 3 else ""
            return _at_most_an_hour(PlayerSpec.from_record(f"{words[1]}{think}"))
        if text is not None:
            return _at_most_an_hour(PlayerSpec.from_record(text, named))
    except ValueError:
        pass
    return PlayerSpec.from_record("human", named)


def _at_most_an_hour(spec: PlayerSpec) -> PlayerSpec:
    """A computer from a file thinks at most ``MOST_THINK_SECONDS`` a move, as the
    command line allows (a file could ask for a year)."""
    if spec.think_time is not None and spec.think_time > MOST_THINK_SECONDS:
        return replace(spec, think_time=MOST_THINK_SECONDS)
    return spec


def check_result(game: Game, black: int, white: int, written: str) -> None:
    """A finished game's written result must be its disc counts or its final score."""
    outcome = game.outcome()
    if outcome is None:
        return
    finals = {(outcome.black, outcome.white), Result.from_board(outcome).final_score}
    if (black, white) not in finals:
        raise FormatError(
            f"the result {written} does not match the moves, which end "
            f"{outcome.black}-{outcome.white}"
        )
