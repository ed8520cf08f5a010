"""Game analysis: every move valued against the best, mistakes named, the turning point.

Each position of the game is searched once. With ``exact_empties`` empty squares
or fewer the solver gives its exact value and best move, and the value of the
move played is the exact value of the position it led to; before that, a search
ranks every legal move for ``time_per_move`` seconds (each move gets a value from
the same search, so the best and the played move are compared at the same
depth). Values are in discs, the final disc difference with the empty squares to
the winner, from the mover's point of view.

**Classes** (``CLASS_THRESHOLDS``): a move that loses less than 2 discs against
the best is good (``best`` when it loses nothing), from 2 an inaccuracy, from 6
a mistake, from 12 a blunder. Whatever its disc loss, a move that throws away a
proven result (a won position into a draw or a loss, a drawn one into a loss,
both values exact) is a blunder and carries the result it turned in ``turned``
(``win->draw``). Estimates prove no result, so they never say one: a move that
by the estimates takes a lead of ``RESULT_MARGIN`` discs or more to less (or a
level position to a deficit of as much) is at least an inaccuracy and carries the
standing it turned (``ahead->level``: a +0.8 is level, not a draw). (Estimates
near the margin swing by a few discs with the depth searched: measured on ten
games, classing such moves as mistakes made most "mistakes" 2-disc swings.) A pass and a
move that was the only legal one are ``forced`` and not judged.

**Accuracy**, in the spirit of lichess's: each value becomes a winning chance
``100 / (1 + exp(-WIN_SLOPE * discs))`` (a 6-disc lead is 73%, 12 discs 88%), a
move's accuracy is ``103.1668 * exp(-0.04354 * drop) - 3.1669`` (clamped to
0-100) where ``drop`` is the mover's loss of winning chance in points, and a
side's accuracy is the mean over its judged moves.

The **turning point** is the losing side's move (either side's after a draw)
that cost the most winning chance, if it cost at least ``TURN_MIN_DROP`` points.
Who lost is the last position's value unless the game's result says otherwise: a
game resigned, lost on time or claimed is decided by its result
(``GameAnalysis.judged_by``), and the winner's moves are never its turning point.

Pure computation: no UI, no disk. ``analyse_game`` reports progress and stops
at once (``SearchCancelled``) when ``should_stop`` says so.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from reversi_tui.engine.ai.endgame import final_score, solve, solve_all, solver_name
from reversi_tui.engine.ai.levels import base_evaluator, get_level
from reversi_tui.engine.ai.result import SearchCancelled, StopCheck
from reversi_tui.engine.ai.search import (
    RANK_ALL,
    Limits,
    RootResult,
    Searcher,
    iterative_deepening,
    principal_variation,
    units_to_discs,
)
from reversi_tui.engine.bitboard import flips, legal_moves
from reversi_tui.engine.board import PASS, Color, Move, Position
from reversi_tui.engine.notation import parse_square, square_name

#: (class, the disc loss it starts at), mildest first.
CLASS_THRESHOLDS: tuple[tuple[str, float], ...] = (
    ("inaccuracy", 2.0),
    ("mistake", 6.0),
    ("blunder", 12.0),
)
#: An estimate this many discs from zero counts as a win or a loss when judging
#: whether a move turned the result.
RESULT_MARGIN = 4.0
#: Winning chance per disc of value: the logistic's slope.
WIN_SLOPE = 0.166
#: The least loss of winning chance, in points, that makes a move the turning point.
TURN_MIN_DROP = 10.0
#: Plies of the principal variation kept for each position.
PV_PLIES = 8
#: The default of ``AnalysisOptions.exact_empties``: with the C solver a 20-empty
#: position of a real game solves in a median 0.3 s (90% within 0.9 s); the Python
#: solver needs about that long at 16.
EXACT_EMPTIES_C = 20
EXACT_EMPTIES_PYTHON = 16


def default_exact_empties() -> int:
    """From how many empties an analysis is exact by default, for the solver in use."""
    return EXACT_EMPTIES_C if solver_name() == "c" else EXACT_EMPTIES_PYTHON


#: Up to this many empties every legal move gets its exact value (``solve_all``);
#: above it, only the best and the played move do.
ALL_EXACT_EMPTIES = 10


class MoveClass(StrEnum):
    """How good a move was."""

    BEST = "best"
    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"
    FORCED = "forced"

    @property
    def is_error(self) -> bool:
        return self in (MoveClass.INACCURACY, MoveClass.MISTAKE, MoveClass.BLUNDER)


@dataclass(frozen=True, slots=True)
class AnalysisOptions:
    """The budget: seconds per midgame position, the searching level, and from how
    many empties on the values are exact."""

    time_per_move: float = 0.35
    level: str = "hard"
    exact_empties: int = field(default_factory=default_exact_empties)

    def __post_init__(self) -> None:
        if not 0.01 <= self.time_per_move <= 600:
            raise ValueError("the time per move is from 0.01 to 600 seconds")
        get_level(self.level)  # ValueError naming the levels
        if not 0 <= self.exact_empties <= 24:
            raise ValueError("exact values are possible from at most 24 empty squares")


@dataclass(frozen=True, slots=True)
class MoveReview:
    """One ply of the game, judged. Values are discs from the mover's point of view."""

    ply: int
    color: Color
    played: Move
    best: Move
    best_value: float
    played_value: float
    exact: bool
    depth: int
    pv: tuple[Move, ...]
    values: dict[Move, float]
    klass: MoveClass
    turned: str | None
    chance_before: float
    chance_after: float
    accuracy: float | None

    @property
    def loss(self) -> float:
        """Discs lost against the best move (never negative)."""
        return max(0.0, self.best_value - self.played_value)

    @property
    def black_value(self) -> float:
        """The value of the position before this ply, from Black's point of view."""
        return self.best_value if self.color is Color.BLACK else -self.best_value


