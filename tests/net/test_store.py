"""The online server's store: challenges and games read back as written, moves
append-only and in order (also against a second connection), finished games
closed to writes, everything back after a restart or a kill -9, a private file
in a private directory, foreign and damaged files set aside, newer ones refused
untouched."""

from __future__ import annotations

import os
import select
import signal
import sqlite3
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from reversi_tui.net.store import (
    APPLICATION_ID,
    MIGRATIONS,
    SCHEMA_VERSION,
    SqliteStore,
    StaleMove,
    Store,
    StoreError,
)
from reversi_tui.records.database import APPLICATION_ID as RECORDS_APPLICATION_ID
from reversi_tui.records.database import RecordsDatabase

from ..timing import patience

#: Moves the killed writer must have acknowledged before the kill.
KILL_AFTER = 300
#: Seconds the killed writer may take to get there.
KILL_DEADLINE = patience(60.0)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "server" / "online.sqlite3"


@pytest.fixture
def store(path: Path) -> Iterator[SqliteStore]:
    with SqliteStore(path) as opened:
        yield opened


def raw(path: Path) -> sqlite3.Connection:
    """A plain connection to the file, beside the store's."""
    return sqlite3.connect(path, isolation_level=None)


def aside_files(path: Path) -> list[Path]:
    return sorted(path.parent.glob(f"{path.name}.damaged-*"))


def test_sqlite_store_is_a_store(store: SqliteStore) -> None:
    used: Store = store  # mypy checks the structural match
    assert used.games() == []


def test_new_file_carries_identity_and_schema(store: SqliteStore, path: Path) -> None:
    db = raw(path)
    try:
        assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
    finally:
        db.close()
    assert {"challenges", "games", "moves"} <= tables
    assert store.problems == []
    assert APPLICATION_ID != RECORDS_APPLICATION_ID


def test_store_connection_settings(store: SqliteStore) -> None:
    db = store._db
    assert db.isolation_level is None
    assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert db.execute("PRAGMA busy_timeout").fetchone()[0] >= 1000
    assert db.execute("PRAGMA foreign_keys").fetchone()[0] == 1


# Challenges -----------------------------------------------------------------------
def test_challenges_round_trip(store: SqliteStore) -> None:
    first = store.create_challenge("ann", "bob", "black")
    second = store.create_challenge("cat", "ann", "random")
    assert (first.challenger, first.target, first.color) == ("ann", "bob", "black")
    assert first.created.utcoffset() == timedelta(0)
    assert first.created.tzinfo is not None
    assert store.pending_challenges() == [first, second]

    assert store.close_challenge(first.id) is True
    assert store.close_challenge(first.id) is False
    assert store.close_challenge(9999) is False
    assert store.pending_challenges() == [second]


def test_bad_challenge_colour_refused(store: SqliteStore) -> None:
    with pytest.raises(StoreError):
        store.create_challenge("ann", "bob", "green")
    assert store.pending_challenges() == []


def test_create_game_closes_its_challenge_once(store: SqliteStore) -> None:
    challenge = store.create_challenge("ann", "bob", "white")
    game = store.create_game("bob", "ann", challenge_id=challenge.id)
    assert store.pending_challenges() == []
    assert store.game(game.id) == game

    with pytest.raises(StoreError, match="not pending"):
        store.create_game("bob", "ann", challenge_id=challenge.id)
    with pytest.raises(StoreError):
        store.create_game("bob", "ann", challenge_id=4242)
    assert [g.id for g in store.games()] == [game.id]  # the refusals left no game behind


# Games and moves -------------------------------------------------------------------
def test_game_round_trip(store: SqliteStore) -> None:
    game = store.create_game("ann", "bob")
    assert (game.black, game.white, game.moves, game.resigned, game.finished) == (
        "ann",
        "bob",
        (),
        None,
        False,
    )
    assert game.created.tzinfo == UTC
    for ply, square in enumerate((19, 18, 17)):
        store.append_move(game.id, ply, square)
    got = store.game(game.id)
    assert got is not None
    assert got.moves == (19, 18, 17)
    assert got.updated >= got.created == game.created

    other = store.create_game("cat", "dan")
    store.finish_game(game.id, resigned="white")
    done = store.game(game.id)
    assert done is not None
    assert (done.finished, done.resigned, done.moves) == (True, "white", (19, 18, 17))
    assert [g.id for g in store.games()] == [game.id, other.id]
    assert store.games(unfinished_only=True) == [other]
    assert store.game(12345) is None


