"""``reversi history``: the records as a table, JSON or a PGN file, newest first; no
database is no games (and nothing is created); bad options and bad files are one line."""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import stat
import sys
import tempfile
from contextlib import redirect_stdout
from dataclasses import replace
from datetime import timedelta
from io import StringIO
from pathlib import Path
from types import SimpleNamespace
from typing import NoReturn

import pytest

from reversi_tui.cli import main
from reversi_tui.commands.history import NO_GAMES
from reversi_tui.engine import Color
from reversi_tui.match import GameRecord, PlayerSpec
from reversi_tui.records.database import RecordsDatabase
from reversi_tui.records.game_text import ImportedGame
from reversi_tui.records.online_facts import OnlineFacts
from reversi_tui.records.paths import DATA_DIR_ENV
from tests.records.test_database import STARTED, finished_record, resigned_record

Captured = pytest.CaptureFixture[str]


@pytest.fixture(autouse=True)
def no_data_dir_from_outside(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(DATA_DIR_ENV, raising=False)
    monkeypatch.setenv("COLUMNS", "100")


def history(data: Path, *options: str) -> int:
    return main(["--data-dir", str(data), "history", *options])


def recorded(data: Path) -> list[GameRecord]:
    """Three games in ``data``'s database, played an hour apart: p0 first, then p1, p2."""
    records = [
        finished_record(1, started=STARTED),
        finished_record(2, started=STARTED + timedelta(hours=1), white=PlayerSpec.human()),
        replace(
            resigned_record(3),
            started=STARTED + timedelta(hours=2),
            ended=STARTED + timedelta(hours=2, minutes=3),
        ),
    ]
    with RecordsDatabase(data / "records.sqlite3") as db:
        for number, record in enumerate(records):
            white = "bob" if number == 1 else "Computer (hard)"
            db.add(record, f"p{number}", white)
    return records


def test_no_data_directory_is_no_games_and_creates_nothing(
    tmp_path: Path, capsys: Captured
) -> None:
    data = tmp_path / "nowhere"
    assert history(data) == 0
    assert capsys.readouterr().out == NO_GAMES + "\n"
    assert history(data, "--json") == 0
    assert json.loads(capsys.readouterr().out) == []
    assert not data.exists()


def test_a_data_directory_without_a_database_is_left_alone(
    tmp_path: Path, capsys: Captured
) -> None:
    assert history(tmp_path) == 0
    assert NO_GAMES in capsys.readouterr().out
    assert list(tmp_path.iterdir()) == []


def test_the_table_lists_the_games_newest_first(tmp_path: Path, capsys: Captured) -> None:
    records = recorded(tmp_path)
    assert history(tmp_path) == 0
    out = capsys.readouterr().out
    for heading in ("Date", "Black", "White", "Result", "Moves"):
        assert heading in out
    rows = [line for line in out.splitlines() if " p" in line]
    assert [row.split()[2] for row in rows] == ["p2", "p1", "p0"]
    assert "Black wins" in out or "White wins" in out or "Draw" in out
    assert "White wins by resignation" in rows[0]
    assert "bob" in rows[1] and "Computer (hard)" in rows[2]
    assert str(len(records[0].move_list()) // 2) in rows[2]
    assert "3 games, newest first" in out


def test_a_resignation_says_so_with_its_final_score(tmp_path: Path, capsys: Captured) -> None:
    """Black resigned with 24 discs on the board: the score gives White every square
    Black does not hold, as for the statistics and the game-over dialog."""
    records = recorded(tmp_path)
    resigned = records[2].result
    assert resigned is not None and resigned.final_score != resigned.discs
    black, white = resigned.final_score
    assert history(tmp_path, "--limit", "1") == 0
    out = " ".join(capsys.readouterr().out.split())
    assert f"White wins by resignation, {black}-{white}" in out
    assert "the most recent of 3 games" in out  # not "the 1 most recent"


def test_limit_keeps_the_newest(tmp_path: Path, capsys: Captured) -> None:
    recorded(tmp_path)
    assert history(tmp_path, "--limit", "2") == 0
    out = capsys.readouterr().out
    assert " p2 " in out and " p1 " in out and " p0 " not in out
    assert "the 2 most recent of 3 games" in out


def test_json_has_every_field(tmp_path: Path, capsys: Captured) -> None:
    records = recorded(tmp_path)
    assert history(tmp_path, "--json") == 0
    games = json.loads(capsys.readouterr().out)
    assert [game["black"]["name"] for game in games] == ["p2", "p1", "p0"]
    last, first = games[0], games[2]
    assert first["moves"] == records[0].move_list()
    assert first["black"] == {
        "name": "p0",
        "kind": "human",
        "level": None,
        "think_time": None,
        "depth": None,
        "rating": None,
    }
    assert first["white"] == {
        "name": "Computer (hard)",
        "kind": "computer",
        "level": "hard",
        "think_time": 0.5,
        "depth": 6,
        "rating": None,
    }
    assert (first["handicap"], first["handicap_colour"]) == (0, None)
    assert first["start"] == "---------------------------OX------XO--------------------------- X"
    assert first["duration_seconds"] == 450.0
    assert first["started"].startswith("2026-03-14T15:09:26")
    assert first["score"]["black"] + first["score"]["white"] == 64
    assert (last["termination"], last["winner"]) == ("resignation", "white")
    assert last["result"] == "White wins by resignation"
    assert last["discs"]["black"] + last["discs"]["white"] == 4 + 20
    assert games[1]["white"]["kind"] == "human"
    assert {"id", "move_count", "ended"} <= set(first)
    assert (first["rated"], first["time_control"]) == (None, None)  # a local game


def test_the_environment_names_the_data_directory(
    tmp_path: Path, capsys: Captured, monkeypatch: pytest.MonkeyPatch
) -> None:
    recorded(tmp_path)
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path))
    assert main(["history", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)) == 3


