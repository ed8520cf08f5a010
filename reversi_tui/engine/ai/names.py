"""The computer's level names, weakest first: the one definition every part imports.

A module of its own so that the command line and the settings can name the
levels without paying for the AI's tables (``levels.py`` builds its table on it).
"""

from __future__ import annotations

from typing import Final

LEVEL_NAMES: Final = ("easy", "medium", "hard", "expert")
