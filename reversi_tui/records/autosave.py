"""Autosaves: each running game's own file, rewritten after every change, locked while open.

A save is JSON (``format``, ``version``, the ``record``, the ``redo`` plies, the
``review`` ply and when it was ``saved``), written atomically. Version 2 writes the
players in their text form (``hard/2.5s``); a version 1 save, whose players are dicts
of fields, reads the same. While a game is open, its process holds an ``fcntl.flock``
on a sidecar ``<save>.lock`` file: not on the save itself, whose inode every atomic
write replaces. The kernel drops the lock when the process dies however it dies, so a
``kill -9`` never leaves a game stuck, and a game open in another terminal is never
offered, claimed or removed.

Reading is strict about the game and gentle with the player: a save that is
damaged, foreign or from a newer version is renamed aside with a timestamp
(never deleted) and reported in one line in ``AutosaveStore.problems`` (a wrong
field named by its path, ``$.record.moves[3]``); the good saves are still offered.
The file is checked by msgspec (``SaveForm``, with the record's ``RecordForm``) as
the network protocol's messages are; fields it does not know are let be. A computer
saved thinking longer than the command line allows (``MOST_THINK_SECONDS``) plays
on at that most, and a line in ``problems`` says so.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import secrets
import time
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Annotated, Any

import msgspec

from reversi_tui.engine import PASS, Color, Game, Move, square_name
from reversi_tui.match.record import GameRecord, RecordError, RecordForm, parse_moves
from reversi_tui.match.settings import MOST_THINK_SECONDS, PlayerSpec
from reversi_tui.records.atomic import TEMP_SUFFIX, atomic_write, set_aside
from reversi_tui.records.paths import StorageError, storage_error

__all__ = [
    "SAVE_FORMAT",
    "SAVE_VERSION",
    "Autosave",
    "AutosaveStore",
    "Resumable",
    "SaveFileError",
    "SavedGame",
]

SAVE_FORMAT = "reversi-tui autosave"
SAVE_VERSION = 2
SAVE_SUFFIX = ".json"
LOCK_SUFFIX = ".lock"
#: Far more than any game needs (a 60-ply save is about 2 kB): a bigger file is not ours.
MAX_SAVE_BYTES = 1 << 20
#: A write takes milliseconds: a temporary file this old was left by a killed process.
STALE_TEMP_SECONDS = 3600


class SaveFileError(ValueError):
    """A save file that cannot be used; ``str()`` says why in a few words."""


class SaveForm(msgspec.Struct, frozen=True, kw_only=True):
    """A save file as JSON (versions 1 and 2 alike: a player is its text form or, as
    version 1 wrote it, a dict of fields; ``RecordForm`` reads both)."""

    format: str
    version: int
    record: RecordForm
    #: The taken-back plies, in the order redo plays them (``f5``, ``pass``).
    redo: list[str]
    #: The plies shown when saved while reviewing; None when live.
    review: Annotated[int, msgspec.Meta(ge=0)] | None
    #: When it was written (ISO 8601); not needed to play on.
    saved: str | None = None


@dataclass(frozen=True)
class SavedGame:
    """Everything needed to go on with a game exactly as it was left.

    ``redo`` holds the taken-back plies in the order redo would play them again;
    ``review`` is the number of plies shown when the game was saved while being
    reviewed (None when live).
    """

    record: GameRecord
    redo: tuple[Move, ...] = ()
    review: int | None = None

    @classmethod
    def of(
        cls,
        game: Game,
        players: dict[Color, PlayerSpec],
        started: datetime | None,
        review: int | None = None,
    ) -> SavedGame:
        """The save of ``game`` as it stands, redo stack included."""
        record = GameRecord.of(game, players, started=started)
        return cls(record, tuple(game.redo_moves), review)

    def game(self) -> Game:
        """The game rebuilt with the same history and the same redo stack.

        Replays the record's plies and then the redo plies, and takes back one move
        per redo move that is not a pass. Raises RecordError if they do not replay.
        """
        try:
            game = Game.from_moves(self.record.start, (*self.record.moves, *self.redo))
        except ValueError as error:
            raise RecordError(f"the saved moves do not replay: {error}") from None
        for move in self.redo:
            if move != PASS:
                game.undo()
        if tuple(game.redo_moves) != self.redo:
            raise RecordError("the saved redo moves do not follow the game")
        return game

    # The file's form ------------------------------------------------------------------
    def to_json(self, saved: datetime | None = None) -> str:
        """The save file's text; ``saved`` (default now) is when it was written."""
        form = SaveForm(
            format=SAVE_FORMAT,
            version=SAVE_VERSION,
            record=RecordForm.of(self.record),
            redo=[square_name(move) for move in self.redo],
            review=self.review,
            saved=(saved or datetime.now(UTC)).isoformat(),
        )
        return json.dumps(msgspec.to_builtins(form)) + "\n"

    @classmethod
    def from_json(cls, raw: bytes) -> SavedGame:
        """Read a save file's bytes: raises SaveFileError saying what is wrong with them."""
        return cls.read_json(raw)[0]

    @classmethod
    def read_json(cls, raw: bytes) -> tuple[SavedGame, tuple[str, ...]]:
        """Read a save file's bytes, and say what was changed to play it safely: a
        computer saved thinking longer than ``MOST_THINK_SECONDS`` thinks that long
        (one line each). Raises SaveFileError saying what is wrong with them, a wrong
        field named by its path."""
        data = _decode(raw)
        try:
            form = msgspec.convert(data, SaveForm)
            record = form.record.record("$.record")
            redo = parse_moves(form.redo, "$.redo")
        except (msgspec.ValidationError, RecordError) as error:
            raise SaveFileError(f"its game is not valid ({error})") from None
        record, notes = _bounded(record)
        saved = cls(record, redo, form.review)
        try:
            game = saved.game()
        except RecordError as error:
            raise SaveFileError(f"its game is not valid ({error})") from None
        if form.review is not None and form.review > len(game.plies):
            raise SaveFileError("its review ply is outside the game")
        return saved, notes


