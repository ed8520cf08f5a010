"""The online server's storage: challenges, games and their moves, behind ``Store``.

``Store`` is the small interface the server needs; ``SqliteStore`` implements it
on one SQLite file owned by the server, and a PostgreSQL store for several
servers could implement it later. The file is 0600 in a 0700 directory (a
directory of ours open to others is closed; somebody else's is refused), in WAL
mode with ``synchronous=FULL``, and every write is one ``BEGIN IMMEDIATE``
transaction: a process killed half way leaves the state before it.

Moves live in an append-only table keyed by (game, ply), where ply counts the
moves before this one (forced passes are not stored: the engine plays them on
replay). A move is committed before ``append_move`` returns, so the server tells
nobody of a move the disk does not hold. Legality is the server's business (it
replays with the engine); the store refuses only a ply that is not the next one
(``StaleMove`` when it is taken, as when another session was first) and any write
to a finished game.

Since schema 3 a game carries its time control (NULL: untimed) and whether it is rated,
each move the mover's time left after it (so a restarted server gives the clocks back),
a finished game why it ended and its winner, and a finished rated game both players'
ratings after it (``ratings``) and its place in the order games ended (``ended``), so the
ratings can be recomputed from the games.

The file carries its identity and its version, as the records database does:
``PRAGMA application_id`` (not the records database's) and ``PRAGMA
user_version``, with the missing migrations run on open in one transaction. A
file that is not SQLite, is damaged or belongs to another program is set aside
(renamed, never deleted) and a new store started, with a line in ``problems``; a
file from a newer release, or the player's records database, is refused and left
as it is. That opening plumbing is ``records.sqlite_file.SqliteFile``'s, shared
with the records database; this module adds the schema, the directory and file
modes, and the reads and writes.
"""

from __future__ import annotations

import os
import secrets
import sqlite3
import stat
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, Final, Protocol

from reversi_tui.records.database import APPLICATION_ID as RECORDS_APPLICATION_ID
from reversi_tui.records.paths import StorageError, ensure_private_dir
from reversi_tui.records.sqlite_file import SqliteFile, roll_back

__all__ = [
    "APPLICATION_ID",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "RatedGame",
    "ServerGame",
    "SqliteStore",
    "StaleMove",
    "Store",
    "StoreError",
    "StoredChallenge",
]

#: ``PRAGMA application_id`` of the server's files ("RvOn"); the records database is "Rvrs".
APPLICATION_ID: Final = 0x52764F6E
#: The file is the server's alone (its directory too: see ``_private_directory``).
FILE_MODE: Final = 0o600


class StoreError(Exception):
    """The store cannot be opened or written: ``str()`` is one line saying what and why."""


class StaleMove(StoreError):
    """A move for a ply that is already taken (another session was first)."""


@dataclass(frozen=True)
class StoredChallenge:
    """A challenge as stored; ``created`` is aware, in UTC."""

    id: int
    challenger: str
    target: str
    #: The challenger's colour: ``black``, ``white`` or ``random``.
    color: str
    created: datetime
    #: (minutes, increment seconds), or None: untimed.
    clock: tuple[int, int] | None = None
    rated: bool = False
    #: The finished game this challenge is a rematch of.
    rematch: int | None = None


@dataclass(frozen=True)
class ServerGame:
    """An online game: its players, its moves (squares 0-63 in order; passes are not
    stored, the engine forces them on replay) and how it stands. Times are aware, UTC;
    ``created`` is when the game began, on this server or the one it was resumed from."""

    id: int
    black: str
    white: str
    moves: tuple[int, ...]
    #: ``black`` or ``white`` when that side resigned.
    resigned: str | None
    finished: bool
    created: datetime
    updated: datetime
    #: ``SERVER:GAME`` where the game began (see ``protocol.Origin``).
    origin: str = ""
    #: Why the game was set aside (its moves do not replay), or None.
    set_aside: str | None = None
    #: (minutes, increment seconds), or None: untimed.
    clock: tuple[int, int] | None = None
    rated: bool = False
    #: Each move's mover's time left after it, in ms (None: untimed).
    left_ms: tuple[int | None, ...] = ()
    #: Why a finished game ended: ``end``, ``resign``, ``time``, ``abandoned`` or
    #: ``aborted`` (no result).
    end_reason: str | None = None
    #: ``black`` or ``white``; None for a draw (and for games ended on the board before
    #: schema 3: their board says).
    winner: str | None = None


