"""``reversi move`` and ``reversi arena``: output formats, errors, and no Textual import."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from reversi_tui.cli import main
from reversi_tui.engine import format_position, parse_position

START = "---------------------------OX------XO--------------------------- X"
# White cannot take a1, the only empty square (black can): the answer is a pass.
WHITE_PASSES = "-OXXXXXX" + "X" * 56 + " O"


def test_move_prints_one_json_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["move", START, "--depth", "3", "--json"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    data = json.loads(out)
    assert list(data) == ["move", "score", "depth", "nodes", "seconds"]
    assert data["move"] in {"d3", "c4", "f5", "e6"}
    assert data["depth"] == 3


def test_move_human_readable(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["move", START, "--level", "medium", "--depth", "2", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert out.split()[0] in {"d3", "c4", "f5", "e6"}
    assert "depth 2" in out and "nodes" in out


def test_position_starting_with_dash_and_trailing_comment(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert START.startswith("-")
    assert main(["move", START + "; a comment", "--depth", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["depth"] == 1


def test_exact_score_is_a_whole_disc_difference(capsys: pytest.CaptureFixture[str]) -> None:
    line = (Path(__file__).parents[2] / "data" / "endgame_e10.obf").read_text().splitlines()[0]
    best = int(line.split(";")[1].split(":")[1])
    assert main(["move", line, "--level", "hard", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["score"] == best
    assert isinstance(data["score"], int)


def test_pass_is_reported_as_pass(capsys: pytest.CaptureFixture[str]) -> None:
    assert parse_position(WHITE_PASSES).must_pass
    assert main(["move", WHITE_PASSES, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["move"] == "pass"
    # Black then takes a1 and every disc: exactly -64 for white, on the disc scale.
    assert data["score"] == -64


@pytest.mark.parametrize("bad", ["nonsense here", "-" * 64 + " Z", "Q" * 64 + " X"])
def test_bad_position_is_a_one_line_error(bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["move", bad]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err


def test_move_command_does_not_import_textual() -> None:
    code = (
        "import sys\n"
        "from reversi_tui.cli import main\n"
        f"assert main(['move', {START!r}, '--depth', '2', '--json']) == 0\n"
        "assert 'textual' not in sys.modules, 'textual was imported'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_arena_stronger_level_ahead(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["arena", "--black", "easy", "--white", "hard", "--games", "4", "--depth", "2"]
    assert main([*args, "--seed", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    easy = next(line for line in lines if line.startswith("easy"))
    hard = next(line for line in lines if line.startswith("hard"))
    assert int(hard.split("wins")[1].split()[0]) >= 3, lines
    assert "mean disc diff +" in hard and "time/move mean" in easy


def test_arena_same_level_labels_and_pool(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["arena", "--black", "easy", "--white", "easy", "--games", "2", "--depth", "1"]
    assert main([*args, "--jobs", "2"]) == 0
    out = capsys.readouterr().out
    assert "easy (--black)" in out and "easy (--white)" in out and "2 games" in out


def test_arena_openings_are_reproducible_and_varied() -> None:
    from reversi_tui.commands.arena import openings

    first, second = openings(5), openings(5)
    a = [next(first) for _ in range(4)]
    assert a == [next(second) for _ in range(4)]
    assert len(set(a)) == 4
    assert format_position(parse_position(START)) == START
