"""The key footer every screen shows: that screen's own keys, never the one beneath."""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Footer


class KeyFooter(Footer):
    """Textual's Footer, composed as soon as the bindings are known, not a frame later.

    The stock footer waits for a refresh before it recomposes, which left the bottom
    line blank for about 0.1 s after the board appeared at start-up. Each screen
    (the game and every dialog) yields its own, so a dialog's footer lists the
    dialog's keys and covers the game's.
    """

    def bindings_changed(self, screen: Screen[object]) -> None:
        self._bindings_ready = True
        if self.app.app_focus and self.is_attached and screen is self.screen:
            self.call_later(self.recompose)
