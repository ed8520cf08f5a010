"""A ``resume`` is a player's word about a game no server holds: every field of it
comes from a client and may be hostile. Each malformed one is refused with an error
that names the fault, and the hub goes on serving (issue 31)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

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
