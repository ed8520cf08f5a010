"""Stable discs: never a disc that can still flip, and the solver's cut-off built on them."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from reversi_tui.engine import parse_position, parse_square
from reversi_tui.engine.ai import endgame
from reversi_tui.engine.ai.endgame import solve
from reversi_tui.engine.ai.stability import stable_discs
from reversi_tui.engine.bitboard import FULL, flips, legal_moves

DATA = Path(__file__).parent.parent.parent / "data"


def _mask(*names: str) -> int:
    return sum(1 << parse_square(name) for name in names)


def _random_game(rng: random.Random) -> list[tuple[int, int]]:
    """(black, white) after every move of a random game to its end."""
    black, white = _mask("d5", "e4"), _mask("d4", "e5")
    turn = 0
    history = []
    while True:
        p, o = (black, white) if turn == 0 else (white, black)
        moves = legal_moves(p, o)
        if not moves:
            if not legal_moves(o, p):
                return history
            turn ^= 1
            continue
        sq = rng.choice([i for i in range(64) if moves >> i & 1])
        f = flips(p, o, sq)
        p, o = p | f | 1 << sq, o ^ f
        black, white = (p, o) if turn == 0 else (o, p)
        turn ^= 1
        history.append((black, white))


def test_no_reported_stable_disc_ever_changes_colour() -> None:
    rng = random.Random(7)
    found = 0
    for _ in range(60):
        history = _random_game(rng)
        for i, (black, white) in enumerate(history):
            stable_black, stable_white = stable_discs(black, white), stable_discs(white, black)
            found += stable_black.bit_count() + stable_white.bit_count()
            for later_black, later_white in history[i:]:
                assert not stable_black & ~later_black
                assert not stable_white & ~later_white
    assert found > 10_000  # the games reach the edges: the check is not empty


def test_a_full_board_is_all_stable() -> None:
    p = 0x00FF00FF00FF00FF
    assert stable_discs(p, FULL ^ p) == p
    assert stable_discs(FULL ^ p, p) == FULL ^ p


def test_corners_and_the_discs_they_anchor() -> None:
    p = _mask("a1", "b1", "c1", "a2", "h8")
    o = _mask("d1", "b2", "d4", "e5")
    assert stable_discs(p, o) == p
    # The opponent's d1 can still be flipped from e1 (c1 is the player's).
    assert not stable_discs(o, p) & _mask("d1")


def test_an_edge_run_between_empties_is_not_stable() -> None:
    p = _mask("c1", "d1")
    o = _mask("e1", "d4", "e5")
    assert stable_discs(p, o) == 0


def test_inner_discs_protected_on_every_line() -> None:
    # Row 1 and column a full of the player's discs: b2 touches stable discs on
    # its row (a2), column (b1) and one diagonal (a1); its other diagonal
    # (a3-b2-c1) holds a3 and c1, both stable.
    p = (0xFF | 0x0101010101010101) | _mask("b2")
    o = _mask("d4", "e5")
    assert stable_discs(p, o) & _mask("b2")
    # With a3 and c1 empty the a3-c1 diagonal is open: b2 could be flipped along it.
    p2 = p & ~_mask("c1", "d1", "e1", "f1", "g1", "h1", "a3", "a4", "a5", "a6", "a7", "a8")
    assert stable_discs(p2, o) == _mask("a1", "b1", "a2")


def test_the_cut_off_saves_nodes_and_keeps_the_score(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(endgame, "_native", False)  # the Python solver's threshold table
    # A position won by a wide margin: the winner's nodes ask for more than the
    # loser's stable discs allow. Same exact score with and without the cut-off.
    lines = (DATA / "endgame_e12.obf").read_text().splitlines()
    line = max(lines, key=lambda text: int(text.split(":")[1].rstrip(";")))
    position = parse_position(line)
    with_cut = solve(position.player, position.opponent)
    monkeypatch.setattr(endgame, "_STABILITY_ALPHA", (99,) * 65)
    without = solve(position.player, position.opponent)
    assert with_cut.score == without.score == int(line.split(":")[1].rstrip(";"))
    assert with_cut.nodes < without.nodes
