"""The client side: finding a server, starting one, and staying connected.

The server here is a small stand-in speaking just enough of the protocol (hello,
welcome, bye, errors), so these tests pin the client's own behaviour.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import uuid
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from reversi_tui.net import protocol
from reversi_tui.net.client import Client, ClientStopped
from reversi_tui.net.discovery import (
    ABSTRACT_NAME,
    Connected,
    NoServer,
    candidates,
    connect,
    describe,
    trusted_system_socket,
)
from reversi_tui.net.trust import Owner

from ..timing import patience

WAIT = patience(10.0)


class FakeServer:
    """Welcomes every hello; the test decides what else it says."""

    def __init__(self) -> None:
        self.connections: asyncio.Queue[asyncio.StreamWriter] = asyncio.Queue()
        self.hellos = 0
        self.reply_to_hello: Callable[[], protocol.ServerMessage] = lambda: protocol.Welcome(
            version=4, user="ann", server="s1", games=[], challenges=[]
        )

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await self.connections.put(writer)
        with contextlib.suppress(ConnectionError, OSError):
            while line := await reader.readline():
                message = protocol.decode_client(line)
                if isinstance(message, protocol.Hello):
                    self.hellos += 1
                    writer.write(protocol.encode(self.reply_to_hello()))
                elif isinstance(message, protocol.Ping):
                    writer.write(protocol.encode(protocol.Pong(re=message.id)))


@pytest.fixture
async def fake(tmp_path: Path) -> AsyncIterator[tuple[FakeServer, str]]:
    server = FakeServer()
    path = str(tmp_path / "s.sock")
    listening = await asyncio.start_unix_server(server.handle, path)
    try:
        yield server, path
    finally:
        listening.close()


class Recorder:
    def __init__(self) -> None:
        self.messages: asyncio.Queue[protocol.ServerMessage] = asyncio.Queue()
        self.statuses: list[str] = []

    def message(self, message: protocol.ServerMessage) -> None:
        self.messages.put_nowait(message)

    def status(self, text: str) -> None:
        self.statuses.append(text)

    async def next(self, kind: type[protocol.ServerMessage]) -> protocol.ServerMessage:
        while True:
            message = await asyncio.wait_for(self.messages.get(), WAIT)
            if isinstance(message, kind):
                return message


# --- discovery --------------------------------------------------------------------------


def test_an_explicit_socket_is_the_only_candidate() -> None:
    assert candidates("/tmp/x.sock") == ["/tmp/x.sock"]


def test_the_system_socket_is_trusted_only_in_roots_closed_directory(tmp_path: Path) -> None:
    directory = tmp_path / "run"
    directory.mkdir()
    sock = directory / "reversi.sock"
    sock.touch()
    directory.chmod(0o755)
    owned_by_root = os.stat(directory).st_uid == 0
    assert trusted_system_socket(sock) is owned_by_root
    assert (candidates(None, sock) == [str(sock), ABSTRACT_NAME]) is owned_by_root
    directory.chmod(0o777)  # anyone could have put a socket there
    assert not trusted_system_socket(sock)
    assert candidates(None, sock) == [ABSTRACT_NAME]
    assert not trusted_system_socket(tmp_path / "missing" / "reversi.sock")


def test_abstract_names_are_shown_with_an_at() -> None:
    assert describe("\0reversi-tui-v1") == "@reversi-tui-v1"
    assert describe("/run/reversi/reversi.sock") == "/run/reversi/reversi.sock"


async def test_an_explicit_socket_with_nobody_there_is_not_started(tmp_path: Path) -> None:
    with pytest.raises(NoServer, match="no server answers"):
        await connect(str(tmp_path / "nobody.sock"))


#: A stand-in for ``reversi serve``: binds the abstract name given, or exits 1 when
#: another has it (the election), and answers each connection with its pid.
STAND_IN = """
import asyncio, os, sys
async def main():
    async def answer(reader, writer):
        writer.write(f"{os.getpid()}\\n".encode())
        await writer.drain()
        writer.close()
    try:
        server = await asyncio.start_unix_server(answer, "\\0" + sys.argv[1])
    except OSError:
        sys.exit(1)
    async with server:
        await asyncio.sleep(30)
