"""The records database: every finished game, in SQLite in the data directory.

One table, ``games``, one row per finished game (see ``_create_v3`` for the
columns, ``_create_v4`` for an online game's terms and ratings). Each player is one
column, its text form (``human``, ``hard/2.5s``, ``gtp:edax -gtp``: see
``PlayerSpec``), with no CHECK naming the kinds, so a new kind of player is recorded
without a migration. The ``moves`` column is every ply separated by spaces, forced
passes written ``pass`` (``d3 c5 ... pass a1``): the same spelling as
``GameRecord.to_dict``, so a row reads back exactly, and with the start position it
replays without guessing where the passes were. ``GameRecord.move_list()`` gives the
usual concatenated form.

The file carries its identity and its version: ``PRAGMA application_id`` says it
is ours and ``PRAGMA user_version`` is the schema version. Opening runs the
missing migrations in one transaction, so a later release opens an older file;
a file from a newer release is refused (``DatabaseError``) and left untouched. A
file that is not a database, is damaged or belongs to another program is set
aside (renamed, never deleted) and a new one started, with a message in
``problems``.

Writes are ``BEGIN IMMEDIATE`` transactions in WAL mode with ``synchronous=FULL``
and a busy timeout, so several ``reversi`` processes can record games at once.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, ClassVar

from reversi_tui.engine import (
    PASS,
    Color,
    Outcome,
    format_position,
    parse_position,
    square_name,
)
from reversi_tui.match.record import GameRecord, RecordError, Result, Termination
from reversi_tui.match.settings import PlayerKind, PlayerSpec, handicap_of
from reversi_tui.records.online_facts import OnlineFacts
from reversi_tui.records.sqlite_file import WAIT_SECONDS, Migration, SqliteFile, roll_back

__all__ = [
    "APPLICATION_ID",
    "MIGRATIONS",
    "DatabaseError",
    "OnlineFacts",
    "RecordsDatabase",
    "StoredGame",
    "duration_seconds",
    "schema_version",
]

#: ``PRAGMA application_id`` of our files ("Rvrs"): another program's SQLite file is not ours.
APPLICATION_ID = 0x52767273


class DatabaseError(Exception):
    """The records database cannot be used: ``str()`` is one sentence for the player."""


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A finished game as recorded: its row id, the record and the players' names;
    ``online`` an online game's terms and ratings (None for a local game, or an online
    one recorded before they were kept)."""

    id: int
    record: GameRecord
    black_name: str
    white_name: str
    online: OnlineFacts | None = None


# The schema, one function per version --------------------------------------------------
def _create_v1(db: sqlite3.Connection) -> None:
    """Version 1: the ``games`` table and its indexes.

    Players: name, kind (human/computer), level, think time and depth per colour.
    ``handicap``/``handicap_colour`` are NULL for a start that is not a handicap
    position (a loaded one); ``start`` is always the engine's position string.
    Times are ISO 8601 (UTC for aware times); ``move_count`` counts discs played.
    """
    players = "".join(
        f"""
        {c}_name TEXT NOT NULL,
        {c}_kind TEXT NOT NULL CHECK ({c}_kind IN ('human', 'computer')),
        {c}_level TEXT NOT NULL,
        {c}_think_time REAL,
        {c}_depth INTEGER,"""
        for c in ("black", "white")
    )
    db.execute(
        f"""CREATE TABLE games (
        id INTEGER PRIMARY KEY,{players}
        handicap INTEGER CHECK (handicap BETWEEN 0 AND 4),
        handicap_colour TEXT CHECK (handicap_colour IN ('black', 'white')),
        start TEXT NOT NULL,
        moves TEXT NOT NULL,
        move_count INTEGER NOT NULL,
        black_discs INTEGER NOT NULL,
        white_discs INTEGER NOT NULL,
        black_score INTEGER NOT NULL,
        white_score INTEGER NOT NULL,
        winner TEXT CHECK (winner IN ('black', 'white')),
        termination TEXT NOT NULL,
        started TEXT NOT NULL,
        ended TEXT NOT NULL,
        duration_seconds REAL NOT NULL
        )"""
    )
    db.execute("CREATE INDEX games_recent ON games (ended, id)")
    db.execute("CREATE INDEX games_black ON games (black_name, ended)")
    db.execute("CREATE INDEX games_white ON games (white_name, ended)")


