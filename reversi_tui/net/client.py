"""The client side of a connection: hello, pings, messages in, and reconnecting.

``Client.run`` connects (``discovery.connect``), asks the kernel who runs the server
(``trust.Owner``: ``SO_PEERCRED`` on the connected socket) and, for a server run by
another ordinary user, asks ``vet`` before saying anything; then says ``hello``,
hands every server message to ``on_message`` and news of the connection to
``on_status``, pings a quiet connection, and when the link drops (or the server says
``bye``, or gives no ``welcome`` within ``WELCOME_TIMEOUT``) reconnects with a growing
backoff, saying hello again: the server's ``welcome`` then lists the user's
unfinished games, so a game goes on where it was. Errors after which a new attempt
cannot help (``identity_mismatch``, ``version_unsupported``, ``too_many_sessions``)
and a server the player refused end ``run`` with ``ClientStopped``. No UI here: the
TUI and the bots drive it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Final

from reversi_tui.net import protocol
from reversi_tui.net.discovery import Connected, NoServer, connect, describe
from reversi_tui.net.protocol import (
    MAX_SERVER_LINE,
    PING_INTERVAL,
    Bye,
    Error,
    ErrorCode,
    Hello,
    Ping,
    ProtocolError,
    ServerMessage,
    Welcome,
)
from reversi_tui.net.trust import Owner, trusted_by_rule

#: Seconds between attempts after a drop: growing, then steady.
BACKOFF: Final = (0.5, 1.0, 2.0, 4.0, 8.0)
#: Errors that no reconnection can cure.
FATAL: Final = frozenset(
    {ErrorCode.IDENTITY_MISMATCH, ErrorCode.VERSION_UNSUPPORTED, ErrorCode.TOO_MANY_SESSIONS}
)

#: Connects; its argument says whether it may start a server when none answers.
Connector = Callable[[bool], Awaitable[Connected]]
#: Failed attempts after which a client that did not host the last server starts one.
HOST_FIRST_ATTEMPTS: Final = 4
#: Seconds to wait for ``welcome`` after ``hello`` before giving up on a server.
WELCOME_TIMEOUT: Final = 5.0

#: Decides about a server run by another ordinary user: (owner, address) -> go on?
Vetter = Callable[[Owner, str], Awaitable[bool]]


class ClientStopped(Exception):
    """The server refused this client for good; the message says why."""


class _Silent(Exception):
    """The server took the connection but said no ``welcome`` in time."""


class Client:
    """One user's reconnecting connection to the server."""

    def __init__(
        self,
        on_message: Callable[[ServerMessage], None],
        on_status: Callable[[str], None],
        *,
        socket: str | None = None,
        connector: Connector | None = None,
        backoff: Sequence[float] = BACKOFF,
        ping_interval: float = PING_INTERVAL,
        welcome_timeout: float = WELCOME_TIMEOUT,
        vet: Vetter | None = None,
        data_dir: Path | None = None,
    ) -> None:
        """``vet`` decides about a server run by another ordinary user (None: refuse
        it); ``data_dir`` is handed to a server this client starts."""
        self.on_message = on_message
        self.on_status = on_status
        self.connector: Connector = connector or (
            lambda start: connect(
                socket, limit=MAX_SERVER_LINE, start_server=start, data_dir=data_dir
            )
        )
        self.backoff = tuple(backoff)
        self.ping_interval = ping_interval
        self.welcome_timeout = welcome_timeout
        self.vet = vet
        self.user: str | None = None
        #: Who runs the server, from the kernel (never from a message).
        self.owner: Owner | None = None
        #: The server's store identity, from ``welcome``.
        self.server: str | None = None
        self.address: str | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._closing = False
        self._welcomed = asyncio.Event()
        self._ever_welcomed = False
        #: The last server reached took the connection but never said ``welcome``.
        self.silent = False

    @property
    def stopped(self) -> bool:
        """``run`` has ended for good (``close``, or a refusal)."""
        return self._closing

    def restart(self) -> None:
        """Allow ``run`` again after it stopped."""
        self._closing = False

    @property
    def connected(self) -> bool:
        return self._writer is not None and self._welcomed.is_set()

    def send(self, message: protocol.ClientMessage) -> bool:
        """Send one message; False (nothing sent) while not connected."""
        writer = self._writer
        if writer is None or writer.is_closing():
            return False
        writer.write(protocol.encode(message))
        return True

    async def close(self) -> None:
        """Stop for good: close the connection, and ``run`` returns."""
        self._closing = True
        writer = self._writer
        if writer is not None:
            writer.close()
            with contextlib.suppress(OSError, ConnectionError):
                await writer.wait_closed()

    async def run(self) -> None:
        """Connect and stay connected until ``close``; ClientStopped on a fatal refusal."""
        attempt = 0
        while not self._closing:
            wait: float | None = None
            try:
                connected = await self.connector(self._may_start(attempt))
            except (NoServer, OSError) as error:
                wait = self._next_wait(attempt)
                self.on_status(f"No server: {error}. Trying again in {wait:g} s.")
            else:
                self._ever_welcomed = False
                try:
                    wait = await self._session(connected)
                except _Silent:
                    self.silent = True
                    wait = self._next_wait(attempt)
                    self.on_status(
                        f"The server at {describe(connected.address)} does not answer "
                        f"(no welcome within {self.welcome_timeout:g} s). "
                        f"Trying again in {wait:g} s, at {_clock_after(wait)}."
                    )
                if self._ever_welcomed:
                    attempt = 0  # a server that never welcomes backs off like a dead one
            if self._closing:
                return
            if wait is None:
                wait = self._next_wait(attempt)
                self.on_status(f"Connection lost. Reconnecting in {wait:g} s.")
            attempt += 1
            await asyncio.sleep(wait)

    def _next_wait(self, attempt: int) -> float:
        """Seconds before the attempt after number ``attempt`` (from 0)."""
        return self.backoff[min(attempt, len(self.backoff) - 1)]

    def _may_start(self, attempt: int) -> bool:
        """Whether this attempt may start a server when none answers.

        A server started by a client keeps its games in its user's data directory.
        When it dies, its owner's client starts the next one at once, so the games go
        on; the others give it a few attempts first, and only then start their own.
        """
        owner_was_me = self.owner is None or self.owner.uid == os.getuid()
        return owner_was_me or attempt >= HOST_FIRST_ATTEMPTS

    async def _vetted(self, connected: Connected) -> Owner:
        """Who runs the server, and whether to go on: ClientStopped when the player
        (or, without ``vet``, this client) will not use a server of that user."""
        sock = connected.writer.get_extra_info("socket")
        owner = Owner.of(sock)
        self.owner = owner
        if trusted_by_rule(owner, connected.address) is not None:
            return owner
        if self.vet is not None and await self.vet(owner, connected.address):
            return owner
        self._closing = True
        raise ClientStopped(
            f"the server at {describe(connected.address)} is run by {owner}, "
            "and you chose not to use it"
        )

    async def _session(self, connected: Connected) -> float | None:
        """One connection, from hello to its end; the wait a ``bye`` asked for, if any."""
        loop = asyncio.get_running_loop()
        began = loop.time()
        try:
            await self._vetted(connected)
        except BaseException:
            connected.writer.close()
            raise
        if loop.time() - began > protocol.HELLO_TIMEOUT / 2:
            connected.writer.close()  # the player took a while: the server may have given up
            return 0.0
        self._writer = connected.writer
        self.address = connected.address
        self._welcomed.clear()
        pinger = asyncio.create_task(self._ping())
        try:
            self.send(Hello(version=protocol.VERSION))
            while True:
                wait = None if self._welcomed.is_set() else self.welcome_timeout
                try:
                    async with asyncio.timeout(wait):
                        line = await connected.reader.readline()
                except TimeoutError:
                    raise _Silent from None
                except (ValueError, asyncio.LimitOverrunError):
                    return None  # a line over any limit: not our server; drop it
                except (OSError, ConnectionError):
                    return None
                if not line:
                    return None
                try:
                    message = protocol.decode_server(line)
                except ProtocolError:
                    continue  # a newer server's message: not for us
                wait = self._handle(message, connected)
                if wait is not None:
                    return wait
        finally:
            pinger.cancel()
            self._writer = None
            self._welcomed.clear()
            connected.writer.close()
            with contextlib.suppress(OSError, ConnectionError, asyncio.CancelledError):
                await pinger

    def _handle(self, message: ServerMessage, connected: Connected) -> float | None:
        match message:
            case Welcome():
                self.user, self.server = message.user, message.server
                self._welcomed.set()
                self._ever_welcomed = True
                self.silent = False
                started = " (started just now)" if connected.started else ""
                own = self.owner is None or self.owner.uid == os.getuid()
                whose = "your own server" if own else f"the server of {self.owner}"
                where = describe(connected.address)
                self.on_status(f"Connected as {message.user} to {whose} at {where}{started}.")
            case Bye():
                self._welcomed.clear()  # not connected from now on, whatever the socket says
                wait = max(0.05, message.retry_ms / 1000)
                self.on_message(message)
                self.on_status(f"The server is stopping ({message.reason}). Back in {wait:g} s.")
                return wait
            case Error(code=code) if code in FATAL:
                self._closing = True
                raise ClientStopped(message.message)
        self.on_message(message)
        return None

    async def _ping(self) -> None:
        while True:
            await asyncio.sleep(self.ping_interval)
            self.send(Ping())


def _clock_after(seconds: float) -> str:
    """The wall-clock time ``seconds`` from now, as ``16:40:05``."""
    return time.strftime("%H:%M:%S", time.localtime(time.time() + seconds))