def test_game_ending_on_the_board(store: SqliteStore) -> None:
    game = store.create_game("ann", "bob")
    store.finish_game(game.id)
    done = store.game(game.id)
    assert done is not None
    assert (done.finished, done.resigned) == (True, None)


def test_moves_are_append_only(store: SqliteStore, path: Path) -> None:
    game = store.create_game("ann", "bob")
    store.append_move(game.id, 0, 19)
    with pytest.raises(StaleMove):
        store.append_move(game.id, 0, 26)
    got = store.game(game.id)
    assert got is not None
    assert got.moves == (19,)

    db = raw(path)  # not even SQL from outside changes a move
    try:
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            db.execute("UPDATE moves SET square = 26")
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            db.execute("DELETE FROM moves")
    finally:
        db.close()
    assert store.game(game.id) == got


def test_stale_move_from_a_second_connection(store: SqliteStore, path: Path) -> None:
    game = store.create_game("ann", "bob")
    with SqliteStore(path) as second:
        store.append_move(game.id, 0, 19)
        with pytest.raises(StaleMove):
            second.append_move(game.id, 0, 37)
        second.append_move(game.id, 1, 18)
        with pytest.raises(StaleMove):
            store.append_move(game.id, 1, 20)
    got = store.game(game.id)
    assert got is not None
    assert got.moves == (19, 18)


def test_gap_refused(store: SqliteStore) -> None:
    game = store.create_game("ann", "bob")
    with pytest.raises(StoreError, match="skips") as refused:
        store.append_move(game.id, 1, 19)
    assert not isinstance(refused.value, StaleMove)
    store.append_move(game.id, 0, 19)
    with pytest.raises(StoreError, match="skips"):
        store.append_move(game.id, 5, 18)
    got = store.game(game.id)
    assert got is not None
    assert got.moves == (19,)


@pytest.mark.parametrize(("ply", "square"), [(-1, 19), (0, -1), (0, 64)])
def test_bad_ply_or_square_refused_not_stale(store: SqliteStore, ply: int, square: int) -> None:
    game = store.create_game("ann", "bob")
    with pytest.raises(StoreError) as refused:
        store.append_move(game.id, ply, square)
    assert not isinstance(refused.value, StaleMove)
    assert store.game(game.id) == game


def test_unknown_game_refused(store: SqliteStore) -> None:
    with pytest.raises(StoreError, match="no game 7"):
        store.append_move(7, 0, 19)
    with pytest.raises(StoreError):
        store.finish_game(7)


def test_finished_game_refuses_writes(store: SqliteStore) -> None:
    game = store.create_game("ann", "bob")
    store.append_move(game.id, 0, 19)
    store.finish_game(game.id, resigned="black")
    with pytest.raises(StoreError, match="finished") as refused:
        store.append_move(game.id, 1, 18)
    assert not isinstance(refused.value, StaleMove)
    with pytest.raises(StoreError):
        store.finish_game(game.id)
    got = store.game(game.id)
    assert got is not None
    assert (got.moves, got.resigned) == ((19,), "black")


def test_resigning_side_must_be_a_colour(store: SqliteStore) -> None:
    game = store.create_game("ann", "bob")
    with pytest.raises(StoreError):
        store.finish_game(game.id, resigned="ann")
    assert store.game(game.id) == game


def test_append_moves_is_all_or_none(store: SqliteStore) -> None:
    one = store.create_game("ann", "bob")
    two = store.create_game("cat", "dan")
    store.append_moves([(one.id, 0, 19, None), (two.id, 0, 37, None)])
    with pytest.raises(StaleMove):
        store.append_moves([(one.id, 1, 18, None), (two.id, 0, 44, None)])
    assert [g.moves for g in store.games()] == [(19,), (37,)]


