"""``reversi train``: reproducible, resumable self-play data, and a fit the engine can read."""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import json
import sys
from pathlib import Path

import pytest

import reversi_tui
from reversi_tui.cli import main
from reversi_tui.engine.ai.endgame import solve
from reversi_tui.engine.ai.pattern_eval import decode_weights, make_pattern_evaluator
from reversi_tui.engine.ai.patterns import PATTERNS
from reversi_tui.training import generate as generating
from reversi_tui.training.data import MANIFEST, DataError, read_chunks, records
from reversi_tui.training.generate import Settings, generate, play_game

#: Small and quick: shallow midgame, exact from 8 empties.
QUICK = ["--depth", "2", "--exact-empties", "8"]
SETTINGS = Settings(seed=5, depth=2, exact_empties=8, chunk_games=2)
needs_numpy = pytest.mark.skipif(
    importlib.util.find_spec("numpy") is None,
    reason="numpy is not installed (pip install 'reversi-tui[train]')",
)


def _data(directory: Path) -> bytes:
    return b"".join(read_chunks(directory))


def _generate(directory: Path, games: int, *extra: str) -> None:
    args = ["train", "generate", "--out", str(directory), "--games", str(games)]
    assert main([*args, "--seed", "5", "--chunk-games", "2", *QUICK, *extra]) == 0


def test_the_same_seed_gives_the_same_data_and_another_seed_other_data(tmp_path: Path) -> None:
    _generate(tmp_path / "a", 3)
    _generate(tmp_path / "b", 3)
    _generate(tmp_path / "c", 3, "--seed", "6")
    assert _data(tmp_path / "a") == _data(tmp_path / "b") != _data(tmp_path / "c")
    manifest = json.loads((tmp_path / "a" / MANIFEST).read_text())
    assert manifest["games"] == 3 and [c["games"] for c in manifest["chunks"]] == [2, 1]
    assert "self-play" in manifest["origin"] and "no other program" in manifest["origin"]
    assert manifest["settings"]["seed"] == 5
    assert manifest["positions"] == len(_data(tmp_path / "a")) // 23


