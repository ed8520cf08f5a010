"""The four computer levels: what each searches, how long, and how it errs.

Each level is stronger than the one before through three knobs: the
evaluation (a disc-counting beginner's view for easy, the full positional
evaluation from medium up), the search (depth cap and time budget) and noise
added to every leaf evaluation, which makes the weaker levels misjudge
positions the way people do instead of playing random moves.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from reversi_tui.engine.ai.evaluation import (
    DISC,
    Evaluator,
    Weights,
    make_evaluator,
    make_greedy_evaluator,
)
from reversi_tui.engine.ai.names import LEVEL_NAMES


@dataclass(frozen=True, slots=True)
class Level:
    """Settings of one level; times are seconds, margins and noise are discs."""

    name: str
    #: Default seconds per move (``think_time`` overrides it).
    budget: float
    #: Deepest iteration, in plies.
    max_depth: int
    #: "greedy" (disc count and corners), "full" (the hand-weighted positional
    #: evaluation) or "learned" (the package's pattern weights, ``learned.weights``;
    #: "full" when they were refused).
    evaluation: str
    #: Standard deviation of the noise added to each leaf evaluation.
    noise: float
    #: Moves within this many discs of the best are picked from at random.
    tie_margin: float
    #: Try the exact endgame solver at this many empties or fewer (0: never).
    solve_empties: int
    #: Play from the opening book, among moves this many discs from its best (None:
    #: never); only when the package has a book (``learned.book``).
    book_spread: float | None = None
    #: Prune with Multi-ProbCut (``probcut``) in its timed searches, when its table
    #: fits the evaluation (``learned.probcut_fits``); a fixed ``depth`` stays a
    #: full-width search.
    selective: bool = False
    #: ``solve_empties`` where the C node search was built (``endgame.solver_name``),
    #: much faster than the Python one (README); None: the same as ``solve_empties``.
    solve_empties_c: int | None = None

    def exact_from(self, solver: str) -> int:
        """From how many empties this level solves exactly with ``solver`` ("c", "python")."""
        if solver == "c" and self.solve_empties_c is not None:
            return self.solve_empties_c
        return self.solve_empties


LEVEL_TABLE: dict[str, Level] = {
    # A beginner: looks two plies ahead, likes flipping many discs, knows corners are
    # good but not why X squares are bad; noise makes it misjudge close choices.
    "easy": Level("easy", 0.5, 2, "greedy", noise=3.0, tie_margin=1.0, solve_empties=0),
    # A casual player: sound positional sense, short sight, slightly blurred judgement,
    # and it counts the last few moves out.
    "medium": Level("medium", 0.5, 3, "full", noise=1.5, tie_margin=0.5, solve_empties=8),
    # Full search for a second, exact play from 14 empties (median solve 0.2 s in
    # Python); with the C solver from 18 (30 self-play positions: median 0.07 s,
    # slowest 0.23 s; at 19 the slowest took 0.63 s of the 0.8 s left to solve).
    "hard": Level(
        "hard",
        1.0,
        60,
        "learned",
        noise=0.0,
        tie_margin=0.0,
        solve_empties=14,
        book_spread=1.0,
        selective=True,
        solve_empties_c=18,
    ),
    # Five seconds, exact from 16 empties when the solver finishes in time; 21 with
    # the C solver (30 self-play positions: median 0.68 s, 90% within 2.4 s, the
    # slowest 4.6 s; at 22 empties a tenth took over 6 s, past the 4 s left to solve).
    "expert": Level(
        "expert",
        5.0,
        60,
        "learned",
        noise=0.0,
        tie_margin=0.0,
        solve_empties=16,
        book_spread=0.5,
        selective=True,
        solve_empties_c=21,
    ),
}

#: The level names in order (defined once, in ``names.py``; the table must follow it).
LEVELS: tuple[str, ...] = LEVEL_NAMES
if tuple(LEVEL_TABLE) != LEVELS:
    raise RuntimeError("LEVEL_TABLE must list exactly the levels of names.LEVEL_NAMES, in order")


def get_level(name: str) -> Level:
    """The level called ``name``; a ValueError that lists the choices otherwise."""
    try:
        return LEVEL_TABLE[name]
    except KeyError:
        raise ValueError(f"unknown level {name!r}: choose from {', '.join(LEVELS)}") from None


def base_evaluator(kind: str) -> Evaluator:
    """The noiseless evaluator of a level (shared: evaluators keep no state); "learned"
    is the hand-weighted one when ``learned`` refused the weights."""
    if kind == "learned":
        from reversi_tui.engine.ai.learned import evaluator

        found = evaluator()
        if found is not None:
            return found
    return _fixed_evaluator(kind == "greedy")


@cache
def _fixed_evaluator(greedy: bool) -> Evaluator:
    return make_greedy_evaluator() if greedy else make_evaluator(Weights())


def noise_units(level: Level) -> float:
    """The level's noise standard deviation in evaluation units."""
    return level.noise * DISC
