"""The learned files tied together: the weights pinned, the book and the ProbCut table
naming the weights they were built from; a refused file is told once and play goes on."""

from __future__ import annotations

import dataclasses
import random
import shutil
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import pytest

from reversi_tui.engine.ai import learned, play, probcut
from reversi_tui.engine.ai.book import RESOURCE as BOOK_FILE
from reversi_tui.engine.ai.book import Book, canonical, decode_book, encode_book
from reversi_tui.engine.ai.evaluation import make_evaluator
from reversi_tui.engine.ai.levels import base_evaluator
from reversi_tui.engine.ai.pattern_eval import RESOURCE as WEIGHTS_FILE
from reversi_tui.engine.ai.pattern_eval import decode_weights, weights_bytes
from reversi_tui.engine.board import Position

START = Position.initial()


def shipped(name: str) -> bytes:
    return resources.files(learned.__package__).joinpath(name).read_bytes()


@pytest.fixture
def told(tmp_path: Path) -> Iterator[list[str]]:
    """The learned files are read from ``tmp_path`` (copies of the shipped ones, for
    the test to damage); the problems told are collected."""
    for name in (WEIGHTS_FILE, BOOK_FILE):
        (tmp_path / name).write_bytes(shipped(name))
    problems: list[str] = []
    learned.read_from(tmp_path)
    before = learned.report_to(problems.append)
    yield problems
    learned.report_to(before)
    learned.read_from(None)


def test_the_shipped_files_are_pinned_and_tied_together() -> None:
    assert learned.weights() is not None and learned.evaluator() is not None
    book = learned.book()
    assert book is not None and book.weights_sha256 == learned.WEIGHTS_SHA256
    assert probcut.WEIGHTS_SHA256 == learned.WEIGHTS_SHA256
    assert learned.probcut_fits()


@pytest.mark.parametrize("cut", [0, 7, 200, 3000])
def test_a_truncated_book_is_told_once_and_hard_plays_on_by_searching(
    told: list[str], tmp_path: Path, cut: int
) -> None:
    (tmp_path / BOOK_FILE).write_bytes(shipped(BOOK_FILE)[:cut])
    for seed in range(2):
        result = play.choose_move(START, "hard", think_time=0.05, rng=random.Random(seed))
        assert result.move in START.legal_moves and result.nodes > 0  # searched, not booked
    assert len(told) == 1
    assert "opening book is damaged" in told[0] and str(tmp_path / BOOK_FILE) in told[0]
    assert "plays on without it" in told[0]
    assert (tmp_path / BOOK_FILE).exists()  # never deleted


def test_garbage_weights_are_told_once_and_the_levels_evaluate_by_hand(
    told: list[str], tmp_path: Path
) -> None:
    (tmp_path / WEIGHTS_FILE).write_bytes(b"RVPW" + bytes(range(256)) * 10)
    hand = make_evaluator()
    p, o = START.play(19).player, START.play(19).opponent
    assert base_evaluator("learned")(p, o) == hand(p, o)
    play.choose_move(START.play(19), "hard", think_time=0.05)
    assert len(told) == 1 and "pattern weights are damaged" in told[0]
    assert "simpler evaluation" in told[0]
    # ProbCut was calibrated on the learned evaluation: not used without it.
    assert not learned.probcut_fits() and len(told) == 1


def test_other_intact_weights_are_refused_with_their_checksum(
    told: list[str], tmp_path: Path
) -> None:
    weights = decode_weights(shipped(WEIGHTS_FILE))
    other = dataclasses.replace(weights, meta={**weights.meta, "retrained": True})
    (tmp_path / WEIGHTS_FILE).write_bytes(weights_bytes(other))
    assert learned.weights() is None
    assert len(told) == 1 and "not this version's" in told[0]
    assert learned.WEIGHTS_SHA256[:12] in told[0]


def test_a_book_built_from_other_weights_is_refused(told: list[str], tmp_path: Path) -> None:
    book = decode_book(shipped(BOOK_FILE))
    entries = {key: [(sq, v / 100) for sq, v in moves] for key, moves in book.entries.items()}
    (tmp_path / BOOK_FILE).write_bytes(encode_book(entries, book.meta, "0" * 64))
    assert learned.book() is None
    assert len(told) == 1 and "built from other pattern weights" in told[0]
    # The same entries naming the pinned weights are taken.
    (tmp_path / BOOK_FILE).write_bytes(encode_book(entries, book.meta, learned.WEIGHTS_SHA256))
    learned.read_from(tmp_path)
    found = learned.book()
    assert found is not None and found.entries == book.entries


def test_a_probcut_table_of_other_weights_is_refused(
    told: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(probcut, "WEIGHTS_SHA256", "1" * 64)
    assert not learned.probcut_fits()
    assert not learned.probcut_fits()
    assert len(told) == 1 and "ProbCut table was calibrated with other" in told[0]


def test_problems_found_before_a_reporter_are_told_when_it_comes(
    told: list[str], tmp_path: Path
) -> None:
    (tmp_path / BOOK_FILE).write_bytes(b"")
    learned.report_to(None)
    assert learned.book() is None
    assert told == []
    later: list[str] = []
    learned.report_to(later.append)
    assert len(later) == 1 and "opening book" in later[0]


def test_a_missing_book_is_no_problem_but_missing_weights_are(
    told: list[str], tmp_path: Path
) -> None:
    (tmp_path / BOOK_FILE).unlink()
    assert learned.book() is None and told == []
    shutil.move(tmp_path / WEIGHTS_FILE, tmp_path / "elsewhere.bin")
    assert learned.weights() is None
    assert len(told) == 1 and "missing" in told[0]


def test_a_book_of_the_pinned_weights_plays_its_moves(told: list[str], tmp_path: Path) -> None:
    key, _ = canonical(START.player, START.opponent)
    book = Book({key: [(19, 300)]})
    entries = {k: [(sq, v / 100) for sq, v in moves] for k, moves in book.entries.items()}
    (tmp_path / BOOK_FILE).write_bytes(encode_book(entries, {}, learned.WEIGHTS_SHA256))
    result = play.choose_move(START, "hard", rng=random.Random(0))
    assert result.nodes == 0 and result.score == 3.0 and told == []
