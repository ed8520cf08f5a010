"""Benchmarks: each prints its figures, the first line a plain number a script can read."""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import TYPE_CHECKING

from reversi_tui.commands import bench_eval, bench_fuzz, bench_online, bench_search, bench_tui
from reversi_tui.commands.options import Commands, int_range
from reversi_tui.commands.solve import (
    add_jobs_option,
    add_solver_option,
    choose_solver,
    jobs_wanted,
    slow_empties,
)
from reversi_tui.engine import PASS, Position, parse_position, parse_square, square_name
from reversi_tui.engine.bitboard import perft
from reversi_tui.terminal import warn

if TYPE_CHECKING:
    from reversi_tui.engine.ai.endgame import EndgameResult
    from reversi_tui.parallel_solver import ParallelSolver

#: Depth 10 takes tens of seconds in pure Python; each ply more about 9 times as long.
SLOW_PERFT = 10
#: The longest line of a positions file (one with every move's score is under 400).
MAX_LINE = 4096
#: How Edax's obf files write a pass.
PASS_NAMES = ("PS", "PA", "PASS")

#: A position to solve: its line number, the position, and the file's scores.
Case = tuple[int, Position, dict[int, int]]


def add_parser(commands: Commands) -> None:
    """``reversi bench``'s kinds and their options; each kind names its handler."""
    bench = commands.add_parser(
        "bench", help="benchmarks: perft, solve FILE, eval, search, tui, fuzz, online"
    )
    bench_kinds = bench.add_subparsers(dest="bench", metavar="KIND", required=True)
    perft = bench_kinds.add_parser("perft", help="count leaves from the start position")
    perft.set_defaults(handler=run_perft)
    perft.add_argument(
        "depth",
        nargs="?",
        type=int_range(0, 14),
        default=9,
        metavar="DEPTH",
        help="plies from the start position, 0-14 (default: 9, about 3 million leaves; "
        "each further ply takes about 9 times as long)",
    )
    bench_solve = bench_kinds.add_parser("solve", help="solve every position of an .obf file")
    bench_solve.add_argument("file", metavar="FILE", help="positions, one per line (obf format)")
    bench_solve.add_argument(
        "--limit", type=int_range(1, 100000), metavar="N", help="solve only the first N"
    )
    add_jobs_option(bench_solve)
    add_solver_option(bench_solve)
    bench_solve.set_defaults(handler=run_solve)
    bench_eval.add_parser(bench_kinds)
    bench_search.add_parser(bench_kinds)
    bench_tui.add_parser(bench_kinds)
    bench_online.add_parser(bench_kinds)
    bench_fuzz.add_parser(bench_kinds)


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
        cases = read_cases(args.file, args.limit)
    except (OSError, UnicodeDecodeError) as err:
        warn(f"reversi bench solve: cannot read {args.file}: {err}")
        return 2
    except ValueError as err:
        warn(f"reversi bench solve: {args.file}, {err}")
        return 2
    if not cases:
        warn(f"reversi bench solve: {args.file} holds no positions")
        return 2
    if not choose_solver(args, "reversi bench solve"):
        return 2
    limit = slow_empties()
    slow = [(number, position) for number, position, _ in cases if position.empties > limit]
    if slow:
        number, position = max(slow, key=lambda case: case[1].empties)
        others = f" ({len(slow)} positions above {limit})" if len(slow) > 1 else ""
        warn(
            f"reversi bench solve: line {number} has {position.empties} empty squares{others}: "
            "this may take a very long time (Ctrl+C stops)"
        )
    from reversi_tui.engine.ai.endgame import solver_name
    from reversi_tui.parallel_solver import ParallelSolver  # the solver: only when it runs

    with ParallelSolver(jobs_wanted(args)) as solver:
        rows, times, cpu_times, total_nodes, mismatches = _solve_cases(cases, solver)
        processes = solver.jobs if solver.parallel else 1
    print(f"{statistics.median(times):.3f}")
    print("\n".join(rows))
    # The CPU time is this process's: with workers it leaves their share out.
    cpu = (
        f"CPU: median {statistics.median(cpu_times):.3f} s, max {max(cpu_times):.3f} s"
        if processes == 1
        else f"{processes} processes"
    )
    print(
        f"{len(cases)} positions: median {statistics.median(times):.3f} s, "
        f"mean {statistics.mean(times):.3f} s, max {max(times):.3f} s ({cpu}, "
        f"{'C' if solver_name() == 'c' else 'Python'} solver), "
        f"{total_nodes / max(sum(times), 1e-9):,.0f} nodes/s, {mismatches} mismatches"
    )
    return 1 if mismatches else 0


