"""Writing a file so that a crash at any instant leaves the old one or the new one.

A save is written to a temporary file beside it, flushed and fsynced, then
renamed over the old name (``os.replace`` is atomic within a directory) and the
directory fsynced so the rename itself survives a power cut. A process killed
half way leaves the previous file untouched: never a torn one. Only a regular file
is replaced: a symbolic link is written through (the file it names is replaced and
the link kept), and a FIFO, a device or a directory is refused. Damaged files are
renamed aside with a timestamp, never deleted, so nothing a player had is lost.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from contextlib import suppress
from datetime import datetime
from pathlib import Path

from reversi_tui.records.paths import StorageError, file_kind, storage_error

__all__ = ["TEMP_SUFFIX", "atomic_write", "set_aside"]

#: Temporary files are ``.<name>.<random>.tmp``: hidden, and never taken for a save.
TEMP_SUFFIX = ".tmp"
#: What a set-aside file's name gets: ``<name>.damaged-20260101T120000``.
DAMAGED_MARK = ".damaged-"


def atomic_write(path: Path, data: bytes | str) -> None:
    """Replace ``path``'s contents with ``data`` (text is UTF-8) all at once; mode 0600.

    A symbolic link is written through: the file it names is replaced, the link
    stays. Raises StorageError (one line: which directory, and why) when the disk
    refuses, or (which path, and what it is) when ``path`` is, or links to, anything
    but a regular file; the temporary file is removed then and the old file stays
    as it was.
    """
    payload = data.encode("utf-8") if isinstance(data, str) else data
    path = regular_target(path)
    directory = path.parent
    try:
        # mkstemp opens with O_EXCL and mode 0600: the file is private from the start.
        handle, temp_name = tempfile.mkstemp(
            prefix=f".{path.name}.", suffix=TEMP_SUFFIX, dir=directory
        )
    except OSError as error:
        raise storage_error(error, directory) from None
    done = False
    try:
        with open(handle, "wb") as temp:
            temp.write(payload)
            temp.flush()
            os.fsync(temp.fileno())
        os.replace(temp_name, path)
        done = True
    except OSError as error:
        raise storage_error(error, directory) from None
    finally:
        if not done:  # also on KeyboardInterrupt and the like
            with suppress(OSError):
                os.unlink(temp_name)
    fsync_directory(directory)


def regular_target(path: Path) -> Path:
    """The file a write to ``path`` replaces: ``path``, or the file a symbolic link names.

    Nothing there is fine (the write makes it; a link that dangles makes the file it
    names). StorageError for a FIFO, a device, a directory or a socket, at ``path`` or
    at the link's end, and for a link that cannot be followed (a loop): replacing one
    would lose it, and ``/dev/full`` would become a file.
    """
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return path  # nothing there, or nothing we may look at: the write says which
    if stat.S_ISREG(mode):
        return path
    if not stat.S_ISLNK(mode):
        raise StorageError(f"{path} is {file_kind(mode)}, not a regular file")
    real = Path(os.path.realpath(path))
    try:
        mode = os.stat(real).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return real  # a dangling link: the write makes the file it names, or says why not
    except OSError as error:
        reason = error.strerror or str(error)
        raise StorageError(
            f"{path} is a symbolic link that cannot be followed ({reason})", error=error
        ) from None
    if not stat.S_ISREG(mode):
        raise StorageError(f"{path} links to {real}, {file_kind(mode)}, not a regular file")
    return real


def fsync_directory(directory: Path) -> None:
    """Make a rename in ``directory`` durable (file systems that cannot are let be)."""
    try:
        handle = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    except OSError as error:
        raise storage_error(error, directory) from None
    try:
        os.fsync(handle)
    except OSError as error:
        if error.errno not in (errno.EINVAL, errno.ENOTSUP, errno.EBADF):
            raise storage_error(error, directory) from None
    finally:
        os.close(handle)


def set_aside(path: Path) -> Path:
    """Rename a damaged ``path`` to ``<name>.damaged-<YYYYmmddTHHMMSS>[-n]`` beside it.

    The file is kept, never deleted: the player (or a bug report) may still want
    it. Returns the new path; raises StorageError if it cannot be renamed (the
    error's ``error`` is FileNotFoundError when somebody else moved it first).
    """
    stamp = datetime.now().strftime("%Y%m%dT%H%M%S")
    base = f"{path.name}{DAMAGED_MARK}{stamp}"
    number = 0
    while True:
        target = path.with_name(base if number == 0 else f"{base}-{number}")
        if not os.path.lexists(target):
            break
        number += 1
    try:
        os.rename(path, target)
    except OSError as error:
        raise storage_error(error, path, "set aside") from None
    return target
