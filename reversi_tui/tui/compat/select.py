"""A ``Select`` that survives its dialog closing in the middle of a burst of keys.

Textual 8.2.8's ``Select`` looks up its two parts (``SelectCurrent`` and
``SelectOverlay``) with ``query_one`` when it mounts and whenever its value or
state changes. When a burst of keys opens and answers the new-game dialog at once
(``n`` then ``y``, as a paste or a fast typist sends them), those calls can run
after the dialog has begun to come down and the parts are gone: ``NoMatches``
then kills the app. A ``Select`` never removes its own parts, so a missing part
means the widget is being removed, and the update has nothing left to show.

Upstream: no upstream issue filed. Delete when ``Select``'s mount and watchers
tolerate their parts being gone (the new-game bursts of ``test_input_survival.py``
pass with a plain ``Select``).
"""

from __future__ import annotations

from contextlib import suppress

from textual import events
from textual.css.query import NoMatches
from textual.widgets import Select
from textual.widgets._select import NoSelection, SelectType


class SafeSelect(Select[SelectType]):
    """Textual's ``Select``; an update that finds its parts gone is dropped."""

    def _on_mount(self, event: events.Mount) -> None:
        with suppress(NoMatches):  # removed before it finished mounting
            super()._on_mount(event)

    def _watch_value(self, value: SelectType | NoSelection) -> None:
        with suppress(NoMatches):  # the label or the list went with the dialog
            super()._watch_value(value)

    def _watch_prompt(self, prompt: str) -> None:
        with suppress(NoMatches):
            super()._watch_prompt(prompt)

    def action_show_overlay(self) -> None:
        with suppress(NoMatches):
            super().action_show_overlay()
