"""Who plays each colour, a handicap, the computer's think time and the pace of
computer against computer: one dialog covers every local mode."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Button, Label, Select, Static

from reversi_tui.engine import Color
from reversi_tui.match import LEVEL_NAMES, MatchSettings, PlayerKind, PlayerSpec
from reversi_tui.tui.compat.select import SafeSelect
from reversi_tui.tui.screens.dialog import Dialog
from reversi_tui.tui.widgets.footer import KeyFooter

PLAYER_OPTIONS = (("Human", "human"), *((f"Computer - {level}", level) for level in LEVEL_NAMES))
HANDICAP_OPTIONS = (("none", 0), *((f"{n} corner{'s' * (n > 1)}", n) for n in range(1, 5)))
#: Seconds a computer thinks per move; 0 stands for the level's own budget.
THINK_TIMES = (0.5, 1.0, 2.0, 5.0, 10.0, 30.0)
#: Seconds between moves when the computer plays both sides.
PACES = (0.0, 0.25, 0.5, 1.0, 2.0, 5.0)


def _seconds(value: float) -> str:
    return f"{value:g} s a move"


def think_options(current: float | None) -> tuple[tuple[str, float], ...]:
    """The think times offered, with ``current`` among them (``--think-time 3.7`` too)."""
    times = sorted({*THINK_TIMES, *(() if current is None else (current,))})
    return (("the level's own", 0.0), *((_seconds(t), t) for t in times))


def pace_options(current: float) -> tuple[tuple[str, float], ...]:
    """The paces offered, with ``current`` among them (``--delay 0.7`` too)."""
    paces = sorted({*PACES, current})
    return tuple(("no pause" if p == 0 else _seconds(p), p) for p in paces)


@dataclass(frozen=True, slots=True)
class NewGame:
    """What the dialog starts: the match settings and the pace of computer against computer."""

    settings: MatchSettings
    pace: float


def player_options(engines: Iterable[str], *shown: PlayerSpec) -> tuple[tuple[str, object], ...]:
    """A person, the levels, each configured engine (``engines``: their names) and any
    other player ``shown`` now (an engine by its command line, from the command line)."""
    options: list[tuple[str, object]] = [
        *PLAYER_OPTIONS,
        *((f"Engine - {name}", f"engine:{name}") for name in engines),
    ]
    for spec in shown:
        if all(spec.choice != value for _, value in options):
            options.append((spec.label, spec.choice))
    return tuple(options)


def _select(options: tuple[tuple[str, object], ...], value: object, id: str) -> Select[object]:
    return SafeSelect(options, value=value, allow_blank=False, compact=True, id=id)


def think_time_of(settings: MatchSettings) -> float | None:
    """The think time the dialog shows: the first computer's own (None: the level's)."""
    computers = [p for p in (settings.black, settings.white) if p.kind is PlayerKind.COMPUTER]
    return next((p.think_time for p in computers if p.think_time is not None), None)


class NewGameScreen(Dialog[NewGame | None]):
    """A confirmation dialog with the new game's settings.

    The fields start from the current settings, the handicap, the think time and
    the pace included. The first field (Black) has the focus; ``y`` starts, ``n``
    or Esc cancels. The think time means something only with a computer playing,
    the pace only when computers play both sides: otherwise they are disabled, as
    "Handicap for" is without a handicap. A disabled field is plainly off: its
    label dims, and in place of its value it says why (``OFF_WHY``). Focus shows
    in every colour depth: the focused field is drawn in reverse video, as Textual
    draws a focused button, and an open list is framed so its options don't read as
    the rows below it.
    """

    DEFAULT_CSS = """
    NewGameScreen > .dialog { width: 52; }
    NewGameScreen Grid {
        grid-size: 2;
        grid-columns: 18 26;
        grid-rows: 1;
        grid-gutter: 0 0;
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
    NewGameScreen Select:disabled, NewGameScreen .off-why { display: none; }
    NewGameScreen .off-why.-off { display: block; width: 26; padding: 0 1; }
    NewGameScreen Label.-off, NewGameScreen .off-why {
        color: $text-disabled;
        text-style: dim italic;
    }
    NewGameScreen Select.-textual-compact > SelectOverlay.-textual-compact {
        border: round $accent !important;
    }
    """
    AUTO_FOCUS = "#black"
    BINDINGS = [
        Binding("y", "start", "Start"),
        Binding("n,escape", "cancel", "Cancel"),
    ]

    def __init__(
        self,
        current: MatchSettings,
        *,
        in_progress: bool,
        kept: bool = False,
        pace: float = 0.5,
        engines: Iterable[str] = (),
    ) -> None:
        """``current`` fills the fields; what is not on the dialog (a depth, the seed)
        carries over. ``kept``: the game in progress stays for resuming when the new one
        starts. ``pace``: the seconds between moves of computer against computer now.
        ``engines``: the names of the configured engines, offered as players."""
        super().__init__()
        self.current = current
        self.players = player_options(engines, current.black, current.white)
        self.in_progress = in_progress
        self.kept = kept
        self.pace = pace
        self.clock = think_time_of(current)

    def compose(self) -> ComposeResult:
        c = self.current
        off = off_fields(c.black.choice, c.white.choice, c.handicap)
        colours = (("Black", Color.BLACK), ("White", Color.WHITE))
        with Vertical(classes="dialog"):
            yield Static("New game", classes="dialog-title")
            with Grid():
                yield Label("Black (first)")
                yield _select(self.players, c.black.choice, "black")
                yield Label("White")
                yield _select(self.players, c.white.choice, "white")
                yield Label("Handicap")
                yield _select(HANDICAP_OPTIONS, c.handicap, "handicap")
                yield from _field(
                    "Handicap for", _select(colours, c.handicap_colour, "handicap-colour"), off
                )
                think = _select(think_options(self.clock), self.clock or 0.0, "think-time")
                yield from _field("Think time", think, off)
                yield from _field(
                    "Pace (computers)", _select(pace_options(self.pace), self.pace, "pace"), off
                )
            warning = ""
            if self.in_progress:
                warning = (
                    "The current game is kept for next time. "
                    if self.kept
                    else "This ends the current game. "
                )
            yield Static(
                f"{warning}Tab moves between fields, y starts.",
                classes="dialog-text",
                id="new-game-note",
            )
            with Horizontal(classes="buttons"):
                yield Button("Start (y)", id="yes", variant="warning")
                yield Button("Cancel (n)", id="no", variant="primary")
        yield KeyFooter()

    def on_select_changed(self, event: Select.Changed) -> None:
        """ "Handicap for" means something only with a handicap, the think time only
        with a computer, the pace only with computers on both sides."""
        if event.select.id not in ("black", "white", "handicap"):
            return
        c = self.current
        off = off_fields(
            self._chosen("#black", c.black.choice),
            self._chosen("#white", c.white.choice),
            self._chosen("#handicap", c.handicap),
        )
        for name in OFF_WHY:  # each query finds nothing once the dialog is closing
            for field in self.query(f"#{name}").results(Select):
                field.disabled = name in off
            for part in self.query(f"#{name}-label, #{name}-why"):
                part.set_class(name in off, "-off")

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

    def chosen_pace(self) -> float:
        pace = self._chosen("#pace", self.pace)
        return float(pace) if isinstance(pace, int | float) else self.pace

    def _chosen(self, selector: str, initial: object) -> object:
        """The selection of the field ``selector``, or ``initial`` before it is mounted."""
        for field in self.query(selector).results(Select):
            if field.is_mounted:
                return field.selection
        return initial

    def _player(self, selector: str, current: PlayerSpec) -> PlayerSpec:
        """The chosen player. A computer thinks the chosen time; with the think time
        left as it was shown, each computer keeps its own clock (``--think-time``, or a
        player's own as in ``hard/2.5s``), one that was a person the other's."""
        choice = self._chosen(selector, current.choice)
        text = choice if isinstance(choice, str) else "human"
        think = self._chosen("#think-time", self.clock or 0.0)
        if think != (self.clock or 0.0):  # changed: every computer thinks this long
            seconds = float(think) if isinstance(think, int | float) and think > 0 else None
            return PlayerSpec.parse(text, seconds)
        c = self.current
        clock = current.think_time or c.black.think_time or c.white.think_time
        return PlayerSpec.parse(text, clock)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "yes":
            self.action_start()
        else:
            self.action_cancel()

    def action_start(self) -> None:
        if not self.answered:  # a second Start in one burst finds the dialog gone
            self.dismiss(NewGame(self.settings(), self.chosen_pace()))

    def action_cancel(self) -> None:
        self.dismiss(None)


#: The fields that mean something only sometimes, and what each shows while it is off.
OFF_WHY = {
    "handicap-colour": "off: no handicap",
    "think-time": "off: no computer plays",
    "pace": "off: a person plays",
}


def off_fields(black: object, white: object, handicap: object) -> frozenset[str]:
    """The fields (of ``OFF_WHY``) that mean nothing with these choices."""
    computers = _computers(black, white)
    off = {"handicap-colour"} if not handicap else set()
    if not computers:
        off.add("think-time")
    if computers < 2:
        off.add("pace")
    return frozenset(off)


def _field(label: str, field: Select[object], off: frozenset[str]) -> Iterator[Widget]:
    """A field of ``OFF_WHY`` and its label, both off when ``off`` has it: then the
    field shows why in place of its value (which it keeps): a grid lays out only what
    is displayed, so the field and its ``off-why`` take turns in one cell. (All stay
    children of the grid: a field one level deeper is not there yet when a key in the
    same burst as the one that opened the dialog asks for it.)"""
    name = str(field.id)
    field.disabled = name in off
    classes = "-off" if name in off else ""
    yield Label(label, id=f"{name}-label", classes=classes)
    yield field
    yield Static(OFF_WHY[name], id=f"{name}-why", classes=f"off-why {classes}")


def _computers(*choices: object) -> int:
    """How many of the chosen players are the computer (a level, not ``human``)."""
    return sum(1 for choice in choices if choice in LEVEL_NAMES)
