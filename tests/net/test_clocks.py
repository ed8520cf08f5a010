"""The server's clocks (issue 18), through the hub with a clock the test moves: each
move charged the time since the turn began and given the increment, the client's
``think_ms`` forgiving at most ``LAG_ALLOWANCE`` of it, a flag falling by ``tick``
with nobody sending anything, a move after the flag refused, and the clocks back
after the server restarts. No sleeps: the clock is injected."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from reversi_tui.engine import Color, Game, square_name

from .hub_fakes import World


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    made = World(tmp_path)
    yield made
    made.close()


def clock_of(line: dict[str, Any]) -> tuple[int, int, str | None]:
    clock = line["clock"]
    return clock["black_ms"], clock["white_ms"], clock["running"]


def test_a_timed_game_starts_with_blacks_clock_running(world: World) -> None:
    ann, bob = world.join("ann"), world.join("bob")
    game = world.start(ann, bob, clock=(5, 3))
    state = ann.last("state")
    assert state["clock"] == {
        "black_ms": 300_000,
        "white_ms": 300_000,
        "running": "black",
        "minutes": 5,
        "increment": 3,
    }
    world.clock.advance(7.5)
    world.send(bob, type="watch", game=game, id="w")
    assert clock_of(bob.last("state")) == (292_500, 300_000, "black")


def test_each_move_is_charged_and_gets_the_increment(world: World) -> None:
    ann, bob = world.join("ann"), world.join("bob")
    game = world.start(ann, bob, clock=(5, 3))
    world.clock.advance(10)
    assert clock_of(world.move(ann, game, "d3")) == (293_000, 300_000, "white")
    world.clock.advance(4)
    assert clock_of(world.move(bob, game, "c5")) == (293_000, 299_000, "black")


@pytest.mark.parametrize(
    ("think_ms", "charged"),
    [
        (None, 10_000),  # no figure: the server's measure
        (2_000, 9_000),  # at most 1 s forgiven, however little the client says
        (9_500, 9_500),  # the client's figure, within the allowance
        (20_000, 10_000),  # never more than the server measured
    ],
)
def test_the_wire_is_forgiven_within_the_lag_allowance(
    world: World, think_ms: int | None, charged: int
) -> None:
    ann, bob = world.join("ann"), world.join("bob")
    game = world.start(ann, bob, clock=(5, 0))
    world.clock.advance(10)
    extra = {} if think_ms is None else {"think_ms": think_ms}
    state = world.move(ann, game, "d3", **extra)
    assert clock_of(state) == (300_000 - charged, 300_000, "white")


def test_a_flag_falls_with_nobody_sending_anything(world: World) -> None:
    ann, bob = world.join("ann"), world.join("bob")
    carol = world.join("carol")
    game = world.start(ann, bob, clock=(1, 0))
    world.opening(ann, bob, game)
    world.send(carol, type="watch", game=game)
    assert world.hub.next_deadline() == pytest.approx(world.clock.now + 60)
    world.clock.advance(59.9)
    for peer in (ann, bob, carol):
        peer.take()
    world.hub.tick()
    assert ann.take("state") == []
    world.clock.advance(0.2)
    world.hub.tick()
    for peer in (ann, bob, carol):
        (state,) = peer.take("state")
        assert state["status"] == "finished"
        assert state["result"]["reason"] == "time"
        assert state["result"]["winner"] == "white"
        assert state["result"]["score"] == [4, 60]
        assert clock_of(state) == (0, 60_000, None)
    assert world.hub.games == {} and world.hub.next_deadline() is None
    stored = world.store.game(game)
    assert stored is not None and stored.finished
    assert (stored.end_reason, stored.winner) == ("time", "white")


def test_a_move_after_the_flag_fell_is_refused_and_ends_the_game(world: World) -> None:
    ann, bob = world.join("ann"), world.join("bob")
    game = world.start(ann, bob, clock=(1, 0))
    world.opening(ann, bob, game)
    world.clock.advance(61)  # no tick yet: the move comes first
    answer = world.move(ann, game, "e6")
    assert answer["type"] == "error" and answer["code"] == "game_over"
    finished = bob.last("state")
    assert finished["result"]["reason"] == "time" and finished["moves"] == "d3c5f6f5"
    stored = world.store.game(game)
    assert stored is not None and len(stored.moves) == 4 and stored.end_reason == "time"


def test_an_untimed_game_has_no_clock_and_no_deadline(world: World) -> None:
    ann, bob = world.join("ann"), world.join("bob")
    game = world.start(ann, bob)
    assert "clock" not in ann.last("state")
    world.clock.advance(100_000)
    world.hub.tick()
    assert world.move(ann, game, "d3")["type"] == "state"
    assert world.hub.next_deadline() is None


def test_the_clocks_survive_a_restart_without_charging_the_time_it_was_down(
    world: World,
) -> None:
    ann, bob = world.join("ann"), world.join("bob")
    game = world.start(ann, bob, clock=(5, 3))
    world.clock.advance(10)
    world.move(ann, game, "d3")
    world.clock.advance(4)
    world.move(bob, game, "c5")
    world.clock.advance(20)  # black thinks, then the server stops
    stored = world.store.game(game)
    assert stored is not None and stored.left_ms == (293_000, 299_000)
    world.clock.advance(3600)  # down for an hour
    world.reopen()
    ann = world.join("ann")
    (state,) = ann.last("welcome")["games"]
    assert clock_of(state) == (293_000, 299_000, "black")
    world.clock.advance(5)
    third = square_name(world.hub.games[game].game.legal_moves[0])
    assert clock_of(world.move(ann, game, third)) == (291_000, 299_000, "white")


def a_game_with_a_pass() -> tuple[list[int], int]:
    """A random game's moves in which a side must pass, and the index of the move
    after which the same side moves again."""
    rng = random.Random(3)
    for _ in range(500):
        game = Game()
        while not game.is_over:
            game.play(rng.choice(game.legal_moves))
        moves = list(game.moves)
        for i in range(len(moves) - 2):
            if moves[i] >= 0 and moves[i + 1] < 0 and moves[i + 2] >= 0:
                squares = [m for m in moves if m >= 0]
                return squares, sum(1 for m in moves[: i + 1] if m >= 0) - 1
    raise AssertionError("no game with a pass")


def test_a_pass_keeps_the_clock_running_for_the_side_that_moves_again(world: World) -> None:
    squares, index = a_game_with_a_pass()
    ann, bob = world.join("ann"), world.join("bob")
    game = world.start(ann, bob, clock=(180, 0))
    engine = Game()
    for number, square in enumerate(squares[: index + 1]):
        mover = ann if engine.turn is Color.BLACK else bob
        world.clock.advance(1)
        state = world.move(mover, game, square_name(square))
        engine.play(square)
        if number < index:
            continue
        side = "black" if mover is ann else "white"
        assert state["turn"] == side and clock_of(state)[2] == side
        world.clock.advance(2)
        world.send(mover, type="watch", game=game, id="w")
        again = mover.last("state")
        assert clock_of(again)[2] == side
        assert again["clock"][f"{side}_ms"] == state["clock"][f"{side}_ms"] - 2_000
        return
    raise AssertionError("the pass was not reached")
