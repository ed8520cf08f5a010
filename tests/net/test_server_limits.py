"""Connection limits and the server's log, with real uids (as root; skipped otherwise).

One user's connections are counted as they are accepted, before ``hello``: beyond
``connections_per_user``, or ``connections`` in all, a new connection gets one
``too_many_connections`` error and is closed, and the log says so once per
episode. Errors that reach the event loop (``accept`` out of descriptors) are one
line per episode, never a traceback.

``Holder`` is a process of another uid that opens many connections and holds them
(it keeps them itself: passing 1,100 descriptors back would use up ours).
"""

from __future__ import annotations

import asyncio
import errno
import gc
import json
import logging
import os
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from reversi_tui.net import protocol
from reversi_tui.net.server import Limits, Server
from reversi_tui.net.store import SqliteStore

from ..timing import patience
from .test_real_users import UIDS, as_client, connect_as, needs_root, wait_for_socket

WAIT = patience(30.0)
FLOOD = 1100
LOGGER = "reversi_tui"
HELLO = json.dumps({"type": "hello", "version": protocol.VERSION}).encode() + b"\n"


@pytest.fixture
def shared() -> Iterator[Path]:
    """A directory other users can reach (pytest's own is root's only)."""
    directory = Path(tempfile.mkdtemp(prefix="reversi-limits-"))
    directory.chmod(0o755)
    yield directory
    shutil.rmtree(directory, ignore_errors=True)


def _first_line(sock: socket.socket, wait: bool) -> str:
    """What the server said first on ``sock``: a message type or error code, ``closed``,
    or ``silent`` (nothing yet; with ``wait``, nothing within WAIT)."""
    data = b""
    try:
        if wait:
            sock.settimeout(WAIT)
            while not data.endswith(b"\n"):
                chunk = sock.recv(4096)
                if not chunk:
                    break
                data += chunk
        else:
            data = sock.recv(4096, socket.MSG_DONTWAIT)
    except (BlockingIOError, TimeoutError):
        return "silent"
    except OSError:
        return "closed"
    if not data:
        return "closed"
    message = json.loads(data.split(b"\n", 1)[0])
    return str(message.get("code", message["type"]))


def _hold(uid: int, path: str, count: int, hello: bool, commands: socket.socket) -> None:
    """The holder's body (after fork): everything it needs is imported already."""
    signal.alarm(int(WAIT * 4))  # never outlives the test
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    os.setgroups([])
    os.setgid(uid)
    os.setuid(uid)
    held: list[socket.socket] = []
    failed = 0
    while command := commands.recv(1):
        if command == b"g":  # go: connect (blocking: a full backlog waits for the server)
            for _ in range(count):
                sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                try:
                    sock.connect(path)
                    if hello:
                        sock.sendall(HELLO)
                    held.append(sock)
                except OSError:
                    failed += 1
                    sock.close()
            commands.sendall(json.dumps({"connected": len(held), "failed": failed}).encode())
        else:  # r: peek at what each got; w: wait for each one's first line
            firsts = Counter(_first_line(sock, command == b"w") for sock in held)
            commands.sendall(json.dumps(firsts).encode())


