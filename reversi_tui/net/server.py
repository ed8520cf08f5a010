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

Connections are counted as they are accepted, before ``hello`` (the kernel names
the user at once): beyond ``connections_per_user`` of one user, or
``connections`` in all (at most half the file descriptors the process may open),
a new connection gets one ``too_many_connections`` error and is closed, so one
user cannot use up the server's descriptors and lock everyone else out. Each
episode of refusals is logged twice, when it begins and when that user (or
anyone, for a full server) is admitted again, never once per connection. Errors
that reach the event loop (``accept`` out of descriptors, which asyncio retries
every second) are logged in one line per episode too, without a traceback.

Everything is logged through ``logging``: connections, refusals and floods by the
logger ``reversi_tui.net.server`` (info, and warning for refusals and floods), the
sessions and games by the Hub's ``reversi_tui.net.hub``. A server given
``idle_exit`` stops by itself after that many seconds without any connection.

After each message it handles (and each commit of moves, each session that comes or
goes, each flag) the server asks the hub to push the lobby if it changed
(``Hub.flush_lobby``: one push per batch) and sets one timer at the hub's
``next_deadline``, when the next flag falls, to call ``Hub.tick``.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import os
import resource
import socket
import stat
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from reversi_tui.net import protocol
from reversi_tui.net.discovery import ABSTRACT_NAME, describe
from reversi_tui.net.hub import Hub
from reversi_tui.net.identity import peer_name
from reversi_tui.net.protocol import CLOSING_CODES, ErrorCode, ProtocolError, RequestId
from reversi_tui.net.store import Store

__all__ = ["ABSTRACT_NAME", "Limits", "Server", "ServerRunning"]

#: How long clients wait before coming back after a graceful stop.
RETRY_MS: Final = 1000
#: ``accept`` errors that mean no descriptor (or memory) is left: asyncio retries after 1 s.
OUT_OF_RESOURCES: Final = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})

logger = logging.getLogger(__name__)

_LoopHandler = Callable[[asyncio.AbstractEventLoop, dict[str, Any]], object]


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
    #: Connections one user may hold, welcomed or not: its sessions and a few being set up.
    connections_per_user: int = 2 * protocol.MAX_SESSIONS_PER_USER
    #: Connections in all; never more than half the descriptors the process may open.
    connections: int = 1000