@dataclass(frozen=True, slots=True)
class SideSummary:
    """One side's account: moves judged, counts per class, mean loss and accuracy."""

    color: Color
    moves: int
    counts: dict[MoveClass, int]
    mean_loss: float
    accuracy: float | None


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    """A game's analysis: one review per ply, and the value at its end."""

    start: Position
    reviews: tuple[MoveReview, ...]
    #: The last position's value from Black's view (exact when the game is over).
    final_black_value: float
    final_exact: bool
    options: AnalysisOptions
    seconds: float
    summaries: dict[Color, SideSummary] = field(default_factory=dict)
    turning_point: int | None = None

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(r.played for r in self.reviews)

    def graph(self) -> list[float]:
        """Black's value before each ply and after the last: the evaluation graph."""
        return [r.black_value for r in self.reviews] + [self.final_black_value]

    def errors(self, color: Color | None = None) -> list[MoveReview]:
        """The inaccuracies, mistakes and blunders (of one side, or both), in order."""
        return [r for r in self.reviews if r.klass.is_error and (color is None or r.color is color)]

    def judged_by(self, winner: Color | None) -> GameAnalysis:
        """This analysis with its turning point found on the loser's side by the game's
        result (``winner``; None: a draw) rather than by the last position's value. A
        game resigned, lost on time or claimed can end with the winner behind on the
        board: its turning point is still the loser's move. (Kept apart from the
        analysis itself, so a cached analysis serves the same moves with any result.)"""
        loser = None if winner is None else winner.opponent
        return replace(self, turning_point=_turning_point(self.reviews, loser))


def classify(loss: float) -> MoveClass:
    """The class of a disc loss alone (before any turned result)."""
    klass = MoveClass.BEST if loss <= 0 else MoveClass.GOOD
    for name, threshold in CLASS_THRESHOLDS:
        if loss >= threshold:
            klass = MoveClass(name)
    return klass


def win_chance(discs: float) -> float:
    """The mover's winning chance, in points (0-100), of a value in discs."""
    return 100.0 / (1.0 + math.exp(-WIN_SLOPE * discs))


def move_accuracy(drop: float) -> float:
    """A move's accuracy (0-100) from its loss of winning chance in points."""
    return min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * max(drop, 0.0)) - 3.1669))


def _result(value: float, exact: bool) -> int:
    """+1 won, 0 drawn, -1 lost: exact values by sign, estimates past ``RESULT_MARGIN``."""
    margin = 0.0 if exact else RESULT_MARGIN - 1e-9
    if value > margin:
        return 1
    if value < -margin:
        return -1
    return 0


#: What exact values prove, and what estimates only suggest (within ``RESULT_MARGIN``
#: discs is level): an estimate never claims a result.
_RESULT_WORDS = {1: "win", 0: "draw", -1: "loss"}
_STANDING_WORDS = {1: "ahead", 0: "level", -1: "behind"}


