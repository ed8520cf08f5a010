"""The records database: rows read back as the games written, the schema and its
migrations, damaged and foreign files set aside, a newer file refused untouched,
and two processes recording at once."""

from __future__ import annotations

import multiprocessing
import multiprocessing.synchronize
import os
import pwd
import random
import sqlite3
import stat
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from reversi_tui.engine import PASS, Color, Game, Position, square_name
from reversi_tui.match import GameRecord, MatchSettings, PlayerSpec, Result, Termination
from reversi_tui.records import database
from reversi_tui.records.database import (
    APPLICATION_ID,
    DatabaseError,
    RecordsDatabase,
    StoredGame,
    schema_version,
)
from reversi_tui.records.names import local_user, player_name
from reversi_tui.records.online_facts import OnlineFacts
from reversi_tui.records.statistics import statistics

from ..timing import patience

STARTED = datetime(2026, 3, 14, 15, 9, 26, 535897, tzinfo=UTC)
HUMAN = PlayerSpec.human()
HARD = PlayerSpec.computer("hard", think_time=0.5, depth=6)


def played(seed: int, start: Position | None = None, *, until: int | None = None) -> Game:
    """A game of seeded random moves, to the end or until ``until`` plies."""
    rng = random.Random(seed)
    game = Game(start) if start is not None else Game()
    while not game.is_over and (until is None or len(game.moves) < until):
        game.play(rng.choice(game.legal_moves))
    return game


def finished_record(
    seed: int = 1,
    *,
    black: PlayerSpec = HUMAN,
    white: PlayerSpec = HARD,
    start: Position | None = None,
    started: datetime = STARTED,
    minutes: float = 7.5,
) -> GameRecord:
    """A finished game, played out by seeded random moves, with fixed times."""
    game = played(seed, start)
    record = GameRecord.of(game, {Color.BLACK: black, Color.WHITE: white}, started=started)
    return replace(record, ended=started + timedelta(minutes=minutes))


def resigned_record(seed: int = 2) -> GameRecord:
    """Black resigns after 20 plies."""
    game = played(seed, until=20)
    outcome = game.position.outcome()
    result = Result.forfeit(Color.BLACK, Termination.RESIGNATION, outcome)
    record = GameRecord.of(game, {Color.BLACK: HUMAN, Color.WHITE: HARD}, result=result)
    return replace(record, started=STARTED, ended=STARTED + timedelta(seconds=95.25))


def seed_with_pass(start: Position | None = None) -> int:
    """The first seed whose random game from ``start`` has a forced pass."""
    return next(seed for seed in range(1, 500) if PASS in played(seed, start).moves)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "records.sqlite3"


@pytest.fixture
def db(path: Path) -> Iterator[RecordsDatabase]:
    with RecordsDatabase(path) as opened:
        yield opened


def raw(path: Path) -> sqlite3.Connection:
    """A plain connection, as another program (or a test) would open the file."""
    return sqlite3.connect(path, isolation_level=None)


def fill(path: Path, games: int = 3) -> list[GameRecord]:
    """A database at ``path`` with ``games`` games, closed (its WAL checkpointed)."""
    records = [
        finished_record(seed, started=STARTED + timedelta(hours=seed)) for seed in range(games)
    ]
    with RecordsDatabase(path) as opened:
        for record in records:
            opened.add(record, "ann", "Computer (hard)")
    return records


# Writing and reading back ----------------------------------------------------------
def test_a_finished_game_reads_back_equal(db: RecordsDatabase) -> None:
    record = finished_record(seed=7)
    game_id = db.add(record, "ann", "Computer (hard)")
    assert db.get(game_id) == StoredGame(game_id, record, "ann", "Computer (hard)")
    assert db.recent() == [StoredGame(game_id, record, "ann", "Computer (hard)")]