@dataclass(frozen=True)
class RatedGame:
    """A finished rated game, as the ratings are recomputed from it."""

    id: int
    black: str
    white: str
    #: ``black``, ``white``, or None for a draw.
    winner: str | None


class Store(Protocol):
    """What the server needs of its storage: SQLite now, PostgreSQL later for several servers.

    Every write is one transaction, done when the call returns. Calls are short
    and synchronous: the server makes them from its event loop.
    """

    @property
    def server_id(self) -> str:
        """A random identity made with the store: games are known by it and their number."""
        ...

    def create_challenge(
        self,
        challenger: str,
        target: str,
        color: str,
        *,
        clock: tuple[int, int] | None = None,
        rated: bool = False,
        rematch: int | None = None,
    ) -> StoredChallenge: ...

    def pending_challenges(self) -> list[StoredChallenge]: ...

    def close_challenge(self, challenge_id: int) -> bool:
        """Close a challenge that no game answers (declined, cancelled, expired): it is
        deleted, as nothing refers to it; True if it was pending."""
        ...

    def prune_challenges(self) -> int:
        """Delete the closed challenges no game answers (closed before they were
        deleted at once); how many went."""
        ...

    def create_game(
        self,
        black: str,
        white: str,
        *,
        challenge_id: int | None = None,
        origin: str | None = None,
        started: datetime | None = None,
        moves: tuple[int, ...] = (),
        clock: tuple[int, int] | None = None,
        rated: bool = False,
        left_ms: tuple[int | None, ...] = (),
    ) -> ServerGame:
        """A new game; the challenge it answers (which must be pending) closes with it.
        A game resumed from another server keeps its ``origin``, start, moves, and each
        move's time left (``left_ms``, as many as the moves or none)."""
        ...

    def set_aside(self, game_id: int, reason: str) -> None:
        """Keep a game that cannot be played (its moves do not replay) out of play."""
        ...

    def game_by_origin(self, origin: str) -> ServerGame | None: ...

    def set_aside_games(self) -> list[ServerGame]: ...

    def append_move(self, game_id: int, ply: int, square: int, left_ms: int | None = None) -> None:
        """Commit the move after ``ply`` moves (and the mover's time left after it);
        ``StaleMove`` if that ply is taken."""
        ...

    def append_moves(self, moves: Sequence[MoveRow]) -> None:
        """Several (game, ply, square, left_ms) moves in one transaction: all or none."""
        ...

    def finish_game(
        self,
        game_id: int,
        *,
        resigned: str | None = None,
        reason: str | None = None,
        winner: str | None = None,
        ratings: dict[str, tuple[float, float, float]] | None = None,
    ) -> None:
        """Mark the game finished: why (``reason``; by default ``resign`` when a side
        ``resigned``, else ``end``; ``aborted``: no result), who won (None: a draw), and
        for a rated game each player's (rating, deviation, volatility) after it."""
        ...

    def rated_games(self) -> list[RatedGame]:
        """The finished rated games in the order they ended."""
        ...

    def rated_games_between(self, first: str, second: str, since: datetime) -> int:
        """How many rated games, not aborted, the two players began since ``since``."""
        ...

    def game(self, game_id: int) -> ServerGame | None: ...

    def games(self, *, unfinished_only: bool = False) -> list[ServerGame]: ...

    def close(self) -> None: ...


#: A move to append: (game, ply, square, the mover's time left after it in ms or None).
MoveRow = tuple[int, int, int, int | None]


