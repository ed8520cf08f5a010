"""``reversi serve``: the online server of this host, until SIGTERM or SIGINT.

Listens on ``--socket PATH`` or the per-host abstract socket, or on the socket
systemd hands over (``LISTEN_FDS``); keeps the games in ``--db FILE`` (default:
``online.sqlite3`` in the data directory). Logs one line per event on standard
error. A graceful stop says ``bye`` to every client; exit status 0. Another
server already answering, or a store that cannot be used: one line, status 1.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import socket
import sys
from datetime import datetime
from pathlib import Path

from reversi_tui.net.discovery import ABSTRACT_NAME
from reversi_tui.net.server import Server, ServerRunning
from reversi_tui.net.store import SqliteStore, StoreError
from reversi_tui.records.paths import Places, StorageError
from reversi_tui.terminal import warn

#: systemd's first passed file descriptor (sd_listen_fds).
SD_LISTEN_FDS_START = 3


def log(text: str) -> None:
    """One line on standard error, with the time."""
    stamp = datetime.now().strftime("%Y-%m-%d %H:%M:%S")
    with contextlib.suppress(OSError, ValueError):  # no log, but the server goes on
        print(f"{stamp} reversi serve: {text}", file=sys.stderr, flush=True)


def database_path(args: argparse.Namespace) -> Path:
    if args.db:
        return Path(args.db)
    return Places.resolve(args.data_dir).data / "online.sqlite3"


def activated_socket() -> socket.socket | None:
    """The listening socket systemd passed, if it passed one to this process."""
    if os.environ.get("LISTEN_PID") != str(os.getpid()) or os.environ.get("LISTEN_FDS") != "1":
        return None
    return socket.socket(fileno=SD_LISTEN_FDS_START)


def run(args: argparse.Namespace) -> int:
    try:
        path = database_path(args)
        store = SqliteStore(path)
    except (StoreError, StorageError) as error:
        warn(f"reversi serve: {error}")
        return 1
    for problem in store.problems:
        log(problem)
    try:
        return asyncio.run(_serve(store, args.socket, path))
    finally:
        store.close()


async def _serve(store: SqliteStore, address: str | None, path: Path) -> int:
    server = Server(store, log=log)
    activated = activated_socket() if address is None else None
    try:
        if activated is not None:
            await server.start_on(activated)
        else:
            await server.start(address or ABSTRACT_NAME)
    except ServerRunning as error:
        warn(f"reversi serve: {error}")
        return 1
    except OSError as error:
        warn(f"reversi serve: cannot listen on {address or 'the abstract socket'}: {error}")
        return 1
    log(f"games kept in {path}")
    loop = asyncio.get_running_loop()
    stopping: list[asyncio.Task[None]] = []

    def stop(signum: int) -> None:
        if not stopping:
            name = signal.Signals(signum).name
            stopping.append(loop.create_task(server.stop(f"the server is stopping ({name})")))

    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        loop.add_signal_handler(signum, stop, signum)
    await server.wait_stopped()
    return 0
