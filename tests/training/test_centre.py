"""``reversi train centre``: the evaluation's bias per count of empty squares, removed."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from reversi_tui.cli import main
from reversi_tui.engine.ai import learned
from reversi_tui.engine.ai.pattern_eval import (
    PatternWeights,
    decode_weights,
    make_pattern_evaluator,
    weights_bytes,
)
from reversi_tui.engine.board import Position
from reversi_tui.training.centre import centred, measure_offsets


def packaged_weights() -> PatternWeights:
    found = learned.weights()
    assert found is not None
    return found


QUICK = ["--depth", "1", "--exact-empties", "6", "--seed", "3", "--chunk-games", "3"]


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("centre") / "data"
    assert main(["train", "generate", "--out", str(directory), "--games", "6", *QUICK]) == 0
    return directory


def test_centred_weights_have_no_bias_left_on_their_games(data: Path) -> None:
    weights = packaged_weights()
    # Shift every phase by five discs for the side to move: the measure must see it.
    shifted = dataclasses.replace(
        weights, biases=tuple(b + 5 * weights.scale for b in weights.biases)
    )
    rows = measure_offsets(shifted, [data], holdout=1000)
    plain_rows = measure_offsets(weights, [data], holdout=1000)
    measured = [r for r in rows if r.positions]
    assert len(measured) == 60  # every game passes through every count
    for r, plain in zip(rows, plain_rows, strict=True):
        assert r.bias == pytest.approx(plain.bias + 5, abs=0.02)
        had = weights.offsets[r.empties] / weights.scale
        assert r.offset == pytest.approx(had - r.bias, abs=1 / weights.scale)
    again = measure_offsets(centred(shifted, rows), [data], holdout=1000)
    # What is left is the offsets' rounding to weight units (and the floor to DISC).
    assert all(abs(r.bias) <= 0.15 for r in again)
    assert centred(shifted, rows).meta["centred"]["method"].startswith("per count")


def test_the_command_writes_centred_weights_and_prints_the_table(
    data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "in.bin"
    out = tmp_path / "out.bin"
    weights = packaged_weights()
    source.write_bytes(weights_bytes(dataclasses.replace(weights, offsets=(0,) * 61)))
    args = ["train", "centre", "--weights", str(source), "--data", str(data), "--out", str(out)]
    assert main([*args, "--holdout", "2"]) == 0
    printed = capsys.readouterr().out
    assert "held-out bias before" in printed and f"written to {out}" in printed
    written = decode_weights(out.read_bytes())
    assert any(written.offsets) and written.tables == weights.tables
    # Centring again changes (almost) nothing.
    again = [*args[:3], str(out), *args[4:-1], str(tmp_path / "twice.bin"), "--holdout", "2"]
    assert main(again) == 0
    twice = decode_weights((tmp_path / "twice.bin").read_bytes())
    assert max(abs(a - b) for a, b in zip(twice.offsets, written.offsets, strict=True)) <= 16


@pytest.mark.parametrize("problem", ["no-data", "bad-weights"])
def test_bad_input_gets_a_message_and_no_file(
    problem: str, data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    weights = tmp_path / "w.bin"
    weights.write_bytes(b"RVPW garbage" if problem == "bad-weights" else b"")
    if problem == "no-data":
        weights.write_bytes(weights_bytes(packaged_weights()))
        data = tmp_path / "missing"
    out = tmp_path / "out.bin"
    args = ["train", "centre", "--weights", str(weights), "--data", str(data), "--out", str(out)]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "reversi train centre:" in err and "Traceback" not in err
    assert not out.exists()


def test_the_shipped_weights_are_centred() -> None:
    weights = packaged_weights()
    assert "centred" in weights.meta and any(weights.offsets)
    # The start is a draw with perfect play; the uncentred weights read it -5.8 for Black.
    evaluate = make_pattern_evaluator(weights)
    start = Position.initial()
    assert abs(evaluate(start.player, start.opponent)) <= 15  # 1.5 discs
    for move in start.legal_moves:
        after = start.play(move)
        assert abs(evaluate(after.player, after.opponent)) <= 15
