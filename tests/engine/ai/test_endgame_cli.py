"""``reversi solve`` and ``reversi bench solve``: output, errors and purity."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from reversi_tui import parallel_solver
from reversi_tui.cli import main
from reversi_tui.engine.ai import endgame, native_endgame

DATA = Path(__file__).parent.parent.parent / "data"
E12 = (DATA / "endgame_e12.obf").read_text().splitlines()
#: First line of the 12-empty file: d7 is the only best move, +18.
FIRST = E12[0].split(";")[0]
#: Same hand-made position as in test_endgame: white to move must pass, then
#: black's a1 and h1 both reach +62.
PASS_INSIDE = "-OXXXXO-" + "X" * 24 + "XXOXXXXX" + "X" * 24


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert main(["solve", *argv, "--json"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    return json.loads(out)


def test_json_gives_moves_score_nodes_and_seconds(capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(capsys, FIRST)
    assert set(data) == {"moves", "score", "nodes", "seconds"}
    assert data["moves"] == ["d7"]
    assert data["score"] == 18
    assert data["nodes"] > 0
    assert data["seconds"] >= 0


def test_json_all_scores_every_move(capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(capsys, FIRST, "--all")
    assert data["all"]["d7"] == 18
    assert max(data["all"].values()) == 18
    assert sorted(data["all"]) == ["a2", "c6", "d7", "f8", "g7", "g8"]


def test_text_output_names_the_best_move_and_score(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", FIRST]) == 0
    out = capsys.readouterr().out
    assert "best move: d7" in out
    assert "score: +18 for Black" in out
    assert "nodes:" in out


def test_every_tied_best_move_is_listed(capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(capsys, PASS_INSIDE + " X")
    assert data["moves"] == ["a1", "h1"]
    assert data["score"] == 62


def test_a_position_starting_with_a_dash_is_a_position(
    capsys: pytest.CaptureFixture[str],
) -> None:
    line = E12[1].split(";")[0]
    assert line.startswith("-")
    data = _json(capsys, line)
    assert data["score"] == 26


def test_must_pass_is_solved_after_the_pass(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", PASS_INSIDE + " O"]) == 0
    out = capsys.readouterr().out
    assert "White has no legal move and must pass" in out
    assert "Black's best moves after the pass: a1, h1" in out
    assert "score: -62 for White" in out
    data = _json(capsys, PASS_INSIDE + " O")
    assert data == {**data, "moves": ["pass"], "score": -62, "replies": ["a1", "h1"]}


def test_game_over_prints_the_final_score_and_no_move(capsys: pytest.CaptureFixture[str]) -> None:
    # Black 63 discs, h1 empty, white none: black wins 64-0.
    data = _json(capsys, "X" * 7 + "-" + "X" * 56 + " O")
    assert data["moves"] == []
    assert data["score"] == -64


@pytest.mark.parametrize("text", ["", "X" * 64, "X" * 63 + "? X", "nonsense X"])
def test_bad_position_is_one_line_on_stderr_and_exit_2(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    assert main(["solve", text]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1
    assert "Traceback" not in captured.err


def test_solve_does_not_import_textual() -> None:
    code = (
        "import sys; from reversi_tui.cli import main; "
        f"rc = main(['solve', {FIRST!r}, '--json']); "
        "assert rc == 0; assert 'textual' not in sys.modules, 'textual imported'"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["moves"] == ["d7"]


def test_bench_solve_checks_every_position(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "solve", str(DATA / "endgame_e12.obf"), "--limit", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    float(out[0])  # the median seconds, for scripts
    assert sum(" OK" in line for line in out) == 3
    assert "3 positions" in out[-1]
    assert "0 mismatches" in out[-1]


def test_bench_solve_reports_a_wrong_reference(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    wrong = tmp_path / "wrong.obf"
    wrong.write_text(FIRST + "; D7:+20;\n")
    assert main(["bench", "solve", str(wrong)]) == 1
    out = capsys.readouterr().out
    assert "MISMATCH: expected +20" in out
    assert "1 mismatches" in out


def test_bench_solve_accepts_an_unlisted_move_of_equal_score(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Both a1 and h1 reach +62; the file names only one of them.
    partial = tmp_path / "partial.obf"
    partial.write_text(f"{PASS_INSIDE} X; A1:+62;\n{PASS_INSIDE} X; H1:+62;\n")
    assert main(["bench", "solve", str(partial)]) == 0
    assert "0 mismatches" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("content", "message"),
    [(None, "cannot read"), ("not a position\n", "line 1"), (FIRST + "; D7+18;\n", "MOVE:SCORE")],
)
def test_bench_solve_bad_input_is_a_clear_message(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str | None, message: str
) -> None:
    path = tmp_path / "positions.obf"
    if content is not None:
        path.write_text(content)
    assert main(["bench", "solve", str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err


@pytest.fixture
def split_from_ten(monkeypatch: pytest.MonkeyPatch) -> None:
    """Solves of 10+ empties go to the workers (the 12-empty file is then split)."""
    if not parallel_solver.can_fork():
        pytest.skip("needs fork")
    monkeypatch.setattr(parallel_solver, "PARALLEL_EMPTIES", 10)
    monkeypatch.setattr(parallel_solver, "PARALLEL_EMPTIES_C", 10)


@pytest.mark.usefixtures("split_from_ten")
def test_jobs_split_a_solve_and_give_the_serial_answer(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    forked: list[int] = []
    real_fork = parallel_solver.ParallelSolver._fork

    def fork(self: parallel_solver.ParallelSolver) -> None:
        forked.append(self.jobs)
        real_fork(self)

    monkeypatch.setattr(parallel_solver.ParallelSolver, "_fork", fork)
    for line in E12[:3]:
        position = line.split(";")[0]
        assert (
            _json(capsys, position, "--all", "--jobs", "2")["all"]
            == (_json(capsys, position, "--all", "--jobs", "1")["all"])
        )
    assert forked == [2, 2, 2]


@pytest.mark.usefixtures("split_from_ten")
def test_bench_solve_with_jobs_says_how_many_processes(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["bench", "solve", str(DATA / "endgame_e12.obf"), "--limit", "3", "--jobs", "2"]) == 0
    )
    out = capsys.readouterr().out
    assert "(2 processes, " in out and "0 mismatches" in out
    assert (
        main(["bench", "solve", str(DATA / "endgame_e12.obf"), "--limit", "3", "--jobs", "1"]) == 0
    )
    assert "CPU: median" in capsys.readouterr().out


@pytest.fixture
def solver_kept() -> Iterator[None]:
    """``--solver`` sets the process's solver: put it back for the next tests."""
    before = endgame.solver_name()
    yield
    endgame.use_solver(before)


