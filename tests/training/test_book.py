"""``reversi train book``: a tiny book, reproducible from its seed, resumable, readable."""

from __future__ import annotations

from pathlib import Path

import pytest

from reversi_tui.cli import main
from reversi_tui.engine.ai.book import decode_book
from reversi_tui.engine.ai.play import rank_moves
from reversi_tui.engine.board import Position
from reversi_tui.training.book import (
    BookBuildError,
    BookSettings,
    build_book,
    positions,
    progress_path,
)

TINY = BookSettings(seed=3, plies=2, depth=2, lines=4)
#: A little more than TINY, to have something to stop in the middle of.
SMALL = BookSettings(seed=3, plies=4, depth=2, lines=6, enumerate_plies=2)


def _quiet(_line: str) -> None:
    pass


def test_the_tiny_build_is_reproducible_from_its_seed(tmp_path: Path) -> None:
    args = ["train", "book", "--plies", "2", "--depth", "2", "--seed", "3", "--lines", "4"]
    assert main([*args, "--out", str(tmp_path / "a.bin")]) == 0
    assert main([*args, "--out", str(tmp_path / "b.bin")]) == 0
    data = (tmp_path / "a.bin").read_bytes()
    assert data == (tmp_path / "b.bin").read_bytes()
    assert not progress_path(tmp_path / "a.bin").exists()
    book = decode_book(data)
    assert len(book) == 2 and book.meta["settings"]["seed"] == 3
    start = Position.initial()
    first = start.play(start.legal_moves[0])
    ranked = rank_moves(first, "hard", depth=2)
    assert book.lookup(first) == [(r.move, round(r.score, 2)) for r in ranked]
    # Each image of the first move is the same entry (transpositions found).
    after = {tuple(v for _, v in book.lookup(start.play(sq))) for sq in start.legal_moves}
    assert len(after) == 1
    # A move into the book is worth its position's best value, from the mover's side.
    for sq, value in book.lookup(start):
        assert value == -book.lookup(start.play(sq))[0][1]


def test_the_expansion_follows_the_near_best_moves_and_propagates_them(tmp_path: Path) -> None:
    settings = BookSettings(
        seed=3, plies=1, depth=2, lines=0, enumerate_plies=0, expand=4, spread=0.0
    )
    out = tmp_path / "book.bin"
    build_book(out, settings, _quiet)
    book = decode_book(out.read_bytes())
    # One best move a ply (spread 0, no ties here): four positions, one a ply.
    assert len(book) == 4
    pos = Position.initial()
    for _ in range(3):
        inside = [sq for sq, _ in book.lookup(pos) if book.lookup(pos.play(sq))]
        assert inside
        # A move into the book is worth its position's best value, negated.
        for sq in inside:
            value = dict(book.lookup(pos))[sq]
            assert value == -book.lookup(pos.play(sq))[0][1]
        pos = pos.play(inside[0])
    assert book.lookup(pos) and not any(book.lookup(pos.play(sq)) for sq, _ in book.lookup(pos))
    wider = BookSettings(seed=3, plies=1, depth=2, lines=0, enumerate_plies=0, expand=3, spread=64)
    build_book(tmp_path / "wide.bin", wider, _quiet)
    # Every move is near the best with a 64-disc spread: ply 0, 1 and 2 in full.
    assert len(decode_book((tmp_path / "wide.bin").read_bytes())) == 1 + 1 + 3


def test_a_selective_book_searches_as_the_selective_levels_do(tmp_path: Path) -> None:
    settings = BookSettings(seed=3, plies=1, depth=5, lines=0, enumerate_plies=1, selective=True)
    out = tmp_path / "book.bin"
    build_book(out, settings, _quiet)
    start = Position.initial()
    ranked = rank_moves(start, "hard", depth=5, selective=True)
    assert decode_book(out.read_bytes()).lookup(start) == [
        (r.move, round(r.score, 2)) for r in ranked
    ]
    assert decode_book(out.read_bytes()).meta["settings"]["selective"] is True


def test_the_sample_depends_on_the_seed() -> None:
    other = BookSettings(seed=4, plies=8, depth=2, lines=6, enumerate_plies=1)
    again = BookSettings(seed=3, plies=8, depth=2, lines=6, enumerate_plies=1)
    assert positions(again) == positions(BookSettings(3, 8, 2, 6, 1))
    assert positions(other) != positions(again)


def test_a_stopped_build_resumes_to_the_same_book(tmp_path: Path) -> None:
    whole = tmp_path / "whole.bin"
    build_book(whole, SMALL, _quiet)
    parts = tmp_path / "parts.bin"
    assert build_book(parts, SMALL, _quiet, stop_after=3) == {}
    assert not parts.exists() and progress_path(parts).exists()
    # A torn last line (stopped mid-write) is searched again.
    progress = progress_path(parts)
    progress.write_text(progress.read_text() + '{"key": "00', encoding="utf-8")
    lines: list[str] = []
    build_book(parts, SMALL, lines.append)
    assert "3 searched before" in lines[0]
    assert parts.read_bytes() == whole.read_bytes()


def test_a_progress_file_of_other_settings_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "book.bin"
    build_book(out, SMALL, _quiet, stop_after=1)
    with pytest.raises(BookBuildError, match="other settings"):
        build_book(out, TINY, _quiet)
    args = ["train", "book", "--out", str(out), "--plies", "2", "--depth", "2"]
    assert main(args) == 2


def test_positions_from_a_data_directory_join_the_book(tmp_path: Path) -> None:
    data = tmp_path / "data"
    args = ["train", "generate", "--out", str(data), "--games", "2", "--seed", "5"]
    assert main([*args, "--depth", "1", "--exact-empties", "4", "--opening", "3-3"]) == 0
    alone = BookSettings(seed=1, plies=4, depth=1, lines=0, enumerate_plies=0)
    joined = BookSettings(seed=1, plies=4, depth=1, lines=0, enumerate_plies=0, source=str(data))
    assert positions(alone) == []
    assert 1 <= len(positions(joined)) <= 8
