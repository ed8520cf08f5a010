"""A ``resume`` is a player's word about a game no server holds: every field of it
comes from a client and may be hostile. Each malformed one is refused with an error
that names the fault, and the hub goes on serving (issue 31)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from reversi_tui.engine import Color, Game, parse_square, square_name
from reversi_tui.net import protocol
from reversi_tui.net.copies import Copies, GameCopy, compare
from reversi_tui.net.server import Limits

from .conftest import Setup
from .hub_fakes import World

STARTED = "2024-01-01T00:00:00+00:00"


def resume(**fields: Any) -> dict[str, Any]:
    """A ``resume`` of game ``x:1`` between ann (Black) and bob, with ``fields`` replaced."""
    copy = {"origin": "x:1", "black": "ann", "white": "bob", "started": STARTED, "moves": "d3c5"}
    return {"type": "resume", "id": "r", **copy, **fields}


@pytest.mark.parametrize(
    ("fields", "says"),
    [
        ({"started": "0001-01-01T00:00:00+14:00"}, "is not a time this server can keep"),
        ({"started": "9999-12-31T23:59:59-05:00"}, "is not a time this server can keep"),
        ({"origin": "{server}:²"}, "waiting_for"),
        ({"origin": "{server}:" + "9" * 40}, "waiting_for"),
    ],
    ids=["before-year-1", "after-year-9999", "superscript-game-number", "huge-game-number"],
)
def test_a_malformed_resume_is_answered_and_the_hub_serves_on(
    tmp_path: Path, fields: dict[str, str], says: str
) -> None:
    world = World(tmp_path)
    ann = world.join("ann")
    server = world.store.server_id
    world.send(ann, **resume(**{k: v.format(server=server) for k, v in fields.items()}))
    answer = ann.lines[-1]
    assert answer["re"] == "r"
    assert says in str(answer)
    world.send(ann, type="ping", id="p")
    assert ann.lines[-1] == {"type": "pong", "re": "p"}
    world.close()


def a_copy(origin: str = "x:1", moves: str = "d3c5") -> GameCopy:
    return GameCopy(
        origin=origin, server="s", game=1, black="ann", white="bob", started=STARTED, moves=moves
    )


def test_a_stored_copy_beyond_the_limits_is_set_aside_and_the_others_are_presented(
    tmp_path: Path,
) -> None:
    copies = Copies(tmp_path)
    copies.save(a_copy("x:1"))
    copies.save(a_copy("x:3"))
    planted = msgspec.structs.asdict(a_copy("x:2"))
    planted["origin"] = "x:" + "2" * 5000  # as a server could have sent it
    (tmp_path / "x_2.json").write_bytes(msgspec.json.encode(planted))
    assert [copy.origin for copy in copies.all()] == ["x:1", "x:3"]
    assert "beyond the protocol's limits" in copies.problems[0]
    assert not (tmp_path / "x_2.json").exists()
    for copy in copies.all():
        assert len(json.dumps(msgspec.to_builtins(copy.resume(1)))) < 4096


@pytest.mark.parametrize("directory", [True, False], ids=["on-disk", "in-memory"])
def test_a_state_beyond_the_limits_is_not_kept_as_a_copy(tmp_path: Path, directory: bool) -> None:
    copies = Copies(tmp_path if directory else None)
    copies.save(a_copy("x:" + "9" * 5000))
    copies.save(a_copy(moves="d3" * 100))
    assert copies.all() == []
    assert len(copies.problems) == 2 and "cannot keep" in copies.problems[0]


async def test_every_copy_presented_in_a_burst_is_answered(online: Any) -> None:
    setup: Setup = await online(Limits(rate=1, burst=10))
    setup.server.clock = lambda: 1000.0  # time stands still: no token comes back
    ann = await setup.login("ann")
    ids = set(range(50))
    ann.send_raw(b"".join(json.dumps(resume(id=i, origin=f"x:{i}")).encode() + b"\n" for i in ids))
    answers: dict[int, str] = {}
    while len(answers) < len(ids):
        message = await ann.recv()
        if message.get("re") in ids:
            answers[message["re"]] = message.get("code", message["type"])
    assert set(answers.values()) == {"resume_pending", "rate_limited"}


def copies_of_a_rated_game(directory: Path, plies: int) -> list[GameCopy]:
    """Ann's copies of a rated 10+5 game against bob, one after each of ``plies`` moves
    (the first move the engine lists, each time), on a server that then stops."""
    world = World(directory / "old")
    ann, bob = world.join("ann"), world.join("bob")
    game = world.start(ann, bob, clock=(10, 5), rated=True)
    copies = []
    for _ in range(plies):
        world.clock.advance(30)  # more than the increment: time is used
        live = world.hub.games[game]
        square = square_name(live.game.legal_moves[0])
        mover = ann if live.game.position.turn is Color.BLACK else bob
        state = protocol.decode_server(json.dumps(world.move(mover, game, square)).encode())
        assert isinstance(state, protocol.State)
        copies.append(GameCopy.of(state, world.store.server_id))
    world.close()
    return copies


def present(world: World, ann_copy: GameCopy, bob_copy: GameCopy) -> dict[str, Any]:
    """Both players present their copies on ``world``'s new server: bob's answer."""
    ann, bob = world.join("ann"), world.join("bob")
    world.send(ann, **msgspec.to_builtins(ann_copy.resume(1)))
    world.send(bob, **msgspec.to_builtins(bob_copy.resume(2)))
    return bob.lines[-1]


def test_a_copy_more_than_the_last_move_behind_is_refused(tmp_path: Path) -> None:
    copies = copies_of_a_rated_game(tmp_path, 20)
    world = World(tmp_path / "new")
    answer = present(world, copies[19], copies[1])
    assert answer["type"] == "error" and answer["code"] == "resume_refused"
    assert "18 moves behind" in answer["message"]
    assert world.hub.games == {}


def test_a_game_resumed_one_move_behind_keeps_its_clock_and_rating(tmp_path: Path) -> None:
    copies = copies_of_a_rated_game(tmp_path, 20)
    world = World(tmp_path / "new")
    state = present(world, copies[19], copies[18])
    assert state["type"] == "state" and state["ply"] == 19
    assert state["rated"] is True
    clock, seen = state["clock"], copies[18].clock
    assert seen is not None
    assert (clock["minutes"], clock["increment"]) == (10, 5)
    assert (clock["black_ms"], clock["white_ms"]) == (seen.black_ms, seen.white_ms)
    assert clock["black_ms"] < 10 * 60_000  # the time used before is not given back


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"rated": False}, "rated in one copy, casual in the other"),
        ({"clock": None}, "not the same time control"),
        ({"clock": "faster"}, "the clocks differ"),
    ],
)
def test_copies_that_disagree_on_the_clock_or_rating_are_refused(
    tmp_path: Path, change: dict[str, Any], says: str
) -> None:
    copy = copies_of_a_rated_game(tmp_path, 6)[5]
    if change.get("clock") == "faster":
        assert copy.clock is not None
        change = {"clock": msgspec.structs.replace(copy.clock, white_ms=1000)}
    answer = present(World(tmp_path / "new"), copy, msgspec.structs.replace(copy, **change))
    assert answer["code"] == "resume_refused" and says in answer["message"]


def test_a_client_does_not_play_on_in_a_game_resumed_further_back_than_one_move(
    tmp_path: Path,
) -> None:
    copies = copies_of_a_rated_game(tmp_path, 4)
    mine = copies[3]
    for theirs, conflict in ((copies[2], False), (copies[1], True)):
        text = theirs.moves
        squares = [parse_square(text[k : k + 2]) for k in range(0, len(text), 2)]
        game = Game.from_moves(None, squares)
        state = protocol.state_of(9, "ann", "bob", game, origin=mine.origin, started=mine.started)
        comparison = compare(mine, state, "another-server")
        assert (comparison.conflict is not None) is conflict, comparison


def test_a_copy_whose_clock_makes_too_long_a_line_is_neither_kept_nor_presented(
    tmp_path: Path,
) -> None:
    huge = protocol.Clock(black_ms=10**4000, white_ms=0, running=None, minutes=5, increment=3)
    copies = Copies(tmp_path)
    copies.save(msgspec.structs.replace(a_copy("x:1"), clock=huge))
    assert "a line is at most 4096" in copies.problems[-1]
    copies.save(a_copy("x:2"))
    planted = msgspec.structs.asdict(a_copy("x:1"))
    planted["clock"] = msgspec.structs.asdict(huge)
    (tmp_path / "x_1.json").write_bytes(msgspec.json.encode(planted))
    assert [copy.origin for copy in copies.all()] == ["x:2"]
    assert "a line is at most 4096" in copies.problems[-1]


def test_the_copy_behind_cannot_take_the_last_movers_time_away(tmp_path: Path) -> None:
    copies = copies_of_a_rated_game(tmp_path, 20)
    behind = copies[18]
    assert behind.clock is not None and behind.clock.running == "white"  # white moved last
    robbed = msgspec.structs.replace(behind.clock, white_ms=1000)
    answer = present(
        World(tmp_path / "new"), copies[19], msgspec.structs.replace(behind, clock=robbed)
    )
    assert answer["code"] == "resume_refused" and "the clocks differ" in answer["message"]