asyncio.run(main())
"""


async def test_nobody_answering_starts_one_server_for_two_clients_at_once(
    tmp_path: Path,
) -> None:
    name = f"\0reversi-test-{uuid.uuid4().hex}"
    script = tmp_path / "stand_in.py"
    script.write_text(STAND_IN)
    command = [sys.executable, str(script), name[1:]]  # argv holds no NUL
    missing = tmp_path / "no-system" / "reversi.sock"
    first, second = await asyncio.gather(
        connect(server_command=command, abstract=name, system=missing),
        connect(server_command=command, abstract=name, system=missing),
    )
    pids = set()
    for connected in first, second:
        assert connected.started and connected.address == name
        pids.add(int(await asyncio.wait_for(connected.reader.readline(), WAIT)))
        connected.writer.close()
    assert len(pids) == 1  # both on the one server that won the name
    os.kill(pids.pop(), 15)


# --- the client ---------------------------------------------------------------------------


async def test_hello_then_welcome_then_messages(fake: tuple[FakeServer, str]) -> None:
    _, path = fake
    seen = Recorder()
    client = Client(seen.message, seen.status, socket=path)
    running = asyncio.create_task(client.run())
    welcome = await seen.next(protocol.Welcome)
    assert isinstance(welcome, protocol.Welcome) and welcome.user == "ann"
    assert client.connected and client.server == "s1"
    assert client.owner is not None and client.owner.uid == os.getuid()
    assert client.send(protocol.Ping(id=7))
    pong = await seen.next(protocol.Pong)
    assert isinstance(pong, protocol.Pong) and pong.re == 7
    assert any("Connected as ann" in s for s in seen.statuses)
    await client.close()
    await asyncio.wait_for(running, WAIT)
    assert not client.send(protocol.Ping())


async def test_a_dropped_connection_is_made_again(fake: tuple[FakeServer, str]) -> None:
    server, path = fake
    seen = Recorder()
    client = Client(seen.message, seen.status, socket=path, backoff=(0.01,))
    running = asyncio.create_task(client.run())
    await seen.next(protocol.Welcome)
    first = await server.connections.get()
    first.close()  # the link drops
    await seen.next(protocol.Welcome)  # hello again on a new connection
    assert server.hellos == 2
    assert any("Connection lost" in s for s in seen.statuses)
    await client.close()
    await asyncio.wait_for(running, WAIT)


async def test_bye_waits_as_asked_then_reconnects(fake: tuple[FakeServer, str]) -> None:
    server, path = fake
    seen = Recorder()
    client = Client(seen.message, seen.status, socket=path, backoff=(30.0,))
    running = asyncio.create_task(client.run())
    await seen.next(protocol.Welcome)
    writer = await server.connections.get()
    writer.write(protocol.encode(protocol.Bye(reason="restart", retry_ms=20)))
    writer.close()
    bye = await seen.next(protocol.Bye)
    assert isinstance(bye, protocol.Bye)
    await seen.next(protocol.Welcome)  # after 20 ms, not the 30 s backoff
    assert any("stopping (restart)" in s for s in seen.statuses)
    await client.close()
    await asyncio.wait_for(running, WAIT)


@pytest.mark.parametrize("code", ["identity_mismatch", "too_many_sessions"])
async def test_a_refusal_for_good_stops_the_client(fake: tuple[FakeServer, str], code: str) -> None:
    server, path = fake
    server.reply_to_hello = lambda: protocol.Error(code=code, message=f"refused: {code}")
    seen = Recorder()
    client = Client(seen.message, seen.status, socket=path, backoff=(0.01,))
    with pytest.raises(ClientStopped, match=code):
        await asyncio.wait_for(client.run(), WAIT)
    assert server.hellos == 1


async def test_no_server_is_retried_with_a_message(tmp_path: Path) -> None:
    seen = Recorder()
    path = tmp_path / "later.sock"
    client = Client(seen.message, seen.status, socket=str(path), backoff=(0.01,))
    running = asyncio.create_task(client.run())
    server = FakeServer()
    while not seen.statuses:
        await asyncio.sleep(0.01)
    assert "No server" in seen.statuses[0]
    listening = await asyncio.start_unix_server(server.handle, str(path))
    await seen.next(protocol.Welcome)
    await client.close()
    await asyncio.wait_for(running, WAIT)
    listening.close()


def test_only_the_last_host_restarts_a_dead_server_at_once() -> None:
    seen = Recorder()
    client = Client(seen.message, seen.status, socket="/nowhere")
    assert client._may_start(0)  # never connected: start one if nobody answers
    client.user, client.owner = "ann", Owner(os.getuid() + 1, "bob")  # bob's server died
    assert not client._may_start(0) and not client._may_start(3)
    assert client._may_start(4)  # bob did not come back: ann starts one
    client.owner = Owner(os.getuid(), "ann")
    assert client._may_start(0)


async def test_a_server_the_client_starts_gets_the_clients_data_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from reversi_tui.net import client as client_module
    from reversi_tui.net import discovery

    started: list[Path | None] = []
    asked: list[object] = []

    def start(command: object, data_dir: Path | None = None) -> None:
        started.append(data_dir)

    async def nobody(address: str, limit: int) -> Connected:
        raise NoServer("not started in this test")

    async def connect_spy(*args: object, **kwargs: object) -> Connected:
        asked.append(kwargs.get("data_dir"))
        return await discovery.connect(
            None,
            start_server=True,
            data_dir=kwargs.get("data_dir"),  # type: ignore[arg-type]
            system=tmp_path / "none" / "reversi.sock",
            abstract=f"\0reversi-test-{uuid.uuid4().hex}",
        )

    monkeypatch.setattr(discovery, "start_detached", start)
    monkeypatch.setattr(discovery, "_wait_for", nobody)
    monkeypatch.setattr(client_module, "connect", connect_spy)
    client = Client(lambda _: None, lambda _: None, data_dir=tmp_path / "ann-data")
    with pytest.raises(NoServer):
        await client.connector(True)
    assert asked == [tmp_path / "ann-data"] and started == [tmp_path / "ann-data"]


async def test_a_server_that_never_answers_is_named_with_the_next_try(tmp_path: Path) -> None:
    """It takes the connection and says nothing: the status says so and when the next
    attempt is, and is not overwritten by a vague "connection lost"."""
    taken: list[asyncio.StreamWriter] = []

    async def mute(_reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        taken.append(writer)

    path = str(tmp_path / "mute.sock")
    listening = await asyncio.start_unix_server(mute, path)
    seen = Recorder()
    client = Client(
        seen.message, seen.status, socket=path, backoff=(0.01, 60.0), welcome_timeout=0.05
    )
    running = asyncio.create_task(client.run())
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while len(taken) < 2 or len(seen.statuses) < 2:
        assert loop.time() < deadline, seen.statuses
        await asyncio.sleep(0.01)
    first, second = seen.statuses[:2]
    assert "does not answer (no welcome within 0.05 s)" in first
    assert "Trying again in 0.01 s, at " in first
    assert "Trying again in 60 s, at " in second  # the backoff grows
    assert client.silent and not client.connected
    await client.close()
    running.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await running
    listening.close()
