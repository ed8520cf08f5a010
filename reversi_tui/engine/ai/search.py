"""Iterative-deepening negamax alpha-beta with principal-variation search.

One ``Searcher`` runs one move decision: it owns the transposition table (keyed
by the ``(player, opponent)`` masks, so it serves both colours), the node
counter and the clock. Stopping is cooperative: every ``CHECK_EVERY`` nodes it
polls the caller's ``should_stop`` (raising ``SearchCancelled``) and its own hard
deadline (ending the iteration; the best root move it had fully searched, or
else the last complete iteration's, stands), so a search never overruns its
budget by more than a check interval.

Passes do not use up depth, so a search to ``depth >= empties`` reaches every
game end and its score is exact: the same code doubles as a slow exact solver
when the dedicated endgame module is not there.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from reversi_tui.engine.ai.evaluation import DISC, Evaluator, final_score_units
from reversi_tui.engine.ai.probcut import CONFIDENCE, CUTS, MIN_DEPTH, Cut, cut_for
from reversi_tui.engine.ai.result import SearchCancelled, StopCheck
from reversi_tui.engine.bitboard import CORNERS, FULL, flips, legal_moves
from reversi_tui.engine.board import PASS

INF = 1 << 20
#: Nodes between two looks at the clock and at ``should_stop``.
CHECK_EVERY = 1024
#: Remaining depth from which children are sorted by the opponent's mobility (costly).
SORT_DEPTH = 4
#: Start another iteration when this share of its estimated time fits in the budget.
START_SHARE = 0.5
#: Drop the table when it grows past this many entries (about 200 MB at worst).
TT_LIMIT = 1_000_000
#: A probe's bound beyond any final score (64 discs) cannot be reached: skipped.
PROBE_LIMIT = 64 * DISC

_X_SQUARES = (1 << 9) | (1 << 14) | (1 << 49) | (1 << 54)
_C_SQUARES = (
    (1 << 1) | (1 << 6) | (1 << 8) | (1 << 15) | (1 << 48) | (1 << 55) | (1 << 57) | (1 << 62)
)
_EDGES = 0xFF818181818181FF & ~(CORNERS | _C_SQUARES)
#: Static move order for shallow nodes: corners, edges, the middle, C squares, X squares.
_ORDER_GROUPS = (
    CORNERS,
    _EDGES,
    FULL & ~(CORNERS | _EDGES | _C_SQUARES | _X_SQUARES),
    _C_SQUARES,
    _X_SQUARES,
)


class _Timeout(Exception):
    """The hard deadline passed: abandon the running iteration."""


@dataclass(frozen=True, slots=True)
class RootResult:
    """One iteration's verdict at the root, in evaluation units."""

    move: int
    score: int
    depth: int
    exact: bool


def _ordered_squares(moves: int, first: int) -> list[int]:
    """Squares of ``moves`` by static group, with ``first`` (the hash move) in front."""
    out = []
    if first >= 0 and moves >> first & 1:
        out.append(first)
        moves &= ~(1 << first)
    for group in _ORDER_GROUPS:
        m = moves & group
        while m:  # ``bitboard.squares`` inlined: twice as fast here, 3-5% of a search
            low = m & -m
            out.append(low.bit_length() - 1)
            m ^= low
    return out


def _lazy_children(p: int, o: int, order: list[int]) -> Iterator[tuple[int, int, int]]:
    for sq in order:
        f = flips(p, o, sq)
        yield sq, o ^ f, p | f | (1 << sq)


