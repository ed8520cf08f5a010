"""The live lobby and the chat history (issue 18), through the hub: sessions in the
lobby get the lobby pushed when it changes, once per batch and never twice the same;
sessions elsewhere do not; a user's status is their most present session's; a game's
chat keeps its last 50 lines, sent to new watchers and after ``welcome``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from reversi_tui.net import protocol

from .hub_fakes import Peer, World


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    made = World(tmp_path)
    yield made
    made.close()


def test_a_lobby_session_gets_a_push_when_a_game_starts_and_no_duplicate(world: World) -> None:
    carol = world.join("carol")
    ann, bob = world.join("ann"), world.join("bob")
    for peer in (ann, bob):
        world.send(peer, type="activity", status="online")
    world.hub.flush_lobby()
    carol.take()
    game = world.start(ann, bob)
    world.hub.flush_lobby()
    (pushed,) = carol.take("lobby")
    assert "re" not in pushed
    assert [(g["game"], g["turn"]) for g in pushed["games"]] == [(game, "black")]
    assert ann.take("lobby") == [] and bob.take("lobby") == []  # in a game screen
    world.hub.flush_lobby()
    assert carol.take("lobby") == []  # nothing changed
    world.send(carol, type="wait", on=True)
    world.send(carol, type="wait", on=False)
    world.hub.flush_lobby()
    assert carol.take("lobby") == []  # changed and changed back in one batch
    world.move(ann, game, "d3")
    world.hub.flush_lobby()
    (pushed,) = carol.take("lobby")
    assert pushed["games"][0]["ply"] == 1 and pushed["games"][0]["turn"] == "white"


def test_a_status_change_is_a_presence_and_a_push(world: World) -> None:
    carol, dave = world.join("carol"), world.join("dave")
    world.hub.flush_lobby()
    carol.take()
    world.send(dave, type="activity", status="away")
    world.hub.flush_lobby()
    presence = carol.last("presence")
    assert (presence["user"], presence["status"]) == ("dave", "away")
    (pushed,) = carol.take("lobby")
    assert {p["user"]: p["status"] for p in pushed["players"]} == {
        "carol": "lobby",
        "dave": "away",
    }
    world.send(dave, type="activity", status="away")  # the same again: nothing
    world.hub.flush_lobby()
    assert carol.take() == []


def test_a_users_status_is_their_most_present_sessions(world: World) -> None:
    carol = world.join("carol")
    first = world.join("dave")
    world.send(first, type="activity", status="local")
    other = Peer("dave")  # a second session of dave's
    world.hub.join(other, None)
    world.send(other, type="activity", status="online")
    assert world.hub.lobby().players[1].status == "online"
    world.send(other, type="activity", status="away")
    assert world.hub.lobby().players[1].status == "local"
    world.hub.leave(first)
    assert carol.last("presence")["status"] == "away"
    assert world.hub.lobby().players[1].status == "away"


def test_an_answered_lobby_is_not_pushed_again(world: World) -> None:
    carol = world.join("carol")
    world.join("dave")
    world.send(carol, type="lobby", id="l")
    assert carol.last("lobby")["re"] == "l"
    carol.take()
    world.hub.flush_lobby()
    assert carol.take("lobby") == []


def test_chat_history_is_bounded_sent_to_a_new_watcher_and_after_welcome(world: World) -> None:
    ann, bob, carol = world.join("ann"), world.join("bob"), world.join("carol")
    game = world.start(ann, bob)
    world.send(carol, type="watch", game=game, id="w")
    assert carol.take("chat_history") == []  # nothing said yet: nothing sent
    world.send(carol, type="chat", game=game, text="hello from the stands")
    said = ann.last("chat")
    assert said["watcher"] is True and said["from"] == "carol"
    for number in range(60):
        world.clock.advance(protocol.CHAT_WINDOW / protocol.CHAT_PER_USER)  # within the limit
        world.send(ann if number % 2 == 0 else bob, type="chat", game=game, text=f"line {number}")
    assert "watcher" not in ann.last("chat")
    dave = world.join("dave")
    world.send(dave, type="watch", game=game, id="w")
    state, history = dave.lines[-2:]
    assert state["type"] == "state" and history["type"] == "chat_history"
    lines = history["lines"]
    assert len(lines) == protocol.CHAT_HISTORY
    assert [line["text"] for line in lines] == [f"line {n}" for n in range(10, 60)]
    assert lines[0] == {"from": "ann", "text": "line 10", "watcher": False}
    assert history["origin"] == ann.last("state")["origin"]
    again = world.join("bob")  # a second session of bob's
    assert [line["type"] for line in again.lines] == ["welcome", "chat_history"]
    assert again.lines[1]["game"] == game and len(again.lines[1]["lines"]) == 50
