"""Autosaves: a save restores the whole game (start, every ply, redo, players, review,
start time); a game open in another process is neither offered nor taken, and its lock
dies with the process; damaged saves are set aside and reported, the good ones offered."""

import errno
import json
import os
import re
import select
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from reversi_tui.cli import MOST_SECONDS
from reversi_tui.engine import PASS, Color, Game, Ply, parse_position, parse_square, square_name
from reversi_tui.engine.notation import parse_move_list
from reversi_tui.match.settings import MOST_THINK_SECONDS, PlayerSpec
from reversi_tui.records.autosave import (
    SAVE_FORMAT,
    SAVE_VERSION,
    STALE_TEMP_SECONDS,
    Autosave,
    AutosaveStore,
    Resumable,
    SavedGame,
    SaveFileError,
)
from reversi_tui.records.paths import StorageError

#: A whole random game (seed 134) with four forced passes (implied), the first at ply 55.
WITH_PASSES = (
    "e6f6c4e7f7c3e8f8g5e3f5c5g7d6g8h7g6f4d2g4d8h5g3e1c7h4b4b8f3h6b3c6d3c2b7a5a4d7e2h2"
    "b6a6b1d1b5a2f2a8g2f1b2a1a7g1h8a3h3h1c1c8"
)
STARTED = datetime(2026, 11, 23, 9, 15, 30, 125000, tzinfo=UTC)
PLAYERS = {
    Color.BLACK: PlayerSpec.human(),
    Color.WHITE: PlayerSpec.computer("hard", think_time=2.5),
}
#: White to move; a1 flips so much that Black must pass afterwards (a loaded position).
LOADED = "-XOOO----OOO-X--OOOXX------XXX-----XXX----XXXXXX--XXXXX--OOO---- O"


def undone(game: Game, times: int) -> Game:
    for _ in range(times):
        game.undo()
    return game


def passes_game() -> Game:
    """Sixty plies in, three moves (and the passes between them) taken back: passes
    both in the history and in the redo stack."""
    return undone(Game.from_moves(None, parse_move_list(WITH_PASSES)[:60]), 3)


def handicap_game() -> Game:
    """Two corners for White, three moves, one taken back."""
    game = Game.with_handicap(2, Color.WHITE)
    for _ in range(3):
        game.play(game.legal_moves[0])
    return undone(game, 1)


def loaded_game() -> Game:
    game = Game(parse_position(LOADED))
    game.play(parse_square("a1"))  # Black must pass: a pass ply
    return game


GAMES = {"passes and redo": passes_game, "handicap": handicap_game, "loaded": loaded_game}


def saved_of(game: Game, review: int | None = None) -> SavedGame:
    return SavedGame.of(game, PLAYERS, STARTED, review)


@pytest.fixture
def store(tmp_path: Path) -> AutosaveStore:
    directory = tmp_path / "autosave"
    directory.mkdir()
    return AutosaveStore(directory)


def write_closed(store: AutosaveStore, saved: SavedGame) -> Path:
    """A save left by an earlier run: written, then let go."""
    with store.create() as save:
        save.write(saved)
    return save.path


def plies(game: Game) -> list[Ply]:
    """Every ply with the positions before and after it and the discs it flipped."""
    return list(game.plies)


# A save holds the whole game ----------------------------------------------------------
def test_the_test_games_have_what_they_test() -> None:
    game = passes_game()
    assert PASS in game.moves and game.redo_moves.count(PASS) == 2 and len(game.redo_moves) == 5
    assert handicap_game().start != Game().start and handicap_game().can_redo
    assert loaded_game().moves[-1] == PASS


@pytest.mark.parametrize("name", list(GAMES))
@pytest.mark.parametrize("review", [None, 1])
def test_a_save_restores_the_game_exactly(
    store: AutosaveStore, name: str, review: int | None
) -> None:
    original = GAMES[name]()
    path = write_closed(store, saved_of(original, review))
    [item] = AutosaveStore(store.directory).resumable()
    assert item.path == path
    saved = item.saved
    assert saved == saved_of(original, review)
    assert saved.review == review
    assert saved.record.started == STARTED
    assert {Color.BLACK: saved.record.black, Color.WHITE: saved.record.white} == PLAYERS
    assert saved.record.white.think_time == 2.5 and saved.record.white.level == "hard"
    restored = saved.game()
    assert restored.start == original.start
    assert plies(restored) == plies(original)
    assert restored.redo_moves == original.redo_moves
    while original.can_redo:  # redo goes on exactly as it would have
        assert [p.move for p in restored.redo()] == [p.move for p in original.redo()]
        assert restored.position == original.position
    assert not restored.can_redo
    restored.undo()  # and undo works back past where it was saved
    original.undo()
    assert plies(restored) == plies(original)


