"""``reversi convert``: every format out, standard input, and one line for a bad file."""

from __future__ import annotations

import codecs
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from reversi_tui.cli import build_parser, main
from reversi_tui.records.formats import FORMAT_NAMES

from .timing import patience


def convert(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["convert", *args])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def game_file(tmp_path: Path) -> Path:
    path = tmp_path / "game.pgn"
    path.write_text('[Event "e"]\n[Black "a"]\n[White "b"]\n\n1. f5 d6 2. c3 d3 *\n')
    return path


def test_each_format(capsys: pytest.CaptureFixture[str], game_file: Path) -> None:
    status, out, _ = convert(capsys, str(game_file), "--to", "moves")
    assert (status, out) == (0, "f5d6c3d3\n")
    status, out, _ = convert(capsys, str(game_file), "--to", "ggf")
    assert status == 0 and out.startswith("(;GM[Othello]") and "PB[a]" in out
    assert "B[f5]W[d6]B[c3]W[d3]" in out
    status, out, _ = convert(capsys, str(game_file), "--to", "pgn")
    assert status == 0 and '[Black "a"]' in out and "1. f5 d6 2. c3 d3 *" in out
    status, out, _ = convert(capsys, str(game_file), "--to", "position")
    assert status == 0 and len(out.strip()) == 66 and out.strip().endswith(" X")


def test_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"F5D6C3\n")))
    status, out, _ = convert(capsys, "-", "--to", "moves")
    assert (status, out) == (0, "f5d6c3\n")


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (None, "cannot read"),
        (bytes(range(256)), "binary"),
        (b"1. f5 d6 2. c3 c3\n", "move 4 (c3) is not legal"),
        (b"", "not a game file"),
    ],
    ids=["missing", "binary", "illegal", "empty"],
)
def test_a_bad_file_is_one_line_and_status_1(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: bytes | None, words: str
) -> None:
    path = tmp_path / "bad.pgn"
    if content is not None:
        path.write_bytes(content)
    status, out, err = convert(capsys, str(path), "--to", "moves")
    assert status == 1 and out == ""
    [line] = err.strip().splitlines()
    assert words in line and "Traceback" not in err


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    """Opening a FIFO to read waits for a writer: the command must not open it. In a
    child with a deadline, so that a regression fails instead of hanging the run."""
    fifo = tmp_path / "game.pgn"
    os.mkfifo(fifo)
    done = subprocess.run(
        [sys.executable, "-m", "reversi_tui", "convert", str(fifo), "--to", "moves"],
        capture_output=True,
        text=True,
        timeout=patience(30),
    )
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == f"reversi convert: {fifo} is a FIFO (named pipe), not a game file\n"


def test_a_directory_is_said_to_be_one(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out, err = convert(capsys, str(tmp_path), "--to", "moves")
    assert (status, out) == (1, "")
    assert err == f"reversi convert: {tmp_path} is a directory, not a game file\n"


GAME = '[Event "e"]\r\n[Black "Zoë"]\r\n[White "b"]\r\n\r\n1. f5 d6 2. c3 d3 *\r\n'


@pytest.mark.parametrize(
    "data",
    [
        codecs.BOM_UTF16_LE + GAME.encode("utf-16-le"),
        codecs.BOM_UTF16_BE + GAME.encode("utf-16-be"),
        codecs.BOM_UTF8 + GAME.encode("utf-8"),
    ],
    ids=["utf-16-le", "utf-16-be", "utf-8-bom"],
)
def test_a_file_with_a_byte_order_mark_is_read_as_its_encoding(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, data: bytes
) -> None:
    """As Windows tools write them: UTF-16 with its BOM is text, not binary data."""
    path = tmp_path / "game.pgn"
    path.write_bytes(data)
    assert convert(capsys, str(path), "--to", "moves") == (0, "f5d6c3d3\n", "")
    status, out, _ = convert(capsys, str(path), "--to", "pgn")
    assert status == 0 and '[Black "Zoë"]' in out


def test_damaged_utf16_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "game.pgn"
    path.write_bytes(codecs.BOM_UTF16_LE + GAME.encode("utf-16-le")[:-1])
    status, out, err = convert(capsys, str(path), "--to", "moves")
    assert (status, out) == (1, "")
    assert err == f"reversi convert: {path} is not a game file (its UTF-16 text is damaged)\n"


def test_to_takes_its_choices_from_the_format_registry(
    capsys: pytest.CaptureFixture[str],
) -> None:
    parser = build_parser()
    for name in FORMAT_NAMES:
        assert parser.parse_args(["convert", "game.pgn", "--to", name]).to == name
    with pytest.raises(SystemExit):
        parser.parse_args(["convert", "game.pgn", "--to", "sgf"])
    said = capsys.readouterr().err
    assert "invalid choice: 'sgf'" in said
    assert said.index("pgn") < said.index("ggf") < said.index("moves") < said.index("position")
