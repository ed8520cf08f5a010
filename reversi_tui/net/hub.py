"""The server's authority: sessions, presence, challenges, games and their audiences.

No sockets here: a ``Peer`` is anything with a user name and a way to take a line,
so the rules are tested without a network. Every request is checked before
anything changes, and a refused one changes nothing. A move is committed to the
store before any state is sent; games are held in memory as engine ``Game``s,
rebuilt on start by replaying the stored moves (the engine forces the passes). A
stored game whose moves do not replay is set aside (kept, out of play, its players
told in ``welcome``) so that it cannot keep the others from being served.

Games are known by their ``origin`` (the server and number they began with), and
the players' clients keep their own copies: when a server does not hold a game
(its server died with its store), each player's client presents its copy with
``resume``, and the game is re-created only when both players' copies agree, never
on one player's word.

Timed games keep their clocks here, on the injected monotonic ``clock``: a move is
charged when it arrives (what the client says it thought, within ``LAG_ALLOWANCE`` of
the server's measure) and the clocks change when it is committed; ``tick`` ends the
games whose flag fell and ``next_deadline`` says when to call it next. Rated games
update Glicko-2 ratings (``glicko``), recomputed from the stored games on start.
Sessions say where their user is (``activity``); ``flush_lobby`` pushes the lobby,
once per batch of changes, to the sessions in the lobby.

The hub logs through ``logging`` (the logger ``reversi_tui.net.hub``), one line per
event: sessions and games at info, refusals and set-aside games at warning, and
what the store could not record at error.
"""

from __future__ import annotations

import logging
import math
import random
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Protocol, TypeVar, assert_never

import msgspec

from reversi_tui.engine import Color, Game, IllegalMoveError, parse_square, square_name
from reversi_tui.engine.notation import NotationError
from reversi_tui.match.record import Result, Termination
from reversi_tui.net import protocol
from reversi_tui.net.glicko import Glicko, rate_game
from reversi_tui.net.protocol import (
    ActivityStatus,
    ChallengeInfo,
    ClientMessage,
    ErrorCode,
    RequestId,
    State,
    TimeControl,
    side_name,
)
from reversi_tui.net.store import (
    MoveRow,
    ServerGame,
    StaleMove,
    Store,
    StoredChallenge,
    StoreError,
)

logger = logging.getLogger(__name__)

#: How present each activity is: a user's status is their most present session's.
_PRESENCE: dict[str, int] = {"online": 3, "lobby": 2, "local": 1, "away": 0}
#: Finished games whose chat is kept (in memory), the most recent first out last.
FINISHED_CHATS = 500
#: Users (and games) whose recent chat lines are counted before the quiet ones are swept.
CHAT_TRACKED = 1000
#: Black's score in a game by its winner (None: a draw).
_BLACK_SCORE: dict[str | None, float] = {"black": 1.0, "white": 0.0, None: 0.5}


class Peer(Protocol):
    """One connection, as the hub sees it."""

    @property
    def user(self) -> str: ...

    def send_line(self, line: bytes) -> None:
        """Queue one encoded message (newline included)."""
        ...


@dataclass(eq=False)
class LiveGame:
    """A game the server holds: the engine's game, its clocks and who follows it."""

    id: int
    black: str
    white: str
    game: Game
    origin: str
    #: When the game began (ISO 8601, UTC).
    started: str
    #: How it ended before the board did (resigned, out of time, abandoned), or None.
    ended: Result | None = None
    watchers: set[Peer] = field(default_factory=set)
    #: A checked move waiting for the next group commit: (peer, re, ply, square, the
    #: mover's time left after it in ms or None).
    pending: tuple[Peer, RequestId | None, int, int, int | None] | None = None
    #: The time control (None: untimed).
    control: TimeControl | None = None
    rated: bool = False
    #: Each side's time left (ms) when the current turn began: [black, white].
    left: list[int] = field(default_factory=lambda: [0, 0])
    #: When the current turn began, on the hub's clock (seconds).
    turn_began: float = 0.0
    #: Each player's rating difference, once a rated game has ended.
    rating_change: dict[str, int] | None = None
    #: Ended before both players made ``ABORT_MOVES`` moves: no result, no rating.
    aborted: bool = False

    @classmethod
    def of(cls, stored: ServerGame, game: Game, now: float) -> LiveGame:
        """The game as stored; a timed one's clocks as its moves left them, the side to
        move's running from ``now``."""
        live = cls(
            stored.id,
            stored.black,
            stored.white,
            game,
            stored.origin,
            stored.created.astimezone(UTC).isoformat(),
            _ended(stored, game),
            rated=stored.rated,
            turn_began=now,
            aborted=stored.end_reason == "aborted",
        )
        if stored.clock is not None:
            minutes, increment = stored.clock
            live.control = TimeControl(minutes=minutes, increment=increment)
            live.left = [minutes * 60_000, minutes * 60_000]
            for colour, left_ms in zip(_movers(game), stored.left_ms, strict=False):
                if left_ms is not None:
                    live.left[colour] = left_ms
            if stored.end_reason == "time" and stored.winner is not None:
                live.left[protocol.side_color(stored.winner).opponent] = 0
        return live

    @property
    def over(self) -> bool:
        return self.ended is not None or self.aborted or self.game.is_over

    def moves_of(self, colour: Color) -> int:
        """How many moves ``colour`` has played (passes not counted)."""
        return _movers(self.game).count(colour)

    @property
    def early(self) -> bool:
        """A player has made fewer than ``ABORT_MOVES`` moves: an end now is an abort
        (a game decided in two plies, or resigned at once to farm a rating, says nothing)."""
        return min(self.moves_of(c) for c in Color) < protocol.ABORT_MOVES

    @property
    def forfeit(self) -> Result | None:
        """The result when the game ended before the board did (None otherwise)."""
        return self.ended

    @property
    def ply(self) -> int:
        """Moves played, passes not counted."""
        return len(self.game.moves) - _passes(self.game)

    def player(self, user: str) -> Color | None:
        if user == self.black:
            return Color.BLACK
        if user == self.white:
            return Color.WHITE
        return None

    def name(self, colour: Color) -> str:
        return self.black if colour is Color.BLACK else self.white

    def opponent(self, colour: Color) -> str:
        return self.name(colour.opponent)

    @property
    def deadline(self) -> float | None:
        """When the side to move's flag falls (None: untimed or over)."""
        if self.control is None or self.over:
            return None
        return self.turn_began + self.left[self.game.turn] / 1000

    def left_at(self, colour: Color, now: float) -> int:
        """``colour``'s time left at ``now``, in ms (never below 0)."""
        left = self.left[colour]
        if not self.over and self.game.turn is colour:
            left -= round((now - self.turn_began) * 1000)
        return max(0, left)

    def charge(self, now: float, think_ms: int | None) -> int:
        """The mover's time left after a move made at ``now``, increment included: the
        time since the turn began, less what the client's ``think_ms`` says was the
        wire's, at most ``LAG_ALLOWANCE`` of it."""
        assert self.control is not None
        elapsed = max(0, round((now - self.turn_began) * 1000))
        charged = elapsed
        if think_ms is not None:
            lag = round(protocol.LAG_ALLOWANCE * 1000)
            charged = max(elapsed - lag, min(elapsed, think_ms))
        return self.left[self.game.turn] - charged + self.control.increment * 1000

    def clock_at(self, now: float) -> protocol.Clock | None:
        if self.control is None:
            return None
        return protocol.Clock(
            black_ms=self.left_at(Color.BLACK, now),
            white_ms=self.left_at(Color.WHITE, now),
            running=None if self.over else side_name(self.game.turn),
            minutes=self.control.minutes,
            increment=self.control.increment,
        )


