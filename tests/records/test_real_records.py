"""Records published elsewhere (tests/data/records), read, checked and converted.

The GGF games come from the Generic Game Server's archive (as NBoard's and other
programs' test suites quote them): times and evaluations after the squares, passes
written ``pass`` and ``PA``, GGS's two-game synchro lines (``2 (;...)(;...)``), and
random starts (``TY[s8r18]``, one with White to move). The PGN file is two games
as PlayOK (kurnik) exports them, the second with passes written ``--``. Each
file's own result (``RE``, ``Result``) is checked against the replayed board.
"""

from __future__ import annotations

import re
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from reversi_tui.engine import PASS, Color, Position, format_position
from reversi_tui.records.formats import read_game, write_game
from reversi_tui.records.ggf import read_ggf, read_ggf_all
from reversi_tui.records.pgn import read_pgn_all

RECORDS = Path(__file__).parent.parent / "data" / "records"
GGF_FILES = sorted(RECORDS.glob("*.ggf"))


def ggf_re(text: str, index: int = 0) -> float:
    """The ``RE`` a GGF game gives: Black's disc difference."""
    games = re.findall(r"\(;.*?;\)", text, re.DOTALL)
    found = re.search(r"RE\[([-+0-9.]+)\]", games[index])
    assert found is not None
    return float(found[1])


def test_the_records_are_there() -> None:
    assert len(GGF_FILES) == 4
    assert (RECORDS / "playok-2014-10-19.pgn").is_file()


@pytest.mark.parametrize("path", GGF_FILES, ids=lambda p: p.stem)
def test_every_ggs_game_replays_to_its_written_result(path: Path) -> None:
    text = path.read_text()
    games = read_ggf_all(text)
    assert games
    for index, imported in enumerate(games):
        final = imported.record.game()
        assert final.is_over
        outcome = final.outcome()
        assert outcome is not None
        assert outcome.black - outcome.white == ggf_re(text, index)
        assert imported.tags["Black"] == re.findall(r"PB\[([^\]]*)\]", text)[index]


def test_a_draw_with_a_written_pass() -> None:
    game = read_game((RECORDS / "ggs-2003-saio1200-saio3000.ggf").read_text())
    played = game.record.game()
    assert [p.move for p in played.plies].count(PASS) == 1
    assert game.record.result is not None and game.record.result.winner is None
    assert (game.tags["Black"], game.tags["White"]) == ("Saio1200", "Saio3000")
    assert game.record.started == datetime(2003, 12, 15, 13, 24, 3, tzinfo=UTC)
    assert len([m for m in game.record.moves if m != PASS]) == 60


def test_upper_case_squares_evals_and_two_passes() -> None:
    game = read_game((RECORDS / "ggs-2000-fangr-patzer.ggf").read_text())
    assert game.record.moves[:3] == (44, 29, 18)  # E6 F4 C3
    assert game.record.result is not None
    assert (game.record.result.discs.black, game.record.result.discs.white) == (12, 52)
    assert game.tags["Date"] == "2000.04.16"


def test_a_synchro_line_holds_two_games_from_a_random_start() -> None:
    text = (RECORDS / "ggs-2009-synchro-edax-roxane.ggf").read_text()
    first, second = read_ggf(text, 0), read_ggf(text, 1)
    start = Position.initial()
    assert first.record.start == second.record.start != start
    discs = first.record.start.black.bit_count() + first.record.start.white.bit_count()
    assert discs == 18  # TY[s8r18]
    assert (first.tags["Black"], second.tags["Black"]) == ("edax", "Roxane")
    assert PASS in second.record.moves  # B[PA]


def test_a_random_start_with_white_to_move() -> None:
    game = read_game((RECORDS / "ggs-2011-s8r19-saio7000-saioquad.ggf").read_text())
    assert format_position(game.record.start).endswith(" O")
    assert game.record.game().plies[0].color.name == "WHITE"


def test_playok_pgn_with_passes_written_as_dashes() -> None:
    first, second = read_pgn_all((RECORDS / "playok-2014-10-19.pgn").read_text())
    for game in first, second:
        assert game.record.result is not None
        assert (game.record.result.discs.black, game.record.result.discs.white) == (37, 27)
    assert first.tags["Black"] == "t7m4o1k9a" and second.tags["White"] == "cosmostan"
    assert first.record.started == datetime(2014, 10, 19, 7, 31, 22, tzinfo=UTC)
    squares = [m for m in second.record.moves if m != PASS]
    assert second.record.moves.count(PASS) == 2 and len(squares) == 60
    assert not first.ours and not second.ours


ALL_FILES = [*GGF_FILES, RECORDS / "playok-2014-10-19.pgn"]


@pytest.mark.parametrize("path", ALL_FILES, ids=lambda p: p.name)
@pytest.mark.parametrize("fmt", ["pgn", "ggf"])
def test_each_record_converts_and_reads_back_the_same(path: Path, fmt: str) -> None:
    imported = read_game(path.read_text())
    text = write_game(imported.record, fmt, imported.tags, players=imported.ours)
    again = read_game(text)
    assert again.record.start == imported.record.start
    assert again.record.game().plies == imported.record.game().plies
    assert again.tags["Black"] == imported.tags["Black"]
    assert again.tags["White"] == imported.tags["White"]
    assert again.record.started.date() == imported.record.started.date()
    if fmt == "pgn":
        assert "BlackPlayer" not in text  # who they were is not known: not claimed
        assert "[GM " not in text and "[PB " not in text  # said once, by PGN's own tags
    else:
        assert text.count("PB[") == 1 and "PC[" in text


def test_our_pgn_writes_passes_as_playok_does() -> None:
    """A forced pass is written ``--`` in its place, so Black's move after White's pass
    is numbered as Black's: the movetext is PlayOK's own, word for word."""
    text = (RECORDS / "playok-2014-10-19.pgn").read_text()
    second = read_pgn_all(text)[1]
    written = write_game(second.record, "pgn", second.tags, players=False)
    theirs = text.rstrip().split("\n\n")[-1].split()
    assert written.split("\n\n", 1)[1].split() == theirs
    assert "29. a6 -- 30. a8 -- 31. g8 g7 37-27" in " ".join(theirs)
    assert read_game(written).record.game().plies == second.record.game().plies


@pytest.mark.parametrize("path", ALL_FILES, ids=lambda p: p.name)
def test_each_pair_of_our_pgn_is_blacks_move_then_whites(path: Path) -> None:
    """``N.`` starts Black's move and White's follows; ``N...`` (a start with White to
    move) is White's; every ply is written, a pass as ``--``."""
    imported = read_game(path.read_text())
    written = write_game(imported.record, "pgn", imported.tags, players=imported.ours)
    *words, _result = written.split("\n\n", 1)[1].split()
    plies = imported.record.game().plies
    index, number, colour = 0, 0, Color.BLACK
    for word in words:
        if numbered := re.fullmatch(r"(\d+)(\.+)", word):
            assert int(numbered[1]) == number + 1
            number += 1
            colour = Color.BLACK if numbered[2] == "." else Color.WHITE
            continue
        ply = plies[index]
        assert (ply.color, ply.is_pass) == (colour, word == "--"), (index, word)
        index, colour = index + 1, colour.opponent
    assert index == len(plies)


def test_convert_picks_the_second_game_of_a_file() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "reversi_tui",
            "convert",
            "--game",
            "2",
            "--to",
            "moves",
            str(RECORDS / "playok-2014-10-19.pgn"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("f5d6c3d3c4f4c5b3c2e3")
    assert len(done.stdout.strip()) == 120
