"""What a client knows of the server, kept up to date from its messages; no UI.

``OnlineSession`` runs a ``Client`` and folds every server message into a picture
the screens draw from: who is online and waiting, the games in progress, the
challenges to and from the user, the user's games waiting to be resumed, and one
``GameLink`` per game the user plays or watches, keyed by the game's origin (the
server and number it began with), never by a number alone. It keeps the player's
own copy of every unfinished game they play (``copies``), presents the copies the
server does not hold (``resume``), says when the server's copy disagrees with the
player's, and hands each finished game to ``recorder`` (the records keep it once).
Screens subscribe to hear that something changed, and send requests through the
session's small methods.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import assert_never

from reversi_tui.net import protocol
from reversi_tui.net.client import Client
from reversi_tui.net.copies import COPIES_DIR, Copies, GameCopy, compare
from reversi_tui.net.protocol import (
    ActivityStatus,
    ChallengeColor,
    ChallengeInfo,
    ChatLine,
    GameInfo,
    PlayerInfo,
    ServerMessage,
    State,
    TimeControl,
)
from reversi_tui.net.remote import GameLink, state_problem
from reversi_tui.net.trust import KnownServers, Owner, warning

#: Asks the player whether to use a server run by another user: (owner, warning) -> yes?
Asker = Callable[[Owner, str], Awaitable[bool]]
#: Keeps a finished game of the player's in their records (once per origin).
Recorder = Callable[[State], None]


@dataclass(frozen=True)
class Notice:
    """Something to tell the user in a line (an error, a challenge closed, a chat line)."""

    text: str
    #: ``information``, ``warning`` or ``error``.
    severity: str = "information"


@dataclass(frozen=True)
class YourTurn(Notice):
    """It became the user's turn in one of their games (told after its state)."""

    origin: str = ""
    game: int = 0
    opponent: str = ""


@dataclass(frozen=True)
class TurnPassed(Notice):
    """A turn told with ``YourTurn`` is the user's no longer (they moved, the game
    ended, or no server holds it): a line still saying ``said`` is stale."""

    origin: str = ""
    said: str = ""


#: What a game's screen says while no server holds the game (the connection is gone).
UNHELD = "No server holds this game now:"

#: Chat lines kept per game here (the server keeps its own, shorter history).
CHAT_KEPT = 200
#: ``resume`` requests unanswered at once, and sent in any second: well within the
#: server's rate limit (``protocol.RATE_BURST``, ``RATE_PER_SECOND``), beside the
#: welcome's other requests and the player's own.
RESUMES_IN_FLIGHT = 10
RESUMES_PER_SECOND = 8


@dataclass
class Picture:
    """The client's view of the server."""

    players: list[PlayerInfo] = field(default_factory=list)
    games: list[GameInfo] = field(default_factory=list)
    #: Pending challenges by id, to and from the user (``color`` is the challenger's).
    challenges: dict[int, ChallengeInfo] = field(default_factory=dict)
    #: The user's unfinished games from the last ``welcome``.
    my_games: list[State] = field(default_factory=list)
    waiting: bool = False
    #: The user's games this server does not hold yet, by origin: the copy, and where
    #: its resumption stands (for the lobby and the game screen).
    resuming: dict[str, tuple[GameCopy, str]] = field(default_factory=dict)
    #: Each game's chat, oldest first, by origin: the server's history, then new lines.
    chat: dict[str, list[ChatLine]] = field(default_factory=dict)
    #: The games whose watchers' chat the user hides, by origin (kept, not shown: the
    #: server sends it all the same, within its per-game cap).
    muted: set[str] = field(default_factory=set)

    def shown_chat(self, origin: str) -> list[ChatLine]:
        """The game's chat as the user wants it: without watchers' lines when muted."""
        lines = self.chat.get(origin, [])
        return [line for line in lines if not line.watcher] if origin in self.muted else lines


Listener = Callable[[ServerMessage | Notice], None]


