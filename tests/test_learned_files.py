"""``reversi move``, the line mode and the engine protocols play on when a learned file
is refused, with one line on stderr and no traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

from reversi_tui.cli import LEARNED_FILES_ENV
from reversi_tui.engine.ai import learned
from reversi_tui.engine.ai.book import RESOURCE as BOOK_FILE
from reversi_tui.engine.ai.pattern_eval import RESOURCE as WEIGHTS_FILE

START = "---------------------------OX------XO--------------------------- X"
DAMAGES = {
    "truncated book": (BOOK_FILE, lambda data: data[: len(data) // 2], "opening book is damaged"),
    "garbage book": (BOOK_FILE, lambda _: b"\x00" * 300, "opening book is damaged"),
    "truncated weights": (
        WEIGHTS_FILE,
        lambda data: data[:5000],
        "pattern weights are damaged",
    ),
    "other weights": (
        WEIGHTS_FILE,
        lambda data: data[:8] + data[8:].replace(b'"games"', b'"Games"', 1),
        "pattern weights are not this version's",
    ),
}


def folder_with(tmp_path: Path, damage: str) -> Path:
    name, spoil, _ = DAMAGES[damage]
    for each in (WEIGHTS_FILE, BOOK_FILE):
        data = resources.files(learned.__package__).joinpath(each).read_bytes()
        (tmp_path / each).write_bytes(spoil(data) if each == name else data)
    return tmp_path


def reversi(folder: Path, *args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "reversi_tui", *args],
        input=stdin.decode(),
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, LEARNED_FILES_ENV: str(folder)},
    )


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_reversi_move_plays_on_with_one_line_on_stderr(tmp_path: Path, damage: str) -> None:
    folder = folder_with(tmp_path, damage)
    done = reversi(folder, "move", START, "--think-time", "0.2", "--json")
    assert done.returncode == 0, done.stderr
    assert '"move": "' in done.stdout
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and DAMAGES[damage][2] in lines[0], done.stderr
    assert lines[0].startswith("reversi: ") and "Traceback" not in done.stderr
    assert len(list(folder.iterdir())) == 2  # nothing deleted


def test_the_line_mode_plays_on_with_one_line_on_stderr(tmp_path: Path) -> None:
    folder = folder_with(tmp_path, "truncated book")
    done = reversi(folder, "--plain", "--white", "hard/0.1s", stdin=b"cd\n")
    assert "Traceback" not in done.stderr
    # Black's move was answered: the game went on until the input ended.
    assert done.stdout.count("Enter move for colour B") == 2
    lines = done.stderr.splitlines()
    assert len(lines) == 2 and "opening book is damaged" in lines[0], done.stderr
    assert "input ended" in lines[1]


def test_the_intact_files_say_nothing(tmp_path: Path) -> None:
    done = reversi(folder_with(tmp_path, "other weights"), "move", START, "--depth", "1")
    assert done.stderr.count("reversi:") == 1
    intact = tmp_path / "intact"
    intact.mkdir()
    for each in (WEIGHTS_FILE, BOOK_FILE):
        data = resources.files(learned.__package__).joinpath(each).read_bytes()
        (intact / each).write_bytes(data)
    done = reversi(intact, "move", START, "--think-time", "0.2")
    assert done.returncode == 0 and done.stderr == ""
