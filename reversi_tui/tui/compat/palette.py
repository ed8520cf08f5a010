"""Textual's command palette, made safe against keys that open and close it at once.

Three faults of Textual 8.2.8's ``CommandPalette`` kill the app when a burst of
keys reaches it (a paste, a fast typist, a key held down over a slow link):

- the palette gathers its commands in a worker started on mount; when the palette
  closes before that worker runs (Ctrl+Q then Ctrl+P in one read: the app closes
  under the new palette), the worker's ``query_one(CommandList)`` finds the list
  gone and raises ``NoMatches``, which ``exit_on_error`` turns into the end of the
  app; the palette's watchers and its "No matches" timer do the same;
- ``App.action_command_palette`` checks only whether the screen on top is a
  palette, and gives every palette the same id, which a palette still closing
  holds (``DuplicateIds``);
- two Enters in one read choose a command twice, which dismisses the palette
  twice, and ``Screen.dismiss`` pops whatever screen is on top: the second pop
  would take the game screen (``ScreenStackError``). The theme picker is a
  palette too.

``GamePalette`` drops the work that finds its list gone (the palette is closing:
nothing is left to show) and closes once (``ClosesOnce``); ``open_palette`` opens
one palette at a time.

Upstream: no upstream issue filed (listed in ``reversi_tui.tui.compat.WORKAROUNDS``).
Delete when the palette bursts of ``tests/tui/test_input_survival.py`` and
``test_bursts.py`` pass with Textual's own ``CommandPalette``.
"""

from __future__ import annotations

from typing import Any

from textual import work
from textual.app import App
from textual.command import CommandList, CommandPalette
from textual.css.query import NoMatches
from textual.message import Message
from textual.theme import ThemeProvider
from textual.widgets import Button, Input, OptionList

from reversi_tui.tui.compat.dismiss import ClosesOnce


class GamePalette(ClosesOnce, CommandPalette):
    """The command palette; work that outlives its list is dropped, not fatal.

    It closes once (``ClosesOnce``): a command chosen in the same burst as Esc
    dismissed the palette a second time, and that popped the game screen under it
    (``ScreenStackError``).
    """

    def _list_gone(self) -> bool:
        """True when the palette's list is gone: it has been closed."""
        return not self.query(CommandList)

    @work(exclusive=True, group=CommandPalette._GATHER_COMMANDS_GROUP)
    async def _gather_commands(self, search_value: str) -> None:
        if self._list_gone():
            return
        try:
            await _GATHER(self, search_value)
        except NoMatches:
            if not self._list_gone():
                raise

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """No key of the palette's own acts once its list is gone (it is closing)."""
        return None if self._list_gone() else super().check_action(action, parameters)

    async def _on_message(self, message: Message) -> None:
        """A search, a choice or a highlight that arrives after the list went is dropped."""
        if isinstance(message, _LIST_MESSAGES) and self._list_gone():
            return
        await super()._on_message(message)

    def _watch__list_visible(self) -> None:
        if not self._list_gone():
            super()._watch__list_visible()

    async def _watch__show_busy(self) -> None:
        if not self._list_gone():
            await super()._watch__show_busy()

    def _start_no_matches_countdown(self, search_value: str) -> None:
        if not self._list_gone():
            super()._start_no_matches_countdown(search_value)


#: What the palette's own handlers read its list for.
_LIST_MESSAGES = (
    Input.Changed,
    Input.Submitted,
    Button.Pressed,
    OptionList.OptionSelected,
    OptionList.OptionHighlighted,
)
#: Textual's own gathering coroutine, under its ``@work`` wrapper.
_GATHER = CommandPalette._gather_commands.__wrapped__  # type: ignore[attr-defined]


def palette_open(app: App[Any]) -> bool:
    """True when a palette is anywhere on the stack, on top or still being pushed."""
    return any(isinstance(screen, CommandPalette) for screen in app.screen_stack)


def open_palette(app: App[Any]) -> None:
    """Ctrl+P: open the palette unless one is open already."""
    if app.use_command_palette and not palette_open(app):
        app.push_screen(GamePalette())  # no id: a closing one may still hold it


def open_theme_picker(app: App[Any]) -> None:
    """The palette's Theme entry: Textual's theme picker, as a ``GamePalette``."""
    app.push_screen(GamePalette(providers=[ThemeProvider], placeholder="Search for themes…"))
