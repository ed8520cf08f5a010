"""The server's authority: sessions, presence, challenges, games and their audiences.

No sockets here: a ``Peer`` is anything with a user name and a way to take a line,
so the rules are tested without a network. Every request is checked before
anything changes, and a refused one changes nothing. A move is committed to the
store before any state is sent; games are held in memory as engine ``Game``s,
rebuilt on start by replaying the stored moves (the engine forces the passes).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Protocol

from reversi_tui.engine import Color, Game, parse_square, square_name
from reversi_tui.engine.notation import NotationError
from reversi_tui.net import protocol
from reversi_tui.net.protocol import (
    CANNOT_CHALLENGE_SELF,
    GAME_OVER,
    ILLEGAL_MOVE,
    NO_SUCH_CHALLENGE,
    NO_SUCH_GAME,
    NOT_A_PLAYER,
    NOT_YOUR_TURN,
    SERVER_ERROR,
    STALE_PLY,
    USER_OFFLINE,
    ChallengeInfo,
    ClientMessage,
    RequestId,
    State,
    side_name,
)
from reversi_tui.net.store import StaleMove, Store, StoredChallenge, StoreError


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
    resigned: Color | None = None
    watchers: set[Peer] = field(default_factory=set)
    #: A checked move waiting for the next group commit: (peer, re, ply, square).
    pending: tuple[Peer, RequestId | None, int, int] | None = None

    @property
    def over(self) -> bool:
        return self.resigned is not None or self.game.is_over

    def player(self, user: str) -> Color | None:
        if user == self.black:
            return Color.BLACK
        if user == self.white:
            return Color.WHITE
        return None


class Hub:
    """All the server's state and rules."""

    def __init__(
        self,
        store: Store,
        host: str,
        *,
        rng: random.Random | None = None,
        log: Callable[[str], None] = lambda _: None,
        defer: Callable[[Callable[[], None]], object] | None = None,
    ) -> None:
        """``defer`` runs a callable soon (the event loop's ``call_soon``): moves checked
        meanwhile are committed together. None commits each move at once."""
        self.store = store
        self.defer = defer
        self._batch: list[LiveGame] = []
        self.host = host
        self.rng = rng or random.Random()
        self.log = log
        self.peers: dict[str, list[Peer]] = {}
        self.waiting: set[str] = set()
        self.games: dict[int, LiveGame] = {}
        self.challenges: dict[int, StoredChallenge] = {c.id: c for c in store.pending_challenges()}
        for stored in store.games(unfinished_only=True):
            resigned = None if stored.resigned is None else _colour(stored.resigned)
            game = Game.from_moves(None, stored.moves)
            self.games[stored.id] = LiveGame(stored.id, stored.black, stored.white, game, resigned)

    # Sessions -----------------------------------------------------------------------
    def sessions(self, user: str) -> list[Peer]:
        return self.peers.get(user, [])

    def online(self, user: str) -> bool:
        return bool(self.peers.get(user))

    def join(self, peer: Peer, re: RequestId | None) -> None:
        """A session said hello: welcome it, and tell everyone if its user just came."""
        first = not self.online(peer.user)
        self.peers.setdefault(peer.user, []).append(peer)
        user = peer.user
        mine = [g for g in self.games.values() if g.player(user) is not None and not g.over]
        challenges = [
            ChallengeInfo(challenge=c.id, from_=c.challenger, to=c.target, color=_color(c.color))
            for c in self.challenges.values()
            if user in (c.challenger, c.target)
        ]
        welcome = protocol.Welcome(
            version=protocol.VERSION,
            user=user,
            host=self.host,
            games=[self.state(g) for g in mine],
            challenges=challenges,
            re=re,
        )
        peer.send_line(protocol.encode(welcome))
        if first:
            self.log(f"{user} is online")
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
            del self.peers[peer.user]
            self.waiting.discard(peer.user)
            self.log(f"{peer.user} is offline")
            self._presence(peer.user)

    # Requests -----------------------------------------------------------------------
    def handle(self, peer: Peer, message: ClientMessage) -> None:
        """One request of a welcomed session."""
        re = message.id
        if isinstance(message, protocol.Ping):
            self._reply(peer, protocol.Pong(re=re))
        elif isinstance(message, protocol.LobbyRequest):
            self._reply(peer, self.lobby(re))
        elif isinstance(message, protocol.Wait):
            if message.on:
                self.waiting.add(peer.user)
            else:
                self.waiting.discard(peer.user)
            self._presence(peer.user)
        elif isinstance(message, protocol.Challenge):
            self._challenge(peer, message)
        elif isinstance(message, protocol.Accept | protocol.Decline | protocol.Cancel):
            self._answer(peer, message)
        elif isinstance(message, protocol.MoveRequest):
            self._move(peer, message)
        elif isinstance(message, protocol.Resign):
            self._resign(peer, message)
        elif isinstance(message, protocol.Watch | protocol.Unwatch):
            self._watch(peer, message)
        elif isinstance(message, protocol.ChatRequest):
            self._chat(peer, message)
        elif isinstance(message, protocol.Hello):
            self._error(peer, protocol.BAD_MESSAGE, "hello is said once, at the start", re)

    def lobby(self, re: RequestId | None = None) -> protocol.LobbyReply:
        active = [g for g in self.games.values() if not g.over]
        playing = {u for g in active for u in (g.black, g.white)}
        players = [
            protocol.PlayerInfo(user=u, waiting=u in self.waiting, playing=u in playing)
            for u in sorted(self.peers)
        ]
        games = [
            protocol.GameInfo(
                game=g.id,
                black=g.black,
                white=g.white,
                ply=len(g.game.moves) - _passes(g.game),
                spectators=len(g.watchers),
            )
            for g in sorted(active, key=lambda g: g.id)
        ]
        return protocol.LobbyReply(players=players, games=games, re=re)

    def _challenge(self, peer: Peer, message: protocol.Challenge) -> None:
        user, target, re = peer.user, message.to, message.id
        if target == user:
            self._error(peer, CANNOT_CHALLENGE_SELF, "you cannot challenge yourself", re)
            return
        if not self.online(target):
            self._error(peer, USER_OFFLINE, f"{target} is not online", re)
            return
        try:
            challenge = self.store.create_challenge(user, target, message.color)
        except StoreError as error:
            self._failed(peer, error, re)
            return
        self.challenges[challenge.id] = challenge
        self.log(f"{user} challenges {target} (challenge {challenge.id})")
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
            self._error(peer, NO_SUCH_CHALLENGE, f"no challenge {message.challenge} for you", re)
            return
        if isinstance(message, protocol.Accept):
            self._start_game(peer, challenge, re)
            return
        try:
            self.store.close_challenge(challenge.id)
        except StoreError as error:
            self._failed(peer, error, re)
            return
        del self.challenges[challenge.id]
        reason = "cancelled" if isinstance(message, protocol.Cancel) else "declined"
        other = challenge.target if reason == "cancelled" else challenge.challenger
        closed = protocol.ChallengeClosed(challenge=challenge.id, reason=reason)
        self._reply(peer, protocol.ChallengeClosed(challenge=challenge.id, reason=reason, re=re))
        self._send(self.sessions(other), protocol.encode(closed))
        self._send((p for p in self.sessions(user) if p is not peer), protocol.encode(closed))

    def _start_game(self, peer: Peer, challenge: StoredChallenge, re: RequestId | None) -> None:
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
        live = LiveGame(stored.id, black, white, Game())
        self.games[live.id] = live
        self.log(f"game {live.id}: {black} (black) against {white} (white)")
        self._broadcast(live, re_for=(peer, re))

    def _players_game(
        self, peer: Peer, game_id: int, re: RequestId | None
    ) -> tuple[LiveGame, Color] | None:
        """The game in progress ``peer`` plays in, and their colour; else the refusal
        (``no_such_game``, ``not_a_player``, ``game_over``, in that order) is sent."""
        live = self.games.get(game_id)
        if live is None:
            self._error(peer, NO_SUCH_GAME, f"no game {game_id} in progress", re)
            return None
        colour = live.player(peer.user)
        if colour is None:
            self._error(peer, NOT_A_PLAYER, f"you do not play in game {live.id}", re)
            return None
        if live.over:
            self._error(peer, GAME_OVER, f"game {live.id} is over", re)
            return None
        return live, colour

    def _move(self, peer: Peer, message: protocol.MoveRequest) -> None:
        re = message.id
        found = self._players_game(peer, message.game, re)
        if found is None:
            return
        live, colour = found
        ply = len(live.game.moves) - _passes(live.game) + (live.pending is not None)
        if message.ply != ply or live.pending is not None:
            peer.send_line(
                protocol.encode(
                    protocol.Error(
                        code=STALE_PLY,
                        message=f"game {live.id} is at ply {ply}, not {message.ply}",
                        expected=ply,
                        re=re,
                    )
                )
            )
            return
        if live.game.turn is not colour:
            self._error(peer, NOT_YOUR_TURN, f"it is {live.game.turn.title}'s turn", re)
            return
        try:
            square = parse_square(message.square)
        except NotationError:
            self._error(peer, ILLEGAL_MOVE, f"{message.square[:8]!r} is not a square", re)
            return
        position = live.game.position
        if position.color_at(square) is not None:
            self._error(peer, ILLEGAL_MOVE, f"{message.square} is taken", re)
            return
        if not position.flips(square):
            self._error(peer, ILLEGAL_MOVE, f"{message.square} flips nothing", re)
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
                    self._error(peer, STALE_PLY, f"game {live.id} moved on", re)
                except StoreError as error:
                    live.pending = None
                    self._failed(peer, error, re)
        for live in committed:
            assert live.pending is not None
            peer, re, _, square = live.pending
            live.pending = None
            live.game.play(square)
            self.log(f"game {live.id}: {peer.user} plays {square_name(square)}")
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
        self.log(f"game {live.id}: {peer.user} resigns")
        self._broadcast(live, re_for=(peer, re))

    def _finish(self, live: LiveGame) -> None:
        try:
            self.store.finish_game(live.id)
        except StoreError as error:
            self.log(f"game {live.id}: cannot record its end: {error}")
        self.log(f"game {live.id} is over")

    def _watch(self, peer: Peer, message: protocol.Watch | protocol.Unwatch) -> None:
        re = message.id
        live = self.games.get(message.game) or self._load(message.game)
        if live is None:
            self._error(peer, NO_SUCH_GAME, f"no game {message.game}", re)
            return
        if isinstance(message, protocol.Watch) and live.player(peer.user) is None:
            live.watchers.add(peer)
        elif isinstance(message, protocol.Unwatch):
            live.watchers.discard(peer)
        self._reply(peer, self.state(live, re=re))
        audience = [p for p in self._audience(live) if p is not peer]
        self._send(audience, protocol.encode(self.state(live)))

    def _load(self, game_id: int) -> LiveGame | None:
        """A finished game from the store (to watch or review); not kept."""
        try:
            stored = self.store.game(game_id)
        except StoreError:
            return None
        if stored is None:
            return None
        resigned = None if stored.resigned is None else _colour(stored.resigned)
        game = Game.from_moves(None, stored.moves)
        return LiveGame(stored.id, stored.black, stored.white, game, resigned)

    def _chat(self, peer: Peer, message: protocol.ChatRequest) -> None:
        text = protocol.clean_text(message.text)
        if not text:
            return
        if message.game is None:
            audience: Iterable[Peer] = [p for ps in self.peers.values() for p in ps]
        else:
            live = self.games.get(message.game)
            if live is None:
                self._error(peer, NO_SUCH_GAME, f"no game {message.game} in progress", message.id)
                return
            audience = self._audience(live)
        line = protocol.encode(protocol.ChatMessage(from_=peer.user, game=message.game, text=text))
        self._send(audience, line)

    # Sending ------------------------------------------------------------------------
    def state(self, live: LiveGame, re: RequestId | None = None) -> State:
        return protocol.state_of(
            live.id,
            live.black,
            live.white,
            live.game,
            resigned=live.resigned,
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

    def _error(self, peer: Peer, code: str, text: str, re: RequestId | None) -> None:
        peer.send_line(protocol.encode(protocol.Error(code=code, message=text, re=re)))

    def _failed(self, peer: Peer, error: StoreError, re: RequestId | None) -> None:
        self.log(f"store: {error}")
        self._error(peer, SERVER_ERROR, "the server cannot save that now; try again", re)


def _passes(game: Game) -> int:
    return sum(1 for move in game.moves if move < 0)


def _colour(side: str) -> Color:
    return Color.BLACK if side == "black" else Color.WHITE


def _color(text: str) -> protocol.ChallengeColor:
    return "black" if text == "black" else "white" if text == "white" else "random"
