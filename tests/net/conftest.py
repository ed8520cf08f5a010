"""A server on a socket in a temporary directory, and clients that speak to it.

Identity is injected: each test client binds its socket to a path named after its
user (``ann-3``) before connecting, and the server's ``identify`` reads that name
from the peer address. The real identity (SO_PEERCRED) is tested with real uids
in ``test_real_users.py``.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import socket
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from reversi_tui.net.server import Limits, Server
from reversi_tui.net.store import SqliteStore

from ..timing import patience

WAIT = patience(10.0)
_numbers = itertools.count()


def name_from_address(sock: socket.socket) -> str:
    """The test identity: the user a client's bound address names."""
    return Path(sock.getpeername()).name.rsplit("-", 1)[0]


class Client:
    """One test connection, speaking JSON lines."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    def send(self, **message: Any) -> None:
        self.writer.write(json.dumps(message).encode() + b"\n")

    def send_raw(self, data: bytes) -> None:
        self.writer.write(data)

    async def recv(self) -> dict[str, Any]:
        line = await asyncio.wait_for(self.reader.readline(), WAIT)
        assert line, "the server closed the connection"
        value: dict[str, Any] = json.loads(line)
        return value

    async def expect(self, kind: str, **fields: Any) -> dict[str, Any]:
        """The next message of type ``kind`` (others are skipped), checked for ``fields``."""
        while True:
            message = await self.recv()
            if message["type"] == kind and all(message.get(k) == v for k, v in fields.items()):
                return message

    async def error(self, code: str) -> dict[str, Any]:
        message = await self.expect("error")
        assert message["code"] == code, message
        return message

    async def closed(self) -> bool:
        """True once the server has closed the connection (reading what is left)."""
        while True:
            line = await asyncio.wait_for(self.reader.readline(), WAIT)
            if not line:
                return True

    async def hello(self, **extra: Any) -> dict[str, Any]:
        self.send(type="hello", version=4, **extra)
        return await self.expect("welcome")

    def close(self) -> None:
        self.writer.close()


class Setup:
    """The server under test and a way to connect as anyone."""

    def __init__(self, directory: Path, server: Server, path: str) -> None:
        self.directory = directory
        self.server = server
        self.path = path

    async def connect(self, user: str) -> Client:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.bind(str(self.directory / f"{user}-{next(_numbers)}"))
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, self.path)
        reader, writer = await asyncio.open_unix_connection(sock=sock)
        return Client(reader, writer)

    async def login(self, user: str) -> Client:
        client = await self.connect(user)
        await client.hello()
        return client


MakeSetup = Callable[..., Any]


@pytest.fixture
async def online(tmp_path: Path) -> AsyncIterator[Callable[..., Any]]:
    """``await online(limits=...)``: a started server; stopped at the end."""
    made: list[tuple[Server, SqliteStore]] = []

    async def make(limits: Limits | None = None, store: SqliteStore | None = None) -> Setup:
        store = store or SqliteStore(tmp_path / "db" / "online.sqlite3")
        server = Server(store, identify=name_from_address, limits=limits)
        path = str(tmp_path / "s.sock")
        await server.start(path)
        made.append((server, store))
        return Setup(tmp_path, server, path)

    yield make
    for server, store in made:
        if not server._stopped.is_set():
            await server.stop()
        store.close()
