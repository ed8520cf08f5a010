"""Claims after a player left and rematches (issue 18), through the hub with a clock
the test moves."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from reversi_tui.net import protocol

from .hub_fakes import World


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    made = World(tmp_path)
    yield made
    made.close()


def test_a_claim_is_too_early_while_the_opponent_is_online_or_within_the_grace(
    world: World,
) -> None:
    ann, bob = world.join("ann"), world.join("bob")
    game = world.start(ann, bob)
    world.send(ann, type="claim", game=game, outcome="win", id="c")
    assert ann.last("error")["code"] == "claim_too_early"
    assert "bob is online" in ann.last("error")["message"]
    world.hub.leave(bob)
    world.clock.advance(protocol.ABANDON_GRACE - 10)
    assert ann.last("presence")["online"] is False
    world.send(ann, type="claim", game=game, outcome="win", id="c")
    error = ann.last("error")
    assert error["code"] == "claim_too_early" and "in 10 s" in error["message"]
    world.send(ann, type="watch", game=game, id="w")
    state = ann.last("state")
    assert state["away_ms"] == {"bob": 30_000} and state["online"] == {"ann": True, "bob": False}
    assert world.hub.games[game].over is False


@pytest.mark.parametrize(
    ("outcome", "winner", "score"), [("win", "black", [60, 4]), ("draw", None, [32, 32])]
)
def test_after_the_grace_the_win_or_a_draw_is_claimed_and_recorded(
    world: World, outcome: str, winner: str | None, score: list[int]
) -> None:
    ann, bob = world.join("ann"), world.join("bob")
    carol = world.join("carol")
    game = world.start(ann, bob)
    world.opening(ann, bob, game)
    world.send(carol, type="watch", game=game)
    world.hub.leave(bob)
    world.clock.advance(protocol.ABANDON_GRACE)
    world.send(ann, type="claim", game=game, outcome=outcome, id="c")
    for peer in (ann, carol):
        state = peer.last("state")
        assert state["status"] == "finished"
        assert state["result"]["reason"] == "abandoned"
        assert state["result"]["winner"] == winner and state["result"]["score"] == score
    stored = world.store.game(game)
    assert stored is not None and stored.finished
    assert (stored.end_reason, stored.winner) == ("abandoned", winner)
    world.send(ann, type="claim", game=game, outcome=outcome, id="again")
    assert ann.last("error")["code"] == "game_over"
    world.send(carol, type="watch", game=game, id="w")  # from the store now
    assert carol.last("state")["result"]["reason"] == "abandoned"


def test_a_watcher_cannot_claim(world: World) -> None:
    ann, bob, carol = world.join("ann"), world.join("bob"), world.join("carol")
    game = world.start(ann, bob)
    world.hub.leave(bob)
    world.clock.advance(100)
    world.send(carol, type="claim", game=game, outcome="win", id="c")
    assert carol.last("error")["code"] == "not_a_player"


def test_a_player_absent_since_the_server_started_counts_as_gone_since_then(
    world: World,
) -> None:
    ann, bob = world.join("ann"), world.join("bob")
    game = world.start(ann, bob)
    world.opening(ann, bob, game)
    world.reopen()
    world.clock.advance(protocol.ABANDON_GRACE)
    ann = world.join("ann")
    world.send(ann, type="claim", game=game, outcome="win", id="c")
    assert ann.last("state")["result"]["reason"] == "abandoned"


def test_a_rematch_swaps_colours_keeps_the_clock_and_rating_and_the_second_accepts(
    world: World,
) -> None:
    ann, bob = world.join("ann"), world.join("bob")
    game = world.start(ann, bob, clock=(3, 2), rated=True)
    world.send(ann, type="rematch", game=game, id="early")
    assert ann.last("error")["code"] == "game_active"
    world.send(bob, type="resign", game=game)
    world.send(ann, type="rematch", game=game, id="r")
    sent = ann.last("challenge_sent")
    assert sent["re"] == "r" and sent["rematch"] == game and sent["color"] == "white"
    assert sent["clock"] == {"minutes": 3, "increment": 2} and sent["rated"] is True
    offer = bob.last("challenged")
    assert (offer["from"], offer["rematch"], offer["color"]) == ("ann", game, "white")
    assert offer["clock"] == {"minutes": 3, "increment": 2} and offer["rated"] is True
    bob.take()
    world.send(bob, type="rematch", game=game, id="yes")
    state = bob.last("state")
    assert state["re"] == "yes" and state["game"] != game
    assert (state["black"], state["white"]) == ("bob", "ann")
    assert state["clock"]["minutes"] == 3 and state["rated"] is True
    assert ann.last("state")["game"] == state["game"]
    assert world.hub.challenges == {}


def test_a_rematch_is_refused_to_others_and_when_the_opponent_is_away(world: World) -> None:
    ann, bob, carol = world.join("ann"), world.join("bob"), world.join("carol")
    game = world.start(ann, bob)
    world.send(ann, type="resign", game=game)
    world.send(carol, type="rematch", game=game, id="r")
    assert carol.last("error")["code"] == "not_a_player"
    world.hub.leave(bob)
    world.send(ann, type="rematch", game=game, id="r")
    assert ann.last("error")["code"] == "user_offline"
    world.send(ann, type="rematch", game=12345, id="r")
    assert ann.last("error")["code"] == "no_such_game"
