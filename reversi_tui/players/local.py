"""A person at this terminal: a key or a click answers the request for a move."""

from __future__ import annotations

import asyncio

from reversi_tui.engine import Move, Ply
from reversi_tui.match.sources import MoveRequest, PlayResult


class LocalHuman:
    """A person at this terminal (a ``LocalInput``): a key or a click (``offer``) answers
    the pending request."""

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

    async def close(self) -> None:
        """Nothing to release."""
