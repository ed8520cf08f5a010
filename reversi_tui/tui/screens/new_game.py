"""Who plays each colour, and a handicap: one dialog covers every local mode."""

from __future__ import annotations

from dataclasses import replace

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Select, Static

from reversi_tui.engine import Color
from reversi_tui.match import LEVEL_NAMES, MatchSettings, PlayerSpec
from reversi_tui.tui.screens.confirm import DIALOG_CSS

PLAYER_OPTIONS = (("Human", "human"), *((f"Computer - {level}", level) for level in LEVEL_NAMES))


def _player_select(value: str, id: str) -> Select[str]:
    return Select(PLAYER_OPTIONS, value=value, allow_blank=False, compact=True, id=id)


class NewGameScreen(ModalScreen[MatchSettings | None]):
    """A confirmation dialog with the new game's settings; Cancel is focused first."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="NewGameScreen", width=52)
        + """
    NewGameScreen Grid {
        grid-size: 2;
        grid-columns: 16 26;
        grid-rows: 1;
        grid-gutter: 1 0;
        height: auto;
        width: auto;
        margin-top: 1;
    }
    NewGameScreen Select { width: 26; }
    """
    )
    AUTO_FOCUS = "#no"
    BINDINGS = [
        Binding("y", "start", "Start"),
        Binding("n,escape", "cancel", "Cancel"),
    ]

    def __init__(self, current: MatchSettings, *, in_progress: bool) -> None:
        """``current`` fills the fields; what is not on the dialog (clock, seed) carries over."""
        super().__init__()
        self.current = current
        self.in_progress = in_progress

    def compose(self) -> ComposeResult:
        c = self.current
        with Vertical(classes="dialog"):
            yield Static("New game", classes="dialog-title")
            with Grid():
                yield Label("Black (first)")
                yield _player_select(c.black.choice, "black")
                yield Label("White")
                yield _player_select(c.white.choice, "white")
                yield Label("Handicap")
                yield Select(
                    [("none", 0), *((f"{n} corner{'s' * (n > 1)}", n) for n in range(1, 5))],
                    value=c.handicap,
                    allow_blank=False,
                    compact=True,
                    id="handicap",
                )
                yield Label("Handicap for")
                yield Select(
                    [("Black", Color.BLACK), ("White", Color.WHITE)],
                    value=c.handicap_colour,
                    allow_blank=False,
                    compact=True,
                    id="handicap-colour",
                )
            warning = "This ends the current game. " if self.in_progress else ""
            yield Static(
                f"{warning}Tab moves between fields.", classes="dialog-text", id="new-game-note"
            )
            with Horizontal(classes="buttons"):
                yield Button("Start (y)", id="yes", variant="warning")
                yield Button("Cancel (n)", id="no", variant="primary")

    def settings(self) -> MatchSettings:
        c = self.current
        return replace(
            c,
            black=self._player("#black", c.black),
            white=self._player("#white", c.white),
            handicap=self.query_one("#handicap", Select).selection or 0,
            handicap_colour=self.query_one("#handicap-colour", Select).selection or Color.BLACK,
        )

    def _player(self, selector: str, current: PlayerSpec) -> PlayerSpec:
        """The chosen player; a computer keeps the clock ``--think-time`` gave either side."""
        choice: str = self.query_one(selector, Select).selection or "human"
        c = self.current
        clock = current.think_time or c.black.think_time or c.white.think_time
        return PlayerSpec.parse(choice, clock)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "yes":
            self.action_start()
        else:
            self.action_cancel()

    def action_start(self) -> None:
        self.dismiss(self.settings())

    def action_cancel(self) -> None:
        self.dismiss(None)
