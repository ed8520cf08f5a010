"""``reversi train fit --bootstrap``: phases fitted from the end, labelled by search."""

from __future__ import annotations

import dataclasses
import importlib.util
from pathlib import Path

import pytest

from reversi_tui.cli import main
from reversi_tui.engine.ai.evaluation import DISC
from reversi_tui.engine.ai.pattern_eval import decode_weights, make_pattern_evaluator
from reversi_tui.engine.ai.search import INF, Searcher
from reversi_tui.training import bootstrap
from reversi_tui.training.bootstrap import BootstrapOptions, fit_bootstrap, search_labels
from reversi_tui.training.centre import measure_offsets

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("numpy") is None,
    reason="numpy is not installed (pip install 'reversi-tui[train]')",
)
QUICK = ["--depth", "2", "--exact-empties", "8", "--seed", "5", "--chunk-games", "2"]
OPTIONS = BootstrapOptions(phase_empties=4, depth=4, holdout=3, iterations=10, sample=12)


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("boot") / "data"
    assert main(["train", "generate", "--out", str(directory), "--games", "4", *QUICK]) == 0
    return directory


class Stop(Exception):
    pass


def test_a_bootstrapped_fit_writes_weights_that_say_how_they_were_made(
    data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "w.bin"
    args = ["train", "fit", "--data", str(data), "--out", str(out), "--bootstrap", "4"]
    extra = ["--holdout", "3", "--iterations", "10", "--sample", "12"]
    assert main([*args, *extra]) == 0
    printed = capsys.readouterr().out
    assert "searched to depth 4" in printed and "57-60" in printed
    weights = decode_weights(out.read_bytes())
    assert len(weights.tables) == 15 and weights.phase_empties == 4
    assert "search" in weights.meta["method"] and weights.meta["fit"]["depth"] == 4
    assert not out.with_name("w.bin.progress.npz").exists()


def test_a_stopped_fit_resumes_and_gives_the_same_weights(data: Path, tmp_path: Path) -> None:
    whole = tmp_path / "whole.bin"
    fit_bootstrap([data], whole, OPTIONS, lambda _: None)
    parts = tmp_path / "parts.bin"

    def stop_at_phase_6(line: str) -> None:
        if line.startswith("21-24"):
            raise Stop

    with pytest.raises(Stop):
        fit_bootstrap([data], parts, OPTIONS, stop_at_phase_6)
    assert parts.with_name("parts.bin.progress.npz").exists() and not parts.exists()
    said: list[str] = []
    fit_bootstrap([data], parts, OPTIONS, said.append)
    assert any(line.startswith("resuming after phase 6") for line in said)
    searched = [line.split(":")[0] for line in said if "positions searched" in line]
    assert searched and "phase 6" not in searched and "phase 7" in searched
    assert parts.read_bytes() == whole.read_bytes()


def test_other_options_do_not_resume_a_progress_file(data: Path, tmp_path: Path) -> None:
    out = tmp_path / "w.bin"

    def stop_early(line: str) -> None:
        if line.startswith("17-20"):
            raise Stop

    with pytest.raises(Stop):
        fit_bootstrap([data], out, OPTIONS, stop_early)
    said: list[str] = []
    other = BootstrapOptions(phase_empties=4, depth=5, holdout=3, iterations=10, sample=12)
    fit_bootstrap([data], out, other, said.append)
    assert not any("resuming" in line for line in said)


def test_a_label_is_the_search_value_of_the_weights_so_far(data: Path, tmp_path: Path) -> None:
    out = tmp_path / "w.bin"
    fit_bootstrap([data], out, OPTIONS, lambda _: None)
    weights = decode_weights(out.read_bytes())
    boards = [(0x0000000810000000, 0x0000001008000000), (0x0000001C10000000, 0x0000000008000000)]
    evaluate = make_pattern_evaluator(weights)
    expected = [Searcher(evaluate).negamax(p, o, 3, -INF, INF) / DISC for p, o in boards]
    assert search_labels(weights, boards, 3, 1) == expected
    assert search_labels(weights, boards, 3, 2) == expected
    assert bootstrap._LABEL_WEIGHTS is weights


def test_a_depth_below_the_phase_width_is_refused(
    data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["train", "fit", "--data", str(data), "--out", str(tmp_path / "w"), "--bootstrap", "2"]
    assert main(args) == 2
    assert "at least the phase width" in capsys.readouterr().err
    assert not (tmp_path / "w").exists()


def test_each_phase_is_centred_against_the_games_labels(data: Path, tmp_path: Path) -> None:
    out = tmp_path / "w.bin"
    fit_bootstrap([data], out, OPTIONS, lambda _: None)
    weights = decode_weights(out.read_bytes())
    assert "centred" in weights.meta and any(weights.offsets)
    rows = [r for r in measure_offsets(weights, [data], holdout=3) if r.positions]
    assert len(rows) == 60
    # Left: the offsets' rounding and the evaluation's floor to a tenth of a disc.
    assert all(abs(r.bias) <= 0.15 for r in rows)
    plain = tmp_path / "plain.bin"
    fit_bootstrap([data], plain, dataclasses.replace(OPTIONS, centre=False), lambda _: None)
    uncentred = decode_weights(plain.read_bytes())
    assert not any(uncentred.offsets) and "centred" not in uncentred.meta
    assert max(abs(r.bias) for r in measure_offsets(uncentred, [data], holdout=3)) > 0.5
