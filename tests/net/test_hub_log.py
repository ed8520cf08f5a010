"""The Hub logs through ``logging``, one line per event, at a level that says what it is:
sessions and games at info, refusals and set-aside games at warning, store failures at
error. No network here: peers are fakes that keep the lines they are sent."""

from __future__ import annotations

import logging
import random
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from reversi_tui.engine import Game, square_name
from reversi_tui.net import protocol
from reversi_tui.net.hub import Hub
from reversi_tui.net.store import SqliteStore, StoreError

from .hub_fakes import Peer

HUB = "reversi_tui.net.hub"
STARTED = datetime(2026, 11, 26, 8, 0, tzinfo=UTC)


class FailingStore(SqliteStore):
    """A store whose named writes fail, as a full disk would."""

    failing: frozenset[str] = frozenset()

    def _fail(self, name: str) -> None:
        if name in self.failing:
            raise StoreError(f"{name}: disk full")

    def create_challenge(self, challenger: str, target: str, color: str, **how: Any) -> Any:
        self._fail("create_challenge")
        return super().create_challenge(challenger, target, color, **how)

    def set_aside(self, game_id: int, reason: str) -> None:
        self._fail("set_aside")
        super().set_aside(game_id, reason)

    def finish_game(self, game_id: int, **how: Any) -> None:
        self._fail("finish_game")
        super().finish_game(game_id, **how)


@pytest.fixture
def store(tmp_path: Path) -> FailingStore:
    return FailingStore(tmp_path / "db" / "online.sqlite3")


@pytest.fixture
def caplog(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.INFO, logger=HUB)
    return caplog


def logged(caplog: pytest.LogCaptureFixture) -> list[tuple[int, str]]:
    """(level, line) of every Hub record so far, each one line, none with a traceback."""
    records = [r for r in caplog.records if r.name == HUB]
    assert all("\n" not in r.getMessage() and r.exc_info is None for r in records)
    return [(r.levelno, r.getMessage()) for r in records]


def a_whole_game() -> str:
    game, rng = Game(), random.Random(7)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves))
    return "".join(square_name(m) for m in game.moves if m >= 0)


def test_sessions_and_games_are_info(store: FailingStore, caplog: pytest.LogCaptureFixture) -> None:
    hub = Hub(store, rng=random.Random(1))
    ann, bob = Peer("ann"), Peer("bob")
    hub.join(ann, None)
    hub.join(bob, None)
    hub.handle(ann, protocol.Challenge(to="bob", color="black"))
    number = bob.lines[-1]["challenge"]
    hub.handle(bob, protocol.Accept(challenge=number))
    game = bob.lines[-1]["game"]
    hub.handle(ann, protocol.MoveMessage(game=game, ply=0, square="d3"))
    hub.handle(bob, protocol.Resign(game=game))
    hub.leave(bob)
    assert logged(caplog) == [
        (logging.INFO, "ann is online"),
        (logging.INFO, "bob is online"),
        (logging.INFO, f"ann challenges bob (challenge {number})"),
        (logging.INFO, f"game {game}: ann (black) against bob (white)"),
        (logging.INFO, f"game {game}: ann plays d3"),
        (logging.INFO, f"game {game}: bob resigns"),
        (logging.INFO, "bob is offline"),
    ]


def test_a_store_failure_is_one_error_line_and_a_server_error(
    store: FailingStore, caplog: pytest.LogCaptureFixture
) -> None:
    hub = Hub(store)
    ann, bob = Peer("ann"), Peer("bob")
    hub.join(ann, None)
    hub.join(bob, None)
    caplog.clear()
    store.failing = frozenset({"create_challenge"})
    hub.handle(ann, protocol.Challenge(to="bob", color="black", id=1))
    assert ann.lines[-1]["code"] == "server_error" and ann.lines[-1]["re"] == 1
    assert logged(caplog) == [(logging.ERROR, "store: create_challenge: disk full")]


def test_a_game_whose_end_cannot_be_recorded_is_one_error_line(
    store: FailingStore, caplog: pytest.LogCaptureFixture
) -> None:
    """Both players present the same finished game: it is re-created, and over."""
    hub = Hub(store)
    ann, bob = Peer("ann"), Peer("bob")
    hub.join(ann, None)
    hub.join(bob, None)
    caplog.clear()
    store.failing = frozenset({"finish_game"})
    copy = {"origin": "gone:1", "black": "ann", "white": "bob", "started": STARTED.isoformat()}
    moves = a_whole_game()
    hub.handle(ann, protocol.Resume(moves=moves, **copy))
    hub.handle(bob, protocol.Resume(moves=moves, **copy))
    assert bob.lines[-1]["status"] == "finished"
    [game] = [g.id for g in store.games()]
    assert logged(caplog) == [
        (logging.INFO, "ann asks to resume gone:1 against bob"),
        (logging.INFO, f"game {game}: resumed gone:1 at move {len(moves) // 2}"),
        (
            logging.ERROR,
            f"game {game} is over; the store cannot record its end: finish_game: disk full",
        ),
    ]


def test_copies_that_disagree_are_a_warning(
    store: FailingStore, caplog: pytest.LogCaptureFixture
) -> None:
    hub = Hub(store)
    ann, bob = Peer("ann"), Peer("bob")
    hub.join(ann, None)
    hub.join(bob, None)
    caplog.clear()
    copy = {"origin": "gone:1", "black": "ann", "white": "bob", "started": STARTED.isoformat()}
    hub.handle(ann, protocol.Resume(moves="d3c3", **copy))
    hub.handle(bob, protocol.Resume(moves="d3e3", **copy))
    assert bob.lines[-1]["code"] == "resume_refused"
    assert logged(caplog)[-1] == (
        logging.WARNING,
        "gone:1: the players' copies disagree (move 2 differs)",
    )


@pytest.mark.parametrize("recorded", [True, False], ids=["recorded", "store-fails"])
def test_a_game_set_aside_is_a_warning_or_an_error_when_the_store_fails(
    store: FailingStore, caplog: pytest.LogCaptureFixture, recorded: bool
) -> None:
    broken = store.create_game("ann", "bob", origin="s:1", started=STARTED, moves=(19, 19))
    store.failing = frozenset() if recorded else frozenset({"set_aside"})
    hub = Hub(store)
    assert set(hub.set_aside) == {"s:1"}
    what = f"game {broken.id} (ann against bob) set aside: its moves do not replay"
    [(level, line)] = logged(caplog)
    assert line.startswith(what)
    if recorded:
        assert level == logging.WARNING
    else:
        assert level == logging.ERROR and line.endswith(
            "; the store cannot record that: set_aside: disk full"
        )