# The schema, one function per version --------------------------------------------------
def _create_v1(db: sqlite3.Connection) -> None:
    """Version 1: challenges, games, and the append-only moves.

    A challenge is pending while ``closed`` is NULL; a game answers at most one
    challenge. Triggers refuse to change or delete a move, whoever asks. Times are
    ISO 8601 in UTC.
    """
    for statement in (
        """CREATE TABLE challenges (
        id INTEGER PRIMARY KEY,
        challenger TEXT NOT NULL,
        target TEXT NOT NULL,
        color TEXT NOT NULL CHECK (color IN ('black', 'white', 'random')),
        created TEXT NOT NULL,
        closed TEXT
        )""",
        """CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        black TEXT NOT NULL,
        white TEXT NOT NULL,
        challenge INTEGER UNIQUE REFERENCES challenges (id),
        resigned TEXT CHECK (resigned IN ('black', 'white')),
        finished INTEGER NOT NULL DEFAULT 0 CHECK (finished IN (0, 1)),
        created TEXT NOT NULL,
        updated TEXT NOT NULL
        )""",
        """CREATE TABLE moves (
        game INTEGER NOT NULL REFERENCES games (id),
        ply INTEGER NOT NULL CHECK (ply >= 0),
        square INTEGER NOT NULL CHECK (square BETWEEN 0 AND 63),
        played TEXT NOT NULL,
        PRIMARY KEY (game, ply)
        ) WITHOUT ROWID""",
        """CREATE TRIGGER moves_append_only_update BEFORE UPDATE ON moves
        BEGIN SELECT RAISE(ABORT, 'moves are append-only'); END""",
        """CREATE TRIGGER moves_append_only_delete BEFORE DELETE ON moves
        BEGIN SELECT RAISE(ABORT, 'moves are append-only'); END""",
        "CREATE INDEX games_unfinished ON games (finished)",
    ):
        db.execute(statement)


def _create_v2(db: sqlite3.Connection) -> None:
    """Version 2: the store's random identity, games' origins and games set aside.

    ``meta`` holds ``server_id``. A game resumed from another server keeps the
    ``origin`` it began with (NULL: it began here, as ``SERVER:ID``); ``set_aside``
    says why a game whose moves do not replay is kept out of play.
    """
    db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    db.execute("INSERT INTO meta (key, value) VALUES ('server_id', ?)", (secrets.token_hex(8),))
    db.execute("ALTER TABLE games ADD COLUMN origin TEXT")
    db.execute("ALTER TABLE games ADD COLUMN set_aside TEXT")
    db.execute("CREATE INDEX games_origin ON games (origin) WHERE origin IS NOT NULL")


def _create_v3(db: sqlite3.Connection) -> None:
    """Version 3: clocks, rated games, why a game ended, and ratings.

    Challenges and games get their time control (``clock_minutes``, ``clock_increment``;
    NULL: untimed) and ``rated``; a challenge the game it is a ``rematch`` of. A move
    gets ``left_ms``, the mover's time left after it (NULL: untimed). A finished game
    gets ``end_reason``, ``winner`` (NULL: a draw) and ``ended``, its place in the order
    games ended; ``ratings`` holds each player's rating after a rated game. The games
    of version 2 are kept: finished ones get the reason they ended for (``resign`` or
    ``end``) and a resigned one its winner.
    """
    for statement in (
        "ALTER TABLE challenges ADD COLUMN clock_minutes INTEGER",
        "ALTER TABLE challenges ADD COLUMN clock_increment INTEGER",
        "ALTER TABLE challenges ADD COLUMN rated INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE challenges ADD COLUMN rematch INTEGER",
        "ALTER TABLE games ADD COLUMN clock_minutes INTEGER",
        "ALTER TABLE games ADD COLUMN clock_increment INTEGER",
        "ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1))",
        "ALTER TABLE games ADD COLUMN end_reason TEXT"
        " CHECK (end_reason IN ('end', 'resign', 'time', 'abandoned'))",
        "ALTER TABLE games ADD COLUMN winner TEXT CHECK (winner IN ('black', 'white'))",
        "ALTER TABLE games ADD COLUMN ended INTEGER",
        "ALTER TABLE moves ADD COLUMN left_ms INTEGER",
        """CREATE TABLE ratings (
        game INTEGER NOT NULL REFERENCES games (id),
        user TEXT NOT NULL,
        rating REAL NOT NULL,
        deviation REAL NOT NULL,
        volatility REAL NOT NULL,
        PRIMARY KEY (game, user)
        ) WITHOUT ROWID""",
        "UPDATE games SET end_reason = CASE WHEN resigned IS NULL THEN 'end' ELSE 'resign' END,"
        " winner = CASE resigned WHEN 'black' THEN 'white' WHEN 'white' THEN 'black' END"
        " WHERE finished",
        "CREATE INDEX games_rated_ended ON games (ended) WHERE rated AND finished",
    ):
        db.execute(statement)