def _bounded(record: GameRecord) -> tuple[GameRecord, tuple[str, ...]]:
    """``record`` with each computer thinking at most ``MOST_THINK_SECONDS`` a move, as
    the command line allows, and a line for each one held to it."""
    notes: list[str] = []

    def bound(colour: Color) -> PlayerSpec:
        spec = record.player(colour)
        if spec.think_time is None or spec.think_time <= MOST_THINK_SECONDS:
            return spec
        notes.append(
            f"{colour.title} was saved thinking {spec.think_time:g} seconds a move; "
            f"it thinks {MOST_THINK_SECONDS:g}, the most allowed"
        )
        return replace(spec, think_time=MOST_THINK_SECONDS)

    black, white = bound(Color.BLACK), bound(Color.WHITE)
    return replace(record, black=black, white=white), tuple(notes)


def _decode(raw: bytes) -> dict[str, Any]:
    """The JSON object of one of our saves at a version we read, or SaveFileError."""
    if not raw.strip():
        raise SaveFileError("it is empty")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SaveFileError("it is not text") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        where = f"line {error.lineno} column {error.colno}"
        raise SaveFileError(f"it is not valid JSON, cut short or garbled at {where}") from None
    except RecursionError:
        raise SaveFileError("it is not valid JSON") from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise SaveFileError("it is not a reversi-tui autosave")
    version = data.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise SaveFileError(f"its save version {version!r} is not one reversi-tui writes")
    if version > SAVE_VERSION:
        raise SaveFileError(f"a newer reversi-tui wrote it (save version {version})")
    return data


# Locks ------------------------------------------------------------------------------
def lock_path(save: Path) -> Path:
    return save.with_name(save.name + LOCK_SUFFIX)


