"""The terminal driver: Textual's ``LinuxDriver`` with an input thread that survives any input.

Textual 8.2.8's ``LinuxDriver.run_input_thread`` decodes standard input as strict
UTF-8 and parses it with ``XTermParser``; a stray byte or a malformed sequence ends
the thread with an exception, and the thread's wrapper panics the app. This driver
runs the same loop with the tolerant decoder and parser of ``reversi_tui.tui.input``,
and believes the terminal's size only when it is sane.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
from typing import IO, Any

from textual._parser import ParseError
from textual.drivers.linux_driver import LinuxDriver

from reversi_tui.tui.input import MAX_CELLS, SafeParser, input_decoder


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
    """``LinuxDriver`` with a tolerant decoder and parser (see ``reversi_tui.tui.input``),
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
        """Wait for input and dispatch events: Textual's loop, decoding and parsing safely."""
        selector = selectors.SelectSelector()
        selector.register(self.fileno, selectors.EVENT_READ)
        parser = SafeParser(self._debug)
        decode = input_decoder()

        def process(ready: list[tuple[selectors.SelectorKey, int]], final: bool = False) -> bool:
            """Handle what is ready; False when the terminal has gone."""
            for _key, mask in ready:
                if mask & selectors.EVENT_READ:
                    try:
                        data = os.read(self.fileno, 4096)
                    except OSError:  # EIO: the terminal hung up
                        data = b""
                    if not data:
                        return False
                    for event in parser.feed(decode(data, final=final)):
                        self.process_message(event)
            for event in parser.tick():
                self.process_message(event)
            return True

        try:
            while not self.exit_event.is_set():
                if not process(selector.select(0.1)):
                    self._hang_up()
                    break
            selector.unregister(self.fileno)
            process(selector.select(0.1), final=True)
        finally:
            selector.close()
            try:
                for _event in parser.feed(""):
                    pass
            except (EOFError, ParseError):
                pass