def test_a_run_resumed_after_a_stop_gives_the_same_data(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _generate(tmp_path / "whole", 5)
    played: list[int] = []
    real = generating.play_game

    def stopping(settings: Settings, game: int) -> list[generating.Record]:
        if game == 3:  # in the middle of the second chunk
            raise KeyboardInterrupt
        played.append(game)
        return real(settings, game)

    monkeypatch.setattr(generating, "play_game", stopping)
    with pytest.raises(KeyboardInterrupt):
        generate(tmp_path / "stopped", SETTINGS, 5, print)
    assert played == [0, 1, 2]
    monkeypatch.setattr(generating, "play_game", real)
    assert json.loads((tmp_path / "stopped" / MANIFEST).read_text())["games"] == 2
    _generate(tmp_path / "stopped", 5)
    assert _data(tmp_path / "stopped") == _data(tmp_path / "whole")
    # Growing a finished run is a resumption too.
    _generate(tmp_path / "grown", 2)
    _generate(tmp_path / "grown", 5)
    assert _data(tmp_path / "grown") == _data(tmp_path / "whole")


def test_several_processes_give_the_same_data(tmp_path: Path) -> None:
    _generate(tmp_path / "one", 5)
    _generate(tmp_path / "two", 5, "--jobs", "2")
    assert _data(tmp_path / "two") == _data(tmp_path / "one")
    one, two = (json.loads((tmp_path / d / MANIFEST).read_text()) for d in ("one", "two"))
    assert [c["sha256"] for c in one["chunks"]] == [c["sha256"] for c in two["chunks"]]


def test_resuming_with_other_settings_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _generate(tmp_path, 1)
    args = ["train", "generate", "--out", str(tmp_path), "--games", "2", "--seed", "6"]
    assert main([*args, *QUICK]) == 2
    assert "other settings" in capsys.readouterr().err


def test_a_damaged_chunk_is_refused(tmp_path: Path) -> None:
    _generate(tmp_path, 1)
    chunk = tmp_path / "chunk-00000.bin"
    data = chunk.read_bytes()
    chunk.write_bytes(bytes([data[0] ^ 1]) + data[1:])
    with pytest.raises(DataError, match="damaged"):
        _data(tmp_path)


def test_the_labels_are_the_game_s_result_and_the_solver_s_score() -> None:
    made = play_game(SETTINGS, 0)
    assert len({r.game for r in made}) == 1
    exact = [r for r in made if r.exact is not None]
    assert exact and all(64 - (r.player | r.opponent).bit_count() <= 8 for r in exact)
    for r in exact:
        assert solve(r.player, r.opponent).score == r.exact
    # The final result for the side to move: opposite signs for opposite colours.
    signs = {r.white_to_move: r.final for r in made}
    assert signs[True] == -signs[False]
    # Without random moves the endgame is perfect play: the result is the exact score.
    perfect = play_game(Settings(seed=5, depth=2, epsilon=0.0, exact_empties=8), 1)
    assert all(r.final == r.exact for r in perfect if r.exact is not None)


@needs_numpy
def test_a_fit_on_a_tiny_set_writes_weights_the_engine_reads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _generate(tmp_path / "data", 6)
    weights_file = tmp_path / "weights.bin"
    args = ["train", "fit", "--data", str(tmp_path / "data"), "--out", str(weights_file)]
    assert main([*args, "--holdout", "3", "--phase-empties", "15", "--iterations", "20"]) == 0
    out = capsys.readouterr().out
    assert "MAE" in out and " 1-15 " in out and "46-60" in out
    weights = decode_weights(weights_file.read_bytes())
    assert len(weights.tables) == 4 and weights.phase_empties == 15
    assert "self-play" in weights.meta["origin"]
    assert len(weights.meta["held_out_mae"]) == 4
    # Mirrored configurations share one weight, as the canonical index says.
    for pattern, table in zip(PATTERNS, weights.tables[1], strict=True):
        assert all(table[i] == table[pattern.mirrored(i)] for i in range(0, pattern.size, 97))
    evaluate = make_pattern_evaluator(weights)
    assert all(isinstance(evaluate(r.player, r.opponent), int) for r in records(tmp_path / "data"))


@needs_numpy
def test_the_numpy_canonical_map_is_the_pattern_s() -> None:
    from reversi_tui.engine.ai.patterns import OFFSETS
    from reversi_tui.training.fit import canonical_map

    table = canonical_map()
    for k, pattern in enumerate(PATTERNS):
        for i in range(0, pattern.size, 61):
            assert table[OFFSETS[k] + i] == OFFSETS[k] + pattern.canonical(i)


def test_fit_without_numpy_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "numpy", None)  # import numpy now raises ImportError
    args = ["train", "fit", "--data", str(tmp_path), "--out", str(tmp_path / "w")]
    assert main(args) == 2
    assert "reversi-tui[train]" in capsys.readouterr().err


def test_nothing_but_the_train_command_imports_the_training_package() -> None:
    root = Path(reversi_tui.__file__).parent
    for path in root.rglob("*.py"):
        if path.parent.name == "training" or path.name == "train.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not node.module.startswith("reversi_tui.training"), path
            if isinstance(node, ast.Import):
                assert not any(a.name.startswith("reversi_tui.training") for a in node.names)


def test_the_manifest_names_each_chunk_with_its_sha256(tmp_path: Path) -> None:
    _generate(tmp_path, 1)
    manifest = json.loads((tmp_path / MANIFEST).read_text())
    chunk = (tmp_path / manifest["chunks"][0]["file"]).read_bytes()
    assert hashlib.sha256(chunk).hexdigest() == manifest["chunks"][0]["sha256"]
