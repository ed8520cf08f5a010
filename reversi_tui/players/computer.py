"""The computer at a level: a search in a worker thread that stops when the request
is cancelled, so the event loop (and the app's keys) never wait for it."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from reversi_tui.engine import Ply, Position
from reversi_tui.match.settings import PlayerSpec
from reversi_tui.match.sources import MoveRequest, PlayResult

if TYPE_CHECKING:  # the AI is imported when a computer first searches, off the start-up path
    from reversi_tui.engine.ai.result import SearchResult, StopCheck


@dataclass
class Computer:
    """The engine's AI at a level; ``think_time`` overrides the level's budget, and
    ``depth`` searches that deep with no clock, or at most that deep within ``think_time``.

    The search runs in a worker thread and polls a stop flag every thousand nodes,
    so cancelling the request stops it within milliseconds.
    """

    level: str
    think_time: float | None = None
    seed: int | None = None
    #: A fixed search depth instead of the clock (reproducible; the arena uses it).
    depth: int | None = None
    _rng: random.Random = field(init=False, repr=False)

    def __post_init__(self) -> None:
        PlayerSpec.computer(self.level, self.think_time, self.depth)  # validates the values
        self._rng = random.Random(self.seed)

    @property
    def label(self) -> str:
        return f"Computer ({self.level})"

    def search(self, position: Position, should_stop: StopCheck | None = None) -> SearchResult:
        """The full search result (move, score, depth, nodes, seconds); blocking."""
        from reversi_tui.engine.ai import choose_move

        fixed = self.think_time is None
        return choose_move(
            position,
            self.level,
            think_time=self.think_time,
            rng=self._rng,
            should_stop=should_stop,
            depth=self.depth if fixed else None,
            max_depth=None if fixed else self.depth,
        )

    async def play(self, request: MoveRequest) -> PlayResult:
        return await run_search(self.search, request.position)

    def observe(self, ply: Ply) -> None:
        """The search starts from the position each request carries; nothing to keep."""

    async def close(self) -> None:
        """Each search ends with its request; nothing to release."""


Search = Callable[[Position, "StopCheck"], "SearchResult"]


async def run_search(search: Search, position: Position) -> PlayResult:
    """Run a blocking, stoppable search in a thread; cancelling stops the search too."""
    stop = threading.Event()
    try:
        result = await asyncio.to_thread(search, position, stop.is_set)
    except asyncio.CancelledError:
        stop.set()
        raise
    return PlayResult(result.move, result)
