"""The sidebar: score, players, whose turn, the move list, the status line, New game.

Everything here is redrawn from values the screen hands over after each move
(never on cursor moves), so it can afford plain Static widgets.
"""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Button, Static

from reversi_tui.engine import Color, Ply, Position, square_name
from reversi_tui.tui.widgets.board_art import UNICODE, Glyphs


class ScoreBar(Widget):
    """Black's and White's share of the discs as one bar: filled for black, shaded for white."""

    COMPONENT_CLASSES = {"scorebar--black", "scorebar--white"}
    DEFAULT_CSS = """
    ScoreBar { height: 1; }
    ScoreBar > .scorebar--black { color: $bar-black; background: $bar-white 30%; }
    ScoreBar > .scorebar--white { color: $bar-white; background: $bar-black 30%; }
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
        fill_black, fill_white = ("#", "-") if self.glyphs.black == "X" else ("█", "░")
        text = Text()
        text.append(fill_black * filled, self.get_component_rich_style("scorebar--black"))
        text.append(fill_white * (width - filled), self.get_component_rich_style("scorebar--white"))
        return text


def move_rows(plies: tuple[Ply, ...]) -> list[tuple[int, str, str]]:
    """Plies paired into numbered rows of (number, black, white); passes read ``pass``."""
    rows: list[tuple[int, str, str]] = []
    for ply in plies:
        name = square_name(ply.move)
        if ply.color is Color.WHITE and rows and not rows[-1][2]:
            rows[-1] = (rows[-1][0], rows[-1][1], name)
        elif ply.color is Color.WHITE:
            rows.append((len(rows) + 1, "", name))
        else:
            rows.append((len(rows) + 1, name, ""))
    return rows


class MoveList(VerticalScroll, can_focus=False):
    """The moves so far in standard notation, kept scrolled to the newest."""

    DEFAULT_CSS = """
    MoveList { height: 1fr; min-height: 2; scrollbar-size-vertical: 1; }
    MoveList > Static { width: 1fr; }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="moves-text")

    def show(self, plies: tuple[Ply, ...]) -> None:
        rows = move_rows(plies)
        text = Text()
        for i, (number, black, white) in enumerate(rows):
            if i:
                text.append("\n")
            line = f"{number:>3}. {black or '…':<5} {white}"
            text.append(line, "bold" if i == len(rows) - 1 else "")
        if not rows:
            text.append("  no moves yet", "dim")
        self.query_one("#moves-text", Static).update(text)
        self.call_after_refresh(self.scroll_end, animate=False)


#: The sidebar's narrowest useful width; the board leaves this much room for it.
SIDEBAR_MIN_WIDTH = 32


class Sidebar(Vertical):
    """Live score, players, turn, move list and status."""

    DEFAULT_CSS = """
    Sidebar {
        width: 1fr;
        min-width: 32;
        max-width: 48;
        height: 1fr;
        padding: 0 1;
        background: $surface;
    }
    Sidebar #title { text-style: bold; color: $accent; }
    Sidebar .player { height: 1; }
    Sidebar #turn { height: 1; margin-bottom: 1; color: $text; text-style: bold; }
    Sidebar #moves-title { color: $text-muted; }
    Sidebar #status { height: auto; max-height: 4; min-height: 2; color: $warning; margin-top: 1; }
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
        yield Static(id="turn")
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
    ) -> None:
        """Counts and the turn marker from ``pos``, the move list from ``plies``."""
        for color in Color:
            marker = "▶ " if not over and pos.turn is color else "  "
            if self.glyphs.black == "X":
                marker = "> " if marker.strip() else "  "
            who = Text(marker)
            who.append(self.glyphs.disc(color), "bold")
            who.append(f" {color.title:<6}{labels[color]}")
            line = Table.grid(expand=True)
            line.add_column(no_wrap=True, overflow="ellipsis", ratio=1)
            line.add_column(justify="right", width=3)
            line.add_row(who, Text(str(pos.count(color)), "bold"))
            self.query_one(f"#player-{color.name.lower()}", Static).update(line)
        self.query_one(ScoreBar).set_counts(pos.count(Color.BLACK), pos.count(Color.WHITE))
        self.query_one("#turn", Static).update(turn_text)
        if moves_changed:
            self.query_one(MoveList).show(plies)

    def set_status(self, text: str) -> None:
        self.query_one("#status", Static).update(text)

    @property
    def status(self) -> str:
        return str(self.query_one("#status", Static).content)
