"""Every move ranked (an engine protocol's ``hint N``) and a depth cap under the clock."""

from __future__ import annotations

from reversi_tui.engine import Position, parse_position
from reversi_tui.engine.ai import choose_move, rank_moves
from reversi_tui.engine.ai.endgame import solve_all


def test_every_legal_move_is_ranked_best_first() -> None:
    position = Position.initial().play(37)  # f5: White has d6, f4 and f6
    ranked = rank_moves(position, "hard", think_time=0.3)
    assert sorted(r.move for r in ranked) == position.legal_moves
    scores = [r.score for r in ranked]
    assert scores == sorted(scores, reverse=True)
    assert len({r.depth for r in ranked}) == 1 and ranked[0].depth >= 2


def test_the_depth_cap_holds_while_the_clock_runs() -> None:
    # Out of the opening book (whose moves are not searched): e6 f6 g6 g7.
    position = Position.initial().play(44).play(45).play(46).play(54)
    assert choose_move(position, "expert", think_time=30, max_depth=3).depth == 3
    assert {r.depth for r in rank_moves(position, "expert", think_time=30, max_depth=2)} == {2}


def test_near_the_end_the_ranking_is_exact() -> None:
    position = parse_position("OOOOOOOOOOOOOOOOOOOOOOOOOOOXXXOOOOXXXO--OXXXXO--OXXXXX--OOOOOO-- X")
    ranked = rank_moves(position, "hard")
    exact = solve_all(position.player, position.opponent)
    assert all(r.exact for r in ranked)
    assert [(r.move, r.score) for r in ranked] == [(sq, float(v)) for sq, v in exact]


def test_no_move_no_ranking() -> None:
    position = parse_position("X" * 63 + "- O")
    assert rank_moves(position, "easy") == []
