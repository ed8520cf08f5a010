"""Aborts (issue 31): a game that ends before both players made two moves has no result
and moves no rating, and a player may abort before their own second move."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from reversi_tui.net import protocol

from .hub_fakes import World

NEW = {"rating": 1500, "deviation": 500, "provisional": True}


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    made = World(tmp_path)
    yield made
    made.close()


def assert_aborted(world: World, state: dict[str, object], game: int) -> None:
    """Finished with no result, nobody's rating moved, and stored as aborted."""
    result = state["result"]
    assert isinstance(result, dict)
    assert state["status"] == "finished" and result["reason"] == "aborted"
    assert result["winner"] is None and result["rating_change"] is None
    assert state["ratings"] == {state["black"]: NEW, state["white"]: NEW}
    stored = world.store.game(game)
    assert stored is not None and stored.finished and stored.end_reason == "aborted"
    assert stored.winner is None and world.hub.ratings == {}


def test_a_rated_game_claimed_after_two_plies_is_aborted_and_rates_nobody(world: World) -> None:
    ann, bob = world.join("ann"), world.join("bob")
    game = world.start(ann, bob, rated=True)
    world.move(ann, game, "d3")
    world.move(bob, game, "c5")
    world.hub.leave(bob)
    world.clock.advance(protocol.ABANDON_GRACE)
    world.send(ann, type="claim", game=game, outcome="win", id="c")
    assert_aborted(world, ann.last("state"), game)
    world.reopen()  # the ratings recomputed from the store: still nobody rated
    assert world.hub.ratings == {} and world.store.rated_games() == []


def test_zero_move_resignations_farm_no_rating(world: World) -> None:
    ann, bob = world.join("ann"), world.join("bob")
    for _ in range(5):
        game = world.start(ann, bob, rated=True)
        world.send(bob, type="resign", game=game, id="r")
        assert_aborted(world, bob.last("state"), game)
    world.send(bob, type="lobby", id="l")
    assert {p["user"]: p["rating"] for p in bob.last("lobby")["players"]} == {
        "ann": NEW,
        "bob": NEW,
    }


def test_a_flag_that_falls_before_two_moves_each_aborts(world: World) -> None:
    ann, bob = world.join("ann"), world.join("bob")
    game = world.start(ann, bob, rated=True, clock=(1, 0))
    world.move(ann, game, "d3")
    world.clock.advance(61)  # bob never answers
    world.hub.tick()
    state = ann.last("state")
    assert_aborted(world, state, game)
    assert state["clock"]["running"] is None


def test_a_player_may_abort_until_their_own_second_move(world: World) -> None:
    ann, bob, carol = world.join("ann"), world.join("bob"), world.join("carol")
    game = world.start(ann, bob, rated=True)
    world.send(carol, type="abort", game=game, id="x")
    assert carol.last("error")["code"] == "not_a_player"
    for peer, square in zip((ann, bob, ann), ("d3", "c5", "f6"), strict=True):
        world.move(peer, game, square)
    world.send(ann, type="abort", game=game, id="a")  # ann has made two moves
    refused = ann.last("error")
    assert refused["code"] == "too_late_to_abort" and refused["re"] == "a"
    assert "resign" in refused["message"] and world.hub.games[game].over is False
    world.send(bob, type="abort", game=game, id="b")  # bob has made one
    state = bob.last("state")
    assert state["re"] == "b" and state["moves"] == "d3c5f6"
    assert_aborted(world, ann.last("state"), game)
    world.send(bob, type="abort", game=game, id="again")
    assert bob.last("error")["code"] == "game_over"
    world.send(carol, type="watch", game=game, id="w")  # from the store now
    assert carol.last("state")["result"]["reason"] == "aborted"


def test_after_two_moves_each_a_resignation_is_rated(world: World) -> None:
    ann, bob = world.join("ann"), world.join("bob")
    game = world.start(ann, bob, rated=True)
    world.opening(ann, bob, game)
    world.send(bob, type="resign", game=game)
    result = ann.last("state")["result"]
    assert result["reason"] == "resign" and result["rating_change"]["ann"] > 0


def test_one_pair_begins_at_most_twenty_rated_games_a_day(world: World) -> None:
    ann, bob = world.join("ann"), world.join("bob")
    aborted = world.start(ann, bob, rated=True)
    world.send(bob, type="abort", game=aborted)  # an aborted game does not count
    waiting = None
    for number in range(protocol.MAX_RATED_PER_PAIR):
        if number == protocol.MAX_RATED_PER_PAIR - 1:  # made now, answered at the limit
            world.send(bob, type="challenge", to="ann", color="white", rated=True)
            waiting = bob.last("challenge_sent")["challenge"]
        game = world.start(ann, bob, rated=True)
        world.opening(ann, bob, game)
        world.send(bob, type="resign", game=game)
    world.send(ann, type="challenge", to="bob", color="black", rated=True, id="c")
    refused = ann.last("error")
    assert refused["code"] == "too_many_rated_games" and refused["re"] == "c"
    assert "casual" in refused["message"]
    world.send(ann, type="accept", challenge=waiting, id="a")
    assert ann.last("error")["code"] == "too_many_rated_games"
    world.send(ann, type="challenge", to="bob", color="black", id="casual")
    assert ann.last("challenge_sent")["re"] == "casual"
    world.join("carol")
    world.send(ann, type="challenge", to="carol", color="black", rated=True, id="other")
    assert ann.last("challenge_sent")["re"] == "other"  # the limit is per pair