class Searcher:
    """One move decision: table, counters and limits shared by its iterations."""

    def __init__(
        self,
        evaluate: Evaluator,
        *,
        deadline: float | None = None,
        should_stop: StopCheck | None = None,
        selective: bool = False,
    ) -> None:
        self.evaluate = evaluate
        self.deadline = deadline
        self.should_stop = should_stop
        self.selective = selective and bool(CUTS)
        self.nodes = 0
        self.table: dict[tuple[int, int], tuple[int, int, int, int]] = {}

    # Limits ------------------------------------------------------------------------
    def _check(self) -> None:
        if self.should_stop is not None and self.should_stop():
            raise SearchCancelled
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            raise _Timeout

    # Tree search -------------------------------------------------------------------
    def ordered_children(
        self, p: int, o: int, moves: int, depth: int, hash_move: int
    ) -> Iterable[tuple[int, int, int]]:
        """(square, child player mask, child opponent mask) in the order to search them.

        Deep nodes sort by the opponent's reply count after the move ("fastest
        first"), with corners pulled forward; shallow nodes use the static order
        and make each child only when the search gets to it (a cutoff often
        comes first).
        """
        if depth < SORT_DEPTH:
            return _lazy_children(p, o, _ordered_squares(moves, hash_move))
        scored = []
        while moves:  # ``bitboard.squares`` inlined (once per deep node)
            low = moves & -moves
            moves ^= low
            sq = low.bit_length() - 1
            f = flips(p, o, sq)
            co, cp = o ^ f, p | f | low
            key = legal_moves(co, cp).bit_count() * 4
            if low & CORNERS:
                key -= 12
            elif low & _X_SQUARES:
                key += 8
            if sq == hash_move:
                key = -INF
            scored.append((key, sq, co, cp))
        scored.sort()
        return [(sq, co, cp) for _, sq, co, cp in scored]

    def negamax(self, p: int, o: int, depth: int, alpha: int, beta: int) -> int:
        """Fail-soft PVS value of ``(p, o)`` to ``depth`` plies (passes are free)."""
        self.nodes += 1
        if not self.nodes % CHECK_EVERY:
            self._check()
        if depth <= 0:
            return self.evaluate(p, o)
        key = (p, o)
        entry = self.table.get(key)
        hash_move = PASS
        if entry is not None:
            e_depth, lower, upper, hash_move = entry
            if e_depth >= depth:
                if lower >= beta:
                    return lower
                if upper <= alpha or lower == upper:
                    return upper
        if (
            self.selective
            and depth >= MIN_DEPTH
            and beta - alpha == 1
            and depth < 64 - (p | o).bit_count()
        ):
            cut = cut_for(depth)
            if cut is not None:
                verdict = self._probe(p, o, alpha, cut)
                if verdict is not None:
                    return verdict
        moves = legal_moves(p, o)
        if not moves:
            if not legal_moves(o, p):
                return final_score_units(p, o)
            return -self.negamax(o, p, depth, -beta, -alpha)
        alpha0 = alpha
        best, best_move = -INF, PASS
        first = True
        for sq, cp, co in self.ordered_children(p, o, moves, depth, hash_move):
            if first:
                value = -self.negamax(cp, co, depth - 1, -beta, -alpha)
                first = False
            else:
                value = -self.negamax(cp, co, depth - 1, -alpha - 1, -alpha)
                if alpha < value < beta:
                    value = -self.negamax(cp, co, depth - 1, -beta, -value)
            if value > best:
                best, best_move = value, sq
                if value > alpha:
                    alpha = value
                    if value >= beta:
                        break
        if len(self.table) > TT_LIMIT:
            self.table.clear()
        if best <= alpha0:
            self.table[key] = (depth, -INF, best, best_move)
        elif best >= beta:
            self.table[key] = (depth, best, INF, best_move)
        else:
            self.table[key] = (depth, best, best, best_move)
        return best

    def _probe(self, p: int, o: int, alpha: int, cut: Cut) -> int | None:
        """Multi-ProbCut at a null-window node (alpha, alpha + 1): the bound it
        fails at when a shallow search says the deep value is past it with
        confidence, else None."""
        margin = CONFIDENCE * cut.sigma
        beta = alpha + 1
        high = math.ceil((beta + margin - cut.intercept) / cut.slope)
        if high <= PROBE_LIMIT and self.negamax(p, o, cut.shallow, high - 1, high) >= high:
            return beta
        low = math.floor((alpha - margin - cut.intercept) / cut.slope)
        if low >= -PROBE_LIMIT and self.negamax(p, o, cut.shallow, low, low + 1) <= low:
            return alpha
        return None

    # Root --------------------------------------------------------------------------
    def search_root(
        self,
        p: int,
        o: int,
        depth: int,
        order: list[int],
        tie_margin: int,
        rng: random.Random,
    ) -> tuple[RootResult, dict[int, int]]:
        """Search every root move to ``depth``; pick among moves within ``tie_margin`` of best.

        Moves after the first get a null window just under ``best - tie_margin``,
        so those that could tie get exact scores and the rest are cut cheaply.
        Returns the verdict and the exact scores found (for the next iteration's order).
        """
        best = -INF
        scores: dict[int, int] = {}
        exact_depth = depth >= 64 - (p | o).bit_count()
        try:
            for sq in order:
                f = flips(p, o, sq)
                cp, co = o ^ f, p | f | (1 << sq)
                if best == -INF:
                    value = -self.negamax(cp, co, depth - 1, -INF, INF)
                else:
                    floor = best - tie_margin - 1
                    value = -self.negamax(cp, co, depth - 1, -floor - 1, -floor)
                    if value > floor:
                        value = -self.negamax(cp, co, depth - 1, -INF, -floor)
                    else:
                        continue
                scores[sq] = value
                best = max(best, value)
        except _Timeout:
            if not scores:
                raise
            # Every score found so far is exact at this depth: the best of them stands.
            best_sq = max(scores, key=scores.__getitem__)
            raise _PartialRoot(RootResult(best_sq, scores[best_sq], depth - 1, False)) from None
        good = sorted(sq for sq, v in scores.items() if v >= best - tie_margin)
        pick = good[0] if len(good) == 1 else rng.choice(good)
        return RootResult(pick, scores[pick], depth, exact_depth), scores