@pytest.mark.parametrize(
    "record",
    [
        pytest.param(finished_record(seed_with_pass()), id="with-a-pass"),
        pytest.param(resigned_record(), id="resigned"),
        pytest.param(
            finished_record(
                3,
                black=PlayerSpec.computer("easy"),
                white=HUMAN,
                start=MatchSettings(handicap=2, handicap_colour=Color.WHITE).start_position(),
            ),
            id="handicap",
        ),
        pytest.param(
            finished_record(4, black=HARD, white=PlayerSpec.computer("expert", think_time=2.0)),
            id="computers",
        ),
        pytest.param(finished_record(5, started=datetime(2026, 1, 2, 3, 4, 5)), id="naive-times"),
    ],
)
def test_every_kind_of_game_round_trips(db: RecordsDatabase, record: GameRecord) -> None:
    game_id = db.add(record, "black name", "white name")
    stored = db.get(game_id)
    assert stored.record == record
    assert (stored.black_name, stored.white_name) == ("black name", "white name")
    assert stored.record.game().position == record.game().position


def test_the_columns_say_what_the_game_was(db: RecordsDatabase, path: Path) -> None:
    start = MatchSettings(handicap=2, handicap_colour=Color.WHITE).start_position()
    record = finished_record(seed_with_pass(start), white=HARD, start=start)
    db.add(record, "ann", "Computer (hard)")
    connection = raw(path)
    connection.row_factory = sqlite3.Row
    row = connection.execute("SELECT * FROM games").fetchone()
    connection.close()
    result = record.result
    assert result is not None
    assert (row["black_player"], row["white_player"]) == ("human", "hard/0.5s/6ply")
    assert not {"black_kind", "white_level", "white_think_time"} & set(row.keys())
    assert (row["handicap"], row["handicap_colour"]) == (2, "white")
    assert row["moves"].split() == [square_name(m) for m in record.moves]
    assert "pass" in row["moves"].split()
    assert row["move_count"] == len(record.move_list()) // 2
    assert (row["black_discs"], row["white_discs"]) == (result.discs.black, result.discs.white)
    assert (row["black_score"], row["white_score"]) == result.final_score
    assert row["black_score"] + row["white_score"] == 64
    assert row["winner"] == (None if result.winner is None else result.winner.name.lower())
    assert row["termination"] == "normal"
    assert row["duration_seconds"] == 450.0
    assert row["started"] == "2026-03-14T15:09:26.535897+00:00"


def test_the_usual_start_is_handicap_zero_and_a_loaded_start_none(db: RecordsDatabase) -> None:
    loaded = played(9, until=6).position
    ids = [db.add(finished_record(1), "a", "b"), db.add(finished_record(2, start=loaded), "a", "b")]
    connection = raw(db.path)
    rows = connection.execute("SELECT handicap, handicap_colour FROM games ORDER BY id").fetchall()
    connection.close()
    assert rows == [(0, None), (None, None)]
    assert db.get(ids[1]).record.start == loaded


def test_an_unfinished_game_is_refused(db: RecordsDatabase) -> None:
    game = played(1, until=10)
    record = GameRecord.of(game, {Color.BLACK: HUMAN, Color.WHITE: HARD})
    with pytest.raises(DatabaseError, match="only a finished game"):
        db.add(record, "ann", "Computer (hard)")
    assert db.count() == 0


def test_a_record_whose_result_does_not_match_its_board_is_refused(db: RecordsDatabase) -> None:
    record = finished_record(1)
    assert record.result is not None
    wrong = Result.forfeit(Color.WHITE, Termination.RESIGNATION, record.result.discs)
    with pytest.raises(DatabaseError, match="not recorded"):
        db.add(replace(record, result=wrong), "ann", "Computer (hard)")
    assert db.count() == 0


def test_recent_is_newest_first_and_all_oldest_first(db: RecordsDatabase) -> None:
    hours = [3, 1, 2]
    for seed, hour in enumerate(hours):
        db.add(finished_record(seed, started=STARTED + timedelta(hours=hour)), f"p{seed}", "c")
    assert [g.black_name for g in db.recent()] == ["p0", "p2", "p1"]
    assert [g.black_name for g in db.recent(2)] == ["p0", "p2"]
    assert [g.black_name for g in db.all()] == ["p1", "p2", "p0"]
    assert db.count() == 3


def test_games_of_a_player_either_colour(db: RecordsDatabase) -> None:
    db.add(finished_record(1), "ann", "bob")
    db.add(finished_record(2), "bob", "Computer (hard)")
    db.add(finished_record(3), "cat", "Computer (hard)")
    assert [(g.black_name, g.white_name) for g in db.games_of("bob")] == [
        ("ann", "bob"),
        ("bob", "Computer (hard)"),
    ]


