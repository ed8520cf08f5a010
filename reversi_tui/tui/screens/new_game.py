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
from reversi_tui.tui.screens.confirm import DIALOG_CSS, answered, dismiss_once
from reversi_tui.tui.widgets.footer import KeyFooter
from reversi_tui.tui.widgets.select import SafeSelect

PLAYER_OPTIONS = (("Human", "human"), *((f"Computer - {level}", level) for level in LEVEL_NAMES))
HANDICAP_OPTIONS = (("none", 0), *((f"{n} corner{'s' * (n > 1)}", n) for n in range(1, 5)))


def _select(options: tuple[tuple[str, object], ...], value: object, id: str) -> Select[object]:
    return SafeSelect(options, value=value, allow_blank=False, compact=True, id=id)


class NewGameScreen(ModalScreen[MatchSettings | None]):
    """A confirmation dialog with the new game's settings.

    The fields start from the current settings, the handicap included. While a
    game is in progress, Cancel has the focus (a stray Enter keeps the game);
    otherwise Start has it. Focus shows in every colour depth: the focused field
    is drawn in reverse video, as Textual draws a focused button, and an open
    list is framed so its options don't read as the rows below it.
    """

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
    NewGameScreen Select:focus > SelectCurrent { background: $foreground; }
    NewGameScreen Select:focus > SelectCurrent > Static#label,
    NewGameScreen Select:focus > SelectCurrent > .arrow {
        color: $surface;
        text-style: bold;
    }
    NewGameScreen Select:ansi:focus > SelectCurrent { background: ansi_default; }
    NewGameScreen Select:ansi:focus > SelectCurrent > Static#label,
    NewGameScreen Select:ansi:focus > SelectCurrent > .arrow {
        color: ansi_default;
        text-style: bold reverse;
    }
    NewGameScreen Select:disabled > SelectCurrent { text-style: dim; }
    NewGameScreen Select.-textual-compact > SelectOverlay.-textual-compact {
        border: round $accent !important;
    }
    """
    )
    AUTO_FOCUS = ".first-focus"
    BINDINGS = [
        Binding("y", "start", "Start"),
        Binding("n,escape", "cancel", "Cancel"),
    ]

    def __init__(self, current: MatchSettings, *, in_progress: bool, kept: bool = False) -> None:
        """``current`` fills the fields; what is not on the dialog (clock, seed) carries over.
        ``kept``: the game in progress stays for resuming when the new one starts."""
        super().__init__()
        self.current = current
        self.in_progress = in_progress
        self.kept = kept

    def compose(self) -> ComposeResult:
        c = self.current
        with Vertical(classes="dialog"):
            yield Static("New game", classes="dialog-title")
            with Grid():
                yield Label("Black (first)")
                yield _select(PLAYER_OPTIONS, c.black.choice, "black")
                yield Label("White")
                yield _select(PLAYER_OPTIONS, c.white.choice, "white")
                yield Label("Handicap")
                yield _select(HANDICAP_OPTIONS, c.handicap, "handicap")
                yield Label("Handicap for")
                colour = _select(
                    (("Black", Color.BLACK), ("White", Color.WHITE)),
                    c.handicap_colour,
                    "handicap-colour",
                )
                colour.disabled = not c.handicap
                yield colour
            warning = ""
            if self.in_progress:
                warning = (
                    "The current game is kept for next time. "
                    if self.kept
                    else "This ends the current game. "
                )
            yield Static(
                f"{warning}Tab moves between fields.", classes="dialog-text", id="new-game-note"
            )
            # The button Enter presses at once: Cancel while there is a game to lose.
            start, cancel = ("", "first-focus") if self.in_progress else ("first-focus", "")
            with Horizontal(classes="buttons"):
                yield Button("Start (y)", id="yes", variant="warning", classes=start)
                yield Button("Cancel (n)", id="no", variant="primary", classes=cancel)
        yield KeyFooter()

    def on_select_changed(self, event: Select.Changed) -> None:
        """ "Handicap for" means something only with a handicap."""
        if event.select.id == "handicap":
            for colour in self.query("#handicap-colour").results(Select):  # gone once closing
                colour.disabled = not event.value

    def settings(self) -> MatchSettings:
        """The chosen settings; a field not mounted yet still shows its starting value.

        (``n`` then ``y`` in one read reaches Start before the fields are mounted.)
        """
        c = self.current
        handicap = self._chosen("#handicap", c.handicap)
        colour = self._chosen("#handicap-colour", c.handicap_colour)
        return replace(
            c,
            black=self._player("#black", c.black),
            white=self._player("#white", c.white),
            handicap=handicap if isinstance(handicap, int) else 0,
            handicap_colour=colour if isinstance(colour, Color) else Color.BLACK,
        )

    def _chosen(self, selector: str, initial: object) -> object:
        """The selection of the field ``selector``, or ``initial`` before it is mounted."""
        for field in self.query(selector).results(Select):
            if field.is_mounted:
                return field.selection
        return initial

    def _player(self, selector: str, current: PlayerSpec) -> PlayerSpec:
        """The chosen player; a computer keeps the clock ``--think-time`` gave either side."""
        choice = self._chosen(selector, current.choice)
        c = self.current
        clock = current.think_time or c.black.think_time or c.white.think_time
        return PlayerSpec.parse(choice if isinstance(choice, str) else "human", clock)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "yes":
            self.action_start()
        else:
            self.action_cancel()

    def action_start(self) -> None:
        if not answered(self):  # a second Start in one burst finds the dialog gone
            dismiss_once(self, self.settings())

    def action_cancel(self) -> None:
        dismiss_once(self, None)
