"""The terminal driver: Textual's ``LinuxDriver`` with an input thread that survives any input.

Textual 8.2.8's ``LinuxDriver.run_input_thread`` decodes standard input as strict
UTF-8 and parses it with ``XTermParser``; a stray byte or a malformed sequence ends
the thread with an exception, and the thread's wrapper panics the app. This driver
runs the same loop with the tolerant decoder and parser of ``reversi_tui.tui.compat.input``,
drops bursts of keys far faster than typing (``BurstGuard``; without parsing them once
a burst is under way, so a megabyte costs next to nothing), and believes the terminal's
size only when it is sane.

Upstream: Textual #6456 (the strict decoder and parser of the input loop); the writer
thread dying on a hung-up terminal: no upstream issue filed. Delete the copied loop
when ``LinuxDriver`` takes the decoder and parser to use and survives EIO. Listed in
``reversi_tui.tui.compat.WORKAROUNDS``.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import time
from collections.abc import Iterable
from typing import IO, Any

from textual._parser import ParseError
from textual.drivers.linux_driver import LinuxDriver
from textual.message import Message

from reversi_tui.tui.compat.input import MAX_CELLS, BurstGuard, SafeParser, input_decoder

#: The longest wait for input before the parser's and the guard's timeouts are checked.
SELECT_SECONDS = 0.1


class _ForgivingOutput:
    """The terminal's stream, whose writes fail quietly once the terminal is gone.

    Textual's writer thread dies on the first failed write (EIO from a hung-up
    pty), and the app then blocks for ever on the writer's full queue. Output to a
    terminal that is gone is moot: it is dropped, and the input side ends the app.
    """

    def __init__(self, stream: IO[str]) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except (OSError, ValueError):
            return len(text)

    def flush(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self._stream.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class ReversiDriver(LinuxDriver):
    """``LinuxDriver`` with a tolerant decoder and parser (see ``reversi_tui.tui.compat.input``),
    output that survives the terminal going away, and a hang-up noticed on input."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._file = _ForgivingOutput(self._file)  # type: ignore[assignment,arg-type]
        self._hung_up = False

    def _hang_up(self) -> None:
        """The terminal is gone (a read of 0 bytes or EIO) but no SIGHUP came, as
        under ``su -c`` or a closed pty that was not our controlling terminal: send
        it ourselves, once, so the game is saved and the app exits as on SIGHUP."""
        if not self._hung_up:
            self._hung_up = True
            os.kill(os.getpid(), signal.SIGHUP)

    def _get_terminal_size(self) -> tuple[int, int]:
        """Textual's size from the terminal, kept within 1..``MAX_CELLS`` each way."""
        width, height = super()._get_terminal_size()
        return max(1, min(width, MAX_CELLS)), max(1, min(height, MAX_CELLS))

    def run_input_thread(self) -> None:
        """Wait for input and dispatch events: Textual's loop, decoding and parsing safely,
        bursts of keys dropped."""
        selector = selectors.SelectSelector()
        selector.register(self.fileno, selectors.EVENT_READ)
        parser = SafeParser(self._debug)
        decode = input_decoder()
        guard = BurstGuard()

        def deliver(messages: Iterable[Message]) -> None:
            for message in messages:
                self.process_message(message)

        def process(ready: list[tuple[selectors.SelectorKey, int]], final: bool = False) -> bool:
            """Handle what is ready; False when the terminal has gone."""
            now = time.monotonic()
            for _key, mask in ready:
                if mask & selectors.EVENT_READ:
                    try:
                        data = os.read(self.fileno, 4096)
                    except OSError:  # EIO: the terminal hung up
                        data = b""
                    if not data:
                        return False
                    text = decode(data, final=final)
                    if not text:  # only the start of a character; feed("") would end the input
                        continue
                    plain = parser.plain_keys(text) if guard.bursting else None
                    if plain is not None:
                        guard.drop(plain, now, text)
                    else:
                        deliver(guard.sift(parser.feed(text), now))
            deliver(guard.sift(parser.tick(), now))
            released, burst = guard.tick(now)
            deliver(released)
            if burst is not None:
                self.process_message(burst)
            return True

        def wait() -> float:
            """Seconds to wait for input: at most until the guard has something to do."""
            deadline = guard.deadline()
            if deadline is None:
                return SELECT_SECONDS
            return min(SELECT_SECONDS, max(0.0, deadline - time.monotonic()))

        try:
            while not self.exit_event.is_set():
                if not process(selector.select(wait())):
                    self._hang_up()
                    break
            selector.unregister(self.fileno)
            process(selector.select(SELECT_SECONDS), final=True)
        finally:
            selector.close()
            try:
                for _event in parser.feed(""):
                    pass
            except (EOFError, ParseError):
                pass
