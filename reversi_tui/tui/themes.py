"""The app's themes and the board colours every theme inherits.

The board colours are theme variables, so any of Textual's built-in themes (picked
from the command palette) keeps a board that reads as a board, while a theme of
ours can override them: ``reversi`` is the handsome default, ``reversi-contrast``
the high-contrast option.

Every colour must survive the terminals people actually use: over SSH ``COLORTERM``
is rarely forwarded, so Textual's true colours are rounded to the xterm 256-colour
palette, and a Linux console has only 16. So the felt and everything drawn on it
are picked by where they land: the felt and the three tints laid over a cell
(cursor, highlight, preview) round to four different greens of the 256-colour cube
and all to plain green among 16 colours, while the grid and the discs, markers and
frames on them stay at least 3:1 against those greens at every depth
(``tests/tui/test_colours.py`` checks it for every theme).
"""

from __future__ import annotations

from dataclasses import replace

from textual.theme import BUILTIN_THEMES, Theme

#: Row and column numbers sit on the theme's background, beside the felt: light
#: ones for a dark background, dark ones for a light background.
LABEL_ON_DARK = "#a8ccb4"
LABEL_ON_LIGHT = "#2b5738"

#: Felt-green board defaults, used by every theme that does not set its own.
#: In brackets: what they become in 256 colours.
BOARD_VARIABLES: dict[str, str] = {
    "board-felt": "#14843c",  # 00875f
    "board-grid": "#06160c",  # 000000
    "board-label": LABEL_ON_DARK,
    "disc-black": "#0b0b0b",  # 080808
    "disc-white": "#f4f1e8",  # ffffd7
    "board-legal": "#f5d870",  # ffd75f
    "board-cursor": "#fff05a",  # ffff5f
    "board-cursor-cell": "#0a8206",  # 008700
    "board-last": "#fafafa",  # ffffff
    "board-flash": "#349030",  # 5f875f
    "board-preview": "#649004",  # 5f8700
    "bar-black": "#0b0b0b",
    "bar-white": "#f4f1e8",
    #: The score bar's discs sit on a strip of felt, so both show on any sidebar.
    "bar-track": "#14843c",
}

DEFAULT_THEME = "reversi"

REVERSI = Theme(
    name="reversi",
    primary="#4fb477",
    secondary="#2e7d55",
    accent="#f2c14e",
    warning="#f2a65a",
    error="#e05d5d",
    success="#7bd389",
    foreground="#e7efe9",
    background="#0f1a14",
    surface="#16251c",
    panel="#1d3326",
    dark=True,
    variables={"footer-key-foreground": "#f2c14e", "board-label": "#9fc3ab"},
)

REVERSI_CONTRAST = Theme(
    name="reversi-contrast",
    primary="#ffff00",
    secondary="#00ffff",
    accent="#ffff00",
    warning="#ffff00",
    error="#ff4040",
    success="#00ff00",
    foreground="#ffffff",
    background="#000000",
    surface="#000000",
    panel="#202020",
    dark=True,
    variables={
        "board-felt": "#008700",
        "board-grid": "#000000",
        "board-label": "#ffffff",
        "disc-black": "#000000",
        "disc-white": "#ffffff",
        "board-legal": "#ffff00",
        "board-cursor": "#ffff00",
        "board-cursor-cell": "#5f8700",
        "board-last": "#ffffff",
        "board-flash": "#349030",
        "board-preview": "#878700",
        "bar-black": "#000000",
        "bar-white": "#ffffff",
        "bar-track": "#008700",
        "footer-key-foreground": "#ffff00",
    },
)


def with_board_labels(theme: Theme) -> Theme:
    """``theme`` with row and column numbers that read on its background.

    The rest of the board brings its own felt, so only the labels depend on the
    theme; Textual's themes say whether they are dark, which decides them.
    """
    if "board-label" in theme.variables:
        return theme
    label = LABEL_ON_DARK if theme.dark else LABEL_ON_LIGHT
    return replace(theme, variables={**theme.variables, "board-label": label})


#: Every theme the app registers: ours, and Textual's own with board labels to match.
THEMES = (REVERSI, REVERSI_CONTRAST, *(with_board_labels(t) for t in BUILTIN_THEMES.values()))
