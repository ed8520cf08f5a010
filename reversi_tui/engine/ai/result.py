"""What every search returns, and how it reports a cancelled search."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from reversi_tui.engine.board import Move

#: Polled by long searches every few thousand nodes; True means stop now.
StopCheck = Callable[[], bool]


class SearchCancelled(Exception):
    """Raised out of a search when its stop check said so."""


@dataclass(frozen=True, slots=True)
class SearchResult:
    """A chosen move and how it was found.

    ``score`` is from the side to move's point of view on the scale of the final
    disc difference (empties to the winner): exact when ``exact`` is true, an
    estimate otherwise. ``move`` is ``PASS`` when there is no legal move.
    """

    move: Move
    score: float
    depth: int
    nodes: int
    seconds: float
    exact: bool = False
