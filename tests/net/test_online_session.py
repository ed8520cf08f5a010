"""The players' side of games that outlive their server: real clients and sessions.

Two ``OnlineSession``s (ann and bob, each with a data directory of their own) play
on a server; the server dies and another, with another store, starts on the same
socket. Their clients reconnect and present their copies by themselves, and the
game goes on under its origin. Also: a server that rewrites a game is caught by
the player's copy, and a finished game is recorded once however many clients saw it.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import socket
import sqlite3
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest

from reversi_tui.engine import Color, Game, parse_square
from reversi_tui.match.sources import local_input
from reversi_tui.net import protocol
from reversi_tui.net.client import Client
from reversi_tui.net.copies import COPIES_DIR, Copies, GameCopy
from reversi_tui.net.discovery import Connected
from reversi_tui.net.online import Notice, OnlineSession, TurnPassed, YourTurn
from reversi_tui.net.remote import record_of
from reversi_tui.net.server import Server
from reversi_tui.net.store import SqliteStore
from reversi_tui.records.database import RecordsDatabase
from reversi_tui.records.keeper import GameKeeper
from reversi_tui.records.paths import Places

from ..timing import patience
from .conftest import name_from_address

WAIT = patience(10.0)
_numbers = itertools.count()


def connector(directory: Path, user: str, path: str) -> Callable[[bool], Any]:
    """Connects as ``user``: the test server names a client by its bound address."""

    async def connect(_start: bool) -> Connected:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.bind(str(directory / f"{user}-{next(_numbers)}"))
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, path)
        reader, writer = await asyncio.open_unix_connection(
            sock=sock, limit=protocol.MAX_SERVER_LINE
        )
        return Connected(reader, writer, path)

    return connect


class Player:
    """One user's session with a data directory of its own, and what it was told."""

    def __init__(self, root: Path, user: str, path: str) -> None:
        self.data = root / user
        self.keeper = GameKeeper(Places.resolve(self.data))
        self.notices: list[Notice] = []
        session: OnlineSession
        client = Client(
            lambda m: session.receive(m),
            lambda s: session.set_status(s),
            connector=connector(root, user, path),
            backoff=(0.05,),
        )
        session = OnlineSession(client, copies=Copies(self.data / COPIES_DIR), recorder=self.record)
        self.session = session
        session.subscribe(lambda e: self.notices.append(e) if isinstance(e, Notice) else None)
        self.task = asyncio.create_task(client.run())

    def record(self, state: protocol.State) -> None:
        names = {Color.BLACK: state.black, Color.WHITE: state.white}
        self.keeper.add_record(record_of(state), names, source=state.origin)

    async def stop(self) -> None:
        await self.session.client.close()
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self.task


async def until(condition: Callable[[], object]) -> None:
    async with asyncio.timeout(WAIT):
        while not condition():
            await asyncio.sleep(0.01)


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[dict[str, Any]]:
    """A server on ``s.sock`` and a way to replace it by one with another store."""
    path = str(tmp_path / "s.sock")
    made: dict[str, Any] = {"path": path, "servers": [], "players": []}

    async def serve(name: str) -> Server:
        store = SqliteStore(tmp_path / name / "online.sqlite3")
        server = Server(store, identify=name_from_address)
        await server.start(path)
        made["servers"].append((server, store))
        return server

    made["serve"] = serve
    yield made
    for player in made["players"]:
        await player.stop()
    for server, store in made["servers"]:
        if not server._stopped.is_set():
            await server.stop()
        store.close()


async def a_game(world: dict[str, Any], root: Path) -> tuple[Player, Player, str]:
    """ann (Black) and bob on the first server, in a game after d3 c5."""
    await world["serve"]("first")
    ann, bob = Player(root, "ann", world["path"]), Player(root, "bob", world["path"])
    world["players"] += [ann, bob]
    await until(lambda: ann.session.client.connected and bob.session.client.connected)
    await until(lambda: any(p.user == "bob" for p in ann.session.picture.players))
    ann.session.challenge("bob", "black")
    await until(lambda: bob.session.picture.challenges)
    (number,) = bob.session.picture.challenges
    bob.session.answer(number, True)
    await until(lambda: ann.session.links and bob.session.links)
    (origin,) = ann.session.links
    await play_on(ann, bob, origin, "d3", "c5")
    return ann, bob, origin


