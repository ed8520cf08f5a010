"""The online server's storage: challenges, games and their moves, behind ``Store``.

``Store`` is the small interface the server needs; ``SqliteStore`` implements it
on one SQLite file owned by the server (0600 in a 0700 directory, WAL,
``synchronous=FULL``), and a PostgreSQL store for several servers could implement
it later. Moves live in an append-only table keyed by (game, ply): a move is
committed before ``append_move`` returns, so the server tells nobody of a move
the disk does not hold. Legality is the server's business (it replays with the
engine); the store only refuses a ply that is not the next one, and any write to
a finished game. The file carries ``application_id`` and ``user_version``; a
foreign or damaged file is set aside (renamed, never deleted), and a newer
schema is refused untouched.
"""

from __future__ import annotations

import os
import sqlite3
import stat
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final, Protocol

from reversi_tui.records.atomic import set_aside
from reversi_tui.records.paths import StorageError

#: ``PRAGMA application_id`` of the server's files ("RvOn").
APPLICATION_ID: Final = 0x52764F6E
SCHEMA_VERSION: Final = 1
BUSY_TIMEOUT_MS: Final = 5000
_SQLITE_HEADER = b"SQLite format 3\x00"

_SCHEMA_V1 = """
CREATE TABLE challenges (
    id INTEGER PRIMARY KEY,
    challenger TEXT NOT NULL,
    target TEXT NOT NULL,
    color TEXT NOT NULL CHECK (color IN ('black', 'white', 'random')),
    created TEXT NOT NULL,
    closed TEXT
);
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    black TEXT NOT NULL,
    white TEXT NOT NULL,
    challenge INTEGER REFERENCES challenges (id),
    resigned TEXT CHECK (resigned IN ('black', 'white')),
    finished INTEGER NOT NULL DEFAULT 0,
    created TEXT NOT NULL,
    updated TEXT NOT NULL
);
CREATE TABLE moves (
    game INTEGER NOT NULL REFERENCES games (id),
    ply INTEGER NOT NULL CHECK (ply >= 0),
    square INTEGER NOT NULL CHECK (square BETWEEN 0 AND 63),
    played TEXT NOT NULL,
    PRIMARY KEY (game, ply)
) WITHOUT ROWID;
CREATE TRIGGER moves_append_only_update BEFORE UPDATE ON moves
    BEGIN SELECT RAISE(ABORT, 'moves are append-only'); END;
CREATE TRIGGER moves_append_only_delete BEFORE DELETE ON moves
    BEGIN SELECT RAISE(ABORT, 'moves are append-only'); END;
CREATE INDEX games_unfinished ON games (finished);
"""


class StoreError(Exception):
    """The store cannot be opened or written: one clear sentence."""


class StaleMove(StoreError):
    """A move for a ply that is already taken (another session was first)."""


@dataclass(frozen=True)
class StoredChallenge:
    id: int
    challenger: str
    target: str
    #: The challenger's colour: ``black``, ``white`` or ``random``.
    color: str
    created: datetime


@dataclass(frozen=True)
class StoredGame:
    """An online game: its players, its moves (squares; passes are not stored, the
    engine forces them on replay) and how it stands."""

    id: int
    black: str
    white: str
    moves: tuple[int, ...]
    resigned: str | None
    finished: bool
    created: datetime
    updated: datetime


class Store(Protocol):
    """What the server needs of its storage."""

    def create_challenge(self, challenger: str, target: str, color: str) -> StoredChallenge: ...
    def pending_challenges(self) -> list[StoredChallenge]: ...
    def close_challenge(self, challenge_id: int) -> bool: ...
    def create_game(
        self, black: str, white: str, *, challenge_id: int | None = None
    ) -> StoredGame: ...
    def append_move(self, game_id: int, ply: int, square: int) -> None: ...
    def append_moves(self, moves: list[tuple[int, int, int]]) -> None: ...
    def finish_game(self, game_id: int, *, resigned: str | None = None) -> None: ...
    def game(self, game_id: int) -> StoredGame | None: ...
    def games(self, *, unfinished_only: bool = False) -> list[StoredGame]: ...
    def close(self) -> None: ...


def _now() -> str:
    return datetime.now(UTC).isoformat()


class _Damaged(Exception):
    pass


