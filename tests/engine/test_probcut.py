"""Multi-ProbCut: its table, its probes, and that it never touches an exact search."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from reversi_tui.cli import main
from reversi_tui.engine import Position
from reversi_tui.engine.ai import probcut
from reversi_tui.engine.ai.endgame import solve
from reversi_tui.engine.ai.evaluation import DISC, make_evaluator
from reversi_tui.engine.ai.levels import LEVEL_TABLE, base_evaluator, get_level
from reversi_tui.engine.ai.probcut import CUTS, Cut, cut_for, shallow_depth
from reversi_tui.engine.ai.search import Limits, iterative_deepening
from reversi_tui.training.probcut import calibrate, fit_line, table_source


def _midgame(seed: int, plies: int = 20) -> Position:
    rng = random.Random(seed)
    pos = Position.initial()
    for _ in range(plies):
        moves = pos.legal_moves
        pos = pos.play(rng.choice(moves)) if moves else pos.pass_turn()
    return pos


@pytest.mark.parametrize("depth", range(probcut.MIN_DEPTH, 30))
def test_a_probe_is_about_half_as_deep_with_an_even_gap(depth: int) -> None:
    shallow = shallow_depth(depth)
    assert 1 <= shallow <= depth // 2
    assert (depth - shallow) % 2 == 0


def test_the_shipped_table_is_calibrated_and_sane() -> None:
    assert set(CUTS) == set(range(probcut.MIN_DEPTH, probcut.DEEPEST + 1))
    for depth, cut in CUTS.items():
        assert cut.shallow == shallow_depth(depth)
        assert 0.8 < cut.slope < 1.3, depth
        assert 0 < cut.sigma < 8 * DISC, depth


def test_deeper_nodes_borrow_the_deepest_cut_of_their_parity() -> None:
    deep = probcut.DEEPEST + 3
    model = CUTS[probcut.DEEPEST - 1]
    cut = cut_for(deep)
    assert cut == Cut(shallow_depth(deep), model.slope, model.intercept, model.sigma)
    assert cut_for(probcut.MIN_DEPTH - 1) is None


def test_a_selective_search_visits_far_fewer_nodes_to_the_same_depth() -> None:
    # The evaluation the table is calibrated for: the selective levels'.
    evaluate = base_evaluator(get_level("hard").evaluation)
    full = sel = 0
    for seed in range(3):
        pos = _midgame(seed)
        limits = Limits(6, None)
        _, n_full = iterative_deepening(
            pos.player, pos.opponent, evaluate, limits, random.Random(0)
        )
        picked, n_sel = iterative_deepening(
            pos.player,
            pos.opponent,
            evaluate,
            Limits(6, None, selective=True),
            random.Random(0),
        )
        assert picked.move in pos.legal_moves
        full += n_full
        sel += n_sel
    assert sel < full * 0.8


def test_a_search_that_reaches_every_game_end_stays_exact() -> None:
    evaluate = make_evaluator()
    for seed in range(4):
        pos = _midgame(seed, plies=52)
        if not pos.legal_moves:
            continue
        result, _ = iterative_deepening(
            pos.player,
            pos.opponent,
            evaluate,
            Limits(60, None, selective=True),
            random.Random(0),
        )
        assert result.exact
        assert result.score == solve(pos.player, pos.opponent).score * DISC


def test_only_the_timed_strong_levels_are_selective() -> None:
    assert [name for name, level in LEVEL_TABLE.items() if level.selective] == ["hard", "expert"]


def test_fit_line_recovers_a_line_and_measures_the_spread() -> None:
    xs = [float(x) for x in range(-20, 21)]
    slope, intercept, sigma = fit_line(xs, [2 * x + 3 for x in xs])
    assert (round(slope, 9), round(intercept, 9), round(sigma, 9)) == (2, 3, 0)
    _, _, noisy = fit_line(xs, [2 * x + 3 + (5 if i % 2 else -5) for i, x in enumerate(xs)])
    assert 4.9 < noisy < 5.1


def test_calibration_on_generated_data_gives_a_table_the_module_can_hold(tmp_path: Path) -> None:
    data = tmp_path / "data"
    args = ["train", "generate", "--out", str(data), "--games", "4", "--depth", "1"]
    assert main([*args, "--exact-empties", "6", "--seed", "3"]) == 0
    cuts = calibrate(data, 12, 4, 1, lambda _line: None)
    assert sorted(cuts) == [3, 4]
    assert [cut.shallow for cut in cuts.values()] == [1, 2]
    namespace: dict[str, object] = {"Cut": Cut}
    exec(table_source(cuts, "ab" * 32), namespace)
    assert namespace["CUTS"] == cuts
    assert namespace["WEIGHTS_SHA256"] == "ab" * 32


def test_the_calibration_command_refuses_a_missing_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["train", "probcut", "--data", str(tmp_path / "none")]) == 2
    err = capsys.readouterr().err
    assert "reversi train probcut" in err and "Traceback" not in err