def test_the_file_is_the_documented_json(store: AutosaveStore) -> None:
    game = passes_game()
    path = write_closed(store, saved_of(game))
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == SAVE_FORMAT and data["version"] == SAVE_VERSION == 2
    assert data["redo"] == [square_name(m) for m in game.redo_moves]
    assert "pass" in data["redo"] and data["review"] is None
    assert data["record"]["moves"] == [square_name(m) for m in game.moves]
    assert (data["record"]["black"], data["record"]["white"]) == ("human", "hard/2.5s")
    saved_at = datetime.fromisoformat(data["saved"])
    assert saved_at.tzinfo is not None and abs(datetime.now(UTC) - saved_at).total_seconds() < 60


def test_saves_are_offered_newest_first(store: AutosaveStore) -> None:
    paths = [write_closed(store, saved_of(game())) for game in GAMES.values()]
    for age, path in zip((300, 100, 200), paths, strict=True):
        stamp = datetime.now().timestamp() - age
        os.utime(path, (stamp, stamp))
    items = store.resumable()
    assert [item.path for item in items] == [paths[1], paths[2], paths[0]]
    assert all(item.modified.tzinfo is not None for item in items)
    assert items[0].modified > items[1].modified > items[2].modified


def test_create_gives_a_new_locked_name_and_writes_nothing_yet(store: AutosaveStore) -> None:
    first, second = store.create(), store.create()
    assert first.path != second.path and first.path.parent == store.directory
    assert not first.path.exists()
    assert Path(f"{first.path}.lock").exists()
    assert store.resumable() == []
    first.close()
    second.close()


def test_a_closed_game_stays_and_a_finished_one_goes(store: AutosaveStore) -> None:
    save = store.create()
    save.write(saved_of(passes_game()))
    save.close()
    save.close()  # twice is harmless
    [item] = store.resumable()
    claimed = store.claim(item)
    assert claimed is not None
    claimed.finish()
    assert list(store.directory.iterdir()) == []
    assert store.resumable() == []


def test_a_finished_game_is_not_offered_but_kept(store: AutosaveStore) -> None:
    game = Game.from_moves(None, parse_move_list(WITH_PASSES))
    assert game.is_over
    path = write_closed(store, saved_of(game))
    write_closed(store, saved_of(handicap_game()))
    [item] = store.resumable()
    assert item.path != path and not item.saved.record.is_finished
    assert path.exists() and store.problems == []


def test_writing_after_closing_is_refused(store: AutosaveStore) -> None:
    save = store.create()
    save.close()
    with pytest.raises(StorageError, match="no longer open"):
        save.write(saved_of(handicap_game()))


def test_a_store_without_a_directory_has_nothing_to_resume(tmp_path: Path) -> None:
    assert AutosaveStore(tmp_path / "never-made").resumable() == []


def test_a_store_that_is_a_file_is_a_storage_error(tmp_path: Path) -> None:
    blocker = tmp_path / "autosave"
    blocker.write_text("a file")
    store = AutosaveStore(blocker)
    with pytest.raises(StorageError, match="is not a directory"):
        store.resumable()
    with pytest.raises(StorageError, match="is not a directory"):
        store.create()


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EACCES])
def test_a_refused_write_is_a_storage_error_and_keeps_the_last_save(
    store: AutosaveStore, monkeypatch: pytest.MonkeyPatch, code: int
) -> None:
    game = passes_game()
    save = store.create()
    save.write(saved_of(game))
    before = save.path.read_bytes()
    game.redo()

    def refuse(source: Any, target: Any) -> None:
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(StorageError) as caught:
        save.write(saved_of(game))
    monkeypatch.undo()
    assert os.strerror(code) in str(caught.value) and "\n" not in str(caught.value)
    assert save.path.read_bytes() == before
    save.close()
    assert [item.saved for item in store.resumable()] == [saved_of(passes_game())]