def test_reopening_gives_everything_back(path: Path) -> None:
    with SqliteStore(path) as first:
        waiting = first.create_challenge("ann", "bob", "random")
        answered = first.create_challenge("cat", "dan", "black")
        game = first.create_game("cat", "dan", challenge_id=answered.id)
        for ply, square in enumerate((19, 18, 17, 9)):
            first.append_move(game.id, ply, square)
        over = first.create_game("bob", "ann")
        first.append_move(over.id, 0, 37)
        first.finish_game(over.id, resigned="white")
        before = (first.pending_challenges(), first.games())
    with SqliteStore(path) as again:
        assert (again.pending_challenges(), again.games()) == before
        assert again.pending_challenges() == [waiting]
        again.append_move(game.id, 4, 10)  # and play goes on
        assert again.problems == []
        assert again.integrity() == "ok"


# Files and directories -------------------------------------------------------------
def test_file_and_new_directories_are_private(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "online.sqlite3"
    old = os.umask(0)  # a careless umask cannot widen them
    try:
        with SqliteStore(path) as store:
            store.create_challenge("ann", "bob", "black")
            assert stat.S_IMODE(path.stat().st_mode) == 0o600
            assert stat.S_IMODE(Path(f"{path}-wal").stat().st_mode) == 0o600
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(path.parent.parent.stat().st_mode) == 0o700


def test_loose_file_of_ours_is_tightened(path: Path) -> None:
    SqliteStore(path).close()
    path.chmod(0o644)
    with SqliteStore(path):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_open_directory_of_ours_is_refused_untouched(path: Path) -> None:
    """It may be a home directory: tightening it would break what needs it open."""
    path.parent.mkdir(mode=0o755)
    path.parent.chmod(0o755)
    with pytest.raises(StoreError, match="open to other users"):
        SqliteStore(path)
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o755
    assert list(path.parent.iterdir()) == []


def test_shared_sticky_directory_is_refused(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    with pytest.raises(StoreError, match=str(shared)):
        SqliteStore(shared / "online.sqlite3")
    assert stat.S_IMODE(shared.stat().st_mode) == 0o1777
    assert list(shared.iterdir()) == []


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to give a directory away")
def test_open_directory_of_someone_else_is_refused(tmp_path: Path) -> None:
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    os.chown(theirs, 65534, 65534)
    theirs.chmod(0o755)
    with pytest.raises(StoreError, match=str(theirs)) as refused:
        SqliteStore(theirs / "online.sqlite3")
    assert "\n" not in str(refused.value)
    assert stat.S_IMODE(theirs.stat().st_mode) == 0o755
    assert list(theirs.iterdir()) == []


def test_directory_that_is_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "plain").write_text("x")
    with pytest.raises(StoreError, match="plain"):
        SqliteStore(tmp_path / "plain" / "online.sqlite3")


# Foreign, damaged and newer files --------------------------------------------------
def assert_set_aside(path: Path, original: bytes, store: SqliteStore) -> None:
    """The old file kept, byte for byte, beside a fresh, working store."""
    kept = aside_files(path)
    assert len(kept) == 1
    assert kept[0].read_bytes() == original
    assert len(store.problems) == 1
    assert kept[0].name in store.problems[0]
    game = store.create_game("ann", "bob")
    store.append_move(game.id, 0, 19)
    assert store.games()[0].moves == (19,)


def test_foreign_sqlite_file_is_set_aside(path: Path) -> None:
    path.parent.mkdir(mode=0o700)
    db = raw(path)
    db.execute("CREATE TABLE notes (text TEXT)")
    db.execute("INSERT INTO notes VALUES ('mine')")
    db.close()
    original = path.read_bytes()
    with SqliteStore(path) as store:
        assert "not a reversi game store" in store.problems[0]
        assert_set_aside(path, original, store)


@pytest.mark.parametrize(
    "content",
    [b"", b"this is not a database\n" * 40, b"SQLite format 3\x00short"],
    ids=["empty", "text", "truncated"],
)
def test_garbage_file_is_set_aside(path: Path, content: bytes) -> None:
    path.parent.mkdir(mode=0o700)
    path.write_bytes(content)
    with SqliteStore(path) as store:
        assert_set_aside(path, content, store)


def test_damaged_store_is_set_aside(path: Path) -> None:
    with SqliteStore(path) as store:
        game = store.create_game("ann", "bob")
        for ply in range(200):
            store.append_move(game.id, ply, ply % 64)
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) >= 3 * page
    for offset in range(page, len(data), page):  # every page but the header's
        data[offset : offset + 64] = b"\xa5" * 64
    path.write_bytes(bytes(data))
    with SqliteStore(path) as store:
        assert_set_aside(path, bytes(data), store)