class _PartialRoot(Exception):
    """The deadline hit mid-iteration after a move beat the previous best; carries it."""

    def __init__(self, result: RootResult) -> None:
        super().__init__()
        self.result = result


@dataclass(frozen=True, slots=True)
class Limits:
    """How long and how deep one decision may search."""

    max_depth: int
    budget: float | None  # seconds; None: no clock, only ``max_depth``
    tie_margin: int = 0  # units
    #: Multi-ProbCut (``probcut``) in null-window nodes.
    selective: bool = False


#: Told each completed iteration's verdict and the exact scores it found, by square.
IterationHook = Callable[[RootResult, dict[int, int]], None]
#: A tie margin that gives every root move an exact score (for ranking them all).
RANK_ALL = 2 * INF


def iterative_deepening(
    p: int,
    o: int,
    evaluate: Evaluator,
    limits: Limits,
    rng: random.Random,
    should_stop: StopCheck | None = None,
    start: float | None = None,
    on_iteration: IterationHook | None = None,
    searcher: Searcher | None = None,
) -> tuple[RootResult, int]:
    """Deepen one ply at a time until the depth limit, the budget, or an exact result.

    Before each iteration it estimates the iteration's time from the last one and
    the observed growth, and starts it only when at least ``START_SHARE`` of it
    fits: an unfinished iteration still pays, since its first move is the previous
    best and any move that beats it is searched in full. The hard deadline inside
    the tree ends it. ``on_iteration`` hears each completed iteration. Returns the
    verdict and nodes. Needs a legal move. A caller that wants the table afterwards
    (``principal_variation``) passes its own ``searcher``, made with the same stop
    check and selectivity; its deadline is set here.
    """
    t0 = time.perf_counter() if start is None else start
    deadline = None if limits.budget is None else t0 + limits.budget
    if searcher is None:
        searcher = Searcher(
            evaluate, deadline=deadline, should_stop=should_stop, selective=limits.selective
        )
    moves = legal_moves(p, o)
    order = [sq for sq, _, _ in searcher.ordered_children(p, o, moves, SORT_DEPTH, PASS)]
    empties = 64 - (p | o).bit_count()
    result: RootResult | None = None
    last_time, growth = 0.0, 4.0
    for depth in range(1, max(1, min(limits.max_depth, empties)) + 1):
        if (
            result is not None
            and deadline is not None
            and time.perf_counter() + START_SHARE * last_time * growth > deadline
        ):
            break
        # Depth 1 always completes (a millisecond), so there is always a move to play.
        searcher.deadline = deadline if result is not None else None
        t_iter = time.perf_counter()
        try:
            result, scores = searcher.search_root(p, o, depth, order, limits.tie_margin, rng)
        except _PartialRoot as partial:
            # Its first move was the previous best, so the best of it is at least as good.
            result = partial.result
            break
        except _Timeout:
            break
        if on_iteration is not None:
            on_iteration(result, scores)
        spent = time.perf_counter() - t_iter
        if last_time > 0.002:
            growth = min(max(spent / last_time, 1.5), 8.0)
        last_time = spent
        order.sort(key=lambda sq: -scores.get(sq, -INF))
        order.remove(result.move)
        order.insert(0, result.move)
        if result.exact:
            break
    assert result is not None
    return result, searcher.nodes


def units_to_discs(value: int) -> float:
    """Evaluation units to the disc-difference scale of ``SearchResult.score``."""
    return value / DISC


def principal_variation(
    table: dict[tuple[int, int], tuple[int, int, int, int]], p: int, o: int, limit: int
) -> list[int]:
    """The line the table's best moves make from ``(p, o)``, at most ``limit`` plies
    (``PASS`` where a side must pass); it stops where the table knows no move."""
    line: list[int] = []
    seen = set()
    while len(line) < limit and (p, o) not in seen:
        seen.add((p, o))
        moves = legal_moves(p, o)
        if not moves:
            if not legal_moves(o, p):
                break
            line.append(PASS)
            p, o = o, p
            continue
        entry = table.get((p, o))
        if entry is None or entry[3] < 0 or not moves >> entry[3] & 1:
            break
        sq = entry[3]
        f = flips(p, o, sq)
        line.append(sq)
        p, o = o ^ f, p | f | (1 << sq)
    while line and line[-1] == PASS:
        line.pop()
    return line
