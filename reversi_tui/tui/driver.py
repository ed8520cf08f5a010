"""The terminal driver: Textual's ``LinuxDriver`` with an input thread that survives any input.

Textual 8.2.8's ``LinuxDriver.run_input_thread`` decodes standard input as strict
UTF-8 and parses it with ``XTermParser``; a stray byte or a malformed sequence ends
the thread with an exception, and the thread's wrapper panics the app. This driver
runs the same loop with the tolerant decoder and parser of ``reversi_tui.tui.input``,
and believes the terminal's size only when it is sane.
"""

from __future__ import annotations

import os
import selectors

from textual._parser import ParseError
from textual.drivers.linux_driver import LinuxDriver

from reversi_tui.tui.input import MAX_CELLS, SafeParser, input_decoder


class ReversiDriver(LinuxDriver):
    """``LinuxDriver`` with a tolerant decoder and parser (see ``reversi_tui.tui.input``)."""

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

        def process(ready: list[tuple[selectors.SelectorKey, int]], final: bool = False) -> None:
            for _key, mask in ready:
                if mask & selectors.EVENT_READ:
                    text = decode(os.read(self.fileno, 4096), final=final)
                    if not text:
                        break  # end of input (a pipe)
                    for event in parser.feed(text):
                        self.process_message(event)
            for event in parser.tick():
                self.process_message(event)

        try:
            while not self.exit_event.is_set():
                process(selector.select(0.1))
            selector.unregister(self.fileno)
            process(selector.select(0.1), final=True)
        finally:
            selector.close()
            try:
                for _event in parser.feed(""):
                    pass
            except (EOFError, ParseError):
                pass
