"""The evaluation: symmetric under the board's symmetries, sensible on the classic features."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from reversi_tui.engine import parse_position
from reversi_tui.engine.ai.evaluation import DISC, EDGE_TABLE, evaluate

from .helpers import random_positions


def _map(mask: int, f: Callable[[int, int], tuple[int, int]]) -> int:
    out = 0
    for sq in range(64):
        if mask >> sq & 1:
            r, c = f(*divmod(sq, 8))
            out |= 1 << (r * 8 + c)
    return out


SYMMETRIES: list[Callable[[int, int], tuple[int, int]]] = [
    lambda r, c: (r, 7 - c),
    lambda r, c: (7 - r, c),
    lambda r, c: (c, r),
    lambda r, c: (7 - c, 7 - r),
    lambda r, c: (7 - r, 7 - c),
    lambda r, c: (c, 7 - r),
    lambda r, c: (7 - c, r),
]


@pytest.mark.parametrize("sym", range(len(SYMMETRIES)))
def test_evaluation_is_invariant_under_board_symmetries(sym: int) -> None:
    f = SYMMETRIES[sym]
    for pos in random_positions(30, seed=21):
        p, o = pos.player, pos.opponent
        assert evaluate(_map(p, f), _map(o, f)) == evaluate(p, o)


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
