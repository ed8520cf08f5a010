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

Nothing waits for ever: the lock and a writer elsewhere are waited for ``wait``
seconds, then the file is "busy" in a sentence that says to try again. A file opened
``reading`` only is still read when nothing can be written beside it (a full disk:
SQLite cannot even make its ``-shm`` file), as long as no changes wait in its ``-wal``.
"""

from __future__ import annotations

import errno
import fcntl
import os
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import ClassVar, Final

from reversi_tui.records.atomic import set_aside
from reversi_tui.records.paths import StorageError

#: Milliseconds a writer waits for another one (or for the opening lock) before giving up.
BUSY_TIMEOUT_MS: Final = 5000
#: Seconds a file waits for another process's lock, unless told otherwise.
WAIT_SECONDS: Final = BUSY_TIMEOUT_MS / 1000
#: Seconds a screen of the app waits to read a database another reversi is writing: the
#: app waits with it, so not long (it says the records are busy instead).
SCREEN_WAIT_SECONDS: Final = 1.0
#: Seconds between two tries of the opening lock.
LOCK_POLL_SECONDS: Final = 0.02
SQLITE_HEADER: Final = b"SQLite format 3\x00"
#: SQLite's result codes for a file that is not a database or is damaged.
DAMAGED_CODES: Final = frozenset({sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB})
#: SQLite's result codes for a lock held by another connection.
BUSY_CODES: Final = frozenset({sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED})
#: SQLite's result codes for a file that can be read but nothing written beside it.
UNWRITABLE_CODES: Final = frozenset(
    {sqlite3.SQLITE_IOERR, sqlite3.SQLITE_FULL, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_READONLY}
)

Migration = Callable[[sqlite3.Connection], None]


class Damaged(Exception):
    """The file is not a usable one of ours: set it aside (internal)."""


class CannotWrite(Exception):
    """Nothing can be written beside the file: read it as it is, if it can be (internal)."""

    def __init__(self, error: sqlite3.Error) -> None:
        super().__init__(str(error))
        self.error = error


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

    def __init__(self, path: Path, *, wait: float = WAIT_SECONDS, reading: bool = False) -> None:
        """``wait``: seconds another process's lock is waited for; ``reading``: only
        read here (a command that shows the file), so a full disk does not stop it."""
        self.path = path
        self.wait = wait
        self.reading = reading
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
            self._take_lock(fd)
            yield
        finally:
            os.close(fd)

    def _take_lock(self, fd: int) -> None:
        """The opening lock, waited for ``wait`` seconds at most (flock itself has no
        time limit: another process opening or migrating the file holds it)."""
        deadline = time.monotonic() + self.wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise self._busy() from None
            time.sleep(LOCK_POLL_SECONDS)

    def _busy(self) -> Exception:
        return self.Error(
            f"{self.WHAT} {self.path} is busy: another reversi is writing to it; "
            "try again in a moment"
        )

    def _open(self) -> sqlite3.Connection:
        try:
            return self._connect()
        except Damaged as damage:
            self._set_aside(str(damage))
        except CannotWrite as refused:
            return self._open_unwritable(refused.error)
        try:
            return self._connect()
        except Damaged as damage:
            raise self.Error(f"{self.WHAT} {self.path} cannot be made: {damage}") from None
        except CannotWrite as refused:
            raise self._failure("open", refused.error) from None

    def _connect(self) -> sqlite3.Connection:
        """The connection to a checked, migrated file; ``Damaged`` when the file is bad."""
        self._check_header()
        if not self.path.exists():
            self._create_private()
        try:
            db = sqlite3.connect(self.path, isolation_level=None, timeout=self.wait)
        except sqlite3.Error as error:
            if self.reading and cannot_write(error):
                raise CannotWrite(error) from None
            raise self._failure("open", error) from None
        try:
            self._configure(db)
            db.execute(f"PRAGMA busy_timeout = {round(self.wait * 1000)}")
            self._check_identity(db)
            self._checked(db)
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA synchronous = FULL")
            self._migrate(db)
        except BaseException as error:
            db.close()
            if isinstance(error, sqlite3.Error) and is_damage(error):
                raise Damaged(str(error)) from None
            if isinstance(error, sqlite3.Error) and self.reading and cannot_write(error):
                raise CannotWrite(error) from None
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

    def _open_unwritable(self, error: sqlite3.Error) -> sqlite3.Connection:
        """Read a file nothing can be written beside, as it was last closed: SQLite's
        ``immutable`` mode takes no lock and makes no file. Only when its ``-wal``
        holds no changes the main file lacks; otherwise the failure, in words."""
        wal = Path(f"{self.path}-wal")
        if wal.exists() and wal.stat().st_size > 0:
            raise self._failure("read", error)
        try:
            db = sqlite3.connect(
                f"{self.path.resolve().as_uri()}?immutable=1", uri=True, isolation_level=None
            )
            self._configure(db)
            self._check_identity(db)
            if db.execute("PRAGMA user_version").fetchone()[0] != self.schema_version():
                db.close()
                raise self._failure("read", error)
        except sqlite3.Error as again:
            raise self._failure("read", again) from None
        except Damaged:
            raise self._failure("read", error) from None
        if disk_full(self.path):
            self.problems.append(
                f"The disk holding {self.WHAT} is full: it was read, but no game can be "
                "recorded until some space is freed."
            )
        return db

    def _failure(self, doing: str, error: sqlite3.Error) -> Exception:
        if is_busy(error):
            return self._busy()
        if cannot_write(error) and disk_full(self.path):
            return self.Error(
                f"cannot {doing} {self.WHAT} {self.path}: the disk is full; free some space "
                "and try again"
            )
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


def _primary_code(error: sqlite3.Error) -> int | None:
    code = getattr(error, "sqlite_errorcode", None)
    return None if code is None else int(code) & 0xFF


def is_damage(error: sqlite3.Error) -> bool:
    return getattr(error, "sqlite_errorcode", None) in DAMAGED_CODES


def is_busy(error: sqlite3.Error) -> bool:
    """Another connection holds the lock (and the busy timeout ran out)."""
    return _primary_code(error) in BUSY_CODES


def cannot_write(error: sqlite3.Error) -> bool:
    """SQLite could not write or create a file (a full disk, a read-only one)."""
    return _primary_code(error) in UNWRITABLE_CODES


def disk_full(path: Path) -> bool:
    """No space left for an ordinary user on the file system holding ``path``."""
    try:
        found = os.statvfs(path.parent)
    except OSError as error:
        return error.errno == errno.ENOSPC
    return found.f_bavail == 0