def test_a_game_changed_since_it_was_listed_is_not_claimed(store: AutosaveStore) -> None:
    """Claiming with an out-of-date listing would overwrite the newer moves."""
    path = write_closed(store, saved_of(passes_game()))
    [stale] = store.resumable()
    game = passes_game()
    game.redo()
    [fresh] = AutosaveStore(store.directory).resumable()
    claimed = AutosaveStore(store.directory).claim(fresh)
    assert claimed is not None
    claimed.write(saved_of(game))
    claimed.close()
    assert store.claim(stale) is None
    assert path.exists()
    [now] = store.resumable()
    assert now.saved == saved_of(game)


def test_a_discarded_game_is_gone(store: AutosaveStore) -> None:
    keep = write_closed(store, saved_of(handicap_game()))
    drop = write_closed(store, saved_of(passes_game()))
    [item] = [i for i in store.resumable() if i.path == drop]
    assert store.discard(item)
    assert sorted(p.name for p in store.directory.iterdir()) == [keep.name, f"{keep.name}.lock"]


def test_a_discard_the_disk_refuses_is_a_problem_not_a_crash(
    store: AutosaveStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_closed(store, saved_of(handicap_game()))
    [item] = store.resumable()

    def refuse(self: Path, missing_ok: bool = False) -> None:
        raise OSError(errno.EACCES, os.strerror(errno.EACCES))

    monkeypatch.setattr(Path, "unlink", refuse)
    assert not store.discard(item)
    monkeypatch.undo()
    assert path.exists()
    [problem] = store.problems
    assert "Permission denied" in problem and "\n" not in problem
    assert store.claim(item) is not None  # the lock was let go


def test_leftovers_of_killed_processes_are_swept(store: AutosaveStore) -> None:
    orphan = store.directory / "game-old.json.lock"  # its save was removed, then a crash
    orphan.touch()
    held = store.create()  # a game just started elsewhere: its lock has no save yet
    old_temp = store.directory / ".game-x.json.abc123.tmp"
    new_temp = store.directory / ".game-y.json.def456.tmp"
    old_temp.write_text("half a sa")
    new_temp.write_text("being writ")
    stamp = datetime.now().timestamp() - STALE_TEMP_SECONDS - 60
    os.utime(old_temp, (stamp, stamp))
    assert store.resumable() == []
    left = sorted(p.name for p in store.directory.iterdir())
    assert left == sorted([new_temp.name, f"{held.path.name}.lock"])
    held.close()


# Saves of earlier versions -------------------------------------------------------------
#: The players as version 1 wrote them: a dict of fields each.
OLD_BLACK = {"kind": "human", "level": "medium", "think_time": None, "depth": None}
OLD_WHITE = {"kind": "computer", "level": "hard", "think_time": 2.5, "depth": None}


def version_1(saved: SavedGame) -> bytes:
    """``saved`` as the first release wrote it (save version 1, players as dicts)."""
    data = json.loads(saved.to_json())
    data["version"] = 1
    data["record"]["black"], data["record"]["white"] = OLD_BLACK, OLD_WHITE
    return json.dumps(data).encode()


@pytest.mark.parametrize("name", list(GAMES))
def test_a_version_1_save_resumes_the_same(store: AutosaveStore, name: str) -> None:
    original = saved_of(GAMES[name](), review=1)
    path = write_closed(store, original)
    path.write_bytes(version_1(original))
    [item] = AutosaveStore(store.directory).resumable()
    assert item.saved == original and item.path == path
    assert SavedGame.from_json(version_1(original)) == original


#: Saves exactly as the releases before msgspec wrote them: the handicap game with a
#: move taken back, shown at ply 1 (version 2 and version 1), and a resigned game.
OLD_V2 = (
    b'{"format": "reversi-tui autosave", "version": 2, "record": {"start": '
    b'"O--------------------------OX------XO--------------------------O X", "moves": '
    b'["d3", "c3"], "black": "human", "white": "hard/2.5s", "result": null, "started": '
    b'"2026-11-23T09:15:30.125000+00:00", "ended": null}, "redo": ["b3"], "review": 1, '
    b'"saved": "2026-11-24T08:00:00+00:00"}\n'
)
OLD_V1 = (
    b'{"format": "reversi-tui autosave", "version": 1, "record": {"start": '
    b'"O--------------------------OX------XO--------------------------O X", "moves": '
    b'["d3", "c3"], "black": {"kind": "human", "level": "medium", "think_time": null, '
    b'"depth": null}, "white": {"kind": "computer", "level": "hard", "think_time": 2.5, '
    b'"depth": null}, "result": null, "started": "2026-11-23T09:15:30.125000+00:00", '
    b'"ended": null}, "redo": ["b3"], "review": 1, "saved": "2026-11-26T08:11:52.804871+00:00"}'
)
OLD_RESIGNED = (
    b'{"format": "reversi-tui autosave", "version": 2, "record": {"start": '
    b'"---------------------------OX------XO--------------------------- X", "moves": '
    b'["f5", "d6", "c3"], "black": "human", "white": "hard/2.5s", "result": {"termination": '
    b'"resignation", "winner": "black", "black": 5, "white": 2}, "started": '
    b'"2026-11-23T09:15:30.125000+00:00", "ended": "2026-11-23T09:20:00+00:00"}, "redo": [], '
    b'"review": null, "saved": "2026-11-23T09:20:01+00:00"}\n'
)


def test_saves_the_earlier_releases_wrote_read_the_same_and_are_written_the_same() -> None:
    handicap = saved_of(handicap_game(), review=1)
    assert SavedGame.from_json(OLD_V2) == SavedGame.from_json(OLD_V1) == handicap
    assert handicap.to_json(datetime(2026, 11, 24, 8, 0, tzinfo=UTC)).encode() == OLD_V2
    resigned = SavedGame.from_json(OLD_RESIGNED)
    assert resigned.record.result is not None
    assert resigned.record.result.summary == "Black wins by resignation"
    assert resigned.record.move_list() == "f5d6c3" and resigned.redo == ()
    ended = datetime(2026, 11, 23, 9, 20, 1, tzinfo=UTC)
    assert resigned.to_json(ended).encode() == OLD_RESIGNED  # the form is still version 2
    assert SAVE_VERSION == 2


def test_fields_a_later_release_may_add_are_let_be() -> None:
    data = json.loads(OLD_V2)
    data["clock"] = {"black": 12.5}
    data["record"]["event"] = "club night"
    assert SavedGame.from_json(json.dumps(data).encode()) == SavedGame.from_json(OLD_V2)


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """An edit of the handicap save: ``path`` (``record.moves.1``) set to ``value``."""

    def change(data: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target: Any = data
        for key in parents:
            target = target[int(key)] if isinstance(target, list) else target[key]
        target[int(last) if isinstance(target, list) else last] = value

    return change


BAD_FIELDS: dict[str, tuple[Any, str]] = {
    "a move not a square": (_set("record.moves.1", "z9"), "$.record.moves[1]"),
    "a move not text": (_set("record.moves.0", 5), "$.record.moves[0]"),
    "moves as one word": (_set("record.moves", "d3c3"), "$.record.moves"),
    "a start not a board": (_set("record.start", "nonsense"), "$.record.start"),
    "a player not one": (_set("record.white", 7), "$.record.white"),
    "a level not ours": (_set("record.white", "godlike"), "$.record.white"),
    "a start time not one": (_set("record.started", "yesterday"), "$.record.started"),
    "a winner not a colour": (
        _set("record.result", {"termination": "resignation", "winner": "green"}),
        "$.record.result.winner",
    ),
    "a redo not a square": (_set("redo.0", "k9"), "$.redo[0]"),
    "a review below 0": (_set("review", -1), "$.review"),
    "a review not a number": (_set("review", "1"), "$.review"),
    "a record not an object": (_set("record", []), "$.record"),
    "an old player's think time not a number": (
        _set("record.white", {"kind": "computer", "level": "hard", "think_time": "x"}),
        "$.record.white.think_time",
    ),
}


@pytest.mark.parametrize("damage", list(BAD_FIELDS))
def test_a_bad_field_is_named_by_its_path_and_the_save_set_aside(
    store: AutosaveStore, damage: str
) -> None:
    change, where = BAD_FIELDS[damage]
    data = json.loads(OLD_V2)
    change(data)
    raw = json.dumps(data).encode()
    with pytest.raises(SaveFileError, match=re.escape(f"`{where}`")):
        SavedGame.from_json(raw)
    bad = write_closed(store, saved_of(handicap_game()))
    bad.write_bytes(raw)
    assert store.resumable() == [] and not bad.exists()
    [problem] = store.problems
    assert f"`{where}`" in problem and "not deleted" in problem and "\n" not in problem


def _thinking(seconds: Any, *, version_1: bool = False) -> bytes:
    """The handicap save with White thinking ``seconds`` a move."""
    data = json.loads(OLD_V1 if version_1 else OLD_V2)
    if version_1:
        data["record"]["white"]["think_time"] = seconds
    else:
        data["record"]["white"] = f"hard/{seconds}s"
    return json.dumps(data).encode()


@pytest.mark.parametrize("version_1", [False, True], ids=["text", "version 1 fields"])
def test_a_think_time_past_the_command_lines_is_held_to_it_and_said(
    store: AutosaveStore, version_1: bool
) -> None:
    assert MOST_THINK_SECONDS == MOST_SECONDS == 3600  # what --think-time takes
    raw = _thinking(1e9 if version_1 else "1000000000", version_1=version_1)
    saved, notes = SavedGame.read_json(raw)
    assert saved.record.white == PlayerSpec.computer("hard", think_time=MOST_THINK_SECONDS)
    assert saved.record.black == PlayerSpec.human()
    assert saved.game().position == saved_of(handicap_game()).game().position
    assert notes == (
        "White was saved thinking 1e+09 seconds a move; it thinks 3600, the most allowed",
    )
    path = write_closed(store, saved_of(handicap_game()))
    path.write_bytes(raw)
    [item] = store.resumable()
    assert item.saved == saved and path.read_bytes() == raw  # offered, not set aside
    [problem] = store.problems
    assert problem.startswith(f"The saved game {path.name}: White was saved thinking 1e+09")
    claimed = store.claim(item)
    assert claimed is not None
    claimed.close()
    at_most = _thinking(3600, version_1=version_1)
    assert SavedGame.read_json(at_most)[1] == ()


@pytest.mark.parametrize(
    ("raw", "where"),
    [
        (_thinking(-1, version_1=True), "$.record.white"),
        (_thinking(0, version_1=True), "$.record.white"),
        (_thinking("-1"), "$.record.white"),
        (_thinking("0"), "$.record.white"),
        (_thinking("1e999"), "$.record.white"),
    ],
    ids=["-1", "0", "text -1", "text 0", "text infinite"],
)
def test_a_think_time_that_is_none_is_refused(raw: bytes, where: str) -> None:
    with pytest.raises(SaveFileError, match=re.escape(f"`{where}`")):
        SavedGame.from_json(raw)


# Damaged saves ------------------------------------------------------------------------
def good_text() -> str:
    return saved_of(handicap_game()).to_json()


def _old_player_of_no_level(data: dict[str, Any]) -> None:
    data["version"] = 1
    data["record"]["white"] = {**OLD_WHITE, "level": "godlike"}


def edited(change: Any) -> bytes:
    data = json.loads(good_text())
    change(data)
    return json.dumps(data).encode()


DAMAGED: dict[str, bytes] = {
    "corrupt JSON": b'{"format": "reversi-tui autosave", "version": 1, "record": {"st',
    "truncated": good_text().encode()[: len(good_text()) // 2],
    "empty": b"",
    "blank": b"  \n",
    "binary garbage": bytes(range(256)) * 4,
    "foreign JSON": b'{"name": "somebody else\'s file", "items": [1, 2, 3]}',
    "a JSON list": b"[1, 2, 3]",
    "future version": edited(lambda d: d.update(version=SAVE_VERSION + 1)),
    "bad version": edited(lambda d: d.update(version="one")),
    "moves do not replay": edited(lambda d: d["record"]["moves"].insert(0, "a1")),
    "redo does not replay": edited(lambda d: d.update(redo=["h8"])),
    "redo a pass alone": edited(lambda d: d.update(redo=["pass"])),
    "no record": edited(lambda d: d.pop("record")),
    "review past the end": edited(lambda d: d.update(review=99)),
    "review not a number": edited(lambda d: d.update(review="4")),
    "unknown player level": edited(lambda d: d["record"].update(white="godlike")),
    "unknown old player level": edited(_old_player_of_no_level),
    "far too large": b'{"format": "reversi-tui autosave", "pad": "' + b"x" * (1 << 20) + b'"}',
    "deeply nested": b"[" * 100_000 + b"]" * 100_000,
}


@pytest.mark.parametrize("damage", list(DAMAGED))
def test_a_damaged_save_is_set_aside_and_the_good_ones_offered(
    store: AutosaveStore, damage: str
) -> None:
    good = write_closed(store, saved_of(passes_game()))
    bad = write_closed(store, saved_of(handicap_game()))
    bad.write_bytes(DAMAGED[damage])
    [item] = store.resumable()
    assert item.path == good and item.saved == saved_of(passes_game())
    assert not bad.exists() and not Path(f"{bad}.lock").exists()
    [kept] = [p for p in store.directory.iterdir() if p.name.startswith(f"{bad.name}.damaged-")]
    assert kept.read_bytes() == DAMAGED[damage]  # never deleted, never changed
    [problem] = store.problems
    assert bad.name in problem and str(kept) in problem and "\n" not in problem
    assert "Traceback" not in problem
    # The next run finds nothing more to complain about.
    again = AutosaveStore(store.directory)
    assert [i.path for i in again.resumable()] == [good] and again.problems == []


def test_the_problem_says_what_was_wrong(store: AutosaveStore) -> None:
    for damage in ("empty", "binary garbage", "foreign JSON", "future version", "truncated"):
        path = store.directory / f"game-{damage.replace(' ', '-')}.json"
        path.write_bytes(DAMAGED[damage])
    assert store.resumable() == []
    said = " | ".join(store.problems)
    for words in (
        "it is empty",
        "it is not text",
        "it is not a reversi-tui autosave",
        f"a newer reversi-tui wrote it (save version {SAVE_VERSION + 1})",
        "it is not valid JSON, cut short or garbled at line 1",
    ):
        assert words in said


def test_a_save_damaged_after_listing_is_set_aside_when_claimed(store: AutosaveStore) -> None:
    path = write_closed(store, saved_of(handicap_game()))
    [item] = store.resumable()
    path.write_bytes(b"")
    assert store.claim(item) is None
    assert not path.exists() and len(store.problems) == 1


# Another process ------------------------------------------------------------------------
HOLDER = """
import sys
from pathlib import Path
from reversi_tui.records.autosave import AutosaveStore

store = AutosaveStore(Path(sys.argv[1]))
if sys.argv[2] == "claim":
    save = store.claim(store.resumable()[0])
    print("claimed" if save is not None else "refused", flush=True)
else:
    save = store.create()
    print(save.path, flush=True)
sys.stdin.read()  # hold on until killed
"""


@pytest.fixture
def holder() -> Iterator[list[subprocess.Popen[str]]]:
    """Other ``reversi`` processes (real ones) that ``start`` begins; killed at the end."""
    child: list[subprocess.Popen[str]] = []
    yield child
    for process in child:
        process.kill()
        process.wait()
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                stream.close()


def start(
    children: list[subprocess.Popen[str]], directory: Path, what: str
) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(directory), what],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    children.append(process)
    assert process.stdout is not None
    ready, _, _ = select.select([process.stdout], [], [], 60)
    assert ready, "the other process said nothing for a minute"
    return process, process.stdout.readline().strip()


def test_a_game_open_in_another_process_is_not_offered_nor_taken(
    store: AutosaveStore, holder: list[subprocess.Popen[str]]
) -> None:
    path = write_closed(store, saved_of(passes_game()))
    before = path.read_bytes()
    [item] = store.resumable()
    process, said = start(holder, store.directory, "claim")
    assert said == "claimed"
    other = write_closed(store, saved_of(handicap_game()))
    assert [i.path for i in store.resumable()] == [other]  # the others are still offered
    assert store.claim(item) is None
    assert not store.discard(item)
    assert path.read_bytes() == before  # nor changed
    # The lock dies with its process: kill -9 never leaves a game stuck.
    process.kill()
    process.wait()
    [again] = [i for i in store.resumable() if i.path == path]
    claimed = store.claim(again)
    assert claimed is not None
    claimed.close()


def test_a_new_game_in_another_process_is_never_offered(
    store: AutosaveStore, holder: list[subprocess.Popen[str]]
) -> None:
    _, said = start(holder, store.directory, "create")
    theirs = Path(said)
    theirs.write_text(saved_of(handicap_game()).to_json())  # as if it had saved a move
    assert store.resumable() == [] and store.problems == []
    assert theirs.exists()


def test_autosave_is_a_context_manager(store: AutosaveStore) -> None:
    with store.create() as save:
        assert isinstance(save, Autosave) and save.is_open
        save.write(saved_of(loaded_game()))
    assert not save.is_open
    [item] = store.resumable()
    assert isinstance(item, Resumable) and item.saved.record.start == parse_position(LOADED)


def test_saved_games_compare_by_value() -> None:
    saved = saved_of(passes_game())
    assert saved == SavedGame.from_json(saved.to_json().encode())
    assert replace(saved, review=3) != saved
