"""A player whose client stops reading (Ctrl+Z) is dropped by the server when another
user's chat fills its queue; that is a stall, not a player who left, so the opponent
may not claim the game after the usual 40 s (issue 31)."""

from __future__ import annotations

from typing import Any

import pytest

from reversi_tui.net import protocol
from reversi_tui.net.server import Limits

from .conftest import Setup
from .test_server import play_opening, start_game


async def test_a_player_dropped_for_not_reading_is_not_claimed_as_gone(
    online: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # ann stands in for the many users a flood past the chat limits would take.
    monkeypatch.setattr(protocol, "CHAT_PER_USER", 1_000_000)
    setup: Setup = await online(Limits(max_buffer=64 * 1024, rate=10_000, burst=10_000))
    ann, bob, game = await start_game(setup)
    await play_opening(ann, bob, game)
    now = [setup.server.hub.clock()]
    setup.server.hub.clock = lambda: now[0]
    sent = 0
    while setup.server.hub.sessions("bob"):  # bob is suspended: he reads nothing
        for _ in range(25):
            ann.send(type="chat", text="x" * 190)  # lobby chat, to everyone
        sent += 25
        for _ in range(25):
            await ann.expect("chat")
        assert sent < 20_000, "bob was never dropped"
    await ann.expect("presence", user="bob", online=False)
    now[0] += protocol.ABANDON_GRACE + 1
    ann.send(type="claim", game=game, outcome="win", id="early")
    refused = await ann.error("claim_too_early")
    assert refused["re"] == "early" and "stopped reading" in refused["message"]
    now[0] += protocol.STALLED_GRACE
    ann.send(type="claim", game=game, outcome="win", id="late")
    state = await ann.expect("state", re="late")
    assert state["result"]["reason"] == "abandoned" and state["result"]["winner"] == "black"
    bob.close()


async def test_a_player_who_closes_the_connection_may_be_claimed_after_the_grace(
    online: Any,
) -> None:
    setup: Setup = await online()
    ann, bob, game = await start_game(setup)
    await play_opening(ann, bob, game)
    now = [setup.server.hub.clock()]
    setup.server.hub.clock = lambda: now[0]
    bob.close()
    await ann.expect("presence", user="bob", online=False)
    now[0] += protocol.ABANDON_GRACE + 1
    ann.send(type="claim", game=game, outcome="win", id="c")
    assert (await ann.expect("state", re="c"))["result"]["reason"] == "abandoned"