class SqliteStore:
    """``Store`` on one SQLite file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        #: What was wrong with the file and what was done, one sentence each.
        self.problems: list[str] = []
        _private_directory(path.parent)
        try:
            self._db = self._connect()
        except _Damaged as damage:
            try:
                aside = set_aside(path)
            except StorageError as error:
                raise StoreError(f"{path} is damaged ({damage}) and {error}") from None
            self.problems.append(f"{path} was not a usable game store ({damage}): moved to {aside}")
            try:
                self._db = self._connect()
            except _Damaged as again:
                raise StoreError(f"{path} cannot be made: {again}") from None

    def _connect(self) -> sqlite3.Connection:
        _check_header(self.path)
        if not self.path.exists():
            try:
                os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            except FileExistsError:
                pass
            except OSError as error:
                raise StoreError(f"cannot create {self.path}: {error.strerror}") from None
        os.chmod(self.path, 0o600)
        try:
            db = sqlite3.connect(self.path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
        except sqlite3.Error as error:
            raise StoreError(f"cannot open {self.path}: {error}") from None
        try:
            db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            app_id = db.execute("PRAGMA application_id").fetchone()[0]
            version = db.execute("PRAGMA user_version").fetchone()[0]
            tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
            if app_id != APPLICATION_ID and (app_id != 0 or tables):
                raise _Damaged("it belongs to another program")
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"{self.path} was written by a newer reversi (schema {version}); "
                    f"this one knows {SCHEMA_VERSION}: it is left untouched"
                )
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA synchronous = FULL")
            db.execute("PRAGMA foreign_keys = ON")
            if version < SCHEMA_VERSION:  # version 0: a new file (one migration so far)
                db.executescript(
                    "BEGIN IMMEDIATE;"
                    + _SCHEMA_V1
                    + f"PRAGMA application_id = {APPLICATION_ID};"
                    + f"PRAGMA user_version = {SCHEMA_VERSION};"
                    + "COMMIT;"
                )
        except sqlite3.DatabaseError as error:
            db.close()
            if isinstance(error, sqlite3.Error) and error.sqlite_errorcode in (
                sqlite3.SQLITE_CORRUPT,
                sqlite3.SQLITE_NOTADB,
            ):
                raise _Damaged(str(error)) from None
            raise StoreError(f"cannot use {self.path}: {error}") from None
        except BaseException:
            db.close()
            raise
        return db

    # Writes --------------------------------------------------------------------------
    def _write(self, sql: str, args: tuple[object, ...]) -> sqlite3.Cursor:
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                cursor = self._db.execute(sql, args)
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise
        except sqlite3.Error as error:
            raise StoreError(f"cannot write {self.path}: {error}") from None
        return cursor

    def create_challenge(self, challenger: str, target: str, color: str) -> StoredChallenge:
        created = _now()
        cursor = self._write(
            "INSERT INTO challenges (challenger, target, color, created) VALUES (?, ?, ?, ?)",
            (challenger, target, color, created),
        )
        assert cursor.lastrowid is not None
        return StoredChallenge(
            cursor.lastrowid, challenger, target, color, datetime.fromisoformat(created)
        )

    def close_challenge(self, challenge_id: int) -> bool:
        cursor = self._write(
            "UPDATE challenges SET closed = ? WHERE id = ? AND closed IS NULL",
            (_now(), challenge_id),
        )
        return cursor.rowcount == 1

    def create_game(self, black: str, white: str, *, challenge_id: int | None = None) -> StoredGame:
        now = _now()
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                if challenge_id is not None:
                    db.execute(
                        "UPDATE challenges SET closed = ? WHERE id = ? AND closed IS NULL",
                        (now, challenge_id),
                    )
                cursor = db.execute(
                    "INSERT INTO games (black, white, challenge, created, updated)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (black, white, challenge_id, now, now),
                )
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
        except sqlite3.Error as error:
            raise StoreError(f"cannot write {self.path}: {error}") from None
        assert cursor.lastrowid is not None
        moment = datetime.fromisoformat(now)
        return StoredGame(cursor.lastrowid, black, white, (), None, False, moment, moment)

    def append_move(self, game_id: int, ply: int, square: int) -> None:
        self.append_moves([(game_id, ply, square)])

    def append_moves(self, moves: list[tuple[int, int, int]]) -> None:
        """Several games' next moves, (game, ply, square) each, in one transaction: all
        or none (a group commit: one fsync for every move that arrived together)."""
        db = self._db
        now = _now()
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                for game_id, ply, square in moves:
                    self._append(game_id, ply, square, now)
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
        except sqlite3.IntegrityError:
            raise StaleMove("a move for a ply already taken") from None
        except sqlite3.Error as error:
            raise StoreError(f"cannot write {self.path}: {error}") from None

    def _append(self, game_id: int, ply: int, square: int, now: str) -> None:
        db = self._db
        row = db.execute(
            "SELECT finished, (SELECT count(*) FROM moves WHERE game = ?) FROM games WHERE id = ?",
            (game_id, game_id),
        ).fetchone()
        if row is None:
            raise StoreError(f"no game {game_id}")
        finished, count = row
        if finished:
            raise StoreError(f"game {game_id} is finished")
        if ply < count:
            raise StaleMove(f"game {game_id} already has move {ply + 1}")
        if ply > count:
            raise StoreError(f"game {game_id} has {count} moves: move {ply + 1} skips")
        db.execute(
            "INSERT INTO moves (game, ply, square, played) VALUES (?, ?, ?, ?)",
            (game_id, ply, square, now),
        )
        db.execute("UPDATE games SET updated = ? WHERE id = ?", (now, game_id))

    def finish_game(self, game_id: int, *, resigned: str | None = None) -> None:
        cursor = self._write(
            "UPDATE games SET finished = 1, resigned = ?, updated = ?"
            " WHERE id = ? AND NOT finished",
            (resigned, _now(), game_id),
        )
        if cursor.rowcount != 1:
            raise StoreError(f"game {game_id} is not a game in progress")

    # Reads ---------------------------------------------------------------------------
    def pending_challenges(self) -> list[StoredChallenge]:
        rows = self._read(
            "SELECT id, challenger, target, color, created FROM challenges"
            " WHERE closed IS NULL ORDER BY id",
            (),
        )
        return [StoredChallenge(r[0], r[1], r[2], r[3], datetime.fromisoformat(r[4])) for r in rows]

    def game(self, game_id: int) -> StoredGame | None:
        found = self._games("WHERE id = ?", (game_id,))
        return found[0] if found else None

    def games(self, *, unfinished_only: bool = False) -> list[StoredGame]:
        return self._games("WHERE NOT finished" if unfinished_only else "", ())

    def _games(self, where: str, args: tuple[object, ...]) -> list[StoredGame]:
        rows = self._read(
            "SELECT id, black, white, resigned, finished, created, updated FROM games "
            f"{where} ORDER BY id",
            args,
        )
        games = []
        for row in rows:
            moves = self._read("SELECT square FROM moves WHERE game = ? ORDER BY ply", (row[0],))
            games.append(
                StoredGame(
                    id=row[0],
                    black=row[1],
                    white=row[2],
                    moves=tuple(m[0] for m in moves),
                    resigned=row[3],
                    finished=bool(row[4]),
                    created=datetime.fromisoformat(row[5]),
                    updated=datetime.fromisoformat(row[6]),
                )
            )
        return games

    def _read(self, sql: str, args: tuple[object, ...]) -> list[tuple[Any, ...]]:
        try:
            return list(self._db.execute(sql, args).fetchall())
        except sqlite3.Error as error:
            raise StoreError(f"cannot read {self.path}: {error}") from None

    def integrity(self) -> str:
        """``PRAGMA integrity_check``: ``ok`` for a sound file."""
        return str(self._db.execute("PRAGMA integrity_check").fetchone()[0])

    def close(self) -> None:
        self._db.close()


def _private_directory(directory: Path) -> None:
    """The store's directory: made 0700; an existing one open to others is tightened
    when it is ours, refused otherwise."""
    try:
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = directory.stat()
    except OSError as error:
        raise StoreError(f"cannot make the directory {directory}: {error.strerror}") from None
    if not stat.S_ISDIR(info.st_mode):
        raise StoreError(f"{directory} is not a directory")
    if info.st_mode & 0o077:
        if info.st_uid != os.getuid():
            raise StoreError(f"{directory} is open to other users and not ours: choose another")
        os.chmod(directory, 0o700)


def _check_header(path: Path) -> None:
    """A file that is there but is not SQLite (text, a truncated file) is damaged."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(len(_SQLITE_HEADER))
    except FileNotFoundError:
        return
    except OSError as error:
        raise StoreError(f"cannot read {path}: {error.strerror}") from None
    if head and head != _SQLITE_HEADER:
        raise _Damaged("it is not an SQLite database")
    if not head:
        raise _Damaged("it is empty")
