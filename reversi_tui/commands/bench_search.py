"""``reversi bench search``: the midgame search's speed, full width and selective.

The positions come from seeded random games (20 to 36 plies in), so every run
times the same ones. Each is searched with the hand-weighted evaluation and, when
the package has weights, the learned one hard and expert use, each twice per way,
full width and with Multi-ProbCut (``engine.ai.probcut``): once to a fixed depth
(nodes and seconds to get there) and once for a fixed time per move (the depth
reached, what a level's clock buys).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from reversi_tui.commands.options import Commands, int_range


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0.05 <= value <= 60:
        raise argparse.ArgumentTypeError("must be from 0.05 to 60 seconds")
    return value


def add_parser(bench_kinds: Commands) -> None:
    bench = bench_kinds.add_parser(
        "search",
        help="midgame search: nodes per second, nodes to a depth and depth in a time, "
        "full width and selective",
    )
    bench.add_argument(
        "--positions",
        type=int_range(1, 1000),
        default=12,
        metavar="N",
        help="positions from seeded random games (default: 12)",
    )
    bench.add_argument(
        "--depth",
        type=int_range(1, 12),
        default=7,
        metavar="D",
        help="the fixed depth of the first measure (default: 7)",
    )
    bench.add_argument(
        "--time",
        type=_seconds,
        default=1.0,
        metavar="S",
        help="seconds per position of the second measure (default: 1, the hard level's)",
    )
    bench.set_defaults(handler=run_search)


def positions(count: int) -> list[tuple[int, int]]:
    """``count`` midgame positions (mover, opponent) where the mover has a move."""
    from reversi_tui.engine.bitboard import flips, legal_moves

    out: list[tuple[int, int]] = []
    game = 0
    while len(out) < count:
        rng = random.Random(f"bench-search/{game}")
        game += 1
        p, o = 0x0000000810000000, 0x0000001008000000
        for _ in range(rng.randint(20, 36)):
            moves = legal_moves(p, o)
            if not moves:
                p, o = o, p
                continue
            sq = rng.choice([s for s in range(64) if moves >> s & 1])
            f = flips(p, o, sq)
            p, o = o ^ f, p | f | (1 << sq)
        if legal_moves(p, o) and 64 - (p | o).bit_count() > 16:
            out.append((p, o))
    return out


def run_search(args: argparse.Namespace) -> int:
    """The selective levels' nodes per second first (the plain number), then the table:
    the hand-weighted evaluation and, when the package has weights, the learned one,
    each full width and selective."""
    from reversi_tui.engine.ai.evaluation import Evaluator
    from reversi_tui.engine.ai.learned import evaluator
    from reversi_tui.engine.ai.levels import base_evaluator
    from reversi_tui.engine.ai.search import Limits, iterative_deepening

    evaluations: list[tuple[str, Evaluator]] = [("hand", base_evaluator("full"))]
    learned = evaluator()
    if learned is not None:
        evaluations.append(("learned", learned))
    cases = positions(args.positions)
    rows = []
    for name, evaluate in evaluations:
        for selective in (False, True):
            nodes = depth_nodes = 0
            spent = depth_seconds = 0.0
            depths = []
            for p, o in cases:
                started = time.perf_counter()
                _, n = iterative_deepening(
                    p, o, evaluate, Limits(args.depth, None, selective=selective), random.Random(0)
                )
                depth_seconds += time.perf_counter() - started
                depth_nodes += n
                started = time.perf_counter()
                result, n = iterative_deepening(
                    p, o, evaluate, Limits(60, args.time, selective=selective), random.Random(0)
                )
                spent += time.perf_counter() - started
                nodes += n
                depths.append(result.depth)
            rate = nodes / max(spent, 1e-9)
            rows.append((name, selective, rate, depth_nodes, depth_seconds, depths))
    print(f"{rows[-1][2]:.0f}")
    print(
        f"{len(cases)} positions from random games; depth {args.depth}, then {args.time:g} s each"
    )
    print(
        "search      evaluation    nodes/s   nodes to depth   seconds   mean depth in time  min-max"
    )
    for name, selective, rate, depth_nodes, depth_seconds, depths in rows:
        kind = "selective " if selective else "full width"
        print(
            f"{kind}  {name:<9}  {rate:>9,.0f}  {depth_nodes:>15,}  {depth_seconds:>8.2f}  "
            f"{statistics.fmean(depths):>19.2f}   {min(depths)}-{max(depths)}"
        )
    if learned is None:
        print("no learned weights in the package: the hand-weighted evaluation only")
    return 0
