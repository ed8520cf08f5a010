"""Computer opponents: ``choose_move`` at a level, and ``hint`` for the player.

Everything here is pure computation: the callers (line mode, TUI worker, arena)
decide where it runs and stop it through ``should_stop`` (any callable, such as
a ``threading.Event``'s ``is_set``).
"""

from __future__ import annotations

from reversi_tui.engine.ai.levels import LEVELS, Level, get_level
from reversi_tui.engine.ai.play import choose_move, hint
from reversi_tui.engine.ai.result import SearchCancelled, SearchResult, StopCheck

__all__ = [
    "LEVELS",
    "Level",
    "SearchCancelled",
    "SearchResult",
    "StopCheck",
    "choose_move",
    "get_level",
    "hint",
]
