"""Games that outlive their server: resuming from the players' copies, through the protocol.

A game begins on one server; that server stops and another, with another store,
takes its place (as when the next user's client starts a server of its own). The
players' clients present their copies with ``resume``: the game comes back only
when both copies agree, never on one player's word. A stored game whose moves do
not replay is set aside instead of stopping the server.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

from reversi_tui.net.store import SqliteStore

from .conftest import Client, Setup
from .test_server import play, start_game


async def game_on_a_dead_server(online: Any, moves: list[str]) -> dict[str, Any]:
    """A game between ann (Black) and bob with ``moves`` played, on a server that then
    stops; its last state (each player's copy, as their clients keep it)."""
    setup: Setup = await online()
    ann, bob, game = await start_game(setup)
    state: dict[str, Any] = {}
    for ply, square in enumerate(moves):
        state = await play(ann if ply % 2 == 0 else bob, game, ply, square)
    if not moves:
        ann.send(type="watch", game=game, id="w")
        state = await ann.expect("state", re="w")
    await setup.server.stop("gone")
    return state


def copy_of(state: dict[str, Any], moves: str | None = None) -> dict[str, Any]:
    """The ``resume`` fields of a player's copy (optionally with other moves)."""
    return {
        "origin": state["origin"],
        "black": state["black"],
        "white": state["white"],
        "started": state["started"],
        "moves": state["moves"] if moves is None else moves,
    }


async def new_server(online: Any, tmp_path: Path, name: str = "other") -> Setup:
    """Another server on the same socket, with a store of its own (another identity)."""
    setup: Setup = await online(store=SqliteStore(tmp_path / name / "online.sqlite3"))
    return setup


async def test_a_game_comes_back_when_both_players_present_the_same_copy(
    online: Any, tmp_path: Path
) -> None:
    old = await game_on_a_dead_server(online, ["d3", "c5"])
    setup = await new_server(online, tmp_path)
    ann = await setup.login("ann")
    assert setup.server.hub.games == {}  # the new store knows nothing of it
    ann.send(type="resume", id=1, **copy_of(old))
    pending = await ann.expect("resume_pending", re=1)
    assert pending["waiting_for"] == "bob" and pending["origin"] == old["origin"]
    assert setup.server.hub.games == {}  # one player's word re-creates nothing
    bob = await setup.login("bob")
    bob.send(type="resume", id=2, **copy_of(old))
    state = await bob.expect("state", re=2)
    mirrored = await ann.expect("state", origin=old["origin"])
    for resumed in (state, mirrored):
        assert resumed["moves"] == "d3c5" and resumed["turn"] == "black"
        assert resumed["started"] == old["started"]
        assert resumed["origin"] == old["origin"]
        assert resumed["origin"] != f"{setup.server.hub.server_id}:{resumed['game']}"
    after = await play(ann, state["game"], 2, "f6")
    assert after["moves"] == "d3c5f6"


async def test_one_players_claim_ends_when_they_leave_and_never_creates_the_game(
    online: Any, tmp_path: Path
) -> None:
    old = await game_on_a_dead_server(online, ["d3"])
    setup = await new_server(online, tmp_path)
    ann = await setup.login("ann")
    ann.send(type="resume", id=1, **copy_of(old))
    await ann.expect("resume_pending", re=1)
    ann.close()
    bob = await setup.login("bob")
    await _wait_for(lambda: not setup.server.hub.online("ann"))
    bob.send(type="resume", id=2, **copy_of(old))
    pending = await bob.expect("resume_pending", re=2)
    assert pending["waiting_for"] == "ann"
    assert setup.server.hub.games == {}


async def test_copies_that_disagree_are_refused_to_both_players(
    online: Any, tmp_path: Path
) -> None:
    old = await game_on_a_dead_server(online, ["d3", "c5"])
    setup = await new_server(online, tmp_path)
    ann, bob = await setup.login("ann"), await setup.login("bob")
    ann.send(type="resume", id=1, **copy_of(old))
    await ann.expect("resume_pending", re=1)
    bob.send(type="resume", id=2, **copy_of(old, "d3e3"))  # not what ann saw
    refused = await bob.error("resume_refused")
    assert refused["re"] == 2 and "move 2 differs" in refused["message"]
    told = await ann.error("resume_refused")
    assert "bob" in told["message"]
    assert setup.server.hub.games == {}


async def test_a_move_only_one_player_saw_is_not_kept(online: Any, tmp_path: Path) -> None:
    old = await game_on_a_dead_server(online, ["d3", "c5", "f6"])
    setup = await new_server(online, tmp_path)
    ann, bob = await setup.login("ann"), await setup.login("bob")
    ann.send(type="resume", id=1, **copy_of(old))  # ann saw her f6 acknowledged
    await ann.expect("resume_pending", re=1)
    bob.send(type="resume", id=2, **copy_of(old, "d3c5"))  # bob never heard of it
    state = await bob.expect("state", re=2)
    assert state["moves"] == "d3c5" and state["turn"] == "black"  # ann plays again


async def test_resume_is_for_players_with_a_game_that_replays(online: Any, tmp_path: Path) -> None:
    old = await game_on_a_dead_server(online, ["d3"])
    setup = await new_server(online, tmp_path)
    eve = await setup.login("eve")
    eve.send(type="resume", id=1, **copy_of(old))
    assert "do not play" in (await eve.error("resume_refused"))["message"]
    ann = await setup.login("ann")
    ann.send(type="resume", id=2, **copy_of(old, "d3d3"))
    assert "do not replay" in (await ann.error("resume_refused"))["message"]
    ann.send(type="resume", id=3, **{**copy_of(old), "started": "yesterday"})
    assert "not a time" in (await ann.error("resume_refused"))["message"]


async def test_resume_of_a_game_the_server_holds_answers_its_state(online: Any) -> None:
    setup: Setup = await online()
    ann, _bob, game = await start_game(setup)
    state = await play(ann, game, 0, "d3")
    ann.send(type="resume", id="r", **copy_of(state, ""))  # an older copy
    answer = await ann.expect("state", re="r")
    assert answer["game"] == game and answer["moves"] == "d3"


async def test_a_stored_game_that_does_not_replay_is_set_aside_and_the_others_served(
    online: Any, tmp_path: Path
) -> None:
    setup: Setup = await online()
    ann, bob, broken = await start_game(setup)
    await play(ann, broken, 0, "d3")
    ann.send(type="challenge", to="bob", color="white", id="c")
    number = (await ann.expect("challenge_sent", re="c"))["challenge"]
    bob.send(type="accept", challenge=number, id="a")
    sound = (await bob.expect("state", re="a"))["game"]
    await setup.server.stop("tampering")
    path = tmp_path / "db" / "online.sqlite3"
    with sqlite3.connect(path) as db:  # a second "d3": occupied, so it cannot replay
        db.execute(
            "INSERT INTO moves (game, ply, square, played) VALUES (?, 1, 19, '2026-01-01')",
            (broken,),
        )
    again: Setup = await online()
    ann = await again.login("ann")
    welcome = await _welcome_of(again, "bob")
    assert [g["game"] for g in welcome["games"]] == [sound]
    assert [a["game"] for a in welcome["set_aside"]] == [broken]
    assert "do not replay" in welcome["set_aside"][0]["reason"]
    ann.send(type="move", game=broken, ply=1, square="c5")
    await ann.error("no_such_game")
    with sqlite3.connect(path) as db:  # kept, never deleted
        assert db.execute("SELECT count(*) FROM moves WHERE game = ?", (broken,)).fetchone() == (2,)


async def _welcome_of(setup: Setup, user: str) -> dict[str, Any]:
    client: Client = await setup.connect(user)
    return await client.hello()


async def _wait_for(condition: Any) -> None:
    async with asyncio.timeout(10):
        while not condition():
            await asyncio.sleep(0.01)


async def test_nobody_can_block_a_game_they_do_not_play_by_claiming_its_origin_first(
    online: Any, tmp_path: Path
) -> None:
    """carol watched ann and bob's game, so she knows its origin: her claims name her as
    a player, so they are other claims, and ann and bob's game comes back regardless."""
    old = await game_on_a_dead_server(online, ["d3", "c5"])
    setup = await new_server(online, tmp_path)
    carol = await setup.login("carol")
    carol.send(type="resume", id=1, **{**copy_of(old), "white": "carol"})
    await carol.expect("resume_pending", re=1)
    carol.send(type="resume", id=2, **{**copy_of(old), "black": "carol", "white": "ann"})
    await carol.expect("resume_pending", re=2)
    ann, bob = await setup.login("ann"), await setup.login("bob")
    ann.send(type="resume", id=3, **copy_of(old))
    await ann.expect("resume_pending", re=3)
    bob.send(type="resume", id=4, **copy_of(old))
    state = await bob.expect("state", re=4)
    assert (state["black"], state["white"], state["moves"]) == ("ann", "bob", "d3c5")
    carol.send(type="resume", id=5, **copy_of(old))  # now held here: still not hers
    assert (await carol.error("resume_refused"))["re"] == 5
