"""An online game as move sources: the match's turn loop needs no case for it.

A ``GameLink`` holds the server's latest ``state`` of one game and makes the two
move sources of a local ``Match``: the user's own side answers a key by sending a
``move`` to the server, and both sides answer with a move only when a ``state``
from the server carries it. So the local board only ever shows moves the server
has committed, whoever played them, and a watcher's match is two remote sources.
A resignation comes the same way: when a state says a side resigned, the side
asked answers with it (``PlayResult.resigned``, or ``opponent_resigned`` when the
other side gave up), whoever resigned and whether the user plays or watches.
Online games start from the usual position, so the number of moves played is the
number of discs on the board minus four: a request says which move it is waiting
for without any bookkeeping. A link is known by its game's origin; it follows the
game when it is resumed on another server under another number, and stops playing
while the game is not on the server (``waiting``) or the server's copy disagrees
with the player's own (``conflict``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime

from reversi_tui.engine import Color, Game, Move, Ply, Position, parse_square, square_name
from reversi_tui.match.record import GameRecord, Result, Termination
from reversi_tui.match.settings import PlayerSpec
from reversi_tui.match.sources import MoveRequest, PlayResult
from reversi_tui.net.protocol import ClientMessage, State, side_name
from reversi_tui.net.protocol import MoveRequest as MoveMessage

Send = Callable[[ClientMessage], bool]


def moves_played(position: Position) -> int:
    """Moves played from the usual start (passes not counted)."""
    return position.black.bit_count() + position.white.bit_count() - 4


def state_moves(state: State) -> list[Move]:
    """The squares of a state's move list, in order."""
    return [parse_square(state.moves[i : i + 2]) for i in range(0, len(state.moves), 2)]


def state_problem(state: State) -> str | None:
    """Why a state from the server cannot be shown (its moves do not replay, a start
    time that is not one), or None: a client never trusts a server to follow the rules."""
    try:
        Game.from_moves(None, state_moves(state))
        datetime.fromisoformat(state.started)
    except ValueError as error:
        return str(error)
    return None


def record_of(state: State) -> GameRecord:
    """A finished online game as a record: the players' moves, how it ended, and its
    real start (kept across servers)."""
    game = Game.from_moves(None, state_moves(state))
    result = None
    outcome = game.position.outcome()
    if state.result is not None and state.result.reason == "resign" and state.result.winner:
        loser = Color.WHITE if state.result.winner == "black" else Color.BLACK
        result = Result.forfeit(loser, Termination.RESIGNATION, outcome)
    players = {Color.BLACK: PlayerSpec.human(), Color.WHITE: PlayerSpec.human()}
    return GameRecord.of(
        game, players, started=datetime.fromisoformat(state.started), result=result
    )


