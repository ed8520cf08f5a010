"""The shipped pattern weights: intact, small, learned here, read only when a level needs them."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from importlib import resources

from reversi_tui.engine.ai import pattern_eval
from reversi_tui.engine.ai.evaluation import DISC, make_evaluator
from reversi_tui.engine.ai.learned import WEIGHTS_SHA256
from reversi_tui.engine.ai.levels import LEVEL_TABLE, base_evaluator
from reversi_tui.engine.ai.pattern_eval import decode_weights, make_pattern_evaluator
from reversi_tui.engine.board import Position


def _bytes() -> bytes:
    return resources.files(pattern_eval.__package__).joinpath(pattern_eval.RESOURCE).read_bytes()


def test_the_shipped_weights_are_the_ones_trained_and_compact() -> None:
    data = _bytes()
    assert hashlib.sha256(data).hexdigest() == WEIGHTS_SHA256
    assert len(data) < 4_000_000
    weights = decode_weights(data)  # checks the payload's own sha256 and layout
    assert "self-play" in weights.meta["origin"] and "no other program" in weights.meta["origin"]
    assert "search" in weights.meta["method"]
    assert len(weights.tables) * weights.phase_empties >= 60


def test_a_damaged_copy_is_refused() -> None:
    data = bytearray(_bytes())
    data[-10] ^= 0xFF
    try:
        decode_weights(bytes(data))
    except pattern_eval.WeightsError as err:
        assert "sha256" in str(err) or "damaged" in str(err) or "checksum" in str(err)
    else:
        raise AssertionError("a damaged weights file was accepted")


def test_hard_and_expert_evaluate_with_the_learned_weights() -> None:
    learned = make_pattern_evaluator(decode_weights(_bytes()))
    assert LEVEL_TABLE["hard"].evaluation == LEVEL_TABLE["expert"].evaluation == "learned"
    evaluate = base_evaluator("learned")
    pos = Position.initial()
    for sq in (19, 18, 17, 9):
        if sq in pos.legal_moves:
            pos = pos.play(sq)
        p, o = pos.player, pos.opponent
        assert evaluate(p, o) == learned(p, o)
    # Not the hand-weighted evaluation in disguise.
    hand = make_evaluator()
    boards = [
        (Position.initial().play(sq).player, Position.initial().play(sq).opponent)
        for sq in Position.initial().legal_moves
    ]
    assert any(evaluate(p, o) != hand(p, o) for p, o in boards)
    # A full board scores exactly.
    assert evaluate((1 << 40) - 1, ((1 << 64) - 1) ^ ((1 << 40) - 1)) == 16 * DISC


def test_starting_the_app_does_not_read_the_weights() -> None:
    code = (
        "import reversi_tui.tui.app, reversi_tui.engine.ai.play\n"
        "from reversi_tui.engine.ai import learned\n"
        "print(learned.weights.cache_info().currsize)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "0"
