"""Where games and settings live: one data directory per user, and the errors of using it.

The data directory comes from platformdirs (``~/.local/share/reversi-tui`` on
Linux), unless ``--data-dir`` or ``$REVERSI_DATA_DIR`` names another; then the
settings file lives there too, so a run with its own directory (a test, a second
profile) never reads or changes the user's real settings. Nothing is created
until it is written: resolving the places touches no disk.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path

import platformdirs

__all__ = [
    "APP_NAME",
    "DATA_DIR_ENV",
    "Places",
    "StorageError",
    "ensure_private_dir",
    "file_kind",
    "storage_error",
]

APP_NAME = "reversi-tui"
#: Names the data directory (and the config directory with it) when set and not empty.
DATA_DIR_ENV = "REVERSI_DATA_DIR"
#: Directories we create are the user's alone: games and settings are nobody else's business.
PRIVATE_DIR_MODE = 0o700


class StorageError(Exception):
    """The disk refused: ``str()`` is one sentence for the player, the reason with no traceback.

    It says what could not be done and why (``/data/autosave is not writable
    (Permission denied)``); front ends put their own lead in front ("Saving is
    off: ...").
    """

    def __init__(self, message: str, *, error: OSError | None = None) -> None:
        super().__init__(message)
        #: The operating system's error behind it, when there was one.
        self.error = error


def storage_error(error: OSError, path: Path, doing: str = "write") -> StorageError:
    """A StorageError for ``error`` met at ``path`` while trying to ``doing`` it.

    The common causes get plain words; anything else keeps the system's own text.
    """
    reason = error.strerror or str(error)
    code = error.errno
    if code in (errno.EACCES, errno.EPERM, errno.EROFS):
        message = f"{path} is not writable ({reason})" if doing == "write" else None
    elif code in (errno.ENOSPC, errno.EDQUOT):
        message = f"no room left to {doing} {path} ({reason})"
    elif code in (errno.ENOTDIR, errno.EEXIST):
        message = f"{path} is not a directory"
    elif code == errno.ENOENT:
        message = f"{path} does not exist ({reason})"
    else:
        message = None
    return StorageError(message or f"cannot {doing} {path} ({reason})", error=error)


def file_kind(mode: int) -> str:
    """What a file of ``mode`` (``st_mode``) is, in words: ``a directory``, ``a FIFO (named
    pipe)``, ``a character device``... for saying why it is not taken for a regular file."""
    kinds = (
        (stat.S_ISREG, "a regular file"),
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISLNK, "a symbolic link"),
        (stat.S_ISFIFO, "a FIFO (named pipe)"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    )
    return next((name for test, name in kinds if test(mode)), "a special file")


@dataclass(frozen=True)
class Places:
    """The data directory (autosaves, game files, the records database) and the config one."""

    data: Path
    config: Path

    @property
    def autosave_dir(self) -> Path:
        return self.data / "autosave"

    @property
    def games_dir(self) -> Path:
        return self.data / "games"

    @property
    def database(self) -> Path:
        return self.data / "records.sqlite3"

    @property
    def settings_file(self) -> Path:
        return self.config / "settings.toml"

    @classmethod
    def resolve(cls, override: str | Path | None = None) -> Places:
        """``override`` (``--data-dir``) over ``$REVERSI_DATA_DIR`` over the platform's places.

        A named directory holds the settings file too, so the run is self-contained.
        """
        named = override if override not in (None, "") else os.environ.get(DATA_DIR_ENV) or None
        if named is not None:
            data = Path(named).expanduser().absolute()
            return cls(data=data, config=data)
        return cls(
            data=Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)),
            config=Path(platformdirs.user_config_dir(APP_NAME, appauthor=False)),
        )


def ensure_private_dir(path: Path) -> Path:
    """Make ``path`` a directory if it is not one: each directory created is mode 0700.

    As the XDG base directory rules ask, every missing directory on the way is
    made 0700 (the mode is set after ``mkdir``, so a loose umask cannot widen it).
    A directory that exists is left as its owner set it. Raises StorageError when
    the path, or one on the way, is a file or cannot be created.
    """
    missing: list[Path] = []
    here = path
    try:
        while not here.is_dir():
            missing.append(here)
            if here.parent == here:
                break
            here = here.parent
    except OSError as error:  # a directory on the way we may not look into
        raise storage_error(error, here, "create") from None
    for directory in reversed(missing):
        try:
            directory.mkdir(mode=PRIVATE_DIR_MODE)
        except FileExistsError as error:
            if not directory.is_dir():  # a file; another process's new directory is fine
                raise storage_error(error, directory, "create") from None
            continue
        except OSError as error:
            raise storage_error(error, directory, "create") from None
        try:
            os.chmod(directory, PRIVATE_DIR_MODE)
        except OSError as error:
            raise storage_error(error, directory, "create") from None
    return path