def _create_v2(db: sqlite3.Connection) -> None:
    """Version 2: ``source``, a game's identity where it was played (an online game's
    origin), so that a game seen by several clients or reconnections is kept once."""
    db.execute("ALTER TABLE games ADD COLUMN source TEXT")
    db.execute("CREATE UNIQUE INDEX games_source ON games (source) WHERE source IS NOT NULL")


#: The columns of ``games`` after the players, as of version 3 (a later version changes
#: the table in its own migration, never here).
_GAME_COLUMNS = """
        handicap INTEGER CHECK (handicap BETWEEN 0 AND 4),
        handicap_colour TEXT CHECK (handicap_colour IN ('black', 'white')),
        start TEXT NOT NULL,
        moves TEXT NOT NULL,
        move_count INTEGER NOT NULL,
        black_discs INTEGER NOT NULL,
        white_discs INTEGER NOT NULL,
        black_score INTEGER NOT NULL,
        white_score INTEGER NOT NULL,
        winner TEXT CHECK (winner IN ('black', 'white')),
        termination TEXT NOT NULL,
        started TEXT NOT NULL,
        ended TEXT NOT NULL,
        duration_seconds REAL NOT NULL,
        source TEXT"""
#: The columns versions 2 and 3 share, in the order of ``_GAME_COLUMNS``.
_KEPT = (
    "handicap, handicap_colour, start, moves, move_count, black_discs, white_discs, "
    "black_score, white_score, winner, termination, started, ended, duration_seconds, source"
)


def _create_v3(db: sqlite3.Connection) -> None:
    """Version 3: one column per player, ``black_player``/``white_player``, its text form
    (``PlayerSpec.text``), in place of its kind, level, think time and depth; no CHECK
    names the kinds.

    The table is rebuilt, as SQLite advises for a change of columns and constraints
    (and as any SQLite 3 can): every row is copied with its id. A row whose old
    columns make no player (``add`` never wrote one) keeps them as ``damaged:`` and
    their JSON, and reads as damaged, as before.
    """
    db.create_function("player_text", 4, _player_text, deterministic=True)
    db.execute(
        f"""CREATE TABLE games_v3 (
        id INTEGER PRIMARY KEY,
        black_name TEXT NOT NULL,
        black_player TEXT NOT NULL,
        white_name TEXT NOT NULL,
        white_player TEXT NOT NULL,{_GAME_COLUMNS}
        )"""
    )
    players = ", ".join(
        f"player_text({c}_kind, {c}_level, {c}_think_time, {c}_depth)" for c in ("black", "white")
    )
    db.execute(
        f"INSERT INTO games_v3 (id, black_name, white_name, black_player, white_player, {_KEPT}) "
        f"SELECT id, black_name, white_name, {players}, {_KEPT} FROM games"
    )
    db.execute("DROP TABLE games")
    db.execute("ALTER TABLE games_v3 RENAME TO games")
    db.execute("CREATE INDEX games_recent ON games (ended, id)")
    db.execute("CREATE INDEX games_black ON games (black_name, ended)")
    db.execute("CREATE INDEX games_white ON games (white_name, ended)")
    db.execute("CREATE UNIQUE INDEX games_source ON games (source) WHERE source IS NOT NULL")


def _player_text(kind: Any, level: Any, think: Any, depth: Any) -> str:
    """A version 2 row's player as its text form; never raises (a migration must not
    fail on one odd row): ``damaged:`` and the columns' JSON when they make no player."""
    try:
        return PlayerSpec(
            PlayerKind(kind),
            str(level),
            None if think is None else float(think),
            None if depth is None else int(depth),
        ).text
    except (TypeError, ValueError):
        columns = {"kind": kind, "level": level, "think_time": think, "depth": depth}
        return "damaged:" + json.dumps(columns, default=repr)


