"""Positions for the AI tests: reproducible random games, and a brute-force reference."""

from __future__ import annotations

import random
from pathlib import Path

from reversi_tui.engine import PASS, Position, parse_position
from reversi_tui.engine.ai.evaluation import Evaluator, final_score_units
from reversi_tui.engine.bitboard import flips, legal_moves, squares

DATA = Path(__file__).parent.parent.parent / "data"


def random_positions(
    count: int, seed: int, min_plies: int = 4, max_plies: int = 56
) -> list[Position]:
    """Positions from random games, passes included; never a finished game."""
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        pos = Position.initial()
        for _ in range(rng.randint(min_plies, max_plies)):
            if pos.is_game_over:
                break
            moves = pos.legal_moves
            pos = pos.play(rng.choice(moves) if moves else PASS)
        if not pos.is_game_over:
            out.append(pos)
    return out


def minimax(p: int, o: int, depth: int, evaluate: Evaluator) -> int:
    """Plain negamax without pruning: the value the search must reproduce exactly."""
    if depth <= 0:
        return evaluate(p, o)
    moves = legal_moves(p, o)
    if not moves:
        if not legal_moves(o, p):
            return final_score_units(p, o)
        return -minimax(o, p, depth, evaluate)
    return max(
        -minimax(o ^ (f := flips(p, o, sq)), p | f | (1 << sq), depth - 1, evaluate)
        for sq in squares(moves)
    )


def endgame_cases(name: str) -> list[tuple[Position, int, str]]:
    """(position, best score, best move name) for each line of a reference file."""
    out = []
    for line in (DATA / name).read_text().splitlines():
        move, score = line.split(";")[1].strip().split(":")
        out.append((parse_position(line), int(score), move.lower()))
    return out


class StopAfter:
    """A stop check that says stop on its ``limit``-th call and counts every call."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.calls = 0

    def __call__(self) -> bool:
        self.calls += 1
        return self.calls >= self.limit