class GameLink:
    """One online game as this client sees it: states in, moves out."""

    def __init__(self, state: State, me: str | None, send: Send, server: str | None) -> None:
        self.origin = state.origin
        self.game = state.game
        #: The server (its store's identity) that holds the game, as far as we know.
        self.server = server
        #: The user at this terminal; None when watching.
        self.me = me
        self.send = send
        self.state = state
        self._moves = state_moves(state)
        #: The sources of the matches showing this game, until each is closed.
        self._sources: list[OnlineSource] = []
        #: Which players have a session, from states and presence messages.
        self.online: dict[str, bool] = dict(state.online)
        #: Why the game cannot be played here now (not on this server yet), or None.
        self.waiting: str | None = None
        #: How the server's copy differs from the player's own, or None.
        self.conflict: str | None = None
        #: Set when the game came back with fewer moves (resumed from the moves both
        #: players had): a screen showing more must start again from ``move_list``.
        self.rewound = False

    @property
    def playable(self) -> bool:
        return self.waiting is None and self.conflict is None

    @property
    def blocked(self) -> str | None:
        """Why the game cannot be played on here, for the player."""
        return self.conflict or self.waiting

    def set_waiting(self, text: str | None) -> None:
        self.waiting = text

    def set_conflict(self, text: str | None) -> None:
        self.conflict = text
        if text is None:
            for source in list(self._sources):
                source.deliver()

    @property
    def my_colour(self) -> Color | None:
        """The side the user here plays (None for a watcher)."""
        if self.me is not None and self.me == self.state.black:
            return Color.BLACK
        if self.me is not None and self.me == self.state.white:
            return Color.WHITE
        return None

    def name(self, colour: Color) -> str:
        return self.state.black if colour is Color.BLACK else self.state.white

    def set_online(self, user: str, online: bool) -> None:
        """A presence message: ``user`` came or went."""
        if user in (self.state.black, self.state.white):
            self.online[user] = online

    def source(self, colour: Color) -> OnlineSource:
        """A new move source of ``colour`` for a match of this game (the user's own
        side is an ``OwnOnlineSource``, a ``LocalInput``); it follows the states until
        it is closed."""
        kind = OwnOnlineSource if colour is self.my_colour else OnlineSource
        source = kind(self, colour)
        self._sources.append(source)
        return source

    def detach(self, source: OnlineSource) -> None:
        """``source`` is closed: no more states for it."""
        if source in self._sources:
            self._sources.remove(source)

    def update(self, state: State, server: str | None) -> None:
        """A newer state of this game (on this server, or resumed on another): wake a
        source waiting for a move it now has."""
        if state.origin != self.origin:
            return
        moved = (server, state.game) != (self.server, self.game)
        if not moved and state.ply < self.state.ply:
            return
        self.rewound = state.ply < len(self._moves)
        self.server, self.game, self.state = server, state.game, state
        self.waiting = None
        self._moves = state_moves(state)
        self.online.update(state.online)
        for source in list(self._sources):
            source.deliver()

    def move_list(self) -> list[Move]:
        """Every move the server has, in order."""
        return list(self._moves)

    def move_at(self, index: int) -> Move | None:
        """Move number ``index`` (from 0) if the server has it."""
        return self._moves[index] if index < len(self._moves) else None

    def play(self, index: int, move: Move) -> bool:
        """Send the user's move; False when it could not be sent (not connected, or the
        game is not playable here now)."""
        if not self.playable:
            return False
        return self.send(MoveMessage(game=self.game, ply=index, square=square_name(move)))

    def resigned(self) -> Color | None:
        """The side that resigned, if the game ended that way."""
        result = self.state.result
        if result is None or result.reason != "resign" or result.winner is None:
            return None
        return Color.WHITE if result.winner == side_name(Color.BLACK) else Color.BLACK


class OnlineSource:
    """One side of an online game as the server's states tell it: the opponent's, or
    either side for a watcher (``OwnOnlineSource`` is the user's own)."""

    #: The user here plays this side.
    local = False

    def __init__(self, link: GameLink, colour: Color) -> None:
        self.link = link
        self.colour = colour
        self._waiting: asyncio.Future[PlayResult] | None = None
        self._index = 0

    @property
    def label(self) -> str:
        """The player's name; ``(away)`` while an opponent has no session."""
        name = self.link.name(self.colour)
        away = not self.local and not self.link.online.get(name, True)
        return f"{name} (away)" if away else name

    def play(self, request: MoveRequest) -> asyncio.Future[PlayResult]:
        waiting: asyncio.Future[PlayResult] = asyncio.get_running_loop().create_future()
        self._waiting = waiting
        self._index = moves_played(request.position)
        self.deliver()
        return waiting

    def deliver(self) -> None:
        """Answer the pending request if the server's state has its move, or says that a
        side resigned (after the moves it has: those are played first)."""
        waiting = self._waiting
        if waiting is None or waiting.done() or self.link.conflict is not None:
            return
        move = self.link.move_at(self._index)
        resigned = self.link.resigned()
        if move is not None:
            answer = PlayResult(move)
        elif resigned is not None:
            mine = resigned is self.colour
            answer = PlayResult(resigned=mine, opponent_resigned=not mine)
        else:
            return
        self._waiting = None
        waiting.set_result(answer)

    def observe(self, ply: Ply) -> None:
        """The server's state is the truth; nothing to keep."""

    async def close(self) -> None:
        """The match is over or closed: stop following the states (the game itself goes
        on, or ends, on the server)."""
        self.link.detach(self)
        waiting, self._waiting = self._waiting, None
        if waiting is not None:
            waiting.cancel()


class OwnOnlineSource(OnlineSource):
    """The user's own side: a key is sent to the server, and played when a state says so."""

    local = True

    @property
    def takes_local_input(self) -> bool:
        """The game can be played on here now."""
        return self.link.playable

    def offer(self, move: Move) -> bool:
        """The user's key: sent to the server, played when the server's state says so."""
        waiting = self._waiting
        if not self.takes_local_input or waiting is None or waiting.done():
            return False
        return self.link.play(self._index, move)