def _create_v4(db: sqlite3.Connection) -> None:
    """Version 4: an online game's terms and what it did to the ratings, all NULL for a
    local game (and for the games recorded before): ``rated`` (0 casual, 1 rated),
    ``control_minutes``/``control_increment`` (NULL when untimed), and per player
    ``{colour}_rating`` (after the game), ``{colour}_rating_change`` and
    ``{colour}_provisional`` (0/1), NULL for a casual game. Columns are added: every
    row is kept as it is."""
    columns = [
        "rated INTEGER CHECK (rated IN (0, 1))",
        "control_minutes INTEGER CHECK (control_minutes >= 0)",
        "control_increment INTEGER CHECK (control_increment >= 0)",
    ]
    for c in ("black", "white"):
        columns += [
            f"{c}_rating INTEGER",
            f"{c}_rating_change INTEGER",
            f"{c}_provisional INTEGER CHECK ({c}_provisional IN (0, 1))",
        ]
    for column in columns:
        db.execute(f"ALTER TABLE games ADD COLUMN {column}")


#: ``MIGRATIONS[n]`` takes the schema from version n to n + 1; the last gives the current one.
MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [
    _create_v1,
    _create_v2,
    _create_v3,
    _create_v4,
]


def schema_version() -> int:
    """The schema version this release writes."""
    return len(MIGRATIONS)


# Rows and records ---------------------------------------------------------------------
def _timestamp(moment: datetime) -> str:
    """ISO 8601 that sorts as time does: UTC with microseconds (a naive time kept as it is)."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.isoformat(timespec="microseconds")


def _as_utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


def _row_of(record: GameRecord, black_name: str, white_name: str) -> dict[str, Any]:
    """The column values of a finished record."""
    result, ended = record.result, record.ended
    if result is None or ended is None:
        raise DatabaseError("only a finished game can be recorded (this one has no result yet)")
    try:
        GameRecord.from_dict(record.to_dict())  # replays it: a wrong record is never stored
    except RecordError as error:
        raise DatabaseError(f"the game was not recorded: {error}") from None
    row: dict[str, Any] = {
        "black_name": black_name,
        "white_name": white_name,
        "black_player": record.black.text,
        "white_player": record.white.text,
    }
    corners, colour = handicap_of(record.start) or (None, None)
    row["handicap"] = corners
    row["handicap_colour"] = colour.name.lower() if corners and colour else None
    row["start"] = format_position(record.start)
    row["moves"] = " ".join(square_name(move) for move in record.moves)
    row["move_count"] = len(record.move_list()) // 2
    row["black_discs"], row["white_discs"] = result.discs.black, result.discs.white
    row["black_score"], row["white_score"] = result.final_score
    row["winner"] = None if result.winner is None else result.winner.name.lower()
    row["termination"] = result.termination.value
    row["started"], row["ended"] = _timestamp(record.started), _timestamp(ended)
    row["duration_seconds"] = duration_seconds(record)
    return row


def duration_seconds(record: GameRecord) -> float | None:
    """Seconds from the start to the end of a finished game (None while it goes on)."""
    if record.ended is None:
        return None
    return max(0.0, (_as_utc(record.ended) - _as_utc(record.started)).total_seconds())


COLUMNS = (
    "black_name, white_name, black_player, white_player, handicap, handicap_colour, start, "
    "moves, move_count, black_discs, white_discs, black_score, white_score, winner, "
    "termination, started, ended, duration_seconds"
)
#: An online game's columns (version 4), NULL for a local game.
ONLINE_COLUMNS = (
    "rated, control_minutes, control_increment, black_rating, black_rating_change, "
    "black_provisional, white_rating, white_rating_change, white_provisional"
)
_INSERT = (
    f"INSERT INTO games ({COLUMNS}, {ONLINE_COLUMNS}) VALUES ("
    + ", ".join(f":{name.strip()}" for name in f"{COLUMNS}, {ONLINE_COLUMNS}".split(","))
    + ")"
)
_SET_ONLINE = (
    "UPDATE games SET "
    + ", ".join(f"{name.strip()} = :{name.strip()}" for name in ONLINE_COLUMNS.split(","))
    + " WHERE id = :id AND rated IS NULL"
)


def _online_row(online: OnlineFacts | None) -> dict[str, Any]:
    """The online columns' values: all None for a local game."""
    row: dict[str, Any] = dict.fromkeys(name.strip() for name in ONLINE_COLUMNS.split(","))
    if online is None:
        return row
    row["rated"] = int(online.rated)
    if online.control is not None:
        row["control_minutes"], row["control_increment"] = online.control
    if online.ratings is not None:
        for colour in Color:
            c = colour.name.lower()
            row[f"{c}_rating"], row[f"{c}_rating_change"] = online.ratings[colour]
            row[f"{c}_provisional"] = int(colour in online.provisional)
    return row


