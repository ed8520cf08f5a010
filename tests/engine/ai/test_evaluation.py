"""The evaluation: symmetric under the board's symmetries, sensible on the classic features."""

from __future__ import annotations

import pytest

from reversi_tui.engine import parse_position
from reversi_tui.engine.ai.evaluation import DISC, EDGE_TABLE, evaluate
from reversi_tui.engine.ai.patterns import SYMMETRIES, transform_mask

from .helpers import random_positions


@pytest.mark.parametrize("sym", range(1, len(SYMMETRIES)))
def test_evaluation_is_invariant_under_board_symmetries(sym: int) -> None:
    f = SYMMETRIES[sym]
    for pos in random_positions(30, seed=21):
        p, o = pos.player, pos.opponent
        assert evaluate(transform_mask(p, f), transform_mask(o, f)) == evaluate(p, o)


def test_full_edge_of_own_discs_is_worth_corners_and_stability() -> None:
    assert EDGE_TABLE[0xFF << 8] > 0
    assert EDGE_TABLE[0xFF] == -EDGE_TABLE[0xFF << 8]
    # A lone C square next to an empty corner is a liability.
    assert EDGE_TABLE[0b10 << 8] < 0


def test_owning_a_corner_beats_giving_one() -> None:
    start = parse_position("---------------------------OX------XO--------------------------- X")
    p, o = start.player, start.opponent
    assert evaluate(p | 1, o) > evaluate(p, o | 1) + DISC


def test_x_square_next_to_empty_corner_is_bad() -> None:
    base = parse_position("---------------------------OX------XO--------------------------- X")
    with_x = base.player | (1 << 9)  # b2, corner a1 empty
    with_inner = base.player | (1 << 18)  # c3
    assert evaluate(with_x, base.opponent) < evaluate(with_inner, base.opponent)
