"""Writing a file so that a crash at any instant leaves the old one or the new one.

A save is written to a temporary file beside it, flushed and fsynced, then
renamed over the old name (``os.replace`` is atomic within a directory) and the
directory fsynced so the rename itself survives a power cut. A process killed
half way leaves the previous file untouched: never a torn one. Damaged files are
renamed aside with a timestamp, never deleted, so nothing a player had is lost.
"""

from __future__ import annotations

import errno
import os
import tempfile
from contextlib import suppress
from datetime import datetime
from pathlib import Path

from reversi_tui.records.paths import storage_error

__all__ = ["TEMP_SUFFIX", "atomic_write", "set_aside"]

#: Temporary files are ``.<name>.<random>.tmp``: hidden, and never taken for a save.
TEMP_SUFFIX = ".tmp"
#: What a set-aside file's name gets: ``<name>.damaged-20260101T120000``.
DAMAGED_MARK = ".damaged-"


def atomic_write(path: Path, data: bytes | str) -> None:
    """Replace ``path``'s contents with ``data`` (text is UTF-8) all at once; mode 0600.

    Raises StorageError (one line: which directory, and why) when the disk
    refuses; the temporary file is removed then and the old file stays as it was.
    """
    payload = data.encode("utf-8") if isinstance(data, str) else data
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
