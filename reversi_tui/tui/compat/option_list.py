"""PageUp/PageDown in an ``OptionList`` before its first layout do nothing.

Textual 8.2.8's ``OptionList._move_page`` looks up the highlighted option's line
before the list has been laid out (``KeyError``): PageUp right after Ctrl+P, or in a
``Select``'s drop-down opened in the same key burst, killed the app.

Upstream: no upstream issue filed. Delete when
``test_paging_an_option_list_that_is_not_laid_out_does_nothing`` and the paging bursts
of ``tests/tui/test_input_survival.py`` pass without ``guard_option_list_paging``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from textual.widgets import OptionList


def _guarded_move_page(self: OptionList, direction: Literal[-1, 1]) -> None:
    """``OptionList._move_page``, once the options have been laid out into lines."""
    if not self._options or self.highlighted is None:
        return
    if self.highlighted not in self._index_to_line or not self._lines:
        return  # not laid out yet (Textual 8.2.8 raised KeyError here): nothing to page
    _move_page(self, direction)


_move_page: Callable[[OptionList, Literal[-1, 1]], None] = OptionList._move_page


def guard_option_list_paging() -> None:
    """PageUp/PageDown in an option list before its first layout do nothing.

    Textual 8.2.8's ``OptionList._move_page`` reads ``_index_to_line``, filled only
    once the list knows its size; the command palette's list and a ``Select``'s
    drop-down receive keys before that in a fast burst, and ``KeyError`` ended the app.
    Both lists are built inside Textual, so the method itself is guarded (once).
    """
    if OptionList._move_page is not _guarded_move_page:
        setattr(OptionList, "_move_page", _guarded_move_page)  # noqa: B010