class OnlineSession:
    """The user's online session: the client, the picture and the games' links."""

    def __init__(
        self,
        client: Client,
        *,
        copies: Copies | None = None,
        known: KnownServers | None = None,
        ask: Asker | None = None,
        recorder: Recorder | None = None,
    ) -> None:
        self.client = client
        self.picture = Picture()
        #: The games open here, by origin.
        self.links: dict[str, GameLink] = {}
        self.status = "Connecting..."
        self.copies = copies or Copies(None)
        self.known = known or KnownServers(None)
        self.ask = ask
        self.recorder = recorder
        self._listeners: list[Listener] = []
        #: Exceptions raised by listeners (kept for tests and reports).
        self.failures: list[Exception] = []
        self._ids = itertools.count(1)
        #: ``resume`` requests in flight: request id -> origin.
        self._resumes: dict[int, str] = {}
        #: Copies still to present, sent as earlier ones are answered (``RESUMES_IN_FLIGHT``).
        self._to_present: list[GameCopy] = []
        #: Origins asked again once after the rate limit dropped their ``resume``.
        self._retried: set[str] = set()
        #: When the latest ``resume`` requests were sent (``time.monotonic``), and the
        #: timer that sends the next ones when the second allows.
        self._presented_at: list[float] = []
        self._next_present: asyncio.TimerHandle | None = None
        #: Where the user is, as last told to the server (a session starts in the lobby).
        self.activity: ActivityStatus = "lobby"
        #: The origin of the game last shown (the lobby goes back into it after a welcome).
        self.last_shown: str | None = None
        #: A game to open as soon as the lobby is back on top (an accepted rematch).
        self.open_next: str | None = None
        #: The ``YourTurn`` told for each game where it is still the user's move.
        self._turns_told: dict[str, YourTurn] = {}
        if client.vet is None:
            client.vet = self._vet

    @classmethod
    def connect(
        cls,
        socket: str | None = None,
        *,
        data_dir: Path | None = None,
        ask: Asker | None = None,
        recorder: Recorder | None = None,
    ) -> OnlineSession:
        """A session over a client that finds (or starts) the server; the player's
        copies and decisions live in ``data_dir`` (None: in memory only)."""
        session: OnlineSession
        client = Client(
            lambda m: session.receive(m),
            lambda s: session.set_status(s),
            socket=socket,
            data_dir=data_dir,
        )
        session = cls(
            client,
            copies=Copies(None if data_dir is None else data_dir / COPIES_DIR),
            known=KnownServers(data_dir),
            ask=ask,
            recorder=recorder,
        )
        return session

    @property
    def user(self) -> str | None:
        return self.client.user

    @property
    def server(self) -> str | None:
        """The identity of the server's store, from ``welcome``."""
        return self.client.server

    def link(self, origin: str) -> GameLink | None:
        return self.links.get(origin)

    # Who runs the server -------------------------------------------------------------
    async def _vet(self, owner: Owner, address: str) -> bool:
        """A server run by another ordinary user: the remembered answer, else the player's."""
        known = self.known
        decided = known.decision(owner)
        if decided is None and self.ask is not None:
            decided = await self.ask(owner, warning(owner, address, known.last))
            known.remember(owner, decided)
        self._problems()
        if decided:
            known.used(owner)
            self._problems()
        return bool(decided)

    def forget_refusal(self) -> None:
        """Ask again about the server's owner the player refused (``r`` in the lobby)."""
        owner = self.client.owner
        if owner is not None and self.known.decision(owner) is False:
            self.known.forget(owner)

    def _problems(self) -> None:
        for source in (self.copies.problems, self.known.problems):
            while source:
                self._tell(Notice(source.pop(0), "warning"))

    # Listeners ---------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def _tell(self, event: ServerMessage | Notice) -> None:
        """Every listener hears ``event``; one that fails does not cost the connection."""
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception as error:  # a display's bug: reported, the session goes on
                self.failures.append(error)
                if not isinstance(event, Notice):
                    self._tell(Notice(f"Internal error while showing {event}: {error!r}", "error"))

    def set_status(self, text: str) -> None:
        """News of the connection; while there is none, no server holds the games here."""
        self.status = text
        if not self.client.connected:
            self._unheld(text)
        self._tell(Notice(text))

    def _unheld(self, why: str) -> None:
        """The connection is gone: every unfinished game here stops taking moves (and
        its clocks stop here) until a server holds it again and sends its state."""
        for link in self.links.values():
            if link.state.status == "active":
                link.set_waiting(f"{UNHELD} {why}")

    # Messages in -------------------------------------------------------------------
    def receive(self, message: ServerMessage) -> None:
        """Fold one server message into the picture, then tell the listeners."""
        picture = self.picture
        after: Notice | None = None
        match message:
            case protocol.Welcome():
                states = message.games
            case State():
                states = [message]
            case _:
                states = []
        for state in states:
            problem = state_problem(state)
            if problem is not None:
                self._tell(
                    Notice(
                        f"The server sent game {state.game} with moves that do not follow "
                        f"the rules ({problem}): ignored.",
                        "error",
                    )
                )
                return
        match message:
            case protocol.Welcome():
                self._welcome(message)
            case protocol.ResumePending():
                self._resuming(message.origin, f"waiting for {message.waiting_for} to come back")
                self._answered(message.origin)
            case protocol.Error():
                re = message.re
                origin = self._resumes.pop(re, None) if isinstance(re, int) else None
                limited = message.code == protocol.ErrorCode.RATE_LIMITED
                if origin is not None and limited and origin not in self._retried:
                    self._retry(origin)
                elif origin is not None:
                    self._resuming(origin, f"cannot be resumed: {message.message}")
                    self._present_more()
            case protocol.LobbyReply():
                picture.players = list(message.players)
                picture.games = list(message.games)
            case protocol.Presence():
                self._presence(message)
                for link in self.links.values():
                    link.set_online(message.user, message.online)
            case protocol.Challenged():
                picture.challenges[message.challenge] = _info(
                    message, message.from_, self.user or "?"
                )
            case protocol.ChallengeSent():
                picture.challenges[message.challenge] = _info(message, self.user or "?", message.to)
            case protocol.ChatHistory():
                picture.chat[message.origin] = list(message.lines)[-CHAT_KEPT:]
            case protocol.ChatMessage():
                origin = None if message.game is None else self._origin_of(message.game)
                if origin is not None:
                    line = ChatLine(from_=message.from_, text=message.text, watcher=message.watcher)
                    picture.chat[origin] = [*picture.chat.get(origin, []), line][-CHAT_KEPT:]
            case protocol.ChallengeClosed():
                closed = picture.challenges.pop(message.challenge, None)
                if closed is not None:
                    after = Notice(closed_words(closed, message.reason, self.user))
            case State():
                self._answered(message.origin)
                after = self._state(message)
                picture.my_games = [g for g in picture.my_games if g.origin != message.origin]
                if message.status == "active" and self.user in (message.black, message.white):
                    picture.my_games.append(message)
                self._drop_accepted(message)
            case protocol.Pong() | protocol.Bye():
                pass  # the connection's own (net/client.py); listeners are told below
            case _:  # mypy fails here when a new ServerMessage has no case above
                assert_never(message)
        self._tell(message)
        if after is not None:
            self._tell(after)
        self._problems()

    def _origin_of(self, game: int) -> str | None:
        """The origin of game number ``game`` on this server, if known here."""
        for link in self.links.values():
            if link.game == game and link.server == self.server:
                return link.origin
        return next((s.origin for s in self.picture.my_games if s.game == game), None)

    def _welcome(self, message: protocol.Welcome) -> None:
        """A (new) server: its games against the player's copies; the copies it does not
        hold are presented to it; games watched before are watched again if it has them."""
        picture = self.picture
        if self.activity != "lobby":  # a new session starts in the lobby
            self.request(protocol.Activity(status=self.activity))
        picture.my_games = list(message.games)
        picture.challenges = {c.challenge: c for c in message.challenges}
        picture.resuming = {}
        self._resumes = {}
        self._to_present = []
        self._retried = set()
        if self._next_present is not None:
            self._next_present.cancel()
            self._next_present = None
        held = {state.origin for state in message.games}
        for state in message.games:
            self._state(state)  # no "your move" for each: the lobby lists them
        for aside in message.set_aside:
            self._tell(
                Notice(
                    f"The server set aside your game {aside.game} ({aside.black} against "
                    f"{aside.white}): {aside.reason}. Your copy can resume it.",
                    "warning",
                )
            )
        self.request(protocol.LobbyRequest())
        for copy in self.copies.all():
            if copy.origin not in held and self.user in (copy.black, copy.white):
                self._resuming(copy.origin, "waiting to ask the server to resume it", copy)
                self._to_present.append(copy)
        self._present_more()
        for origin, link in list(self.links.items()):
            if origin in held or origin in picture.resuming:
                continue
            if link.me is None and link.server == message.server:
                self.request(protocol.Watch(game=link.game))  # watched before a reconnection
            elif link.me is None:
                link.set_waiting("This game is on another server, which stopped.")
            else:
                link.set_waiting("This server does not hold the game, and you have no copy of it.")

    def _present_more(self) -> None:
        """Present the next copies, at most ``RESUMES_IN_FLIGHT`` unanswered at once and
        ``RESUMES_PER_SECOND`` a second: a player with many copies stays within the
        server's rate limit, and every copy is asked about in the end."""
        self._next_present = None
        while self._to_present and len(self._resumes) < RESUMES_IN_FLIGHT:
            now = time.monotonic()
            self._presented_at = [t for t in self._presented_at if now - t < 1.0]
            if len(self._presented_at) >= RESUMES_PER_SECOND:
                self._present_later(1.0 - (now - self._presented_at[0]))
                return
            self._presented_at.append(now)
            self._present(self._to_present.pop(0))

    def _present_later(self, seconds: float) -> None:
        """Go on presenting in ``seconds`` (once: a timer already set stands)."""
        if self._next_present is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a test driving the session by hand): at once
            self._presented_at = []
            self._present_more()
            return
        self._next_present = loop.call_later(max(seconds, 0.01), self._present_more)

    def _answered(self, origin: str) -> None:
        """The server answered the ``resume`` for ``origin`` (a state, or waiting)."""
        for number, asked in list(self._resumes.items()):
            if asked == origin:
                del self._resumes[number]
        self._present_more()

    def _retry(self, origin: str) -> None:
        """A ``resume`` dropped by the rate limit: asked again once, after the others."""
        self._retried.add(origin)
        copy = self.copies.get(origin)
        if copy is not None:
            self._to_present.append(copy)
        self._present_more()

    def _present(self, copy: GameCopy) -> None:
        """Ask the server to resume a game from the player's copy."""
        number = next(self._ids)
        self._resumes[number] = copy.origin
        self._resuming(copy.origin, "asking the server to resume it", copy)
        self.request(copy.resume(number))

    def _resuming(self, origin: str, stands: str, copy: GameCopy | None = None) -> None:
        known = self.picture.resuming.get(origin)
        copy = copy or (known[0] if known is not None else self.copies.get(origin))
        if copy is None:
            return
        self.picture.resuming[origin] = (copy, stands)
        link = self.links.get(origin)
        if link is not None:
            link.set_waiting(f"This game is not on this server yet: {stands}.")

    def _state(self, state: State) -> Notice | None:
        """A game's state: checked against the player's copy, kept, recorded at its end;
        a ``YourTurn`` when it has just become the user's turn in it."""
        server = self.server or ""
        before = self.links.get(state.origin)
        was_my_turn = before is not None and before.my_turn and before.state.ply == state.ply
        mine = self.user in (state.black, state.white)
        conflict: str | None = None
        if mine:
            copy = self.copies.get(state.origin)
            comparison = compare(copy, state, server) if copy is not None else None
            if comparison is not None and comparison.conflict is not None:
                conflict = (
                    f"The server's copy of this game differs from yours: {comparison.conflict}. "
                    "Not playing on; your copy is kept."
                )
                self._tell(Notice(conflict, "error"))
            else:
                if comparison is not None and comparison.dropped:
                    moves = "move" if comparison.dropped == 1 else "moves"
                    self._tell(
                        Notice(
                            f"{comparison.dropped} {moves} of your copy never reached both "
                            f"players before the server stopped: the game goes on from move "
                            f"{state.ply + 1}.",
                            "warning",
                        )
                    )
                self.picture.resuming.pop(state.origin, None)
                if state.status == "finished":
                    aborted = state.result is not None and state.result.reason == "aborted"
                    if self.recorder is not None and not aborted:  # no result to keep
                        self.recorder(state)
                    self.copies.drop(state.origin)
                else:
                    self.copies.save(GameCopy.of(state, server))
        self._update_link(state, conflict)
        link = self.links[state.origin]
        if not link.my_turn:
            return self._turn_passed(link)
        if was_my_turn:
            return None
        colour = link.my_colour
        assert colour is not None
        opponent = link.name(colour.opponent)
        told = self._turns_told[state.origin] = YourTurn(
            f"Your move in game {state.game} against {opponent}.",
            origin=state.origin,
            game=state.game,
            opponent=opponent,
        )
        return told

    def _turn_passed(self, link: GameLink) -> TurnPassed | None:
        """A ``TurnPassed`` when the turn told in ``link``'s game is gone."""
        told = self._turns_told.pop(link.origin, None)
        if told is None:
            return None
        if link.state.status != "active":
            now = "is over"
        elif not link.playable:
            now = "cannot be played now"
        else:
            now = f"waits for {told.opponent}"
        return TurnPassed(
            f"Game {link.game} against {told.opponent} {now}.",
            origin=link.origin,
            said=told.text,
        )

    def _presence(self, message: protocol.Presence) -> None:
        players = [p for p in self.picture.players if p.user != message.user]
        if message.online:
            known = [p for p in self.picture.players if p.user == message.user]
            playing = any(p.playing for p in known)
            rating = known[0].rating if known else protocol.NEW_RATING
            players.append(
                PlayerInfo(
                    user=message.user,
                    waiting=message.waiting,
                    playing=playing,
                    status=message.status,
                    rating=rating,
                )
            )
        self.picture.players = sorted(players, key=lambda p: p.user)
        if message.user == self.user:
            self.picture.waiting = message.waiting

    def _update_link(self, state: State, conflict: str | None = None) -> None:
        link = self.links.get(state.origin)
        if link is None:
            me = self.user if self.user in (state.black, state.white) else None
            link = self.links[state.origin] = GameLink(state, me, self.client.send, self.server)
        else:
            link.update(state, self.server)
        link.set_conflict(conflict)

    def open_copy(self, origin: str) -> GameLink | None:
        """A link for a game waiting to be resumed: its board from the player's copy,
        not playable until the server holds the game."""
        found = self.picture.resuming.get(origin)
        if found is None:
            return self.links.get(origin)
        copy, stands = found
        link = self.links.get(origin)
        if link is None:
            state = protocol.State(
                game=copy.game,
                origin=copy.origin,
                started=copy.started,
                black=copy.black,
                white=copy.white,
                moves=copy.moves,
                ply=len(copy.moves) // 2,
                board="-" * 64,
                turn=None,
                status="active",
                result=None,
                spectators=0,
                online={},
            )
            link = self.links[origin] = GameLink(state, self.user, self.client.send, copy.server)
        link.set_waiting(f"This game is not on this server yet: {stands}.")
        return link

    def _drop_accepted(self, state: State) -> None:
        """A new game between two users ends the challenge it came from."""
        for number, challenge in list(self.picture.challenges.items()):
            if {challenge.from_, challenge.to} == {state.black, state.white} and state.ply == 0:
                del self.picture.challenges[number]

    # Requests out ------------------------------------------------------------------
    def request(self, message: protocol.ClientMessage) -> bool:
        """Send a request; False (and a notice) when not connected."""
        if self.client.send(message):
            return True
        self._tell(Notice("Not connected to the server: trying again shortly.", "warning"))
        return False

    def refresh(self) -> bool:
        return self.request(protocol.LobbyRequest())

    def challenge(
        self,
        user: str,
        color: ChallengeColor,
        control: tuple[int, int] | None = None,
        rated: bool = False,
    ) -> bool:
        """Challenge ``user``: ``control`` is (minutes each, increment seconds), or None."""
        clock = None if control is None else TimeControl(minutes=control[0], increment=control[1])
        return self.request(protocol.Challenge(to=user, color=color, clock=clock, rated=rated))

    def rematch(self, game: int) -> bool:
        """Offer the other player of finished game ``game`` a rematch (or accept theirs)."""
        return self.request(protocol.Rematch(game=game))

    def claim(self, game: int, outcome: str) -> bool:
        """End ``game`` whose opponent left: ``win`` or ``draw``."""
        return self.request(
            protocol.ClaimRequest(game=game, outcome="draw" if outcome == "draw" else "win")
        )

    def set_activity(self, status: ActivityStatus) -> None:
        """Tell the server where the user is now (only when it changed)."""
        if status == self.activity:
            return
        self.activity = status
        self.client.send(protocol.Activity(status=status))

    def answer(self, challenge: int, accept: bool) -> bool:
        self.picture.challenges.pop(challenge, None)
        if accept:
            return self.request(protocol.Accept(challenge=challenge))
        return self.request(protocol.Decline(challenge=challenge))

    def cancel(self, challenge: int) -> bool:
        self.picture.challenges.pop(challenge, None)
        return self.request(protocol.Cancel(challenge=challenge))

    def set_waiting(self, on: bool) -> bool:
        return self.request(protocol.Wait(on=on))

    def watch(self, game: int) -> bool:
        return self.request(protocol.Watch(game=game))

    def unwatch(self, link: GameLink) -> bool:
        self.links.pop(link.origin, None)
        if link.server != self.server:
            return False
        return self.request(protocol.Unwatch(game=link.game))

    def resign(self, game: int) -> bool:
        return self.request(protocol.Resign(game=game))

    def mute_watchers(self, origin: str) -> bool:
        """Hide the watchers' chat of a game, or show it again: whether it is hidden now.
        A player's own choice in their app (the server does not know): cheapest, and
        nobody else's chat changes."""
        self.picture.muted ^= {origin}
        return origin in self.picture.muted

    def abort(self, game: int) -> bool:
        """End ``game`` with no result (allowed before the user's own second move)."""
        return self.request(protocol.Abort(game=game))

    def chat(self, text: str, game: int | None = None) -> bool:
        text = protocol.clean_text(text)[: protocol.MAX_CHAT]
        return bool(text) and self.request(protocol.ChatRequest(text=text, game=game))


def _info(
    message: protocol.Challenged | protocol.ChallengeSent, sender: str, target: str
) -> ChallengeInfo:
    """A challenge the user sent or got, as the lobby lists it."""
    return ChallengeInfo(
        challenge=message.challenge,
        from_=sender,
        to=target,
        color=message.color,
        clock=message.clock,
        rated=message.rated,
        rematch=message.rematch,
    )


def closed_words(challenge: ChallengeInfo, reason: str, me: str | None) -> str:
    """A closed challenge, by name, from ``me``'s side."""
    sender, target = challenge.from_, challenge.to
    if sender == me:
        return {
            "declined": f"{target} declined your challenge.",
            "cancelled": f"You withdrew your challenge to {target}.",
            "expired": f"Your challenge to {target} expired.",
        }.get(reason, f"Your challenge to {target} was {reason}.")
    return {
        "declined": f"You declined {sender}'s challenge.",
        "cancelled": f"{sender} withdrew the challenge.",
        "expired": f"{sender}'s challenge expired ({sender} left, or it was not answered).",
    }.get(reason, f"{sender}'s challenge was {reason}.")
