import random
from pathlib import Path

import pytest

from reversi_tui.engine import Position
from reversi_tui.engine.bitboard import flips, legal_moves, perft, squares

PERFT = {
    int(depth): int(count)
    for depth, count in (
        line.split("\t")
        for line in (Path(__file__).parent.parent / "data" / "perft.txt").read_text().split("\n")
        if line
    )
}


@pytest.mark.parametrize("depth", range(1, 8))
def test_perft_matches_published_counts(depth: int) -> None:
    start = Position.initial()
    assert perft(start.player, start.opponent, depth) == PERFT[depth]


def test_perft_depth_8() -> None:
    start = Position.initial()
    assert perft(start.player, start.opponent, 8) == PERFT[8] == 390216


def test_start_moves_are_d3_c4_f5_e6() -> None:
    start = Position.initial()
    assert list(squares(legal_moves(start.player, start.opponent))) == [19, 26, 37, 44]


def test_no_wraparound_across_edges() -> None:
    # Black h1, white a2: shifting east from h1 must not reach a2 and b2.
    p = 1 << 7
    o = (1 << 8) | (1 << 9)
    assert legal_moves(p, o) & (1 << 10) == 0


def test_flips_every_outflanked_line() -> None:
    # Black at a1, c1, a3, c3 around white b1, a2, b2... move at... build a star:
    # d4 empty, white ring around it, black ring beyond: all eight lines flip.
    centre = 3 * 8 + 3
    o = p = 0
    for dr, dc in ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)):
        o |= 1 << ((3 + dr) * 8 + 3 + dc)
        p |= 1 << ((3 + 2 * dr) * 8 + 3 + 2 * dc)
    assert flips(p, o, centre) == o
    assert legal_moves(p, o) >> centre & 1


def naive_perft(pos: Position, depth: int) -> int:
    """Perft through the Position API only: one move at a time, passes as plies."""
    if depth == 0 or pos.is_game_over:
        return 1
    if pos.must_pass:
        return naive_perft(pos.pass_turn(), depth - 1)
    return sum(naive_perft(pos.play(m), depth - 1) for m in pos.legal_moves)


def test_packed_perft_agrees_with_naive_perft_in_random_positions() -> None:
    rng = random.Random(5)
    checked = 0
    for _ in range(40):
        pos = Position.initial()
        for _ in range(rng.randrange(10, 58)):
            if pos.is_game_over:
                break
            pos = pos.pass_turn() if pos.must_pass else pos.play(rng.choice(pos.legal_moves))
        for depth in (1, 2, 3):
            assert perft(pos.player, pos.opponent, depth) == naive_perft(pos, depth)
            checked += 1
    assert checked == 120
