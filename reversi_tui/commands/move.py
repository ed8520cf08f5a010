"""``reversi move``: the move a level plays in a position, for scripts and curious players."""

from __future__ import annotations

import argparse
import json
import random
from typing import TYPE_CHECKING

from reversi_tui.commands.options import POSITION_HELP, Commands, int_range, think_seconds
from reversi_tui.commands.positions import game_over_lines, read_position
from reversi_tui.engine import NotationError, square_name
from reversi_tui.match.settings import LEVEL_NAMES
from reversi_tui.terminal import warn

if TYPE_CHECKING:
    from reversi_tui.engine.ai import SearchResult


def add_parser(commands: Commands) -> None:
    """``reversi move``'s options; ``run_move`` is its handler."""
    move = commands.add_parser("move", help="the move a level plays, with its evaluation")
    move.add_argument("position", metavar="POSITION", help=POSITION_HELP)
    move.add_argument("--level", choices=LEVEL_NAMES, default="hard", help="default: hard")
    move.add_argument(
        "--think-time", type=think_seconds, metavar="S", help="seconds to think, at most 3600"
    )
    move.add_argument(
        "--depth",
        type=int_range(1, 60),
        help="fixed search depth (reproducible); beyond 12 plies it may take very long",
    )
    move.add_argument("--seed", type=int, help="seed the choice among equal moves")
    move.add_argument("--json", action="store_true", help="one line of JSON")
    move.set_defaults(handler=run_move)


def score_value(result: SearchResult) -> int | float:
    """An exact score is a whole disc difference; an estimate keeps two decimals."""
    return round(result.score) if result.exact else round(result.score, 2)


def format_result(result: SearchResult) -> str:
    """One human-readable line: move, score (exact or estimated), depth, nodes, time."""
    kind = "exact" if result.exact else "estimate"
    score = f"{score_value(result):+}" if result.exact else f"{result.score:+.1f}"
    return (
        f"{square_name(result.move)}  score {score} ({kind})  depth {result.depth}  "
        f"nodes {result.nodes}  time {result.seconds:.2f} s"
    )


def result_json(result: SearchResult) -> str:
    """The one-line JSON form; ``"move": "pass"`` when the side to move has none."""
    return json.dumps(
        {
            "move": square_name(result.move),
            "score": score_value(result),
            "depth": result.depth,
            "nodes": result.nodes,
            "seconds": round(result.seconds, 4),
        }
    )


#: Beyond this many plies a fixed-depth search from the middle game takes minutes or
#: more in pure Python (12 plies from the start: about 7 s; each 2 more about x10).
SLOW_DEPTH = 12


def run_move(args: argparse.Namespace) -> int:
    """Parse the position, search it at the level, print the verdict; 2 on bad input."""
    from reversi_tui.engine.ai import choose_move  # the search: only when it runs
    from reversi_tui.engine.ai.endgame import final_score

    try:
        position = read_position(args.position)
    except NotationError as error:
        warn(f"reversi move: {error}")
        return 2
    if position.is_game_over:
        if args.json:
            print(
                json.dumps(
                    {
                        "move": None,
                        "score": final_score(position.player, position.opponent),
                        "depth": 0,
                        "nodes": 0,
                        "seconds": 0.0,
                    }
                )
            )
        else:
            print("\n".join(game_over_lines(position)))
        return 0
    if args.depth is not None and min(args.depth, position.empties) > SLOW_DEPTH:
        warn(
            f"reversi move: depth {args.depth} with {position.empties} empty squares may take "
            "a very long time (Ctrl+C stops)"
        )
    rng = random.Random(args.seed) if args.seed is not None else None
    result = choose_move(
        position, args.level, think_time=args.think_time, rng=rng, depth=args.depth
    )
    print(result_json(result) if args.json else format_result(result))
    return 0