def turned_result(best: float, played: float, exact: bool) -> str | None:
    """What the move turned: a result from exact values ("win->draw", "win->loss",
    "draw->loss"), a standing from estimates ("ahead->level", "ahead->behind",
    "level->behind"); None when it turned nothing."""
    before, after = _result(best, exact), _result(played, exact)
    if after < before:
        words = _RESULT_WORDS if exact else _STANDING_WORDS
        return f"{words[before]}->{words[after]}"
    return None


def judge(loss: float, turned: str | None, exact: bool) -> MoveClass:
    """The class of a move from its disc loss and the result it turned, if any."""
    klass = classify(loss)
    if turned is None:
        return klass
    floor = MoveClass.BLUNDER if exact else MoveClass.INACCURACY
    order = list(MoveClass)
    return klass if order.index(klass) >= order.index(floor) else floor


@dataclass(slots=True)
class _Valued:
    """A position's search: every known move value, the best, depth, line, exactness."""

    values: dict[Move, float]
    best: Move
    value: float
    depth: int
    pv: tuple[Move, ...]
    exact: bool


def _exact_line(p: int, o: int, score: int, limit: int, stop: StopCheck | None) -> list[Move]:
    """A line of best play from an exactly known ``score``: each step a narrow solve."""
    line: list[Move] = []
    while len(line) < limit:
        moves = legal_moves(p, o)
        if not moves:
            if not legal_moves(o, p):
                break
            line.append(PASS)
            p, o, score = o, p, -score
            continue
        found = solve(p, o, score - 1, score + 1, should_stop=stop)
        sq = found.move
        f = flips(p, o, sq)
        line.append(sq)
        p, o, score = o ^ f, p | f | (1 << sq), -score
    while line and line[-1] == PASS:
        line.pop()
    return line


def _solve_position(
    pos: Position, stop: StopCheck | None, played: Move = PASS, after: _Valued | None = None
) -> _Valued:
    """The exact values of ``pos``; ``after`` is the position the game went on to with
    ``played``: when that was the best move, its line is this one's after the move."""
    p, o = pos.player, pos.opponent
    if pos.empties <= ALL_EXACT_EMPTIES:
        scored = solve_all(p, o, stop)
        values = {sq: float(v) for sq, v in scored}
        best, value = scored[0][0], scored[0][1]
    else:
        found = solve(p, o, should_stop=stop)
        best, value = found.move, found.score
        values = {best: float(value)}
    if after is not None and after.exact and played != PASS and -after.value == value:
        # The game's own move was a best one: the line goes on as the next position's.
        best, pv = played, [played, *after.pv[: PV_PLIES - 1]]
    else:
        pv = _exact_line(p, o, value, PV_PLIES, stop)
    return _Valued(values, best, float(value), pos.empties, tuple(pv), True)


def move_values(
    position: Position, options: AnalysisOptions, stop: StopCheck | None = None
) -> dict[Move, float]:
    """Every legal move's value (discs, the mover's view): exact up to the options'
    exact empties, else from a ranking search of their time per move. Raises
    SearchCancelled when ``stop`` says so."""
    if position.empties <= options.exact_empties:
        return {sq: float(v) for sq, v in solve_all(position.player, position.opponent, stop)}
    return _search_position(position, options, stop).values


def _search_position(pos: Position, options: AnalysisOptions, stop: StopCheck | None) -> _Valued:
    """A ranking search: every legal move's value at one depth, and the best line."""
    p, o = pos.player, pos.opponent
    spec = get_level(options.level)
    limits = Limits(spec.max_depth, options.time_per_move, RANK_ALL, spec.selective)
    searcher = Searcher(base_evaluator(spec.evaluation), should_stop=stop, selective=spec.selective)
    kept: list[tuple[RootResult, dict[int, int]]] = []

    def keep(result: RootResult, scores: dict[int, int]) -> None:
        kept[:] = [(result, dict(scores))]

    iterative_deepening(
        p,
        o,
        searcher.evaluate,
        limits,
        random.Random(0),
        stop,
        on_iteration=keep,
        searcher=searcher,
    )
    result, scores = kept[0]
    values = {sq: units_to_discs(v) for sq, v in scores.items()}
    best = max(sorted(values), key=values.__getitem__)
    f = flips(p, o, best)
    line = [best, *principal_variation(searcher.table, o ^ f, p | f | (1 << best), PV_PLIES - 1)]
    return _Valued(values, best, values[best], result.depth, tuple(line), result.exact)


def _positions(start: Position, moves: Sequence[Move]) -> list[Position]:
    """Every position of the game, the start first; IllegalMoveError on a bad move."""
    out = [start]
    for move in moves:
        pos = out[-1]
        out.append(pos.pass_turn() if move == PASS else pos.play(move))
    return out


