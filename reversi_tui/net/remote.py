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
with the player's own (``conflict``). A timed game's clocks tick here from the
latest state (``clocks``), a move says how long its player thought (``think_ms``,
so the time on the wire is not charged), and an absent opponent's time away counts
towards the grace after which the game may be claimed (``claim_in``).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from datetime import datetime

from reversi_tui.engine import Color, Game, Move, Ply, Position, parse_square, square_name
from reversi_tui.match.record import GameRecord, Result, Termination
from reversi_tui.match.settings import PlayerSpec
from reversi_tui.match.sources import MoveRequest, PlayResult
from reversi_tui.net.clocks import ClockFace
from reversi_tui.net.protocol import (
    ABANDON_GRACE,
    ABORT_MOVES,
    ClientMessage,
    MoveMessage,
    State,
    side_color,
    side_name,
)
from reversi_tui.records.online_facts import OnlineFacts

Send = Callable[[ClientMessage], bool]
#: This client's monotonic time, in seconds (a fake one in tests).
Now = Callable[[], float]

#: How a state's ``result.reason`` ends a game before the board does.
_TERMINATIONS = {
    "resign": Termination.RESIGNATION,
    "time": Termination.TIME_FORFEIT,
    "abandoned": Termination.DISCONNECTION,
}


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


def result_of(state: State) -> Result | None:
    """How a finished online game ended when the board did not decide it: resigned,
    out of time, or claimed after a player left (won, or drawn); None otherwise."""
    ended = state.result
    if ended is None or ended.reason not in _TERMINATIONS:
        return None
    outcome = Game.from_moves(None, state_moves(state)).position.outcome()
    termination = _TERMINATIONS[ended.reason]
    if ended.winner is None:
        if termination is not Termination.DISCONNECTION:
            return None  # only a claim on a disconnection is drawn; trust the board
        return Result.abandoned_draw(outcome)
    loser = Color.WHITE if ended.winner == "black" else Color.BLACK
    return Result.forfeit(loser, termination, outcome)


def record_of(state: State) -> GameRecord:
    """A finished online game as a record: the players' moves, how it ended (the
    board, a resignation, a flag, a claim), and its real start (kept across servers)."""
    game = Game.from_moves(None, state_moves(state))
    players = {Color.BLACK: PlayerSpec.human(), Color.WHITE: PlayerSpec.human()}
    return GameRecord.of(
        game, players, started=datetime.fromisoformat(state.started), result=result_of(state)
    )


def online_facts(state: State) -> OnlineFacts:
    """What the records keep of a finished online game: rated or not, its clock, and
    for a rated game each player's rating after it and the change."""
    clock = state.clock
    control = None if clock is None else (clock.minutes, clock.increment)
    ratings: dict[Color, tuple[int, int]] | None = None
    provisional: frozenset[Color] = frozenset()
    change = None if state.result is None else state.result.rating_change
    names = {Color.BLACK: state.black, Color.WHITE: state.white}
    if (
        state.rated
        and change is not None
        and all(names[c] in state.ratings and names[c] in change for c in Color)
    ):
        ratings = {c: (state.ratings[names[c]].rating, change[names[c]]) for c in Color}
        provisional = frozenset(c for c in Color if state.ratings[names[c]].provisional)
    return OnlineFacts(state.rated, control, ratings, provisional)


class GameLink:
    """One online game as this client sees it: states in, moves out."""

    def __init__(
        self,
        state: State,
        me: str | None,
        send: Send,
        server: str | None,
        *,
        now: Now = time.monotonic,
    ) -> None:
        self.now = now
        #: When the latest state arrived here (``now``): clocks and absences count from it.
        self.received = now()
        #: When the user's turn began here, for the ``think_ms`` a move reports.
        self._turn_began: float | None = None
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
        self._note_turn(state)

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
        turn_before = (self.state.ply, self.state.turn)
        self.server, self.game, self.state = server, state.game, state
        self.received = self.now()
        if (state.ply, state.turn) != turn_before:
            self._note_turn(state)
        self.waiting = None
        self._moves = state_moves(state)
        self.online.update(state.online)
        for source in list(self._sources):
            source.deliver()

    def _note_turn(self, state: State) -> None:
        mine = self.my_colour
        if mine is not None and state.turn == side_name(mine):
            self._turn_began = self.now()
        else:
            self._turn_began = None

    @property
    def aborted(self) -> bool:
        """The game ended with no result (before both players made two moves)."""
        return self.state.result is not None and self.state.result.reason == "aborted"

    @property
    def may_abort(self) -> bool:
        """The user plays this game, in progress and playable here, and has made fewer
        than ``ABORT_MOVES`` moves in it (the server's rule)."""
        mine = self.my_colour
        if mine is None or self.state.status != "active" or not self.playable:
            return False
        game = Game.from_moves(None, self._moves)
        colour, made = Color.BLACK, 0
        for move in game.moves:  # passes are in the engine's list, not the server's
            made += move >= 0 and colour is mine
            colour = colour.opponent
        return made < ABORT_MOVES

    @property
    def my_turn(self) -> bool:
        """The user plays this game and is to move in it."""
        mine = self.my_colour
        return mine is not None and self.state.turn == side_name(mine) and self.playable

    @property
    def clocks(self) -> ClockFace | None:
        """The game's clocks as last read, ticking from when that reading arrived."""
        clock = self.state.clock
        if clock is None:
            return None
        running = None if clock.running is None else side_color(clock.running)
        return ClockFace(
            clock.black_ms, clock.white_ms, running, self.received, clock.minutes, clock.increment
        )

    def away_for(self, user: str) -> float | None:
        """Seconds ``user`` (a player) has been gone, or None while they have a session."""
        if self.online.get(user, True):
            return None
        gone = self.state.away_ms.get(user)
        base = 0.0 if gone is None else gone / 1000
        return base + max(0.0, self.now() - self.received)

    def claim_in(self) -> float | None:
        """For a player whose opponent has gone: seconds until the game may be claimed
        (0: now); None when there is nothing to claim (opponent here, game over)."""
        mine = self.my_colour
        if mine is None or self.state.status != "active" or not self.playable:
            return None
        gone = self.away_for(self.name(mine.opponent))
        if gone is None:
            return None
        return max(0.0, ABANDON_GRACE - gone)

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
        began = self._turn_began
        timed = self.state.clock is not None
        think = None if began is None or not timed else max(0, round((self.now() - began) * 1000))
        message = MoveMessage(game=self.game, ply=index, square=square_name(move), think_ms=think)
        return self.send(message)

    def resigned(self) -> Color | None:
        """The side that resigned, if the game ended that way."""
        result = self.state.result
        if result is None or result.reason != "resign" or result.winner is None:
            return None
        return Color.WHITE if result.winner == side_name(Color.BLACK) else Color.BLACK

    def ended_otherwise(self) -> Result | None:
        """How the game ended when neither the board nor a resignation ended it (a flag
        fell, a player left and the other claimed it), or None."""
        result = self.state.result
        if result is None or result.reason not in ("time", "abandoned"):
            return None
        return result_of(self.state)


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
        ended = self.link.ended_otherwise()
        if move is not None:
            answer = PlayResult(move)
        elif ended is not None:
            answer = PlayResult(ended=ended)
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
