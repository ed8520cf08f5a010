"""The result of a finished game, and what to do next."""

from __future__ import annotations

from typing import Literal

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from reversi_tui.engine import Outcome
from reversi_tui.tui.screens.confirm import DIALOG_CSS

Choice = Literal["review", "new", "quit"]


def result_text(outcome: Outcome) -> tuple[str, str]:
    """A headline (who won) and the details (discs, final score with empties to the winner)."""
    final_black, final_white = outcome.final_score
    headline = "It's a draw!" if outcome.winner is None else f"{outcome.winner.title} wins!"
    details = f"Discs on the board: Black {outcome.black}, White {outcome.white}"
    if outcome.empties:
        share = "split between both" if outcome.winner is None else "go to the winner"
        details += f"\n{outcome.empties} empty squares {share}."
    details += f"\nFinal score: Black {final_black} - White {final_white}"
    return headline, details


class GameOverScreen(ModalScreen[Choice]):
    """Review the board (the default), start a new game, or quit."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="GameOverScreen", width=62)
        + "GameOverScreen #headline { text-style: bold; color: $success; }"
    )
    AUTO_FOCUS = "#review"
    BINDINGS = [
        Binding("escape,r", "choose('review')", "Review board"),
        Binding("n", "choose('new')", "New game"),
        Binding("q", "choose('quit')", "Quit"),
    ]

    def __init__(self, outcome: Outcome) -> None:
        super().__init__()
        self.outcome = outcome

    def compose(self) -> ComposeResult:
        headline, details = result_text(self.outcome)
        with Vertical(classes="dialog"):
            yield Static("Game over", classes="dialog-title")
            yield Static(headline, classes="dialog-text", id="headline")
            yield Static(details, classes="dialog-text", id="details")
            with Horizontal(classes="buttons"):
                yield Button("Review board", id="review", variant="primary")
                yield Button("New game", id="new")
                yield Button("Quit", id="quit")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id)  # type: ignore[arg-type]

    def action_choose(self, choice: Choice) -> None:
        self.dismiss(choice)
