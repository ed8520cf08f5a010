"""What a client knows of the server, kept up to date from its messages; no UI.

``OnlineSession`` runs a ``Client`` and folds every server message into a picture
the screens draw from: who is online and waiting, the games in progress, the
challenges to and from the user, and one ``GameLink`` per game the user plays or
watches. Screens subscribe to hear that something changed, and send requests
through the session's small methods.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field

from reversi_tui.net import protocol
from reversi_tui.net.client import Client
from reversi_tui.net.protocol import (
    ChallengeColor,
    ChallengeInfo,
    GameInfo,
    PlayerInfo,
    ServerMessage,
    State,
)
from reversi_tui.net.remote import GameLink


@dataclass(frozen=True)
class Notice:
    """Something to tell the user in a line (an error, a challenge closed, a chat line)."""

    text: str
    #: ``information``, ``warning`` or ``error``.
    severity: str = "information"


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


Listener = Callable[[ServerMessage | Notice], None]


class OnlineSession:
    """The user's online session: the client, the picture and the games' links."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.picture = Picture()
        self.links: dict[int, GameLink] = {}
        self.status = "Connecting..."
        self._listeners: list[Listener] = []
        #: Exceptions raised by listeners (kept for tests and reports).
        self.failures: list[Exception] = []
        self._ids = itertools.count(1)

    @classmethod
    def connect(cls, socket: str | None = None) -> OnlineSession:
        """A session over a client that finds (or starts) the server."""
        session: OnlineSession
        client = Client(
            lambda m: session.receive(m), lambda s: session.set_status(s), socket=socket
        )
        session = cls(client)
        return session

    @property
    def user(self) -> str | None:
        return self.client.user

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
        self.status = text
        self._tell(Notice(text))

    # Messages in -------------------------------------------------------------------
    def receive(self, message: ServerMessage) -> None:
        """Fold one server message into the picture, then tell the listeners."""
        picture = self.picture
        if isinstance(message, protocol.Welcome):
            picture.my_games = list(message.games)
            picture.challenges = {c.challenge: c for c in message.challenges}
            for state in message.games:
                self._update_link(state)
            self.request(protocol.LobbyRequest())
            for game in self.links:  # watch again what was open before a reconnection
                self.request(protocol.Watch(game=game))
        elif isinstance(message, protocol.LobbyReply):
            picture.players = list(message.players)
            picture.games = list(message.games)
        elif isinstance(message, protocol.Presence):
            self._presence(message)
            for link in self.links.values():
                link.set_online(message.user, message.online)
        elif isinstance(message, protocol.Challenged):
            me = self.user or "?"
            picture.challenges[message.challenge] = ChallengeInfo(
                challenge=message.challenge, from_=message.from_, to=me, color=message.color
            )
        elif isinstance(message, protocol.ChallengeSent):
            picture.challenges[message.challenge] = ChallengeInfo(
                challenge=message.challenge,
                from_=self.user or "?",
                to=message.to,
                color=message.color,
            )
        elif isinstance(message, protocol.ChallengeClosed):
            picture.challenges.pop(message.challenge, None)
        elif isinstance(message, State):
            self._update_link(message)
            picture.my_games = [g for g in picture.my_games if g.game != message.game]
            if message.status == "active" and self.user in (message.black, message.white):
                picture.my_games.append(message)
            self._drop_accepted(message)
        self._tell(message)

    def _presence(self, message: protocol.Presence) -> None:
        players = [p for p in self.picture.players if p.user != message.user]
        if message.online:
            playing = any(p.playing for p in self.picture.players if p.user == message.user)
            players.append(PlayerInfo(user=message.user, waiting=message.waiting, playing=playing))
        self.picture.players = sorted(players, key=lambda p: p.user)
        if message.user == self.user:
            self.picture.waiting = message.waiting

    def _update_link(self, state: State) -> None:
        link = self.links.get(state.game)
        if link is None:
            me = self.user if self.user in (state.black, state.white) else None
            self.links[state.game] = GameLink(state, me, self.client.send)
        else:
            link.update(state)

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

    def challenge(self, user: str, color: ChallengeColor) -> bool:
        return self.request(protocol.Challenge(to=user, color=color))

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

    def unwatch(self, game: int) -> bool:
        self.links.pop(game, None)
        return self.request(protocol.Unwatch(game=game))

    def resign(self, game: int) -> bool:
        return self.request(protocol.Resign(game=game))

    def chat(self, text: str, game: int | None = None) -> bool:
        text = protocol.clean_text(text)[: protocol.MAX_CHAT]
        return bool(text) and self.request(protocol.ChatRequest(text=text, game=game))