def _create_v4(db: sqlite3.Connection) -> None:
    """Version 4: aborted games (``aborted``; their ``end_reason`` and ``winner`` are NULL).

    A column of its own because SQLite cannot widen ``end_reason``'s CHECK in place; an
    aborted game is never rated, whatever its ``rated`` says.
    """
    db.execute(
        "ALTER TABLE games ADD COLUMN aborted INTEGER NOT NULL DEFAULT 0 CHECK (aborted IN (0, 1))"
    )


#: ``MIGRATIONS[n]`` takes the schema from version n to n + 1; the last gives the current one.
MIGRATIONS: Final[list[Callable[[sqlite3.Connection], None]]] = [
    _create_v1,
    _create_v2,
    _create_v3,
    _create_v4,
]
SCHEMA_VERSION: Final = len(MIGRATIONS)


class SqliteStore(SqliteFile):
    """``Store`` on one SQLite file, opened (created, migrated, repaired) at once.

    Raises ``StoreError`` when it cannot be used: a directory somebody else opened
    to others, a file from a newer release, the records database, a disk that
    refuses.
    """

    APPLICATION_ID = APPLICATION_ID
    MIGRATIONS = tuple(MIGRATIONS)
    WHAT = "the game store"
    FRESH = "a new store"
    Error = StoreError

    # Opening (the rest is SqliteFile's) ----------------------------------------------
    def _before_opening(self) -> None:
        self._private_directory()

    def _lock_failed(self, lock_path: Path, error: OSError) -> bool:
        return False  # the server must not open its store unlocked

    def _configure(self, db: sqlite3.Connection) -> None:
        db.execute("PRAGMA foreign_keys = ON")

    def _foreign(self, app_id: int) -> None:
        """The player's records database given by mistake: refused, left as it is."""
        if app_id == RECORDS_APPLICATION_ID:
            raise StoreError(
                f"{self.path} is the reversi records database, not a game store: "
                "it is left as it is; give the server another file"
            )

    def _checked(self, db: sqlite3.Connection) -> None:
        self._private_file()

    @property
    def server_id(self) -> str:
        """The store's random identity (made with it, kept for its life)."""
        if not hasattr(self, "_server_id"):
            with self._reading() as db:
                row = db.execute("SELECT value FROM meta WHERE key = 'server_id'").fetchone()
            if row is None:
                raise StoreError(f"the game store {self.path} has no identity")
            self._server_id = str(row[0])
        return self._server_id

    def _private_directory(self) -> None:
        """The store's directory: made 0700 if missing; one open to others is refused."""
        directory = self.path.parent
        try:
            ensure_private_dir(directory)
            info = directory.stat()
        except StorageError as error:
            raise StoreError(f"the game store's directory cannot be made: {error}") from None
        except OSError as error:
            raise StoreError(f"cannot use {directory} ({error.strerror})") from None
        if not info.st_mode & 0o077:
            return
        # Never tightened here: it may be a home directory (a pubnix's public_html needs
        # it open) or a shared one such as /tmp. Refused, with what to do.
        mode = stat.S_IMODE(info.st_mode)
        raise StoreError(
            f"{directory} is open to other users (mode {mode:o}): keep the game store in a "
            "private directory (mode 700), for example with --db DIR/online.sqlite3"
        )

    def _private_file(self) -> None:
        """The file (and SQLite's files beside it) readable by their owner only."""
        for path in (self.path, Path(f"{self.path}-wal"), Path(f"{self.path}-shm")):
            try:
                mode = path.stat().st_mode
                if mode & 0o077:
                    os.chmod(path, FILE_MODE)
            except FileNotFoundError:
                continue
            except OSError as error:
                raise StoreError(f"cannot make {path} private ({error.strerror})") from None

    # Writes ---------------------------------------------------------------------------
    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        """One ``BEGIN IMMEDIATE`` transaction, committed (on disk) when the block ends."""
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
                db.execute("COMMIT")
            except BaseException:
                roll_back(db)
                raise
        except sqlite3.Error as error:
            raise self._failure("write", error) from None

    def create_challenge(
        self,
        challenger: str,
        target: str,
        color: str,
        *,
        clock: tuple[int, int] | None = None,
        rated: bool = False,
        rematch: int | None = None,
    ) -> StoredChallenge:
        created = _now()
        minutes, increment = clock or (None, None)
        with self._writing() as db:
            cursor = db.execute(
                "INSERT INTO challenges (challenger, target, color, created, clock_minutes,"
                " clock_increment, rated, rematch) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (challenger, target, color, created, minutes, increment, int(rated), rematch),
            )
        assert cursor.lastrowid is not None
        return StoredChallenge(
            cursor.lastrowid,
            challenger,
            target,
            color,
            datetime.fromisoformat(created),
            clock,
            rated,
            rematch,
        )

    def close_challenge(self, challenge_id: int) -> bool:
        # A pending challenge has no game (the game's creation closes it), so no row
        # refers to it: kept, closed challenges would only grow the file for ever.
        with self._writing() as db:
            cursor = db.execute(
                "DELETE FROM challenges WHERE id = ? AND closed IS NULL", (challenge_id,)
            )
        return cursor.rowcount == 1

    def prune_challenges(self) -> int:
        with self._writing() as db:
            cursor = db.execute(
                "DELETE FROM challenges WHERE closed IS NOT NULL AND NOT EXISTS"
                " (SELECT 1 FROM games WHERE games.challenge = challenges.id)"
            )
        return cursor.rowcount

    def create_game(
        self,
        black: str,
        white: str,
        *,
        challenge_id: int | None = None,
        origin: str | None = None,
        started: datetime | None = None,
        moves: tuple[int, ...] = (),
        clock: tuple[int, int] | None = None,
        rated: bool = False,
        left_ms: tuple[int | None, ...] = (),
    ) -> ServerGame:
        now = _now()
        lefts = left_ms or (None,) * len(moves)
        created = now if started is None else started.astimezone(UTC).isoformat()
        minutes, increment = clock or (None, None)
        with self._writing() as db:
            if challenge_id is not None and not _close_challenge(db, challenge_id, now):
                raise StoreError(f"challenge {challenge_id} is not pending")
            cursor = db.execute(
                "INSERT INTO games (black, white, challenge, created, updated, origin,"
                " clock_minutes, clock_increment, rated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (black, white, challenge_id, created, now, origin, minutes, increment, int(rated)),
            )
            game_id = cursor.lastrowid
            assert game_id is not None
            for ply, (square, left) in enumerate(zip(moves, lefts, strict=True)):
                _append(db, game_id, ply, square, left, now)
        return ServerGame(
            game_id,
            black,
            white,
            tuple(moves),
            None,
            False,
            datetime.fromisoformat(created),
            datetime.fromisoformat(now),
            origin or f"{self.server_id}:{game_id}",
            clock=clock,
            rated=rated,
            left_ms=tuple(lefts),
        )

    def set_aside(self, game_id: int, reason: str) -> None:
        """Keep the game (and its moves) but out of play, saying why."""
        with self._writing() as db:
            db.execute(
                "UPDATE games SET set_aside = ?, updated = ? WHERE id = ?",
                (reason[:500], _now(), game_id),
            )

    def append_move(self, game_id: int, ply: int, square: int, left_ms: int | None = None) -> None:
        """Commit ``square`` as move ``ply`` (the moves before it) of the game, with the
        mover's time left after it (None: untimed).

        ``StaleMove`` when that ply is taken; ``StoreError`` when it skips one, the
        game is finished or unknown, or the square is not 0-63.
        """
        self.append_moves([(game_id, ply, square, left_ms)])

    def append_moves(self, moves: Sequence[MoveRow]) -> None:
        """Several games' next moves, (game, ply, square, left_ms) each, in one
        transaction: all or none (a group commit: one fsync for every move that arrived
        together)."""
        if not moves:
            return
        now = _now()
        with self._writing() as db:
            for game_id, ply, square, left_ms in moves:
                _append(db, game_id, ply, square, left_ms, now)

    def finish_game(
        self,
        game_id: int,
        *,
        resigned: str | None = None,
        reason: str | None = None,
        winner: str | None = None,
        ratings: dict[str, tuple[float, float, float]] | None = None,
    ) -> None:
        """Mark the game finished: ``resigned`` the side that resigned, if one did;
        ``reason`` why it ended (by default ``resign`` or ``end``); ``winner`` (None: a
        draw; by default the resigner's opponent); ``ratings`` each player's (rating,
        deviation, volatility) after a rated game, in the same transaction."""
        if resigned not in (None, "black", "white"):
            raise StoreError(f"{resigned!r} cannot resign: it is not a side")
        if reason is None:
            reason = "end" if resigned is None else "resign"
        if winner is None and resigned is not None:
            winner = "white" if resigned == "black" else "black"
        if reason not in ("end", "resign", "time", "abandoned", "aborted"):
            raise StoreError(f"{reason!r} is not a reason for a game to end")
        if winner not in (None, "black", "white"):
            raise StoreError(f"{winner!r} cannot win: it is not a side")
        aborted = reason == "aborted"
        if aborted and (winner is not None or resigned is not None or ratings):
            raise StoreError("an aborted game has no winner and changes no rating")
        now = _now()
        with self._writing() as db:
            cursor = db.execute(
                "UPDATE games SET finished = 1, resigned = ?, end_reason = ?, winner = ?,"
                " aborted = ?, updated = ?,"
                " ended = (SELECT coalesce(max(ended), 0) + 1 FROM games)"
                " WHERE id = ? AND NOT finished",
                (resigned, None if aborted else reason, winner, int(aborted), now, game_id),
            )
            if cursor.rowcount != 1:
                raise StoreError(f"game {game_id} is not a game in progress")
            for user, (rating, deviation, volatility) in (ratings or {}).items():
                db.execute(
                    "INSERT INTO ratings (game, user, rating, deviation, volatility)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (game_id, user, rating, deviation, volatility),
                )

    # Reads ----------------------------------------------------------------------------
    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        """One read transaction: every query in the block sees the same snapshot."""
        db = self._db
        try:
            db.execute("BEGIN")
            try:
                yield db
            finally:
                roll_back(db)
        except sqlite3.Error as error:
            raise self._failure("read", error) from None
        except ValueError as error:  # a time that does not parse: the row was tampered with
            raise StoreError(f"the game store {self.path} holds a bad row ({error})") from None

    def pending_challenges(self) -> list[StoredChallenge]:
        with self._reading() as db:
            rows = db.execute(
                "SELECT id, challenger, target, color, created, clock_minutes, clock_increment,"
                " rated, rematch FROM challenges WHERE closed IS NULL ORDER BY id"
            ).fetchall()
            return [
                StoredChallenge(
                    r[0],
                    r[1],
                    r[2],
                    r[3],
                    datetime.fromisoformat(r[4]),
                    _clock(r[5], r[6]),
                    bool(r[7]),
                    r[8],
                )
                for r in rows
            ]

    def rated_games(self) -> list[RatedGame]:
        """The finished rated games, in the order they ended."""
        with self._reading() as db:
            rows = db.execute(
                "SELECT id, black, white, winner FROM games"
                " WHERE rated AND finished AND NOT aborted ORDER BY ended, id"
            ).fetchall()
        return [RatedGame(r[0], r[1], r[2], r[3]) for r in rows]

    def rated_games_between(self, first: str, second: str, since: datetime) -> int:
        """How many rated games, not aborted, the two players began since ``since``."""
        with self._reading() as db:
            row = db.execute(
                "SELECT count(*) FROM games WHERE rated AND NOT aborted AND created >= ?"
                " AND ((black = ? AND white = ?) OR (black = ? AND white = ?))",
                (since.astimezone(UTC).isoformat(), first, second, second, first),
            ).fetchone()
        return int(row[0])

    def ratings_after(self, game_id: int) -> dict[str, tuple[float, float, float]]:
        """Each player's (rating, deviation, volatility) after a rated game, as stored."""
        with self._reading() as db:
            rows = db.execute(
                "SELECT user, rating, deviation, volatility FROM ratings WHERE game = ?",
                (game_id,),
            ).fetchall()
        return {r[0]: (r[1], r[2], r[3]) for r in rows}

    def game(self, game_id: int) -> ServerGame | None:
        if not 0 <= game_id < 2**63:  # SQLite's integers: no such game, not an OverflowError
            return None
        found = self._games("WHERE id = ?", (game_id,))
        return found[0] if found else None

    def game_by_origin(self, origin: str) -> ServerGame | None:
        """The game that began as ``origin``: resumed here, or begun here."""
        server, _, number = origin.rpartition(":")
        if server == self.server_id and number.isascii() and number.isdigit():
            found = self.game(int(number))
            if found is not None and found.origin == origin and found.set_aside is None:
                return found
        playable = [g for g in self._games("WHERE origin = ?", (origin,)) if g.set_aside is None]
        return playable[-1] if playable else None

    def games(self, *, unfinished_only: bool = False) -> list[ServerGame]:
        """Every game, or those in play (unfinished and not set aside)."""
        return self._games(
            "WHERE NOT finished AND set_aside IS NULL" if unfinished_only else "", ()
        )

    def set_aside_games(self) -> list[ServerGame]:
        return self._games("WHERE set_aside IS NOT NULL AND NOT finished", ())

    def _games(self, where: str, args: tuple[object, ...]) -> list[ServerGame]:
        server_id = self.server_id
        with self._reading() as db:
            rows = db.execute(
                "SELECT id, black, white, resigned, finished, created, updated, origin,"
                " set_aside, clock_minutes, clock_increment, rated, end_reason, winner, aborted"
                f" FROM games {where} ORDER BY id",
                args,
            ).fetchall()
            moves: dict[int, list[int]] = {row[0]: [] for row in rows}
            left: dict[int, list[int | None]] = {row[0]: [] for row in rows}
            for game_id, square, left_ms in db.execute(
                "SELECT game, square, left_ms FROM moves"
                f" WHERE game IN (SELECT id FROM games {where}) ORDER BY game, ply",
                args,
            ):
                moves[game_id].append(square)
                left[game_id].append(left_ms)
            return [
                ServerGame(
                    id=row[0],
                    black=row[1],
                    white=row[2],
                    moves=tuple(moves[row[0]]),
                    resigned=row[3],
                    finished=bool(row[4]),
                    created=datetime.fromisoformat(row[5]),
                    updated=datetime.fromisoformat(row[6]),
                    origin=row[7] or f"{server_id}:{row[0]}",
                    set_aside=row[8],
                    clock=_clock(row[9], row[10]),
                    rated=bool(row[11]),
                    left_ms=tuple(left[row[0]]),
                    end_reason="aborted" if row[14] else row[12],
                    winner=row[13],
                )
                for row in rows
            ]

    def integrity(self) -> str:
        """``PRAGMA integrity_check``: ``ok`` for a sound file, else its first finding."""
        try:
            return str(self._db.execute("PRAGMA integrity_check").fetchone()[0])
        except sqlite3.Error as error:
            raise self._failure("check", error) from None

    def __enter__(self) -> SqliteStore:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


