"""The result of a finished game, and what to do next.

The dialog stands at the right, over the sidebar, on a clear background: the
final board stays in view beside it at every size down to 80x24.
"""

from __future__ import annotations

from typing import Literal

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from reversi_tui.engine import Color
from reversi_tui.match import Result, Termination
from reversi_tui.tui.screens.confirm import DIALOG_CSS, dismiss_once
from reversi_tui.tui.widgets.footer import KeyFooter
from reversi_tui.tui.words import plural

Choice = Literal["review", "new", "quit"]


def headline(result: Result, you: Color | None = None) -> str:
    """Who won, with the final score (empties to the winner); to the player when ``you``."""
    black, white = result.final_score
    if result.winner is None:
        return f"It's a draw, {black}-{white}."
    high, low = max(black, white), min(black, white)
    if result.termination is not Termination.NORMAL:
        how = f" by {result.termination.value}"
    else:
        how = f" {high}-{low}"
    if you is None:
        return f"{result.winner.title} wins{how}!"
    return f"You won{how}!" if result.winner is you else f"You lost{how}."


def result_text(result: Result) -> str:
    """The details: discs on the board, where the empties went, the final score."""
    discs = result.discs
    final_black, final_white = result.final_score
    details = f"Discs on the board: Black {discs.black}, White {discs.white}."
    if result.termination is Termination.NORMAL and discs.empties:
        if result.winner is None:
            share = "split between both"
        else:
            share = "goes to the winner" if discs.empties == 1 else "go to the winner"
        details += f"\n{plural(discs.empties, 'empty square')} {share}."
    details += f"\nFinal score: Black {final_black} - White {final_white}."
    return details


class GameOverScreen(ModalScreen[Choice]):
    """Review the game (the default), start a new game, or quit."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="GameOverScreen", width=43)
        + """
    GameOverScreen { align: right middle; background: $background 0%; }
    GameOverScreen > .dialog { padding: 0 1; }
    GameOverScreen #headline { text-style: bold; color: $success; }
    GameOverScreen .buttons Button { margin: 0 0 0 1; min-width: 0; }
    """
    )
    AUTO_FOCUS = "#review"
    BINDINGS = [
        Binding("r,escape", "choose('review')", "Review"),
        Binding("n", "choose('new')", "New game"),
        Binding("q", "choose('quit')", "Quit"),
    ]

    def __init__(self, result: Result, you: Color | None = None) -> None:
        """``you``: the colour of the one person here playing the computer, if so."""
        super().__init__()
        self.result = result
        self.you = you

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("Game over", classes="dialog-title")
            yield Static(headline(self.result, self.you), classes="dialog-text", id="headline")
            yield Static(result_text(self.result), classes="dialog-text", id="details")
            with Horizontal(classes="buttons"):
                yield Button("Review (r)", id="review", variant="primary", compact=True)
                yield Button("New game (n)", id="new", compact=True)
                yield Button("Quit (q)", id="quit", compact=True)
        yield KeyFooter()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        choices: dict[str | None, Choice] = {"new": "new", "quit": "quit"}
        dismiss_once(self, choices.get(event.button.id, "review"))

    def action_choose(self, choice: Choice) -> None:
        dismiss_once(self, choice)
