"""The client side of a connection: hello, pings, messages in, and reconnecting.

``Client.run`` connects (``discovery.connect``), says ``hello``, hands every server
message to ``on_message`` and news of the connection to ``on_status``, pings a quiet
connection, and when the link drops (or the server says ``bye``) reconnects with a
growing backoff, saying hello again: the server's ``welcome`` then lists the user's
unfinished games, so a game goes on where it was. Errors after which a new attempt
cannot help (``identity_mismatch``, ``version_unsupported``, ``too_many_sessions``)
end ``run`` with ``ClientStopped``. No UI here: the TUI and the bots drive it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Sequence
from typing import Final

from reversi_tui.net import protocol
from reversi_tui.net.discovery import Connected, NoServer, connect, describe
from reversi_tui.net.protocol import (
    IDENTITY_MISMATCH,
    MAX_LINE,
    PING_INTERVAL,
    TOO_MANY_SESSIONS,
    VERSION_UNSUPPORTED,
    Bye,
    Error,
    Hello,
    Ping,
    ProtocolError,
    ServerMessage,
    Welcome,
)

#: Seconds between attempts after a drop: growing, then steady.
BACKOFF: Final = (0.5, 1.0, 2.0, 4.0, 8.0)
#: Errors that no reconnection can cure.
FATAL: Final = frozenset({IDENTITY_MISMATCH, VERSION_UNSUPPORTED, TOO_MANY_SESSIONS})

#: Connects; its argument says whether it may start a server when none answers.
Connector = Callable[[bool], Awaitable[Connected]]
#: Failed attempts after which a client that did not host the last server starts one.
HOST_FIRST_ATTEMPTS: Final = 4


class ClientStopped(Exception):
    """The server refused this client for good; the message says why."""


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
    ) -> None:
        self.on_message = on_message
        self.on_status = on_status
        self.connector: Connector = connector or (
            lambda start: connect(socket, limit=MAX_LINE * 2, start_server=start)
        )
        self.backoff = tuple(backoff)
        self.ping_interval = ping_interval
        self.user: str | None = None
        self.host: str | None = None
        self.address: str | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._closing = False
        self._welcomed = asyncio.Event()

    @property
    def connected(self) -> bool:
        return self._writer is not None and self._welcomed.is_set()

    async def wait_welcomed(self) -> None:
        """Until the server has welcomed this client (after each reconnection)."""
        await self._welcomed.wait()

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
                wait = self.backoff[min(attempt, len(self.backoff) - 1)]
                self.on_status(f"No server: {error}. Trying again in {wait:g} s.")
            else:
                attempt = 0
                wait = await self._session(connected)
            if self._closing:
                return
            if wait is None:
                wait = self.backoff[min(attempt, len(self.backoff) - 1)]
                self.on_status(f"Connection lost. Reconnecting in {wait:g} s.")
            attempt += 1
            await asyncio.sleep(wait)

    def _may_start(self, attempt: int) -> bool:
        """Whether this attempt may start a server when none answers.

        A server started by a client keeps its games in its user's data directory.
        When it dies, its host's client starts the next one at once, so the games go
        on; the others give it a few attempts first, and only then start their own.
        """
        host_was_me = self.host is None or self.host == self.user
        return host_was_me or attempt >= HOST_FIRST_ATTEMPTS

    async def _session(self, connected: Connected) -> float | None:
        """One connection, from hello to its end; the wait a ``bye`` asked for, if any."""
        self._writer = connected.writer
        self.address = connected.address
        self._welcomed.clear()
        pinger = asyncio.create_task(self._ping())
        try:
            self.send(Hello(version=protocol.VERSION))
            while True:
                try:
                    line = await connected.reader.readline()
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
        if isinstance(message, Welcome):
            self.user, self.host = message.user, message.host
            self._welcomed.set()
            started = " (started just now)" if connected.started else ""
            self.on_status(
                f"Connected as {message.user} to the server of {message.host} "
                f"at {describe(connected.address)}{started}."
            )
        elif isinstance(message, Bye):
            wait = max(0.05, message.retry_ms / 1000)
            self.on_message(message)
            self.on_status(f"The server is stopping ({message.reason}). Back in {wait:g} s.")
            return wait
        elif isinstance(message, Error) and message.code in FATAL:
            self._closing = True
            raise ClientStopped(message.message)
        self.on_message(message)
        return None

    async def _ping(self) -> None:
        while True:
            await asyncio.sleep(self.ping_interval)
            self.send(Ping())
