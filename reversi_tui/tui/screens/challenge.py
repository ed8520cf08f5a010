"""The two challenge dialogs: choosing your colour, and answering a challenge.

An incoming challenge names the challenger and both colours; ``y`` or Enter
accepts, ``n`` or Esc declines (the project's confirm rule).
"""

from __future__ import annotations

from rich.markup import escape
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from reversi_tui.net.protocol import ChallengeColor
from reversi_tui.tui.screens.confirm import ConfirmScreen
from reversi_tui.tui.screens.dialog import Dialog
from reversi_tui.tui.widgets.footer import KeyFooter


def colours_words(challenger: str, color: ChallengeColor, me: str = "you") -> str:
    """``ann plays Black, you play White`` (or colours drawn at random)."""
    if color == "random":
        return f"colours drawn at random for {challenger} and {me}"
    other = "White" if color == "black" else "Black"
    verb = "play" if me == "you" else "plays"
    return f"{challenger} plays {color.title()}, {me} {verb} {other}"


class ColourScreen(Dialog[ChallengeColor | None]):
    """Which colour to play against ``opponent``: b, w or r; Esc cancels."""

    DEFAULT_CSS = "ColourScreen > .dialog { width: 56; }"
    AUTO_FOCUS = "#random"
    BINDINGS = [
        Binding("b", "pick('black')", "Black"),
        Binding("w", "pick('white')", "White"),
        Binding("r", "pick('random')", "Random"),
        Binding("escape", "cancel", "Cancel"),
    ]

    def __init__(self, opponent: str) -> None:
        super().__init__()
        self.opponent = opponent

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(f"Challenge {self.opponent}", classes="dialog-title")
            yield Static("Which colour do you play? Black moves first.", classes="dialog-text")
            with Horizontal(classes="buttons"):
                yield Button("Black (b)", id="black")
                yield Button("White (w)", id="white")
                yield Button("Random (r)", id="random", variant="primary")
        yield KeyFooter()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_pick(event.button.id or "random")

    def action_pick(self, colour: str) -> None:
        choice: ChallengeColor = (
            "black" if colour == "black" else "white" if colour == "white" else "random"
        )
        self.dismiss(choice)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ChallengedScreen(ConfirmScreen):
    """``challenger`` challenges you: True accepts, False declines; Accept has the focus,
    so Enter accepts too."""

    DEFAULT_CSS = "ChallengedScreen > .dialog { width: 56; }"
    AUTO_FOCUS = "#yes"
    BINDINGS = [
        Binding("y", "answer(True)", "Accept"),
        Binding("n,escape", "answer(False)", "Decline"),
    ]

    def __init__(self, challenger: str, color: ChallengeColor) -> None:
        words = escape(colours_words(challenger, color))
        super().__init__(
            "Challenge!",
            f"{escape(challenger)} challenges you to a game: {words}.",
            "Accept",
            "Decline",
        )
        self.challenger = challenger
        self.color = color

    def on_mount(self) -> None:
        """Accepting is the welcome answer here, not a dangerous one."""
        self.query_one("#yes", Button).variant = "primary"
        self.query_one("#no", Button).variant = "default"
