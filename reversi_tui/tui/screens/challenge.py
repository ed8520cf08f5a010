"""The two challenge dialogs: making a challenge, and answering one.

Making one: the challenger picks a colour (``b``, ``w``, ``r``), a time control
(``0`` none, ``1``-``4`` the standard ones: minutes each plus seconds a move) and
whether the game is rated (``g``); Enter sends it, Esc does not. Every choice is a
button too, for the mouse and Tab. An incoming challenge names the challenger, both
colours, the time control and whether it is rated; ``y`` or Enter accepts, ``n`` or
Esc declines (the project's confirm rule).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rich.markup import escape
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from reversi_tui.net.clocks import control_text, control_words
from reversi_tui.net.protocol import TIME_CONTROLS as STANDARD
from reversi_tui.net.protocol import ChallengeColor, ChallengeInfo
from reversi_tui.tui.screens.confirm import ConfirmScreen
from reversi_tui.tui.screens.dialog import Dialog
from reversi_tui.tui.widgets.footer import KeyFooter

#: A time control: (minutes each, seconds added a move); None: no clock.
Control = tuple[int, int] | None


@dataclass(frozen=True, slots=True)
class ChallengeChoice:
    """What the challenger chose: their colour, the clock and whether it is rated."""

    color: ChallengeColor = "random"
    control: Control = None
    rated: bool = False


def colours_words(challenger: str, color: ChallengeColor, me: str = "you") -> str:
    """``ann plays Black, you play White`` (or colours drawn at random)."""
    if color == "random":
        return f"colours drawn at random for {challenger} and {me}"
    other = "White" if color == "black" else "Black"
    verb = "play" if me == "you" else "plays"
    return f"{challenger} plays {color.title()}, {me} {verb} {other}"


def terms_words(control: Control, rated: bool) -> str:
    """``rated, 5+3 (5 minutes each, plus 3 seconds a move)`` or ``casual, no clock``."""
    kind = "rated" if rated else "casual"
    if control is None:
        return f"{kind}, no clock"
    minutes, increment = control
    return f"{kind}, {control_text(minutes, increment)} ({control_words(minutes, increment)})"


class ChallengeScreen(Dialog[ChallengeChoice | None]):
    """A challenge to ``opponent``: colour, clock and rating; Enter sends, Esc cancels."""

    DEFAULT_CSS = """
    ChallengeScreen > .dialog { width: 64; }
    ChallengeScreen .choice-row { height: auto; width: 1fr; }
    ChallengeScreen .choice-label { width: 16; color: $text-muted; }
    ChallengeScreen .choice-row Button { margin: 0 2 0 0; min-width: 5; }
    ChallengeScreen .buttons { margin-top: 1; }
    """
    AUTO_FOCUS = "#send"
    BINDINGS = [
        Binding("b", "colour('black')", "Black", show=False),
        Binding("w", "colour('white')", "White", show=False),
        Binding("r", "colour('random')", "Random", show=False),
        Binding("0", "control(0)", "No clock", show=False),
        Binding("1", "control(1)", "3+2", show=False),
        Binding("2", "control(2)", "5+3", show=False),
        Binding("3", "control(3)", "10+5", show=False),
        Binding("4", "control(4)", "15+10", show=False),
        Binding("g", "toggle_rated", "Rated/casual"),
        Binding("escape", "cancel", "Cancel"),
    ]

    def __init__(
        self, opponent: str, last: ChallengeChoice | None = None, *, busy: str = ""
    ) -> None:
        """``last``: the previous challenge's choices, offered again; ``busy``: where the
        opponent is when not in the lobby (``in a local game``), said before sending."""
        super().__init__()
        self.opponent = opponent
        self.busy = busy
        self.choice = last or ChallengeChoice()

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(f"Challenge {self.opponent}", classes="dialog-title", markup=False)
            yield Static(id="terms", classes="dialog-text", markup=False)
            with Horizontal(classes="choice-row"):
                yield Static("Colour (b w r)", classes="choice-label")
                for colour in ("black", "white", "random"):
                    yield Button(colour.title(), id=f"colour-{colour}", compact=True)
            with Horizontal(classes="choice-row"):
                yield Static("Clock (0-4)", classes="choice-label")
                yield Button("None", id="control-0", compact=True)
                for number, (minutes, increment) in enumerate(STANDARD, 1):
                    label = control_text(minutes, increment)
                    yield Button(label, id=f"control-{number}", compact=True)
            with Horizontal(classes="choice-row"):
                yield Static("Game (g)", classes="choice-label")
                yield Button("Casual", id="rated-no", compact=True)
                yield Button("Rated", id="rated-yes", compact=True)
            with Horizontal(classes="buttons"):
                yield Button("Challenge (Enter)", id="send", variant="primary")
                yield Button("Cancel (Esc)", id="cancel")
        yield KeyFooter()

    def on_mount(self) -> None:
        self._show()

    def _show(self) -> None:
        """Mark the chosen options and say the terms in words."""
        choice = self.choice
        number = 0 if choice.control is None else STANDARD.index(choice.control) + 1
        chosen = {
            f"colour-{choice.color}",
            f"control-{number}",
            f"rated-{'yes' if choice.rated else 'no'}",
        }
        for button in self.query(".choice-row Button").results(Button):
            button.variant = "success" if button.id in chosen else "default"
        colours = {
            "random": "colours drawn at random",
            "black": "you play Black",
            "white": "you play White",
        }[choice.color]
        busy = f"{self.opponent} is {self.busy}: the challenge reaches them there. "
        self.query_one("#terms", Static).update(
            f"{busy if self.busy else ''}A {terms_words(choice.control, choice.rated)} game; "
            f"{colours}. Black moves first."
        )

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        name = event.button.id or ""
        kind, _, value = name.partition("-")
        if name == "send":
            self.dismiss(self.choice)
        elif name == "cancel":
            self.dismiss(None)
        elif kind == "colour":
            self.action_colour(value)
        elif kind == "control":
            self.action_control(int(value))
        elif kind == "rated":
            self._set(rated=value == "yes")

    def action_colour(self, colour: str) -> None:
        color: ChallengeColor = (
            "black" if colour == "black" else "white" if colour == "white" else "random"
        )
        self._set(color=color)

    def action_control(self, number: int) -> None:
        self._set(control=None if number == 0 else STANDARD[number - 1])

    def action_toggle_rated(self) -> None:
        self._set(rated=not self.choice.rated)

    def _set(self, **changes: object) -> None:
        self.choice = replace(self.choice, **changes)  # type: ignore[arg-type]
        self._show()

    def action_cancel(self) -> None:
        self.dismiss(None)


def challenged_screen(challenge: ChallengeInfo) -> ChallengedScreen:
    """The Accept/Decline dialog of a challenge to the user."""
    clock = challenge.clock
    return ChallengedScreen(
        challenge.from_,
        challenge.color,
        control=None if clock is None else (clock.minutes, clock.increment),
        rated=challenge.rated,
        rematch=challenge.rematch is not None,
    )


class ChallengedScreen(ConfirmScreen):
    """``challenger`` challenges you: True accepts, False declines; Accept has the focus,
    so Enter accepts too."""

    DEFAULT_CSS = "ChallengedScreen > .dialog { width: 60; }"
    AUTO_FOCUS = "#yes"
    BINDINGS = [
        Binding("y", "answer(True)", "Accept"),
        Binding("n,escape", "answer(False)", "Decline"),
    ]

    def __init__(
        self,
        challenger: str,
        color: ChallengeColor,
        *,
        control: Control = None,
        rated: bool = False,
        rematch: bool = False,
    ) -> None:
        words = escape(colours_words(challenger, color))
        terms = escape(terms_words(control, rated))
        who = escape(challenger)
        if rematch:
            question = f"{who} offers a rematch: {terms}; {words}."
        else:
            question = f"{who} challenges you to a game: {terms}; {words}."
        super().__init__("Rematch?" if rematch else "Challenge!", question, "Accept", "Decline")
        self.challenger = challenger
        self.color = color
        self.control = control
        self.rated = rated

    def on_mount(self) -> None:
        """Accepting is the welcome answer here, not a dangerous one."""
        self.query_one("#yes", Button).variant = "primary"
        self.query_one("#no", Button).variant = "default"
