"""The app's themes and the board colours every theme inherits.

The board colours are theme variables, so any of Textual's built-in themes (picked
from the command palette) keeps a board that reads as a board, while a theme of
ours can override them: ``reversi`` is the handsome default, ``reversi-contrast``
the high-contrast option.
"""

from __future__ import annotations

from textual.theme import Theme

#: Felt-green board defaults, used by every theme that does not set its own.
BOARD_VARIABLES: dict[str, str] = {
    "board-felt": "#1f6b3e",
    "board-grid": "#0d3b21",
    "board-label": "#9fc3ab",
    "disc-black": "#0b0b0b",
    "disc-white": "#f4f1e8",
    "board-legal": "#f2d36b",
    "board-cursor": "#ffd21f",
    "board-cursor-cell": "#2f8552",
    "board-last": "#ff7b54",
    "board-flash": "#3f9a5c",
    "board-preview": "#7a8f2a",
    "bar-black": "#0b0b0b",
    "bar-white": "#f4f1e8",
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
    variables={"footer-key-foreground": "#f2c14e"},
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
        "board-felt": "#007a00",
        "board-grid": "#000000",
        "board-label": "#ffffff",
        "disc-black": "#000000",
        "disc-white": "#ffffff",
        "board-legal": "#ffff00",
        "board-cursor": "#ffff00",
        "board-cursor-cell": "#005000",
        "board-last": "#ff00ff",
        "board-flash": "#00b000",
        "board-preview": "#008080",
        "footer-key-foreground": "#ffff00",
    },
)

THEMES = (REVERSI, REVERSI_CONTRAST)
