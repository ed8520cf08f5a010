"""Benchmarks: each prints its figures, the first line a plain number a script can read."""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from reversi_tui.engine import PASS, Position, parse_position, parse_square, square_name
from reversi_tui.engine.ai.endgame import EndgameResult, solve
from reversi_tui.engine.bitboard import perft
from reversi_tui.terminal import warn

#: Depth 10 takes tens of seconds in pure Python; each ply more about 9 times as long.
SLOW_PERFT = 10


def run_perft(args: argparse.Namespace) -> int:
    """Leaf count (Bik's convention) from the start, then seconds and leaves per second."""
    if args.depth > SLOW_PERFT:
        warn(
            f"reversi bench perft: depth {args.depth} may take a very long time "
            f"(each ply beyond {SLOW_PERFT} about 9 times longer; Ctrl+C stops)"
        )
    start = Position.initial()
    t0 = time.perf_counter()
    nodes = perft(start.player, start.opponent, args.depth)
    seconds = time.perf_counter() - t0
    print(nodes)
    print(f"depth {args.depth}: {seconds:.3f} s, {nodes / max(seconds, 1e-9):,.0f} nodes/s")
    return 0


def run_solve(args: argparse.Namespace) -> int:
    """Solve each position of an .obf file and check it against the file's scores.

    Standard output starts with the median seconds (the plain number of the
    bench convention), then one line per position and a summary; since that
    table is only printed at the end, each line also goes to standard error as
    soon as its position is solved. A move the file does not list is still
    right when its own exact score equals the best one (files often list only
    one of several best moves): that check is solved separately, untimed.
    """
    try:
        lines = Path(args.file).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as err:
        print(f"reversi bench solve: cannot read {args.file}: {err}", file=sys.stderr)
        return 2
    cases = []
    for number, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            cases.append((number, parse_position(line), _reference_scores(line)))
        except ValueError as err:
            print(f"reversi bench solve: {args.file}, line {number}: {err}", file=sys.stderr)
            return 2
    if args.limit is not None:
        cases = cases[: args.limit]
    if not cases:
        print(f"reversi bench solve: {args.file} holds no positions", file=sys.stderr)
        return 2
    rows: list[str] = []
    times: list[float] = []
    cpu_times: list[float] = []
    total_nodes = 0
    mismatches = 0
    for number, position, reference in cases:
        wall, cpu = time.perf_counter(), time.process_time()
        result = solve(position.player, position.opponent)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        times.append(wall)
        cpu_times.append(cpu)
        total_nodes += result.nodes
        verdict = _verdict(position, result, reference)
        mismatches += verdict.startswith("MISMATCH")
        rows.append(
            f"line {number:3d}  {position.empties:2d} empties  {wall:8.3f} s  "
            f"{result.nodes:>11,} nodes  {square_name(result.move):>4} {result.score:+3d}  "
            f"{verdict}"
        )
        print(rows[-1], file=sys.stderr, flush=True)
    print(f"{statistics.median(times):.3f}")
    print("\n".join(rows))
    print(
        f"{len(cases)} positions: median {statistics.median(times):.3f} s, "
        f"mean {statistics.mean(times):.3f} s, max {max(times):.3f} s "
        f"(CPU: median {statistics.median(cpu_times):.3f} s, max {max(cpu_times):.3f} s), "
        f"{total_nodes / max(sum(times), 1e-9):,.0f} nodes/s, {mismatches} mismatches"
    )
    return 1 if mismatches else 0


def _reference_scores(line: str) -> dict[int, int]:
    """``A2:+38; C7:+36`` after the position, as {square: score}; may be empty."""
    scores = {}
    for field in line.split(";")[1:]:
        field = field.strip()
        if field:
            name, sep, value = field.partition(":")
            if not sep:
                raise ValueError(f"{field!r} is not MOVE:SCORE such as A2:+38")
            try:
                scores[parse_square(name)] = int(value)
            except ValueError:
                raise ValueError(f"{field!r} is not MOVE:SCORE such as A2:+38") from None
    return scores


def _verdict(position: Position, result: EndgameResult, reference: dict[int, int]) -> str:
    """OK, MISMATCH (saying what was expected), or "unchecked" without reference."""
    if not reference:
        return "unchecked"
    best = max(reference.values())
    if result.score != best:
        return f"MISMATCH: expected {best:+d}"
    if reference.get(result.move) == best:
        return "OK"
    if result.move == PASS or result.move in reference:
        return f"MISMATCH: the file gives {square_name(result.move)} {reference.get(result.move)}"
    child = position.play(result.move)
    if -solve(child.player, child.opponent).score == best:
        return "OK (move verified)"
    return f"MISMATCH: {square_name(result.move)} does not reach {best:+d}"
