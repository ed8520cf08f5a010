"""``reversi analyse``: the table, JSON, the cache, the annotated game, and one line
for whatever cannot be analysed.

The games are endgames (12 empty squares, every value exact, so the classes are
known) or a few opening moves at a tiny budget: each run takes well under a second.
"""

from __future__ import annotations

import io
import json
import os
import pty
import re
import signal
import sys
from pathlib import Path
from typing import Any

import pytest

from reversi_tui.cli import main
from reversi_tui.engine import PASS, Position, parse_position, parse_square, square_name
from reversi_tui.engine.ai import endgame
from reversi_tui.records.formats import read_game
from reversi_tui.records.ggf import read_ggf
from reversi_tui.records.pgn import read_pgn
from tests.ptys import read_until, reap

#: Random play from 12 empty squares: an inaccuracy, blunders, mistakes and a forced
#: last move, every value exact (the numbers below are the solver's).
ENDGAME = (
    "XOOOO---XOOO--X-XOOOO-XXXOOXO-X-XXXXXXX-OXOOXOOOOXXXOOXOOX-XXXX- X f2g1f4h8h5f3h1h4f1c8h2e2"
)
#: Another, with two forced passes (12 squares, 14 plies) and moves that turned the
#: result (a won position thrown into a loss).
WITH_PASSES = (
    "--XXXX-XX-OOX-X-XOOXXOOOXOXXXOOXXOOOXOO-XOXOXO-OXOOXXO--XO-XXXX- X g7c8h5g6h2h7h8g1b2f2a1b1"
)
OPENING = "f5d6c3d3c4f4"
QUICK = ("--time-per-move", "0.02")
CLASSES = {"best", "good", "inaccuracy", "mistake", "blunder", "forced"}
MOVE_FIELDS = {
    "ply",
    "color",
    "played",
    "best",
    "played_value",
    "best_value",
    "loss",
    "exact",
    "depth",
    "class",
    "turned",
    "accuracy",
    "pv",
    "values",
}


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The cache goes to a directory of the test's own, never the user's."""
    path = tmp_path / "data"
    monkeypatch.setenv("REVERSI_DATA_DIR", str(path))
    return path


def analyse(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["analyse", *args])
    out, err = capsys.readouterr()
    return status, out, err


def rows(out: str) -> list[list[str]]:
    """The moves table's rows: those led by a ply number."""
    return [line.split() for line in out.splitlines() if re.match(r"^\s*\d+\s+(Black|White)", line)]


# The table ----------------------------------------------------------------------------


