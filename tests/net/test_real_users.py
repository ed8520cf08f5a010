"""Real identity: the kernel's uid, from processes that really are other users.

As root, a child process forks, drops to an unused uid (no passwd entry, so the
server names it ``uid<N>``), connects to the server's socket and hands the
connected socket back over a socketpair (``send_fds``); the parent then speaks
for it. The server's default ``identify`` (SO_PEERCRED) names each side. Also
``reversi serve`` itself: a graceful stop, and a second server refused.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from reversi_tui.net.server import Server
from reversi_tui.net.store import SqliteStore

from ..timing import patience
from .conftest import Client

UIDS = (40001, 40002)
needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="needs root to become other users")


def connect_as(uid: int, path: str) -> socket.socket:
    """A socket connected to ``path`` by a process running as ``uid``."""
    parent, child = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    pid = os.fork()
    if pid == 0:  # the child: become uid, connect, hand the socket back
        code = 1
        try:
            parent.close()
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.connect(path)
            socket.send_fds(child, [b"x"], [sock.fileno()])
            code = 0
        finally:
            os._exit(code)
    child.close()
    _, fds, _, _ = socket.recv_fds(parent, 1, 1)
    parent.close()
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0 and fds
    return socket.socket(fileno=fds[0])


async def as_client(sock: socket.socket) -> Client:
    sock.setblocking(False)
    reader, writer = await asyncio.open_unix_connection(sock=sock)
    return Client(reader, writer)


@pytest.fixture
def open_directory() -> Iterator[Path]:
    """A directory other users can reach (pytest's own is root's only)."""
    directory = Path(tempfile.mkdtemp(prefix="reversi-users-"))
    directory.chmod(0o755)
    yield directory
    shutil.rmtree(directory, ignore_errors=True)


@needs_root
async def test_the_kernel_names_each_user_and_nobody_plays_for_another(
    open_directory: Path,
) -> None:
    store = SqliteStore(open_directory / "db" / "online.sqlite3")
    server = Server(store)  # the real identity: SO_PEERCRED
    path = str(open_directory / "s.sock")
    await server.start(path)
    try:
        first, second = UIDS
        ann = await as_client(await asyncio.to_thread(connect_as, first, path))
        assert (await ann.hello())["user"] == f"uid{first}"
        liar = await as_client(await asyncio.to_thread(connect_as, second, path))
        liar.send(type="hello", version=4, user=f"uid{first}")
        await liar.error("identity_mismatch")
        assert await liar.closed()
        bob = await as_client(await asyncio.to_thread(connect_as, second, path))
        assert (await bob.hello(user=f"uid{second}"))["user"] == f"uid{second}"
        ann.send(type="challenge", to=f"uid{second}", color="black")
        number = (await ann.expect("challenge_sent"))["challenge"]
        ann.send(type="accept", challenge=number)  # not ann's to accept
        await ann.error("no_such_challenge")
        bob.send(type="accept", challenge=number)
        game: dict[str, Any] = await bob.expect("state")
        bob.send(type="move", game=game["game"], ply=0, square="d3")  # Black is ann
        await bob.error("not_your_turn")
        bob.send(type="resign", game=game["game"])
        state = await ann.expect("state", status="finished")
        assert state["result"]["reason"] == "aborted"  # bob ended his own game only
    finally:
        await server.stop()
        store.close()


@needs_root
async def test_real_users_resume_their_game_on_a_new_server_and_a_third_cannot(
    open_directory: Path,
) -> None:
    """The server dies with its store; on a new one, the two players' copies (sent by
    their own uids) bring the game back, and a third uid's claim changes nothing."""
    first, second = UIDS
    third = 40003
    path = str(open_directory / "s.sock")
    old_store = SqliteStore(open_directory / "old" / "online.sqlite3")
    old = Server(old_store)
    await old.start(path)
    try:
        ann = await as_client(await asyncio.to_thread(connect_as, first, path))
        bob = await as_client(await asyncio.to_thread(connect_as, second, path))
        await ann.hello()
        await bob.hello()
        ann.send(type="challenge", to=f"uid{second}", color="black")
        number = (await ann.expect("challenge_sent"))["challenge"]
        bob.send(type="accept", challenge=number)
        game = (await bob.expect("state"))["game"]
        ann.send(type="move", game=game, ply=0, square="d3", id="m")
        copy = await ann.expect("state", re="m")
    finally:
        await old.stop("killed")
        old_store.close()
    claim = {k: copy[k] for k in ("origin", "black", "white", "started", "moves")}
    new_store = SqliteStore(open_directory / "new" / "online.sqlite3")
    new = Server(new_store)
    await new.start(path)
    try:
        eve = await as_client(await asyncio.to_thread(connect_as, third, path))
        await eve.hello()
        eve.send(type="resume", id=1, **claim)
        await eve.error("resume_refused")
        ann = await as_client(await asyncio.to_thread(connect_as, first, path))
        bob = await as_client(await asyncio.to_thread(connect_as, second, path))
        await ann.hello()
        await bob.hello()
        ann.send(type="resume", id=2, **claim)
        assert (await ann.expect("resume_pending", re=2))["waiting_for"] == f"uid{second}"
        bob.send(type="resume", id=3, **claim)
        state = await bob.expect("state", re=3)
        assert (state["origin"], state["moves"], state["turn"]) == (copy["origin"], "d3", "white")
        bob.send(type="move", game=state["game"], ply=1, square="c5", id="n")
        assert (await bob.expect("state", re="n"))["moves"] == "d3c5"
    finally:
        await new.stop()
        new_store.close()


