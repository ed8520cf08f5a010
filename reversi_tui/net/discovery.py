"""Finding the server with zero set-up, and starting one when nobody answers.

The order: an explicit ``--socket PATH``; else the system socket
``/run/reversi/reversi.sock``, trusted only when its directory is owned by root and
not writable by others (a shared host's dedicated account, see the README); else
the per-host Linux abstract socket ``ABSTRACT_NAME``. When nothing answers, the
client starts ``reversi serve`` itself, detached, as its own user, and connects.
Binding an abstract name is an atomic election: when two users start at once, one
server binds and the other exits, and both clients end up on the winner.
"""

from __future__ import annotations

import asyncio
import os
import stat
import subprocess
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

#: The per-host abstract socket (Linux): a name, not a file, gone when its server dies.
ABSTRACT_NAME: Final = "\0reversi-tui-v1"
#: The socket of a system-wide server (a dedicated account, started by systemd).
SYSTEM_SOCKET: Final = Path("/run/reversi/reversi.sock")
#: How long a client waits for a server it started to answer.
START_WAIT: Final = 5.0


class NoServer(OSError):
    """Nothing answered, and no server could be started: the message says why."""


@dataclass(frozen=True)
class Connected:
    """An open connection and where it goes (for the UI: ``describe(address)``)."""

    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    address: str
    started: bool = False


def describe(address: str) -> str:
    """An address for people: ``@reversi-tui-v1`` for an abstract name, else the path."""
    return "@" + address[1:] if address.startswith("\0") else address


def trusted_system_socket(path: Path = SYSTEM_SOCKET) -> bool:
    """Whether ``path``'s directory is root's and not writable by group or others, so
    that nobody but root (or the account it chose) can have put a socket there."""
    try:
        info = path.parent.stat()
    except OSError:
        return False
    writable_by_others = info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    return stat.S_ISDIR(info.st_mode) and info.st_uid == 0 and not writable_by_others


def candidates(
    explicit: str | None, system: Path = SYSTEM_SOCKET, abstract: str = ABSTRACT_NAME
) -> list[str]:
    """The addresses to try, in order."""
    if explicit is not None:
        return [explicit]
    found = [str(system)] if trusted_system_socket(system) and system.exists() else []
    return [*found, abstract]


async def open_address(address: str, limit: int) -> Connected:
    """Connect to one address; OSError when nobody answers there."""
    reader, writer = await asyncio.open_unix_connection(address, limit=limit)
    return Connected(reader, writer, address)


async def connect(
    explicit: str | None = None,
    *,
    limit: int = 65536,
    start_server: bool = True,
    server_command: Sequence[str] | None = None,
    system: Path = SYSTEM_SOCKET,
    abstract: str = ABSTRACT_NAME,
    data_dir: Path | None = None,
) -> Connected:
    """A connection to the first server that answers; starts one when none does
    (never for an explicit ``--socket``, which names a server that must exist), with
    ``data_dir`` as its data directory."""
    errors: list[str] = []
    for address in candidates(explicit, system, abstract):
        try:
            return await open_address(address, limit)
        except OSError as error:
            errors.append(f"{describe(address)}: {error.strerror or error}")
    if explicit is not None or not start_server:
        raise NoServer("no server answers (" + "; ".join(errors) + ")")
    start_detached(server_command, data_dir)
    return await _wait_for(abstract, limit)


#: A server a client starts stops after this many seconds without any connection (its
#: ``--idle-exit``), so that it does not outlive its players as an orphan daemon.
AUTO_SERVER_IDLE_EXIT: Final = 600.0


def serve_command(data_dir: Path | None = None) -> list[str]:
    """The command a client starts a server with: ``reversi [--data-dir DIR] serve
    --idle-exit 600``.

    ``DIR`` is the client's data directory (its ``--data-dir``, else
    ``$REVERSI_DATA_DIR``), made absolute since the server starts in ``/``, so that the
    server keeps its games where the client keeps its own; with neither, the server
    uses the user's data directory, as the client does.
    """
    from reversi_tui.records.paths import DATA_DIR_ENV

    named = os.environ.get(DATA_DIR_ENV) if data_dir is None else str(data_dir)
    argv = [sys.executable, "-m", "reversi_tui"]
    if named:
        argv += ["--data-dir", str(Path(named).expanduser().absolute())]
    return [*argv, "serve", "--idle-exit", f"{AUTO_SERVER_IDLE_EXIT:g}"]


def start_detached(command: Sequence[str] | None = None, data_dir: Path | None = None) -> None:
    """``reversi serve`` in its own session, as this user, outliving this process: by
    default ``serve_command(data_dir)``, which stops after ``AUTO_SERVER_IDLE_EXIT``
    seconds without a connection."""
    argv = list(command or serve_command(data_dir))
    try:
        process = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            close_fds=True,
            cwd="/",
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
    except OSError as error:
        raise NoServer(f"cannot start a server: {error.strerror or error}") from None
    # Reaped when it ends (a server that lost the election exits at once): no zombie.
    threading.Thread(target=process.wait, name="reversi-serve-reaper", daemon=True).start()


async def _wait_for(address: str, limit: int) -> Connected:
    """Connect to a server that is starting, retrying with a short backoff."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + START_WAIT
    delay = 0.02
    while True:
        try:
            connected = await open_address(address, limit)
        except OSError as error:
            if loop.time() >= deadline:
                raise NoServer(
                    f"started a server, but it did not answer within {START_WAIT:g} s "
                    f"({error.strerror or error})"
                ) from None
            await asyncio.sleep(delay)
            delay = min(delay * 2, 0.5)
            continue
        return Connected(connected.reader, connected.writer, address, started=True)
