"""The result of a finished game, and what to do next.

The dialog stands at the right, over the sidebar, on a clear background: the
final board stays in view beside it at every size down to 80x24.
"""

from __future__ import annotations

from typing import Literal

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static
from textual.widgets.button import ButtonVariant

from reversi_tui.engine import Color
from reversi_tui.match import Result, Termination
from reversi_tui.tui.screens.dialog import Dialog
from reversi_tui.tui.widgets.footer import KeyFooter
from reversi_tui.tui.words import plural, score_words

Choice = Literal["review", "analyse", "new", "quit", "rematch", "lobby"]
#: A row of buttons: each choice (also its button's id) with its label.
ButtonRow = tuple[tuple[Choice, str], ...]


def headline(result: Result, you: Color | None = None) -> str:
    """Who won, then the final score (empties to the winner) Black's first:
    ``White won: Black 2, White 62``; ``You won`` or ``You lost`` when ``you`` is the
    one person here. No full stop: the sidebar's turn line shows it as it is."""
    if result.winner is None:
        who = "A draw"
    elif you is None:
        who = f"{result.winner.title} won"
    else:
        who = "You won" if result.winner is you else "You lost"
    if result.termination is not Termination.NORMAL:
        return f"{who} by {result.termination.value}"
    return f"{who}: {score_words(*result.final_score)}"


def headline_sentence(result: Result, you: Color | None = None) -> str:
    """The headline as the dialog says it: cheered when the player here won."""
    won = you is not None and result.winner is you
    return headline(result, you) + ("!" if won else ".")


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
    details += f"\nFinal score: {score_words(final_black, final_white)}."
    return details


class GameOverScreen(Dialog[Choice]):
    """Review the game (the default), analyse it, start a new game, or quit."""

    DEFAULT_CSS = """
    GameOverScreen { align: right middle; background: $background 0%; }
    GameOverScreen > .dialog { width: 43; padding: 0 1; }
    GameOverScreen #headline { text-style: bold; color: $success; }
    GameOverScreen .buttons Button { margin: 0 0 0 1; min-width: 0; }
    """
    AUTO_FOCUS = "#review"
    BINDINGS = [
        Binding("r,escape", "choose('review')", "Review"),
        Binding("a", "choose('analyse')", "Analyse"),
        Binding("n", "choose('new')", "New game"),
        Binding("q", "choose('quit')", "Quit"),
    ]

    def __init__(self, result: Result, you: Color | None = None) -> None:
        """``you``: the colour of the one person here playing the computer, if so."""
        super().__init__()
        self.result = result
        self.you = you

    def choices(self) -> tuple[tuple[Choice, str], ...]:
        """The choices after Review: (the choice, also its button's id; its label)."""
        return (("new", "New game (n)"), ("quit", "Quit (q)"))

    def button_rows(self) -> tuple[ButtonRow, ...]:
        """The buttons row by row, Review first: Review and Analyse, then the choices."""
        return ((("review", "Review (r)"), ("analyse", "Analyse (a)")), self.choices())

    def details(self) -> str:
        return result_text(self.result)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("Game over", classes="dialog-title")
            yield Static(
                headline_sentence(self.result, self.you), classes="dialog-text", id="headline"
            )
            yield Static(self.details(), classes="dialog-text", id="details", markup=False)
            for row in self.button_rows():
                with Horizontal(classes="buttons"):
                    for choice, label in row:
                        primary = choice == "review"
                        variant: ButtonVariant = "primary" if primary else "default"
                        yield Button(label, id=choice, variant=variant, compact=True)
        yield KeyFooter()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        offered: dict[str, Choice] = {c: c for row in self.button_rows() for c, _ in row}
        self.dismiss(offered.get(event.button.id or "", "review"))

    def action_choose(self, choice: Choice) -> None:
        self.dismiss(choice)


class OnlineGameOverScreen(GameOverScreen):
    """An online game's end: review or analyse it, offer a rematch (players only), or
    go back to the lobby. Nothing here starts a local game or quits."""

    BINDINGS = [
        Binding("r,escape", "choose('review')", "Review"),
        Binding("a", "choose('analyse')", "Analyse"),
        Binding("m", "choose('rematch')", "Rematch"),
        Binding("q", "choose('lobby')", "Lobby"),
    ]

    def __init__(
        self, result: Result, you: Color | None = None, *, rematch: bool, ratings: str = ""
    ) -> None:
        """``rematch``: the player here may offer one (a player, not a watcher);
        ``ratings``: a rated game's new ratings, in words."""
        super().__init__(result, you)
        self.rematch = rematch
        self.ratings = ratings

    def choices(self) -> tuple[tuple[Choice, str], ...]:
        rematch: tuple[tuple[Choice, str], ...] = (("rematch", "Rematch (m)"),)
        return (rematch if self.rematch else ()) + (("lobby", "Lobby (q)"),)

    def button_rows(self) -> tuple[ButtonRow, ...]:
        """Review and Analyse, then this dialog's choices."""
        return ((("review", "Review (r)"), ("analyse", "Analyse (a)")), self.choices())

    def details(self) -> str:
        ratings = f"\n{self.ratings}" if self.ratings else ""
        return result_text(self.result) + ratings

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Only this dialog's choices (the local dialog's n and q are inherited)."""
        if action == "choose":
            offered = {"review", "analyse"} | {choice for choice, _ in self.choices()}
            return parameters[0] in offered if parameters else False
        return True
