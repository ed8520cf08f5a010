"""A hub without a network for the tests of issue 18: fake peers that keep what they
are sent, a clock the test moves, and a game started between two users."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from reversi_tui.net import protocol
from reversi_tui.net.hub import Hub
from reversi_tui.net.store import SqliteStore

#: Two moves each, Black first: a game past them ends with a result, not aborted.
OPENING = ("d3", "c5", "f6", "f5")


class Peer:
    def __init__(self, user: str) -> None:
        self._user = user
        self.lines: list[dict[str, Any]] = []

    @property
    def user(self) -> str:
        return self._user

    def send_line(self, line: bytes) -> None:
        self.lines.append(json.loads(line))

    def take(self, kind: str | None = None) -> list[dict[str, Any]]:
        """The lines received since the last take (of ``kind`` only, if given)."""
        lines, self.lines = self.lines, []
        return [line for line in lines if kind is None or line["type"] == kind]

    def last(self, kind: str) -> dict[str, Any]:
        found = [line for line in self.lines if line["type"] == kind]
        assert found, f"{self.user} got no {kind}: {self.lines}"
        return found[-1]


class Clock:
    """Monotonic seconds the test moves by hand."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class World:
    """A hub on a store in ``directory``, its fake clock, and peers by name."""

    def __init__(self, directory: Path, clock: Clock | None = None) -> None:
        self.directory = directory
        self.clock = clock or Clock()
        self.store = SqliteStore(directory / "db" / "online.sqlite3")
        self.hub = Hub(self.store, rng=random.Random(1), clock=self.clock)
        self.peers: dict[str, Peer] = {}

    def reopen(self) -> None:
        """The server restarts: a new hub on the same store (sessions are gone)."""
        self.store.close()
        self.store = SqliteStore(self.directory / "db" / "online.sqlite3")
        self.hub = Hub(self.store, rng=random.Random(1), clock=self.clock)
        self.peers = {}

    def join(self, user: str) -> Peer:
        peer = Peer(user)
        self.hub.join(peer, None)
        self.peers.setdefault(user, peer)
        return peer

    def send(self, peer: Peer, **message: Any) -> None:
        self.hub.handle(peer, protocol.decode_client(json.dumps(message).encode()))

    def start(
        self,
        black: Peer,
        white: Peer,
        *,
        clock: tuple[int, int] | None = None,
        rated: bool = False,
    ) -> int:
        """``black`` challenges ``white`` as Black; ``white`` accepts: the game's number."""
        extra: dict[str, Any] = {"rated": rated}
        if clock is not None:
            extra["clock"] = {"minutes": clock[0], "increment": clock[1]}
        self.send(black, type="challenge", to=white.user, color="black", **extra)
        challenge = black.last("challenge_sent")["challenge"]
        self.send(white, type="accept", challenge=challenge)
        return int(white.last("state")["game"])

    def opening(self, black: Peer, white: Peer, game: int) -> None:
        """Two moves each (``OPENING``): past the abort, so an end now has a result."""
        for peer, square in zip((black, white) * 2, OPENING, strict=True):
            assert self.move(peer, game, square)["type"] == "state"

    def move(self, peer: Peer, game: int, square: str, **extra: Any) -> dict[str, Any]:
        """``peer`` plays ``square``: the answer (a state or an error)."""
        live = self.hub.games.get(game)
        ply = live.ply if live is not None else 0
        peer.lines.clear()
        self.send(peer, type="move", game=game, ply=ply, square=square, id="m", **extra)
        answers = [line for line in peer.lines if line.get("re") == "m"]
        assert answers, peer.lines
        return answers[-1]

    def close(self) -> None:
        self.store.close()