class _Lock:
    """An exclusive ``flock`` on a lock file, held until released or the process dies."""

    def __init__(self, path: Path, handle: int) -> None:
        self.path = path
        self._handle: int | None = handle

    @classmethod
    def take(cls, path: Path, *, new: bool = False) -> _Lock | None:
        """The lock on ``path`` (created if missing; ``new``: must not exist yet).

        None when another process holds it, or the file was removed while we took
        it (its game was finished or discarded). Raises OSError when the disk refuses.
        """
        flags = os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | (os.O_EXCL if new else 0)
        handle = os.open(path, flags, 0o600)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            now, mine = os.stat(path), os.fstat(handle)
        except (BlockingIOError, FileNotFoundError):
            os.close(handle)
            return None
        except BaseException:
            os.close(handle)
            raise
        if (now.st_dev, now.st_ino) != (mine.st_dev, mine.st_ino):  # replaced meanwhile
            os.close(handle)
            return None
        return cls(path, handle)

    @property
    def held(self) -> bool:
        return self._handle is not None

    def release(self, *, remove: bool = False) -> None:
        """Let go of the lock; ``remove`` deletes the lock file first (while still held)."""
        handle, self._handle = self._handle, None
        if handle is None:
            return
        try:
            if remove:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(self.path)
        finally:
            os.close(handle)


# One game's save --------------------------------------------------------------------
class Autosave:
    """The save file of one running game, locked for as long as it is open here."""

    def __init__(self, path: Path, lock: _Lock) -> None:
        self.path = path
        self._lock = lock

    @property
    def is_open(self) -> bool:
        return self._lock.held

    def write(self, saved: SavedGame) -> None:
        """Save ``saved`` atomically; raises StorageError if the disk refuses."""
        if not self._lock.held:
            raise StorageError(f"{self.path} is no longer open for saving")
        atomic_write(self.path, saved.to_json())

    def finish(self) -> None:
        """The game is over (and recorded): remove its save and lock file.

        Raises StorageError if the save cannot be removed; the lock goes anyway.
        """
        if not self._lock.held:
            return
        try:
            self.path.unlink(missing_ok=True)
        except OSError as error:
            self._lock.release()
            raise storage_error(error, self.path.parent) from None
        try:
            self._lock.release(remove=True)
        except OSError as error:
            raise storage_error(error, self.path.parent) from None

    def close(self) -> None:
        """Let the game go: the save stays for a later ``reversi`` to resume."""
        self._lock.release()

    def __enter__(self) -> Autosave:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


@dataclass(frozen=True)
class Resumable:
    """An unfinished game nobody has open: its save, what it holds and when it was written."""

    path: Path
    saved: SavedGame
    modified: datetime
    #: What was changed to play it safely (``SavedGame.read_json``), one line each.
    notes: tuple[str, ...] = ()