class Holder:
    """A process running as ``uid`` that opens ``count`` connections when told and holds
    them until ``close``."""

    def __init__(self, uid: int, path: str, count: int, *, hello: bool = False) -> None:
        self.commands, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        self.pid = os.fork()
        if self.pid == 0:
            code = 1
            try:
                self.commands.close()
                _hold(uid, path, count, hello, theirs)
                code = 0
            finally:
                os._exit(code)
        theirs.close()
        self.commands.settimeout(WAIT * 2)

    def _ask(self, command: bytes) -> dict[str, int]:
        self.commands.sendall(command)
        answer: dict[str, int] = json.loads(self.commands.recv(65536))
        return answer

    def connect(self) -> dict[str, int]:
        return self._ask(b"g")

    def firsts(self, *, wait: bool = False) -> dict[str, int]:
        return self._ask(b"w" if wait else b"r")

    def close(self) -> None:
        self.commands.close()
        _, status = os.waitpid(self.pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0


async def until(condition: Callable[[], bool], what: str) -> None:
    """Wait for ``condition`` (checked as the server runs), at most WAIT seconds."""
    deadline = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < deadline, f"never: {what}"
        await asyncio.sleep(0.01)


def lines(caplog: pytest.LogCaptureFixture, part: str) -> list[logging.LogRecord]:
    return [r for r in caplog.records if part in r.getMessage()]


async def start(shared: Path, **options: Any) -> tuple[Server, SqliteStore, str]:
    store = SqliteStore(shared / "db" / "online.sqlite3")
    server = Server(store, **options)
    path = str(shared / "s.sock")
    await server.start(path)
    return server, store, path


@needs_root
async def test_one_user_beyond_its_connections_is_refused_and_logged_once(
    shared: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger=LOGGER)
    server, store, path = await start(shared, limits=Limits(connections_per_user=2))
    first, second = UIDS
    flooder = f"uid{first}"
    try:
        ann = await as_client(await asyncio.to_thread(connect_as, first, path))
        await ann.hello()
        silent = await as_client(await asyncio.to_thread(connect_as, first, path))
        for _ in range(5):  # refused before any hello: the kernel named the user
            refused = await as_client(await asyncio.to_thread(connect_as, first, path))
            message = await refused.error("too_many_connections")
            assert message["message"] == "at most 2 connections per user: close one first"
            assert await refused.closed()
        bob = await as_client(await asyncio.to_thread(connect_as, second, path))
        assert (await bob.hello())["user"] == f"uid{second}"  # others are served
        assert server.connections(flooder) == 2
        silent.close()
        await until(lambda: server.connections(flooder) == 1, "the silent one is gone")
        again = await as_client(await asyncio.to_thread(connect_as, first, path))
        assert (await again.hello())["user"] == flooder
    finally:
        await server.stop()
        store.close()
    refusing = lines(caplog, f"{flooder} holds 2 connections")
    assert [r.levelno for r in refusing] == [logging.WARNING]  # one line, not five
    admitted = lines(caplog, f"{flooder} is admitted again (5 connections refused)")
    assert [r.levelno for r in admitted] == [logging.INFO]
    assert {r.name for r in caplog.records} == {"reversi_tui.net.server", "reversi_tui.net.hub"}
    [online] = lines(caplog, f"uid{second} is online")
    assert (online.name, online.levelno) == ("reversi_tui.net.hub", logging.INFO)


@needs_root
async def test_a_full_server_refuses_everyone_new_and_says_so_once(
    shared: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger=LOGGER)
    server, store, path = await start(shared, limits=Limits(connections=3))
    first, second = UIDS
    try:
        held = [await as_client(await asyncio.to_thread(connect_as, first, path)) for _ in "abc"]
        await until(lambda: server.connections() == 3, "three connections")
        for _ in range(3):
            refused = await as_client(await asyncio.to_thread(connect_as, second, path))
            message = await refused.error("too_many_connections")
            assert message["message"] == "the server is full (3 connections): try again later"
            assert await refused.closed()
        held[0].close()
        await until(lambda: server.connections() == 2, "one connection closed")
        bob = await as_client(await asyncio.to_thread(connect_as, second, path))
        assert (await bob.hello())["user"] == f"uid{second}"
    finally:
        await server.stop()
        store.close()
    full = lines(caplog, "3 connections, the most the server takes")
    assert [r.levelno for r in full] == [logging.WARNING]
    again = lines(caplog, "accepting connections again (3 refused while full)")
    assert [r.levelno for r in again] == [logging.INFO]


def _fill_descriptors() -> tuple[list[int], tuple[int, int]]:
    """Leave this process no free file descriptor: (the ones taken, the old limit).

    The caller keeps the garbage collector off until it gives them back: a socket of an
    earlier test collected meanwhile freed a descriptor, which ``accept`` then took,
    ending the episode early (so "accept retried" never came) or starting a second one.
    """
    gc.collect()
    old = resource.getrlimit(resource.RLIMIT_NOFILE)
    highest = max(int(name) for name in os.listdir("/proc/self/fd"))
    resource.setrlimit(resource.RLIMIT_NOFILE, (highest + 1, old[1]))
    taken: list[int] = []
    try:
        while True:
            taken.append(os.open("/dev/null", os.O_RDONLY))
    except OSError as error:
        assert error.errno == errno.EMFILE
    return taken, old


@needs_root
async def test_out_of_descriptors_is_one_line_per_episode_and_accepting_resumes(
    shared: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    server, store, path = await start(shared)
    holder = Holder(UIDS[0], path, 3, hello=True)
    gc.disable()
    taken, old = _fill_descriptors()
    try:
        connected = holder.connect()  # into the backlog (no waiting on us): accept fails
        assert connected == {"connected": 3, "failed": 0}
        await until(lambda: bool(lines(caplog, "cannot accept connections")), "EMFILE met")
        await until(lambda: (server._starved or 0) > 1, "accept retried")  # asyncio retries
    finally:
        for fd in taken:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, old)
        gc.enable()
    try:
        assert await asyncio.to_thread(holder.firsts, wait=True) == {"welcome": 3}
    finally:
        await asyncio.to_thread(holder.close)
        await server.stop()
        store.close()
    starved = lines(caplog, "cannot accept connections: Too many open files")
    assert [r.levelno for r in starved] == [logging.WARNING]
    resumed = lines(caplog, "accepting connections again (")
    assert [r.levelno for r in resumed] == [logging.INFO]
    assert not [r for r in caplog.records if r.exc_info or r.name == "asyncio"]


async def test_other_errors_in_the_event_loop_are_one_line_without_a_traceback(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = SqliteStore(tmp_path / "online.sqlite3")
    server = Server(store, identify=lambda _: "ann")
    loop = asyncio.get_running_loop()
    before = loop.get_exception_handler()
    await server.start(str(tmp_path / "s.sock"))
    try:
        loop.call_exception_handler({"message": "something broke", "exception": ValueError("x")})
    finally:
        await server.stop()
        store.close()
    assert loop.get_exception_handler() is before  # given back
    [record] = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert record.getMessage() == "something broke: ValueError: x"
    assert record.exc_info is None and record.name == "reversi_tui.net.server"


def _at_most_1024_files() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))


