"""The move-source interface: every kind of player answers "your move in this position".

Modelled on python-chess's engine protocol: ``play(request)`` returns an
awaitable ``PlayResult`` (a move, or a resignation) and is cancelled like any
asyncio task (undo, new game, quit); ``observe`` hears every ply as it is played;
``close`` is the match's last word to a source (python-chess's ``quit``). The
match's turn loop only ever asks the side to move and applies the answer, so a
local human, the computer, an external engine and an online player are
interchangeable. A source that a person at this terminal answers (a key, a click)
is also a ``LocalInput``. The kinds themselves live in the ``reversi_tui/players``
package and ``reversi_tui/net/remote.py``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from reversi_tui.engine import Move, Ply, Position
from reversi_tui.match.settings import PlayerSpec

if TYPE_CHECKING:
    from reversi_tui.engine.ai.result import SearchResult
    from reversi_tui.match.record import Result


@dataclass(frozen=True, slots=True)
class MoveRequest:
    """One question to a source: the position, which of the match's requests it is, and
    the game that led there (for a source that replays it, as an external engine does:
    undo, redo and a game opened part-way are never ``observe``d)."""

    position: Position
    #: Changes whenever the match moves on; an answer to an older request is dropped.
    token: int
    #: The game's start (None: ``position`` itself, with no plies before it).
    start: Position | None = None
    #: Every ply from ``start`` to ``position``, forced passes included.
    plies: tuple[Ply, ...] = ()

    @property
    def game_start(self) -> Position:
        return self.position if self.start is None else self.start


class SourceFailed(Exception):
    """A source cannot answer (an engine that would not start, exited, hung or answered
    nonsense): ``str()`` says why in one line. The match keeps the game and stops
    asking (``Match.failure``); another player can take the side (``Match.replace_player``)."""


@dataclass(frozen=True, slots=True)
class PlayResult:
    """A source's answer: a move (and for a computer how it found it), or a resignation.

    ``resigned``: the side asked gives up. ``opponent_resigned``: the other side
    gave up while this one was to move, for a source that speaks for the whole
    game (online, the server's state says so). ``ended``: the game ended some other
    way before the board did, as such a source was told (a flag fell, a player left
    and the other claimed the game). With any of these, ``move`` is ignored.
    """

    move: Move | None = None
    search: SearchResult | None = None
    resigned: bool = False
    opponent_resigned: bool = False
    ended: Result | None = None

    def __post_init__(self) -> None:
        if self.move is None and not (self.resigned or self.opponent_resigned or self.ended):
            raise ValueError("an answer needs a move unless the game ends")


class MoveSource(Protocol):
    """Anything that can play a side.

    Its life cycle is the match's: requests (``play``, each cancelled when the
    match moves on) and plies (``observe``) for as long as the match runs, then
    ``close`` exactly once, when the game is over or the match is closed.
    """

    @property
    def label(self) -> str:
        """How the sidebar and messages name this player."""
        ...

    def play(self, request: MoveRequest) -> Awaitable[PlayResult]:
        """The answer for ``request.position``; cancelled when the match moves on.

        Usually an ``async def``; a source whose answer comes from outside (a key, a
        message) may return a future it resolves later.
        """
        ...

    def observe(self, ply: Ply) -> None:
        """A ply was played (by either side, passes included)."""
        ...

    async def close(self) -> None:
        """The match is over or closed: release what the source holds (no more requests)."""
        ...


@runtime_checkable
class LocalInput(Protocol):
    """A source that a person at this terminal answers: the match shows them legal
    moves, hints and previews, and passes their keys and clicks on with ``offer``."""

    @property
    def takes_local_input(self) -> bool:
        """The person here can answer now (an online side: while the game is playable)."""
        ...

    def offer(self, move: Move) -> bool:
        """A move typed or clicked at this terminal; True when it answers a pending request."""
        ...


def local_input(source: MoveSource) -> LocalInput | None:
    """``source`` as a person here's way in, when they answer it now; else None."""
    if isinstance(source, LocalInput) and source.takes_local_input:
        return source
    return None


#: Makes the source for one side from its spec and that side's seed.
SourceFactory = Callable[[PlayerSpec, int | None], MoveSource]
