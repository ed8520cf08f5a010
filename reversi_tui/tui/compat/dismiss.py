"""A screen dismissed once: Textual's ``Screen.dismiss`` does not check it was dismissed.

Upstream: no upstream issue filed. Textual 8.2.8's ``Screen.dismiss`` calls the
result callback and pops whatever screen is on top, every time it is called.
Delete when ``Screen.dismiss`` ignores a screen already dismissed (or no longer
on the stack): then ``test_a_dialog_dismissed_twice_at_once_answers_once`` passes
without ``ClosesOnce``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.app import ScreenStackError
from textual.await_complete import AwaitComplete
from textual.screen import Screen

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
        """Dismiss with ``result`` unless answered already, or not on top: Textual pops
        whatever screen is on top, so dismissing one seen under another (a dialog under
        a second dialog) would close the other (then nothing happens)."""
        if self.answered or not self._on_top():
            return AwaitComplete()  # nothing to wait for
        self._dismissed = True
        return super().dismiss(result)

    def _on_top(self) -> bool:
        try:
            return self.app.screen is self
        except ScreenStackError:
            return False