def analyse_game(
    start: Position,
    moves: Sequence[Move],
    options: AnalysisOptions | None = None,
    progress: Callable[[int, int], None] | None = None,
    should_stop: StopCheck | None = None,
) -> GameAnalysis:
    """Analyse a game from ``start``; ``progress(done, total)`` hears each position."""
    options = options or AnalysisOptions()
    started = time.perf_counter()
    positions = _positions(start, moves)
    total = len(moves)
    valued: list[_Valued | None] = [None] * len(positions)
    # The last position first: an exact played value needs the next position's.
    order = sorted(range(len(positions)), key=lambda i: -i)
    done = 0
    for i in order:
        if should_stop is not None and should_stop():
            raise SearchCancelled
        pos = positions[i]
        if pos.is_game_over or not pos.legal_moves:
            continue
        if pos.empties <= options.exact_empties:
            played = moves[i] if i < total else PASS
            after = valued[i + 1] if i < total else None
            valued[i] = _solve_position(pos, should_stop, played, after)
        else:
            valued[i] = _search_position(pos, options, should_stop)
        if i < total:
            done += 1
            if progress is not None:
                progress(done, total)
    reviews = [_review(i, positions, moves[i], valued, options) for i in range(total)]
    final = positions[-1]
    final_black, final_exact = _position_value(len(positions) - 1, positions, valued)
    if final.turn is Color.WHITE:
        final_black = -final_black
    summaries = {color: _summary(color, reviews) for color in (Color.BLACK, Color.WHITE)}
    return GameAnalysis(
        start,
        tuple(reviews),
        final_black,
        final_exact,
        options,
        time.perf_counter() - started,
        summaries,
        _turning_point(reviews, _loser(final_black)),
    )


def _position_value(
    i: int, positions: list[Position], valued: list[_Valued | None]
) -> tuple[float, bool]:
    """Position ``i``'s value for its side to move, and whether it is exact."""
    pos = positions[i]
    if pos.is_game_over:
        return float(final_score(pos.player, pos.opponent)), True
    v = valued[i]
    if v is not None:
        return v.value, v.exact
    # The mover must pass: the value is the opponent's, negated.
    if i + 1 < len(positions):
        value, exact = _position_value(i + 1, positions, valued)
        return -value, exact
    return 0.0, False


def _review(
    i: int,
    positions: list[Position],
    played: Move,
    valued: list[_Valued | None],
    options: AnalysisOptions,
) -> MoveReview:
    pos = positions[i]
    before, exact = _position_value(i, positions, valued)
    v = valued[i]
    if played == PASS or v is None:
        chance = win_chance(before)
        return MoveReview(
            i, pos.turn, PASS, PASS, before, before, exact, 0, (), {},
            MoveClass.FORCED, None, chance, chance, None,
        )  # fmt: skip
    values = dict(v.values)
    if v.exact:
        after, after_exact = _position_value(i + 1, positions, valued)
        played_value = -after
        values[played] = played_value
        exact = after_exact
    else:
        played_value = values[played]
    best_value = max(v.value, played_value)
    loss = max(0.0, best_value - played_value)
    turned = turned_result(best_value, played_value, exact)
    forced = len(pos.legal_moves) == 1
    klass = MoveClass.FORCED if forced else judge(loss, turned, exact)
    chance_before, chance_after = win_chance(best_value), win_chance(played_value)
    accuracy = None if forced else move_accuracy(chance_before - chance_after)
    return MoveReview(
        i,
        pos.turn,
        played,
        v.best if v.value >= played_value else played,
        best_value,
        played_value,
        exact,
        v.depth,
        v.pv,
        values,
        klass,
        None if forced else turned,
        chance_before,
        chance_after,
        accuracy,
    )


def _summary(color: Color, reviews: list[MoveReview]) -> SideSummary:
    judged = [r for r in reviews if r.color is color and r.klass is not MoveClass.FORCED]
    counts = {klass: sum(r.klass is klass for r in judged) for klass in MoveClass}
    counts[MoveClass.FORCED] = sum(
        r.color is color and r.klass is MoveClass.FORCED for r in reviews
    )
    mean_loss = sum(r.loss for r in judged) / len(judged) if judged else 0.0
    scores = [r.accuracy for r in judged if r.accuracy is not None]
    accuracy = sum(scores) / len(scores) if scores else None
    return SideSummary(color, len(judged), counts, mean_loss, accuracy)