@pytest.mark.parametrize("limit", ["0", "10001", "-3", "many", "2.5"])
def test_a_bad_limit_is_an_argument_error(tmp_path: Path, capsys: Captured, limit: str) -> None:
    with pytest.raises(SystemExit) as exited:
        history(tmp_path, "--limit", limit)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "--limit" in err and "Traceback" not in err


def test_json_and_export_do_not_go_together(tmp_path: Path, capsys: Captured) -> None:
    with pytest.raises(SystemExit) as exited:
        history(tmp_path, "--json", "--export", str(tmp_path / "games.pgn"))
    assert exited.value.code == 2
    assert "not allowed with" in capsys.readouterr().err


def test_a_damaged_database_is_set_aside_and_said(tmp_path: Path, capsys: Captured) -> None:
    (tmp_path / "records.sqlite3").write_text("not a database at all\n")
    assert history(tmp_path) == 0
    out, err = capsys.readouterr()
    assert NO_GAMES in out
    assert err.startswith("reversi history: The records database was not usable")
    assert len(list(tmp_path.glob("records.sqlite3.damaged-*"))) == 1


def test_a_newer_database_is_one_line_and_status_1(tmp_path: Path, capsys: Captured) -> None:
    recorded(tmp_path)
    connection = sqlite3.connect(tmp_path / "records.sqlite3")
    connection.execute("PRAGMA user_version = 9")
    connection.close()
    assert history(tmp_path) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and "newer version of reversi" in err


def exported(data: Path, capsys: Captured, records: list[GameRecord]) -> list[ImportedGame]:
    """``data``'s games exported to ``data/all.pgn`` and read back: all of ``records``."""
    pgn = pytest.importorskip("reversi_tui.records.pgn")
    target = data / "all.pgn"
    assert history(data, "--export", str(target)) == 0
    assert capsys.readouterr().out == f"Exported {len(records)} games to {target}.\n"
    games: list[ImportedGame] = pgn.read_pgn_all(target.read_text())
    assert [game.record.moves for game in games] == [r.moves for r in records]
    return games


def test_export_writes_every_game_as_one_pgn_file(tmp_path: Path, capsys: Captured) -> None:
    games = exported(tmp_path, capsys, recorded(tmp_path))
    target = tmp_path / "all.pgn"
    assert [game.tags["Black"] for game in games] == ["p0", "p1", "p2"]
    assert [game.tags["White"] for game in games] == ["Computer (hard)", "bob", "Computer (hard)"]
    assert target.stat().st_mode & 0o077 == 0