def test_the_table_of_an_endgame(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = analyse(capsys, ENDGAME)
    assert (status, err) == (0, "")
    table = rows(out)
    assert [row[0] for row in table] == [str(n) for n in range(1, 13)]
    # ply, side, played, value, best, best value, loss, class, exact
    assert table[0][:9] == ["1", "Black", "f2", "-20", "h5", "-16", "4", "inaccuracy", "yes"]
    assert table[1][:9] == ["2", "White", "g1", "+2", "e2", "+20", "18", "blunder", "yes"]
    assert table[2][:8] == ["3", "Black", "f4", "-2", "f4", "-2", "best", "yes"]
    assert table[9][7] == "mistake" and table[11][6] == "forced"  # no loss: one cell fewer
    assert "mean loss" in out and "accuracy" in out
    blunders = next(line.split() for line in out.splitlines() if line.strip().startswith("blunder"))
    assert blunders == ["blunder", "1", "1"]
    assert "The game turned at move 5 (Black h5: -14 blunder, loss 12, best f1)." in out
    assert "Final value for Black: -10 (exact)." in out
    assert re.search(r"Analysed in \d+\.\d s \(0\.35 s a position at hard", out)
    assert "\x1b[" not in out  # plain words when not a terminal


def test_the_table_of_an_opening_from_a_move_list(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = analyse(capsys, OPENING, *QUICK, "--level", "medium")
    assert (status, err) == (0, "")
    table = rows(out)
    assert [(row[0], row[1], row[2]) for row in table] == [
        ("1", "Black", "f5"),
        ("2", "White", "d6"),
        ("3", "Black", "c3"),
        ("4", "White", "d3"),
        ("5", "Black", "c4"),
        ("6", "White", "f4"),
    ]
    assert all(set(row) & CLASSES for row in table)
    assert all(re.fullmatch(r"[+-]\d+\.\d", row[3]) for row in table)  # estimates: a decimal
    assert "yes" not in out  # nothing exact 54 squares from the end
    assert "0.02 s a position at medium" in out


def test_passes_are_rows_of_their_own(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = analyse(capsys, WITH_PASSES)
    assert status == 0
    table = rows(out)
    assert len(table) == 14
    assert table[10] == ["11", "Black", "pass", "forced"]
    # A result thrown away is said under the class.
    lines = out.splitlines()
    third = next(i for i, line in enumerate(lines) if line.split()[:3] == ["3", "Black", "h5"])
    assert lines[third + 1].split() == ["win->loss"]
    assert "The game turned at move 3 (Black h5: -14 blunder (win->loss), loss 32, best h2)." in out


def test_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pgn = f'[Black "ann"]\n[White "bob"]\n[Position "{ENDGAME[:66]}"]\n\n1. f2 g1 2. f4 h8 *\n'
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(pgn.encode())))
    status, out, _ = analyse(capsys, "-")
    assert status == 0
    assert "Black: ann   White: bob" in out
    assert [row[2] for row in rows(out)] == ["f2", "g1", "f4", "h8"]


def test_a_file_wins_over_a_move_list_of_its_name(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("f5d6").write_text("f5f6\n")
    status, out, _ = analyse(capsys, "f5d6", *QUICK)
    assert status == 0 and [row[2] for row in rows(out)] == ["f5", "f6"]


# JSON ---------------------------------------------------------------------------------


def as_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    status, out, err = analyse(capsys, *args, "--json")
    assert (status, err) == (0, "")
    data: dict[str, Any] = json.loads(out)
    return data


def test_json_has_every_documented_field(capsys: pytest.CaptureFixture[str]) -> None:
    data = as_json(capsys, WITH_PASSES)
    assert set(data) == {
        "format",
        "options",
        "seconds",
        "final",
        "turning_point",
        "sides",
        "moves",
        "game",
        "cached",
    }
    assert data["format"] == 1 and data["cached"] is False
    exact = 20 if endgame.solver_name() == "c" else 16
    assert data["options"] == {"time_per_move": 0.35, "level": "hard", "exact_empties": exact}
    assert data["final"] == {"black_value": -12.0, "exact": True}
    assert data["game"] == {
        "black": None,
        "white": None,
        "start": WITH_PASSES[:66],
        "moves": [m["played"] for m in data["moves"]],
        "opening": None,  # from another start: no opening has a name there
    }
    assert len(data["moves"]) == 14  # one entry a ply, the two passes included
    assert [m["ply"] for m in data["moves"]] == list(range(1, 15))
    assert all(set(m) == MOVE_FIELDS for m in data["moves"])
    assert data["moves"][10]["played"] == "pass" and data["moves"][10]["class"] == "forced"
    third = data["moves"][2]
    assert (third["played"], third["best"], third["loss"]) == ("h5", "h2", 32.0)
    assert (third["class"], third["turned"], third["exact"]) == ("blunder", "win->loss", True)
    assert data["turning_point"] == 3  # the "ply" of the move where it turned: the third
    for side in ("black", "white"):
        account = data["sides"][side]
        assert set(account) == {"moves", "counts", "mean_loss", "accuracy"}
        assert set(account["counts"]) == CLASSES
    assert data["sides"]["black"]["counts"]["blunder"] == 3


def test_json_names_the_players_a_file_gives(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.pgn"
    path.write_text(f'[Black "ann"]\n[White "bob"]\n\n1. {OPENING[:2]} {OPENING[2:4]} *\n')
    data = as_json(capsys, str(path), *QUICK)
    assert data["game"]["black"] == "ann" and data["game"]["white"] == "bob"
    assert data["game"]["start"] == "-" * 27 + "OX------XO" + "-" * 27 + " X"
    assert data["game"]["moves"] == ["f5", "d6"]


# The cache ----------------------------------------------------------------------------


@pytest.fixture
def searches(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the games ``analyse_game`` is asked to analyse."""
    from reversi_tui.engine.ai import analysis

    calls: list[int] = []
    real = analysis.analyse_game

    def counted(*args: Any, **kwargs: Any) -> analysis.GameAnalysis:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(analysis, "analyse_game", counted)
    return calls


def test_the_second_look_comes_from_the_cache(
    capsys: pytest.CaptureFixture[str], data_dir: Path, searches: list[int]
) -> None:
    first = as_json(capsys, ENDGAME)
    assert len(searches) == 1 and first["cached"] is False
    assert len(list((data_dir / "analyses").glob("*.json"))) == 1
    second = as_json(capsys, ENDGAME)
    assert len(searches) == 1 and second["cached"] is True
    assert second["moves"] == first["moves"] and second["turning_point"] == first["turning_point"]
    status, out, _ = analyse(capsys, ENDGAME)
    assert status == 0 and len(searches) == 1 and "Shown from the cache." in out
    # Other options are another analysis.
    as_json(capsys, ENDGAME, "--level", "medium")
    assert len(searches) == 2
    assert len(list((data_dir / "analyses").glob("*.json"))) == 2


def test_no_cache_neither_reads_nor_writes(
    capsys: pytest.CaptureFixture[str], data_dir: Path, searches: list[int]
) -> None:
    as_json(capsys, ENDGAME)
    assert as_json(capsys, ENDGAME, "--no-cache")["cached"] is False
    assert len(searches) == 2
    as_json(capsys, WITH_PASSES, "--no-cache")
    assert len(list((data_dir / "analyses").glob("*.json"))) == 1


def test_an_unwritable_cache_is_a_warning(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    status, out, err = analyse(capsys, ENDGAME, "--data-dir", str(blocker))
    assert status == 0 and "The game turned at move 5" in out
    [line] = err.splitlines()
    assert line.startswith("reversi analyse: the analysis was not kept:")


# The annotated game -------------------------------------------------------------------


def test_annotated_pgn_reads_back(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = analyse(capsys, WITH_PASSES, "--annotate", "pgn")
    assert (status, err) == (0, "")
    assert '[Annotator "reversi_tui analysis"]' in out
    flat = " ".join(out.split())
    # Each error as the table says it: its value, class, loss and the best move.
    assert (
        "1. g7 {+18 blunder, loss 30, best c8} 1... c8 "
        "2. h5 {-14 blunder (win->loss), loss 32, best h2}" in flat
    )
    # No comment on a best move, nor on a forced one.
    assert (
        "3. h2 h7 {-22 mistake, loss 8, best h8} 4. h8 g1 "
        "5. b2 {-12 blunder (win->loss), loss 34, best f2}" in flat
    )
    assert flat.endswith("5... f2 6. -- a1 7. -- b1 26-38")
    back = read_pgn(out)
    start = parse_position(WITH_PASSES[:66])
    assert back.record.start == start
    assert [square_name(m) for m in back.record.moves if m != PASS] == [
        WITH_PASSES[67:][i : i + 2] for i in range(0, 24, 2)
    ]
    assert back.tags["Annotator"] == "reversi_tui analysis"
    assert back.record.result is not None and back.record.result.final_score == (26, 38)


def test_annotated_ggf_reads_back(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = analyse(capsys, ENDGAME, "--annotate", "ggf")
    assert (status, err) == (0, "")
    assert "B[f2/-20.00]W[g1/2.00]B[f4/-2.00]" in out
    back = read_ggf(out)
    assert back.record.start == parse_position(ENDGAME[:66])
    assert "".join(square_name(m) for m in back.record.moves) == ENDGAME[67:]


def test_annotated_ggf_leaves_a_pass_without_a_value(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = analyse(capsys, WITH_PASSES, "--annotate", "ggf")
    assert status == 0 and "B[PA]W[a1/12.00]B[PA]" in out
    assert read_ggf(out).record.moves == read_game(WITH_PASSES).record.moves


def test_the_writers_take_the_annotations_ply_by_ply() -> None:
    """From a start with White to move, with a comment on White's first move and on a
    Black move: the numbering stays PGN's, and the text reads back."""
    from reversi_tui.engine import Game
    from reversi_tui.match.record import GameRecord
    from reversi_tui.match.settings import PlayerSpec
    from reversi_tui.records.game_text import parse_date, record_of
    from reversi_tui.records.ggf import write_ggf
    from reversi_tui.records.pgn import write_pgn

    start = Position.initial().play(37)  # f5: White to move
    game = Game.from_moves(start, [43, 18, 19])  # d6 c3 d3
    record: GameRecord = record_of(game, PlayerSpec.human(), PlayerSpec.human(), parse_date(None))
    plain = write_pgn(record)
    assert write_pgn(record, comments=None) == plain
    assert write_pgn(record, comments=[None] * 3) == plain
    text = write_pgn(record, comments=["a } b", "", "c"])
    assert text.endswith("1... d6 {a ) b} 2. c3 d3 {c} *\n")
    assert read_pgn(text).record.moves == record.moves
    assert write_ggf(record, evaluations=None) == write_ggf(record)
    ggf = write_ggf(record, evaluations=[1.5, None, -0.25])
    assert "W[d6/1.50]B[c3]W[d3/-0.25]" in ggf
    assert read_ggf(ggf).record.moves == record.moves
    with pytest.raises(ValueError, match="2 comments for 3 plies"):
        write_pgn(record, comments=["a", "b"])
    with pytest.raises(ValueError, match="1 evaluations for 3 plies"):
        write_ggf(record, evaluations=[1.0])


# What cannot be analysed: one line, no traceback --------------------------------------


@pytest.mark.parametrize(
    ("args", "content", "status", "words"),
    [
        (["{file}"], None, 2, "cannot read"),
        (["{file}"], bytes(range(256)), 2, "binary"),
        (["{file}"], b"", 2, "not a game file"),
        (["{file}"], b"1. f5 d6 2. c3 c3\n", 2, "move 4 (c3) is not legal"),
        (["f5d6c3c3"], None, 2, "not a legal move list: move 4 (c3) is not legal"),
        (["f5d6z9"], None, 2, "neither a file nor a move list"),
        (["{file}"], b'[Black "a"]\n\n*\n', 1, "no moves to analyse"),
        ([ENDGAME[:66]], None, 1, "no moves to analyse"),
        (["f5", "--time-per-move", "0"], None, 2, "--time-per-move must be from 0.01 to 600"),
        (["f5", "--time-per-move", "601"], None, 2, "--time-per-move must be from 0.01"),
        (["f5", "--time-per-move", "soon"], None, 2, "not 'soon'"),
        (["f5", "--level", "grandmaster"], None, 2, "--level must be one of easy, medium"),
        (["f5", "--game", "2"], None, 2, "a move list is one game"),
    ],
    ids=[
        "missing-file",
        "binary-file",
        "empty-file",
        "illegal-file",
        "illegal-move-list",
        "not-moves",
        "game-without-moves",
        "position-without-moves",
        "no-time",
        "too-much-time",
        "time-not-a-number",
        "unknown-level",
        "second-game-of-a-move-list",
    ],
)
def test_what_cannot_be_analysed_is_one_line(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    searches: list[int],
    args: list[str],
    content: bytes | None,
    status: int,
    words: str,
) -> None:
    path = tmp_path / "game.pgn"
    if content is not None:
        path.write_bytes(content)
    got, out, err = analyse(capsys, *(arg.format(file=path) for arg in args))
    assert (got, out) == (status, "")
    [line] = err.splitlines()
    assert line.startswith("reversi analyse: ") and words in line
    assert "Traceback" not in err and not searches


def test_the_defaults_are_the_analysis_s() -> None:
    """The help names the defaults without importing the search: they must agree."""
    from reversi_tui.commands import analyse as command
    from reversi_tui.engine.ai.analysis import AnalysisOptions

    defaults = AnalysisOptions()
    assert defaults.time_per_move == command.DEFAULT_TIME_PER_MOVE
    assert defaults.level == command.DEFAULT_LEVEL


# In a terminal: the progress line, and Ctrl+C -------------------------------------------


def test_progress_in_a_terminal_and_ctrl_c_stops_at_once(data_dir: Path) -> None:
    """In a pseudo-terminal: ``analysing: n/total`` on standard error while it works;
    SIGINT then ends it at once with one line and status 130, and nothing is cached."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: the command, its streams on the terminal
        os.execv(
            sys.executable,
            [sys.executable, "-m", "reversi_tui", "analyse", OPENING, "--time-per-move", "2"],
        )
    try:
        seen = read_until(fd, b"analysing: 1/6", limit=60)
        assert b"analysing: 1/6" in seen, seen
        os.kill(pid, signal.SIGINT)
        rest = read_until(fd, None, limit=10)
    finally:
        status = reap(pid)
        os.close(fd)
    assert status == 130, seen + rest
    text = rest.decode(errors="replace")
    assert "reversi analyse: interrupted" in text and "Traceback" not in text
    assert text.lstrip("\r ").count("\n") <= 1  # the progress line cleared, one line more
    assert not (data_dir / "analyses").exists()


def test_data_dir_and_game_mean_the_same_before_or_after_the_command() -> None:
    from reversi_tui.cli import build_parser

    parse = build_parser().parse_args
    assert parse(["--data-dir", "/top", "analyse", "x"]).data_dir == "/top"
    assert parse(["--data-dir", "/top", "analyse", "x", "--data-dir", "/sub"]).data_dir == "/sub"
    assert parse(["--game", "3", "analyse", "x"]).game == 3
    assert parse(["--game", "3", "analyse", "x", "--game", "2"]).game == 2
    assert parse(["analyse", "x"]).game is None


def test_the_second_game_of_a_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "two.pgn"
    path.write_text("1. f5 d6 *\n\n1. f5 f6 2. e6 *\n")
    status, out, _ = analyse(capsys, str(path), "--game", "2", *QUICK)
    assert status == 0 and [row[2] for row in rows(out)] == ["f5", "f6", "e6"]
    status, _, err = analyse(capsys, str(path), "--game", "3", *QUICK)
    assert status == 2 and "there is no game 3" in err


# Faults a newcomer hit (issue 30) -----------------------------------------------------


def resigned_game(tmp_path: Path, plies: int, result: str, termination: str) -> Path:
    """ENDGAME's first ``plies`` moves as a PGN file that ended by ``termination``."""
    moves = ENDGAME[67:][: 2 * plies]
    text = " ".join(moves[i : i + 2] for i in range(0, len(moves), 2))
    path = tmp_path / "resigned.pgn"
    path.write_text(
        f'[Position "{ENDGAME[:66]}"]\n[Result "{result}"]\n[Termination "{termination}"]\n\n'
        f"{text} {result}\n"
    )
    return path


@pytest.mark.parametrize("termination", ["resignation", "time forfeit"])
def test_a_game_ended_early_turns_on_the_loser_s_move(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, termination: str
) -> None:
    """After eight plies Black is 10 discs behind (exact) but White resigned (or ran
    out of time): Black won, so the turning point is White's costliest move (g1, a
    blunder of 18), never Black's h5, which the final value alone would blame."""
    path = resigned_game(tmp_path, 8, "40-24", termination)
    data = as_json(capsys, str(path))
    assert data["final"]["black_value"] < 0  # the board says Black is losing
    turned = data["moves"][data["turning_point"] - 1]
    assert turned["color"] == "white" and turned["played"] == "g1"
    status, out, _ = analyse(capsys, str(path))
    assert status == 0
    assert "The game turned at move 2 (White g1: +2 blunder, loss 18, best e2)." in out
    # Played out, the same moves turn on Black's blunder: the result decides, not the cache.
    assert as_json(capsys, ENDGAME)["turning_point"] == 5


def test_the_opening_is_named_in_the_table_and_the_json(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from reversi_tui.engine.openings import opening_for

    expected = opening_for([parse_square(OPENING[i : i + 2]) for i in range(0, 12, 2)])
    assert expected is not None
    status, out, _ = analyse(capsys, OPENING, *QUICK)
    assert status == 0
    assert f"Opening: {expected.name}" in out.splitlines()
    assert as_json(capsys, OPENING, *QUICK)["game"]["opening"] == expected.name
    _, endgame_out, _ = analyse(capsys, ENDGAME)
    assert "Opening:" not in endgame_out  # another start has no opening


def test_every_line_fits_80_columns(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Long names, an opening, results turned under the class, the cache's line and
    estimates at expert: nothing goes past column 80, and nothing wraps (each ply is
    one row, a turned result one more)."""
    monkeypatch.setenv("COLUMNS", "80")
    path = tmp_path / "named.pgn"
    moves = " ".join(OPENING[i : i + 2] for i in range(0, len(OPENING), 2))
    path.write_text(f'[Black "{"Ann " * 20}"]\n[White "{"Bob " * 20}"]\n\n{moves} *\n')
    for source, args in (
        (WITH_PASSES, ()),
        (WITH_PASSES, ()),  # from the cache
        (str(path), (*QUICK, "--level", "expert")),
        (ENDGAME, ()),
    ):
        status, out, _ = analyse(capsys, source, *args)
        assert status == 0
        lines = out.splitlines()
        assert max(len(line) for line in lines) <= 80, out
        table = rows(out)
        under = [line for line in lines if re.fullmatch(r"\s+\S+->\S+\s*", line)]
        header = next(i for i, line in enumerate(lines) if line.split()[:2] == ["#", "Side"])
        body = lines[header + 2 : header + 2 + len(table) + len(under)]
        assert len(table) == len(rows("\n".join(body)))  # no row wrapped onto another line


def test_a_narrow_table_cuts_the_best_line_instead_of_wrapping() -> None:
    """At 70 columns the best line is cut with an ellipsis: each ply stays one line."""
    from rich.console import Console

    from reversi_tui.commands.analyse import moves_table
    from reversi_tui.engine.ai.analysis import AnalysisOptions, analyse_game

    source = read_game(ENDGAME)
    analysis = analyse_game(
        source.record.start, tuple(source.record.game().moves), AnalysisOptions()
    )
    console = Console(width=70, file=io.StringIO(), color_system=None)
    with console.capture() as captured:
        console.print(moves_table(analysis))
    lines = captured.get().splitlines()
    assert len(lines) == 2 + len(analysis.reviews)
    assert max(len(line) for line in lines) <= 70
    assert "…" in captured.get()


def test_one_number_per_move_in_the_table_the_screen_and_the_pgn(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """h5 (ply 5) is worth -14 to Black, the best move f1 -2: the table, the analysis
    screen and the PGN comment all say -14, and call 12 the loss."""
    from reversi_tui.engine.ai.analysis import analyse_game
    from reversi_tui.tui.screens.analysis import best_words, move_headline

    source = read_game(ENDGAME)
    analysis = analyse_game(source.record.start, tuple(source.record.game().moves))
    review = analysis.reviews[4]
    assert move_headline(review, 5).plain == "Move 5, Black h5: -14 (blunder)"
    assert best_words(review) == "best f1 -2, exact; loss 12"
    _, out, _ = analyse(capsys, ENDGAME)
    assert rows(out)[4][:7] == ["5", "Black", "h5", "-14", "f1", "-2", "12"]
    _, pgn, _ = analyse(capsys, ENDGAME, "--annotate", "pgn")
    assert "h5 {-14 blunder, loss 12, best f1}" in " ".join(pgn.split())


def test_the_readme_says_from_how_many_empties_the_analysis_is_exact() -> None:
    """The README, the in-app help and ``--help`` give the numbers the analysis uses."""
    from reversi_tui.engine.ai.analysis import EXACT_EMPTIES_C, EXACT_EMPTIES_PYTHON
    from reversi_tui.tui.screens.help import ANALYSIS_NOTES

    readme = Path(__file__).resolve().parents[1] / "README.md"
    section = readme.read_text().split("### Analysing a game", 1)[1].split("\n## ", 1)[0]
    said = " ".join(section.split())
    assert f"from {EXACT_EMPTIES_C} empty squares on ({EXACT_EMPTIES_PYTHON} where" in said
    help_words = " ".join(ANALYSIS_NOTES)
    assert f"from {EXACT_EMPTIES_C} empty squares, {EXACT_EMPTIES_PYTHON} with the Python" in (
        help_words
    )
