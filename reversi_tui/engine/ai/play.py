"""Deciding a move at a level: midgame search, exact endgame, clock and randomness.

The flow for a timed move: no legal move means a pass; near the end (the
level's ``exact_from``), a short midgame search gives a fallback and the
exact solver (``endgame.py``) gets the rest of the budget, bounded by the same
deadline; otherwise iterative deepening uses the whole budget (and becomes
exact by itself once it reaches the last empty square).
"""

from __future__ import annotations

import random
import time

from reversi_tui.engine.ai import learned
from reversi_tui.engine.ai.endgame import (
    EndgameResult,
    final_score,
    solve,
    solve_all,
    solver_name,
)
from reversi_tui.engine.ai.evaluation import DISC, Evaluator
from reversi_tui.engine.ai.levels import Level, base_evaluator, get_level, noise_units
from reversi_tui.engine.ai.result import SearchCancelled, SearchResult, StopCheck
from reversi_tui.engine.ai.search import (
    RANK_ALL,
    Limits,
    RootResult,
    iterative_deepening,
    units_to_discs,
)
from reversi_tui.engine.bitboard import legal_moves
from reversi_tui.engine.board import PASS, Position

#: Share of the budget the midgame search gets before an endgame solve is tried.
PRE_SOLVE_SHARE = 0.2
#: At or below this many empties the solver is trusted without a midgame fallback.
SOLVE_ALONE_EMPTIES = 10
#: A move with one legal reply still gets this share of the budget, for its score.
FORCED_SHARE = 0.1


def _noisy(evaluate: Evaluator, sigma: float, rng: random.Random) -> Evaluator:
    """``evaluate`` plus Gaussian noise of ``sigma`` units (exact results left alone)."""
    gauss = rng.gauss

    def noisy(p: int, o: int) -> int:
        value = evaluate(p, o)
        if not legal_moves(p, o) and not legal_moves(o, p):
            return value
        return value + round(gauss(0.0, sigma))

    return noisy


def _try_solve(
    p: int, o: int, deadline: float, should_stop: StopCheck | None
) -> EndgameResult | None:
    """The exact solver's verdict, or None if the clock ran out first.

    A stop requested by the caller still raises ``SearchCancelled``.
    """

    def stop() -> bool:
        return (should_stop is not None and should_stop()) or time.perf_counter() >= deadline

    try:
        return solve(p, o, -64, 64, stop)
    except SearchCancelled:
        if should_stop is not None and should_stop():
            raise
        return None


def choose_move(
    position: Position,
    level: str,
    *,
    think_time: float | None = None,
    rng: random.Random | None = None,
    should_stop: StopCheck | None = None,
    depth: int | None = None,
    max_depth: int | None = None,
) -> SearchResult:
    """The move ``level`` plays in ``position``, with its score and search statistics.

    ``think_time`` replaces the level's budget; ``depth`` searches exactly that
    many plies with no clock (reproducible, for tests and analysis); ``max_depth``
    caps the level's depth while its clock still runs (an engine protocol's
    ``set depth``). ``rng``
    breaks ties and drives the weaker levels' noise; without one the choice is
    deterministic. Raises ``SearchCancelled`` when ``should_stop`` returns True.
    """
    started = time.perf_counter()
    spec = get_level(level)
    rng = rng if rng is not None else random.Random(0)
    evaluate = _evaluator(spec, rng)
    cap = _cap(spec, max_depth)
    p, o = position.player, position.opponent
    moves = legal_moves(p, o)
    if not moves:
        if position.is_game_over:
            seconds = time.perf_counter() - started
            return SearchResult(PASS, float(final_score(p, o)), 0, 0, seconds, exact=True)
        # A forced pass: the score is the opponent's best reply, seen from this side.
        reply = choose_move(
            position.pass_turn(),
            level,
            think_time=think_time,
            rng=rng,
            should_stop=should_stop,
            depth=depth,
            max_depth=max_depth,
        )
        return SearchResult(
            PASS, -reply.score, reply.depth, reply.nodes, reply.seconds, exact=reply.exact
        )
    if depth is None and spec.book_spread is not None:
        booked = _book_move(position, spec, rng, started)
        if booked is not None:
            return booked
    budget = spec.budget if think_time is None else think_time
    if depth is not None:
        limits = Limits(depth, None, _margin(spec))
        return _search(p, o, evaluate, limits, rng, should_stop, started)
    if moves.bit_count() == 1:
        budget *= FORCED_SHARE
    empties = position.empties
    if empties > spec.exact_from(solver_name()):
        limits = Limits(cap, budget, _margin(spec), _selective(spec))
        return _search(p, o, evaluate, limits, rng, should_stop, started)
    deadline = started + budget
    fallback = None
    if empties > SOLVE_ALONE_EMPTIES:
        limits = Limits(cap, budget * PRE_SOLVE_SHARE, _margin(spec), _selective(spec))
        fallback = _search(p, o, evaluate, limits, rng, should_stop, started)
        if fallback.exact:
            return fallback
    solved = _try_solve(p, o, deadline, should_stop)
    if solved is None:
        if fallback is None:
            # Rare: the solver missed the deadline with few empties; answer quickly.
            limits = Limits(cap, budget * FORCED_SHARE, _margin(spec), _selective(spec))
            return _search(p, o, evaluate, limits, rng, should_stop, time.perf_counter())
        return fallback
    nodes = solved.nodes + (fallback.nodes if fallback is not None else 0)
    seconds = time.perf_counter() - started
    return SearchResult(solved.move, float(solved.score), empties, nodes, seconds, exact=True)