@needs_root
def test_a_flood_of_connections_locks_nobody_out_and_logs_a_handful_of_lines(
    shared: Path,
) -> None:
    """The audit: one user opens 1,100 silent connections to ``reversi serve`` (1,024 open
    files at most); another user is still welcomed, and the log stays a few lines."""
    if resource.getrlimit(resource.RLIMIT_NOFILE)[1] < FLOOD + 100:
        pytest.skip("the flooding process cannot open that many files")
    path = shared / "s.sock"
    env = {**os.environ, "REVERSI_DATA_DIR": str(shared / "data")}
    server = subprocess.Popen(
        [sys.executable, "-m", "reversi_tui", "serve", "--socket", str(path)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        preexec_fn=_at_most_1024_files,
    )
    first, second = UIDS
    holder = Holder(first, str(path), FLOOD)
    try:
        wait_for_socket(path, server)
        assert holder.connect() == {"connected": FLOOD, "failed": 0}
        other = connect_as(second, str(path))
        other.settimeout(WAIT)
        other.sendall(HELLO)
        assert b'"welcome"' in other.makefile("rb").readline()  # after every flood accept
        firsts = holder.firsts()
        assert firsts == {"silent": 8, "too_many_connections": FLOOD - 8}
        other.close()
    finally:
        holder.close()
        server.send_signal(signal.SIGTERM)
        _, log = server.communicate(timeout=WAIT)
    assert server.returncode == 0
    assert "Traceback" not in log
    log_lines = log.splitlines()
    assert [line for line in log_lines if f"uid{first}" in line] == [
        f"reversi serve: warning: uid{first} holds 8 connections, the most one user may: "
        "refusing more until one closes"
    ]
    assert len(log_lines) <= 10, log