def test_newer_schema_is_refused_untouched(path: Path) -> None:
    with SqliteStore(path) as store:
        store.create_challenge("ann", "bob", "black")
    db = raw(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    before = path.read_bytes()
    path.chmod(0o640)  # even the mode is left as it is
    with pytest.raises(StoreError, match="newer version") as refused:
        SqliteStore(path)
    assert "\n" not in str(refused.value)
    assert path.read_bytes() == before
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert aside_files(path) == []


def test_records_database_is_refused_untouched(path: Path) -> None:
    path.parent.mkdir(mode=0o700)
    RecordsDatabase(path).close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="records database"):
        SqliteStore(path)
    assert path.read_bytes() == before
    assert aside_files(path) == []


# kill -9 ---------------------------------------------------------------------------
WRITER = """
import sys
from pathlib import Path
from reversi_tui.net.store import SqliteStore

store = SqliteStore(Path(sys.argv[1]))
game = int(sys.argv[2])
ply = 0
while True:
    store.append_move(game, ply, ply % 64)
    print(ply, flush=True)
    ply += 1
"""


def test_kill_9_mid_write_keeps_every_acknowledged_move(path: Path) -> None:
    with SqliteStore(path) as store:
        game = store.create_game("ann", "bob").id
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path), str(game)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert writer.stdout is not None
    acknowledged = -1
    deadline = time.monotonic() + KILL_DEADLINE
    pending = b""
    try:
        while acknowledged < KILL_AFTER:
            left = deadline - time.monotonic()
            assert left > 0, f"the writer acknowledged only {acknowledged + 1} moves"
            ready, _, _ = select.select([writer.stdout], [], [], left)
            if not ready:
                continue
            chunk = os.read(writer.stdout.fileno(), 65536)
            assert chunk, f"the writer stopped: {writer.stderr.read() if writer.stderr else ''!r}"
            pending += chunk
            *lines, pending = pending.split(b"\n")
            if lines:
                acknowledged = int(lines[-1])
    finally:
        writer.send_signal(signal.SIGKILL)
        writer.wait(timeout=patience(10))
    assert writer.returncode == -signal.SIGKILL

    with SqliteStore(path) as store:
        assert store.problems == []
        assert store.integrity() == "ok"
        got = store.game(game)
        assert got is not None
        count = len(got.moves)
        # Every acknowledged move is there; at most one more was committed unannounced.
        assert acknowledged + 1 <= count <= acknowledged + 2
        assert got.moves == tuple(ply % 64 for ply in range(count))
        store.append_move(game, count, 0)  # the next ply is the one after the prefix
    db = raw(path)
    try:
        plies = [row[0] for row in db.execute("SELECT ply FROM moves ORDER BY ply")]
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        db.close()
    assert plies == list(range(count + 1))