def _now() -> str:
    return datetime.now(UTC).isoformat()


def _close_challenge(db: sqlite3.Connection, challenge_id: int, now: str) -> bool:
    """Close a pending challenge inside the caller's transaction; False if it was not."""
    cursor = db.execute(
        "UPDATE challenges SET closed = ? WHERE id = ? AND closed IS NULL", (now, challenge_id)
    )
    return cursor.rowcount == 1


def _clock(minutes: int | None, increment: int | None) -> tuple[int, int] | None:
    return None if minutes is None or increment is None else (minutes, increment)


def _append(
    db: sqlite3.Connection, game_id: int, ply: int, square: int, left_ms: int | None, now: str
) -> None:
    """Insert one move inside the caller's (immediate) transaction, so the ply read here
    is still the next one when the row goes in."""
    if not 0 <= square <= 63:
        raise StoreError(f"square {square} is not on the board (0-63)")
    if ply < 0:
        raise StoreError(f"ply {ply} is negative")
    row: Any = db.execute(
        "SELECT finished, (SELECT coalesce(max(ply) + 1, 0) FROM moves WHERE game = ?)"
        " FROM games WHERE id = ?",
        (game_id, game_id),
    ).fetchone()
    if row is None:
        raise StoreError(f"there is no game {game_id}")
    finished, expected = row
    if finished:
        raise StoreError(f"game {game_id} is finished")
    if ply < expected:
        raise StaleMove(f"game {game_id} already has a move at ply {ply}")
    if ply > expected:
        raise StoreError(f"game {game_id} has {expected} moves: a move at ply {ply} skips")
    db.execute(
        "INSERT INTO moves (game, ply, square, played, left_ms) VALUES (?, ?, ?, ?, ?)",
        (game_id, ply, square, now, left_ms),
    )
    db.execute("UPDATE games SET updated = ? WHERE id = ?", (now, game_id))
