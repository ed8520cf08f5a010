"""The Reversi app: themes, the screen stack and the keys that work everywhere.

The game itself lives in ``GameScreen``, which drives a UI-free ``Match``; the
app only decides what the terminal shows and how it looks.
"""

from __future__ import annotations

import argparse
import sys

from textual.app import App
from textual.binding import Binding

from reversi_tui.engine import Game
from reversi_tui.match import MatchSettings
from reversi_tui.match.sources import SourceFactory
from reversi_tui.players import make_source
from reversi_tui.tui.screens.game import GameScreen
from reversi_tui.tui.screens.help import HelpScreen
from reversi_tui.tui.themes import BOARD_VARIABLES, DEFAULT_THEME, THEMES
from reversi_tui.tui.thinking import Advisor, default_advisor
from reversi_tui.tui.widgets.board_art import ASCII, UNICODE, Glyphs
from reversi_tui.tui.widgets.too_small import MIN_HEIGHT, MIN_WIDTH


class ReversiApp(App[int]):
    """Reversi against the computer, a friend, or computer against computer."""

    CSS_PATH = "app.tcss"
    TITLE = "Reversi"
    HORIZONTAL_BREAKPOINTS = [(0, "-too-narrow"), (MIN_WIDTH, "-wide-enough")]
    VERTICAL_BREAKPOINTS = [(0, "-too-short"), (MIN_HEIGHT, "-tall-enough")]
    BINDINGS = [Binding("question_mark", "help", "Help", key_display="?")]

    def __init__(
        self,
        settings: MatchSettings,
        *,
        make_source: SourceFactory = make_source,
        game: Game | None = None,
        glyphs: Glyphs = UNICODE,
        delay: float = 0.5,
        advisor: Advisor | None = None,
        theme: str = DEFAULT_THEME,
    ) -> None:
        """``game`` continues a game instead of starting from ``settings``' position;
        ``delay`` paces computer against computer."""
        super().__init__()
        for t in THEMES:
            self.register_theme(t)
        self.theme = theme
        self.game_screen = GameScreen(
            settings,
            make_source,
            advisor or default_advisor,
            game=game,
            glyphs=glyphs,
            pace=delay,
        )

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return dict(BOARD_VARIABLES)

    def get_default_screen(self) -> GameScreen:
        return self.game_screen

    def action_help(self) -> None:
        self.push_screen(HelpScreen())


def run_app(settings: MatchSettings, args: argparse.Namespace) -> int:
    """Run the app on the terminal; the exit code for the command line."""
    theme = args.theme or DEFAULT_THEME
    app = ReversiApp(
        settings,
        glyphs=ASCII if args.ascii else UNICODE,
        delay=args.delay,
        theme=DEFAULT_THEME,
    )
    if theme not in app.available_themes:
        names = ", ".join(sorted(app.available_themes))
        print(f"reversi: unknown theme {theme!r}; choose one of: {names}", file=sys.stderr)
        return 2
    app.theme = theme
    # The computer searches in a thread; handing the GIL over every millisecond instead of
    # every 5 keeps keys answered while it thinks, for a negligible cost to the search.
    sys.setswitchinterval(0.001)
    result = app.run(mouse=not args.no_mouse)
    return result if isinstance(result, int) else (app.return_code or 0)
