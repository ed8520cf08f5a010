"""Every key, what each mark on the board means, and the rules in brief; ``?`` or Esc closes it.

The legend draws each mark with the glyphs the board uses (Unicode or ASCII) and
with the board's own colours: the ``Legend`` widget borrows the board's component
class names and theme variables, so a theme change recolours both alike.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widget import Widget
from textual.widgets import Static

from reversi_tui.tui.keys import (
    ANALYSIS_HELP,
    GAME_HELP,
    ONLINE_GAME_HELP,
    REVIEW_HELP,
    help_rows,
)
from reversi_tui.tui.screens.dialog import Dialog
from reversi_tui.tui.widgets.board import mark_css
from reversi_tui.tui.widgets.board_art import UNICODE, Glyphs
from reversi_tui.tui.widgets.footer import KeyFooter

#: The keys during a game: (keys, what they do), from the key table (tui/keys.py).
KEYS: tuple[tuple[str, str], ...] = help_rows(GAME_HELP)

#: The keys during an online game.
ONLINE_KEYS: tuple[tuple[str, str], ...] = help_rows(ONLINE_GAME_HELP)

#: What an online game adds to the notes.
ONLINE_NOTES = (
    "An online game is held by the server: undo, hints, pausing and new games are local "
    "play's (each says so here). Moves reach the board when the server has them.",
    "With a clock, both clocks tick in the sidebar; the one running turns reversed under "
    "20 seconds, and a flag that falls ends the game. After the game the dialog offers a "
    "rematch (m) with the colours swapped, or the lobby (q).",
    "Until both players have made two moves, a game that ends (resigned, out of time, "
    "claimed) is aborted: no result, ratings unchanged. Before your own second move w "
    "aborts it.",
)

#: The keys in review, once a game is over.
REVIEW_KEYS: tuple[tuple[str, str], ...] = help_rows(REVIEW_HELP)

#: The keys of the analysis screen.
ANALYSIS_KEYS: tuple[tuple[str, str], ...] = help_rows(ANALYSIS_HELP)

#: What the analysis says, in brief (its thresholds: ``engine/ai/analysis.py``).
ANALYSIS_NOTES = (
    "Values are discs at the end of the game (the empties to the winner), from the "
    "point of view of the side to move; 'exact' ones come from the endgame solver (from 20 "
    "empty squares, 16 with the Python solver), the others from a search of the depth given.",
    "A move losing 2 discs or more against the best is an inaccuracy, 6 a mistake, 12 a "
    "blunder; one that throws a won or drawn result away is a blunder when the values "
    "are exact. Estimates prove no result: a lead of 4 discs thrown away by them is at "
    "least an inaccuracy (ahead->level). A forced move is not "
    "judged. Accuracy is 100% for best play, lower as the winning chances go.",
    "The graph is Black's advantage: up for Black, down for White; the marks above it are "
    "Black's errors, those below White's. A click on it shows that move.",
    "An analysis is kept in the data directory: the same game opens at once next time.",
)

MOUSE_KEYS: tuple[tuple[str, str], ...] = (
    ("mouse", "click a legal square to play; hover previews flips"),
)

#: The flip preview's note; with the mouse on it says the pointer works too.
PREVIEW_NOTE = "The flip preview follows the cursor when it stands on a legal square."

#: Notes on the screen as a whole; the mouse is only mentioned when it is on.
NOTES = (
    "Online games: r resigns, w aborts before your second move, t talks to the game, "
    "q goes back to the lobby (the game goes on); undo, hints and new games are off.",
    PREVIEW_NOTE,
    "Any dialog (this help too) pauses a computer-against-computer game.",
    "A game left unfinished (q, n, Ctrl+O, a replay from the statistics) is kept: "
    "the next reversi offers to resume it.",
    "Scores: the winner in words, then Black's score and White's, each named: "
    '"White won: Black 31, White 33". The statistics give your score first.',
    "ASCII is chosen automatically when the terminal's locale is not UTF-8; "
    "--ascii forces it and --unicode forces Unicode.",
)

RULES = (
    "Black moves first. Place a disc so that it brackets a straight line (across, "
    "down or diagonally) of your opponent's discs between it and another of yours; "
    "the bracketed discs flip to your colour. A move must flip at least one disc. "
    "With no legal move you pass (automatically here); when neither side can move "
    "the game ends, and the side with more discs wins. Empty squares count for the "
    "winner in the final score."
)

#: One piece of a legend sample: its text and the board styles layered on it.
Piece = tuple[str, tuple[str, ...]]


def key_table(rows: tuple[tuple[str, str], ...]) -> Table:
    """Keys in a bold column beside what they do."""
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold", no_wrap=True, min_width=15)
    table.add_column()
    for key, what in rows:
        table.add_row(key, what)
    return table


def help_keys(*, mouse: bool) -> tuple[tuple[str, str], ...]:
    """The main key table; the mouse row only when the mouse is on."""
    return KEYS + (MOUSE_KEYS if mouse else ())


def help_notes(*, mouse: bool) -> tuple[str, ...]:
    """The notes under the legend; with the mouse, the preview follows the pointer too."""
    if not mouse:
        return NOTES
    preview = PREVIEW_NOTE.removesuffix(".") + ", and the mouse pointer over one."
    return tuple(preview if note is PREVIEW_NOTE else note for note in NOTES)


def legend_samples(glyphs: Glyphs) -> tuple[tuple[tuple[Piece, ...], str], ...]:
    """Each mark as a small cell drawn like the board draws it, with what it means.

    A sample is the cell's interior between two grid lines, as on a board with
    one-row cells (80x24); each piece names the board styles laid on it, as the
    board layers them (``grid``, ``cell``, then the mark's own).
    """
    bar = glyphs.grid[2]
    last_bar = glyphs.last[2]
    side: Piece = (bar, ("grid",))

    def cell(text: str, *styles: str) -> tuple[Piece, ...]:
        return side, (text, styles), side

    left, right = glyphs.cursor
    cursor = (
        side,
        (left, ("grid", "cursor-cell", "cursor")),
        (glyphs.empty, ("grid", "cursor-cell")),
        (right, ("grid", "cursor-cell", "cursor")),
        side,
    )
    cursor_text = "the cursor"
    if glyphs.cursor_top[0]:
        corners = " ".join((*glyphs.cursor_top, *glyphs.cursor_bottom))
        cursor_text += f" (corners {corners} on a big board)"
    last = (
        (last_bar, ("grid", "last")),
        (f" {glyphs.black} ", ("cell", "black")),
        (last_bar, ("grid", "last")),
    )
    samples: list[tuple[tuple[Piece, ...], str]] = [
        (cell(f" {glyphs.black} ", "cell", "black"), "a black disc"),
        (cell(f" {glyphs.white} ", "cell", "white"), "a white disc"),
        (cell(f" {glyphs.legal} ", "cell", "legal"), "a legal move for the side to move"),
        (cursor, cursor_text),
        (last, "the last move played (its frame)"),
        (
            cell(f" {glyphs.preview_black} ", "cell", "preview", "black"),
            "flip preview: this disc would turn black",
        ),
        (
            cell(f" {glyphs.preview_white} ", "cell", "preview", "white"),
            "flip preview: this disc would turn white",
        ),
    ]
    if glyphs.empty.strip():
        samples.append((cell(f" {glyphs.empty} ", "grid"), "an empty square"))
    return tuple(samples)


class Legend(Widget):
    """The board's marks, each drawn with the board's glyphs and colours."""

    #: The board's component classes and colours (``Board`` in widgets/board.py); a test
    #: checks that the two resolve to the same styles.
    COMPONENT_CLASSES = {
        "board--grid",
        "board--cell",
        "board--black",
        "board--white",
        "board--legal",
        "board--cursor",
        "board--cursor-cell",
        "board--last",
        "board--preview",
    }
    DEFAULT_CSS = "Legend { height: auto; }" + mark_css("Legend")

    def __init__(self, glyphs: Glyphs, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.glyphs = glyphs

    def _style(self, names: tuple[str, ...]) -> Style:
        style = Style()
        for name in names:
            style += self.get_component_rich_style(f"board--{name}", partial=True)
        return style

    def render(self) -> RenderableType:
        table = Table.grid(padding=(0, 2))
        table.add_column(no_wrap=True, min_width=15)
        table.add_column()
        for pieces, meaning in legend_samples(self.glyphs):
            sample = Text.assemble(*((text, self._style(names)) for text, names in pieces))
            table.add_row(sample, meaning)
        return table


def framed_help_css(screen: str) -> str:
    """The frame every help screen draws (the game's, the lobby's): a scroll with a
    title and a subtitle, as wide as 80 columns allow, ASCII in ASCII mode."""
    return f"""
    {screen} > VerticalScroll {{
        width: 78;
        max-width: 100%;
        height: auto;
        max-height: 100%;
        border: thick $primary;
        border-title-color: $accent;
        border-subtitle-color: $text-muted;
        background: $surface;
        padding: 0 1;
    }}
    {screen}.-ascii > VerticalScroll {{ border: ascii $primary; }}
    """


class HelpScreen(Dialog[None]):
    """A modal over the game so closing it returns exactly where the player was."""

    DEFAULT_CSS = (
        framed_help_css("HelpScreen")
        + """
    HelpScreen .heading { text-style: bold; color: $accent; margin-top: 1; }
    HelpScreen #notes { margin-top: 1; }
    """
    )
    BINDINGS = [Binding("question_mark,escape,q", "close", "Close help")]

    def __init__(
        self, glyphs: Glyphs = UNICODE, *, mouse: bool = True, online: bool = False
    ) -> None:
        """``glyphs`` are the board's; ``mouse`` says whether the app listens to the mouse;
        ``online``: over an online game (its own keys and notes)."""
        super().__init__()
        self.glyphs = glyphs
        self.mouse = mouse
        self.online = online
        if glyphs.ascii_only:
            self.add_class("-ascii")

    def compose(self) -> ComposeResult:
        mouse = self.mouse
        with VerticalScroll() as scroll:
            scroll.border_title = "Reversi - help"
            scroll.border_subtitle = "Up/Down scroll - ? or Esc closes"
            keys = ONLINE_KEYS + (MOUSE_KEYS if mouse else ()) if self.online else None
            yield Static(key_table(keys or help_keys(mouse=mouse)), id="keys")
            yield Static("In review, after a game", classes="heading")
            yield Static(key_table(REVIEW_KEYS), id="review-keys")
            yield Static("On the board", classes="heading")
            yield Legend(self.glyphs, id="legend")
            notes = ONLINE_NOTES if self.online else help_notes(mouse=mouse)
            yield Static(_notes(notes), id="notes")
            yield Static("Rules", classes="heading")
            yield Static(RULES, id="rules")
        yield KeyFooter()

    def action_close(self) -> None:
        self.dismiss(None)


class AnalysisHelpScreen(Dialog[None]):
    """The analysis screen's keys and marks; ``?`` or Esc closes it."""

    DEFAULT_CSS = (
        framed_help_css("AnalysisHelpScreen")
        + """
    AnalysisHelpScreen .heading { text-style: bold; color: $accent; margin-top: 1; }
    AnalysisHelpScreen #analysis-notes { margin-top: 1; }
    """
    )
    BINDINGS = [Binding("question_mark,escape,q", "close", "Close help")]

    def __init__(self, legend: tuple[tuple[Text, str], ...], *, ascii_only: bool) -> None:
        """``legend``: each mark as the analysis draws it, and what it means."""
        super().__init__()
        self.legend = legend
        if ascii_only:
            self.add_class("-ascii")

    def compose(self) -> ComposeResult:
        with VerticalScroll() as scroll:
            scroll.border_title = "Reversi - the analysis"
            scroll.border_subtitle = "Up/Down scroll - ? or Esc closes"
            yield Static(key_table(ANALYSIS_KEYS), id="analysis-keys")
            yield Static("Marks", classes="heading")
            marks = Table.grid(padding=(0, 2))
            marks.add_column(no_wrap=True, min_width=15)
            marks.add_column()
            for sample, meaning in self.legend:
                marks.add_row(sample, meaning)
            yield Static(marks, id="analysis-legend")
            yield Static(_notes(ANALYSIS_NOTES), id="analysis-notes")
        yield KeyFooter()

    def action_close(self) -> None:
        self.dismiss(None)


def _notes(notes: tuple[str, ...]) -> Group:
    return Group(*(Text(note) for note in notes))