def test_a_row_that_does_not_read_is_skipped_with_a_problem(db: RecordsDatabase) -> None:
    good = db.add(finished_record(1), "ann", "bob")
    bad = db.add(finished_record(2), "ann", "bob")
    connection = raw(db.path)
    connection.execute("UPDATE games SET moves = 'z9 d3' WHERE id = ?", (bad,))
    connection.close()
    assert [g.id for g in db.recent()] == [good]
    assert [g.id for g in db.all()] == [good]
    assert db.problems == [db.problems[0]] and f"Game {bad}" in db.problems[0]
    with pytest.raises(DatabaseError, match=f"game {bad} in the records is damaged"):
        db.get(bad)
    with pytest.raises(DatabaseError, match="no game 99"):
        db.get(99)


# The file and its schema -------------------------------------------------------------
def test_a_new_database_is_ours_at_the_current_version_in_wal_mode(
    db: RecordsDatabase, path: Path
) -> None:
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    connection = raw(path)
    assert connection.execute("PRAGMA user_version").fetchone()[0] == schema_version() == 4
    assert connection.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    indexes = {
        row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'index'")
    }
    plan = connection.execute(
        "EXPLAIN QUERY PLAN SELECT id FROM games WHERE black_name = 'x' ORDER BY ended"
    ).fetchall()
    connection.close()
    assert {"games_recent", "games_black", "games_white"} <= indexes
    assert "games_black" in str(plan)
    assert db._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert db._db.execute("PRAGMA busy_timeout").fetchone()[0] == 5000
    assert db._db.isolation_level is None
    assert db.problems == []


def test_reopening_keeps_the_games_and_reports_nothing(path: Path) -> None:
    records = fill(path)
    with RecordsDatabase(path) as again:
        assert [g.record for g in again.all()] == records
        assert again.problems == []


def test_the_directory_must_exist(tmp_path: Path) -> None:
    with pytest.raises(DatabaseError, match="cannot be created"):
        RecordsDatabase(tmp_path / "missing" / "records.sqlite3")


#: The schema this release writes (tests below add versions to it).
CURRENT = schema_version()


def _next_add_comment(connection: sqlite3.Connection) -> None:
    connection.execute("ALTER TABLE games ADD COLUMN comment TEXT")
    connection.execute("UPDATE games SET comment = 'from v1'")


