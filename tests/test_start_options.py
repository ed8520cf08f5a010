"""--moves, --position and --load start from a game; bad ones are one line and status 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from reversi_tui.cli import build_parser, main
from reversi_tui.commands.play import run_game_app, start_game, start_settings
from reversi_tui.engine import Color, format_position, handicap_position
from reversi_tui.engine.game import Game
from reversi_tui.engine.notation import parse_move_list
from reversi_tui.match import GameRecord, MatchSettings, PlayerSpec
from reversi_tui.records.formats import write_game
from reversi_tui.records.pgn import read_pgn_all
from reversi_tui.tui.app import ReversiApp

from .timing import patience

#: Two finished games, as PlayOK exports them.
PLAYOK = Path(__file__).parent / "data" / "records" / "playok-2014-10-19.pgn"

#: A position led by "-": a handicap-free opening after f5d6c3, White to move.
AFTER_F5D6C3 = format_position(Game.from_moves(None, parse_move_list("f5d6c3")).position)


def plain(*args: str, data: bytes = b"") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "reversi_tui", "--plain", *args],
        input=data.decode(),
        capture_output=True,
        text=True,
        timeout=patience(60),
    )


def first_board(out: str) -> str:
    """The first board of a line-mode transcript (the game it started from)."""
    return out.split("\n\n", 1)[0]


def test_moves_start_line_mode_after_them() -> None:
    from_moves = plain("--moves", "f5d6c3")
    from_position = plain("--position", AFTER_F5D6C3)
    assert first_board(from_moves.stdout) == first_board(from_position.stdout)
    fresh = plain()
    assert first_board(from_moves.stdout) != first_board(fresh.stdout)
    assert from_moves.stdout.count("B") != fresh.stdout.count("B")


def test_a_position_led_by_a_dash_is_not_taken_for_an_option() -> None:
    assert AFTER_F5D6C3.startswith("-")
    done = plain("--position", AFTER_F5D6C3)
    assert "error" not in done.stderr and done.returncode == 1  # input ended: status 1


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--moves", "f5zz"], "zz"),
        (["--moves", "f5f5"], "f5"),
        (["--position", "nonsense X"], "64"),
        (["--handicap", "2", "--moves", "f5"], "--handicap"),
        (["--load", "/nonexistent/game.pgn"], "cannot read"),
    ],
)
def test_a_game_that_cannot_be_started_from_is_one_line(args: list[str], words: str) -> None:
    done = plain(*args)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    [line] = done.stderr.strip().splitlines()
    assert words in line


def test_a_binary_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "game.pgn"
    path.write_bytes(bytes(range(256)))
    done = plain("--load", str(path))
    assert done.returncode == 2
    assert "binary" in done.stderr and "Traceback" not in done.stderr


def test_load_plays_on_from_a_pgn_file(tmp_path: Path) -> None:
    pytest.importorskip("reversi_tui.records.formats")
    path = tmp_path / "game.pgn"
    path.write_text('[Event "Casual"]\n[Black "a"]\n[White "b"]\n\n1. f5 d6 2. c3 *\n')
    loaded = plain("--load", str(path))
    assert first_board(loaded.stdout) == first_board(plain("--moves", "f5d6c3").stdout)


def test_the_copied_moves_of_a_handicap_game_start_that_game_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """What ``convert --to moves`` (and ``m``) gives for a handicap game is led by its
    start: --moves, --position and --load each play on from the same board."""
    start = handicap_position(2, Color.BLACK)
    game = Game.from_moves(start, parse_move_list("f5d6c3", start))
    human = PlayerSpec.human()
    record = GameRecord.of(game, {Color.BLACK: human, Color.WHITE: human})
    path = tmp_path / "handicap.pgn"
    path.write_text(write_game(record, "pgn"))
    assert main(["convert", str(path), "--to", "moves"]) == 0
    copied = capsys.readouterr().out.strip()
    assert copied.endswith(" f5d6c3")
    pasted = tmp_path / "copied.txt"
    pasted.write_text(copied + "\n")
    loaded = first_board(plain("--load", str(path)).stdout)
    assert loaded != first_board(plain("--moves", "f5d6c3").stdout)  # the corners count
    for args in (["--moves", copied], ["--position", copied], ["--load", str(pasted)]):
        done = plain(*args)
        assert "Traceback" not in done.stderr and done.returncode == 1, (args, done.stderr)
        assert first_board(done.stdout) == loaded, args


def saved_here(path: Path, game: Game, black: PlayerSpec, white: PlayerSpec) -> Path:
    """A PGN file as Ctrl+S writes it: it says who played."""
    record = GameRecord.of(game, {Color.BLACK: black, Color.WHITE: white})
    path.write_text(write_game(record, "pgn"))
    return path


def test_load_plays_on_with_the_players_the_file_names_as_ctrl_o_does(tmp_path: Path) -> None:
    """A file says who played: --load takes its players, as Ctrl+O does (a file from
    elsewhere: persons by the names it gives, never the previous game's players), and
    --black/--white still name a side."""
    after_f5 = Game.from_moves(None, parse_move_list("f5"))
    ours = saved_here(
        tmp_path / "ours.pgn", after_f5, PlayerSpec.human(), PlayerSpec.computer("easy")
    )
    assert "Computer places W at" in plain("--load", str(ours)).stdout  # White is the computer
    assert "Computer places" not in plain("--load", str(ours), "--white", "human").stdout
    foreign = tmp_path / "foreign.pgn"
    foreign.write_text('[Event "club"]\n[Black "Ann"]\n[White "Bob"]\n\n1. f5 *\n')
    assert "Computer places" not in plain("--load", str(foreign)).stdout
    args = build_parser().parse_args(["--load", str(foreign)])
    named = start_settings(args, start_game(args), "human", "medium")
    assert (named.black, named.white) == (PlayerSpec.person("Ann"), PlayerSpec.person("Bob"))
    bare = tmp_path / "bare.txt"
    bare.write_text("f5d6\n")  # names nobody: the usual players
    args = build_parser().parse_args(["--load", str(bare)])
    usual = start_settings(args, start_game(args), "human", "medium")
    assert (usual.black, usual.white) == (PlayerSpec.human(), PlayerSpec.computer("medium"))


def test_load_in_line_mode_of_a_file_naming_an_engine_never_runs_it(tmp_path: Path) -> None:
    """An engine a file names never runs, whatever its command: a person here plays
    it under the engine's name, said in one line, no traceback."""
    proof = tmp_path / "PWNED"
    path = tmp_path / "engine.pgn"
    path.write_text(
        '[Event "x"]\n[BlackPlayer "human"]\n'
        f'[WhitePlayer "gtp:sh -c touch${{IFS}}{proof}"]\n\n1. f5 *\n'
    )
    done = plain("--load", str(path))
    assert "Traceback" not in done.stderr and done.returncode == 1  # the input ends
    assert not proof.exists()
    assert "(White): an engine named in a file never runs; a person here plays it." in (done.stderr)
    assert "Computer places" not in done.stdout
    path.write_text(path.read_text().replace(f"gtp:sh -c touch${{IFS}}{proof}", "engine:Edax"))
    done = plain("--load", str(path))  # White, a person here, is asked for a move
    assert "Traceback" not in done.stderr and done.returncode == 1
    assert not proof.exists()
    assert "Engine (Edax) (White): an engine named in a file never runs" in done.stderr
    assert "Computer places" not in done.stdout


def test_a_finished_game_loaded_in_the_app_shows_who_played_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = Game()
    while not game.is_over:
        game.play(game.legal_moves[0])
    hard, easy = PlayerSpec.computer("hard"), PlayerSpec.computer("easy")
    path = saved_here(tmp_path / "done.pgn", game, hard, easy)
    shown: list[MatchSettings] = []

    def run(app: ReversiApp, **_: object) -> int:
        shown.append(app.game_screen.match.settings)
        return 0

    monkeypatch.setattr(ReversiApp, "run", run)
    monkeypatch.setattr(sys, "setswitchinterval", lambda _: None)
    args = build_parser().parse_args(["--data-dir", str(tmp_path / "data"), "--load", str(path)])
    assert run_game_app(args, ascii_only=False) == 0
    [settings] = shown
    assert (settings.black, settings.white) == (hard, easy)


def test_load_game_n_plays_on_from_that_game_of_the_file() -> None:
    first, second = (g.record.move_list() for g in read_pgn_all(PLAYOK.read_text()))
    loaded = first_board(plain("--load", str(PLAYOK), "--game", "2").stdout)
    assert loaded == first_board(plain("--moves", second).stdout)
    assert loaded != first_board(plain("--moves", first).stdout)


@pytest.mark.parametrize(
    ("path", "game", "words"),
    [
        (PLAYOK, "3", "the file holds 2 games; there is no game 3"),
        (PLAYOK, "0", "argument --game: must be from 1 to 100000"),
        (PLAYOK, "two", "argument --game: 'two' is not a whole number"),
        (None, "2", "the file holds 1 game; there is no game 2"),
    ],
    ids=["past-the-end", "zero", "words", "one-game"],
)
def test_load_refuses_a_game_number_as_convert_does(
    tmp_path: Path, path: Path | None, game: str, words: str
) -> None:
    if path is None:
        path = tmp_path / "moves.txt"
        path.write_text("f5d6c3\n")
    converted = subprocess.run(
        [
            sys.executable,
            "-m",
            "reversi_tui",
            "convert",
            str(path),
            "--to",
            "moves",
            "--game",
            game,
        ],
        capture_output=True,
        text=True,
        timeout=patience(60),
    )
    loaded = plain("--load", str(path), "--game", game)
    for done in (converted, loaded):
        assert done.returncode in (1, 2) and done.stdout == "" and "Traceback" not in done.stderr
        assert words in done.stderr


def test_game_without_load_is_one_line() -> None:
    done = plain("--game", "2", "--moves", "f5")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    [line] = done.stderr.strip().splitlines()
    assert "--game" in line and "--load" in line


def test_new_and_resume_are_ignored_in_line_mode() -> None:
    done = plain("--new")
    assert "--new is ignored in line mode" in done.stderr


def test_load_refuses_a_fifo_without_waiting_for_a_writer(tmp_path: Path) -> None:
    """Opening a FIFO to read waits for a writer; ``plain`` has a deadline, so a
    regression fails instead of hanging the run."""
    fifo = tmp_path / "game.pgn"
    os.mkfifo(fifo)
    done = plain("--load", str(fifo))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == f"reversi: {fifo} is a FIFO (named pipe), not a game file\n"
