"""A file from someone else never runs anything (issue 30, critical).

A player read from a game file, an autosave, the records or a message is a
*recorded* one (``PlayerSpec.from_record``): an engine it names never starts (a
person here plays it under the engine's name), a level never searches for ever, and
what we write for others never carries an engine's command line. Each path by which
such text reaches a player is tried with a command that would leave a file behind.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest

from reversi_tui.engine import Color, Game, Position, parse_square
from reversi_tui.engine.ai.levels import get_level
from reversi_tui.match import GameRecord, MatchSettings, PlayerSpec
from reversi_tui.match.record import RecordForm
from reversi_tui.players import Computer, LocalHuman, make_source, playable, source_factory
from reversi_tui.records.autosave import SavedGame
from reversi_tui.records.database import RecordsDatabase
from reversi_tui.records.formats import read_game
from reversi_tui.records.names import player_name


def hostile(proof: Path) -> PlayerSpec:
    """An engine whose 'command line' leaves ``proof`` behind if it is ever run."""
    return PlayerSpec.from_text(f"gtp:sh -c touch${{IFS}}{proof}")


def opening(black: PlayerSpec, white: PlayerSpec, moves: str = "f5") -> GameRecord:
    game = Game.from_moves(None, [parse_square(moves[i : i + 2]) for i in range(0, len(moves), 2)])
    return GameRecord.of(game, {Color.BLACK: black, Color.WHITE: white})


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "reversi_tui", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
    )


def test_a_recorded_engine_is_never_a_program_whatever_its_kind() -> None:
    for text in ("gtp:edax -gtp", "nboard:edax -n", "engine:Edax"):
        spec = PlayerSpec.from_record(text)
        assert spec.recorded and not spec.runs_program
        source = make_source(spec)
        assert isinstance(source, LocalHuman) and source.label == spec.label
        assert isinstance(source_factory({})(spec, None), LocalHuman)
    chosen = PlayerSpec.from_text("gtp:edax -gtp")
    assert chosen.runs_program and chosen == PlayerSpec.from_record("gtp:edax -gtp")


def test_playable_turns_a_recorded_engine_into_a_person_named_after_it() -> None:
    recorded = PlayerSpec.from_record("gtp:/opt/bin/edax -gtp -l 60")
    settings, note = playable(MatchSettings(PlayerSpec.human(), recorded), {})
    assert settings.white == PlayerSpec.person("GTP engine (edax)")
    assert note == (
        "GTP engine (edax) (White): an engine named in a file never runs; a person here plays it."
    )


def test_an_autosave_naming_an_engine_resumes_with_a_person(tmp_path: Path) -> None:
    proof = tmp_path / "PWNED"
    saved = SavedGame(opening(PlayerSpec.human(), hostile(proof)))
    back = SavedGame.from_json(saved.to_json().encode())
    white = back.record.white
    assert white.kind.takes_program and white.recorded and not white.runs_program
    settings, note = playable(MatchSettings(back.record.black, white), {})
    assert note is not None and not settings.white.kind.takes_program
    assert isinstance(make_source(white), LocalHuman) and not proof.exists()


def test_a_game_replayed_from_the_records_never_starts_its_engine(tmp_path: Path) -> None:
    proof = tmp_path / "PWNED"
    record = opening(PlayerSpec.human(), hostile(proof), "f5d6c3d3c4f4f6f3e6e7d7g6")
    finished = Game.from_moves(None, list(record.moves))
    while not finished.is_over:
        finished.play(finished.legal_moves[0])
    done = GameRecord.of(finished, {Color.BLACK: record.black, Color.WHITE: record.white})
    db = RecordsDatabase(tmp_path / "records.sqlite3")
    try:
        game_id = db.add(done, "ann", player_name(done.white, "ann"))
        stored = db.get(game_id)
    finally:
        db.close()
    assert stored is not None and stored.record.white.recorded
    assert isinstance(make_source(stored.record.white), LocalHuman) and not proof.exists()


def test_convert_never_copies_a_command_line(tmp_path: Path) -> None:
    proof = tmp_path / "PWNED"
    path = tmp_path / "evil.pgn"
    path.write_text(
        '[Event "x"]\n[BlackPlayer "human"]\n'
        f'[WhitePlayer "gtp:sh -c touch${{IFS}}{proof} --secret"]\n\n1. f5 *\n'
    )
    done = run("convert", "--to", "pgn", str(path), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "sh -c" not in done.stdout and "--secret" not in done.stdout
    assert "gtp:" not in done.stdout
    assert not proof.exists()


def test_history_export_never_writes_the_users_engine_command_lines(tmp_path: Path) -> None:
    engine = PlayerSpec.from_text("gtp:/home/ann/bin/edax -gtp --book /home/ann/private.book")
    game = Game()
    while not game.is_over:
        game.play(game.legal_moves[0])
    record = GameRecord.of(game, {Color.BLACK: PlayerSpec.human(), Color.WHITE: engine})
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    db = RecordsDatabase(data / "records.sqlite3")
    try:
        # As records written before named an engine: by its whole command line.
        db.add(record, "ann", "GTP engine (/home/ann/bin/edax -gtp --book /home/ann/private.book)")
    finally:
        db.close()
    target = tmp_path / "mine.pgn"
    done = run("history", "--data-dir", str(data), "--export", str(target), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    text = target.read_text()
    assert "private.book" not in text and "/home/ann" not in text and "-gtp" not in text
    assert '[White "GTP engine (edax)"]' in text and '[WhitePlayer "engine:edax"]' in text
    listed = run("history", "--data-dir", str(data), "--json", cwd=tmp_path)
    assert "private.book" not in listed.stdout


@pytest.mark.parametrize("text", ["hard/60ply", "hard/0.5s/60ply", "expert/60ply"])
def test_a_level_from_a_file_moves_on_its_clock(text: str) -> None:
    """``hard/60ply`` from a file searched 60 plies with no clock: it never moved."""
    spec = PlayerSpec.from_record(text)
    source = make_source(spec)
    assert isinstance(source, Computer)
    assert source.think_time is not None and source.think_time <= get_level(spec.level).budget
    assert source.depth == 60  # kept, as a cap within the clock
    found: list[int] = []
    position = Position.initial().play(parse_square("f5")).play(parse_square("d6"))
    worker = threading.Thread(
        target=lambda: found.append(source.search(position).depth), daemon=True
    )
    worker.start()
    worker.join(timeout=120)  # a generous bound: the clock is a few seconds
    assert found and found[0] < 60


def test_the_users_own_depth_is_still_exact_and_unclocked() -> None:
    source = make_source(PlayerSpec.from_text("hard/3ply"))
    assert isinstance(source, Computer) and source.think_time is None and source.depth == 3
    assert source.search(Position.initial()).depth == 3


def test_a_record_form_from_a_message_is_recorded_too() -> None:
    form = RecordForm.of(opening(PlayerSpec.human(), PlayerSpec.from_text("gtp:x")))
    assert not form.record().white.runs_program


def test_a_ggf_names_its_players_and_credits_nobody_else() -> None:
    text = "(;GM[Othello]PB[Kasparov]PW[Tamenori]TY[8]B[f5]W[d6];)"
    imported = read_game(text)
    assert imported.players == (PlayerSpec.person("Kasparov"), PlayerSpec.person("Tamenori"))
    assert player_name(imported.record.black, "ann") == "Kasparov"


def test_the_engine_layer_itself_refuses_a_recorded_engine() -> None:
    from reversi_tui.players.engine import make_engine_source

    with pytest.raises(ValueError, match="never runs"):
        make_engine_source(PlayerSpec.from_record("gtp:edax -gtp"), {})
