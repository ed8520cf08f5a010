"""Computer opponents: ``choose_move`` at a level, and ``hint`` for the player.

Everything here is pure computation: the callers (line mode, TUI worker, arena)
decide where it runs and stop it through ``should_stop`` (any callable, such as
a ``threading.Event``'s ``is_set``).

The names below load on first use (PEP 562), so importing a light module of the
package, such as ``names``, does not build the evaluation tables (about 80 ms).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from reversi_tui.engine.ai.names import LEVEL_NAMES

if TYPE_CHECKING:
    from reversi_tui.engine.ai.levels import LEVELS, Level, get_level
    from reversi_tui.engine.ai.play import choose_move, hint, rank_moves
    from reversi_tui.engine.ai.result import SearchCancelled, SearchResult, StopCheck

__all__ = [
    "LEVELS",
    "LEVEL_NAMES",
    "Level",
    "SearchCancelled",
    "SearchResult",
    "StopCheck",
    "choose_move",
    "get_level",
    "hint",
    "rank_moves",
]

_HOMES = {
    "LEVELS": "levels",
    "Level": "levels",
    "get_level": "levels",
    "choose_move": "play",
    "hint": "play",
    "rank_moves": "play",
    "SearchCancelled": "result",
    "SearchResult": "result",
    "StopCheck": "result",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{home}"), name)