def _book_move(
    position: Position, spec: Level, rng: random.Random, started: float
) -> SearchResult | None:
    """The opening book's move for a level that plays from it; None without a book
    or when the book does not know the position."""
    book = learned.book()
    if book is None or spec.book_spread is None:
        return None
    picked = book.choose(position, rng, spec.book_spread)
    if picked is None:
        return None
    move, value = picked
    return SearchResult(move, value, 0, 0, time.perf_counter() - started)


def rank_moves(
    position: Position,
    level: str,
    *,
    think_time: float | None = None,
    max_depth: int | None = None,
    rng: random.Random | None = None,
    should_stop: StopCheck | None = None,
    depth: int | None = None,
    selective: bool = False,
) -> list[SearchResult]:
    """Every legal move with its score as ``level`` sees it, best first (empty: no move).

    The same clock and depth as ``choose_move``, but each root move gets a full
    window, so the scores rank them all (an engine protocol's hint for n moves).
    ``depth`` searches exactly that many plies with no clock and no solver
    (reproducible: the opening book's values); ``selective`` prunes that search with
    Multi-ProbCut as the timed searches of the selective levels do.
    Near the end, as the level allows, the exact solver scores them instead;
    when it misses the deadline the midgame ranking stands.
    """
    started = time.perf_counter()
    spec = get_level(level)
    rng = rng if rng is not None else random.Random(0)
    evaluate = _evaluator(spec, rng)
    cap = _cap(spec, max_depth)
    p, o = position.player, position.opponent
    if not legal_moves(p, o):
        return []
    if depth is not None:
        limits = Limits(depth, None, selective=selective)
        return _rank(p, o, evaluate, limits, rng, should_stop, started)
    budget = spec.budget if think_time is None else think_time
    if position.empties > spec.exact_from(solver_name()):
        return _rank(p, o, evaluate, Limits(cap, budget), rng, should_stop, started)
    ranked = _rank(p, o, evaluate, Limits(cap, budget * PRE_SOLVE_SHARE), rng, should_stop, started)
    if ranked[0].exact:
        return ranked
    deadline = started + budget

    def stop() -> bool:
        return (should_stop is not None and should_stop()) or time.perf_counter() >= deadline

    try:
        solved = solve_all(p, o, stop)
    except SearchCancelled:
        if should_stop is not None and should_stop():
            raise
        return ranked
    seconds = time.perf_counter() - started
    return [
        SearchResult(sq, float(score), position.empties, ranked[0].nodes, seconds, exact=True)
        for sq, score in solved
    ]


def _rank(
    p: int,
    o: int,
    evaluate: Evaluator,
    limits: Limits,
    rng: random.Random,
    should_stop: StopCheck | None,
    started: float,
) -> list[SearchResult]:
    """The last completed iteration's score of every root move, best first."""
    kept: list[tuple[RootResult, dict[int, int]]] = []

    def keep(result: RootResult, scores: dict[int, int]) -> None:
        kept[:] = [(result, scores)]

    wide = Limits(limits.max_depth, limits.budget, RANK_ALL, limits.selective)
    _, nodes = iterative_deepening(p, o, evaluate, wide, rng, should_stop, started, keep)
    result, scores = kept[0]
    seconds = time.perf_counter() - started
    ranked = sorted(scores.items(), key=lambda item: (-item[1], item[0]))
    return [
        SearchResult(sq, units_to_discs(v), result.depth, nodes, seconds, result.exact)
        for sq, v in ranked
    ]


def _evaluator(spec: Level, rng: random.Random) -> Evaluator:
    """The level's evaluation, blurred by its noise."""
    evaluate = base_evaluator(spec.evaluation)
    if spec.noise:
        evaluate = _noisy(evaluate, noise_units(spec), rng)
    return evaluate


def _selective(spec: Level) -> bool:
    return spec.selective and learned.probcut_fits()


def _cap(spec: Level, max_depth: int | None) -> int:
    return spec.max_depth if max_depth is None else min(spec.max_depth, max_depth)


def _margin(spec: Level) -> int:
    return round(spec.tie_margin * DISC)


def _search(
    p: int,
    o: int,
    evaluate: Evaluator,
    limits: Limits,
    rng: random.Random,
    should_stop: StopCheck | None,
    started: float,
) -> SearchResult:
    verdict, nodes = iterative_deepening(p, o, evaluate, limits, rng, should_stop, started)
    return SearchResult(
        verdict.move,
        units_to_discs(verdict.score),
        verdict.depth,
        nodes,
        time.perf_counter() - started,
        verdict.exact,
    )


def hint(position: Position, should_stop: StopCheck | None = None) -> SearchResult:
    """The move the hard level would play: what the TUI shows when a player asks."""
    return choose_move(position, "hard", should_stop=should_stop)
