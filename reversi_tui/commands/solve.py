"""``reversi solve POSITION``: the exact endgame solution of one position.

Kept free of Textual so that solving from a script starts fast.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import TYPE_CHECKING

from reversi_tui.commands.options import POSITION_HELP, Commands, int_range, positive_float
from reversi_tui.commands.positions import game_over_lines, read_position
from reversi_tui.engine import NotationError, Position, square_name
from reversi_tui.terminal import warn

if TYPE_CHECKING:
    from reversi_tui.engine.ai.endgame import Solution

#: Beyond this many empties a solve takes minutes or more in pure Python (18
#: empties: about 2-3 s median on a 2-core machine; each extra empty about x2-3).
SLOW_EMPTIES = 20
#: The same for the C solver (23 empties: about 5 s; FFO #40-44 take 0.5-4 s).
SLOW_EMPTIES_C = 26


def slow_empties() -> int:
    """Beyond this many empties the solver in use may take minutes or more."""
    from reversi_tui.engine.ai.endgame import solver_name

    return SLOW_EMPTIES_C if solver_name() == "c" else SLOW_EMPTIES


def add_parser(commands: Commands) -> None:
    """``reversi solve``'s options; ``run`` is its handler."""
    solve = commands.add_parser("solve", help="exact best move(s) and final disc difference")
    solve.add_argument("position", metavar="POSITION", help=POSITION_HELP)
    solve.add_argument("--all", action="store_true", help="score every legal move exactly")
    solve.add_argument(
        "--time-limit",
        type=positive_float,
        metavar="S",
        help="give up after S seconds with exit status 1 (default: no limit; "
        "a warning above 26 empty squares, 20 with the Python solver)",
    )
    solve.add_argument("--json", action="store_true", help="one line of JSON")
    add_jobs_option(solve)
    add_solver_option(solve)
    solve.set_defaults(handler=run)


def add_solver_option(parser: argparse.ArgumentParser) -> None:
    """``--solver``: the C node search (built at install when a compiler was there) or Python."""
    parser.add_argument(
        "--solver",
        choices=("c", "python"),
        help="the node search: c (the default where the install could compile it) or "
        "python (the reference, 30-40 times slower)",
    )


def choose_solver(args: argparse.Namespace, command: str) -> bool:
    """Apply ``--solver``; False (after saying why) when the C solver was not built."""
    if args.solver is None:
        return True
    from reversi_tui.engine.ai.endgame import use_solver

    try:
        use_solver(args.solver)
    except ValueError as err:
        warn(f"{command}: {err}; use --solver python")
        return False
    return True


def add_jobs_option(parser: argparse.ArgumentParser) -> None:
    """``--jobs``: processes for one solve (the default: every core this process may use)."""
    parser.add_argument(
        "--jobs",
        type=int_range(1, 64),
        metavar="J",
        help="processes for one solve, from 20 empty squares (14 with the Python solver; "
        "default: one per core; 1 solves in this process alone)",
    )


def jobs_wanted(args: argparse.Namespace) -> int:
    """``--jobs`` or, left out, the cores this process may use."""
    from reversi_tui.parallel_solver import usable_cores

    return int(args.jobs) if args.jobs is not None else usable_cores()


def run(args: argparse.Namespace) -> int:
    """Solve ``args.position`` and print the best moves, score, nodes and time.

    Exit status 0, or 2 for a bad position, or 1 when ``--time-limit`` runs out.
    """
    from reversi_tui.engine.ai import SearchCancelled  # the solver: only when it runs
    from reversi_tui.engine.ai.endgame import final_score
    from reversi_tui.parallel_solver import ParallelSolver

    try:
        position = read_position(args.position)
    except NotationError as err:
        warn(f"reversi solve: {err}")
        return 2
    if not choose_solver(args, "reversi solve"):
        return 2
    if position.is_game_over:
        score = final_score(position.player, position.opponent)
        if args.json:
            print(json.dumps({"moves": [], "score": score, "nodes": 0, "seconds": 0.0}))
        else:
            print("\n".join(game_over_lines(position)))
        return 0
    notes = []
    mover = position
    if position.must_pass:
        notes.append(
            f"{position.turn.title} has no legal move and must pass; "
            f"{position.turn.opponent.title} then plays"
        )
        position = position.pass_turn()
    with ParallelSolver(jobs_wanted(args)) as solver:
        solver.prepare(position.player, position.opponent)
        if position.empties > slow_empties() and args.time_limit is None:
            warn(
                f"{position.empties} empty squares: this may take a very long time "
                "(Ctrl+C stops; --time-limit S gives up after S seconds)"
            )
        start = time.perf_counter()
        limit = args.time_limit
        stop = None if limit is None else (lambda: time.perf_counter() - start > limit)
        try:
            solution = solver.solve_best_moves(
                position.player, position.opponent, all_scores=args.all, should_stop=stop
            )
        except SearchCancelled:
            warn(
                f"reversi solve: no answer within the time limit of {limit:g} s "
                f"({position.empties} empty squares); raise --time-limit or leave it out"
            )
            return 1
    seconds = time.perf_counter() - start
    if args.json:
        print(json.dumps(_as_json(mover, solution, seconds, args.all)))
    else:
        _print_text(mover, solution, seconds, notes)
    return 0


def _as_json(
    mover: Position, solution: Solution, seconds: float, all_scores: bool
) -> dict[str, object]:
    """The one-line JSON form, from the side to move's point of view.

    A side that must pass gets ``"moves": ["pass"]`` and the negated score; the
    opponent's best replies follow as ``"replies"``.
    """
    passes = mover.must_pass
    out: dict[str, object] = {
        "moves": ["pass"] if passes else [square_name(sq) for sq in solution.moves],
        "score": -solution.score if passes else solution.score,
        "nodes": solution.nodes,
        "seconds": round(seconds, 4),
    }
    if passes:
        out["replies"] = [square_name(sq) for sq in solution.moves]
    if all_scores:
        scores = {"pass": -solution.score} if passes else solution.scores
        out["all"] = {k if isinstance(k, str) else square_name(k): v for k, v in scores.items()}
    return out


def _print_text(mover: Position, solution: Solution, seconds: float, notes: list[str]) -> None:
    for note in notes:
        print(note)
    passes = mover.must_pass
    if solution.moves:
        names = ", ".join(square_name(sq) for sq in solution.moves)
        label = "best move" if len(solution.moves) == 1 else "best moves"
        if passes:
            label = f"{mover.turn.opponent.title}'s {label} after the pass"
        print(f"{label}: {names}")
    score = -solution.score if passes else solution.score
    print(
        f"score: {score:+d} for {mover.turn.title} (final disc difference, empties to the winner)"
    )
    if solution.scores and not passes:
        print("all moves:")
        for sq, v in solution.scores.items():
            print(f"  {square_name(sq)} {v:+d}")
    rate = solution.nodes / seconds if seconds > 0 else 0.0
    print(f"nodes: {solution.nodes:,} in {seconds:.3f} s ({rate:,.0f} nodes/s)")