async def play_on(ann: Player, bob: Player, origin: str, black: str, white: str) -> None:
    """ann plays ``black`` and bob ``white``, each seen by both players."""
    for player, square in ((ann, black), (bob, white)):
        link = player.session.links[origin]
        ply = link.state.ply
        assert link.send(protocol.MoveMessage(game=link.game, ply=ply, square=square))
        await until(lambda ply=ply: ann.session.links[origin].state.ply == ply + 1)
        await until(lambda ply=ply: bob.session.links[origin].state.ply == ply + 1)


async def test_a_game_goes_on_after_its_server_dies_and_another_takes_over(
    world: dict[str, Any], tmp_path: Path
) -> None:
    ann, bob, origin = await a_game(world, tmp_path)
    copy = Copies(ann.data / COPIES_DIR).get(origin)
    assert copy is not None and copy.moves == "d3c5"  # ann's own copy, on her disk
    first, _ = world["servers"][0]
    first_id = ann.session.server
    await first.stop("killed")
    await world["serve"]("second")  # another store: another identity, no games
    await until(lambda: ann.session.server not in (None, first_id))
    await until(lambda: bob.session.server not in (None, first_id))
    await until(lambda: ann.session.links[origin].server == ann.session.server)
    link = ann.session.links[origin]
    assert link.playable and link.state.moves == "d3c5" and link.state.origin == origin
    assert link.game == bob.session.links[origin].game
    ply = link.state.ply
    assert link.send(protocol.MoveMessage(game=link.game, ply=ply, square="f6"))
    await until(lambda: bob.session.links[origin].state.moves == "d3c5f6")
    moved = Copies(bob.data / COPIES_DIR).get(origin)
    assert moved is not None and moved.server == bob.session.server


async def test_while_the_other_player_is_away_the_game_waits_and_says_so(
    world: dict[str, Any], tmp_path: Path
) -> None:
    ann, bob, origin = await a_game(world, tmp_path)
    first_id = ann.session.server
    await bob.stop()
    await world["servers"][0][0].stop("killed")
    await world["serve"]("second")
    await until(lambda: ann.session.server not in (None, first_id))
    await until(lambda: "waiting for bob" in ann.session.picture.resuming.get(origin, (0, ""))[1])
    link = ann.session.links[origin]
    assert not link.playable and link.blocked is not None and "waiting for bob" in link.blocked
    mine = link.my_colour
    assert mine is not None and local_input(link.source(mine)) is None  # no keys taken
    assert not link.play(len(link.move_list()), 37)  # nothing is sent for it
    server = world["servers"][-1][0]
    assert server.hub.games == {}


async def test_a_server_that_rewrote_a_game_is_caught_by_the_players_copy(
    world: dict[str, Any], tmp_path: Path
) -> None:
    ann, bob, origin = await a_game(world, tmp_path)
    first, store = world["servers"][0]
    game = ann.session.links[origin].game
    await bob.stop()
    await ann.stop()
    await first.stop("the owner edits the database")
    store.close()
    path = tmp_path / "first" / "online.sqlite3"
    with sqlite3.connect(path) as db:  # the owner swaps bob's c5 for e3
        db.execute("DROP TRIGGER moves_append_only_update")
        db.execute("UPDATE moves SET square = 20 WHERE game = ? AND ply = 1", (game,))
    await world["serve"]("first")
    again = Player(tmp_path, "ann", world["path"])
    world["players"].append(again)
    await until(lambda: origin in again.session.links)
    link = again.session.links[origin]
    await until(lambda: link.conflict is not None)
    assert "move 2 is e3 on the server, c5 in your copy" in link.conflict
    assert not link.playable
    assert any(n.severity == "error" and "differs" in n.text for n in again.notices)
    kept = Copies(again.data / COPIES_DIR).get(origin)
    assert kept is not None and kept.moves == "d3c5"  # the player's copy is not overwritten


