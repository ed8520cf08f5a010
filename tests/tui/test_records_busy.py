"""A game that ends while another reversi holds the records: the app goes on at once,
says the game is kept, and the game is recorded later."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from reversi_tui.records.autosave import AutosaveStore
from reversi_tui.records.database import RecordsDatabase
from reversi_tui.records.keeper import GameKeeper
from reversi_tui.records.paths import Places

from ..fakes import FakeComputer
from .helpers import make_app, ui, wait_until

#: Seconds the other process holds the lock at most: past it, a frozen app would thaw
#: and the test still fail on its timing.
HOLD_SECONDS = 30


@pytest.fixture
def busy_records(tmp_path: Path) -> Iterator[Places]:
    """Places whose records database's lock another process holds."""
    places = Places.resolve(tmp_path)
    places.data.mkdir(parents=True, exist_ok=True)
    RecordsDatabase(places.database).close()
    code = (
        "import fcntl, os, select, sys\n"
        f"fcntl.flock(os.open({str(places.database) + '.lock'!r}, os.O_RDWR), fcntl.LOCK_EX)\n"
        "print('held', flush=True)\n"
        f"select.select([sys.stdin], [], [], {HOLD_SECONDS})\n"
    )
    holder = subprocess.Popen(
        [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert holder.stdout is not None and holder.stdout.readline() == "held\n"
    yield places
    holder.kill()
    holder.wait()


async def test_the_game_ends_at_once_and_is_kept_for_the_records(busy_records: Places) -> None:
    keeper = GameKeeper(busy_records)
    app = make_app(FakeComputer(), FakeComputer(level="hard"), keeper=keeper)
    began = time.monotonic()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_until(pilot, lambda: ui(app).game.is_over, limit=HOLD_SECONDS + 10)
        assert time.monotonic() - began < 10  # before: frozen until the lock was let go
        await wait_until(pilot, lambda: bool(app._notifications))
        [notice] = [n.message for n in app._notifications]
        assert "not recorded yet" in notice and "busy" in notice and "kept" in notice
        await pilot.press("escape")
        assert app.is_running
    [kept] = AutosaveStore(busy_records.autosave_dir).finished()
    assert kept.saved.record.moves == tuple(ui(app).game.moves)


def test_the_open_dialogs_records_say_busy_within_a_second_or_two(busy_records: Places) -> None:
    """The Open dialog reads the records as the statistics do: a short wait, then a
    sentence (before: the five seconds the keeper waits to write, with the app frozen)."""
    from reversi_tui.tui.screens.open_game import recent_records

    began = time.monotonic()
    games, problem = recent_records(busy_records.database)
    assert time.monotonic() - began < 4
    assert games == [] and problem is not None and "busy" in problem