def _online_of(row: sqlite3.Row) -> OnlineFacts | None:
    """The online facts a row holds; None for a local game. ``ValueError`` when they are
    not what ``add`` writes."""
    rated = row["rated"]
    if rated is None:
        return None
    if rated not in (0, 1):
        raise ValueError(f"rated is {rated!r}")
    minutes, increment = row["control_minutes"], row["control_increment"]
    if (minutes is None) != (increment is None):
        raise ValueError("half a time control")
    control = None if minutes is None else (_integer(minutes), _integer(increment))
    ratings: dict[Color, tuple[int, int]] = {}
    provisional: set[Color] = set()
    for colour in Color:
        c = colour.name.lower()
        after, change = row[f"{c}_rating"], row[f"{c}_rating_change"]
        if after is not None and change is not None:
            ratings[colour] = (_integer(after), _integer(change))
            if row[f"{c}_provisional"]:
                provisional.add(colour)
    if len(ratings) < len(Color):  # half a rating pair (never written): none, not a lost game
        ratings, provisional = {}, set()
    return OnlineFacts(
        rated=bool(rated),
        control=control,
        ratings=ratings or None,
        provisional=frozenset(provisional),
    )


def _integer(value: Any) -> int:
    if not isinstance(value, int):
        raise ValueError(f"not a whole number: {value!r}")
    return value


#: Each move's spelling in the ``moves`` column (looked up: faster than parsing each).
_MOVES = {square_name(move): move for move in (*range(64), PASS)}


def _stored_of(row: sqlite3.Row) -> StoredGame:
    """The game a row holds; ``RecordError`` when a field is not what ``add`` writes.

    Every field is parsed and checked, but the moves are not replayed (that costs
    milliseconds a game, and ``add`` replayed them): ``GameRecord.game()`` does it
    when the game is shown.
    """
    try:
        winner = row["winner"]
        record = GameRecord(
            start=parse_position(row["start"]),
            moves=tuple(_MOVES[name] for name in row["moves"].split()),
            black=_spec_of(row, "black"),
            white=_spec_of(row, "white"),
            result=Result(
                Termination(row["termination"]),
                None if winner is None else Color[winner.upper()],
                Outcome(int(row["black_discs"]), int(row["white_discs"])),
            ),
            started=datetime.fromisoformat(row["started"]),
            ended=datetime.fromisoformat(row["ended"]),
        )
        online = _online_of(row)
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise RecordError(f"not a game record: {error!r}") from None
    return StoredGame(
        int(row["id"]), record, str(row["black_name"]), str(row["white_name"]), online
    )


def _spec_of(row: sqlite3.Row, colour: str) -> PlayerSpec:
    """A row's player, as recorded (``PlayerSpec.from_record``): a game replayed from
    the records never starts the engine it names."""
    return PlayerSpec.from_record(row[f"{colour}_player"])


