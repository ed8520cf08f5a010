"""The one confirmation dialog every destructive action goes through (quit, new game).

One rule everywhere: ``y`` confirms, ``n`` or Esc cancels, Enter presses the
focused button, and the safe button has the focus when the dialog opens, so a
stray Enter never throws a game away.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from reversi_tui.tui.screens.dialog import Dialog
from reversi_tui.tui.widgets.footer import KeyFooter


class ConfirmScreen(Dialog[bool]):
    """Ask a yes/no question; dismisses with True only on an explicit yes."""

    AUTO_FOCUS = "#no"
    BINDINGS = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, title: str, question: str, yes: str = "Yes", no: str = "No") -> None:
        super().__init__()
        self.title_text = title
        self.question = question
        self.yes = yes
        self.no = no

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.title_text, classes="dialog-title")
            yield Static(self.question, classes="dialog-text")
            with Horizontal(classes="buttons"):
                yield Button(f"{self.yes} (y)", id="yes", variant="error")
                yield Button(f"{self.no} (n)", id="no", variant="primary")
        yield KeyFooter()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "yes")

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)
