"""The server's side of issue 18 over real sockets: the lobby pushed after the
messages that change it, and the flag timer set at the hub's next deadline, its
``tick`` ending the game with nobody sending anything. The hub's clock is the
test's; the timer is run by hand, so nothing sleeps."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from .conftest import Setup

pytestmark = pytest.mark.asyncio


async def test_the_lobby_is_pushed_to_the_lobby_only(online: Any) -> None:
    setup: Setup = await online()
    carol = await setup.login("carol")
    ann = await setup.login("ann")
    ann.send(type="activity", status="online")
    bob = await setup.login("bob")
    bob.send(type="activity", status="online")
    ann.send(type="challenge", to="bob", color="black", id="c")
    sent = await ann.expect("challenge_sent", re="c")
    bob.send(type="accept", challenge=sent["challenge"], id="a")
    game = (await bob.expect("state", re="a"))["game"]
    pushed = await carol.expect("lobby")
    while not pushed["games"]:
        pushed = await carol.expect("lobby")
    assert pushed["games"][0]["game"] == game and "re" not in pushed
    ann.send(type="ping", id="p")
    while (message := await ann.recv())["type"] != "pong":
        assert message["type"] != "lobby"


async def test_a_flag_falls_on_the_servers_timer(online: Any) -> None:
    setup: Setup = await online()
    now = [1000.0]
    hub = setup.server.hub
    hub.clock = lambda: now[0]
    setup.server.clock = hub.clock
    ann, bob = await setup.login("ann"), await setup.login("bob")
    ann.send(type="challenge", to="bob", color="black", clock={"minutes": 1, "increment": 0})
    sent = await ann.expect("challenge_sent")
    bob.send(type="accept", challenge=sent["challenge"], id="a")
    await bob.expect("state", re="a")
    timer = setup.server._tick
    assert timer is not None
    loop = asyncio.get_running_loop()
    assert timer.when() - loop.time() == pytest.approx(60, abs=1)
    now[0] += 61
    timer.cancel()
    setup.server._on_tick()  # what the timer does when it fires
    for client in (ann, bob):
        state = await client.expect("state", status="finished")
        # no move made: Black's flag falling aborts the game
        assert state["result"]["reason"] == "aborted" and state["result"]["winner"] is None
    assert setup.server._tick is None
