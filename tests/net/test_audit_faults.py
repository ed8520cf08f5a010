"""Faults two audits found in the server, each pinned: bad data that ended a
connection, refusals in the wrong order, chat from outsiders, challenges without
bounds, and a ``welcome`` too large for the client to read."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from reversi_tui.net import protocol
from reversi_tui.net.client import Client
from reversi_tui.net.server import Server
from reversi_tui.net.store import SqliteStore

from .conftest import Client as RawClient
from .conftest import Setup
from .test_server import play, start_game


async def test_invalid_utf8_inside_a_string_is_bad_json_and_the_connection_stays(
    online: Any,
) -> None:
    setup: Setup = await online()
    ann = await setup.login("ann")
    ann.send_raw(b'{"type":"chat","text":"\xff\xfe"}\n')
    await ann.error("bad_json")
    ann.send(type="ping", id=1)
    assert (await ann.expect("pong"))["re"] == 1


async def test_a_game_number_beyond_sqlites_integers_is_no_such_game(online: Any) -> None:
    setup: Setup = await online()
    ann = await setup.login("ann")
    for number in (2**63, 2**64 - 1):
        for kind in ("watch", "unwatch"):
            ann.send(type=kind, game=number, id=kind)
            assert (await ann.error("no_such_game"))["re"] == kind
    ann.send(type="ping", id=1)
    assert (await ann.expect("pong"))["re"] == 1


async def test_a_finished_game_answers_game_over_to_move_resign_and_chat(online: Any) -> None:
    setup: Setup = await online()
    ann, bob, game = await start_game(setup)
    await play(ann, game, 0, "d3")
    bob.send(type="resign", game=game, id="r")
    await bob.expect("state", re="r")
    await ann.expect("state", status="finished")
    ann.send(type="move", game=game, ply=1, square="c5")
    await ann.error("game_over")
    ann.send(type="resign", game=game)
    await ann.error("game_over")
    ann.send(type="chat", game=game, text="gg")
    await ann.error("game_over")


async def test_chat_into_a_game_is_for_its_players_and_watchers_only(online: Any) -> None:
    setup: Setup = await online()
    ann, _bob, game = await start_game(setup)
    eve = await setup.login("eve")
    eve.send(type="chat", game=game, text="I am not here", id="e")
    assert (await eve.error("not_a_player"))["re"] == "e"
    carol = await setup.login("carol")
    carol.send(type="watch", game=game, id="w")
    await carol.expect("state", re="w")
    carol.send(type="chat", game=game, text="watching")
    said = await ann.expect("chat")
    assert (said["from"], said["text"]) == ("carol", "watching")


async def test_bidirectional_controls_are_stripped_from_chat(online: Any) -> None:
    setup: Setup = await online()
    ann, bob, game = await start_game(setup)
    ann.send(type="chat", game=game, text="a\u202eb\u2066c\u2069d\u200fe\u061cf")
    said = await bob.expect("chat")
    assert said["text"] == "abcdef"
    assert protocol.clean_text("x\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069y") == "xy"


async def test_one_open_challenge_per_pair_and_a_cap_per_target(online: Any) -> None:
    setup: Setup = await online()
    ann = await setup.login("ann")
    bob = await setup.login("bob")
    bob.send(type="challenge", to="ann", color="random", id=1)
    await bob.expect("challenge_sent", re=1)
    bob.send(type="challenge", to="ann", color="black", id=2)
    assert (await bob.error("already_challenged"))["re"] == 2
    senders = [await setup.login(f"p{n}") for n in range(protocol.MAX_CHALLENGES_TO)]
    refused = 0
    for number, sender in enumerate(senders):
        sender.send(type="challenge", to="ann", color="black", id=number)
        reply = await sender.recv()
        while reply["type"] not in ("challenge_sent", "error"):
            reply = await sender.recv()
        refused += reply["type"] == "error" and reply["code"] == "too_many_challenges"
    assert refused == 1  # bob's is the first of the twenty
    pending = [c for c in setup.server.hub.challenges.values() if c.target == "ann"]
    assert len(pending) == protocol.MAX_CHALLENGES_TO
    for challenge in pending:  # every one is listed to ann, and each can be declined
        ann.send(type="decline", challenge=challenge.id, id=f"d{challenge.id}")
        await ann.expect("challenge_closed", re=f"d{challenge.id}")
    assert not setup.server.hub.challenges


async def test_a_challenge_expires_when_its_challenger_leaves(online: Any) -> None:
    setup: Setup = await online()
    ann = await setup.login("ann")
    bob = await setup.login("bob")
    bob.send(type="challenge", to="ann", color="white", id=1)
    number = (await bob.expect("challenge_sent", re=1))["challenge"]
    await ann.expect("challenged", challenge=number)
    bob.close()
    closed = await ann.expect("challenge_closed", challenge=number)
    assert closed["reason"] == "expired"
    ann.send(type="accept", challenge=number)
    await ann.error("no_such_challenge")


async def test_a_challenge_expires_after_its_time(online: Any) -> None:
    setup: Setup = await online()
    now = [1000.0]
    setup.server.hub.clock = lambda: now[0]
    ann = await setup.login("ann")
    bob = await setup.login("bob")
    bob.send(type="challenge", to="ann", color="white", id=1)
    number = (await bob.expect("challenge_sent", re=1))["challenge"]
    now[0] += protocol.CHALLENGE_TTL - 1
    ann.send(type="ping")
    await ann.expect("pong")
    assert number in setup.server.hub.challenges
    now[0] += 2
    ann.send(type="ping")  # any request sweeps; clients ping every minute
    for client in (ann, bob):
        assert (await client.expect("challenge_closed", challenge=number))["reason"] == "expired"


async def test_welcome_with_100_games_and_the_most_challenges_reaches_the_client(
    online: Any, tmp_path: Any
) -> None:
    store = SqliteStore(tmp_path / "big" / "online.sqlite3")
    for number in range(100):
        store.create_game("ann", f"o{number}")
    setup: Setup = await online(store=store)
    first = await setup.login("ann")  # online, so that she can be challenged
    # Out of the lobby (these clients read nothing): no lobby pushes pile up unread.
    first.send(type="activity", status="local")
    senders = []
    for n in range(100):
        senders.append(sender := await setup.login(f"s{n}"))
        sender.send(type="activity", status="local")
    codes = []
    for number, sender in enumerate(senders):
        sender.send(type="challenge", to="ann", color="random", id=number)
        while (reply := await sender.recv())["type"] not in ("challenge_sent", "error"):
            pass
        codes.append(reply.get("code", "sent"))
    assert codes.count("sent") == protocol.MAX_CHALLENGES_TO
    assert codes.count("too_many_challenges") == 100 - protocol.MAX_CHALLENGES_TO
    ann = await setup.connect("ann")
    ann.send(type="hello", version=protocol.VERSION)
    line = await ann.reader.readline()
    assert len(line) > protocol.MAX_LINE  # more than a client may send...
    welcome = protocol.decode_server(line)  # ...and read whole by the client's decoder
    assert isinstance(welcome, protocol.Welcome)
    assert len(welcome.games) == 100 and len(welcome.challenges) == protocol.MAX_CHALLENGES_TO
    first.close()
    print(f"welcome with 100 games and {len(welcome.challenges)} challenges: {len(line)} bytes")


def test_the_largest_welcome_the_limits_allow_fits_a_server_line() -> None:
    """200 unfinished games of 60 moves with the longest names, and every challenge."""
    name = "n" * 64
    state = protocol.State(
        game=2**62,
        origin="f" * 16 + ":" + "9" * 19,
        started="2026-11-26T09:12:00.123456+00:00",
        black=name,
        white=name,
        moves="a1" * 60,
        ply=60,
        board="X" * 64,
        turn="black",
        status="active",
        result=None,
        spectators=1000,
        online={name: True},
    )
    challenge = protocol.ChallengeInfo(challenge=2**62, from_=name, to=name, color="random")
    welcome = protocol.Welcome(
        version=protocol.VERSION,
        user=name,
        server="f" * 16,
        games=[state] * protocol.MAX_ACTIVE_GAMES,
        challenges=[challenge] * (protocol.MAX_CHALLENGES_TO + protocol.MAX_CHALLENGES_FROM),
    )
    size = len(protocol.encode(welcome))
    assert size < protocol.MAX_SERVER_LINE / 4
    assert protocol.decode_server(protocol.encode(welcome)) == welcome


async def test_the_real_client_is_welcomed_with_100_games_and_every_challenge(
    tmp_path: Path,
) -> None:
    """The newcomer's lockout: a ``welcome`` over 4096 bytes left the client on
    "Connecting..." for ever. Now the client reads it whole."""
    store = SqliteStore(tmp_path / "db" / "online.sqlite3")
    for number in range(100):
        store.create_game("ann", f"o{number}")
    names = ["ann", *(f"s{n}" for n in range(100)), "ann"]
    server = Server(store, identify=lambda _sock: names.pop(0))
    path = str(tmp_path / "s.sock")
    await server.start(path)
    try:
        first = await _raw(path)
        await first.hello()
        # Out of the lobby (these clients read nothing): no lobby pushes pile up unread.
        first.send(type="activity", status="local")
        senders = []  # kept: a challenge expires when its challenger leaves
        for number in range(100):
            sender = await _raw(path)
            senders.append(sender)
            await sender.hello()
            sender.send(type="activity", status="local")
            sender.send(type="challenge", to="ann", color="random", id=number)
            while (await sender.recv())["type"] not in ("challenge_sent", "error"):
                pass
        welcomed: asyncio.Queue[protocol.Welcome] = asyncio.Queue()

        def received(message: protocol.ServerMessage) -> None:
            if isinstance(message, protocol.Welcome):
                welcomed.put_nowait(message)

        client = Client(received, lambda _: None, socket=path)
        running = asyncio.create_task(client.run())
        welcome = await asyncio.wait_for(welcomed.get(), 10)
        assert len(welcome.games) == 100
        assert len(welcome.challenges) == protocol.MAX_CHALLENGES_TO
        assert len(protocol.encode(welcome)) > protocol.MAX_LINE
        await client.close()
        await asyncio.wait_for(running, 10)
    finally:
        await server.stop()
        store.close()


async def _raw(path: str) -> RawClient:
    reader, writer = await asyncio.open_unix_connection(path)
    return RawClient(reader, writer)
