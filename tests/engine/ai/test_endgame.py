"""The exact endgame solver against reference files, brute force and hand-made cases."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reversi_tui.engine import PASS, Position, parse_position, parse_square
from reversi_tui.engine.ai import endgame, native_endgame
from reversi_tui.engine.ai.endgame import (
    EndgameResult,
    final_score,
    flips,
    solve,
    solve_all,
    solve_best_moves,
    solve_position,
)
from reversi_tui.engine.bitboard import flips as reference_flips
from reversi_tui.engine.bitboard import legal_moves
from tests.engine.ai.helpers import StopAfter, endgame_cases

#: Every test here runs against each node search this install has: the Python
#: one always, the C one where it was built (test_native_endgame.py checks that
#: CI builds it).
SOLVERS = ["python", *(["c"] if native_endgame.MODULE is not None else [])]


@pytest.fixture(autouse=True, params=SOLVERS)
def solver(request: pytest.FixtureRequest) -> Iterator[str]:
    before = endgame.solver_name()
    endgame.use_solver(request.param)
    yield request.param
    endgame.use_solver(before)


def _score_after(position: Position, move: int) -> int:
    """Exact score of ``move`` for the side to move, by solving the position it leads to."""
    child = position.play(move)
    return -solve(child.player, child.opponent).score


def brute_force(p: int, o: int) -> int:
    """Plain negamax to the end of the game, no pruning: slow and obviously right."""
    moves = legal_moves(p, o)
    if not moves:
        if not legal_moves(o, p):
            n_p, n_o = p.bit_count(), o.bit_count()
            empties = 64 - n_p - n_o
            if n_p == n_o:
                return 0
            return n_p - n_o + (empties if n_p > n_o else -empties)
        return -brute_force(o, p)
    best = -65
    for sq in range(64):
        if moves >> sq & 1:
            f = reference_flips(p, o, sq)
            best = max(best, -brute_force(o ^ f, p | f | (1 << sq)))
    return best


def random_endgame(seed: int, empties: int) -> Position:
    """A position from a random game with ``empties`` empty squares (maybe finished)."""
    rng = random.Random(seed)
    while True:
        pos = Position.initial()
        while pos.empties > empties and not pos.is_game_over:
            moves = pos.legal_moves
            pos = pos.play(rng.choice(moves) if moves else PASS)
        if pos.empties == empties:
            return pos


@pytest.mark.parametrize(("position", "score", "move"), endgame_cases("endgame_e10.obf"))
def test_ten_empties_match_the_reference(position: Position, score: int, move: str) -> None:
    result = solve(position.player, position.opponent)
    assert result.score == score
    # The file lists one best move; another one reaching the same score is as good.
    assert result.move == parse_square(move) or _score_after(position, result.move) == score


@pytest.mark.parametrize(("position", "score", "move"), endgame_cases("endgame_e12.obf"))
def test_twelve_empties_match_the_reference(position: Position, score: int, move: str) -> None:
    result = solve(position.player, position.opponent)
    assert result.score == score
    assert result.move == parse_square(move) or _score_after(position, result.move) == score
    assert result.nodes > 0


@settings(max_examples=40)
@given(seed=st.integers(0, 10**6), empties=st.integers(1, 7))
def test_agrees_with_brute_force(seed: int, empties: int) -> None:
    pos = random_endgame(seed, empties)
    expected = brute_force(pos.player, pos.opponent)
    result = solve(pos.player, pos.opponent)
    assert result.score == expected
    if result.move != PASS:
        assert _score_after(pos, result.move) == expected


@settings(max_examples=40)
@given(
    seed=st.integers(0, 10**6),
    empties=st.integers(1, 8),
    alpha=st.integers(-64, 62),
    width=st.integers(1, 40),
)
def test_fail_soft_bounds_around_any_window(
    seed: int, empties: int, alpha: int, width: int
) -> None:
    pos = random_endgame(seed, empties)
    beta = min(alpha + width, 64)
    exact = solve(pos.player, pos.opponent).score
    bound = solve(pos.player, pos.opponent, alpha, beta).score
    if bound <= alpha:
        assert exact <= bound
    elif bound >= beta:
        assert exact >= bound
    else:
        assert exact == bound


@given(st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1), st.integers(0, 63))
def test_table_flips_equal_ray_flips(p: int, o: int, sq: int) -> None:
    o &= ~p
    p &= ~(1 << sq)
    o &= ~(1 << sq)
    assert flips(p, o, sq) == reference_flips(p, o, sq)


def test_game_over_scores_the_final_board_with_empties_to_the_winner() -> None:
    # Black fills rows 1-5 but for a1..a5, white rows 7-8, row 6 is empty: no
    # disc touches another colour, so neither side can move. Black 35, white
    # 16, and the 13 empties go to black: 35 - 16 + 13 = 32.
    black = (1 << 40) - 1
    for row in range(5):
        black &= ~(1 << (row * 8))
    white = ((1 << 64) - 1) ^ ((1 << 48) - 1)
    assert final_score(black, white) == 32
    assert solve(black, white) == EndgameResult(32, PASS, 1)
    assert solve(white, black).score == -32
    # A tie splits the empties, so the difference stays 0.
    assert final_score(0xFF, 0xFF00) == 0


def test_wipe_out_gives_every_empty_to_the_winner() -> None:
    # Black a1, white b1: c1 flips the last white disc and ends the game 3-0.
    result = solve(1 << 0, 1 << 1)
    assert result.score == 64
    assert result.move == parse_square("c1")


#: Hand-made: empties a1 and h1; white holds b1, g1 and c5 (on no line through
#: a1 or h1 but the first row), black the rest. Black a1 flips b1 and h1 flips
#: g1; white can never move (no black run from a1 or h1 ends on a white disc),
#: so whichever black plays, white passes and black plays the other corner:
#: 63 black discs against c5, score +62.
PASS_INSIDE = "-OXXXXO-" + "X" * 24 + "XXOXXXXX" + "X" * 24


def test_pass_inside_the_endgame() -> None:
    result = solve_position(parse_position(PASS_INSIDE + " X"))
    assert result.score == 62
    assert result.move in (parse_square("a1"), parse_square("h1"))
    assert sorted(solve_all(*_masks(PASS_INSIDE + " X"))) == [(0, 62), (7, 62)]


def test_side_to_move_must_pass_returns_pass_and_its_score() -> None:
    result = solve_position(parse_position(PASS_INSIDE + " O"))
    assert result.move == PASS
    assert result.score == -62


def test_passes_in_random_positions_match_brute_force() -> None:
    seen = 0
    for seed in range(300):
        pos = random_endgame(seed, 6)
        if pos.must_pass:
            seen += 1
            result = solve_position(pos)
            assert result.move == PASS
            assert result.score == brute_force(pos.player, pos.opponent)
    assert seen


def _masks(text: str) -> tuple[int, int]:
    pos = parse_position(text)
    return pos.player, pos.opponent


def test_solve_all_scores_every_move_best_first() -> None:
    position, score, _ = endgame_cases("endgame_e10.obf")[2]
    scored = solve_all(position.player, position.opponent)
    assert sorted(sq for sq, _ in scored) == position.legal_moves
    assert scored[0][1] == score
    assert [v for _, v in scored] == sorted((v for _, v in scored), reverse=True)
    for sq, v in scored:
        assert _score_after(position, sq) == v


def test_solve_all_is_empty_when_the_side_to_move_must_pass() -> None:
    assert solve_all(*_masks(PASS_INSIDE + " O")) == []


def test_best_moves_lists_every_tie() -> None:
    for seed in range(40):
        pos = random_endgame(seed, 6)
        if pos.must_pass or pos.is_game_over:
            continue
        scores = dict(solve_all(pos.player, pos.opponent))
        best = max(scores.values())
        solution = solve_best_moves(pos.player, pos.opponent)
        assert solution.score == best
        assert solution.moves == tuple(sorted(sq for sq, v in scores.items() if v == best))
        assert solve_best_moves(pos.player, pos.opponent, all_scores=True).scores == scores


def test_a_stop_check_that_never_fires_changes_nothing() -> None:
    position, score, _ = endgame_cases("endgame_e12.obf")[11]
    stop = StopAfter(10**9)
    result = solve(position.player, position.opponent, should_stop=stop)
    assert result.score == score
    assert stop.calls >= 1
    assert result == solve(position.player, position.opponent)
