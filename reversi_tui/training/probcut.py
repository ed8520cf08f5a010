"""Calibrate Multi-ProbCut on the project's own positions: ``reversi train probcut``.

Every sampled position is searched by iterative deepening to ``depth`` plies with
the evaluation of the levels that search selectively (hard and expert: the learned
one when the package has weights) and no selectivity; each iteration's root value is
kept. For each depth ``d`` from ``probcut.MIN_DEPTH``, the pairs (value at
``shallow_depth(d)``, value at ``d``) are fitted by least squares, and the
residuals' standard deviation is the cut's ``sigma``. Pure Python (no numpy):
a few hundred points per depth.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from reversi_tui.engine.ai import learned
from reversi_tui.engine.ai.levels import base_evaluator, get_level
from reversi_tui.engine.ai.probcut import MIN_DEPTH, Cut, shallow_depth
from reversi_tui.engine.ai.search import Limits, RootResult, iterative_deepening
from reversi_tui.engine.bitboard import legal_moves
from reversi_tui.training.data import RECORD, read_chunks

#: The positions calibrated on: the midgame, where the search is selective.
EMPTIES = range(20, 51)


def sample_positions(directory: Path, count: int, seed: int) -> list[tuple[int, int]]:
    """``count`` midgame positions (player, opponent) of a data directory, by ``seed``."""
    raw = b"".join(read_chunks(directory))
    pool = []
    for offset in range(0, len(raw), RECORD.size):
        p, o = RECORD.unpack_from(raw, offset)[:2]
        if 64 - (p | o).bit_count() in EMPTIES and legal_moves(p, o):
            pool.append((p, o))
    if not pool:
        raise ValueError(f"{directory} holds no midgame positions")
    rng = random.Random(f"probcut/{seed}")
    return rng.sample(pool, min(count, len(pool)))


def fit_line(xs: list[float], ys: list[float]) -> tuple[float, float, float]:
    """Least squares ``y ~ slope * x + intercept``: (slope, intercept, residual sd)."""
    mean_x, mean_y = statistics.fmean(xs), statistics.fmean(ys)
    sxx = sum((x - mean_x) ** 2 for x in xs)
    sxy = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True))
    slope = sxy / sxx if sxx else 1.0
    intercept = mean_y - slope * mean_x
    residuals = [y - slope * x - intercept for x, y in zip(xs, ys, strict=True)]
    return slope, intercept, statistics.pstdev(residuals)


def calibrate(
    directory: Path, count: int, depth: int, seed: int, report: Callable[[str], None]
) -> dict[int, Cut]:
    """Each depth's cut from ``count`` positions searched to ``depth``."""
    positions = sample_positions(directory, count, seed)
    if learned.weights() is None:
        raise ValueError("the table is calibrated with the pinned pattern weights, refused here")
    evaluate = base_evaluator(get_level("hard").evaluation)
    values: list[dict[int, int]] = []
    started = time.perf_counter()
    for number, (p, o) in enumerate(positions, 1):
        by_depth: dict[int, int] = {}

        def keep(
            result: RootResult, _scores: dict[int, int], into: dict[int, int] = by_depth
        ) -> None:
            into[result.depth] = result.score

        iterative_deepening(
            p, o, evaluate, Limits(depth, None), random.Random(0), on_iteration=keep
        )
        values.append(by_depth)
        if number % 20 == 0:
            report(f"{number}/{len(positions)} positions in {time.perf_counter() - started:.0f} s")
    cuts = {}
    for d in range(MIN_DEPTH, depth + 1):
        s = shallow_depth(d)
        pairs = [(v[s], v[d]) for v in values if s in v and d in v]
        if len(pairs) < 10:
            continue
        slope, intercept, sigma = fit_line(
            [float(a) for a, _ in pairs], [float(b) for _, b in pairs]
        )
        cuts[d] = Cut(s, round(slope, 3), round(intercept, 1), round(sigma, 1))
    return cuts


def table_source(cuts: dict[int, Cut], weights_sha256: str) -> str:
    """The cuts as the Python literal ``probcut.CUTS`` holds, and the weights they were
    calibrated with as ``probcut.WEIGHTS_SHA256`` holds them."""
    lines = [f'WEIGHTS_SHA256 = "{weights_sha256}"', "CUTS: dict[int, Cut] = {"]
    for d, cut in sorted(cuts.items()):
        lines.append(f"    {d}: Cut({cut.shallow}, {cut.slope}, {cut.intercept}, {cut.sigma}),")
    lines.append("}")
    return "\n".join(lines)
