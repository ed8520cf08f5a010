"""The lobby's own help: its keys, what the tables show, and how challenges work; ``?`` or
Esc closes it."""

from __future__ import annotations

from rich.console import Group
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from reversi_tui.net.protocol import ABANDON_GRACE, TIME_CONTROLS
from reversi_tui.tui.keys import LOBBY_HELP, help_rows
from reversi_tui.tui.screens.dialog import Dialog
from reversi_tui.tui.screens.help import framed_help_css, key_table
from reversi_tui.tui.widgets.footer import KeyFooter

#: The lobby's keys: (keys, what they do), from the key table (tui/keys.py).
LOBBY_KEY_ROWS: tuple[tuple[str, str], ...] = help_rows(LOBBY_HELP)

_CLOCKS = ", ".join(f"{m}+{i}" for m, i in TIME_CONTROLS)

NOTES = (
    "Players: each one's rating on this server (a ? while it is provisional) and where "
    "they are: in the lobby, wanting a game, in a local game, at an online game, or away. "
    "A challenge reaches a player wherever they are.",
    'Games: yours say "your move!" when you are to play; Enter opens yours and watches '
    "the others. The lobby follows the server live: nothing needs refreshing.",
    f"Challenges: choose a colour (b, w, r), a clock (0 none, 1-4: {_CLOCKS}, minutes each "
    "plus seconds a move) and rated or casual (g). Rated games change both players' "
    "Glicko-2 ratings on this server.",
    f"In a game: when your opponent has been gone {ABANDON_GRACE:.0f} s you may claim the "
    "win, call it a draw, or wait; with a clock, theirs keeps running. After the game, "
    "the dialog offers a rematch with the colours swapped.",
)


class LobbyHelpScreen(Dialog[None]):
    """The lobby's keys and notes."""

    DEFAULT_CSS = framed_help_css("LobbyHelpScreen")
    #: The scroll takes the keys, so Up/Down and Page Up/Down read the notes at 80x24.
    AUTO_FOCUS = "#lobby-help-scroll"
    BINDINGS = [Binding("question_mark,escape,q", "close", "Close", key_display="Esc")]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="lobby-help-scroll") as scroll:
            scroll.border_title = "Online lobby - help"
            scroll.border_subtitle = "Up/Down scroll - ? or Esc closes"
            notes = Text("\n\n".join(NOTES))
            yield Static(Group(key_table(LOBBY_KEY_ROWS), Text(""), notes), id="lobby-help")
        yield KeyFooter()

    def action_close(self) -> None:
        self.dismiss(None)
