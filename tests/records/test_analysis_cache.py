"""Stored analyses: found again by their game and options, never by another's; a
damaged file is set aside and the game analysed again."""

from __future__ import annotations

from pathlib import Path

import pytest

from reversi_tui.engine import Position
from reversi_tui.engine.ai.analysis import AnalysisOptions, analyse_game, to_json
from reversi_tui.records.analysis_cache import AnalysisCache, analysis_key
from reversi_tui.records.atomic import DAMAGED_MARK
from reversi_tui.records.paths import StorageError

OPTIONS = AnalysisOptions(time_per_move=0.02, exact_empties=8)
#: f5 d6 c3 d3 c4 (the Tiger) as square numbers.
TIGER = [37, 43, 18, 19, 26]


def test_a_stored_analysis_is_found_by_its_game_and_options(tmp_path: Path) -> None:
    cache = AnalysisCache(tmp_path)
    start = Position.initial()
    assert cache.get(start, TIGER, OPTIONS) is None
    analysis = analyse_game(start, TIGER, OPTIONS)
    path = cache.put(analysis)
    assert path.parent == tmp_path / "analyses" and oct(path.stat().st_mode & 0o777) == "0o600"
    found = cache.get(start, TIGER, OPTIONS)
    assert found is not None and to_json(found) == to_json(analysis)
    # Another game, or the same with other options, is not it.
    assert cache.get(start, TIGER[:4], OPTIONS) is None
    other = AnalysisOptions(time_per_move=0.5, exact_empties=8)
    assert cache.get(start, TIGER, other) is None
    assert analysis_key(start, TIGER, OPTIONS) != analysis_key(start, TIGER, other)


def test_a_damaged_file_is_set_aside_not_deleted(tmp_path: Path) -> None:
    cache = AnalysisCache(tmp_path)
    start = Position.initial()
    path = cache.put(analyse_game(start, TIGER, OPTIONS))
    path.write_text('{"format": 1, "moves": [')
    assert cache.get(start, TIGER, OPTIONS) is None
    assert not path.exists()
    aside = [p for p in path.parent.iterdir() if DAMAGED_MARK in p.name]
    assert len(aside) == 1 and aside[0].read_text() == '{"format": 1, "moves": ['


def test_an_unwritable_directory_is_a_storage_error(tmp_path: Path) -> None:
    (tmp_path / "analyses").write_text("a file where the directory should be")
    with pytest.raises(StorageError):
        AnalysisCache(tmp_path).put(analyse_game(Position.initial(), TIGER, OPTIONS))