@pytest.mark.usefixtures("solver_kept")
def test_solver_option_gives_the_same_answer_with_either_solver(
    capsys: pytest.CaptureFixture[str],
) -> None:
    solvers = ["python", *(["c"] if native_endgame.MODULE is not None else [])]
    answers = [_json(capsys, FIRST, "--all", "--solver", name) for name in solvers]
    assert all(answer["all"] == answers[0]["all"] for answer in answers)
    assert answers[0]["moves"] == ["d7"] and answers[0]["score"] == 18
    for name in solvers:
        args = ["bench", "solve", str(DATA / "endgame_e12.obf"), "--limit", "2", "--solver", name]
        assert main(args) == 0
        assert f"{'C' if name == 'c' else 'Python'} solver)" in capsys.readouterr().out


@pytest.mark.usefixtures("solver_kept")
def test_the_c_solver_where_it_was_not_built_is_a_clear_message(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(native_endgame, "MODULE", None)
    monkeypatch.setattr(native_endgame, "UNAVAILABLE", "the C module was not built: reinstall")
    assert main(["solve", FIRST, "--solver", "c"]) == 2
    err = capsys.readouterr().err
    assert err == "reversi solve: the C module was not built: reinstall; use --solver python\n"
    assert main(["bench", "solve", str(DATA / "endgame_e12.obf"), "--solver", "c"]) == 2
    assert capsys.readouterr().err.startswith("reversi bench solve: the C module was not built")