@dataclass(frozen=True)
class Claim:
    """One player's copy of a game the server does not hold, waiting for the other's."""

    user: str
    black: str
    white: str
    started: datetime
    moves: tuple[int, ...]
    #: The clocks in the copy's last state (None: untimed), and whether it is rated.
    clock: protocol.Clock | None = None
    rated: bool = False


class Hub:
    """All the server's state and rules."""

    def __init__(
        self,
        store: Store,
        *,
        rng: random.Random | None = None,
        defer: Callable[[Callable[[], None]], object] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``defer`` runs a callable soon (the event loop's ``call_soon``): moves checked
        meanwhile are committed together. None commits each move at once. ``clock``
        (monotonic seconds) times the challenges' expiry, the clocks of timed games and
        how long players have been gone."""
        self.store = store
        self.server_id = store.server_id
        self.defer = defer
        self.clock = clock
        self._batch: list[LiveGame] = []
        self.rng = rng or random.Random()
        self.peers: dict[str, list[Peer]] = {}
        self.waiting: set[str] = set()
        self.games: dict[int, LiveGame] = {}
        self.challenges: dict[int, StoredChallenge] = {}
        #: When each pending challenge was made, on ``clock``.
        self._made: dict[int, float] = {}
        #: Copies of games this server does not hold, waiting for the other player's: by
        #: (origin, black, white), then by the player who presented it. A claim naming
        #: other players is another key, so nobody can block a game they do not play.
        self.claims: dict[tuple[str, str, str], dict[str, Claim]] = {}
        #: Games whose moves do not replay, by origin: kept, out of play.
        self.set_aside: dict[str, ServerGame] = {g.origin: g for g in store.set_aside_games()}
        #: Where each session is (``activity``), and the lobby line each was sent last.
        self.activity: dict[Peer, ActivityStatus] = {}
        self._lobby_sent: dict[Peer, bytes] = {}
        self._lobby_dirty = False
        #: When each user's last session left, on ``clock``; users not seen since the
        #: hub started count as gone since then.
        self._born = clock()
        self._gone: dict[str, float] = {}
        #: Users gone because their last session was dropped for not reading.
        self._stalled: set[str] = set()
        #: The last ``CHAT_HISTORY`` lines of each game's chat (in memory only); those of
        #: finished games are kept for the ``FINISHED_CHATS`` most recent.
        self.chats: dict[int, deque[protocol.ChatLine]] = {}
        self._finished_chats: OrderedDict[int, None] = OrderedDict()
        #: When each user's recent chat lines were said, and each game's watchers' lines.
        self._chat_said: dict[str, deque[float]] = {}
        self._watchers_said: dict[int, deque[float]] = {}
        #: Glicko-2 ratings by user, and each rated game's rating changes, recomputed
        #: from the stored rated games in the order they ended.
        self.ratings: dict[str, Glicko] = {}
        self.rating_changes: dict[int, dict[str, int]] = {}
        for rated in store.rated_games():
            score = _BLACK_SCORE[rated.winner]
            self._apply_ratings(rated.id, self._new_ratings(rated.black, rated.white, score))
        for challenge in store.pending_challenges():
            # Their challengers left with the last server: a challenge lives with its sender.
            store.close_challenge(challenge.id)
        if pruned := store.prune_challenges():
            logger.info(f"{pruned} closed challenges pruned from the store")
        for stored in store.games(unfinished_only=True):
            try:
                game = Game.from_moves(None, stored.moves)
            except IllegalMoveError as error:
                self._set_aside(stored, f"its moves do not replay ({error})")
                continue
            self.games[stored.id] = LiveGame.of(stored, game, self._born)

    def _set_aside(self, stored: ServerGame, reason: str) -> None:
        self.set_aside[stored.origin] = replace(stored, set_aside=reason)
        what = f"game {stored.id} ({stored.black} against {stored.white}) set aside: {reason}"
        try:
            self.store.set_aside(stored.id, reason)
        except StoreError as error:
            logger.error(f"{what}; the store cannot record that: {error}")
            return
        logger.warning(what)

    # Sessions -----------------------------------------------------------------------
    def sessions(self, user: str) -> list[Peer]:
        return self.peers.get(user, [])

    def online(self, user: str) -> bool:
        return bool(self.peers.get(user))

    def join(self, peer: Peer, re: RequestId | None) -> None:
        """A session said hello: welcome it, and tell everyone if its user just came."""
        self._expire()
        first = not self.online(peer.user)
        before = self._status(peer.user)
        self.peers.setdefault(peer.user, []).append(peer)
        user = peer.user
        self.activity[peer] = "lobby"
        self._gone.pop(user, None)
        self._stalled.discard(user)
        mine = [g for g in self.games.values() if g.player(user) is not None and not g.over]
        challenges = [
            _challenge_info(c) for c in self.challenges.values() if user in (c.challenger, c.target)
        ]
        set_aside = [
            protocol.SetAside(
                game=g.id, origin=g.origin, black=g.black, white=g.white, reason=g.set_aside or ""
            )
            for g in self.set_aside.values()
            if user in (g.black, g.white)
        ]
        welcome = protocol.Welcome(
            version=protocol.VERSION,
            user=user,
            server=self.server_id,
            games=[self.state(g) for g in mine],
            challenges=challenges,
            set_aside=set_aside,
            re=re,
        )
        peer.send_line(protocol.encode(welcome))
        budget = protocol.HISTORY_BUDGET
        for live in mine:
            budget -= self._send_history(peer, live, budget)
        self._lobby_dirty = True
        if first:
            logger.info(f"{user} is online")
        if first or self._status(user) != before:
            self._presence(user)

    def leave(self, peer: Peer, *, stalled: bool = False) -> None:
        """A connection ended (or never said hello); ``stalled``: the server dropped it
        for not reading, which a player's own leaving it is not."""
        sessions = self.peers.get(peer.user)
        if sessions is None or peer not in sessions:
            return
        before = self._status(peer.user)
        sessions.remove(peer)
        self.activity.pop(peer, None)
        self._lobby_sent.pop(peer, None)
        self._lobby_dirty = True
        for game in self.games.values():
            game.watchers.discard(peer)
        if sessions and self._status(peer.user) != before:
            self._presence(peer.user)
        if not sessions:
            user = peer.user
            del self.peers[user]
            self._gone[user] = self.clock()
            if stalled:
                self._stalled.add(user)
            self.waiting.discard(user)
            logger.info(f"{user} is offline")
            for challenge in list(self.challenges.values()):
                if challenge.challenger == user:
                    self._close(challenge, "expired")
            for key, by_user in list(self.claims.items()):
                by_user.pop(user, None)
                if not by_user:
                    del self.claims[key]
            self._presence(user)

    # Requests -----------------------------------------------------------------------
    def handle(self, peer: Peer, message: ClientMessage) -> None:
        """One request of a welcomed session."""
        self._expire()
        re = message.id
        match message:
            case protocol.Ping():
                self._reply(peer, protocol.Pong(re=re))
            case protocol.LobbyRequest():
                lobby = self.lobby()
                self._lobby_sent[peer] = protocol.encode(lobby)
                self._reply(peer, msgspec.structs.replace(lobby, re=re))
            case protocol.Wait(on=on):
                if on:
                    self.waiting.add(peer.user)
                else:
                    self.waiting.discard(peer.user)
                self._lobby_dirty = True
                self._presence(peer.user, asker=peer, re=re)
            case protocol.Activity(status=status):
                self._activity(peer, status, re)
            case protocol.ClaimRequest():
                self._claim(peer, message)
            case protocol.Rematch():
                self._rematch(peer, message)
            case protocol.Challenge():
                self._challenge(peer, message)
            case protocol.Accept() | protocol.Decline() | protocol.Cancel():
                self._answer(peer, message)
            case protocol.MoveMessage():
                self._move(peer, message)
            case protocol.Resign():
                self._resign(peer, message)
            case protocol.Abort():
                self._abort(peer, message)
            case protocol.Watch() | protocol.Unwatch():
                self._watch(peer, message)
            case protocol.ChatRequest():
                self._chat(peer, message)
            case protocol.Resume():
                self._resume(peer, message)
            case protocol.Hello():
                self._error(peer, ErrorCode.BAD_MESSAGE, "hello is said once, at the start", re)
            case _:  # mypy fails here when a new ClientMessage has no case above
                assert_never(message)

    def lobby(self, re: RequestId | None = None) -> protocol.LobbyReply:
        active = [g for g in self.games.values() if not g.over]
        playing = {u for g in active for u in (g.black, g.white)}
        players = [
            protocol.PlayerInfo(
                user=u,
                waiting=u in self.waiting,
                playing=u in playing,
                status=self._status(u) or "away",
                rating=self.rating(u),
            )
            for u in sorted(self.peers)
        ]
        games = [
            protocol.GameInfo(
                game=g.id,
                black=g.black,
                white=g.white,
                ply=g.ply,
                spectators=len(g.watchers),
                clock=g.control,
                rated=g.rated,
                turn=side_name(g.game.turn),
            )
            for g in sorted(active, key=lambda g: g.id)
        ]
        return protocol.LobbyReply(players=players, games=games, re=re)

    def flush_lobby(self) -> None:
        """Push the lobby to every session in the lobby if it changed since the last
        flush, skipping a session whose last lobby was the same: the server calls this
        after each batch of messages (and timers), so changes are coalesced."""
        if not self._lobby_dirty:
            return
        self._lobby_dirty = False
        targets = [p for p, status in self.activity.items() if status == "lobby"]
        if not targets:
            return
        line = protocol.encode(self.lobby())
        for peer in targets:
            if self._lobby_sent.get(peer) != line:
                self._lobby_sent[peer] = line
                peer.send_line(line)

    # Activity and presence ----------------------------------------------------------
    def _status(self, user: str) -> ActivityStatus | None:
        """The most present activity of ``user``'s sessions (None: offline)."""
        statuses: list[ActivityStatus] = [
            self.activity.get(p, "lobby") for p in self.sessions(user)
        ]
        if not statuses:
            return None
        return max(statuses, key=_presence)

    def _activity(self, peer: Peer, status: ActivityStatus, re: RequestId | None = None) -> None:
        """Where ``peer`` is: everyone hears of a change of the user's status; the asker
        (with ``re``) always gets the user's presence."""
        before = self._status(peer.user)
        if self.activity.get(peer) != status:
            self.activity[peer] = status
            self._lobby_dirty = True
        if self._status(peer.user) != before:
            self._presence(peer.user, asker=peer, re=re)
        elif re is not None:
            self._reply(peer, msgspec.structs.replace(self._presence_of(peer.user), re=re))

    def gone_for(self, user: str) -> float | None:
        """Seconds since ``user``'s last session left (None: online)."""
        if self.online(user):
            return None
        return self.clock() - self._gone.get(user, self._born)

    # Ratings ------------------------------------------------------------------------
    def rating(self, user: str) -> protocol.Rating:
        """``user``'s rating on this server, as the protocol sends it."""
        glicko = self.ratings.get(user)
        if glicko is None:
            return protocol.NEW_RATING
        return protocol.Rating(
            rating=round(glicko.rating),
            deviation=round(glicko.deviation),
            provisional=glicko.deviation >= protocol.PROVISIONAL_DEVIATION,
        )

    def _new_ratings(self, black: str, white: str, black_score: float) -> dict[str, Glicko]:
        """Both players' ratings after one rated game (nothing changes yet)."""
        after = rate_game(
            self.ratings.get(black, Glicko()), self.ratings.get(white, Glicko()), black_score
        )
        return {black: after[0], white: after[1]}

    def _apply_ratings(self, game_id: int, after: dict[str, Glicko]) -> None:
        """Take the ratings after a rated game, noting each player's change."""
        before = {user: self.rating(user) for user in after}
        self.ratings.update(after)
        self.rating_changes[game_id] = {
            user: self.rating(user).rating - before[user].rating for user in after
        }

    # Challenges ---------------------------------------------------------------------
    def _challenge(self, peer: Peer, message: protocol.Challenge) -> None:
        self._offer(
            peer,
            message.to,
            message.color,
            message.id,
            control=message.clock,
            rated=message.rated,
        )

    def _offer(
        self,
        peer: Peer,
        target: str,
        color: protocol.ChallengeColor,
        re: RequestId | None,
        *,
        control: TimeControl | None,
        rated: bool,
        rematch: int | None = None,
    ) -> None:
        """A challenge from ``peer`` to ``target``, once the limits allow it."""
        user = peer.user
        if target == user:
            self._error(peer, ErrorCode.CANNOT_CHALLENGE_SELF, "you cannot challenge yourself", re)
            return
        if not self.online(target):
            self._error(peer, ErrorCode.USER_OFFLINE, f"{target} is not online", re)
            return
        pending = list(self.challenges.values())
        if any(c.challenger == user and c.target == target for c in pending):
            self._error(
                peer,
                ErrorCode.ALREADY_CHALLENGED,
                f"you have challenged {target} already: wait, or cancel",
                re,
            )
            return
        if sum(c.challenger == user for c in pending) >= protocol.MAX_CHALLENGES_FROM:
            limit = protocol.MAX_CHALLENGES_FROM
            self._error(
                peer, ErrorCode.TOO_MANY_CHALLENGES, f"you have {limit} challenges open already", re
            )
            return
        if sum(c.target == target for c in pending) >= protocol.MAX_CHALLENGES_TO:
            self._error(
                peer,
                ErrorCode.TOO_MANY_CHALLENGES,
                f"{target} has too many challenges waiting already",
                re,
            )
            return
        if rated and not self._rated_allowed(peer, user, target, re):
            return
        clock = None if control is None else (control.minutes, control.increment)
        try:
            challenge = self.store.create_challenge(
                user, target, color, clock=clock, rated=rated, rematch=rematch
            )
        except StoreError as error:
            self._failed(peer, error, re)
            return
        self.challenges[challenge.id] = challenge
        self._made[challenge.id] = self.clock()
        what = "" if rematch is None else f", a rematch of game {rematch}"
        logger.info(f"{user} challenges {target} (challenge {challenge.id}{what})")
        info = _challenge_info(challenge)
        sent = protocol.ChallengeSent(
            challenge=info.challenge,
            to=target,
            color=info.color,
            clock=info.clock,
            rated=info.rated,
            rematch=info.rematch,
        )
        self._reply(peer, msgspec.structs.replace(sent, re=re))
        self._send((p for p in self.sessions(user) if p is not peer), protocol.encode(sent))
        challenged = protocol.Challenged(
            challenge=info.challenge,
            from_=user,
            color=info.color,
            clock=info.clock,
            rated=info.rated,
            rematch=info.rematch,
        )
        self._send(self.sessions(target), protocol.encode(challenged))

    def _answer(
        self, peer: Peer, message: protocol.Accept | protocol.Decline | protocol.Cancel
    ) -> None:
        user, re = peer.user, message.id
        challenge = self.challenges.get(message.challenge)
        own = (
            challenge is not None
            and (challenge.challenger if isinstance(message, protocol.Cancel) else challenge.target)
            == user
        )
        if challenge is None or not own:
            self._error(
                peer, ErrorCode.NO_SUCH_CHALLENGE, f"no challenge {message.challenge} for you", re
            )
            return
        if isinstance(message, protocol.Accept):
            self._start_game(peer, challenge, re)
            return
        reason = "cancelled" if isinstance(message, protocol.Cancel) else "declined"
        self._close(challenge, reason, answering=(peer, re))

    def _close(
        self,
        challenge: StoredChallenge,
        reason: str,
        answering: tuple[Peer, RequestId | None] | None = None,
    ) -> bool:
        """Close a pending challenge and tell both sides' sessions (the asker's with ``re``)."""
        try:
            self.store.close_challenge(challenge.id)
        except StoreError as error:
            if answering is not None:
                self._failed(answering[0], error, answering[1])
            else:
                logger.error(f"store: {error}")
            return False
        self.challenges.pop(challenge.id, None)
        self._made.pop(challenge.id, None)
        if reason == "expired":
            logger.info(f"challenge {challenge.id} expired")
        line = protocol.encode(protocol.ChallengeClosed(challenge=challenge.id, reason=reason))
        for peer in [*self.sessions(challenge.challenger), *self.sessions(challenge.target)]:
            if answering is not None and peer is answering[0]:
                closed = protocol.ChallengeClosed(
                    challenge=challenge.id, reason=reason, re=answering[1]
                )
                peer.send_line(protocol.encode(closed))
            else:
                peer.send_line(line)
        return True

    def _expire(self) -> None:
        """Close the challenges older than ``CHALLENGE_TTL`` (checked on every request;
        clients ping at least every minute)."""
        limit = self.clock() - protocol.CHALLENGE_TTL
        for number, made in list(self._made.items()):
            challenge = self.challenges.get(number)
            if made <= limit and challenge is not None:
                self._close(challenge, "expired")

    def _start_game(self, peer: Peer, challenge: StoredChallenge, re: RequestId | None) -> None:
        for user in (challenge.challenger, challenge.target):
            if self._active_games(user) >= protocol.MAX_ACTIVE_GAMES:
                limit = protocol.MAX_ACTIVE_GAMES
                self._error(
                    peer, ErrorCode.TOO_MANY_GAMES, f"{user} has {limit} unfinished games", re
                )
                return
        pair = (challenge.challenger, challenge.target)
        if challenge.rated and not self._rated_allowed(peer, *pair, re):
            return
        colour = challenge.color
        if colour == "random":
            colour = self.rng.choice(("black", "white"))
        black, white = (
            (challenge.challenger, challenge.target)
            if colour == "black"
            else (challenge.target, challenge.challenger)
        )
        try:
            stored = self.store.create_game(
                black,
                white,
                challenge_id=challenge.id,
                clock=challenge.clock,
                rated=challenge.rated,
            )
        except StoreError as error:
            self._failed(peer, error, re)
            return
        del self.challenges[challenge.id]
        self._made.pop(challenge.id, None)
        live = LiveGame.of(stored, Game(), self.clock())
        self.games[live.id] = live
        self._lobby_dirty = True
        logger.info(f"game {live.id}: {black} (black) against {white} (white)")
        self._broadcast(live, re_for=(peer, re))

    def _rated_allowed(self, peer: Peer, first: str, second: str, re: RequestId | None) -> bool:
        """Whether ``first`` and ``second`` may begin one more rated game today; if not,
        ``peer`` is told so (and that a casual game is still welcome)."""
        since = datetime.now(UTC) - timedelta(seconds=protocol.RATED_PAIR_WINDOW)
        try:
            played = self.store.rated_games_between(first, second, since)
        except StoreError as error:
            self._failed(peer, error, re)
            return False
        if played < protocol.MAX_RATED_PER_PAIR:
            return True
        text = (
            f"{first} and {second} have begun {played} rated games in the last 24 hours "
            f"(at most {protocol.MAX_RATED_PER_PAIR}): challenge as a casual game instead"
        )
        self._error(peer, ErrorCode.TOO_MANY_RATED_GAMES, text, re)
        return False

    def _claims_of(self, user: str) -> int:
        return sum(user in by_user for by_user in self.claims.values())

    def _active_games(self, user: str) -> int:
        return sum(1 for g in self.games.values() if not g.over and g.player(user) is not None)

    # Games --------------------------------------------------------------------------
    def _find(self, game_id: int) -> LiveGame | None:
        """A game in play, or a finished one from the store (not kept)."""
        return self.games.get(game_id) or self._load(game_id)

    def _players_game(
        self, peer: Peer, game_id: int, re: RequestId | None
    ) -> tuple[LiveGame, Color] | None:
        """The game in progress ``peer`` plays in, and their colour; else the refusal
        (``no_such_game``, ``not_a_player``, ``game_over``, in that order) is sent."""
        live = self._find(game_id)
        if live is None:
            self._error(peer, ErrorCode.NO_SUCH_GAME, f"no game {game_id}", re)
            return None
        colour = live.player(peer.user)
        if colour is None:
            self._error(peer, ErrorCode.NOT_A_PLAYER, f"you do not play in game {live.id}", re)
            return None
        self._flag(live)
        if live.over:
            self._error(peer, ErrorCode.GAME_OVER, f"game {live.id} is over", re)
            return None
        return live, colour

    def _move(self, peer: Peer, message: protocol.MoveMessage) -> None:
        re = message.id
        found = self._players_game(peer, message.game, re)
        if found is None:
            return
        live, colour = found
        ply = live.ply + (live.pending is not None)
        if message.ply != ply or live.pending is not None:
            peer.send_line(
                protocol.encode(
                    protocol.Error(
                        code=ErrorCode.STALE_PLY,
                        message=f"game {live.id} is at ply {ply}, not {message.ply}",
                        expected=ply,
                        re=re,
                    )
                )
            )
            return
        if live.game.turn is not colour:
            self._error(peer, ErrorCode.NOT_YOUR_TURN, f"it is {live.game.turn.title}'s turn", re)
            return
        try:
            square = parse_square(message.square)
        except NotationError:
            self._error(peer, ErrorCode.ILLEGAL_MOVE, f"{message.square[:8]!r} is not a square", re)
            return
        position = live.game.position
        if not position.is_legal(square):
            why = "is taken" if position.color_at(square) is not None else "flips nothing"
            self._error(peer, ErrorCode.ILLEGAL_MOVE, f"{message.square} {why}", re)
            return
        left = None if live.control is None else live.charge(self.clock(), message.think_ms)
        live.pending = (peer, re, ply, square, left)
        self._batch.append(live)
        if self.defer is None:
            self.commit_moves()
        elif len(self._batch) == 1:
            self.defer(self.commit_moves)

    def commit_moves(self) -> None:
        """Commit every checked move in one transaction, then play and announce them.

        If the batch fails as a whole, each move is tried alone, so one bad move
        cannot cost the others; a move that cannot be committed is refused.
        """
        batch, self._batch = self._batch, []
        moves: list[MoveRow] = [
            (g.id, g.pending[2], g.pending[3], g.pending[4]) for g in batch if g.pending is not None
        ]
        try:
            self.store.append_moves(moves)
            committed = batch
        except StoreError:
            committed = []
            for live in batch:
                assert live.pending is not None
                peer, re, ply, square, left = live.pending
                try:
                    self.store.append_move(live.id, ply, square, left)
                    committed.append(live)
                except StaleMove:
                    live.pending = None
                    self._error(peer, ErrorCode.STALE_PLY, f"game {live.id} moved on", re)
                except StoreError as error:
                    live.pending = None
                    self._failed(peer, error, re)
        now = self.clock()
        for live in committed:
            assert live.pending is not None
            peer, re, _, square, left = live.pending
            live.pending = None
            if left is not None:
                live.left[live.game.turn] = left
            live.turn_began = now
            live.game.play(square)
            self._lobby_dirty = True
            logger.info(f"game {live.id}: {peer.user} plays {square_name(square)}")
            if live.game.is_over:
                self._finish(live)
            self._broadcast(live, re_for=(peer, re))

    def _resign(self, peer: Peer, message: protocol.Resign) -> None:
        re = message.id
        found = self._players_game(peer, message.game, re)
        if found is None:
            return
        live, colour = found
        result = Result.forfeit(colour, Termination.RESIGNATION, live.game.position.outcome())
        self._end(live, result, f"{peer.user} resigns", re_for=(peer, re))

    def _abort(self, peer: Peer, message: protocol.Abort) -> None:
        """No result, as a player may ask before their own ``ABORT_MOVES`` moves."""
        re = message.id
        found = self._players_game(peer, message.game, re)
        if found is None:
            return
        live, colour = found
        if live.moves_of(colour) >= protocol.ABORT_MOVES:
            text = (
                f"you have made {protocol.ABORT_MOVES} moves in game {live.id}: "
                "too late to abort (resign instead)"
            )
            self._error(peer, ErrorCode.TOO_LATE_TO_ABORT, text, re)
            return
        self._end(live, None, f"{peer.user} aborts", re_for=(peer, re))

    def _end(
        self,
        live: LiveGame,
        result: Result | None,
        what: str,
        *,
        re_for: tuple[Peer, RequestId | None],
    ) -> None:
        """End ``live`` as a player asked (``what`` they did, for the log; ``result``
        None: an abort), and tell its audience; a store that fails answers
        ``server_error`` and changes nothing."""
        try:
            if result is None:
                self._abort_game(live)
            else:
                self._conclude(live, result)
        except StoreError as error:
            self._failed(re_for[0], error, re_for[1])
            return
        logger.info(f"game {live.id}: {what}")
        self._broadcast(live, re_for=re_for)

    def _claim(self, peer: Peer, message: protocol.ClaimRequest) -> None:
        """The win or a draw, claimed when the opponent has been gone long enough."""
        re = message.id
        found = self._players_game(peer, message.game, re)
        if found is None:
            return
        live, colour = found
        other = live.opponent(colour)
        gone = self.gone_for(other)
        if gone is None:
            self._error(peer, ErrorCode.CLAIM_TOO_EARLY, f"{other} is online", re)
            return
        stalled = other in self._stalled
        grace = protocol.STALLED_GRACE if stalled else protocol.ABANDON_GRACE
        if gone < grace:
            wait = math.ceil(grace - gone)
            how = "stopped reading (a suspended client?)" if stalled else "left"
            text = f"{other} {how} {gone:.0f} s ago: you may claim in {wait} s"
            self._error(peer, ErrorCode.CLAIM_TOO_EARLY, text, re)
            return
        discs = live.game.position.outcome()
        result = (
            Result.abandoned_draw(discs)
            if message.outcome == "draw"
            else Result.forfeit(colour.opponent, Termination.DISCONNECTION, discs)
        )
        what = f"{peer.user} claims a {message.outcome}, {other} left"
        self._end(live, result, what, re_for=(peer, re))

    def _rematch(self, peer: Peer, message: protocol.Rematch) -> None:
        """A new game against the other player of a finished one, colours swapped; or
        the acceptance of their rematch offer of that game."""
        user, re = peer.user, message.id
        live = self._find(message.game)
        if live is None:
            self._error(peer, ErrorCode.NO_SUCH_GAME, f"no game {message.game}", re)
            return
        colour = live.player(user)
        if colour is None:
            self._error(peer, ErrorCode.NOT_A_PLAYER, f"you do not play in game {live.id}", re)
            return
        self._flag(live)
        if not live.over:
            self._error(peer, ErrorCode.GAME_ACTIVE, f"game {live.id} is not over", re)
            return
        other = live.opponent(colour)
        for offer in list(self.challenges.values()):
            if (offer.challenger, offer.target, offer.rematch) == (other, user, live.id):
                self._start_game(peer, offer, re)
                return
        self._offer(
            peer,
            other,
            side_name(colour.opponent),
            re,
            control=live.control,
            rated=live.rated,
            rematch=live.id,
        )

    def _finish(self, live: LiveGame) -> None:
        """A game the board ended: recorded (and rated), or an error line."""
        try:
            self._conclude(live, None)
        except StoreError as error:
            logger.error(f"game {live.id} is over; the store cannot record its end: {error}")
            return
        logger.info(f"game {live.id} is over")

    def _abort_game(self, live: LiveGame) -> None:
        """Record ``live`` as aborted: no result, no rating; StoreError changes nothing."""
        self.store.finish_game(live.id, reason="aborted")
        live.aborted = True
        self._lobby_dirty = True

    def _conclude(self, live: LiveGame, result: Result | None) -> None:
        """Record how ``live`` ended (``result``; None: the board ended it) and, for a
        rated game, both players' new ratings; StoreError changes nothing. A game ended
        (resigned, on time, claimed) before both players made ``ABORT_MOVES`` moves is
        aborted instead."""
        if result is not None and live.early:
            self._abort_game(live)
            return
        outcome = live.game.outcome() if result is None else None
        winner = (
            result.winner if result is not None else None if outcome is None else outcome.winner
        )
        winning = None if winner is None else side_name(winner)
        after = (
            self._new_ratings(live.black, live.white, _BLACK_SCORE[winning]) if live.rated else None
        )
        reason = "end" if result is None else protocol.result_reason(result)
        resigned = (
            side_name(winner.opponent)
            if result is not None and winner is not None and reason == "resign"
            else None
        )
        self.store.finish_game(
            live.id,
            resigned=resigned,
            reason=reason,
            winner=winning,
            ratings=None
            if after is None
            else {u: (g.rating, g.deviation, g.volatility) for u, g in after.items()},
        )
        if result is not None:
            live.ended = result
        if after is not None:
            self._apply_ratings(live.id, after)
            live.rating_change = self.rating_changes[live.id]
        self._lobby_dirty = True

    # Clocks -------------------------------------------------------------------------
    def _flag(self, live: LiveGame) -> bool:
        """End ``live`` on time if its side to move's flag has fallen (and no move of
        theirs is waiting for its commit): True when it did."""
        deadline = live.deadline
        if deadline is None or live.pending is not None or self.clock() < deadline:
            return False
        loser = live.game.turn
        live.left[loser] = 0
        live.turn_began = self.clock()
        result = Result.forfeit(loser, Termination.TIME_FORFEIT, live.game.position.outcome())
        try:
            self._conclude(live, result)
        except StoreError as error:
            live.aborted = live.early  # over all the same: the clock is the server's word
            live.ended = None if live.aborted else result
            logger.error(f"game {live.id}: the store cannot record the flag's fall: {error}")
        how = "ran out of time: aborted" if live.aborted else "lost on time"
        logger.info(f"game {live.id}: {live.name(loser)} {how}")
        line = protocol.encode(self.state(live))
        self._send(self._audience(live), line)
        self._drop(live)
        return True

    def next_deadline(self) -> float | None:
        """When the next flag falls, on ``clock`` (None: no timed game is running)."""
        deadlines = [
            d for g in self.games.values() if g.pending is None and (d := g.deadline) is not None
        ]
        return min(deadlines, default=None)

    def tick(self) -> None:
        """End every game whose flag has fallen by now (the server calls this at
        ``next_deadline``)."""
        for live in list(self.games.values()):
            self._flag(live)

    def _watch(self, peer: Peer, message: protocol.Watch | protocol.Unwatch) -> None:
        re = message.id
        live = self._find(message.game)
        if live is None:
            self._error(peer, ErrorCode.NO_SUCH_GAME, f"no game {message.game}", re)
            return
        self._flag(live)
        if isinstance(message, protocol.Watch) and live.player(peer.user) is None:
            live.watchers.add(peer)
        elif isinstance(message, protocol.Unwatch):
            live.watchers.discard(peer)
        self._lobby_dirty = True
        self._reply(peer, self.state(live, re=re))
        if isinstance(message, protocol.Watch):
            self._send_history(peer, live, protocol.HISTORY_BUDGET)
        audience = [p for p in self._audience(live) if p is not peer]
        self._send(audience, protocol.encode(self.state(live)))

    def _load(self, game_id: int) -> LiveGame | None:
        """A finished game from the store (to watch or review); not kept. None for a game
        that is not there or is set aside."""
        try:
            stored = self.store.game(game_id)
        except StoreError:
            return None
        if stored is None or stored.set_aside is not None:
            return None
        try:
            game = Game.from_moves(None, stored.moves)
        except IllegalMoveError:
            return None
        live = LiveGame.of(stored, game, self.clock())
        live.rating_change = self.rating_changes.get(live.id)
        return live

    def _chat(self, peer: Peer, message: protocol.ChatRequest) -> None:
        re = message.id
        text = protocol.clean_text(message.text)
        live: LiveGame | None = None
        if message.game is None:
            audience: Iterable[Peer] = [p for ps in self.peers.values() for p in ps]
        else:
            live = self._find(message.game)
            if live is None:
                self._error(peer, ErrorCode.NO_SUCH_GAME, f"no game {message.game}", re)
                return
            if live.player(peer.user) is None and peer not in live.watchers:
                self._error(
                    peer, ErrorCode.NOT_A_PLAYER, f"you neither play nor watch game {live.id}", re
                )
                return
            if live.over:
                self._error(peer, ErrorCode.GAME_OVER, f"game {live.id} is over", re)
                return
            audience = self._audience(live)
        if not text:
            self._error(peer, ErrorCode.BAD_MESSAGE, "a chat line needs some text", re)
            return
        watcher = live is not None and live.player(peer.user) is None
        if (refusal := self._chat_refusal(peer.user, live if watcher else None)) is not None:
            self._error(peer, ErrorCode.CHAT_LIMITED, refusal, re)
            return
        if live is not None:
            lines = self.chats.setdefault(live.id, deque(maxlen=protocol.CHAT_HISTORY))
            lines.append(protocol.ChatLine(from_=peer.user, text=text, watcher=watcher))
        chat = protocol.ChatMessage(from_=peer.user, game=message.game, text=text, watcher=watcher)
        self._send_answering(audience, chat, peer, re)

    def _chat_refusal(self, user: str, watched: LiveGame | None) -> str | None:
        """Why a chat line is refused (None: it is taken, and counted): a flood costs
        every reader, so a user's lines are bounded across their sessions, and the lines
        of all the watchers of ``watched`` (a game ``user`` watches) together."""
        now = self.clock()
        said = _recent(self._chat_said, user, now - protocol.CHAT_WINDOW)
        if len(said) >= protocol.CHAT_PER_USER:
            wait = math.ceil(said[0] + protocol.CHAT_WINDOW - now)
            limit = f"{protocol.CHAT_PER_USER} chat lines in {protocol.CHAT_WINDOW:g} s"
            return f"at most {limit}; wait {wait} s"
        if watched is not None:
            since = now - protocol.WATCHER_CHAT_WINDOW
            game = _recent(self._watchers_said, watched.id, since)
            if len(game) >= protocol.WATCHER_CHAT_PER_GAME:
                return f"game {watched.id}'s watchers have said enough for now; wait a minute"
            game.append(now)
        said.append(now)
        return None

    def _send_history(self, peer: Peer, live: LiveGame, budget: int) -> int:
        """The game's chat so far, when it has any, the oldest lines left out beyond
        ``budget`` bytes: the bytes sent."""
        lines = list(self.chats.get(live.id, ()))
        while lines:
            history = protocol.ChatHistory(game=live.id, origin=live.origin, lines=lines)
            line = protocol.encode(history)
            if len(line) <= budget:
                peer.send_line(line)
                return len(line)
            lines = lines[max(1, len(lines) // 4) :]
        return 0

    # Resuming a game from the players' copies ---------------------------------------
    def _resume(self, peer: Peer, message: protocol.Resume) -> None:
        """A player's copy of a game: its state when the server holds it; else a claim,
        and the game re-created when the other player's copy agrees."""
        user, re, origin = peer.user, message.id, message.origin
        if user not in (message.black, message.white) or message.black == message.white:
            self._error(peer, ErrorCode.RESUME_REFUSED, "you do not play in that game", re)
            return
        try:
            held = self.store.game_by_origin(origin)
        except StoreError as error:
            self._failed(peer, error, re)
            return
        if held is not None:
            live = self.games.get(held.id) or self._load(held.id)
            if live is not None and live.player(user) is None:
                self._error(peer, ErrorCode.RESUME_REFUSED, "you do not play in that game", re)
                return
            if live is not None:
                self._reply(peer, self.state(live, re=re))
                # A client presents its copies several at once: each gets a share.
                self._send_history(peer, live, protocol.HISTORY_BUDGET // 8)
                return
        claim = _claim_of(user, message)
        if isinstance(claim, str):
            self._error(peer, ErrorCode.RESUME_REFUSED, claim, re)
            return
        for player in (claim.black, claim.white):
            if self._active_games(player) >= protocol.MAX_ACTIVE_GAMES:
                self._error(
                    peer, ErrorCode.TOO_MANY_GAMES, f"{player} has too many unfinished games", re
                )
                return
        other = claim.white if user == claim.black else claim.black
        key = (origin, claim.black, claim.white)
        by_user = self.claims.setdefault(key, {})
        earlier = by_user.get(other)
        if earlier is None:
            if user not in by_user and self._claims_of(user) >= protocol.MAX_ACTIVE_GAMES:
                self._error(peer, ErrorCode.TOO_MANY_GAMES, "you have too many games waiting", re)
                return
            by_user[user] = claim
            logger.info(f"{user} asks to resume {origin} against {other}")
            pending = protocol.ResumePending(
                origin=origin, black=claim.black, white=claim.white, waiting_for=other, re=re
            )
            self._reply(peer, pending)
            return
        disagreement = _disagreement(earlier, claim)
        if disagreement is not None:
            logger.warning(f"{origin}: the players' copies disagree ({disagreement})")
            text = f"your copy and {other}'s disagree ({disagreement}): the game is not resumed"
            self._error(peer, ErrorCode.RESUME_REFUSED, text, re)
            text = f"your copy and {user}'s disagree ({disagreement}): the game is not resumed"
            self._send(self.sessions(other), _error_line(ErrorCode.RESUME_REFUSED, text))
            return
        behind = min(earlier, claim, key=lambda c: len(c.moves))
        agreed, control = behind.moves, behind.clock
        try:
            game = Game.from_moves(None, agreed)
            stored = self.store.create_game(
                claim.black,
                claim.white,
                origin=origin,
                started=claim.started,
                moves=agreed,
                clock=None if control is None else (control.minutes, control.increment),
                rated=claim.rated,
                left_ms=_left_ms(game, control),
            )
        except StoreError as error:
            self._failed(peer, error, re)
            return
        del self.claims[key]
        self.set_aside.pop(origin, None)
        live = LiveGame.of(stored, game, self.clock())
        self.games[live.id] = live
        self._lobby_dirty = True
        logger.info(f"game {live.id}: resumed {origin} at move {len(agreed)}")
        if live.over:
            self._finish(live)
        self._broadcast(live, re_for=(peer, re))

    # Sending ------------------------------------------------------------------------
    def state(self, live: LiveGame, re: RequestId | None = None) -> State:
        now = self.clock()
        players = (live.black, live.white)
        away = {u: gone for u in players if (gone := self.gone_for(u)) is not None}
        return protocol.state_of(
            live.id,
            live.black,
            live.white,
            live.game,
            origin=live.origin,
            started=live.started,
            result=live.forfeit,
            spectators=len(live.watchers),
            online={u: u not in away for u in players},
            clock=live.clock_at(now),
            rated=live.rated,
            ratings={u: self.rating(u) for u in players},
            away_ms={u: round(gone * 1000) for u, gone in away.items()},
            rating_change=live.rating_change,
            aborted=live.aborted,
            re=re,
        )

    def _audience(self, live: LiveGame) -> list[Peer]:
        players = [*self.sessions(live.black), *self.sessions(live.white)]
        return [*players, *(w for w in live.watchers if w not in players)]

    def _broadcast(self, live: LiveGame, *, re_for: tuple[Peer, RequestId | None]) -> None:
        """The game's state to its audience; the requester's copy carries ``re``."""
        asker, re = re_for
        line = protocol.encode(self.state(live))
        for peer in self._audience(live):
            peer.send_line(
                line
                if peer is not asker or re is None
                else protocol.encode(self.state(live, re=re))
            )
        if asker not in self._audience(live):
            asker.send_line(protocol.encode(self.state(live, re=re)))
        if live.over:
            self._drop(live)

    def _drop(self, live: LiveGame) -> None:
        """A finished game leaves memory; its chat is kept a while."""
        self.games.pop(live.id, None)
        if live.id in self.chats:
            self._finished_chats[live.id] = None
            while len(self._finished_chats) > FINISHED_CHATS:
                old, _ = self._finished_chats.popitem(last=False)
                self.chats.pop(old, None)

    def _presence_of(self, user: str) -> protocol.Presence:
        return protocol.Presence(
            user=user,
            online=self.online(user),
            waiting=user in self.waiting,
            status=self._status(user) or "lobby",
        )

    def _presence(self, user: str, asker: Peer | None = None, re: RequestId | None = None) -> None:
        """``user``'s presence to everyone online; ``asker``'s copy answers its request."""
        everyone = (p for ps in self.peers.values() for p in ps)
        self._send_answering(everyone, self._presence_of(user), asker, re)

    def _send_answering(
        self,
        peers: Iterable[Peer],
        message: protocol.Presence | protocol.ChatMessage,
        asker: Peer | None,
        re: RequestId | None,
    ) -> None:
        """``message`` to ``peers``; the copy to ``asker`` carries ``re``, the id of the
        request that caused it (every request with an id is answered)."""
        line = protocol.encode(message)
        answer = line if re is None else protocol.encode(msgspec.structs.replace(message, re=re))
        for peer in peers:
            peer.send_line(answer if peer is asker else line)

    @staticmethod
    def _send(peers: Iterable[Peer], line: bytes) -> None:
        for peer in peers:
            peer.send_line(line)

    @staticmethod
    def _reply(peer: Peer, message: protocol.ServerMessage) -> None:
        peer.send_line(protocol.encode(message))

    def _error(self, peer: Peer, code: ErrorCode, text: str, re: RequestId | None) -> None:
        peer.send_line(_error_line(code, text, re))

    def _failed(self, peer: Peer, error: StoreError, re: RequestId | None) -> None:
        logger.error(f"store: {error}")
        self._error(peer, ErrorCode.SERVER_ERROR, "the server cannot save that now; try again", re)


_K = TypeVar("_K", str, int)


def _recent(said: dict[_K, deque[float]], key: _K, since: float) -> deque[float]:
    """``key``'s times in ``said`` after ``since`` (those before forgotten). Beyond
    ``CHAT_TRACKED`` keys, those quiet since ``since`` are forgotten too: a service that
    runs for months meets ever more users and games."""
    if len(said) > CHAT_TRACKED:
        for quiet in [k for k, times in said.items() if not times or times[-1] <= since]:
            del said[quiet]
    times = said.setdefault(key, deque())
    while times and times[0] <= since:
        times.popleft()
    return times


def _error_line(code: ErrorCode, text: str, re: RequestId | None = None) -> bytes:
    return protocol.encode(protocol.Error(code=code, message=text, re=re))


def _claim_of(user: str, message: protocol.Resume) -> Claim | str:
    """The claim a ``resume`` makes, or why it cannot be one."""
    try:
        started = datetime.fromisoformat(message.started)
    except ValueError:
        return f"{message.started[:40]!r} is not a time"
    if started.tzinfo is None:
        return "the start time needs its offset (UTC)"
    try:
        started = started.astimezone(UTC)
    except OverflowError:  # the first or last day of the calendar, shifted beyond it
        return f"{message.started[:40]!r} is not a time this server can keep"
    text = message.moves
    try:
        moves = tuple(parse_square(text[i : i + 2]) for i in range(0, len(text), 2))
        Game.from_moves(None, moves)
    except (NotationError, IllegalMoveError) as error:
        return f"the moves do not replay ({error})"
    clock = message.clock
    if clock is not None and not (
        1 <= clock.minutes <= protocol.MAX_MINUTES
        and 0 <= clock.increment <= protocol.MAX_INCREMENT
    ):
        return f"{clock.minutes}+{clock.increment} is not a time control this server offers"
    return Claim(user, message.black, message.white, started, moves, clock, message.rated)


def _disagreement(first: Claim, second: Claim) -> str | None:
    """How two players' copies of one game (same origin, players and colours) differ
    beyond the last move, which one of them may not have seen (the server commits and
    sends each move at once, so no more can be missing); None when they agree."""
    if first.started != second.started:
        return "not the same start time"
    if first.rated != second.rated:
        return "rated in one copy, casual in the other"
    if _control(first.clock) != _control(second.clock):
        return "not the same time control"
    agreed = _common_prefix(first.moves, second.moves)
    if len(agreed) < min(len(first.moves), len(second.moves)):
        return f"move {len(agreed) + 1} differs"
    behind = abs(len(first.moves) - len(second.moves))
    if behind > 1:
        return f"one copy is {behind} moves behind the other; at most the last can be missing"
    if not _clocks_agree(first, second):
        return "the clocks differ"
    return None


def _control(clock: protocol.Clock | None) -> tuple[int, int] | None:
    return None if clock is None else (clock.minutes, clock.increment)


def _clocks_agree(first: Claim, second: Claim) -> bool:
    """Whether two copies show the same clocks (a second allowed for rounding and lag).

    Both players get each state at the same instant. When one copy has the last move
    more, the clock of the side that made it differs by the time that move took less
    the increment: the copy behind may show no less than the one ahead minus the
    increment (so neither player can take the other's time away), and the clocks go
    on from the copy behind."""
    a, b = first.clock, second.clock
    if a is None or b is None:
        return a is b
    slack = protocol.LAG_ALLOWANCE * 1000
    gaps = {Color.BLACK: a.black_ms - b.black_ms, Color.WHITE: a.white_ms - b.white_ms}
    if len(first.moves) == len(second.moves):
        return all(abs(gap) <= slack for gap in gaps.values())
    ahead = max(first, second, key=lambda claim: len(claim.moves))
    mover = _movers(Game.from_moves(None, ahead.moves))[-1]
    sign = 1 if ahead is first else -1  # gaps are ahead minus behind
    increment = a.increment * 1000
    return all(
        sign * gap <= increment + slack if colour is mover else abs(gap) <= slack
        for colour, gap in gaps.items()
    )


def _left_ms(game: Game, clock: protocol.Clock | None) -> tuple[int | None, ...]:
    """Each move's time left for a resumed game: each side's last move carries the
    time its clock showed in the copy, so the clocks go on from there."""
    if clock is None:
        return ()
    movers = _movers(game)
    most = (clock.minutes * 60 + clock.increment * len(movers)) * 1000  # none can have more
    left: list[int | None] = [None] * len(movers)
    for colour, ms in ((Color.BLACK, clock.black_ms), (Color.WHITE, clock.white_ms)):
        if colour in movers:
            left[len(movers) - 1 - movers[::-1].index(colour)] = min(max(0, ms), most)
    return tuple(left)


def _common_prefix(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    length = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        length += 1
    return a[:length]


def _challenge_info(challenge: StoredChallenge) -> ChallengeInfo:
    clock = challenge.clock
    return ChallengeInfo(
        challenge=challenge.id,
        from_=challenge.challenger,
        to=challenge.target,
        color=_challenge_color(challenge.color),
        clock=None if clock is None else TimeControl(minutes=clock[0], increment=clock[1]),
        rated=challenge.rated,
        rematch=challenge.rematch,
    )


def _presence(status: ActivityStatus) -> int:
    return _PRESENCE[status]


def _ended(stored: ServerGame, game: Game) -> Result | None:
    """How a stored game ended before the board did, or None."""
    discs = game.position.outcome()
    reason, winner = stored.end_reason, stored.winner
    if stored.resigned is not None:
        return Result.forfeit(protocol.side_color(stored.resigned), Termination.RESIGNATION, discs)
    if reason == "abandoned" and winner is None:
        return Result.abandoned_draw(discs)
    if reason in ("time", "abandoned") and winner is not None:
        termination = Termination.TIME_FORFEIT if reason == "time" else Termination.DISCONNECTION
        return Result.forfeit(protocol.side_color(winner).opponent, termination, discs)
    return None


def _movers(game: Game) -> list[Color]:
    """Who played each move (passes not counted), in order."""
    movers, colour = [], Color.BLACK
    for move in game.moves:
        if move >= 0:
            movers.append(colour)
        colour = colour.opponent
    return movers


def _passes(game: Game) -> int:
    return sum(1 for move in game.moves if move < 0)


def _challenge_color(text: str) -> protocol.ChallengeColor:
    """A stored challenge's colour as the protocol names it."""
    return "black" if text == "black" else "white" if text == "white" else "random"
