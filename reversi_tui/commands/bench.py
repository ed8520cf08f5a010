"""Benchmarks: each prints its figures, the first line a plain number a script can read."""

from __future__ import annotations

import argparse
import time

from reversi_tui.engine import Position
from reversi_tui.engine.bitboard import perft


def run_perft(args: argparse.Namespace) -> int:
    """Leaf count (Bik's convention) from the start, then seconds and leaves per second."""
    start = Position.initial()
    t0 = time.perf_counter()
    nodes = perft(start.player, start.opponent, args.depth)
    seconds = time.perf_counter() - t0
    print(nodes)
    print(f"depth {args.depth}: {seconds:.3f} s, {nodes / max(seconds, 1e-9):,.0f} nodes/s")
    return 0
