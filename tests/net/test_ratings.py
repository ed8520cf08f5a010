"""Glicko-2 ratings (issue 18): Glickman's worked example, rated games updating both
players, the same numbers recomputed after a restart, casual games changing nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from reversi_tui.net import protocol
from reversi_tui.net.glicko import Glicko, rate_game, update

from .hub_fakes import World

NEW = {"rating": 1500, "deviation": 500, "provisional": True}


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    made = World(tmp_path)
    yield made
    made.close()


def test_glickmans_worked_example() -> None:
    player = Glicko(1500, 200, 0.06)
    results = [(Glicko(1400, 30), 1.0), (Glicko(1550, 100), 0.0), (Glicko(1700, 300), 0.0)]
    after = update(player, results, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_first_game_between_new_players_is_symmetric_and_bounded() -> None:
    black, white = rate_game(Glicko(), Glicko(), 1.0)
    assert black.rating - 1500 == pytest.approx(1500 - white.rating)
    assert black.rating > 1700 and black.deviation == white.deviation < 400
    drawn = rate_game(Glicko(), Glicko(), 0.5)
    assert drawn[0].rating == pytest.approx(1500) and drawn[1].rating == pytest.approx(1500)
    settled = Glicko(1500, 46, 0.01)
    for _ in range(50):
        settled, _ = rate_game(settled, Glicko(1500, 46, 0.01), 0.5)
    assert settled.deviation == 45  # lichess's floor


def test_a_rated_game_updates_both_players(world: World) -> None:
    ann, bob, carol = world.join("ann"), world.join("bob"), world.join("carol")
    game = world.start(ann, bob, rated=True)
    assert ann.last("state")["rated"] is True
    world.opening(ann, bob, game)
    world.send(bob, type="resign", game=game)
    state = ann.last("state")
    ratings = state["ratings"]
    assert ratings["ann"]["rating"] > 1700 and ratings["bob"]["rating"] < 1300
    assert ratings["ann"]["provisional"] is True
    change = state["result"]["rating_change"]
    assert change == {
        "ann": ratings["ann"]["rating"] - 1500,
        "bob": ratings["bob"]["rating"] - 1500,
    }
    world.send(carol, type="lobby", id="l")
    listed = {p["user"]: p["rating"] for p in carol.last("lobby")["players"]}
    assert listed["ann"] == ratings["ann"] and listed["carol"] == NEW
    world.send(carol, type="watch", game=game, id="w")  # the finished game, from the store
    assert carol.last("state")["result"]["rating_change"] == change


def test_casual_games_change_no_rating(world: World) -> None:
    ann, bob = world.join("ann"), world.join("bob")
    game = world.start(ann, bob)
    world.send(bob, type="resign", game=game)
    state = ann.last("state")
    assert "rated" not in state and state["result"]["rating_change"] is None
    assert state["ratings"] == {"ann": NEW, "bob": NEW}
    assert world.hub.ratings == {}


def test_a_restart_recomputes_the_same_ratings_from_the_stored_games(world: World) -> None:
    ann, bob, carol = world.join("ann"), world.join("bob"), world.join("carol")
    first = world.start(ann, bob, rated=True)
    world.opening(ann, bob, first)
    world.send(bob, type="resign", game=first)
    second = world.start(carol, ann, rated=True, clock=(1, 0))
    world.opening(carol, ann, second)
    world.clock.advance(61)
    world.hub.tick()  # carol loses on time
    third = world.start(bob, carol, rated=True)
    world.opening(bob, carol, third)
    world.hub.leave(carol)
    world.clock.advance(protocol.ABANDON_GRACE)
    world.send(bob, type="claim", game=third, outcome="draw")
    casual = world.start(ann, bob)
    world.send(ann, type="resign", game=casual)
    before = dict(world.hub.ratings)
    changes = dict(world.hub.rating_changes)
    assert set(before) == {"ann", "bob", "carol"} and set(changes) == {first, second, third}
    world.reopen()
    assert world.hub.ratings == before and world.hub.rating_changes == changes
    stored = world.store.ratings_after(second)
    assert stored["ann"][0] == pytest.approx(before["ann"].rating)
