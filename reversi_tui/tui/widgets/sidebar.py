"""The sidebar: score, players, whose turn, the opening's name, the move list, the status
line, New game.

Everything here is redrawn from values the screen hands over after each move
(never on cursor moves), so it can afford plain Static widgets.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Button, Static

from reversi_tui.engine import Color, Ply, Position, square_name
from reversi_tui.engine.openings import opening_for
from reversi_tui.tui.widgets.board_art import UNICODE, Glyphs


class ScoreBar(Widget):
    """Black's and White's share of the discs as one row of discs on a strip of felt.

    The felt sets both shares off whatever the sidebar's colour (black discs
    vanish on a dark sidebar, white ones on a light one), and filled against
    hollow discs tell the shares apart without colour.
    """

    COMPONENT_CLASSES = {"scorebar--black", "scorebar--white"}
    DEFAULT_CSS = """
    ScoreBar { height: 1; }
    ScoreBar > .scorebar--black { color: $bar-black; background: $bar-track; text-style: bold; }
    ScoreBar > .scorebar--white { color: $bar-white; background: $bar-track; text-style: bold; }
    """

    def __init__(self, glyphs: Glyphs, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.glyphs = glyphs
        self.black = 2
        self.white = 2

    def set_counts(self, black: int, white: int) -> None:
        self.black, self.white = black, white
        self.refresh()

    def render(self) -> Text:
        width = self.size.width
        total = self.black + self.white
        filled = round(width * self.black / total) if total else width // 2
        text = Text()
        text.append(self.glyphs.black * filled, self.get_component_rich_style("scorebar--black"))
        text.append(
            self.glyphs.white * (width - filled), self.get_component_rich_style("scorebar--white")
        )
        return text


@dataclass(frozen=True, slots=True)
class MoveEntry:
    """One move in the move list: its number (None for a pass), its name, its ply index."""

    number: int | None
    name: str
    index: int


def move_rows(plies: tuple[Ply, ...]) -> list[tuple[MoveEntry | None, MoveEntry | None]]:
    """Plies paired into rows of (black, white); each move numbered as the turn line counts
    them (1 for the first disc placed, up to 60), passes unnumbered."""
    rows: list[tuple[MoveEntry | None, MoveEntry | None]] = []
    number = 0
    for index, ply in enumerate(plies):
        if not ply.is_pass:
            number += 1
        entry = MoveEntry(None if ply.is_pass else number, square_name(ply.move), index)
        if ply.color is Color.WHITE and rows and rows[-1][1] is None:
            rows[-1] = (rows[-1][0], entry)
        elif ply.color is Color.WHITE:
            rows.append((None, entry))
        else:
            rows.append((entry, None))
    return rows


def _entry_text(entry: MoveEntry | None) -> str:
    if entry is None:
        return " " * 8
    number = "" if entry.number is None else f"{entry.number}."
    return f"{number:>3} {entry.name:<4}"


def move_text(plies: tuple[Ply, ...], current: int | None = None) -> tuple[Text, int]:
    """The move list's text and the row to keep in view.

    Live (``current`` None) the newest row is bold; in review, the last move of
    the first ``current`` plies is shown in reverse video.
    """
    rows = move_rows(plies)
    mark = -1  # the ply index to highlight
    if current is not None:
        shown = [i for i in range(current) if not plies[i].is_pass]
        mark = shown[-1] if shown else -1
    text = Text()
    mark_row = len(rows) - 1 if current is None or mark >= 0 else 0
    for i, (black, white) in enumerate(rows):
        if i:
            text.append("\n")
        text.append(" ")
        for j, entry in enumerate((black, white)):
            if j:
                text.append("  ")
            style = ""
            if entry is not None and entry.index == mark:
                style, mark_row = "reverse bold", i
            elif current is None and i == len(rows) - 1:
                style = "bold"
            text.append(_entry_text(entry), style)
    if not rows:
        text.append("  no moves yet", "dim")
    return text, mark_row


class MoveList(VerticalScroll, can_focus=False):
    """The moves so far in standard notation, numbered as the turn line counts them.

    Live, it keeps scrolled to the newest move; in review it shows the whole game
    with the shown ply highlighted and scrolled into view.
    """

    DEFAULT_CSS = """
    MoveList { height: 1fr; min-height: 2; scrollbar-size-vertical: 1; }
    MoveList > Static { width: 1fr; }
    """

    #: In review, the row of the shown move; None live (the newest row is followed).
    _shown_row: int | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="moves-text")

    def show(self, plies: tuple[Ply, ...], current: int | None = None) -> None:
        """``current``: in review, the number of plies shown (its last move is highlighted)."""
        text, mark_row = move_text(plies, current)
        try:
            self.query_one("#moves-text", Static).update(text)
        except NoMatches:  # not composed yet, or going: the next show draws it
            return
        self._shown_row = None if current is None else mark_row
        self.call_after_refresh(self._follow)

    def on_resize(self, event: events.Resize) -> None:
        """The list shrinks as the status line grows (or the terminal does): a move
        kept in view before may not be now, so scroll again once the size is known."""
        self._follow()

    def _follow(self) -> None:
        """Keep the newest row in view live, the shown move centred in review."""
        row = self._shown_row
        if row is None:
            self.scroll_end(animate=False, immediate=True)
            return
        height = self.scrollable_content_region.height
        self.scroll_to(y=max(0, row - height // 2), animate=False, immediate=True)


#: The sidebar's narrowest useful width; the board leaves this much room for it.
SIDEBAR_MIN_WIDTH = 32


class Sidebar(Vertical):
    """Live score, players, turn, opening, move list and status."""

    DEFAULT_CSS = """
    Sidebar {
        width: 1fr;
        min-width: 32;
        max-width: 48;
        height: 1fr;
        padding: 0 1 0 2;
        background: $surface;
    }
    Sidebar #title { text-style: bold; color: $accent; }
    Sidebar .player { height: 1; }
    Sidebar #handicap { height: 1; color: $text-muted; }
    Sidebar #turn { height: 1; margin-bottom: 1; color: $text; text-style: bold; }
    Sidebar #turn.-alert { color: auto 95%; background: $warning; }
    Sidebar #turn.-opening { margin-bottom: 0; }
    Sidebar #opening {
        height: 1; margin-bottom: 1; color: $text-muted; display: none;
        text-wrap: nowrap; text-overflow: ellipsis;
    }
    Sidebar #opening.-ascii { text-overflow: clip; }
    Sidebar #moves-title { color: $text-muted; }
    Sidebar #status {
        height: auto; max-height: 4; min-height: 2; color: $text-warning; margin-top: 1;
    }
    Sidebar #new-game { width: 1fr; margin-top: 1; }
    """

    class NewGameRequested(Message):
        """The New game button was pressed."""

    def __init__(self, glyphs: Glyphs = UNICODE, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.glyphs = glyphs

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.post_message(self.NewGameRequested())

    def compose(self) -> ComposeResult:
        yield Static("Reversi", id="title")
        yield Static(id="player-black", classes="player")
        yield Static(id="player-white", classes="player")
        yield ScoreBar(self.glyphs, id="score-bar")
        yield Static(id="handicap")
        yield Static(id="turn")
        yield Static(id="opening", classes="-ascii" if self.glyphs.ascii_only else "")
        yield Static("Moves", id="moves-title")
        yield MoveList(id="move-list")
        yield Static(id="status")
        button = Button("New game (n)", id="new-game", compact=True)
        button.can_focus = False
        yield button

    def show(
        self,
        pos: Position,
        plies: tuple[Ply, ...],
        labels: dict[Color, str],
        turn_text: str,
        *,
        over: bool,
        moves_changed: bool = True,
        current: int | None = None,
        alert: bool = False,
        clocks: dict[Color, tuple[str, bool]] | None = None,
    ) -> None:
        """Counts and the turn marker from ``pos``, the move list and the opening's name
        from ``plies``.

        ``current`` is the review index (plies shown; the opening named is theirs), None
        live; ``alert`` highlights the turn line (a pass just happened); ``clocks`` are
        each side's time left as shown and whether it is low (a timed online game).
        """
        glyphs = self.glyphs
        for color in Color:
            marker = glyphs.pointer + " " if not over and pos.turn is color else "  "
            who = Text(marker)
            who.append(glyphs.disc(color), "bold")
            who.append(f" {color.title:<6}{labels[color]}")
            line = Table.grid(expand=True)
            line.add_column(
                no_wrap=True, overflow="crop" if glyphs.ascii_only else "ellipsis", ratio=1
            )
            cells = [who]
            if clocks is not None:
                shown, low = clocks[color]
                line.add_column(justify="right", width=8)
                cells.append(Text(shown, "bold reverse" if low else "bold"))
            line.add_column(justify="right", width=3)
            cells.append(Text(str(pos.count(color)), "bold"))
            line.add_row(*cells)
            self.query_one(f"#player-{color.name.lower()}", Static).update(line)
        self.query_one(ScoreBar).set_counts(pos.count(Color.BLACK), pos.count(Color.WHITE))
        turn = self.query_one("#turn", Static)
        turn.update(turn_text)
        turn.set_class(alert, "-alert")
        if moves_changed:
            self._show_opening(plies if current is None else plies[:current])
            self.query_one(MoveList).show(plies, current)
            title = "Moves"
            if current is not None:
                done = sum(1 for p in plies[:current] if not p.is_pass)
                total = sum(1 for p in plies if not p.is_pass)
                title = f"Moves {glyphs.dot} reviewing {done}/{total}"
            self.query_one("#moves-title", Static).update(title)

    def _show_opening(self, plies: tuple[Ply, ...]) -> None:
        """The named opening of the game so far, on one line cut short to fit (with an
        ellipsis, cropped in ASCII); no line at all when it has none (a game from
        another start never has one)."""
        opening = opening_for(plies)
        line = self.query_one("#opening", Static)
        line.update("" if opening is None else f"Opening: {opening.name}")
        line.display = opening is not None
        self.query_one("#turn", Static).set_class(opening is not None, "-opening")

    def set_handicap(self, corners: int, color: Color) -> None:
        """Show the handicap of the game (nothing when there is none)."""
        text = ""
        if corners:
            text = f"Handicap: {corners} corner{'s' * (corners > 1)} for {color.title}"
        handicap = self.query_one("#handicap", Static)
        handicap.update(text)
        handicap.display = bool(corners)

    def set_status(self, text: str) -> None:
        self.query_one("#status", Static).update(text)

    @property
    def status(self) -> str:
        return str(self.query_one("#status", Static).content)
