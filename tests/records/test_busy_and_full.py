"""The records database when another process holds it, or the disk is full: reading
commands wait a few seconds at most and say "busy", or read the records anyway."""

from __future__ import annotations

import fcntl
import os
import resource
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from reversi_tui.match import Match, MatchSettings, PlayerSpec, play_out
from reversi_tui.records.autosave import AutosaveStore
from reversi_tui.records.database import DatabaseError, RecordsDatabase
from reversi_tui.records.keeper import GameKeeper
from reversi_tui.records.names import local_user
from reversi_tui.records.paths import Places
from reversi_tui.tui.screens.statistics import load_statistics

from ..fakes import fake_sources
from .test_database import finished_record

COMPUTERS = MatchSettings(PlayerSpec.computer("easy"), PlayerSpec.computer("hard"))

BUSY = "is busy: another reversi is writing to it; try again"


def records_in(folder: Path, games: int = 2) -> Path:
    path = folder / "records.sqlite3"
    with RecordsDatabase(path) as db:
        for seed in range(games):
            db.add(finished_record(seed + 1), local_user(), "Computer (hard)")
    return path


def history(folder: Path, **popen: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # type: ignore[call-overload, no-any-return]
        [sys.executable, "-m", "reversi_tui", "history", "--json", "--data-dir", str(folder)],
        capture_output=True,
        text=True,
        timeout=60,
        **popen,
    )


@pytest.fixture
def holder() -> Iterator[list[subprocess.Popen[str]]]:
    """Processes that hold a lock until the test ends (they say "held" once they do)."""
    started: list[subprocess.Popen[str]] = []
    yield started
    for process in started:
        process.kill()
        process.wait()


def hold(started: list[subprocess.Popen[str]], code: str) -> None:
    process = subprocess.Popen(
        [sys.executable, "-c", code + "\nprint('held', flush=True)\nimport sys; sys.stdin.read()"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    started.append(process)
    assert process.stdout is not None and process.stdout.readline() == "held\n"


def test_history_gives_up_on_an_opening_lock_held_elsewhere(
    tmp_path: Path, holder: list[subprocess.Popen[str]]
) -> None:
    path = records_in(tmp_path)
    lock = f"{path}.lock"
    hold(holder, f"import fcntl, os\nfcntl.flock(os.open({lock!r}, os.O_RDWR), fcntl.LOCK_EX)")
    began = time.monotonic()
    done = history(tmp_path)  # before: waited for ever (the timeout raised)
    assert time.monotonic() - began < 30
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and BUSY in done.stderr
    assert "Traceback" not in done.stderr


def test_a_writer_holding_the_file_is_busy_in_words(
    tmp_path: Path, holder: list[subprocess.Popen[str]]
) -> None:
    path = records_in(tmp_path)
    hold(
        holder,
        f"import sqlite3\ndb = sqlite3.connect({str(path)!r}, isolation_level=None)\n"
        "db.execute('PRAGMA locking_mode = EXCLUSIVE')\n"
        "db.execute('BEGIN EXCLUSIVE')\n"
        "db.execute('CREATE TABLE held (x)')",
    )
    with pytest.raises(DatabaseError, match=BUSY):
        RecordsDatabase(path, wait=0.2, reading=True)
    stats, problems = load_statistics(path, local_user())
    assert stats.overall.games == 0 and len(problems) == 1 and BUSY in problems[0]


def test_the_statistics_wait_briefly_for_the_opening_lock(
    tmp_path: Path, holder: list[subprocess.Popen[str]]
) -> None:
    path = records_in(tmp_path)
    lock = f"{path}.lock"
    hold(holder, f"import fcntl, os\nfcntl.flock(os.open({lock!r}, os.O_RDWR), fcntl.LOCK_EX)")
    found: list[list[str]] = []
    loading = threading.Thread(
        target=lambda: found.append(load_statistics(path, local_user())[1]), daemon=True
    )
    began = time.monotonic()
    loading.start()
    loading.join(timeout=20)  # before: for ever
    assert time.monotonic() - began < 3  # the app waits with them
    [problems] = found
    assert len(problems) == 1 and BUSY in problems[0]


def _no_file_may_grow() -> None:
    """As on a full disk: any write that extends a file fails (EFBIG, not a signal)."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))


def test_history_reads_the_records_when_no_file_can_grow(tmp_path: Path) -> None:
    records_in(tmp_path, games=3)
    done = history(tmp_path, preexec_fn=_no_file_may_grow)  # before: "disk I/O error"
    assert done.returncode == 0, done.stderr
    assert done.stdout.count('"result"') == 3


def test_changes_still_in_the_wal_are_not_hidden(tmp_path: Path) -> None:
    path = records_in(tmp_path)
    Path(f"{path}-wal").write_bytes(b"\x00" * 100)  # as if a checkpoint never ran
    done = history(tmp_path, preexec_fn=_no_file_may_grow)
    assert done.returncode == 1 and "cannot read the records database" in done.stderr


@pytest.fixture
def full_disk(tmp_path: Path) -> Iterator[Path]:
    """A tiny tmpfs filled to the last byte (root only: skipped elsewhere)."""
    mount = tmp_path / "tiny"
    mount.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(mount)], capture_output=True
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], check=True)


def test_on_a_full_disk_history_and_statistics_read_and_say_so(
    full_disk: Path, tmp_path: Path
) -> None:
    shutil.copy(records_in(tmp_path, games=2), full_disk)
    filler = os.open(full_disk / "filler", os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        with pytest.raises(OSError):
            while True:
                os.write(filler, b"\x00" * 4096)
    finally:
        os.close(filler)
    assert os.statvfs(full_disk).f_bavail == 0
    done = history(full_disk)  # before: "disk I/O error", and nothing shown
    assert done.returncode == 0, done.stderr
    assert done.stdout.count('"result"') == 2
    assert "disk holding the records database is full" in done.stderr
    stats, problems = load_statistics(full_disk / "records.sqlite3", local_user())
    assert stats.overall.games == 2 and "full" in problems[0]


def test_a_game_ended_while_the_records_are_busy_is_kept_and_recorded_later(
    tmp_path: Path,
) -> None:
    places = Places.resolve(tmp_path)
    places.data.mkdir(parents=True, exist_ok=True)
    records_in(places.data, games=0)
    held = os.open(f"{places.database}.lock", os.O_RDWR)
    fcntl.flock(held, fcntl.LOCK_EX)  # another reversi, opening the records
    said: list[str] = []
    keeper = GameKeeper(places, on_problem=said.append)
    match = Match(COMPUTERS, fake_sources())
    keeper.attach(match)
    ended = threading.Thread(target=play_out, args=(match,), daemon=True)
    began = time.monotonic()
    ended.start()
    ended.join(timeout=20)
    assert not ended.is_alive(), "the game's end waited for the records"  # before: for ever
    assert time.monotonic() - began < 5
    assert len(said) == 1 and "not recorded yet" in said[0] and "is busy" in said[0]
    [kept] = AutosaveStore(places.autosave_dir).finished()
    assert kept.saved.record.moves == tuple(match.game.moves)
    assert kept.saved.record.result == match.record().result
    keeper.close()
    os.close(held)
    # The next start records it (and offers nothing to resume).
    again = GameKeeper(places, on_problem=said.append)
    assert again.resumable() == [] and len(said) == 1
    assert AutosaveStore(places.autosave_dir).finished() == []
    with RecordsDatabase(places.database) as db:
        [stored] = db.recent()
    assert stored.record == kept.saved.record
