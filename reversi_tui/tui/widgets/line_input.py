"""A one-line text field that takes a paste up to its length limit.

Textual's ``Input`` refuses a whole paste (with a bell) when it would make the value
longer than ``max_length``; a long line pasted into the chat box then vanished. Here
the paste's first line is cut to the room left.
"""

from __future__ import annotations

from textual import events
from textual.widgets import Input


class LineInput(Input):
    """``Input``, but a paste too long for ``max_length`` is cut to fit, not refused."""

    def _on_paste(self, event: events.Paste) -> None:
        lines = event.text.splitlines()
        if not lines or not self.max_length:
            return  # Input's own handler takes it
        start, end = sorted(self.selection)
        room = self.max_length - (len(self.value) - (end - start))
        event.prevent_default()
        event.stop()
        if room > 0:
            self.replace(lines[0][:room], start, end)
        else:
            self.restricted()
