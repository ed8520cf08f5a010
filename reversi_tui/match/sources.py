"""The move-source interface: every kind of player answers "your move in this position".

Modelled on python-chess's engine protocol: ``play(request)`` returns an
awaitable ``PlayResult`` and is cancelled like any asyncio task (undo, new game,
quit); ``observe`` hears every ply as it is played. The match's turn loop only
ever asks the side to move and applies the answer, so a local human, the
computer, and later a remote user or an external engine are interchangeable.
The kinds themselves live in ``reversi_tui/players.py``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from reversi_tui.engine import Move, Ply, Position
from reversi_tui.match.settings import PlayerSpec

if TYPE_CHECKING:
    from reversi_tui.engine.ai.result import SearchResult


@dataclass(frozen=True, slots=True)
class MoveRequest:
    """One question to a source: the position, and which of the match's requests it is."""

    position: Position
    #: Changes whenever the match moves on; an answer to an older request is dropped.
    token: int


@dataclass(frozen=True, slots=True)
class PlayResult:
    """A source's answer: the move, and for a computer how it found it."""

    move: Move
    search: SearchResult | None = None


class MoveSource(Protocol):
    """Anything that can play a side."""

    @property
    def label(self) -> str:
        """How the sidebar and messages name this player."""
        ...

    @property
    def takes_local_input(self) -> bool:
        """A person at this terminal answers: show them legal moves, hints and previews."""
        ...

    def play(self, request: MoveRequest) -> Awaitable[PlayResult]:
        """The move for ``request.position``; cancelled when the match moves on.

        Usually an ``async def``; a source whose answer comes from outside (a key, a
        message) may return a future it resolves later.
        """
        ...

    def offer(self, move: Move) -> bool:
        """A move typed or clicked at this terminal; True when it answers a pending request."""
        ...

    def observe(self, ply: Ply) -> None:
        """A ply was played (by either side, passes included)."""
        ...


#: Makes the source for one side from its spec and that side's seed.
SourceFactory = Callable[[PlayerSpec, int | None], MoveSource]
