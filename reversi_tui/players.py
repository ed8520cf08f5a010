"""The kinds of player, each a ``MoveSource`` (see ``match/sources.py``).

A local human's request is answered by a key or a click (``offer``); the
computer's by a search in a worker thread that stops when the request is
cancelled. A remote user and an external engine will be two more kinds.
"""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from reversi_tui.engine import Move, Ply, Position
from reversi_tui.match.settings import PlayerKind, PlayerSpec
from reversi_tui.match.sources import MoveRequest, MoveSource, PlayResult

if TYPE_CHECKING:  # the AI is imported when a computer first searches, off the start-up path
    from reversi_tui.engine.ai.result import SearchResult, StopCheck


class LocalHuman:
    """A person at this terminal: a key or a click (``offer``) answers the pending request."""

    takes_local_input = True

    def __init__(self, name: str = "Human") -> None:
        self.label = name
        self._waiting: asyncio.Future[PlayResult] | None = None

    def play(self, request: MoveRequest) -> asyncio.Future[PlayResult]:
        """A future that the next ``offer`` resolves; it exists as soon as the request does,
        so a key pressed at once is never lost."""
        waiting: asyncio.Future[PlayResult] = asyncio.get_running_loop().create_future()
        self._waiting = waiting
        waiting.add_done_callback(self._forget)
        return waiting

    def _forget(self, waiting: asyncio.Future[PlayResult]) -> None:
        if self._waiting is waiting:  # a later request may already be waiting
            self._waiting = None

    def offer(self, move: Move) -> bool:
        waiting = self._waiting
        if waiting is None or waiting.done():
            return False
        waiting.set_result(PlayResult(move))
        return True

    def observe(self, ply: Ply) -> None:
        """A person sees the board; nothing to keep."""


@dataclass
class Computer:
    """The engine's AI at a level; ``think_time`` overrides the level's budget.

    The search runs in a worker thread and polls a stop flag every thousand nodes,
    so cancelling the request stops it within milliseconds.
    """

    level: str
    think_time: float | None = None
    seed: int | None = None
    #: A fixed search depth instead of the clock (reproducible; the arena uses it).
    depth: int | None = None
    takes_local_input = False
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

        return choose_move(
            position,
            self.level,
            think_time=self.think_time,
            rng=self._rng,
            should_stop=should_stop,
            depth=self.depth,
        )

    async def play(self, request: MoveRequest) -> PlayResult:
        return await run_search(self.search, request.position)

    def offer(self, move: Move) -> bool:
        return False

    def observe(self, ply: Ply) -> None:
        """The search starts from the position each request carries; nothing to keep."""


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


def make_source(spec: PlayerSpec, seed: int | None = None) -> MoveSource:
    """The standard source for a spec: a local human, or the computer at its level."""
    if spec.kind is PlayerKind.HUMAN:
        return LocalHuman()
    return Computer(spec.level, spec.think_time, seed, spec.depth)
