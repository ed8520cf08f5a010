"""What every SQLite file of ours shares: identity, version, migrations, and repair.

``SqliteFile`` opens a file at once: it holds ``<file>.lock`` while the file is
checked, created, set aside or migrated (so a second process never takes a file
being created for damaged); refuses a file that is not SQLite, belongs to another
program or is damaged by setting it aside (renamed with its ``-wal`` and ``-shm``
files, never deleted) and starting a new one; refuses a file from a newer release
untouched; and runs the missing migrations in one ``BEGIN IMMEDIATE``
transaction. Every connection is WAL with ``synchronous=FULL`` and a busy
timeout. The records database and the online server's store are its subclasses;
each names itself, its error and its migrations.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import ClassVar, Final

from reversi_tui.records.atomic import set_aside
from reversi_tui.records.paths import StorageError

#: Milliseconds a writer waits for another one before giving up.
BUSY_TIMEOUT_MS: Final = 5000
SQLITE_HEADER: Final = b"SQLite format 3\x00"
#: SQLite's result codes for a file that is not a database or is damaged.
DAMAGED_CODES: Final = frozenset({sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB})

Migration = Callable[[sqlite3.Connection], None]


class Damaged(Exception):
    """The file is not a usable one of ours: set it aside (internal)."""


class SqliteFile:
    """An SQLite file of ours at ``path``, opened (created, migrated, repaired) at once."""

    #: ``PRAGMA application_id`` of these files.
    APPLICATION_ID: ClassVar[int]
    #: The schema, one function per version (``MIGRATIONS[v]`` goes from v to v + 1).
    MIGRATIONS: ClassVar[Sequence[Migration]]
    #: What the file is, for messages: "the records database".
    WHAT: ClassVar[str]
    #: What is started when a damaged file is set aside: "new records".
    FRESH: ClassVar[str]
    #: The error raised when the file cannot be used.
    Error: ClassVar[type[Exception]]

    def __init__(self, path: Path) -> None:
        self.path = path
        #: What was wrong with the file and what was done about it, one sentence each.
        self.problems: list[str] = []
        self._before_opening()
        with self._opening_lock():
            self._db = self._open()

    def _schema(self) -> Sequence[Migration]:
        """The migrations (a subclass may read them where tests can change them)."""
        return self.MIGRATIONS

    def schema_version(self) -> int:
        return len(self._schema())

    # Hooks -----------------------------------------------------------------------------
    def _before_opening(self) -> None:
        """Before the lock is taken (the store makes its directory here)."""

    def _configure(self, db: sqlite3.Connection) -> None:
        """Connection settings of the subclass, before the identity check."""

    def _foreign(self, app_id: int) -> None:
        """A file with another ``application_id``: refuse it here to keep it untouched;
        returning sets it aside."""

    def _checked(self, db: sqlite3.Connection) -> None:
        """After the identity check, before the migrations (the store's file modes)."""

    # Opening ---------------------------------------------------------------------------
    def _lock_failed(self, lock_path: Path, error: OSError) -> bool:
        """The lock file cannot be made: True to go on without it (nothing can be
        created there either); the store refuses instead."""
        return True

    @contextmanager
    def _opening_lock(self) -> Iterator[None]:
        lock_path = self.path.with_name(self.path.name + ".lock")
        try:
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        except OSError as error:
            if not self._lock_failed(lock_path, error):
                raise self.Error(f"cannot create {lock_path} ({error.strerror})") from None
            yield
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)

    def _open(self) -> sqlite3.Connection:
        try:
            return self._connect()
        except Damaged as damage:
            self._set_aside(str(damage))
        try:
            return self._connect()
        except Damaged as damage:
            raise self.Error(f"{self.WHAT} {self.path} cannot be made: {damage}") from None

    def _connect(self) -> sqlite3.Connection:
        """The connection to a checked, migrated file; ``Damaged`` when the file is bad."""
        self._check_header()
        if not self.path.exists():
            self._create_private()
        try:
            db = sqlite3.connect(self.path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
        except sqlite3.Error as error:
            raise self._failure("open", error) from None
        try:
            self._configure(db)
            db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            self._check_identity(db)
            self._checked(db)
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA synchronous = FULL")
            self._migrate(db)
        except BaseException as error:
            db.close()
            if isinstance(error, sqlite3.Error) and is_damage(error):
                raise Damaged(str(error)) from None
            if isinstance(error, sqlite3.Error):
                raise self._failure("open", error) from None
            raise
        return db

    def _check_identity(self, db: sqlite3.Connection) -> None:
        """Ours, not newer than this release and sound; or empty. Reads only."""
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        objects = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if app_id == 0 and version == 0 and objects == 0:
            return  # a new, empty file
        if app_id != self.APPLICATION_ID:
            self._foreign(app_id)
        if app_id != self.APPLICATION_ID or version == 0:
            raise Damaged(f"it is not a reversi {self.WHAT.removeprefix('the ')}")
        if version > self.schema_version():
            raise self.Error(
                f"{self.WHAT} {self.path} is from a newer version of reversi (schema "
                f"{version}; this one knows up to {self.schema_version()}): it is left as it "
                f"is; use the newer reversi, or move the file away to start {self.FRESH}"
            )
        check = [row[0] for row in db.execute("PRAGMA quick_check")]
        if check != ["ok"]:
            lines = [line for text in check for line in str(text).splitlines()]
            found = [line for line in lines if not line.startswith("***")] or lines
            raise Damaged(f"it is damaged: {found[0]}")

    def _migrate(self, db: sqlite3.Connection) -> None:
        """Runs the missing migrations in one transaction (another process may have run them)."""
        target = self.schema_version()
        if db.execute("PRAGMA user_version").fetchone()[0] == target:
            return
        db.execute("BEGIN IMMEDIATE")
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > target:
                raise self.Error(f"{self.WHAT} {self.path} was upgraded meanwhile")
            for migration in self._schema()[version:]:
                migration(db)
            db.execute(f"PRAGMA application_id = {self.APPLICATION_ID}")
            db.execute(f"PRAGMA user_version = {target}")
            db.execute("COMMIT")
        except BaseException:
            roll_back(db)
            raise

    def _set_aside(self, reason: str) -> None:
        """Rename the unusable file (and its WAL files, to match) out of the way."""
        try:
            aside = set_aside(self.path)
            for suffix in ("-wal", "-shm"):
                extra = Path(f"{self.path}{suffix}")
                if extra.exists():
                    os.replace(extra, f"{aside}{suffix}")
        except (StorageError, OSError) as error:
            raise self.Error(
                f"{self.WHAT} {self.path} is not usable ({reason}) and cannot be set aside: {error}"
            ) from None
        self.problems.append(
            f"{self.WHAT.capitalize()} was not usable ({reason}): it was kept as {aside.name} "
            f"and {self.FRESH} started."
        )

    def _failure(self, doing: str, error: sqlite3.Error) -> Exception:
        return self.Error(f"cannot {doing} {self.WHAT} {self.path} ({error})")

    def _check_header(self) -> None:
        """``Damaged`` for a file that cannot be an SQLite database: empty, short or foreign."""
        try:
            with self.path.open("rb") as file:
                head = file.read(100)
        except FileNotFoundError:
            return
        except OSError as error:
            raise self.Error(f"{self.WHAT} {self.path} cannot be read ({error.strerror})") from None
        if not head:
            raise Damaged("the file is empty")
        if not head.startswith(SQLITE_HEADER):
            raise Damaged("it is not an SQLite database")
        if len(head) < 100:
            raise Damaged("it is truncated")

    def _create_private(self) -> None:
        """Create the empty file readable by its owner only (SQLite's files follow its mode)."""
        try:
            os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600))
        except FileExistsError:
            pass
        except OSError as error:
            raise self.Error(
                f"{self.WHAT} {self.path} cannot be created ({error.strerror})"
            ) from None

    def close(self) -> None:
        self._db.close()


def roll_back(db: sqlite3.Connection) -> None:
    """End a failed transaction (SQLite may have rolled it back already)."""
    if db.in_transaction:
        db.execute("ROLLBACK")


def is_damage(error: sqlite3.Error) -> bool:
    return getattr(error, "sqlite_errorcode", None) in DAMAGED_CODES
