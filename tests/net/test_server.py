"""The online server over real Unix sockets: protocol, rules, limits and restarts.

Identity is injected (see conftest.py); ``test_real_users.py`` uses real uids.
"""

from __future__ import annotations

import asyncio
import os
import random
import socket
import stat
from pathlib import Path
from typing import Any

import pytest

from reversi_tui.engine import Game, parse_square, square_name
from reversi_tui.net import protocol
from reversi_tui.net.server import Limits, Server, ServerRunning
from reversi_tui.net.store import SqliteStore

from .conftest import Client, Setup, name_from_address
from .hub_fakes import OPENING

pytestmark = pytest.mark.asyncio


async def start_game(
    setup: Setup, black: str = "ann", white: str = "bob"
) -> tuple[Client, Client, int]:
    """``black`` challenges ``white`` as Black; ``white`` accepts."""
    a, b = await setup.login(black), await setup.login(white)
    a.send(type="challenge", to=white, color="black", id="c1")
    sent = await a.expect("challenge_sent", re="c1")
    challenged = await b.expect("challenged")
    assert challenged["from"] == black and challenged["color"] == "black"
    b.send(type="accept", challenge=sent["challenge"], id=5)
    state = await b.expect("state", re=5)
    assert (state["black"], state["white"], state["ply"]) == (black, white, 0)
    await a.expect("state", game=state["game"])
    return a, b, int(state["game"])


async def play(client: Client, game: int, ply: int, square: str) -> dict[str, Any]:
    client.send(type="move", game=game, ply=ply, square=square, id=f"m{ply}")
    return await client.expect("state", re=f"m{ply}")


async def play_opening(black: Client, white: Client, game: int) -> None:
    """Two moves each (``OPENING``): past the abort, so an end now has a result."""
    for ply, (client, square) in enumerate(zip((black, white) * 2, OPENING, strict=True)):
        await play(client, game, ply, square)


# --- the conversation -------------------------------------------------------------------


async def test_hello_first_then_welcome_names_the_store_not_its_owner(online: Any) -> None:
    setup: Setup = await online()
    client = await setup.connect("ann")
    client.send(type="ping", id=1)
    await client.error("hello_first")  # and the connection stays
    welcome = await client.hello()
    assert welcome["user"] == "ann" and welcome["server"] == setup.server.hub.server_id
    assert "host" not in welcome  # who runs it is the kernel's word, not the server's
    assert welcome["games"] == [] and welcome["challenges"] == []
    client.send(type="ping", id=2)
    assert (await client.expect("pong"))["re"] == 2


@pytest.mark.parametrize(
    ("line", "code"),
    [
        (b"not json\n", "bad_json"),
        (b"\xe9\xff\n", "bad_json"),
        (b"[1, 2]\n", "bad_message"),
        (b'{"id": 1}\n', "bad_message"),
        (b'{"type": "teleport", "id": 1}\n', "unknown_type"),
        (b'{"type": "ping", "extra": true}\n', "bad_message"),
        (b'{"type": "move", "game": "one", "ply": 0, "square": "d3"}\n', "bad_message"),
        (b'{"type": "move", "game": 1, "square": "d3"}\n', "bad_message"),
        (b"[" * 1500 + b"]" * 1500 + b"\n", "bad_json"),
    ],
)
async def test_bad_lines_get_an_error_and_the_connection_stays(
    online: Any, line: bytes, code: str
) -> None:
    setup: Setup = await online()
    client = await setup.login("ann")
    client.send_raw(line)
    await client.error(code)
    client.send(type="ping", id=9)
    assert (await client.expect("pong"))["re"] == 9


async def test_a_line_over_the_limit_is_too_large_and_closes(online: Any) -> None:
    setup: Setup = await online()
    client = await setup.login("ann")
    client.send_raw(b'{"type": "chat", "text": "' + b"x" * 5000 + b'"}\n')
    await client.error("too_large")
    assert await client.closed()


async def test_a_hello_claiming_another_user_is_refused_and_closed(online: Any) -> None:
    setup: Setup = await online()
    client = await setup.connect("ann")
    client.send(type="hello", version=4, user="bob")
    await client.error("identity_mismatch")
    assert await client.closed()


async def test_another_version_is_refused_and_closed(online: Any) -> None:
    setup: Setup = await online()
    client = await setup.connect("ann")
    client.send(type="hello", version=3)  # a client from before aborts
    assert "version 4" in (await client.error("version_unsupported"))["message"]
    assert await client.closed()