async def test_a_finished_game_is_recorded_once_with_its_real_start(
    world: dict[str, Any], tmp_path: Path
) -> None:
    ann, bob, origin = await a_game(world, tmp_path)
    second_ann = Player(tmp_path, "ann", world["path"])  # a second client of ann's
    world["players"].append(second_ann)
    await until(lambda: origin in second_ann.session.links)
    started = ann.session.links[origin].state.started
    await play_on(ann, bob, origin, "f6", "f5")  # two moves each: a resignation counts
    bob.session.resign(bob.session.links[origin].game)
    await until(lambda: ann.session.links[origin].state.status == "finished")
    await until(lambda: second_ann.session.links[origin].state.status == "finished")
    await ann.stop()  # reconnecting and seeing it again must not record it again
    for copy in (ann, second_ann):
        copy.record(copy.session.links[origin].state)
    with RecordsDatabase(ann.data / "records.sqlite3") as records:
        games = list(records.all())
    assert len(games) == 1
    assert games[0].record.started.isoformat() == started
    assert Copies(ann.data / COPIES_DIR).get(origin) is None  # its copy goes with the end


def test_a_copy_round_trips_and_a_damaged_one_is_set_aside(tmp_path: Path) -> None:
    copies = Copies(tmp_path)
    copy = GameCopy(
        origin="abc:1",
        server="abc",
        game=1,
        black="ann",
        white="bob",
        started="2026-11-26T09:00:00+00:00",
        moves="d3",
    )
    copies.save(copy)
    assert copies.get("abc:1") == copy and copies.all() == [copy]
    (tmp_path / "junk.json").write_text("{")
    assert copies.all() == [copy]
    assert copies.problems and list(tmp_path.glob("junk.json.damaged-*"))


def test_a_state_that_breaks_the_rules_is_said_and_ignored() -> None:
    client = Client(lambda _: None, lambda _: None, socket="/nowhere")
    client.user, client.server = "ann", "s1"
    session = OnlineSession(client)
    notices: list[Notice] = []
    session.subscribe(lambda e: notices.append(e) if isinstance(e, Notice) else None)
    good = protocol.state_of(
        1, "ann", "bob", Game(), origin="s1:1", started="2026-11-26T08:00:00+00:00"
    )
    for bad in (
        msgspec.structs.replace(good, moves="d3d3"),  # occupied
        msgspec.structs.replace(good, moves="zz"),  # not a square
        msgspec.structs.replace(good, started="yesterday"),
    ):
        session.receive(bad)
        session.receive(
            protocol.Welcome(version=4, user="ann", server="s1", games=[bad], challenges=[])
        )
    assert session.links == {}
    assert len(notices) == 6 and all(n.severity == "error" for n in notices)


# What players enjoy (issue 18): turns, chat, challenges with terms -------------------------


def offline_session(user: str = "ann") -> tuple[OnlineSession, list[Notice], list[Any]]:
    """A session fed by hand; what it sent is kept (the client is not connected)."""
    client = Client(lambda _: None, lambda _: None, socket="/nowhere")
    client.user, client.server = user, "s1"
    sent: list[Any] = []

    def send(message: protocol.ClientMessage) -> bool:
        sent.append(message)
        return True

    client.send = send  # type: ignore[method-assign]
    session = OnlineSession(client)
    notices: list[Notice] = []
    session.subscribe(lambda e: notices.append(e) if isinstance(e, Notice) else None)
    return session, notices, sent


def game_state(moves: str, number: int = 1) -> protocol.State:
    game = Game.from_moves(None, [parse_square(moves[i : i + 2]) for i in range(0, len(moves), 2)])
    return protocol.state_of(
        number, "ann", "bob", game, origin=f"s1:{number}", started="2026-11-26T08:00:00+00:00"
    )


def test_your_move_is_said_once_when_the_turn_comes_back() -> None:
    session, notices, _ = offline_session()
    session.receive(game_state(""))  # a new game: ann (Black) to move
    session.receive(game_state("d3"))  # bob's turn
    session.receive(game_state("d3"))  # the same state again
    session.receive(game_state("d3c5"))  # ann's turn again
    turns = [n for n in notices if isinstance(n, YourTurn)]
    assert [(t.game, t.opponent) for t in turns] == [(1, "bob"), (1, "bob")]
    assert turns[-1].text == "Your move in game 1 against bob."
    watcher, seen, _ = offline_session("carol")
    watcher.receive(game_state(""))
    assert not [n for n in seen if isinstance(n, YourTurn)]


