"""A long session stays flat: dialogs opened and closed, and new games, leave nothing behind."""

from __future__ import annotations

import gc

from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets._footer import FooterKey

from reversi_tui.tui.app import ReversiApp
from reversi_tui.tui.screens.help import HelpScreen

from .helpers import make_app, settle, ui, wait_until

#: Dialogs opened and closed, and games started, in each test.
ROUNDS = 10


def alive(kind: type[Widget]) -> int:
    """How many ``kind`` widgets exist, once the garbage is collected."""
    gc.collect()
    return sum(isinstance(obj, kind) for obj in gc.get_objects())


async def open_and_close_help(app: ReversiApp, pilot: Pilot[int]) -> None:
    await pilot.press("question_mark")
    await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
    await pilot.press("escape")
    await wait_until(pilot, lambda: app.screen is ui(app))
    await pilot.pause()


async def test_help_opened_and_closed_leaves_no_widgets_behind() -> None:
    # Before the fix each round left about 16 FooterKeys (0.3 MB) alive for good.
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await open_and_close_help(app, pilot)  # the first round fills caches
        keys, widgets = alive(FooterKey), alive(Widget)
        for _ in range(ROUNDS):
            await open_and_close_help(app, pilot)
        assert alive(FooterKey) <= keys, f"FooterKeys {keys} -> {alive(FooterKey)}"
        assert alive(Widget) <= widgets, f"widgets {widgets} -> {alive(Widget)}"


async def test_new_games_leave_no_widgets_behind() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = ui(app)
        screen._start_new_game(screen.match.settings)
        await settle(app, pilot)
        keys, widgets = alive(FooterKey), alive(Widget)
        for _ in range(ROUNDS):
            screen._start_new_game(screen.match.settings)
            await settle(app, pilot)
        assert alive(FooterKey) <= keys, f"FooterKeys {keys} -> {alive(FooterKey)}"
        assert alive(Widget) <= widgets, f"widgets {widgets} -> {alive(Widget)}"
