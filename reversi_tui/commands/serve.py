"""``reversi serve``: the online server of this host, until SIGTERM or SIGINT.

Listens on ``--socket PATH`` or the per-host abstract socket, or on the socket
systemd hands over (``LISTEN_FDS``); keeps the games in ``--db FILE`` (default:
``online.sqlite3`` in the data directory). With ``--idle-exit SECONDS`` it stops
by itself after that long without any connection (clients start their servers so).

Logs through ``logging``, one line per event on standard error: with a time stamp
on a terminal, without one otherwise (journald, or whoever collects the output,
keeps the time); when standard error is the journal (``JOURNAL_STREAM``), each line
starts with its syslog priority (``<4>``) so that journald records the level.
The soft limit on open files is raised to the hard one at start.

A graceful stop says ``bye`` to every client; exit status 0. Another server already
answering, or a store that cannot be used: one line, status 1.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import resource
import signal
import socket
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from reversi_tui.commands.options import Commands, positive_float
from reversi_tui.net.discovery import ABSTRACT_NAME
from reversi_tui.records.paths import Places, StorageError
from reversi_tui.terminal import is_terminal, warn

if TYPE_CHECKING:
    from reversi_tui.net.store import SqliteStore

#: systemd's first passed file descriptor (sd_listen_fds).
SD_LISTEN_FDS_START = 3
#: The loggers whose lines ``reversi serve`` writes: the package's, and asyncio's own.
LOGGERS = ("reversi_tui", "asyncio")
#: Syslog priorities of the logging levels (``<N>`` prefixes that journald reads).
PRIORITIES = {logging.DEBUG: 7, logging.INFO: 6, logging.WARNING: 4, logging.ERROR: 3}

logger = logging.getLogger(__name__)


def on_the_journal() -> bool:
    """Whether standard error is journald's stream (systemd names it in ``JOURNAL_STREAM``)."""
    device, _, inode = os.environ.get("JOURNAL_STREAM", "").partition(":")
    try:
        info = os.fstat(sys.stderr.fileno())
        return (info.st_dev, info.st_ino) == (int(device), int(inode))
    except (AttributeError, OSError, ValueError):
        return False


class LineFormatter(logging.Formatter):
    """One line per record, never a traceback: ``[time ]reversi serve: [level: ]text``,
    or ``<priority>text`` for the journal."""

    def __init__(self, *, stamped: bool, journal: bool) -> None:
        super().__init__()
        self.stamped = stamped
        self.journal = journal

    def format(self, record: logging.LogRecord) -> str:
        text = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            text = f"{text}: {type(error).__name__}: {error}"
        text = " ".join(text.splitlines())
        if self.journal:
            return f"<{PRIORITIES.get(record.levelno, 3)}>{text}"
        level = f"{record.levelname.lower()}: " if record.levelno >= logging.WARNING else ""
        stamp = time.strftime("%Y-%m-%d %H:%M:%S ") if self.stamped else ""
        return f"{stamp}reversi serve: {level}{text}"


class StderrHandler(logging.Handler):
    """Lines on the standard error of the moment; a failed write loses the line, never
    the server (and prints nothing about itself)."""

    def emit(self, record: logging.LogRecord) -> None:
        stream = sys.stderr
        if stream is None:
            return
        try:
            stream.write(self.format(record) + "\n")
            stream.flush()
        except (OSError, ValueError):
            pass


def setup_logging() -> None:
    """Send the server's log to standard error, one line per event, at info and above."""
    journal = on_the_journal()
    stamped = is_terminal(sys.stderr) and not os.environ.get("JOURNAL_STREAM")
    handler = StderrHandler()
    handler.setFormatter(LineFormatter(stamped=stamped, journal=journal))
    for name in LOGGERS:
        named = logging.getLogger(name)
        for old in [h for h in named.handlers if isinstance(h, StderrHandler)]:
            named.removeHandler(old)
        named.addHandler(handler)
    logging.getLogger("reversi_tui").setLevel(logging.INFO)


def raise_descriptor_limit() -> tuple[int, int]:
    """The soft limit on open files raised to the hard one: (before, now)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == hard:
        return soft, soft
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    except (OSError, ValueError):  # an unlimited hard limit is more than the kernel allows
        return soft, soft
    return soft, hard


def database_path(args: argparse.Namespace) -> Path:
    if args.db:
        return Path(args.db)
    return Places.resolve(args.data_dir).data / "online.sqlite3"


def activated_socket() -> socket.socket | None:
    """The listening socket systemd passed, if it passed one to this process."""
    if os.environ.get("LISTEN_PID") != str(os.getpid()) or os.environ.get("LISTEN_FDS") != "1":
        return None
    return socket.socket(fileno=SD_LISTEN_FDS_START)


def add_parser(commands: Commands) -> None:
    """``reversi serve``'s options; ``run`` is its handler."""
    serve = commands.add_parser(
        "serve",
        help="the online server of this machine (clients start one when none runs)",
        description="Serve online play to the users of this machine until SIGTERM or SIGINT. "
        "Identity comes from the kernel (SO_PEERCRED). Without --socket: the socket systemd "
        "passes, else the per-host abstract socket @reversi-tui-v1.",
    )

    def socket_path(text: str) -> str:
        if not text:
            raise argparse.ArgumentTypeError("needs a path (leave out --socket for the default)")
        return text

    serve.add_argument(
        "--socket",
        type=socket_path,
        metavar="PATH",
        help="listen on the socket file PATH (0666)",
    )
    serve.add_argument(
        "--db", metavar="FILE", help="the games database (default: online.sqlite3 in the data dir)"
    )
    serve.add_argument(
        "--idle-exit",
        type=positive_float,
        metavar="SECONDS",
        help="stop after SECONDS without any connection (default: never; a server a client "
        "starts stops after 600)",
    )
    serve.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from reversi_tui.net.store import SqliteStore, StoreError  # the server: only when it runs

    setup_logging()
    try:
        path = database_path(args)
        if path.is_dir():
            example = path / "online.sqlite3"
            raise StorageError(f"{path} is a directory: give a file path, e.g. {example}")
        store = SqliteStore(path)
    except (StoreError, StorageError) as error:
        warn(f"reversi serve: {error}")
        return 1
    for problem in store.problems:
        logger.error(problem)
    before, now = raise_descriptor_limit()
    raised = f" (raised from {before})" if now != before else ""
    logger.info(f"open files: at most {now}{raised}")
    try:
        return asyncio.run(_serve(store, args.socket, path, args.idle_exit))
    finally:
        store.close()


async def _serve(
    store: SqliteStore, address: str | None, path: Path, idle_exit: float | None
) -> int:
    from reversi_tui.net.server import Server, ServerRunning

    server = Server(store, idle_exit=idle_exit)
    activated = activated_socket() if address is None else None
    try:
        if activated is not None:
            await server.start_on(activated)
        else:
            await server.start(ABSTRACT_NAME if address is None else address)
    except ServerRunning as error:
        warn(f"reversi serve: {error}")
        return 1
    except OSError as error:
        warn(f"reversi serve: cannot listen on {address or 'the abstract socket'}: {error}")
        return 1
    logger.info(f"games kept in {path}")
    if idle_exit is not None:
        logger.info(f"stops after {idle_exit:g} s without any connection")
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
