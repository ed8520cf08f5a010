"""Levels: legal play in whole games, reproducible with a seed, ordered by strength."""

from __future__ import annotations

import random

import pytest

from reversi_tui.engine import PASS, Position
from reversi_tui.engine.ai import LEVELS, choose_move, endgame, get_level, hint, native_endgame

from .helpers import endgame_cases, random_positions


def test_level_names_in_order() -> None:
    assert LEVELS == ("easy", "medium", "hard", "expert")
    budgets = [get_level(name).budget for name in LEVELS]
    assert budgets == sorted(budgets)
    with pytest.raises(ValueError, match="choose from"):
        get_level("grandmaster")


@pytest.mark.parametrize(("black", "white"), [("easy", "expert"), ("hard", "medium")])
def test_levels_play_whole_games_legally(black: str, white: str) -> None:
    rng = random.Random(4)
    pos = Position.initial()
    plies = 0
    while not pos.is_game_over:
        level = black if pos.turn == 0 else white
        result = choose_move(pos, level, think_time=0.03, rng=rng)
        assert pos.is_legal(result.move), (level, result)
        assert (result.move == PASS) == pos.must_pass
        pos = pos.play(result.move)
        plies += 1
    assert plies >= 58


def test_same_seed_same_moves_even_with_noise() -> None:
    for pos in random_positions(10, seed=5):
        a = choose_move(pos, "easy", depth=2, rng=random.Random(9))
        b = choose_move(pos, "easy", depth=2, rng=random.Random(9))
        assert a == b or (a.move, a.score) == (b.move, b.score)


def test_easy_varies_with_the_seed() -> None:
    pos = random_positions(1, seed=6, min_plies=12, max_plies=12)[0]
    moves = {choose_move(pos, "easy", depth=2, rng=random.Random(s)).move for s in range(30)}
    assert len(moves) > 1


def test_hint_is_a_legal_move() -> None:
    pos = random_positions(1, seed=2, min_plies=50, max_plies=50)[0]
    result = hint(pos)
    assert pos.is_legal(result.move)


def test_the_c_solver_lets_hard_and_expert_solve_earlier() -> None:
    assert [get_level(name).exact_from("python") for name in LEVELS] == [0, 8, 14, 16]
    assert [get_level(name).exact_from("c") for name in LEVELS] == [0, 8, 18, 21]


@pytest.mark.skipif(native_endgame.MODULE is None, reason="the C solver was not built")
def test_hard_plays_18_empties_exactly_with_the_c_solver() -> None:
    position, score, _ = endgame_cases("endgame_e18.obf")[0]
    endgame.use_solver("c")
    result = choose_move(position, "hard", think_time=60)
    assert result.exact and result.score == score
    endgame.use_solver("python")
    try:
        # Python: above hard's 14 empties, so a timed midgame search instead.
        assert not choose_move(position, "hard", think_time=0.2).exact
    finally:
        endgame.use_solver("c")
