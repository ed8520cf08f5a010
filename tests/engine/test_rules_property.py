"""The bitboard engine and a simple array implementation agree on random games, move by move."""

from hypothesis import given, settings
from hypothesis import strategies as st

from reversi_tui.engine import PASS, Color, Game
from tests.engine.simple_reversi import BLACK, WHITE, SimpleBoard

COLOURS = {Color.BLACK: BLACK, Color.WHITE: WHITE}


def assert_same(game: Game, ref: SimpleBoard) -> None:
    pos = game.position
    for sq in range(64):
        cell = ref.cells[sq // 8][sq % 8]
        colour = pos.color_at(sq)
        assert cell == (COLOURS[colour] if colour is not None else 0), sq
    assert COLOURS[pos.turn] == ref.turn
    expected = sorted(r * 8 + c for r, c in ref.moves(ref.turn))
    assert pos.legal_moves == expected
    assert game.is_over == ref.game_over()


@settings(max_examples=1000)
@given(st.randoms(use_true_random=False))
def test_random_games_agree_with_array_implementation(rng) -> None:
    game, ref = Game(), SimpleBoard()
    while True:
        assert_same(game, ref)
        if game.is_over:
            break
        sq = rng.choice(game.legal_moves)
        before = game.position
        plies = game.play(sq)
        flipped = ref.play(sq // 8, sq % 8)
        assert plies[0].flipped == sum(1 << (r * 8 + c) for r, c in flipped)
        assert before.flips(sq) == plies[0].flipped
        if len(plies) > 1:
            # The model passed for the next side: the array board must agree it had no move.
            assert plies[1].move == PASS
            assert not ref.moves(ref.turn) and ref.moves(BLACK + WHITE - ref.turn)
            ref.pass_turn()
    outcome = game.outcome()
    assert (outcome.black, outcome.white) == (ref.count(BLACK), ref.count(WHITE))
    black, white = outcome.final_score
    assert black + white == 64
    if outcome.winner is Color.BLACK:
        assert black == ref.count(BLACK) + (64 - ref.count(BLACK) - ref.count(WHITE))
    elif outcome.winner is None:
        assert black == white == 32
