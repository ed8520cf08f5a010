"""A ``resume`` is a player's word about a game no server holds: every field of it
comes from a client and may be hostile. Each malformed one is refused with an error
that names the fault, and the hub goes on serving (issue 31)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from reversi_tui.net.copies import Copies, GameCopy
from reversi_tui.net.server import Limits

from .conftest import Setup
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


def a_copy(origin: str = "x:1", moves: str = "d3c5") -> GameCopy:
    return GameCopy(
        origin=origin, server="s", game=1, black="ann", white="bob", started=STARTED, moves=moves
    )


def test_a_stored_copy_beyond_the_limits_is_set_aside_and_the_others_are_presented(
    tmp_path: Path,
) -> None:
    copies = Copies(tmp_path)
    copies.save(a_copy("x:1"))
    copies.save(a_copy("x:3"))
    planted = msgspec.structs.asdict(a_copy("x:2"))
    planted["origin"] = "x:" + "2" * 5000  # as a server could have sent it
    (tmp_path / "x_2.json").write_bytes(msgspec.json.encode(planted))
    assert [copy.origin for copy in copies.all()] == ["x:1", "x:3"]
    assert "beyond the protocol's limits" in copies.problems[0]
    assert not (tmp_path / "x_2.json").exists()
    for copy in copies.all():
        assert len(json.dumps(msgspec.to_builtins(copy.resume(1)))) < 4096


@pytest.mark.parametrize("directory", [True, False], ids=["on-disk", "in-memory"])
def test_a_state_beyond_the_limits_is_not_kept_as_a_copy(tmp_path: Path, directory: bool) -> None:
    copies = Copies(tmp_path if directory else None)
    copies.save(a_copy("x:" + "9" * 5000))
    copies.save(a_copy(moves="d3" * 100))
    assert copies.all() == []
    assert len(copies.problems) == 2 and "cannot keep" in copies.problems[0]


async def test_every_copy_presented_in_a_burst_is_answered(online: Any) -> None:
    setup: Setup = await online(Limits(rate=1, burst=10))
    setup.server.clock = lambda: 1000.0  # time stands still: no token comes back
    ann = await setup.login("ann")
    ids = set(range(50))
    ann.send_raw(b"".join(json.dumps(resume(id=i, origin=f"x:{i}")).encode() + b"\n" for i in ids))
    answers: dict[int, str] = {}
    while len(answers) < len(ids):
        message = await ann.recv()
        if message.get("re") in ids:
            answers[message["re"]] = message.get("code", message["type"])
    assert set(answers.values()) == {"resume_pending", "rate_limited"}
