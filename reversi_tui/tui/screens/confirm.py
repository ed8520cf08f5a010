"""The one confirmation dialog every destructive action goes through (quit, new game).

One rule everywhere: ``y`` confirms, ``n`` or Esc cancels, Enter presses the
focused button, and the safe button has the focus when the dialog opens, so a
stray Enter never throws a game away.
"""

from __future__ import annotations

from typing import Any, TypeVar
from weakref import WeakSet

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Static

from reversi_tui.tui.widgets.footer import KeyFooter

_R = TypeVar("_R")
#: Dialogs already answered: a second answer in the same burst of keys is ignored.
_closing: WeakSet[Screen[Any]] = WeakSet()


def answered(screen: Screen[Any]) -> bool:
    """True once ``screen`` has been answered (or is no longer the one on top)."""
    return screen in _closing or not screen.is_current


def dismiss_once(screen: Screen[_R], result: _R) -> None:
    """Dismiss ``screen`` with ``result`` unless it has been answered already.

    Two answering keys in one burst (``y`` then Enter, as a fast typist or a paste
    sends them) would dismiss a dialog twice, and Textual 8.2.8 then raises
    ``InvalidStateError`` setting the dialog's result again and kills the app.
    """
    if answered(screen):
        return
    _closing.add(screen)
    screen.dismiss(result)


DIALOG_CSS = """
{name} {{
    align: center middle;
    background: $background 60%;
}}
{name} > .dialog {{
    width: {width};
    max-width: 100%;
    height: auto;
    max-height: 100%;
    border: thick $primary;
    background: $surface;
    padding: 0 2;
    overflow: hidden hidden;
}}
{name} .dialog-title {{
    text-style: bold;
    color: $accent;
    width: 1fr;
    content-align: center middle;
}}
{name} .dialog-text {{ width: 1fr; margin: 1 0; }}
{name} .buttons {{ width: 1fr; height: auto; align-horizontal: center; }}
{name} .buttons Button {{ margin: 0 1; }}
"""


class ConfirmScreen(ModalScreen[bool]):
    """Ask a yes/no question; dismisses with True only on an explicit yes."""

    DEFAULT_CSS = DIALOG_CSS.format(name="ConfirmScreen", width=50)
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
        dismiss_once(self, event.button.id == "yes")

    def action_answer(self, value: bool) -> None:
        dismiss_once(self, value)