def reversi(*args: str, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "reversi_tui", *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def wait_for_socket(path: Path, process: subprocess.Popen[str]) -> None:
    """Until a server answers on ``path`` (a file left by a dead one does not count)."""
    for _ in range(500):
        probe = socket.socket(socket.AF_UNIX)
        try:
            probe.connect(str(path))
            return
        except OSError:
            assert process.poll() is None, process.communicate()
            time.sleep(0.02)  # polled, with a bound
        finally:
            probe.close()
    raise AssertionError("the server never listened")


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_reversi_serve_stops_gracefully_and_refuses_a_second(
    tmp_path: Path, stop: signal.Signals
) -> None:
    env = {**os.environ, "REVERSI_DATA_DIR": str(tmp_path / "data")}
    path = tmp_path / "s.sock"
    server = reversi("serve", "--socket", str(path), env=env)
    wait_for_socket(path, server)
    client = socket.socket(socket.AF_UNIX)
    client.connect(str(path))
    client.sendall(b'{"type": "hello", "version": 4}\n')
    reader = client.makefile("rb")
    assert b'"welcome"' in reader.readline()
    second = reversi("serve", "--socket", str(path), env=env)
    _, err = second.communicate(timeout=patience(30))
    assert second.returncode == 1 and "already running" in err and "Traceback" not in err
    server.send_signal(stop)
    assert b'"bye"' in b"".join(reader.readlines())
    _, log = server.communicate(timeout=patience(30))
    assert server.returncode == 0
    assert "Traceback" not in log and "stopped" in log
    assert not path.exists()


@needs_root
async def test_kill_9_of_the_server_loses_no_acknowledged_move(open_directory: Path) -> None:
    env = {**os.environ, "REVERSI_DATA_DIR": str(open_directory / "data")}
    path = open_directory / "s.sock"
    command = ("serve", "--socket", str(path), "--db", str(open_directory / "db" / "o.sqlite3"))
    server = reversi(*command, env=env)
    try:
        wait_for_socket(path, server)
        first, second = UIDS
        ann = await as_client(await asyncio.to_thread(connect_as, first, str(path)))
        await ann.hello()
        bob = await as_client(await asyncio.to_thread(connect_as, second, str(path)))
        await bob.hello()
        ann.send(type="challenge", to=f"uid{second}", color="black")
        number = (await ann.expect("challenge_sent"))["challenge"]
        bob.send(type="accept", challenge=number)
        game = (await bob.expect("state"))["game"]
        played = ""
        for client, ply, square in ((ann, 0, "d3"), (bob, 1, "c5"), (ann, 2, "e6")):
            client.send(type="move", game=game, ply=ply, square=square, id=ply)
            state = await client.expect("state", re=ply)  # acknowledged
            played = state["moves"]
        server.kill()  # no goodbye, no flush: kill -9
        server.wait(timeout=patience(30))
    finally:
        if server.poll() is None:
            server.kill()
    assert path.exists()  # the dead server's socket file: the new server clears it
    again = reversi(*command, env=env)
    try:
        wait_for_socket(path, again)
        ann = await as_client(await asyncio.to_thread(connect_as, first, str(path)))
        welcome = await ann.hello()
        assert [g["moves"] for g in welcome["games"]] == [played] == ["d3c5e6"]
    finally:
        again.terminate()
        again.wait(timeout=patience(30))


def test_reversi_serve_takes_the_socket_systemd_passes(tmp_path: Path) -> None:
    """Socket activation: a listening socket on fd 3, LISTEN_FDS=1, LISTEN_PID=its pid."""
    path = tmp_path / "activated.sock"
    listening = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listening.bind(str(path))
    listening.listen()
    launcher = (
        "import os, sys; os.dup2(int(sys.argv[1]), 3); os.environ['LISTEN_FDS'] = '1'; "
        "os.environ['LISTEN_PID'] = str(os.getpid()); "
        "os.execv(sys.executable, [sys.executable, '-m', 'reversi_tui', 'serve'])"
    )
    env = {**os.environ, "REVERSI_DATA_DIR": str(tmp_path / "data")}
    server = subprocess.Popen(
        [sys.executable, "-c", launcher, str(listening.fileno())],
        pass_fds=[listening.fileno()],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    listening.close()
    try:
        client = socket.socket(socket.AF_UNIX)
        client.connect(str(path))  # queued on the passed socket until the server accepts
        client.sendall(b'{"type": "hello", "version": 4}\n')
        assert b'"welcome"' in client.makefile("rb").readline()
    finally:
        server.terminate()
        _, log = server.communicate(timeout=patience(30))
    assert "from systemd" in log and "Traceback" not in log
