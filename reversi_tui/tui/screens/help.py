"""Every key, and the rules in brief; ``?`` or Esc closes it."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

KEYS: tuple[tuple[str, str], ...] = (
    ("arrows  h j k l", "move the cursor"),
    ("Enter  Space", "play at the cursor (Space pauses computer vs computer)"),
    ("Tab  Shift+Tab", "next / previous legal move"),
    ("a-h then 1-8", "jump to a square, e.g. d 3"),
    ("i", "hint: the hard level's move and evaluation"),
    ("u", "undo (takes back the computer's reply too)"),
    ("U  Ctrl+R", "redo"),
    ("n", "new game: players, levels, handicap"),
    ("q", "quit (asks while a game is in progress)"),
    ("y  n  Esc", "confirm / cancel in dialogs (Enter: the focused button)"),
    ("Ctrl+P", "command palette: themes and more"),
    ("?", "this help"),
    ("mouse", "click a legal square to play; hover previews the flips"),
)

RULES = (
    "Black moves first. Place a disc so that it brackets a straight line (across, "
    "down or diagonally) of your opponent's discs between it and another of yours; "
    "the bracketed discs flip to your colour. A move must flip at least one disc. "
    "With no legal move you pass (automatically here); when neither side can move "
    "the game ends, and the side with more discs wins. Empty squares count for the "
    "winner in the final score."
)


def help_text() -> Table:
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    for key, what in KEYS:
        table.add_row(key, what)
    return table


class HelpScreen(ModalScreen[None]):
    """A modal over the game so closing it returns exactly where the player was."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; background: $background 60%; }
    HelpScreen > VerticalScroll {
        width: 76;
        max-width: 100%;
        height: auto;
        max-height: 100%;
        border: thick $primary;
        border-title-color: $accent;
        border-subtitle-color: $text-muted;
        background: $surface;
        padding: 0 1;
    }
    HelpScreen #rules { margin-top: 1; }
    """
    BINDINGS = [Binding("question_mark,escape,q", "close", "Close help")]

    def compose(self) -> ComposeResult:
        with VerticalScroll() as scroll:
            scroll.border_title = "Reversi - keys"
            scroll.border_subtitle = "? or Esc closes"
            yield Static(help_text(), id="keys")
            yield Static(Text.assemble(("Rules  ", "bold"), RULES), id="rules")

    def action_close(self) -> None:
        self.dismiss(None)