async def test_a_fifth_session_of_one_user_is_refused(online: Any) -> None:
    setup: Setup = await online()
    sessions = [await setup.login("ann") for _ in range(4)]
    fifth = await setup.connect("ann")
    fifth.send(type="hello", version=4)
    await fifth.error("too_many_sessions")
    assert await fifth.closed()
    sessions[0].send(type="ping", id=1)
    await sessions[0].expect("pong")


async def test_a_flood_is_rate_limited_and_the_connection_stays(online: Any) -> None:
    setup: Setup = await online(Limits(rate=1, burst=10))
    now = [1000.0]
    setup.server.clock = lambda: now[0]  # time stands still during the flood
    client = await setup.login("ann")
    client.send_raw(b'{"type": "ping"}\n' * 30)
    kinds: list[str] = []
    while len(kinds) < 30:
        kind = (await client.recv())["type"]
        if kind in ("pong", "error"):
            kinds.append(kind)
    assert kinds.count("pong") == 9 and kinds.count("error") == 21  # hello took a token
    client.send(type="ping", id="still")
    assert (await client.error("rate_limited"))["re"] == "still"  # dropped, yet answered
    now[0] += 1.0  # the bucket refills at one message a second
    client.send(type="ping", id="after")
    await client.expect("pong", re="after")


async def test_no_hello_in_time_closes(online: Any) -> None:
    setup: Setup = await online(Limits(hello_timeout=0.2))
    client = await setup.connect("ann")
    await client.error("hello_timeout")
    assert await client.closed()


async def test_silence_closes(online: Any) -> None:
    setup: Setup = await online(Limits(idle_timeout=0.2))
    client = await setup.login("ann")
    await client.error("idle_timeout")
    assert await client.closed()


async def test_a_dribbled_line_is_cut_by_a_deadline_on_the_whole_line(online: Any) -> None:
    setup: Setup = await online(Limits(line_timeout=0.5, idle_timeout=5))
    client = await setup.login("ann")
    loop = asyncio.get_running_loop()
    start = loop.time()

    async def dribble() -> None:
        for byte in b'{"type": "ping"' * 10:
            client.send_raw(bytes([byte]))
            await asyncio.sleep(0.05)  # each byte in time; the line never ends

    task = asyncio.create_task(dribble())
    await client.error("idle_timeout")
    assert await client.closed()
    # Cut by the 0.5 s line deadline, not the 5 s idle one (which every byte resets):
    # well under 5 s even on a loaded machine.
    assert loop.time() - start < 4.5
    task.cancel()


