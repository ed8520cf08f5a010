"""The online server: connections on a Unix socket, limits, and the ``Hub``'s rules.

Each connection is read one line at a time with bounded memory: the stream's
buffer is limited to a line, a line that does not fit is ``too_large`` and the end
of the connection, and a line that has begun must end within ``line_timeout``
(a deadline on the whole line, so dribbling a byte at a time does not keep it
open). A connection has ``hello_timeout`` to say hello and is closed after
``idle_timeout`` of silence. Each has a token bucket (``rate`` a second, bursts of
``burst``). Writes never wait: a client whose unread output passes
``max_buffer`` is dropped, so one that never reads cannot grow the server's
memory. ``stop`` says ``bye`` to everyone, closes the connections and waits for
their handlers, so a graceful stop leaves no traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import socket
import stat
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from reversi_tui.net import protocol
from reversi_tui.net.discovery import ABSTRACT_NAME, describe
from reversi_tui.net.hub import Hub
from reversi_tui.net.identity import own_name, peer_name
from reversi_tui.net.protocol import (
    CLOSING_CODES,
    HELLO_FIRST,
    HELLO_TIMEOUT_CODE,
    IDENTITY_MISMATCH,
    IDLE_TIMEOUT_CODE,
    RATE_LIMITED,
    TOO_LARGE,
    TOO_MANY_SESSIONS,
    VERSION_UNSUPPORTED,
    ProtocolError,
    RequestId,
)
from reversi_tui.net.store import Store

__all__ = ["ABSTRACT_NAME", "Limits", "Server", "ServerRunning"]

#: How long clients wait before coming back after a graceful stop.
RETRY_MS: Final = 1000


@dataclass(frozen=True)
class Limits:
    """The server's limits (documented in docs/protocol.md), with their defaults."""

    sessions_per_user: int = protocol.MAX_SESSIONS_PER_USER
    rate: float = protocol.RATE_PER_SECOND
    burst: int = protocol.RATE_BURST
    hello_timeout: float = protocol.HELLO_TIMEOUT
    idle_timeout: float = protocol.IDLE_TIMEOUT
    line_timeout: float = 10.0
    max_line: int = protocol.MAX_LINE
    #: Unread bytes a client may leave queued before it is dropped.
    max_buffer: int = 256 * 1024


class ServerRunning(OSError):
    """A live server already answers on the address."""


class _Closing(Exception):
    """End this connection (after the error already sent)."""


