"""The base of every dialog: the look they share, and an answer taken once.

A dialog composes a ``Vertical(classes="dialog")`` holding a ``.dialog-title``,
``.dialog-text`` and a ``.buttons`` row, and sets its own width::

    MyDialog > .dialog { width: 60; }

Textual's type selectors match subclasses, so ``Dialog``'s CSS covers them all;
a dialog's own rules outrank it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from textual.await_complete import AwaitComplete
from textual.screen import ModalScreen, Screen

R = TypeVar("R")

if TYPE_CHECKING:
    _ScreenMixin = Screen[Any]
else:
    # At run time a plain mixin: Textual inherits CSS along the first base that is a
    # DOM node only, so a ``Screen`` here would cut ``ModalScreen``'s CSS off a dialog.
    _ScreenMixin = object


class ClosesOnce(_ScreenMixin):
    """A screen dismissed once: an answer that comes after the first is ignored.

    Two answering keys in one burst (``y`` then Enter, as a fast typist or a paste
    sends them) would dismiss a screen twice, and Textual 8.2.8 then raises
    ``InvalidStateError`` setting the screen's result again and kills the app (or
    pops the screen under it). Put it first among the bases.
    """

    #: Set by the first ``dismiss``.
    _dismissed = False

    @property
    def answered(self) -> bool:
        """True once dismissed, or when no longer shown (Textual's ``is_current``: the
        screen on top, or one seen under it)."""
        return self._dismissed or not self.is_current

    def dismiss(self, result: Any = None) -> AwaitComplete:
        """Dismiss with ``result`` unless answered already (then nothing happens)."""
        if self.answered:
            return AwaitComplete()  # nothing to wait for
        self._dismissed = True
        return super().dismiss(result)


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
