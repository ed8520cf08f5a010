"""``reversi bench eval``: evaluations per second, the hand-weighted one and the pattern one.

The positions come from seeded random games, so every run times the same ones.
The pattern evaluation uses the package's trained weights when there are some,
and seeded random weights otherwise (the speed does not depend on the values).
"""

from __future__ import annotations

import argparse
import random
import time
from array import array
from collections.abc import Callable
from typing import TYPE_CHECKING

from reversi_tui.commands.options import Commands, int_range

if TYPE_CHECKING:
    from reversi_tui.engine.ai.book import Book

#: Passes over the positions: enough for a steady figure in about a second.
ROUNDS = 5


def add_parser(bench_kinds: Commands) -> None:
    bench_eval = bench_kinds.add_parser(
        "eval",
        help="evaluations per second: hand-weighted, patterns, incremental update; book lookup",
    )
    bench_eval.add_argument(
        "--positions",
        type=int_range(100, 1_000_000),
        default=3000,
        metavar="N",
        help="positions from seeded random games (default: 3000)",
    )
    bench_eval.set_defaults(handler=run_eval)


def _positions(count: int) -> list[tuple[int, int, int, int]]:
    """(mover, opponent, move, flips) along random games; the move is that position's next."""
    from reversi_tui.engine.bitboard import flips, legal_moves

    rng = random.Random(20)
    out: list[tuple[int, int, int, int]] = []
    while len(out) < count:
        p, o = 0x0000000810000000, 0x0000001008000000
        while len(out) < count:
            moves = legal_moves(p, o)
            if not moves:
                if not legal_moves(o, p):
                    break
                p, o = o, p
                continue
            sq = rng.choice([s for s in range(64) if moves >> s & 1])
            f = flips(p, o, sq)
            out.append((p, o, sq, f))
            p, o = o ^ f, p | f | (1 << sq)
    return out


def _rate(work: Callable[[], object], count: int) -> float:
    """Calls of the timed work per second, ``count`` calls per run of ``work``."""
    started = time.perf_counter()
    for _ in range(ROUNDS):
        work()
    return ROUNDS * count / max(time.perf_counter() - started, 1e-9)


def run_eval(args: argparse.Namespace) -> int:
    """The pattern evaluations per second first (the plain number), then the table."""
    from reversi_tui.engine.ai.evaluation import evaluate
    from reversi_tui.engine.ai.learned import weights as learned_weights
    from reversi_tui.engine.ai.pattern_eval import PatternWeights, make_pattern_evaluator
    from reversi_tui.engine.ai.patterns import PATTERNS, indices, pattern_sums, play_sums

    weights, source = learned_weights(), "the package's trained weights"
    if weights is None:
        rng = random.Random(0)
        tables = tuple(
            array("h", (rng.randrange(-900, 900) for _ in range(p.size))) for p in PATTERNS
        )
        weights = PatternWeights(64, 60, (tables,), (0,), {})
        source = "random weights (the package's were refused)"
    pattern_eval = make_pattern_evaluator(weights)
    cases = _positions(args.positions)
    boards = [(p, o) for p, o, _, _ in cases]
    n = len(cases)
    sums = [(*pattern_sums(p, o), sq, f) for p, o, sq, f in cases]
    patterns = _rate(lambda: [pattern_eval(p, o) for p, o in boards], n)
    hand = _rate(lambda: [evaluate(p, o) for p, o in boards], n)
    index = _rate(lambda: [indices(p, o) for p, o in boards], n)
    update = _rate(lambda: [play_sums(sp, so, sq, f) for sp, so, sq, f in sums], n)
    print(f"{patterns:.0f}")
    print(f"{n} positions from random games, {ROUNDS} rounds; patterns with {source}")
    print(f"pattern evaluation (46 lookups)  {patterns:>12,.0f} /s  {1e6 / patterns:6.2f} us")
    print(f"hand-weighted evaluation         {hand:>12,.0f} /s  {1e6 / hand:6.2f} us")
    print(f"all 46 pattern indices           {index:>12,.0f} /s  {1e6 / index:6.2f} us")
    print(f"incremental update of a move     {update:>12,.0f} /s  {1e6 / update:6.2f} us")
    book, book_source = _book(boards)
    lookup = _rate(lambda: [book.lookup_masks(p, o) for p, o in boards], n)
    print(f"opening book lookup              {lookup:>12,.0f} /s  {1e6 / lookup:6.2f} us")
    print(f"book: {book_source}")
    return 0


def _book(boards: list[tuple[int, int]]) -> tuple[Book, str]:
    """The package's opening book, or one holding every timed position with seeded
    random values (a lookup's time does not depend on them)."""
    from reversi_tui.engine.ai.book import Book, canonical
    from reversi_tui.engine.ai.learned import book as learned_book
    from reversi_tui.engine.bitboard import legal_moves, squares

    book = learned_book()
    if book is not None:
        return book, f"the package's, {len(book)} positions (most timed ones miss)"
    rng = random.Random(0)
    entries = {}
    for p, o in boards:
        key, _ = canonical(p, o)
        entries[key] = [(sq, rng.randrange(-900, 900)) for sq in squares(legal_moves(p, o))]
    return Book(entries), f"{len(entries)} timed positions with random values (none shipped)"