class Connection:
    """One client connection: a ``Peer`` of the hub."""

    def __init__(self, server: Server, writer: asyncio.StreamWriter, user: str) -> None:
        self.server = server
        self.writer = writer
        self._user = user
        self.tokens = float(server.limits.burst)
        self.refilled = asyncio.get_running_loop().time()
        self.dropped = False

    @property
    def user(self) -> str:
        return self._user

    def send_line(self, line: bytes) -> None:
        writer = self.writer
        if self.dropped or writer.is_closing():
            return
        transport = writer.transport
        if transport.get_write_buffer_size() + len(line) > self.server.limits.max_buffer:
            self.dropped = True
            self.server.log(f"{self.user}: not reading; dropped")
            transport.abort()
            return
        writer.write(line)

    def allow(self) -> bool:
        """A token for one message, if the bucket has one."""
        now = asyncio.get_running_loop().time()
        limits = self.server.limits
        self.tokens = min(float(limits.burst), self.tokens + (now - self.refilled) * limits.rate)
        self.refilled = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Server:
    """The authoritative server of one host."""

    def __init__(
        self,
        store: Store,
        *,
        identify: Callable[[socket.socket], str] = peer_name,
        host: str | None = None,
        limits: Limits | None = None,
        log: Callable[[str], None] = lambda _: None,
    ) -> None:
        self.limits = limits or Limits()
        self.identify = identify
        self.log = log
        self.hub = Hub(store, host or own_name(), log=log, defer=self._soon)
        self.address: str | None = None
        self._server: asyncio.Server | None = None
        self._handlers: set[asyncio.Task[None]] = set()
        self._connections: set[Connection] = set()
        self._stopped = asyncio.Event()

    @staticmethod
    def _soon(callback: Callable[[], None]) -> object:
        """Moves that arrive together are committed together (one fsync)."""
        return asyncio.get_running_loop().call_soon(callback)

    # Starting and stopping ------------------------------------------------------------
    async def start(self, address: str = ABSTRACT_NAME) -> None:
        """Listen on ``address``: a path (made 0666), or an abstract name (``\\0...``).

        A path left by a dead server is removed first; ServerRunning when a live
        server answers there (or holds the abstract name).
        """
        if not address.startswith("\0"):
            await _clear_stale(address)
        try:
            self._server = await asyncio.start_unix_server(
                self._serve, address, limit=self.limits.max_line
            )
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                raise ServerRunning(f"a server is already running on {describe(address)}") from None
            raise
        if not address.startswith("\0"):
            os.chmod(address, 0o666)  # every local user may connect; the kernel names them
        self.address = address
        self.log(f"listening on {describe(address)}")

    async def start_on(self, listening: socket.socket) -> None:
        """Serve on a socket already listening (systemd socket activation)."""
        self._server = await asyncio.start_unix_server(
            self._serve, sock=listening, limit=self.limits.max_line
        )
        self.address = str(listening.getsockname())
        self.log(f"listening on {describe(self.address)} (from systemd)")

    async def wait_stopped(self) -> None:
        await self._stopped.wait()

    async def stop(self, reason: str = "server stopping", retry_ms: int = RETRY_MS) -> None:
        """Say ``bye`` to every connection, close them, and wait for their handlers."""
        if self._server is not None:
            self._server.close()
        bye = protocol.encode(protocol.Bye(reason=reason, retry_ms=retry_ms))
        for connection in list(self._connections):
            connection.send_line(bye)
            connection.writer.close()
        if self._handlers:
            await asyncio.wait(self._handlers, timeout=5)
        for task in self._handlers:
            task.cancel()
        if self._server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 5)
        if self.address and not self.address.startswith("\0") and self._server is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.address)
        self._stopped.set()
        self.log(f"stopped: {reason}")

    # One connection ------------------------------------------------------------------
    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._handlers.add(task)
        connection: Connection | None = None
        try:
            sock = writer.get_extra_info("socket")
            user = self.identify(sock)
            connection = Connection(self, writer, user)
            self._connections.add(connection)
            await self._converse(reader, connection)
        except (_Closing, ConnectionError, OSError, asyncio.IncompleteReadError):
            pass
        except asyncio.CancelledError:
            pass
        finally:
            if connection is not None:
                self._connections.discard(connection)
                self.hub.leave(connection)
            writer.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer.wait_closed(), 1)
            self._handlers.discard(task)

    async def _converse(self, reader: asyncio.StreamReader, connection: Connection) -> None:
        welcomed = False
        limits = self.limits
        while True:
            wait = limits.idle_timeout if welcomed else limits.hello_timeout
            line = await self._read_line(reader, connection, wait, welcomed)
            if not connection.allow():
                self._error(connection, RATE_LIMITED, "too many messages: slow down", None)
                continue
            try:
                message = protocol.decode_client(line)
            except ProtocolError as error:
                self._error(connection, error.code, error.message, error.re)
                continue
            if not welcomed:
                if not isinstance(message, protocol.Hello):
                    self._error(connection, HELLO_FIRST, "say hello first", message.id)
                    continue
                self._hello(connection, message)
                welcomed = True
                continue
            self.hub.handle(connection, message)

    async def _read_line(
        self,
        reader: asyncio.StreamReader,
        connection: Connection,
        wait: float,
        welcomed: bool,
    ) -> bytes:
        """The next line: its first byte within ``wait``, the rest within the line deadline."""
        try:
            async with asyncio.timeout(wait):
                first = await reader.readexactly(1)
        except TimeoutError:
            code = IDLE_TIMEOUT_CODE if welcomed else HELLO_TIMEOUT_CODE
            what = "silent" if welcomed else "no hello"
            self._error(connection, code, f"{what} for {wait:g} s: closing", None)
            raise _Closing from None
        if first == b"\n":
            return first
        try:
            async with asyncio.timeout(self.limits.line_timeout):
                rest = await reader.readuntil(b"\n")
        except TimeoutError:
            code = IDLE_TIMEOUT_CODE if welcomed else HELLO_TIMEOUT_CODE
            message = f"a line must arrive within {self.limits.line_timeout:g} s: closing"
            self._error(connection, code, message, None)
            raise _Closing from None
        except asyncio.LimitOverrunError:
            self._error(
                connection, TOO_LARGE, f"a line is at most {self.limits.max_line} bytes", None
            )
            raise _Closing from None
        line = first + rest
        if len(line) > self.limits.max_line:
            self._error(
                connection, TOO_LARGE, f"a line is at most {self.limits.max_line} bytes", None
            )
            raise _Closing from None
        return line

    def _hello(self, connection: Connection, hello: protocol.Hello) -> None:
        user, re = connection.user, hello.id
        if hello.version != protocol.VERSION:
            self._error(
                connection,
                VERSION_UNSUPPORTED,
                f"this server speaks version {protocol.VERSION}, not {hello.version}",
                re,
            )
            raise _Closing
        if hello.user is not None and hello.user != user:
            self.log(f"{user} claimed to be {hello.user!r}: refused")
            self._error(connection, IDENTITY_MISMATCH, f"you are {user}, not {hello.user}", re)
            raise _Closing
        if len(self.hub.sessions(user)) >= self.limits.sessions_per_user:
            self._error(
                connection,
                TOO_MANY_SESSIONS,
                f"at most {self.limits.sessions_per_user} sessions per user",
                re,
            )
            raise _Closing
        self.hub.join(connection, re)

    def _error(self, connection: Connection, code: str, text: str, re: RequestId | None) -> None:
        connection.send_line(protocol.encode(protocol.Error(code=code, message=text, re=re)))
        if code in CLOSING_CODES:
            connection.writer.close()


async def _clear_stale(path: str) -> None:
    """Remove a socket file nobody answers on; ServerRunning when somebody does."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return
    if not stat.S_ISSOCK(info.st_mode):
        raise OSError(errno.EEXIST, f"{path} exists and is not a socket")
    try:
        _, writer = await asyncio.wait_for(asyncio.open_unix_connection(path), 2)
    except (OSError, TimeoutError):
        os.unlink(path)  # left by a dead server
        return
    writer.close()
    raise ServerRunning(f"a server is already running on {path}")
