"""Chat abuse the hostile audit of issue 31 found, through the hub with a clock the
test moves: one user flooding chat from several sessions, many watchers flooding one
game, and a watcher who filled the chats of many of a player's games getting the
player dropped at every welcome (the histories outgrew the server's send buffer)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from reversi_tui.net import hub, protocol
from reversi_tui.net.server import Limits

from .hub_fakes import Peer, World


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    made = World(tmp_path)
    yield made
    made.close()


class CountingPeer(Peer):
    """A peer that also keeps the size of each line it is sent, by type."""

    def __init__(self, user: str) -> None:
        super().__init__(user)
        self.sizes: list[tuple[str, int]] = []

    def send_line(self, line: bytes) -> None:
        super().send_line(line)
        self.sizes.append((self.lines[-1]["type"], len(line)))


def chat(world: World, peer: Peer, text: str, game: int | None = None) -> str:
    """``peer`` says ``text``: the answer's type (``chat``, or the error's code)."""
    peer.lines.clear()
    extra = {} if game is None else {"game": game}
    world.send(peer, type="chat", text=text, id="c", **extra)
    answer = next(line for line in peer.lines if line.get("re") == "c")
    return str(answer["code"]) if answer["type"] == "error" else str(answer["type"])


def test_one_user_is_limited_across_all_their_sessions(world: World) -> None:
    first, second = Peer("eve"), Peer("eve")
    world.hub.join(first, None)
    world.hub.join(second, None)
    said = [chat(world, peer, "spam") for peer in (first, second) * 3]
    assert said == ["chat"] * protocol.CHAT_PER_USER + ["chat_limited"]
    world.clock.advance(protocol.CHAT_WINDOW)
    assert chat(world, second, "later") == "chat"


def test_a_refused_line_reaches_nobody_and_says_how_long_to_wait(world: World) -> None:
    eve, ann = world.join("eve"), world.join("ann")
    for _ in range(protocol.CHAT_PER_USER):
        chat(world, eve, "spam")
    ann.take()
    eve.lines.clear()
    world.send(eve, type="chat", text="more", id="c")
    assert "wait 10 s" in eve.last("error")["message"]
    assert ann.take("chat") == []


def test_all_watchers_of_a_game_together_are_capped(world: World) -> None:
    ann, bob = world.join("ann"), world.join("bob")
    game = world.start(ann, bob)
    watchers = [world.join(f"w{n}") for n in range(5)]
    for watcher in watchers:
        world.send(watcher, type="watch", game=game)
    ann.take()
    said = [chat(world, w, "look", game) for _ in range(protocol.CHAT_PER_USER) for w in watchers]
    assert said.count("chat") == protocol.WATCHER_CHAT_PER_GAME
    assert said[protocol.WATCHER_CHAT_PER_GAME :] == ["chat_limited"] * 5
    assert len(ann.take("chat")) == protocol.WATCHER_CHAT_PER_GAME
    assert chat(world, bob, "the players still talk", game) == "chat"
    world.clock.advance(protocol.WATCHER_CHAT_WINDOW)
    assert chat(world, watchers[0], "a minute later", game) == "chat"


def fill_chats(world: World, ann: Peer, bob: Peer, games: int) -> None:
    """``games`` games between ann and bob, each chat filled by a watcher with the
    longest lines in bytes (three per character), at the pace the limits allow."""
    eve = world.join("eve")
    text = "\u6f22" * protocol.MAX_CHAT
    for _ in range(games):
        game = world.start(ann, bob)
        world.send(eve, type="watch", game=game)
        for _ in range(protocol.CHAT_HISTORY):
            world.clock.advance(protocol.WATCHER_CHAT_WINDOW / protocol.WATCHER_CHAT_PER_GAME + 0.1)
            assert chat(world, eve, text, game) == "chat"


def test_welcome_histories_stay_well_under_the_send_buffer(world: World) -> None:
    ann, bob = world.join("ann"), world.join("bob")
    fill_chats(world, ann, bob, games=12)
    again = CountingPeer("ann")
    world.hub.join(again, None)
    histories = [size for kind, size in again.sizes if kind == "chat_history"]
    assert histories, "no chat history at all"
    assert sum(histories) <= protocol.HISTORY_BUDGET
    assert sum(size for _, size in again.sizes) < Limits().max_buffer // 2
    newest = again.last("chat_history")["lines"][-1]
    assert newest["from"] == "eve"


def test_a_watch_reply_sends_the_newest_lines_within_the_budget(world: World) -> None:
    ann, bob = world.join("ann"), world.join("bob")
    fill_chats(world, ann, bob, games=1)
    carol = CountingPeer("carol")
    world.hub.join(carol, None)
    game = max(world.hub.games)
    world.hub.chats[game].append(protocol.ChatLine(from_="ann", text="last", watcher=False))
    world.send(carol, type="watch", game=game)
    history = carol.last("chat_history")
    assert history["lines"][-1]["text"] == "last"
    assert len(json.dumps(history, ensure_ascii=False).encode()) <= protocol.HISTORY_BUDGET


def test_the_chat_counts_of_quiet_games_are_forgotten(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hub, "CHAT_TRACKED", 10)  # a thousand games take long to play
    ann, bob, eve = world.join("ann"), world.join("bob"), world.join("eve")
    counted = world.hub._watchers_said
    for _ in range(hub.CHAT_TRACKED * 3):
        game = world.start(ann, bob)
        world.send(eve, type="watch", game=game)
        world.clock.advance(protocol.WATCHER_CHAT_WINDOW)
        assert chat(world, eve, "hi", game) == "chat"
        world.send(ann, type="resign", game=game)
    assert len(counted) <= hub.CHAT_TRACKED + 1
