"""Resume game: the unfinished games left by earlier runs, offered before anything else.

Each line says who plays, the move number, the disc counts and when the game was
last played. Enter resumes the highlighted game (Resume has the focus), ``n``
starts a new game, ``d`` discards the highlighted game after a confirmation.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, OptionList, Static
from textual.widgets.option_list import Option

from reversi_tui.engine import PASS, Color
from reversi_tui.records.autosave import Resumable
from reversi_tui.tui.screens.confirm import ConfirmScreen
from reversi_tui.tui.screens.dialog import Dialog
from reversi_tui.tui.widgets.footer import KeyFooter


def ago(then: datetime, now: datetime) -> str:
    """``just now``, ``5 min ago``, ``3 h ago``, ``2 days ago`` or the date."""
    seconds = max(0.0, (now - then).total_seconds())
    if seconds < 60:
        return "just now"
    if seconds < 3600:
        return f"{int(seconds // 60)} min ago"
    if seconds < 86400:
        return f"{int(seconds // 3600)} h ago"
    if seconds < 7 * 86400:
        days = int(seconds // 86400)
        return f"{days} day{'s' * (days > 1)} ago"
    return then.astimezone().strftime("%Y-%m-%d")


def describe(item: Resumable, now: datetime) -> str:
    """One line for the list: players, move, discs, when."""
    record = item.saved.record
    position = record.game().position
    move = sum(1 for m in record.moves if m != PASS) + 1
    black, white = position.count(Color.BLACK), position.count(Color.WHITE)
    return (
        f"Black {record.black.label} · White {record.white.label}\n"
        f"  move {move} · discs {black}-{white} · {ago(item.modified, now)}"
    )


class ResumeScreen(Dialog[Resumable | None]):
    """Choose an unfinished game to resume; None starts a new game."""

    DEFAULT_CSS = """
    ResumeScreen > .dialog { width: 64; }
    ResumeScreen OptionList { height: auto; max-height: 12; margin-top: 1; }
    """
    AUTO_FOCUS = "#resume"
    BINDINGS = [
        Binding("r", "resume", "Resume"),
        Binding("n,escape", "new", "New game"),
        Binding("d,delete", "discard", "Discard"),
        Binding("up", "move(-1)", "Up", show=False),
        Binding("down", "move(1)", "Down", show=False),
    ]

    def __init__(self, games: list[Resumable], on_discard: Callable[[Resumable], None]) -> None:
        super().__init__()
        self.games = list(games)
        self.on_discard = on_discard

    def compose(self) -> ComposeResult:
        now = datetime.now(UTC)
        count = len(self.games)
        with Vertical(classes="dialog"):
            yield Static("Resume game", classes="dialog-title")
            yield Static(
                f"{count} unfinished game{'s' * (count > 1)}. Up/Down choose, Enter resumes.",
                classes="dialog-text",
                id="resume-note",
            )
            options = OptionList(
                *(Option(describe(g, now), id=str(i)) for i, g in enumerate(self.games))
            )
            options.can_focus = False  # keys go to the buttons; Up/Down move the choice
            yield options
            with Horizontal(classes="buttons"):
                yield Button("Resume (r)", id="resume", variant="primary")
                yield Button("New game (n)", id="new")
                yield Button("Discard (d)", id="discard", variant="error")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one(OptionList).highlighted = 0

    @property
    def chosen(self) -> Resumable | None:
        index = self.query_one(OptionList).highlighted
        return None if index is None or index >= len(self.games) else self.games[index]

    def action_move(self, step: int) -> None:
        options = self.query_one(OptionList)
        if self.games:
            options.highlighted = ((options.highlighted or 0) + step) % len(self.games)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_resume()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        {"resume": self.action_resume, "new": self.action_new, "discard": self.action_discard}[
            event.button.id or "new"
        ]()

    def action_resume(self) -> None:
        if self.chosen is not None:
            self.dismiss(self.chosen)

    def action_new(self) -> None:
        self.dismiss(None)

    def action_discard(self) -> None:
        item = self.chosen
        if item is None:
            return

        def answer(yes: bool | None) -> None:
            if yes:
                self._discard(item)

        self.app.push_screen(
            ConfirmScreen(
                "Discard game?",
                "Discard this unfinished game? It cannot be resumed afterwards.",
                "Discard",
                "Keep it",
            ),
            answer,
        )

    def _discard(self, item: Resumable) -> None:
        self.on_discard(item)
        index = self.games.index(item)
        self.games.remove(item)
        if not self.games:
            self.dismiss(None)
            return
        options = self.query_one(OptionList)
        options.remove_option_at_index(index)
        options.highlighted = min(index, len(self.games) - 1)
        count = len(self.games)
        self.query_one("#resume-note", Static).update(
            f"{count} unfinished game{'s' * (count > 1)}. Up/Down choose, Enter resumes."
        )
