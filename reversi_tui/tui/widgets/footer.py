"""The key footer every screen shows: that screen's own keys, never the one beneath."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey


class KeyFooter(Footer):
    """Textual's Footer, composed as soon as the bindings are known, not a frame later.

    The stock footer waits for a refresh before it recomposes, which left the bottom
    line blank for about 0.1 s after the board appeared at start-up. Each screen
    (the game and every dialog) yields its own, so a dialog's footer lists the
    dialog's keys and covers the game's.

    ``?`` Help comes first, as nano, htop and mc put it, so no width drops it; the
    command palette's key follows the others instead of being docked at the right,
    where on a narrow terminal (69 columns) it covered the last keys, Help among them.
    """

    DEFAULT_CSS = """
    KeyFooter FooterKey.-command-palette { dock: none; }
    """

    def compose(self) -> ComposeResult:
        keys: list[Widget] = list(super().compose())
        first = [k for k in keys if isinstance(k, FooterKey) and k.action == "help"]
        yield from first + [k for k in keys if k not in first]

    def bindings_changed(self, screen: Screen[object]) -> None:
        self._bindings_ready = True
        if self.app.app_focus and self.is_attached and screen is self.screen:
            self.call_later(self.recompose)

    async def recompose(self) -> None:
        """Recompose, then let go of the keys just removed.

        Textual 8.2.8's ``Footer.compose`` binds every ``FooterKey`` it yields with
        ``data_bind(compact=Footer.compact)``, which adds a watcher to this footer's
        ``compact`` (``textual.reactive._watch``). Watchers of closed widgets are only
        dropped when ``compact`` changes (``Reactive._check_watchers``), and it never
        does, so every recompose (each dialog closed, each new game) kept the old keys
        alive: about 16 widgets, 0.3 MB, a time. Announcing ``compact`` as changed
        runs that clean-up (and sets the same value on the live keys).
        """
        await super().recompose()
        self.mutate_reactive(Footer.compact)
