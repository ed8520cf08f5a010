"""The dialog base: every modal screen is a ``Dialog``, looks like one, and closes once."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from typing import Any

from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

import reversi_tui.tui.screens
from reversi_tui.engine import Color, Outcome
from reversi_tui.match import Result, Termination
from reversi_tui.tui.compat.dismiss import ClosesOnce
from reversi_tui.tui.screens.challenge import ChallengedScreen
from reversi_tui.tui.screens.confirm import ConfirmScreen
from reversi_tui.tui.screens.dialog import Dialog
from reversi_tui.tui.screens.game_over import GameOverScreen


def screen_classes() -> list[type[Screen[Any]]]:
    """Every screen class defined in ``reversi_tui.tui.screens``."""
    found: list[type[Screen[Any]]] = []
    package = reversi_tui.tui.screens
    for info in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
        module = importlib.import_module(info.name)
        found += [
            cls
            for _, cls in inspect.getmembers(module, inspect.isclass)
            if issubclass(cls, Screen) and cls.__module__ == module.__name__
        ]
    return found


def test_every_modal_screen_is_a_dialog() -> None:
    modal = [cls for cls in screen_classes() if issubclass(cls, ModalScreen)]
    assert len(modal) >= 10
    assert [cls.__name__ for cls in modal if not issubclass(cls, Dialog)] == []


class Question(Dialog[str]):
    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("Title", classes="dialog-title")


class Page(ClosesOnce, Screen[str]):
    pass


class Host(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.results: list[str] = []


async def test_a_dialog_dismissed_twice_at_once_answers_once() -> None:
    """Without the guard the second ``dismiss`` pops the screen under the dialog."""
    for screen in (Question(), Page(), ConfirmScreen("Quit?", "Really?")):
        app = Host()
        async with app.run_test() as pilot:
            under = app.screen
            app.push_screen(screen, app.results.append)
            await pilot.pause()
            assert not screen.answered
            screen.dismiss("first")
            screen.dismiss("second")
            await pilot.pause()
            assert app.results == ["first"]
            assert app.screen is under and screen.answered


async def test_a_dialog_closed_otherwise_is_not_dismissed() -> None:
    """A dialog already off the stack (the lobby closes a withdrawn challenge's) stays closed."""
    app = Host()
    async with app.run_test() as pilot:
        under = app.screen
        dialog = Question()
        app.push_screen(dialog, app.results.append)
        await pilot.pause()
        app.pop_screen()
        await pilot.pause()
        assert dialog.answered
        dialog.dismiss("late")
        await pilot.pause()
        assert app.results == [] and app.screen is under


async def test_the_shared_look_reaches_every_dialog_and_each_keeps_its_own() -> None:
    result = Result(Termination.NORMAL, Color.BLACK, Outcome(40, 24))
    expected = {  # dialog: (width, horizontal alignment)
        Question(): (50, "center"),
        ConfirmScreen("Quit?", "Really?"): (50, "center"),
        ChallengedScreen("ann", "black"): (60, "center"),
        GameOverScreen(result): (43, "right"),
    }
    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        for dialog, (width, align) in expected.items():
            app.push_screen(dialog)
            await pilot.pause()
            box = dialog.query_one(".dialog")
            assert (box.outer_size.width, dialog.styles.align_horizontal) == (width, align)
            assert box.styles.border_top[0] == "thick"
            title = dialog.query_one(".dialog-title")
            assert title.styles.text_style.bold, type(dialog).__name__
            dialog.dismiss(None)
            await pilot.pause()
