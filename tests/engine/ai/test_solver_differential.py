"""The C and the Python node searches agree on any board, not only on reference sets.

Positions from random games (reachable, passes included) and random disc sets
(most unreachable, many with passes or already finished), up to 14 empties, each
solved exactly by both and tested against a null window; and boards where the side
to move has 35 moves, beyond any game. Fixed seeds: a failure names its position.
"""

from __future__ import annotations

import random

import pytest

from reversi_tui.engine import PASS, Position
from reversi_tui.engine.ai.endgame import Search
from reversi_tui.engine.ai.native_endgame import MODULE
from reversi_tui.engine.bitboard import FULL, legal_moves
from tests.engine.ai.many_moves import MANY_MOVES

pytestmark = pytest.mark.skipif(MODULE is None, reason="the C solver was not built")

#: The most empties compared: the Python solver's cost doubles with each one.
MOST_EMPTIES = 14


def played(rng: random.Random, empties: int) -> tuple[int, int]:
    """A position of a random game with ``empties`` empty squares, or its end if sooner."""
    pos = Position.initial()
    while pos.empties > empties and not pos.is_game_over:
        moves = pos.legal_moves
        pos = pos.play(rng.choice(moves) if moves else PASS)
    return pos.player, pos.opponent


def scattered(rng: random.Random, empties: int) -> tuple[int, int]:
    """Random discs on all but ``empties`` squares, one side more numerous at random."""
    squares = rng.sample(range(64), 64 - empties)
    share = rng.uniform(0.15, 0.85)
    p = sum(1 << sq for sq in squares if rng.random() < share)
    return p, sum(1 << sq for sq in squares) & ~p & FULL


def passing(rng: random.Random, empties: int) -> tuple[int, int]:
    """Scattered discs where the side to move must pass and the other can play."""
    while True:
        p, o = scattered(rng, max(empties, 1))
        if not legal_moves(p, o) and legal_moves(o, p):
            return p, o


#: The kinds of position compared, in turn.
KINDS = (played, scattered, passing)


def positions(seed: int, count: int, most: int) -> list[tuple[int, int]]:
    """``count`` positions of each kind in turn, their empties spread from 0 to ``most``."""
    rng = random.Random(seed)
    return [KINDS[i % len(KINDS)](rng, rng.randint(0, most)) for i in range(count)]


def python_score(p: int, o: int, alpha: int, beta: int) -> int:
    n = 64 - (p | o).bit_count()
    return Search(None).node(p, o, alpha, beta, n, legal_moves(p, o))


def c_score(p: int, o: int, alpha: int, beta: int) -> int:
    assert MODULE is not None
    score = MODULE.Search(None, 12).node(p, o, alpha, beta)
    assert score is not None
    return score


def compare(seed: int, count: int, most: int) -> dict[str, int]:
    """Both searches on ``positions(seed, count, most)``; counts of the kinds of position seen."""
    rng = random.Random(seed + 1)
    seen = {"pass": 0, "over": 0, "most": 0}
    for p, o in positions(seed, count, most):
        where = f"seed {seed}: p={p:#x} o={o:#x}"
        exact = python_score(p, o, -64, 64)
        assert c_score(p, o, -64, 64) == exact, where
        # A null window around a random even threshold: both must fail the same way.
        t = 2 * rng.randint(-32, 32)
        for alpha, beta in ((t - 1, t + 1), (t - 2, t)):
            assert (c_score(p, o, alpha, beta) >= beta) == (exact >= beta), (where, alpha)
            assert (python_score(p, o, alpha, beta) >= beta) == (exact >= beta), (where, alpha)
        if not legal_moves(p, o):
            seen["over" if not legal_moves(o, p) else "pass"] += 1
        seen["most"] += 64 - (p | o).bit_count() == most
    return seen


@pytest.mark.parametrize("seed", [1, 2])
def test_the_c_and_python_solvers_agree_on_random_positions(seed: int) -> None:
    seen = compare(seed, 150, MOST_EMPTIES - 2)
    # The sample holds the awkward cases it is meant to: passes, ends, the most empties.
    assert seen["pass"] >= 50
    assert seen["over"] >= 3
    assert seen["most"] >= 5


@pytest.mark.slow
def test_the_c_and_python_solvers_agree_up_to_14_empties() -> None:
    seen = compare(3, 200, MOST_EMPTIES)
    assert seen["most"] >= 5


def test_the_c_and_python_solvers_agree_where_35_moves_overflowed_the_c_one() -> None:
    # Only a window both settle quickly: 35 empties are beyond a full solve, and the
    # Python search takes seconds there, so it sees one image of each board.
    for i, (p, o) in enumerate(MANY_MOVES):
        assert c_score(p, o, -65, -64) >= -64
        if i % 4 == 0:
            assert python_score(p, o, -65, -64) >= -64
