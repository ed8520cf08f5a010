"""Shown instead of the game when the terminal is too small for a readable board."""

from __future__ import annotations

from textual.widgets import Static

#: The smallest terminal that shows the whole game: the 1-row-cell board, the sidebar, the footer.
MIN_WIDTH = 69
MIN_HEIGHT = 20


class TooSmall(Static):
    """A plain message; the screen's breakpoint classes decide when it shows."""

    DEFAULT_CSS = """
    TooSmall {
        width: 1fr;
        height: 1fr;
        content-align: center middle;
        text-align: center;
        color: $warning;
        text-style: bold;
    }
    """

    def render(self) -> str:
        width, height = self.app.size
        return (
            "Please enlarge the terminal\n"
            f"Reversi needs at least {MIN_WIDTH}x{MIN_HEIGHT}; this one is {width}x{height}.\n"
            "The game carries on as soon as it fits."
        )