def _solve_cases(
    cases: list[Case], solver: ParallelSolver
) -> tuple[list[str], list[float], list[float], int, int]:
    """Solve and check each case: (rows, wall times, CPU times, nodes, mismatches).

    Each row also goes to standard error as soon as its position is solved.
    """
    rows: list[str] = []
    times: list[float] = []
    cpu_times: list[float] = []
    total_nodes = 0
    mismatches = 0
    for number, position, reference in cases:
        wall, cpu = time.perf_counter(), time.process_time()
        result = solver.solve(position.player, position.opponent)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        times.append(wall)
        cpu_times.append(cpu)
        total_nodes += result.nodes
        verdict = _verdict(position, result, reference, solver)
        mismatches += verdict.startswith("MISMATCH")
        rows.append(
            f"line {number:3d}  {position.empties:2d} empties  {wall:8.3f} s  "
            f"{result.nodes:>11,} nodes  {square_name(result.move):>4} {result.score:+3d}  "
            f"{verdict}"
        )
        print(rows[-1], file=sys.stderr, flush=True)
    return rows, times, cpu_times, total_nodes, mismatches


def read_cases(path: str, limit: int | None = None) -> list[Case]:
    """The positions of an obf file with their line numbers and reference scores.

    Blank lines and comments (``#`` or ``%``, as in Edax's files) are skipped and a
    UTF-8 byte order mark is allowed; reading stops after ``limit`` positions. A
    line longer than ``MAX_LINE`` characters (``/dev/zero`` has no end of line) is
    refused, not read into memory. Raises ValueError naming the line at fault.
    """
    cases: list[Case] = []
    with open(path, encoding="utf-8-sig") as lines:
        number = 0
        while limit is None or len(cases) < limit:
            line = lines.readline(MAX_LINE + 1)
            if not line:
                break
            number += 1
            if len(line.rstrip("\n")) > MAX_LINE:
                raise ValueError(f"line {number}: longer than {MAX_LINE} characters")
            text = line.strip()
            if not text or text.startswith(("#", "%")):
                continue
            try:
                cases.append((number, parse_position(text), _reference_scores(text)))
            except ValueError as err:
                raise ValueError(f"line {number}: {err}") from None
    return cases


def _reference_scores(line: str) -> dict[int, int]:
    """``A2:+38; C7:+36`` after the position, as {square: score}; may be empty.

    A side that must pass has the move ``PS`` (or ``PA``), as Edax writes it.
    """
    scores = {}
    for field in line.split(";")[1:]:
        field = field.strip()
        if field:
            name, sep, value = field.partition(":")
            if not sep:
                raise ValueError(f"{field!r} is not MOVE:SCORE such as A2:+38")
            try:
                move = PASS if name.strip().upper() in PASS_NAMES else parse_square(name)
                scores[move] = int(value)
            except ValueError:
                raise ValueError(f"{field!r} is not MOVE:SCORE such as A2:+38") from None
    return scores


def _verdict(
    position: Position, result: EndgameResult, reference: dict[int, int], solver: ParallelSolver
) -> str:
    """OK, MISMATCH (saying what was expected), or "unchecked" without reference."""
    if not reference:
        return "unchecked"
    best = max(reference.values())
    if result.score != best:
        return f"MISMATCH: expected {best:+d}"
    # A pass is the only move of a side that must pass: whatever the file calls it
    # (PS, PA, or the reply after it), the score decides.
    if result.move == PASS or reference.get(result.move) == best:
        return "OK"
    if result.move in reference:
        return f"MISMATCH: the file gives {square_name(result.move)} {reference[result.move]:+d}"
    child = position.play(result.move)
    if -solver.solve(child.player, child.opponent).score == best:
        return "OK (move verified)"
    return f"MISMATCH: {square_name(result.move)} does not reach {best:+d}"