def test_a_turn_that_passed_is_said_with_the_words_it_replaces() -> None:
    """After "your move", the turn going (a move, the end) is told with the line that no
    longer holds, so that no screen keeps saying it."""
    session, notices, _ = offline_session()
    session.receive(game_state(""))
    session.receive(game_state("d3"))  # ann moved: bob's turn
    session.receive(game_state("d3c5"))
    session.receive(msgspec.structs.replace(game_state("d3c5"), status="finished", turn=None))
    passed = [n for n in notices if isinstance(n, TurnPassed)]
    said = "Your move in game 1 against bob."
    assert [(p.text, p.said) for p in passed] == [
        ("Game 1 against bob waits for bob.", said),
        ("Game 1 against bob is over.", said),
    ]


def test_chat_history_and_new_lines_are_kept_per_game() -> None:
    session, _, _ = offline_session()
    session.receive(game_state("d3"))
    history = [protocol.ChatLine(from_="bob", text=f"line {n}", watcher=False) for n in range(3)]
    session.receive(protocol.ChatHistory(game=1, origin="s1:1", lines=history))
    session.receive(protocol.ChatMessage(from_="carol", game=1, text="nice", watcher=True))
    session.receive(protocol.ChatMessage(from_="bob", game=None, text="lobby talk"))
    lines = session.picture.chat["s1:1"]
    assert [line.text for line in lines] == ["line 0", "line 1", "line 2", "nice"]
    assert lines[-1].watcher and not lines[0].watcher


def test_a_challenge_carries_its_clock_and_rating_both_ways() -> None:
    session, _, sent = offline_session()
    assert session.challenge("bob", "white", (5, 3), rated=True)
    assert sent[-1] == protocol.Challenge(
        to="bob", color="white", clock=protocol.TimeControl(minutes=5, increment=3), rated=True
    )
    clock = protocol.TimeControl(minutes=3, increment=2)
    session.receive(
        protocol.Challenged(
            challenge=4, from_="bob", color="black", clock=clock, rated=True, rematch=1
        )
    )
    info = session.picture.challenges[4]
    assert (info.to, info.clock, info.rated, info.rematch) == ("ann", clock, True, 1)


def test_activity_is_sent_when_it_changes_and_again_to_a_new_server() -> None:
    session, _, sent = offline_session()
    session.set_activity("lobby")
    assert sent == []  # a session starts in the lobby
    session.set_activity("local")
    session.set_activity("local")
    assert sent == [protocol.Activity(status="local")]
    session.receive(protocol.Welcome(version=4, user="ann", server="s2", games=[], challenges=[]))
    assert protocol.Activity(status="local") in sent[1:]


def test_claim_and_rematch_requests() -> None:
    session, _, sent = offline_session()
    session.claim(7, "draw")
    session.rematch(7)
    assert sent == [protocol.ClaimRequest(game=7, outcome="draw"), protocol.Rematch(game=7)]


async def test_many_copies_are_presented_paced_and_every_one_is_answered(
    world: dict[str, Any], tmp_path: Path
) -> None:
    """60 copies (a player of many correspondence games): sent all at once, those past
    the server's burst were dropped by its rate limit and stayed "asking the server"
    for ever. The session keeps at most ``RESUMES_IN_FLIGHT`` unanswered."""
    from reversi_tui.net.online import RESUMES_IN_FLIGHT

    started = "2026-11-20T10:00:00+00:00"
    copies = Copies(tmp_path / "ann" / COPIES_DIR)
    for number in range(60):
        copies.save(
            GameCopy(
                origin=f"gone:{number}", server="gone", game=number + 1, black="ann",
                white="bob", started=started, moves="d3c5",
            )
        )  # fmt: skip
    await world["serve"]("first")
    ann = Player(tmp_path, "ann", world["path"])
    world["players"].append(ann)
    most = 0

    def in_flight(_event: object) -> None:
        nonlocal most
        most = max(most, len(ann.session._resumes))

    ann.session.subscribe(in_flight)
    await until(lambda: len(ann.session.picture.resuming) == 60)
    await until(
        lambda: all(
            stands.startswith("waiting for bob")
            for _copy, stands in ann.session.picture.resuming.values()
        )
    )
    assert 0 < most <= RESUMES_IN_FLIGHT