class AutosaveStore:
    """The autosave directory: new saves, and the unfinished games left by earlier runs."""

    def __init__(self, directory: Path) -> None:
        """``directory`` must exist (``ensure_private_dir``) before ``create``."""
        self.directory = directory
        #: One line per save set aside or unreadable, for the player; the caller clears it.
        self.problems: list[str] = []

    def create(self) -> Autosave:
        """A new save for a new game, under a new name, locked; nothing is written yet."""
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        while True:
            path = self.directory / f"game-{stamp}-{secrets.token_hex(4)}{SAVE_SUFFIX}"
            if os.path.lexists(path):
                continue
            try:
                lock = _Lock.take(lock_path(path), new=True)
            except FileExistsError:
                continue
            except OSError as error:
                raise storage_error(error, self.directory) from None
            if lock is not None:
                return Autosave(path, lock)

    def resumable(self) -> list[Resumable]:
        """Unfinished games whose lock nobody holds, the most recently saved first.

        A game open in another process is not looked at. A save that cannot be
        used is set aside, with one line in ``problems`` (as is each change made to
        play a game safely); a finished game is left alone and not offered. Raises
        StorageError if the directory cannot be read (a missing one holds no games).
        """
        return self._listed(finished=False)

    def finished(self) -> list[Resumable]:
        """Finished games whose lock nobody holds: kept here because the records
        database could not take them when they ended (``GameKeeper.record_kept``)."""
        return self._listed(finished=True)

    def _listed(self, *, finished: bool) -> list[Resumable]:
        try:
            names = sorted(os.listdir(self.directory))
        except FileNotFoundError:
            return []
        except OSError as error:
            raise storage_error(error, self.directory, "read") from None
        self._sweep(names)
        found: list[Resumable] = []
        for name in names:
            path = self.directory / name
            if name.startswith(".") or not name.endswith(SAVE_SUFFIX) or not path.is_file():
                continue
            lock = self._take(path)
            if lock is None:
                continue
            try:
                item = self._read(path)
            finally:
                lock.release()
            if item is not None and item.saved.record.is_finished == finished:
                found.append(item)
                self.problems.extend(f"The saved game {name}: {note}." for note in item.notes)
        found.sort(key=lambda item: item.modified, reverse=True)
        return found

    def claim(self, item: Resumable) -> Autosave | None:
        """Take ``item``'s game to play on: its locked Autosave.

        None if another process holds it, or it was changed, finished or
        discarded since it was listed (then ``item`` is out of date).
        """
        lock = self._take(item.path)
        if lock is None:
            return None
        now = self._read(item.path)
        if now is None or now.saved != item.saved:
            lock.release()
            return None
        return Autosave(item.path, lock)

    def discard(self, item: Resumable) -> bool:
        """Delete ``item``'s save and lock file, if nobody has the game open.

        Returns whether it was removed; a disk that refuses adds a line to
        ``problems`` instead of raising (discarding is never worth a failure).
        """
        lock = self._take(item.path)
        if lock is None:
            return False
        try:
            item.path.unlink(missing_ok=True)
            lock.release(remove=True)
        except OSError as error:
            self.problems.append(f"Could not discard a game: {storage_error(error, item.path)}")
            return False
        finally:
            lock.release()
        return True

    # Helpers ----------------------------------------------------------------------------
    def _sweep(self, names: list[str]) -> None:
        """Remove what crashes leave behind: lock files whose save is gone (nobody
        holding them) and temporary files of writes cut short long ago."""
        present = set(names)
        for name in names:
            path = self.directory / name
            if name.endswith(SAVE_SUFFIX + LOCK_SUFFIX):
                if name.removesuffix(LOCK_SUFFIX) in present:
                    continue
                with contextlib.suppress(OSError):
                    lock = _Lock.take(path)
                    if lock is not None:
                        save = self.directory / name.removesuffix(LOCK_SUFFIX)
                        lock.release(remove=not os.path.lexists(save))
            elif name.startswith(".") and name.endswith(TEMP_SUFFIX):
                with contextlib.suppress(OSError):
                    if time.time() - os.lstat(path).st_mtime > STALE_TEMP_SECONDS:
                        os.unlink(path)

    def _take(self, save: Path) -> _Lock | None:
        """``save``'s lock, or None if it is held elsewhere or cannot be taken (a problem)."""
        try:
            return _Lock.take(lock_path(save))
        except OSError as error:
            self.problems.append(f"Could not open a saved game: {storage_error(error, save)}")
            return None

    def _read(self, path: Path) -> Resumable | None:
        """The save at ``path`` (its lock held); a bad one is set aside and None returned."""
        try:
            with open(path, "rb") as file:
                raw = file.read(MAX_SAVE_BYTES + 1)
                modified = datetime.fromtimestamp(os.fstat(file.fileno()).st_mtime, UTC)
        except FileNotFoundError:  # finished or discarded meanwhile
            return None
        except OSError as error:
            self.problems.append(
                f"Could not read a saved game: {storage_error(error, path, 'read')}"
            )
            return None
        try:
            if len(raw) > MAX_SAVE_BYTES:
                raise SaveFileError("it is far too large")
            saved, notes = SavedGame.read_json(raw)
        except SaveFileError as error:
            self._set_aside(path, str(error))
            return None
        return Resumable(path, saved, modified, notes)

    def _set_aside(self, path: Path, why: str) -> None:
        try:
            moved = set_aside(path)
        except StorageError as error:
            if not isinstance(error.error, FileNotFoundError):
                self.problems.append(
                    f"The saved game {path} cannot be used ({why}) nor set aside: {error}"
                )
            return
        with contextlib.suppress(OSError):
            os.unlink(lock_path(path))
        self.problems.append(
            f"The saved game {path.name} could not be used ({why}); "
            f"it was kept as {moved} (not deleted)."
        )
