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

The hub logs through ``logging`` (the logger ``reversi_tui.net.hub``), one line per
event: sessions and games at info, refusals and set-aside games at warning, and
what the store could not record at error.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Protocol

from reversi_tui.engine import Color, Game, IllegalMoveError, parse_square, square_name
from reversi_tui.engine.notation import NotationError
from reversi_tui.match.record import Result, Termination
from reversi_tui.net import protocol
from reversi_tui.net.protocol import (
    ChallengeInfo,
    ClientMessage,
    ErrorCode,
    RequestId,
    State,
    side_name,
)
from reversi_tui.net.store import ServerGame, StaleMove, Store, StoredChallenge, StoreError

logger = logging.getLogger(__name__)


class Peer(Protocol):
    """One connection, as the hub sees it."""

    @property
    def user(self) -> str: ...

    def send_line(self, line: bytes) -> None:
        """Queue one encoded message (newline included)."""
        ...


@dataclass(eq=False)
class LiveGame:
    """A game the server holds: the engine's game and who follows it."""

    id: int
    black: str
    white: str
    game: Game
    origin: str
    #: When the game began (ISO 8601, UTC).
    started: str
    resigned: Color | None = None
    watchers: set[Peer] = field(default_factory=set)
    #: A checked move waiting for the next group commit: (peer, re, ply, square).
    pending: tuple[Peer, RequestId | None, int, int] | None = None

    @classmethod
    def of(cls, stored: ServerGame, game: Game) -> LiveGame:
        resigned = None if stored.resigned is None else _colour(stored.resigned)
        return cls(
            stored.id,
            stored.black,
            stored.white,
            game,
            stored.origin,
            stored.created.astimezone(UTC).isoformat(),
            resigned,
        )

    @property
    def over(self) -> bool:
        return self.resigned is not None or self.game.is_over

    @property
    def forfeit(self) -> Result | None:
        """The result when a player resigned (None otherwise: the board decides)."""
        if self.resigned is None:
            return None
        return Result.forfeit(self.resigned, Termination.RESIGNATION, self.game.position.outcome())

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


