"""A line to say online: Enter sends it, Esc does not."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Static

from reversi_tui.net.protocol import MAX_CHAT
from reversi_tui.tui.screens.dialog import Dialog
from reversi_tui.tui.widgets.footer import KeyFooter
from reversi_tui.tui.widgets.line_input import LineInput


class ChatScreen(Dialog[str | None]):
    """Type one line (at most ``MAX_CHAT`` characters); dismisses with it, or None."""

    DEFAULT_CSS = "ChatScreen > .dialog { width: 60; }"
    AUTO_FOCUS = "#line"
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str) -> None:
        super().__init__()
        self.title_text = title

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.title_text, classes="dialog-title")
            yield LineInput(placeholder="Enter sends, Esc cancels", max_length=MAX_CHAT, id="line")
        yield KeyFooter()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)
