"""The base of every dialog: the look they share, and an answer taken once.

A dialog composes a ``Vertical(classes="dialog")`` holding a ``.dialog-title``,
``.dialog-text`` and a ``.buttons`` row, and sets its own width::

    MyDialog > .dialog { width: 60; }

Textual's type selectors match subclasses, so ``Dialog``'s CSS covers them all;
a dialog's own rules outrank it.
"""

from __future__ import annotations

from typing import TypeVar

from textual.screen import ModalScreen

from reversi_tui.tui.compat.dismiss import ClosesOnce

R = TypeVar("R")


class Dialog(ClosesOnce, ModalScreen[R]):
    """A modal dialog over the game, centred on a dimmed screen; dismissed once."""

    DEFAULT_CSS = """
    Dialog {
        align: center middle;
        background: $background 60%;
    }
    Dialog > .dialog {
        width: 50;
        max-width: 100%;
        height: auto;
        max-height: 100%;
        border: thick $primary;
        background: $surface;
        padding: 0 2;
        overflow: hidden hidden;
    }
    Dialog .dialog-title {
        text-style: bold;
        color: $accent;
        width: 1fr;
        content-align: center middle;
    }
    Dialog .dialog-text { width: 1fr; margin: 1 0; }
    Dialog .buttons { width: 1fr; height: auto; align-horizontal: center; }
    Dialog .buttons Button { margin: 0 1; }
    """