# Schema 3: clocks, reasons, ratings -------------------------------------------------
def test_a_version_2_store_is_migrated_and_keeps_its_games(path: Path) -> None:
    path.parent.mkdir(mode=0o700)
    db = raw(path)
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    for migration in MIGRATIONS[:2]:
        migration(db)
    now = "2026-11-26T08:00:00+00:00"
    for number, resigned, finished in ((1, "white", 1), (2, None, 1), (3, None, 0)):
        db.execute(
            "INSERT INTO games (id, black, white, resigned, finished, created, updated)"
            " VALUES (?, 'ann', 'bob', ?, ?, ?, ?)",
            (number, resigned, finished, now, now),
        )
    db.execute("INSERT INTO moves (game, ply, square, played) VALUES (3, 0, 19, ?)", (now,))
    db.execute("PRAGMA user_version = 2")
    db.close()
    os.chmod(path, 0o600)
    with SqliteStore(path) as store:
        games = {g.id: g for g in store.games()}
        assert (games[1].end_reason, games[1].winner, games[1].resigned) == (
            "resign",
            "black",
            "white",
        )
        assert (games[2].end_reason, games[2].winner) == ("end", None)
        assert games[3].moves == (19,) and games[3].left_ms == (None,)
        assert games[3].clock is None and not games[3].rated and games[3].end_reason is None
        assert store.rated_games() == []
        store.append_move(3, 1, 18, 1234)  # and play goes on
        assert store.integrity() == "ok"


def test_clocks_reasons_and_ratings_round_trip(path: Path) -> None:
    with SqliteStore(path) as store:
        challenge = store.create_challenge("ann", "bob", "white", clock=(3, 2), rated=True)
        assert (challenge.clock, challenge.rated, challenge.rematch) == ((3, 2), True, None)
        again = store.create_challenge("bob", "ann", "black", rematch=7)
        assert store.pending_challenges() == [challenge, again]
        game = store.create_game("bob", "ann", challenge_id=challenge.id, clock=(3, 2), rated=True)
        store.append_move(game.id, 0, 19, 181_500)
        store.append_moves([(game.id, 1, 18, 179_000)])
        later = store.create_game("ann", "bob", rated=True)
        store.finish_game(later.id, reason="abandoned", ratings={"ann": (1500.0, 350.0, 0.09)})
        store.finish_game(game.id, reason="time", winner="white")
        with pytest.raises(StoreError):
            store.finish_game(store.create_game("a", "b").id, reason="bored")
    with SqliteStore(path) as store:
        stored = store.game(game.id)
        assert stored is not None
        assert (stored.clock, stored.rated, stored.left_ms) == ((3, 2), True, (181_500, 179_000))
        assert (stored.end_reason, stored.winner) == ("time", "white")
        assert [g.id for g in store.rated_games()] == [later.id, game.id]  # the order they ended
        assert store.rated_games()[0].winner is None
        assert store.ratings_after(later.id) == {"ann": (1500.0, 350.0, 0.09)}


# Schema 4: aborted games ---------------------------------------------------------------
def test_a_version_3_store_is_migrated_and_aborted_games_are_never_rated(path: Path) -> None:
    path.parent.mkdir(mode=0o700)
    db = raw(path)
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    for migration in MIGRATIONS[:3]:
        migration(db)
    now = "2026-11-26T08:00:00+00:00"
    db.execute(
        "INSERT INTO games (id, black, white, finished, created, updated, rated, end_reason,"
        " winner, ended) VALUES (1, 'ann', 'bob', 1, ?, ?, 1, 'resign', 'black', 1)",
        (now, now),
    )
    db.execute("PRAGMA user_version = 3")
    db.close()
    os.chmod(path, 0o600)
    with SqliteStore(path) as store:
        (kept,) = store.rated_games()
        assert (kept.id, kept.winner) == (1, "black")
        game = store.create_game("ann", "bob", rated=True)
        with pytest.raises(StoreError):  # no winner, no rating for an aborted game
            store.finish_game(game.id, reason="aborted", winner="black")
        store.finish_game(game.id, reason="aborted")
        stored = store.game(game.id)
        assert stored is not None and stored.finished and stored.rated
        assert (stored.end_reason, stored.winner) == ("aborted", None)
        assert [g.id for g in store.rated_games()] == [1]
        since = datetime.fromisoformat(now)
        assert store.rated_games_between("bob", "ann", since) == 1  # the aborted one not
        assert store.integrity() == "ok"