def descriptor_limit() -> int:
    """The file descriptors this process may open (the soft ``RLIMIT_NOFILE``)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


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
        self.refilled = server.clock()
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
            logger.warning(f"{self.user}: not reading; dropped")
            transport.abort()
            return
        writer.write(line)

    def allow(self) -> bool:
        """A token for one message, if the bucket has one."""
        now = self.server.clock()
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
        limits: Limits | None = None,
        idle_exit: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limits = limits or Limits()
        self.identify = identify
        #: Stop after this many seconds without any connection (None: never).
        self.idle_exit = idle_exit
        #: Seconds, monotonic: the rate limits' buckets and the challenges' expiry.
        self.clock = clock
        self.hub = Hub(store, defer=self._soon, clock=clock)
        #: The timer that calls the hub's ``tick`` at its next deadline.
        self._tick: asyncio.TimerHandle | None = None
        self._tick_at: float | None = None
        self.address: str | None = None
        self._server: asyncio.Server | None = None
        self._handlers: set[asyncio.Task[None]] = set()
        self._connections: set[Connection] = set()
        self._stopped = asyncio.Event()
        #: Connections admitted and not yet closed, by user; and the cap on all of them.
        self._held: Counter[str] = Counter()
        self.max_connections = self.limits.connections
        #: Users being refused (connections refused in this episode), and the same
        #: for a full server (None: not full).
        self._refusing: dict[str, int] = {}
        self._full: int | None = None
        #: Errors of an out-of-descriptors episode (None: none going on).
        self._starved: int | None = None
        self._idle: asyncio.TimerHandle | None = None
        self._stopping: asyncio.Task[None] | None = None
        self._previous_handler: _LoopHandler | None = None

    def connections(self, user: str | None = None) -> int:
        """The connections ``user`` holds (everyone's with None), welcomed or not."""
        return self._held.total() if user is None else self._held[user]

    def _soon(self, callback: Callable[[], None]) -> object:
        """Moves that arrive together are committed together (one fsync)."""

        def run() -> None:
            callback()
            self._after()

        return asyncio.get_running_loop().call_soon(run)

    def _after(self) -> None:
        """After a batch of changes: the lobby pushed if it changed, the flag timer set."""
        self.hub.flush_lobby()
        deadline = self.hub.next_deadline()
        if deadline == self._tick_at:
            return
        if self._tick is not None:
            self._tick.cancel()
            self._tick = None
        self._tick_at = deadline
        if deadline is not None and not self._stopped.is_set():
            wait = max(0.0, deadline - self.clock())
            self._tick = asyncio.get_running_loop().call_later(wait, self._on_tick)

    def _on_tick(self) -> None:
        self._tick = None
        self._tick_at = None
        self.hub.tick()
        self._after()

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
        self._started(f"listening on {describe(address)}")

    async def start_on(self, listening: socket.socket) -> None:
        """Serve on a socket already listening (systemd socket activation)."""
        self._server = await asyncio.start_unix_server(
            self._serve, sock=listening, limit=self.limits.max_line
        )
        self.address = str(listening.getsockname())
        self._started(f"listening on {describe(self.address)} (from systemd)")

    def _started(self, listening: str) -> None:
        """Cap the connections by the descriptors, take the loop's errors, arm idle exit."""
        self.max_connections = max(1, min(self.limits.connections, descriptor_limit() // 2))
        loop = asyncio.get_running_loop()
        self._previous_handler = loop.get_exception_handler()
        loop.set_exception_handler(self._loop_error)
        per_user = self.limits.connections_per_user
        logger.info(f"{listening}: at most {self.max_connections} connections, {per_user} per user")
        self._arm_idle_exit()

    async def wait_stopped(self) -> None:
        await self._stopped.wait()

    async def stop(self, reason: str = "server stopping", retry_ms: int = RETRY_MS) -> None:
        """Say ``bye`` to every connection, close them, and wait for their handlers."""
        if self._idle is not None:
            self._idle.cancel()
        if self._tick is not None:
            self._tick.cancel()
            self._tick = None
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
        logger.info(f"stopped: {reason}")
        if self._server is not None:
            loop = asyncio.get_running_loop()
            if loop.get_exception_handler() == self._loop_error:
                loop.set_exception_handler(self._previous_handler)

    # Idle exit ------------------------------------------------------------------------
    def _arm_idle_exit(self) -> None:
        if self.idle_exit is not None and not self._handlers and not self._stopped.is_set():
            if self._idle is not None:
                self._idle.cancel()
            self._idle = asyncio.get_running_loop().call_later(self.idle_exit, self._idle_stop)

    def _idle_stop(self) -> None:
        self._idle = None
        if self._handlers or self._stopped.is_set():
            return
        wait = f"{self.idle_exit:g}"
        logger.info(f"no connection for {wait} s: stopping")
        self._stopping = asyncio.get_running_loop().create_task(self.stop(f"idle for {wait} s"))

    # Errors that reach the event loop -------------------------------------------------
    def _loop_error(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """One line, never a traceback; out of descriptors: one line per episode."""
        error = context.get("exception")
        if isinstance(error, OSError) and error.errno in OUT_OF_RESOURCES:
            if self._starved is None:
                self._starved = 0
                logger.warning(
                    f"cannot accept connections: {error.strerror or error} "
                    "(retrying every second; one line until it passes)"
                )
            self._starved += 1
            return
        what = str(context.get("message") or "error in the event loop")
        if isinstance(error, BaseException):
            what = f"{what}: {type(error).__name__}: {error}"
        logger.error(what)

    # One connection ------------------------------------------------------------------
    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._handlers.add(task)
        self._accepted()
        connection: Connection | None = None
        held: str | None = None
        try:
            sock = writer.get_extra_info("socket")
            user = self.identify(sock)
            refusal = self._admit(user)
            if refusal is not None:
                error = protocol.Error(code=ErrorCode.TOO_MANY_CONNECTIONS, message=refusal)
                writer.write(protocol.encode(error))  # one short line: the kernel takes it
                return
            held = user
            self._held[user] += 1
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
                self.hub.leave(connection, stalled=connection.dropped)
                if not self._stopped.is_set():
                    self._after()
            writer.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer.wait_closed(), 1)
            if held is not None:
                self._held[held] -= 1
                if not self._held[held]:
                    del self._held[held]
            self._handlers.discard(task)
            self._arm_idle_exit()

    def _accepted(self) -> None:
        """A connection came: no idle exit now, and accepting works (again)."""
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None
        if self._starved is not None:
            logger.info(f"accepting connections again ({self._starved} failed accepts)")
            self._starved = None

    def _admit(self, user: str) -> str | None:
        """None when ``user`` may hold one more connection; else why not (logged once
        per episode: when the refusals begin, and when that user is admitted again)."""
        per_user = self.limits.connections_per_user
        if self._held[user] >= per_user:
            if user not in self._refusing:
                self._refusing[user] = 0
                logger.warning(
                    f"{user} holds {per_user} connections, the most one user may: "
                    "refusing more until one closes"
                )
            self._refusing[user] += 1
            return f"at most {per_user} connections per user: close one first"
        if self.connections() >= self.max_connections:
            if self._full is None:
                self._full = 0
                logger.warning(
                    f"{self.max_connections} connections, the most the server takes: "
                    "refusing new ones until one closes"
                )
            self._full += 1
            return f"the server is full ({self.max_connections} connections): try again later"
        if user in self._refusing:
            refused = self._refusing.pop(user)
            logger.info(f"{user} is admitted again ({refused} connections refused)")
        if self._full is not None:
            logger.info(f"accepting connections again ({self._full} refused while full)")
            self._full = None
        return None

    async def _converse(self, reader: asyncio.StreamReader, connection: Connection) -> None:
        welcomed = False
        limits = self.limits
        while True:
            wait = limits.idle_timeout if welcomed else limits.hello_timeout
            line = await self._read_line(reader, connection, wait, welcomed)
            if not connection.allow():
                self._error(
                    connection,
                    ErrorCode.RATE_LIMITED,
                    "too many messages: slow down",
                    protocol.request_id(line),
                )
                continue
            try:
                message = protocol.decode_client(line)
            except ProtocolError as error:
                self._error(connection, error.code, error.message, error.re)
                continue
            if welcomed:
                self.hub.handle(connection, message)
                self._after()
                continue
            match message:
                case protocol.Hello():
                    self._hello(connection, message)
                    welcomed = True
                    self._after()
                case _:
                    self._error(connection, ErrorCode.HELLO_FIRST, "say hello first", message.id)

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
            code = ErrorCode.IDLE_TIMEOUT if welcomed else ErrorCode.HELLO_TIMEOUT
            what = "silent" if welcomed else "no hello"
            self._error(connection, code, f"{what} for {wait:g} s: closing", None)
            raise _Closing from None
        if first == b"\n":
            return first
        try:
            async with asyncio.timeout(self.limits.line_timeout):
                rest = await reader.readuntil(b"\n")
        except TimeoutError:
            code = ErrorCode.IDLE_TIMEOUT if welcomed else ErrorCode.HELLO_TIMEOUT
            message = f"a line must arrive within {self.limits.line_timeout:g} s: closing"
            self._error(connection, code, message, None)
            raise _Closing from None
        except asyncio.LimitOverrunError:
            self._error(
                connection,
                ErrorCode.TOO_LARGE,
                f"a line is at most {self.limits.max_line} bytes",
                None,
            )
            raise _Closing from None
        line = first + rest
        if len(line) > self.limits.max_line:
            self._error(
                connection,
                ErrorCode.TOO_LARGE,
                f"a line is at most {self.limits.max_line} bytes",
                None,
            )
            raise _Closing from None
        return line

    def _hello(self, connection: Connection, hello: protocol.Hello) -> None:
        user, re = connection.user, hello.id
        if hello.version != protocol.VERSION:
            self._error(
                connection,
                ErrorCode.VERSION_UNSUPPORTED,
                f"this server speaks version {protocol.VERSION}, not {hello.version}",
                re,
            )
            raise _Closing
        if hello.user is not None and hello.user != user:
            logger.warning(f"{user} claimed to be {hello.user!r}: refused")
            self._error(
                connection, ErrorCode.IDENTITY_MISMATCH, f"you are {user}, not {hello.user}", re
            )
            raise _Closing
        if len(self.hub.sessions(user)) >= self.limits.sessions_per_user:
            self._error(
                connection,
                ErrorCode.TOO_MANY_SESSIONS,
                f"at most {self.limits.sessions_per_user} sessions per user",
                re,
            )
            raise _Closing
        self.hub.join(connection, re)

    def _error(
        self, connection: Connection, code: ErrorCode, text: str, re: RequestId | None
    ) -> None:
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