async def test_a_client_that_never_reads_is_dropped(
    online: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # bob stands in for the many users a flood past the chat limits would take.
    monkeypatch.setattr(protocol, "CHAT_PER_USER", 1_000_000)
    setup: Setup = await online(Limits(max_buffer=64 * 1024, rate=10_000, burst=10_000))
    reader_less = await setup.login("ann")
    talker = await setup.login("bob")
    sent = 0
    while setup.server.hub.sessions("ann"):  # ann never reads: ~6 KB more each round
        for _ in range(25):
            talker.send(type="chat", text="x" * 190)
        sent += 25
        for _ in range(25):  # bob reads his copies, so only ann's queue grows
            await talker.expect("chat")
        assert sent < 20_000, "ann was never dropped"
    gone = await talker.expect("presence", user="ann")
    assert gone["online"] is False  # dropped, its queue freed
    reader_less.close()


# --- challenges and games -----------------------------------------------------------------


async def test_challenge_rules(online: Any) -> None:
    setup: Setup = await online()
    ann = await setup.login("ann")
    ann.send(type="challenge", to="ann", color="white")
    await ann.error("cannot_challenge_self")
    ann.send(type="challenge", to="nobody", color="white")
    await ann.error("user_offline")
    bob, eve = await setup.login("bob"), await setup.login("eve")
    ann.send(type="challenge", to="bob", color="random")
    number = (await ann.expect("challenge_sent"))["challenge"]
    await bob.expect("challenged", challenge=number)
    eve.send(type="accept", challenge=number)  # someone else's challenge: nothing revealed
    await eve.error("no_such_challenge")
    ann.send(type="accept", challenge=number)  # the challenger cannot accept it either
    await ann.error("no_such_challenge")
    bob.send(type="decline", challenge=number)
    closed = await ann.expect("challenge_closed")
    assert closed == {"type": "challenge_closed", "challenge": number, "reason": "declined"}
    bob.send(type="accept", challenge=number)
    await bob.error("no_such_challenge")


async def test_cancel_tells_the_target(online: Any) -> None:
    setup: Setup = await online()
    ann, bob = await setup.login("ann"), await setup.login("bob")
    ann.send(type="challenge", to="bob", color="white")
    number = (await ann.expect("challenge_sent"))["challenge"]
    bob.send(type="cancel", challenge=number)  # only the challenger cancels
    await bob.error("no_such_challenge")
    ann.send(type="cancel", challenge=number)
    assert (await bob.expect("challenge_closed"))["reason"] == "cancelled"


async def test_moves_are_checked_in_order_and_a_refusal_changes_nothing(online: Any) -> None:
    setup: Setup = await online()
    ann, bob, game = await start_game(setup)
    eve = await setup.login("eve")
    ann.send(type="move", game=999, ply=0, square="d3")
    await ann.error("no_such_game")
    eve.send(type="move", game=game, ply=0, square="d3")
    await eve.error("not_a_player")
    ann.send(type="move", game=game, ply=3, square="d3")
    assert (await ann.error("stale_ply"))["expected"] == 0
    bob.send(type="move", game=game, ply=0, square="d3")
    await bob.error("not_your_turn")
    for square, reason in (("d4", "taken"), ("a1", "flips nothing"), ("z9", "not a square")):
        ann.send(type="move", game=game, ply=0, square=square)
        error = await ann.error("illegal_move")
        assert reason in error["message"]
    state = await play(ann, game, 0, "d3")
    assert state["moves"] == "d3" and state["ply"] == 1 and state["turn"] == "white"
    seen = await bob.expect("state", game=game)
    assert seen["moves"] == "d3"


async def test_a_double_submit_lands_once(online: Any) -> None:
    setup: Setup = await online()
    ann, _, game = await start_game(setup)
    second = await setup.login("ann")
    for session in (ann, second):
        session.send(type="move", game=game, ply=0, square="d3")
    codes = []
    for session in (ann, second):
        session.send(type="ping", id="sync")
        while (message := await session.recv())["type"] != "pong":
            if message["type"] == "error":
                codes.append(message["code"])
    assert codes == ["stale_ply"]  # one of the two, and only one
    assert setup.server.hub.games[game].game.moves == [parse_square("d3")]


async def test_both_sessions_of_a_user_and_a_watcher_see_every_move(online: Any) -> None:
    setup: Setup = await online()
    ann, bob, game = await start_game(setup)
    ann2 = await setup.login("ann")
    watcher = await setup.login("eve")
    watcher.send(type="watch", game=game, id="w")
    assert (await watcher.expect("state", re="w"))["spectators"] == 1
    await play(ann, game, 0, "d3")
    for client in (ann2, bob, watcher):
        assert (await client.expect("state", game=game, ply=1))["moves"] == "d3"


async def test_a_whole_game_to_the_end_with_passes_and_the_result(online: Any) -> None:
    setup: Setup = await online()
    ann, bob, game = await start_game(setup)
    rng = random.Random(5)
    local = Game()
    players = {0: ann, 1: bob}
    state: dict[str, Any] = {}
    while not local.is_over:
        move = rng.choice(local.legal_moves)
        ply = sum(1 for m in local.moves if m >= 0)
        state = await play(players[int(local.turn)], game, ply, square_name(move))
        local.play(move)
    assert state["status"] == "finished" and state["turn"] is None
    outcome = local.outcome()
    assert outcome is not None
    result = state["result"]
    assert (result["black"], result["white"]) == (outcome.black, outcome.white)
    assert tuple(result["score"]) == outcome.final_score and result["reason"] == "end"
    ann.send(type="move", game=game, ply=60, square="a1")
    await ann.error("game_over")  # the documented order: the game exists, and is over


async def test_resign_for_someone_else_is_refused_and_ones_own_ends_the_game(
    online: Any,
) -> None:
    setup: Setup = await online()
    ann, bob, game = await start_game(setup)
    eve = await setup.login("eve")
    eve.send(type="resign", game=game)
    await eve.error("not_a_player")
    await play_opening(ann, bob, game)
    bob.send(type="resign", game=game, id="r")
    state = await bob.expect("state", re="r")
    assert state["status"] == "finished" and state["result"]["winner"] == "black"
    assert state["result"]["reason"] == "resign"
    result = state["result"]
    assert (result["black"], result["white"]) == (4, 4)  # after d3 c5 f6 f5
    assert result["score"] == [60, 4]  # every square bob does not hold goes to ann
    bob.send(type="resign", game=game)
    await bob.error("game_over")


async def test_chat_goes_to_the_games_audience_as_clean_text(online: Any) -> None:
    setup: Setup = await online()
    ann, bob, game = await start_game(setup)
    eve = await setup.login("eve")
    ann.send(type="chat", game=game, text="good\x1b[31m luck\x07 [b]bold[/b]")
    said = await bob.expect("chat")
    assert said == {
        "type": "chat",
        "from": "ann",
        "game": game,
        "text": "good [31m luck  [b]bold[/b]",
    }
    eve.send(type="ping", id="p")
    message = await eve.recv()
    while message["type"] != "pong":
        assert message["type"] != "chat"  # not in the game's audience
        message = await eve.recv()


async def test_lobby_lists_players_and_games(online: Any) -> None:
    setup: Setup = await online()
    ann, _, game = await start_game(setup)
    eve = await setup.login("eve")
    eve.send(type="wait", on=True)
    await ann.expect("presence", user="eve", waiting=True)
    eve.send(type="lobby", id="l")
    lobby = await eve.expect("lobby", re="l")
    new = {"rating": 1500, "deviation": 500, "provisional": True}
    assert lobby["players"] == [
        {"user": "ann", "waiting": False, "playing": True, "status": "lobby", "rating": new},
        {"user": "bob", "waiting": False, "playing": True, "status": "lobby", "rating": new},
        {"user": "eve", "waiting": True, "playing": False, "status": "lobby", "rating": new},
    ]
    assert lobby["games"] == [
        {
            "game": game,
            "black": "ann",
            "white": "bob",
            "ply": 0,
            "spectators": 0,
            "clock": None,
            "rated": False,
            "turn": "black",
        }
    ]


async def test_disconnect_and_reconnect_resumes_the_game(online: Any) -> None:
    setup: Setup = await online()
    ann, bob, game = await start_game(setup)
    await play(ann, game, 0, "d3")
    bob.close()
    assert (await ann.expect("presence", user="bob"))["online"] is False
    bob = await setup.connect("bob")
    welcome = await bob.hello()
    assert [g["game"] for g in welcome["games"]] == [game]
    assert welcome["games"][0]["moves"] == "d3"
    bob.send(type="watch", game=game, id="again")
    await bob.expect("state", re="again")
    state = await play(bob, game, 1, "c5")
    assert state["moves"] == "d3c5"


async def test_a_restart_keeps_games_and_every_acknowledged_move_and_ends_challenges(
    online: Any, tmp_path: Path
) -> None:
    setup: Setup = await online()
    ann, bob, game = await start_game(setup)
    await play(ann, game, 0, "d3")
    await play(bob, game, 1, "c5")
    ann.send(type="challenge", to="bob", color="white")
    await ann.expect("challenge_sent")
    server_id = setup.server.hub.server_id
    await setup.server.stop("restart")
    assert (await ann.expect("bye"))["reason"] == "restart"
    again: Setup = await online()
    ann = await again.connect("ann")
    welcome = await ann.hello()
    assert welcome["server"] == server_id  # the same store: the same identity
    assert welcome["games"][0]["moves"] == "d3c5"
    assert welcome["games"][0]["origin"] == f"{server_id}:{game}"
    assert welcome["challenges"] == []  # a challenge lives with its challenger's session


async def test_a_graceful_stop_says_bye_and_removes_the_socket(online: Any) -> None:
    setup: Setup = await online()
    clients = [await setup.login(user) for user in ("ann", "bob")]
    await setup.server.stop()
    for client in clients:
        bye = await client.expect("bye")
        assert bye["retry_ms"] > 0
        assert await client.closed()
    assert not os.path.exists(setup.path)


# --- the socket ------------------------------------------------------------------------------


async def test_the_socket_is_open_to_every_local_user(online: Any) -> None:
    setup: Setup = await online()
    assert stat.S_IMODE(os.stat(setup.path).st_mode) == 0o666


async def test_a_stale_socket_is_removed_and_a_live_one_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.sock"
    dead = socket.socket(socket.AF_UNIX)
    dead.bind(str(path))
    dead.close()  # the file stays, nobody listens: a dead server's
    store = SqliteStore(tmp_path / "db" / "a.sqlite3")
    first = Server(store, identify=name_from_address)
    await first.start(str(path))
    second = Server(store, identify=name_from_address)
    with pytest.raises(ServerRunning, match="already running"):
        await second.start(str(path))
    await first.stop()
    store.close()
