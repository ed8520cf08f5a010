"""The alpha-beta search: same values as plain minimax, deterministic, legal, exact at the end."""

from __future__ import annotations

import random

import pytest

from reversi_tui.engine import PASS, Color, Position
from reversi_tui.engine.ai import LEVELS, choose_move
from reversi_tui.engine.ai.evaluation import DISC, evaluate, final_score_units
from reversi_tui.engine.ai.search import Searcher

from .helpers import minimax, random_positions

POSITIONS = random_positions(40, seed=11)


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_pvs_with_table_equals_minimax(depth: int) -> None:
    for pos in POSITIONS[:25]:
        p, o = pos.player, pos.opponent
        searcher = Searcher(evaluate)
        for d in range(1, depth + 1):  # reuse the table across iterations, as the search does
            value = searcher.negamax(p, o, d, -(1 << 20), 1 << 20)
        assert value == minimax(p, o, depth, evaluate), pos


def test_fail_soft_bounds_hold_for_narrow_windows() -> None:
    for pos in POSITIONS[:15]:
        p, o = pos.player, pos.opponent
        true = minimax(p, o, 2, evaluate)
        for alpha, beta in ((true - 1, true), (true, true + 1), (true + 5, true + 6)):
            value = Searcher(evaluate).negamax(p, o, 2, alpha, beta)
            if value <= alpha:
                assert true <= value
            elif value >= beta:
                assert true >= value
            else:
                assert value == true


@pytest.mark.parametrize("level", LEVELS)
def test_fixed_depth_is_deterministic_and_legal(level: str) -> None:
    for pos in POSITIONS:
        first = choose_move(pos, level, depth=2, rng=random.Random(5))
        second = choose_move(pos, level, depth=2, rng=random.Random(5))
        assert (first.move, first.score) == (second.move, second.score)
        assert pos.is_legal(first.move)
        assert (first.move == PASS) == pos.must_pass


def test_pass_when_no_move() -> None:
    # Only a1 is empty; white (b1) cannot take it, black can: white must pass.
    black = sum(1 << sq for sq in range(64) if sq not in (0, 1))
    pos = Position(black=black, white=1 << 1, turn=Color.WHITE)
    assert pos.must_pass
    result = choose_move(pos, "hard", depth=3)
    assert result.move == PASS


def test_game_over_scores_the_final_count() -> None:
    pos = Position(black=(1 << 40) - 1, white=((1 << 64) - 1) ^ ((1 << 40) - 1))
    result = choose_move(pos, "expert", depth=2)
    assert result.move == PASS and result.exact
    assert result.score == 40 - 24


def _exact_value(pos: Position) -> int:
    return minimax(pos.player, pos.opponent, 64, evaluate) // DISC


def test_deep_enough_search_is_exact_near_the_end() -> None:
    for pos in random_positions(6, seed=3, min_plies=53, max_plies=56):
        result = choose_move(pos, "hard", depth=pos.empties)
        assert result.exact
        assert result.score == _exact_value(pos)


def test_timed_levels_solve_small_endgames_exactly() -> None:
    for pos in random_positions(4, seed=8, min_plies=54, max_plies=56):
        result = choose_move(pos, "hard", think_time=5.0)
        assert result.exact
        assert result.score == _exact_value(pos)
        child = pos.play(result.move)
        assert -_exact_value(child) == result.score


def test_final_score_gives_empties_to_winner() -> None:
    assert final_score_units(0b111, 0b1) == (64 - 2) * DISC
    assert final_score_units(0b1, 0b111) == -(64 - 2) * DISC
    assert final_score_units(0b11, 0b1100) == 0
