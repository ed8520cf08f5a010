"""Closed challenges leave the store (issue 31): a declined, cancelled or expired one
is deleted at once, and those an older server left closed are pruned when a server
starts. A challenge a game answers stays, as the game refers to it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from reversi_tui.net import protocol

from .hub_fakes import World


def challenge_rows(world: World) -> int:
    path = world.directory / "db" / "online.sqlite3"
    with sqlite3.connect(path) as db:
        (count,) = db.execute("SELECT count(*) FROM challenges").fetchone()
    db.close()
    return int(count)


def test_declined_cancelled_and_expired_challenges_are_deleted(tmp_path: Path) -> None:
    world = World(tmp_path)
    ann, bob, cat = world.join("ann"), world.join("bob"), world.join("cat")
    world.send(ann, type="challenge", to="bob", color="black")
    world.send(bob, type="decline", challenge=ann.last("challenge_sent")["challenge"])
    world.send(ann, type="challenge", to="cat", color="black")
    world.send(ann, type="cancel", challenge=ann.last("challenge_sent")["challenge"])
    world.send(cat, type="challenge", to="bob", color="white")
    world.clock.advance(protocol.CHALLENGE_TTL + 1)
    world.send(ann, type="ping")
    assert cat.last("challenge_closed")["reason"] == "expired"
    assert challenge_rows(world) == 0
    world.start(ann, bob)
    assert challenge_rows(world) == 1  # the game answers it
    world.close()


def test_a_starting_server_prunes_the_closed_challenges_an_older_one_kept(
    tmp_path: Path,
) -> None:
    world = World(tmp_path)
    ann, bob = world.join("ann"), world.join("bob")
    world.start(ann, bob)
    path = tmp_path / "db" / "online.sqlite3"
    with sqlite3.connect(path) as db:
        db.executemany(
            "INSERT INTO challenges (challenger, target, color, created, closed)"
            " VALUES ('ann', 'bob', 'black', '2024-01-01', '2024-01-02')",
            [()] * 500,
        )
    db.close()
    world.reopen()
    assert challenge_rows(world) == 1
    world.close()