@dataclass(frozen=True)
class Claim:
    """One player's copy of a game the server does not hold, waiting for the other's."""

    user: str
    black: str
    white: str
    started: datetime
    moves: tuple[int, ...]


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
        times the challenges' expiry."""
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
        for challenge in store.pending_challenges():
            # Their challengers left with the last server: a challenge lives with its sender.
            store.close_challenge(challenge.id)
        for stored in store.games(unfinished_only=True):
            try:
                game = Game.from_moves(None, stored.moves)
            except IllegalMoveError as error:
                self._set_aside(stored, f"its moves do not replay ({error})")
                continue
            self.games[stored.id] = LiveGame.of(stored, game)

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
        self.peers.setdefault(peer.user, []).append(peer)
        user = peer.user
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
        if first:
            logger.info(f"{user} is online")
            self._presence(user)

    def leave(self, peer: Peer) -> None:
        """A connection ended (or never said hello)."""
        sessions = self.peers.get(peer.user)
        if sessions is None or peer not in sessions:
            return
        sessions.remove(peer)
        for game in self.games.values():
            game.watchers.discard(peer)
        if not sessions:
            user = peer.user
            del self.peers[user]
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
                self._reply(peer, self.lobby(re))
            case protocol.Wait(on=on):
                if on:
                    self.waiting.add(peer.user)
                else:
                    self.waiting.discard(peer.user)
                self._presence(peer.user)
            case protocol.Challenge():
                self._challenge(peer, message)
            case protocol.Accept() | protocol.Decline() | protocol.Cancel():
                self._answer(peer, message)
            case protocol.MoveRequest():
                self._move(peer, message)
            case protocol.Resign():
                self._resign(peer, message)
            case protocol.Watch() | protocol.Unwatch():
                self._watch(peer, message)
            case protocol.ChatRequest():
                self._chat(peer, message)
            case protocol.Resume():
                self._resume(peer, message)
            case protocol.Hello():
                self._error(peer, ErrorCode.BAD_MESSAGE, "hello is said once, at the start", re)

    def lobby(self, re: RequestId | None = None) -> protocol.LobbyReply:
        active = [g for g in self.games.values() if not g.over]
        playing = {u for g in active for u in (g.black, g.white)}
        players = [
            protocol.PlayerInfo(
                user=u,
                waiting=u in self.waiting,
                playing=u in playing,
                status="lobby",
                rating=protocol.NEW_RATING,
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
                turn=side_name(g.game.turn),
            )
            for g in sorted(active, key=lambda g: g.id)
        ]
        return protocol.LobbyReply(players=players, games=games, re=re)

    # Challenges ---------------------------------------------------------------------
    def _challenge(self, peer: Peer, message: protocol.Challenge) -> None:
        user, target, re = peer.user, message.to, message.id
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
        try:
            challenge = self.store.create_challenge(user, target, message.color)
        except StoreError as error:
            self._failed(peer, error, re)
            return
        self.challenges[challenge.id] = challenge
        self._made[challenge.id] = self.clock()
        logger.info(f"{user} challenges {target} (challenge {challenge.id})")
        sent = protocol.ChallengeSent(challenge=challenge.id, to=target, color=message.color)
        self._reply(
            peer,
            protocol.ChallengeSent(challenge=challenge.id, to=target, color=message.color, re=re),
        )
        self._send((p for p in self.sessions(user) if p is not peer), protocol.encode(sent))
        challenged = protocol.Challenged(challenge=challenge.id, from_=user, color=message.color)
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
        colour = challenge.color
        if colour == "random":
            colour = self.rng.choice(("black", "white"))
        black, white = (
            (challenge.challenger, challenge.target)
            if colour == "black"
            else (challenge.target, challenge.challenger)
        )
        try:
            stored = self.store.create_game(black, white, challenge_id=challenge.id)
        except StoreError as error:
            self._failed(peer, error, re)
            return
        del self.challenges[challenge.id]
        self._made.pop(challenge.id, None)
        live = LiveGame.of(stored, Game())
        self.games[live.id] = live
        logger.info(f"game {live.id}: {black} (black) against {white} (white)")
        self._broadcast(live, re_for=(peer, re))

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
        if live.over:
            self._error(peer, ErrorCode.GAME_OVER, f"game {live.id} is over", re)
            return None
        return live, colour

    def _move(self, peer: Peer, message: protocol.MoveRequest) -> None:
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
        live.pending = (peer, re, ply, square)
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
        moves = [(g.id, g.pending[2], g.pending[3]) for g in batch if g.pending is not None]
        try:
            self.store.append_moves(moves)
            committed = batch
        except StoreError:
            committed = []
            for live in batch:
                assert live.pending is not None
                peer, re, ply, square = live.pending
                try:
                    self.store.append_move(live.id, ply, square)
                    committed.append(live)
                except StaleMove:
                    live.pending = None
                    self._error(peer, ErrorCode.STALE_PLY, f"game {live.id} moved on", re)
                except StoreError as error:
                    live.pending = None
                    self._failed(peer, error, re)
        for live in committed:
            assert live.pending is not None
            peer, re, _, square = live.pending
            live.pending = None
            live.game.play(square)
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
        try:
            self.store.finish_game(live.id, resigned=side_name(colour))
        except StoreError as error:
            self._failed(peer, error, re)
            return
        live.resigned = colour
        logger.info(f"game {live.id}: {peer.user} resigns")
        self._broadcast(live, re_for=(peer, re))

    def _finish(self, live: LiveGame) -> None:
        try:
            self.store.finish_game(live.id)
        except StoreError as error:
            logger.error(f"game {live.id} is over; the store cannot record its end: {error}")
            return
        logger.info(f"game {live.id} is over")

    def _watch(self, peer: Peer, message: protocol.Watch | protocol.Unwatch) -> None:
        re = message.id
        live = self._find(message.game)
        if live is None:
            self._error(peer, ErrorCode.NO_SUCH_GAME, f"no game {message.game}", re)
            return
        if isinstance(message, protocol.Watch) and live.player(peer.user) is None:
            live.watchers.add(peer)
        elif isinstance(message, protocol.Unwatch):
            live.watchers.discard(peer)
        self._reply(peer, self.state(live, re=re))
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
        return LiveGame.of(stored, game)

    def _chat(self, peer: Peer, message: protocol.ChatRequest) -> None:
        re = message.id
        text = protocol.clean_text(message.text)
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
            return
        line = protocol.encode(protocol.ChatMessage(from_=peer.user, game=message.game, text=text))
        self._send(audience, line)

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
        agreed = _common_prefix(earlier.moves, claim.moves)
        try:
            game = Game.from_moves(None, agreed)
            stored = self.store.create_game(
                claim.black, claim.white, origin=origin, started=claim.started, moves=agreed
            )
        except StoreError as error:
            self._failed(peer, error, re)
            return
        del self.claims[key]
        self.set_aside.pop(origin, None)
        live = LiveGame.of(stored, game)
        self.games[live.id] = live
        logger.info(f"game {live.id}: resumed {origin} at move {len(agreed)}")
        if live.over:
            self._finish(live)
        self._broadcast(live, re_for=(peer, re))

    # Sending ------------------------------------------------------------------------
    def state(self, live: LiveGame, re: RequestId | None = None) -> State:
        return protocol.state_of(
            live.id,
            live.black,
            live.white,
            live.game,
            origin=live.origin,
            started=live.started,
            result=live.forfeit,
            spectators=len(live.watchers),
            online={live.black: self.online(live.black), live.white: self.online(live.white)},
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
            self.games.pop(live.id, None)

    def _presence(self, user: str) -> None:
        line = protocol.encode(
            protocol.Presence(user=user, online=self.online(user), waiting=user in self.waiting)
        )
        self._send((p for ps in self.peers.values() for p in ps), line)

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
    text = message.moves
    try:
        moves = tuple(parse_square(text[i : i + 2]) for i in range(0, len(text), 2))
        Game.from_moves(None, moves)
    except (NotationError, IllegalMoveError) as error:
        return f"the moves do not replay ({error})"
    return Claim(user, message.black, message.white, started.astimezone(UTC), moves)


def _disagreement(first: Claim, second: Claim) -> str | None:
    """How two players' copies of one game (same origin, players and colours) differ
    beyond a move one of them has not seen yet (a common prefix is agreed); None when
    they agree."""
    if first.started != second.started:
        return "not the same start time"
    agreed = _common_prefix(first.moves, second.moves)
    if len(agreed) < min(len(first.moves), len(second.moves)):
        return f"move {len(agreed) + 1} differs"
    return None


def _common_prefix(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    length = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        length += 1
    return a[:length]


def _challenge_info(challenge: StoredChallenge) -> ChallengeInfo:
    return ChallengeInfo(
        challenge=challenge.id,
        from_=challenge.challenger,
        to=challenge.target,
        color=_color(challenge.color),
    )


def _passes(game: Game) -> int:
    return sum(1 for move in game.moves if move < 0)


def _colour(side: str) -> Color:
    return Color.BLACK if side == "black" else Color.WHITE


def _color(text: str) -> protocol.ChallengeColor:
    return "black" if text == "black" else "white" if text == "white" else "random"