def test_a_database_opens_under_the_next_version(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    records = fill(path)
    monkeypatch.setattr(database, "MIGRATIONS", [*database.MIGRATIONS, _next_add_comment])
    with RecordsDatabase(path) as upgraded:
        assert upgraded.problems == []
        assert [g.record for g in upgraded.all()] == records
        upgraded.add(finished_record(9), "ann", "bob")
    connection = raw(path)
    assert connection.execute("PRAGMA user_version").fetchone()[0] == CURRENT + 1
    comments = [row[0] for row in connection.execute("SELECT comment FROM games ORDER BY id")]
    connection.close()
    assert comments == ["from v1"] * 3 + [None]


def test_a_new_database_runs_every_migration(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(database, "MIGRATIONS", [*database.MIGRATIONS, _next_add_comment])
    RecordsDatabase(path).close()
    connection = raw(path)
    assert connection.execute("PRAGMA user_version").fetchone()[0] == CURRENT + 1
    assert "comment" in [row[1] for row in connection.execute("PRAGMA table_info(games)")]
    connection.close()


def test_a_failed_migration_changes_nothing(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fill(path)

    def broken(connection: sqlite3.Connection) -> None:
        connection.execute("CREATE TABLE half_done (x)")
        raise RuntimeError("migration bug")

    monkeypatch.setattr(database, "MIGRATIONS", [*database.MIGRATIONS, broken])
    with pytest.raises(RuntimeError, match="migration bug"):
        RecordsDatabase(path)
    connection = raw(path)
    assert connection.execute("PRAGMA user_version").fetchone()[0] == CURRENT
    tables = [row[0] for row in connection.execute("SELECT name FROM sqlite_master")]
    connection.close()
    assert "half_done" not in tables
    monkeypatch.undo()
    with RecordsDatabase(path) as again:
        assert again.count() == 3


def test_a_newer_database_is_refused_and_left_untouched(path: Path) -> None:
    fill(path)
    connection = raw(path)
    connection.execute(f"PRAGMA user_version = {CURRENT + 1}")
    connection.close()
    before = path.read_bytes()
    names = sorted(os.listdir(path.parent))
    with pytest.raises(DatabaseError, match="newer version of reversi") as refused:
        RecordsDatabase(path)
    newer = f"schema {CURRENT + 1}"
    assert newer in str(refused.value) and "left as it is" in str(refused.value)
    assert path.read_bytes() == before
    assert sorted(os.listdir(path.parent)) == names


def _foreign(path: Path, *, user_version: int = 0) -> None:
    connection = raw(path)
    connection.execute("CREATE TABLE notes (body TEXT)")
    connection.execute("INSERT INTO notes VALUES ('not a game')")
    connection.execute(f"PRAGMA user_version = {user_version}")
    connection.close()


def _truncated(path: Path) -> None:
    fill(path, games=40)
    data = path.read_bytes()
    assert len(data) > 8192
    path.write_bytes(data[: len(data) // 2])


def _scribbled(path: Path) -> None:
    fill(path, games=40)
    data = bytearray(path.read_bytes())
    data[8192:12288] = random.Random(1).randbytes(4096)
    path.write_bytes(bytes(data))


DAMAGES: dict[str, Callable[[Path], None]] = {
    "empty": lambda path: path.write_bytes(b""),
    "text": lambda path: path.write_text("these are my notes\n" * 20),
    "binary": lambda path: path.write_bytes(random.Random(2).randbytes(5000)),
    "header-only": lambda path: path.write_bytes(b"SQLite format 3\x00" + b"\x00" * 30),
    "truncated": _truncated,
    "scribbled": _scribbled,
    "foreign": _foreign,
    "foreign-with-a-version": lambda path: _foreign(path, user_version=7),
}


@pytest.mark.parametrize("damage", DAMAGES)
def test_a_damaged_or_foreign_file_is_set_aside_and_a_new_one_started(
    path: Path, damage: str
) -> None:
    DAMAGES[damage](path)
    before = path.read_bytes()
    with RecordsDatabase(path) as fresh:
        assert fresh.count() == 0
        fresh.add(finished_record(1), "ann", "bob")
        assert len(fresh.recent()) == 1
        problems = fresh.problems
    aside = [p for p in path.parent.iterdir() if ".damaged-" in p.name and "-wal" not in p.name]
    assert len(aside) == 1 and aside[0].name.startswith("records.sqlite3.damaged-")
    assert aside[0].read_bytes() == before
    assert len(problems) == 1
    assert aside[0].name in problems[0] and "new records started" in problems[0]
    with RecordsDatabase(path) as again:
        assert again.count() == 1 and again.problems == []


def test_a_damaged_files_wal_goes_aside_with_it(path: Path) -> None:
    path.write_text("not a database")
    Path(f"{path}-wal").write_bytes(b"stale journal")
    with RecordsDatabase(path) as fresh:
        fresh.add(finished_record(1), "ann", "bob")
    (aside,) = path.parent.glob("records.sqlite3.damaged-*[0-9]")
    assert Path(f"{aside}-wal").read_bytes() == b"stale journal"
    with RecordsDatabase(path) as again:
        assert again.count() == 1 and again.problems == []


def test_an_empty_sqlite_file_is_simply_used(path: Path) -> None:
    connection = raw(path)
    connection.execute("CREATE TABLE scratch (x)")
    connection.execute("DROP TABLE scratch")
    connection.close()
    assert path.stat().st_size > 0
    with RecordsDatabase(path) as opened:
        assert opened.problems == [] and opened.count() == 0
    assert not list(path.parent.glob("*.damaged-*"))


# Two processes at once ---------------------------------------------------------------
def _record_games(path: str, name: str, ready: multiprocessing.synchronize.Barrier) -> None:
    """In a child process: open the database, wait for the other, record 50 games."""
    records = [finished_record(seed) for seed in range(50)]
    with RecordsDatabase(Path(path)) as opened:
        ready.wait(timeout=patience(60))
        for record in records:
            opened.add(record, name, player_name(HARD, local_user()))


def test_two_processes_record_at_once(path: Path) -> None:
    context = multiprocessing.get_context("spawn")
    ready = context.Barrier(2)
    workers = [
        context.Process(target=_record_games, args=(str(path), name, ready))
        for name in ("first", "second")
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=patience(120))
    assert [worker.exitcode for worker in workers] == [0, 0]
    with RecordsDatabase(path) as opened:
        games = list(opened.all())
        assert opened.problems == []
    assert len(games) == 100
    assert sorted(g.black_name for g in games) == ["first"] * 50 + ["second"] * 50
    connection = raw(path)
    assert connection.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    connection.close()


# The names games are recorded under --------------------------------------------------
def test_the_local_user_comes_from_the_password_database(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("USER", "mallory")
    monkeypatch.setenv("LOGNAME", "mallory")
    assert local_user() == pwd.getpwuid(os.getuid()).pw_name != "mallory"


def test_a_user_id_without_a_name_is_uid_n(monkeypatch: pytest.MonkeyPatch) -> None:
    def unknown(uid: int) -> pwd.struct_passwd:
        raise KeyError(f"getpwuid(): uid not found: {uid}")

    monkeypatch.setattr(pwd, "getpwuid", unknown)
    monkeypatch.setenv("USER", "mallory")
    assert local_user() == f"uid{os.getuid()}"


def test_players_are_recorded_by_login_name_or_level() -> None:
    assert player_name(HUMAN, "ann") == "ann"
    assert player_name(HARD, "ann") == "Computer (hard)"


# Files of earlier versions --------------------------------------------------------------
#: How versions 1 and 2 recorded a game: each player in four columns.
OLD_PLAYER_COLUMNS = ("kind", "level", "think_time", "depth")


def old_row(record: GameRecord, black_name: str, white_name: str) -> dict[str, object]:
    """The row versions 1 and 2 wrote: the columns of today but the players' (which
    were the spec's fields, as the first releases' ``_row_of`` wrote them)."""
    row = database._row_of(record, black_name, white_name)
    for side, spec in (("black", record.black), ("white", record.white)):
        del row[f"{side}_player"]
        row[f"{side}_kind"] = spec.kind.value
        row[f"{side}_level"] = spec.level
        row[f"{side}_think_time"] = spec.think_time
        row[f"{side}_depth"] = spec.depth
    return row


def old_database(
    path: Path,
    version: int,
    monkeypatch: pytest.MonkeyPatch,
    games: list[tuple[GameRecord, str, str, str | None]],
) -> None:
    """A records file of schema ``version`` (its own migrations) holding ``games``
    (record, names, source), written as that version wrote them (versions 3 and later
    with ``_row_of``, which writes the columns every version since 3 has)."""
    with monkeypatch.context() as patch:
        patch.setattr(database, "MIGRATIONS", database.MIGRATIONS[:version])
        RecordsDatabase(path).close()
    connection = raw(path)
    for record, black_name, white_name, source in games:
        if version >= 3:
            row = database._row_of(record, black_name, white_name)
        else:
            row = old_row(record, black_name, white_name)
        if version >= 2:
            row["source"] = source
        columns = ", ".join(row)
        values = ", ".join(f":{name}" for name in row)
        connection.execute(f"INSERT INTO games ({columns}) VALUES ({values})", row)
    assert connection.execute("PRAGMA user_version").fetchone()[0] == version
    connection.close()


#: Every kind of player the earlier versions recorded, and some of each kind of game.
OLD_GAMES = [
    (finished_record(1), "ann", "Computer (hard)", "abc:1"),
    (
        finished_record(2, black=PlayerSpec.computer("easy"), white=HUMAN),
        "Computer (easy)",
        "ann",
        None,
    ),
    (finished_record(3, white=HUMAN), "ann", "bob", "abc:3"),
    (resigned_record(), "ann", "Computer (hard)", None),
    (
        finished_record(4, black=HARD, white=PlayerSpec.computer("expert", think_time=2.0)),
        "Computer (hard)",
        "Computer (expert)",
        None,
    ),
    (
        finished_record(5, white=PlayerSpec.computer("medium", depth=3)),
        "ann",
        "Computer (medium)",
        None,
    ),
]


@pytest.mark.parametrize("version", [1, 2, 3])
def test_an_older_database_keeps_every_game_and_its_players(
    path: Path, monkeypatch: pytest.MonkeyPatch, version: int
) -> None:
    old_database(path, version, monkeypatch, OLD_GAMES)
    with RecordsDatabase(path) as upgraded:
        assert upgraded.problems == []
        stored = sorted(upgraded.all(), key=lambda game: game.id)
        assert [(g.id, g.record, g.black_name, g.white_name, g.online) for g in stored] == [
            (i, record, black, white, None)
            for i, (record, black, white, _) in enumerate(OLD_GAMES, 1)
        ]
        assert statistics(stored, "ann") == statistics(
            [StoredGame(i, r, b, w) for i, (r, b, w, _) in enumerate(OLD_GAMES, 1)], "ann"
        )
        # The sources a version 2 file holds still keep a game once.
        added = upgraded.add(finished_record(9), "ann", "bob", source="abc:1")
        assert added == (1 if version >= 2 else len(OLD_GAMES) + 1)
        assert upgraded.count() == len(OLD_GAMES) + (version == 1)
    connection = raw(path)
    columns = [row[1] for row in connection.execute("PRAGMA table_info(games)")]
    players = connection.execute("SELECT black_player, white_player FROM games WHERE id = 5")
    indexes = {
        row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'index'")
    }
    assert connection.execute("PRAGMA user_version").fetchone()[0] == schema_version()
    assert players.fetchone() == ("hard/0.5s/6ply", "expert/2s")
    connection.close()
    assert {"black_player", "white_player", "source", "rated", "white_rating"} <= set(columns)
    assert not any(column.endswith(OLD_PLAYER_COLUMNS) for column in columns)
    assert {"games_recent", "games_black", "games_white", "games_source"} <= indexes


def test_a_row_no_player_could_have_written_is_kept_and_skipped_as_before(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old_database(path, 2, monkeypatch, OLD_GAMES[:2])
    connection = raw(path)
    connection.execute(
        "UPDATE games SET white_level = 'godlike', white_think_time = -1 WHERE id = 1"
    )
    connection.close()
    with RecordsDatabase(path) as upgraded:
        assert upgraded.count() == 2
        assert [g.id for g in upgraded.all()] == [2]
        [problem] = upgraded.problems
        assert problem.startswith("Game 1 in the records is damaged and was skipped")
    connection = raw(path)
    [kept] = connection.execute("SELECT white_player FROM games WHERE id = 1").fetchone()
    connection.close()
    assert "godlike" in kept and "-1" in kept  # what it said is still there


def test_no_check_names_the_kinds_so_an_engine_is_recorded(db: RecordsDatabase, path: Path) -> None:
    edax = PlayerSpec.from_text("gtp:edax -gtp -l 20")
    record = finished_record(6, white=edax)
    game_id = db.add(record, "ann", player_name(edax, "ann"))
    assert db.get(game_id) == StoredGame(game_id, record, "ann", "GTP engine (edax)")
    connection = raw(path)
    [schema] = connection.execute("SELECT sql FROM sqlite_master WHERE name = 'games'").fetchone()
    connection.close()
    assert "human" not in schema and "computer" not in schema


# Online games' terms and ratings (version 4) --------------------------------------------
RATED = OnlineFacts(
    rated=True,
    control=(5, 3),
    ratings={Color.BLACK: (1523, 23), Color.WHITE: (1477, -23)},
    provisional=frozenset({Color.WHITE}),
)


@pytest.mark.parametrize(
    "online",
    [
        pytest.param(RATED, id="rated-timed-provisional"),
        pytest.param(
            OnlineFacts(True, None, {Color.BLACK: (1500, 0), Color.WHITE: (1711, -112)}),
            id="rated-untimed",
        ),
        pytest.param(OnlineFacts(True, (3, 2)), id="rated-without-ratings"),
        pytest.param(OnlineFacts(False, (10, 0)), id="casual-timed"),
        pytest.param(OnlineFacts(False), id="casual-untimed"),
        pytest.param(None, id="local"),
    ],
)
def test_an_online_games_facts_read_back(db: RecordsDatabase, online: OnlineFacts | None) -> None:
    record = finished_record(8, white=HUMAN)
    game_id = db.add(record, "ann", "bob", source="srv:8", online=online)
    expected = StoredGame(game_id, record, "ann", "bob", online)
    assert db.get(game_id) == expected
    assert db.recent() == [expected] and list(db.all()) == [expected]
    assert db.games_of("bob") == [expected]


def test_the_online_columns_say_what_the_game_was(db: RecordsDatabase, path: Path) -> None:
    db.add(finished_record(1), "ann", "bob", online=RATED)
    db.add(finished_record(2), "ann", "bob", online=OnlineFacts(False))
    db.add(finished_record(3), "ann", "Computer (hard)")
    connection = raw(path)
    rows = connection.execute(f"SELECT {database.ONLINE_COLUMNS} FROM games ORDER BY id").fetchall()
    connection.close()
    assert rows == [
        (1, 5, 3, 1523, 23, 0, 1477, -23, 1),
        (0, None, None, None, None, None, None, None, None),
        (None,) * 9,
    ]


def test_a_game_seen_again_gains_the_facts_it_lacked_and_keeps_those_it_had(
    db: RecordsDatabase,
) -> None:
    record = finished_record(4, white=HUMAN)
    first = db.add(record, "ann", "bob", source="srv:4")
    assert db.get(first).online is None
    assert db.add(record, "ann", "bob", source="srv:4", online=RATED) == first
    assert db.get(first).online == RATED
    other = OnlineFacts(True, (5, 3), {Color.BLACK: (1, 1), Color.WHITE: (2, 2)})
    assert db.add(record, "ann", "bob", source="srv:4", online=other) == first
    assert db.add(record, "ann", "bob", source="srv:4") == first
    assert db.get(first).online == RATED
    assert db.count() == 1


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"rated": True, "control": (0, 0)}, "not a time control"),
        ({"rated": True, "control": (5, -1)}, "not a time control"),
        ({"rated": False, "ratings": RATED.ratings}, "casual game changes no rating"),
        ({"rated": True, "ratings": {Color.BLACK: (1500, 0)}}, "both players"),
        ({"rated": True, "provisional": frozenset({Color.BLACK})}, "only a rating given"),
    ],
)
def test_facts_that_cannot_be_are_refused(fields: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        OnlineFacts(**fields)  # type: ignore[arg-type]


def test_facts_compare_and_hash_by_value() -> None:
    same = OnlineFacts(
        True,
        (5, 3),
        {Color.WHITE: (1477, -23), Color.BLACK: (1523, 23)},
        frozenset({Color.WHITE}),
    )
    assert same == RATED and hash(same) == hash(RATED)
    assert (
        RATED.rating(Color.WHITE) == (1477, -23) and OnlineFacts(False).rating(Color.BLACK) is None
    )
    stored = StoredGame(1, finished_record(1), "ann", "bob", RATED)
    assert {stored} == {replace(stored, online=same)}


@pytest.mark.parametrize(
    ("change", "kept"),
    [
        pytest.param("control_increment = NULL", False, id="half-a-time-control"),
        pytest.param("control_minutes = 'five'", False, id="minutes-not-a-number"),
        pytest.param("black_rating = 1523.5", False, id="rating-not-whole"),
        pytest.param("white_rating = NULL", True, id="half-the-ratings"),
    ],
)
def test_online_columns_no_add_wrote_are_handled(
    db: RecordsDatabase, change: str, kept: bool
) -> None:
    """A row ``add`` could not have written is skipped as damaged, as before; a rating
    pair missing one side only loses the ratings, not the game."""
    game_id = db.add(finished_record(1), "ann", "bob", online=RATED)
    connection = raw(db.path)
    connection.execute(f"UPDATE games SET {change}")
    connection.close()
    games = db.recent()
    if kept:
        assert [g.online for g in games] == [replace(RATED, ratings=None, provisional=frozenset())]
        assert db.problems == []
    else:
        assert games == []
        [problem] = db.problems
        assert problem.startswith(f"Game {game_id} in the records is damaged and was skipped")
