"""Every kind of client message is answered: a reply naming its ``id``, or an error.

The hub's dispatch ends in ``assert_never`` (mypy fails on a message type without a
case); this holds the other half: no case is silent. A new client message type fails
here until a sample of it is added below.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from reversi_tui.net import protocol

from .hub_fakes import World

#: One request of each type, as ann sends it in a game against bob (game 1, ann Black).
SAMPLES: dict[str, dict[str, Any]] = {
    "hello": {"version": protocol.VERSION},
    "ping": {},
    "lobby": {},
    "wait": {"on": True},
    "activity": {"status": "online"},
    "challenge": {"to": "bob", "color": "white"},
    "accept": {"challenge": 999},
    "decline": {"challenge": 999},
    "cancel": {"challenge": 999},
    "move": {"game": 1, "ply": 0, "square": "d3"},
    "resign": {"game": 1},
    "abort": {"game": 1},
    "claim": {"game": 1, "outcome": "win"},
    "rematch": {"game": 1},
    "watch": {"game": 1},
    "unwatch": {"game": 1},
    "chat": {"game": 1, "text": "hello"},
    "resume": {
        "origin": "elsewhere:7",
        "black": "ann",
        "white": "bob",
        "started": "2026-11-28T10:00:00+00:00",
        "moves": "d3c5",
    },
}


#: Requests that were answered by nothing: one that changes nothing, or says nothing.
QUIET_ONES: list[tuple[str, dict[str, Any]]] = [
    ("activity", {"status": "lobby"}),  # the status it has already
    ("wait", {"on": False}),  # not waiting already
    ("chat", {"game": 1, "text": " \x07 "}),  # nothing left once cleaned
    ("chat", {"text": "hello, lobby"}),
]


def test_every_client_message_type_has_a_sample() -> None:
    assert set(SAMPLES) == protocol.CLIENT_TYPES


@pytest.mark.parametrize(
    ("kind", "fields"), [*SAMPLES.items(), *QUIET_ONES], ids=lambda v: str(v)[:24]
)
def test_every_client_message_gets_a_reply_or_an_error(
    tmp_path: Path, kind: str, fields: dict[str, Any]
) -> None:
    world = World(tmp_path)
    try:
        ann, bob = world.join("ann"), world.join("bob")
        assert world.start(ann, bob) == 1
        ann.take()
        bob.take()
        world.send(ann, type=kind, id=7, **fields)
        answers = [line for line in ann.take() if line.get("re") == 7]
        assert answers, f"{kind} {fields}: no reply and no error"
        assert all("re" not in line for line in bob.take())  # only the asker's copy
    finally:
        world.close()
