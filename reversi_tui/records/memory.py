"""Remembered settings: what the player chose last, written back when it changes.

The new-game dialog's choices and the theme picked in the palette are kept in
the settings file, so the next ``reversi`` starts the same way; options on the
command line override them for one run and are not written back. A settings
file that cannot be written turns remembering off with one message.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from reversi_tui.records.paths import StorageError, ensure_private_dir
from reversi_tui.records.settings_file import StoredSettings, save_settings


class SettingsMemory:
    """The stored settings and where they live; ``remember`` writes a change at once."""

    def __init__(
        self,
        path: Path | None,
        stored: StoredSettings | None = None,
        *,
        on_problem: Callable[[str], None] | None = None,
    ) -> None:
        """``path`` None remembers nothing (tests, or no usable config directory)."""
        self.path = path
        self.stored = stored if stored is not None else StoredSettings()
        self.on_problem = on_problem

    def remember(self, **changes: Any) -> None:
        """Store the changed fields of ``StoredSettings``, if any changed."""
        updated = replace(self.stored, **changes)
        if updated == self.stored:
            return
        self.stored = updated
        if self.path is None:
            return
        try:
            ensure_private_dir(self.path.parent)
            save_settings(self.path, updated)
        except StorageError as error:
            self.path = None
            if self.on_problem is not None:
                self.on_problem(f"Settings are not remembered: {error}")