def test_export_with_a_limit_takes_the_newest(tmp_path: Path, capsys: Captured) -> None:
    pgn = pytest.importorskip("reversi_tui.records.pgn")
    recorded(tmp_path)
    target = tmp_path / "two.pgn"
    assert history(tmp_path, "--limit", "2", "--export", str(target)) == 0
    assert "Exported 2 games" in capsys.readouterr().out
    games = pgn.read_pgn_all(target.read_text())
    assert [game.tags["Black"] for game in games] == ["p1", "p2"]


def test_export_of_no_games_writes_nothing(tmp_path: Path, capsys: Captured) -> None:
    target = tmp_path / "none.pgn"
    assert history(tmp_path, "--export", str(target)) == 0
    assert "Nothing was written" in capsys.readouterr().out
    assert not target.exists()


def test_a_name_is_shown_as_it_is_never_as_markup(tmp_path: Path, capsys: Captured) -> None:
    with RecordsDatabase(tmp_path / "records.sqlite3") as db:
        db.add(finished_record(1), "[red]eve[/red]", "Computer (hard)")
    assert history(tmp_path) == 0
    assert "[red]eve[/red]" in capsys.readouterr().out


Seen = list[tuple[GameRecord, dict[str, str]]]


@pytest.fixture
def fake_pgn(monkeypatch: pytest.MonkeyPatch) -> Seen:
    """A stand-in for ``records.pgn.write_pgn``: tests the export's own part, whatever
    the PGN looks like. Collects what it is given."""
    seen: Seen = []

    def write_pgn(record: GameRecord, tags: dict[str, str]) -> str:
        seen.append((record, dict(tags)))
        return f'[Black "{tags["Black"]}"]\n\n{record.move_list()}\n'

    monkeypatch.setitem(
        sys.modules, "reversi_tui.records.pgn", SimpleNamespace(write_pgn=write_pgn)
    )
    return seen


def test_export_hands_every_game_to_write_pgn_oldest_first(
    tmp_path: Path, capsys: Captured, fake_pgn: Seen
) -> None:
    records = recorded(tmp_path)
    target = tmp_path / "all.pgn"
    target.write_text("the old file\n")
    assert history(tmp_path, "--export", str(target)) == 0
    assert capsys.readouterr().out == f"Exported 3 games to {target}.\n"
    assert [record for record, _ in fake_pgn] == records
    assert [tags for _, tags in fake_pgn] == [
        {"Black": "p0", "White": "Computer (hard)"},
        {"Black": "p1", "White": "bob"},
        {"Black": "p2", "White": "Computer (hard)"},
    ]
    assert target.read_text() == "\n".join(
        f'[Black "p{n}"]\n\n{record.move_list()}\n' for n, record in enumerate(records)
    )
    assert target.stat().st_mode & 0o077 == 0


def test_export_somewhere_unwritable_is_one_line_and_status_1(
    tmp_path: Path, capsys: Captured, fake_pgn: Seen
) -> None:
    recorded(tmp_path)
    (tmp_path / "a-file").write_text("")
    assert history(tmp_path, "--export", str(tmp_path / "a-file" / "games.pgn")) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("reversi history: the games were not exported:") and err.count("\n") == 1


def test_export_to_a_fifo_is_refused_and_leaves_it(
    tmp_path: Path, capsys: Captured, fake_pgn: Seen
) -> None:
    recorded(tmp_path)
    fifo = tmp_path / "games.pgn"
    os.mkfifo(fifo)
    assert history(tmp_path, "--export", str(fifo)) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        f"reversi history: the games were not exported: {fifo} is a FIFO (named pipe), "
        "not a regular file\n"
    )
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