def _loser(final_black: float) -> Color | None:
    """Who is losing by the last position's value (None when it is level)."""
    return None if final_black == 0 else (Color.WHITE if final_black > 0 else Color.BLACK)


def _turning_point(reviews: Sequence[MoveReview], loser: Color | None) -> int | None:
    """The losing side's costliest move (either side's on a level result)."""
    worst, where = TURN_MIN_DROP, None
    for r in reviews:
        if r.klass is MoveClass.FORCED or (loser is not None and r.color is not loser):
            continue
        drop = r.chance_before - r.chance_after
        if drop >= worst:
            worst, where = drop, r.ply
    return where


# JSON ----------------------------------------------------------------------------------


def _name(move: Move) -> str:
    return "pass" if move == PASS else square_name(move)


def _move(text: str) -> Move:
    return PASS if text == "pass" else parse_square(text)


def to_json(analysis: GameAnalysis) -> dict[str, Any]:
    """The analysis as plain JSON values (the fields ``docs/analysis.md`` describes)."""
    return {
        "format": 1,
        "options": {
            "time_per_move": analysis.options.time_per_move,
            "level": analysis.options.level,
            "exact_empties": analysis.options.exact_empties,
        },
        "seconds": round(analysis.seconds, 3),
        "final": {"black_value": analysis.final_black_value, "exact": analysis.final_exact},
        "turning_point": None if analysis.turning_point is None else analysis.turning_point + 1,
        "sides": {
            color.name.lower(): {
                "moves": s.moves,
                "counts": {k.value: n for k, n in s.counts.items()},
                "mean_loss": round(s.mean_loss, 2),
                "accuracy": None if s.accuracy is None else round(s.accuracy, 1),
            }
            for color, s in analysis.summaries.items()
        },
        "moves": [
            {
                "ply": r.ply + 1,
                "color": r.color.name.lower(),
                "played": _name(r.played),
                "best": _name(r.best),
                "played_value": round(r.played_value, 2),
                "best_value": round(r.best_value, 2),
                "loss": round(r.loss, 2),
                "exact": r.exact,
                "depth": r.depth,
                "class": r.klass.value,
                "turned": r.turned,
                "accuracy": None if r.accuracy is None else round(r.accuracy, 1),
                "pv": [_name(m) for m in r.pv],
                "values": {_name(m): round(v, 2) for m, v in sorted(r.values.items())},
            }
            for r in analysis.reviews
        ],
    }


def from_json(data: dict[str, Any], start: Position) -> GameAnalysis:
    """An analysis back from ``to_json``'s values (ValueError/KeyError/TypeError when
    they are not such)."""
    if data.get("format") != 1:
        raise ValueError("not an analysis this program wrote")
    opts = data["options"]
    options = AnalysisOptions(
        float(opts["time_per_move"]), str(opts["level"]), int(opts["exact_empties"])
    )
    reviews = []
    for i, m in enumerate(data["moves"]):
        if int(m["ply"]) != i + 1:
            raise ValueError("the analysis's plies are out of order")
        played_value, best_value = float(m["played_value"]), float(m["best_value"])
        reviews.append(
            MoveReview(
                i,
                Color[str(m["color"]).upper()],
                _move(m["played"]),
                _move(m["best"]),
                best_value,
                played_value,
                bool(m["exact"]),
                int(m["depth"]),
                tuple(_move(x) for x in m["pv"]),
                {_move(k): float(v) for k, v in m["values"].items()},
                MoveClass(m["class"]),
                None if m["turned"] is None else str(m["turned"]),
                win_chance(best_value),
                win_chance(played_value),
                None if m["accuracy"] is None else float(m["accuracy"]),
            )
        )
    # The stored summaries, not ones recomputed from the rounded moves: the same numbers.
    summaries = {}
    for color in (Color.BLACK, Color.WHITE):
        side = data["sides"][color.name.lower()]
        summaries[color] = SideSummary(
            color,
            int(side["moves"]),
            {MoveClass(k): int(n) for k, n in side["counts"].items()},
            float(side["mean_loss"]),
            None if side["accuracy"] is None else float(side["accuracy"]),
        )
    turning = data["turning_point"]
    return GameAnalysis(
        start,
        tuple(reviews),
        float(data["final"]["black_value"]),
        bool(data["final"]["exact"]),
        options,
        float(data["seconds"]),
        summaries,
        None if turning is None else int(turning) - 1,
    )