# The database ---------------------------------------------------------------------------
class RecordsDatabase(SqliteFile):
    """The records database at ``path``, opened (created, migrated, repaired) at once.

    Raises ``DatabaseError`` when it cannot be used: a newer release's file, a
    directory that does not exist or cannot be written. The parent directory is
    not created here (``ensure_private_dir`` is the caller's first step).
    """

    APPLICATION_ID = APPLICATION_ID
    MIGRATIONS: ClassVar[Sequence[Migration]] = ()  # read through _schema
    WHAT = "the records database"
    FRESH = "new records"
    Error = DatabaseError

    def __init__(self, path: Path, *, wait: float = WAIT_SECONDS, reading: bool = False) -> None:
        self._skipped: set[int] = set()
        super().__init__(path, wait=wait, reading=reading)

    def _configure(self, db: sqlite3.Connection) -> None:
        db.row_factory = sqlite3.Row

    def _schema(self) -> Sequence[Migration]:
        return MIGRATIONS  # the module's, so that tests can add a version

    def _failed(self, error: sqlite3.Error) -> DatabaseError:
        return DatabaseError(f"the records database {self.path} cannot be used ({error})")

    # Reading and writing ------------------------------------------------------------------
    def add(
        self,
        record: GameRecord,
        black_name: str,
        white_name: str,
        *,
        source: str | None = None,
        online: OnlineFacts | None = None,
    ) -> int:
        """Record a finished game; its row id. ``DatabaseError`` for an unfinished one.

        ``source`` names the game where it was played (an online game's origin): a game
        with a source already recorded is not added again, and the first row's id is
        returned; ``online`` fills in its facts then if that row has none yet.
        ``online`` is an online game's terms and ratings (``StoredGame.online``).
        """
        row = _row_of(record, black_name, white_name)
        row.update(_online_row(online))
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                known = None
                if source is not None:
                    known = self._db.execute(
                        "SELECT id FROM games WHERE source = ?", (source,)
                    ).fetchone()
                if known is not None and online is not None:
                    self._db.execute(_SET_ONLINE, {**_online_row(online), "id": known[0]})
                if known is None:
                    cursor = self._db.execute(_INSERT, row)
                    if source is not None:
                        self._db.execute(
                            "UPDATE games SET source = ? WHERE id = ?", (source, cursor.lastrowid)
                        )
                self._db.execute("COMMIT")
            except BaseException:
                roll_back(self._db)
                raise
        except sqlite3.Error as error:
            raise self._failed(error) from None
        if known is not None:
            return int(known[0])
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def get(self, game_id: int) -> StoredGame:
        """The game with row id ``game_id``; ``DatabaseError`` if there is none or it is bad."""
        rows = list(self._select("WHERE id = ?", (game_id,)))
        if not rows:
            raise DatabaseError(f"there is no game {game_id} in the records")
        try:
            return _stored_of(rows[0])
        except RecordError as error:
            raise DatabaseError(f"game {game_id} in the records is damaged: {error}") from None

    def recent(self, limit: int | None = 20) -> list[StoredGame]:
        """The ``limit`` most recently finished games (all with None), newest first."""
        clause = "ORDER BY ended DESC, id DESC" + ("" if limit is None else " LIMIT ?")
        return list(self._games(clause, () if limit is None else (max(0, limit),)))

    def all(self) -> Iterator[StoredGame]:
        """Every game, oldest first."""
        return self._games("ORDER BY ended, id", ())

    def games_of(self, name: str) -> list[StoredGame]:
        """The games ``name`` played (either colour), oldest first."""
        clause = "WHERE black_name = ? OR white_name = ? ORDER BY ended, id"
        return list(self._games(clause, (name, name)))

    def count(self) -> int:
        try:
            return int(self._db.execute("SELECT count(*) FROM games").fetchone()[0])
        except sqlite3.Error as error:
            raise self._failed(error) from None

    def _games(self, clause: str, params: tuple[Any, ...]) -> Iterator[StoredGame]:
        """The rows' games; a row that does not replay is skipped, with one problem each."""
        for row in self._select(clause, params):
            try:
                yield _stored_of(row)
            except RecordError as error:
                if row["id"] not in self._skipped:
                    self._skipped.add(row["id"])
                    self.problems.append(
                        f"Game {row['id']} in the records is damaged and was skipped: {error}"
                    )

    def _select(self, clause: str, params: tuple[Any, ...]) -> Iterator[sqlite3.Row]:
        try:
            cursor = self._db.execute(
                f"SELECT id, {COLUMNS}, {ONLINE_COLUMNS} FROM games {clause}", params
            )
            while batch := cursor.fetchmany(200):
                yield from batch
        except sqlite3.Error as error:
            raise self._failed(error) from None

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> RecordsDatabase:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