@pytest.mark.skipif(
    not (os.path.exists("/dev/full") and stat.S_ISCHR(os.stat("/dev/full").st_mode)),
    reason="no /dev/full character device here",
)
def test_export_to_dev_full_is_refused_and_it_stays_a_device(
    tmp_path: Path, capsys: Captured, fake_pgn: Seen, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Were it not refused, no temporary file is made and nothing replaces the device."""
    recorded(tmp_path)

    def never(*args: object, **kwargs: object) -> NoReturn:
        raise AssertionError("a write to /dev/full was attempted")

    monkeypatch.setattr(tempfile, "mkstemp", never)
    monkeypatch.setattr(os, "replace", never)
    assert history(tmp_path, "--export", "/dev/full") == 1
    monkeypatch.undo()
    err = capsys.readouterr().err
    assert err == (
        "reversi history: the games were not exported: /dev/full is a character device, "
        "not a regular file\n"
    )
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_export_through_a_symbolic_link_writes_the_file_it_names(
    tmp_path: Path, capsys: Captured, fake_pgn: Seen
) -> None:
    records = recorded(tmp_path)
    real = tmp_path / "real.pgn"
    real.write_text("the old file\n")
    link = tmp_path / "games.pgn"
    link.symlink_to(real)
    assert history(tmp_path, "--export", str(link)) == 0
    assert capsys.readouterr().out == f"Exported 3 games to {link}.\n"
    assert link.is_symlink() and real.read_text().count("[Black") == len(records)


def test_data_dir_may_follow_the_command_and_then_wins(tmp_path: Path, capsys: Captured) -> None:
    recorded(tmp_path)
    assert main(["history", "--data-dir", str(tmp_path), "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)) == 3
    elsewhere = tmp_path / "elsewhere"
    assert main(["--data-dir", str(elsewhere), "history", "--data-dir", str(tmp_path)]) == 0
    assert "3 games, newest first" in capsys.readouterr().out
    assert main(["--data-dir", str(tmp_path), "history", "--data-dir", str(elsewhere)]) == 0
    assert capsys.readouterr().out == NO_GAMES + "\n"


# Online games: ratings and time controls --------------------------------------------------
RATED = OnlineFacts(
    rated=True,
    control=(5, 3),
    ratings={Color.BLACK: (1523, 23), Color.WHITE: (1477, -23)},
    provisional=frozenset({Color.WHITE}),
)
CASUAL_TIMED = OnlineFacts(rated=False, control=(10, 5))
CASUAL = OnlineFacts(rated=False)
RATED_UNTIMED = OnlineFacts(True, None, {Color.BLACK: (1500, 0), Color.WHITE: (1711, -112)})


def recorded_online(data: Path) -> list[GameRecord]:
    """``recorded``'s three local games, then four online ones an hour apart: ann-bob
    rated 5+3 (bob's rating provisional), cat-ann casual 10+5, ann-bob casual untimed,
    dan-eve rated untimed."""
    records = recorded(data)
    human = PlayerSpec.human()
    games = [
        ("ann", "bob", RATED),
        ("cat", "ann", CASUAL_TIMED),
        ("ann", "bob", CASUAL),
        ("dan", "eve", RATED_UNTIMED),
    ]
    with RecordsDatabase(data / "records.sqlite3") as db:
        for hour, (black, white, online) in enumerate(games, 3):
            record = finished_record(hour, started=STARTED + timedelta(hours=hour), white=human)
            db.add(record, black, white, source=f"srv:{hour}", online=online)
            records.append(record)
    return records


def rows_of(out: str) -> list[list[str]]:
    """The table's rows, each its lines (a row starts with its date)."""
    rows: list[list[str]] = []
    lines = out.splitlines()
    body = lines[lines.index(next(line for line in lines if "───" in line)) + 1 :]
    for line in body:
        if line.lstrip().startswith("2026-"):
            rows.append([line])
        elif line.strip() and rows and not line.strip().endswith("newest first"):
            rows[-1].append(line)
    return rows


@pytest.mark.parametrize("columns", ["80", "120"])
def test_rated_games_show_each_rating_and_the_terms_and_the_rest_as_before(
    tmp_path: Path, capsys: Captured, monkeypatch: pytest.MonkeyPatch, columns: str
) -> None:
    monkeypatch.setenv("COLUMNS", columns)
    recorded_online(tmp_path)
    assert history(tmp_path) == 0
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) <= int(columns)
    assert "…" not in out
    rows = rows_of(out)
    assert [row[0].split()[2] for row in rows] == ["dan", "ann", "cat", "ann", "p2", "p1", "p0"]
    dan, casual, casual_timed, rated, *local = rows
    assert dan[1].split() == ["1500", "(+0)", "1711", "(-112)", "rated"]
    assert rated[1].split() == ["1523", "(+23)", "1477?", "(-23)", "5+3", "rated"]
    assert rated[0].split()[2:4] == ["ann", "bob"]
    assert casual_timed[1].split() == ["10+5", "casual"]
    assert len(casual) == 1 and "casual" not in casual[0]  # untimed casual: as a local game
    assert all("rated" not in "".join(row) and "casual" not in "".join(row) for row in local)
    assert [len(row) for row in local] == [len(row) for row in local_rows(tmp_path, columns)]
    assert "7 games, newest first" in out


def local_rows(data: Path, columns: str) -> list[list[str]]:
    """The rows of ``recorded``'s local games alone, in a database of their own."""
    alone = data / "alone"
    alone.mkdir()
    recorded(alone)
    out = StringIO()
    with pytest.MonkeyPatch.context() as patch, redirect_stdout(out):
        patch.setenv("COLUMNS", columns)
        assert history(alone) == 0
    return rows_of(out.getvalue())


def test_json_has_the_online_facts_and_null_for_a_local_game(
    tmp_path: Path, capsys: Captured
) -> None:
    recorded_online(tmp_path)
    assert history(tmp_path, "--json") == 0
    dan, casual, casual_timed, rated, *local = json.loads(capsys.readouterr().out)
    assert (rated["rated"], rated["time_control"]) == (True, {"minutes": 5, "increment": 3})
    assert rated["black"]["rating"] == {"after": 1523, "change": 23, "provisional": False}
    assert rated["white"]["rating"] == {"after": 1477, "change": -23, "provisional": True}
    assert (dan["rated"], dan["time_control"]) == (True, None)
    assert dan["white"]["rating"] == {"after": 1711, "change": -112, "provisional": False}
    assert casual_timed["rated"] is False
    assert casual_timed["time_control"] == {"minutes": 10, "increment": 5}
    assert casual_timed["black"]["rating"] is None
    assert (casual["rated"], casual["time_control"], casual["white"]["rating"]) == (
        False,
        None,
        None,
    )
    for game in local:
        assert (game["rated"], game["time_control"]) == (None, None)
        assert game["black"]["rating"] is None and game["white"]["rating"] is None


def test_export_writes_pgns_time_control_and_elo_tags(tmp_path: Path, capsys: Captured) -> None:
    games = exported(tmp_path, capsys, recorded_online(tmp_path))
    *local, rated, casual_timed, casual, dan = (game.tags for game in games)
    assert rated["TimeControl"] == "300+3"
    assert (rated["BlackElo"], rated["BlackRatingDiff"]) == ("1500", "+23")
    assert (rated["WhiteElo"], rated["WhiteRatingDiff"]) == ("1500", "-23")
    assert (dan["TimeControl"], dan["BlackElo"], dan["WhiteElo"]) == ("-", "1500", "1823")
    assert dan["BlackRatingDiff"] == "+0"
    assert casual_timed["TimeControl"] == "600+5" and casual["TimeControl"] == "-"
    online_tags = {"TimeControl", "BlackElo", "WhiteElo", "BlackRatingDiff", "WhiteRatingDiff"}
    assert not online_tags & (set(casual_timed) | set(casual)) - {"TimeControl"}
    for tags in local:
        assert not online_tags & set(tags)


def test_export_gives_each_online_game_its_own_event_and_this_host_as_site(
    tmp_path: Path, capsys: Captured
) -> None:
    games = exported(tmp_path, capsys, recorded_online(tmp_path))
    *local, rated, casual_timed, casual, dan = (game.tags for game in games)
    assert rated["Event"] == "reversi-tui online game 4, rated 5+3"
    assert casual_timed["Event"] == "reversi-tui online game 5, casual 10+5"
    assert casual["Event"] == "reversi-tui online game 6, casual untimed"
    assert dan["Event"] == "reversi-tui online game 7, rated untimed"
    assert {tags["Site"] for tags in (rated, casual_timed, casual, dan)} == {socket.gethostname()}
    assert all(tags["Event"] == "reversi-tui game" and "Site" not in tags for tags in local)
