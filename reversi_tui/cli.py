"""Command line: picks a front end or a command. Imports Textual only for the TUI."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence

from reversi_tui import __version__
from reversi_tui.match.settings import LEVEL_NAMES, PLAYER_CHOICES

DESCRIPTION = """\
Reversi (Othello rules) in the terminal.

With no command, opens the full-screen game (default: you play black against the
computer at medium). --plain plays in line mode on standard input and output
instead (both colours human unless --black/--white say otherwise)."""

EPILOG = """\
commands:
  reversi move POSITION    the move a level plays in a position, with its evaluation
  reversi solve POSITION   exact endgame solution: best move(s) and final disc difference
  reversi arena            play levels against each other and print the statistics
  reversi bench perft [N]  move-generator benchmark (leaf count, seconds, nodes/s)
  reversi bench solve FILE endgame-solver benchmark on an .obf file of positions
  reversi bench tui        the app's start-up time, key latency and bytes per key

A POSITION is 64 characters a1 b1 ... h8 (X black, O white, - empty), a space and
the side to move, quoted as one argument; the start position is
"---------------------------OX------XO--------------------------- X".
Run 'reversi COMMAND --help' for a command's options."""


def _seconds(text: str, *, zero_ok: bool) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    low_ok = value >= 0 if zero_ok else value > 0
    if not low_ok or value == float("inf"):
        kind = "zero or a positive" if zero_ok else "a positive"
        raise argparse.ArgumentTypeError(f"must be {kind} number of seconds")
    return value


def _positive_float(text: str) -> float:
    return _seconds(text, zero_ok=False)


def _non_negative_float(text: str) -> float:
    return _seconds(text, zero_ok=True)


def _int_range(low: int, high: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be from {low} to {high}")
        return value

    return parse


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="reversi",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"reversi {__version__}")
    parser.add_argument(
        "--plain", action="store_true", help="line mode (RowCol moves on standard input)"
    )
    parser.add_argument(
        "--black",
        choices=PLAYER_CHOICES,
        metavar="PLAYER",
        help="who plays black: human, easy, medium, hard or expert (default: human)",
    )
    parser.add_argument(
        "--white",
        choices=PLAYER_CHOICES,
        metavar="PLAYER",
        help="who plays white: human or a level (default: medium; human in --plain)",
    )
    parser.add_argument(
        "--handicap",
        type=_int_range(0, 4),
        default=0,
        metavar="N",
        help="pre-place N corner discs (0-4, corners a1, h8, h1, a8) for --handicap-colour",
    )
    parser.add_argument(
        "--handicap-colour",
        "--handicap-color",
        choices=("black", "white"),
        default="black",
        help="the colour that gets the handicap corners (default: black)",
    )
    parser.add_argument(
        "--think-time",
        type=_positive_float,
        metavar="S",
        help="seconds the computer may think per move (default: the level's own budget)",
    )
    parser.add_argument(
        "--seed", type=int, help="seed the computer's choice among equal moves (reproducible games)"
    )
    parser.add_argument(
        "--delay",
        type=_non_negative_float,
        default=0.5,
        metavar="S",
        help="pause between moves when the computer plays both sides (default: 0.5)",
    )
    parser.add_argument("--ascii", action="store_true", help="draw discs as X and O, empty as .")
    parser.add_argument("--no-mouse", action="store_true", help="do not capture the mouse")
    parser.add_argument("--theme", metavar="NAME", help="start with this theme (see the palette)")

    commands = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")

    move = commands.add_parser("move", help="print the move a level plays in a position")
    move.add_argument("position", metavar="POSITION", help="64 squares a1..h8, space, X or O")
    move.add_argument("--level", choices=LEVEL_NAMES, default="hard", help="default: hard")
    move.add_argument("--think-time", type=_positive_float, metavar="S", help="seconds to think")
    move.add_argument("--depth", type=_int_range(1, 60), help="fixed search depth (reproducible)")
    move.add_argument("--seed", type=int, help="seed the choice among equal moves")
    move.add_argument("--json", action="store_true", help="one line of JSON")

    solve = commands.add_parser("solve", help="solve a position exactly")
    solve.add_argument("position", metavar="POSITION", help="64 squares a1..h8, space, X or O")
    solve.add_argument("--all", action="store_true", help="score every legal move exactly")
    solve.add_argument("--json", action="store_true", help="one line of JSON")

    arena = commands.add_parser("arena", help="play levels against each other")
    arena.add_argument(
        "--black", choices=LEVEL_NAMES, required=True, metavar="LEVEL", help="level of one side"
    )
    arena.add_argument(
        "--white", choices=LEVEL_NAMES, required=True, metavar="LEVEL", help="level of the other"
    )
    arena.add_argument(
        "--games",
        type=_int_range(1, 100000),
        default=10,
        metavar="N",
        help="games to play; colours swap every game (default: 10)",
    )
    arena.add_argument(
        "--jobs", type=_int_range(1, 64), default=1, metavar="J", help="games at once (processes)"
    )
    arena.add_argument(
        "--think-time", type=_positive_float, metavar="S", help="seconds per move for both sides"
    )
    arena.add_argument("--depth", type=_int_range(1, 60), help="fixed depth for both sides")
    arena.add_argument("--seed", type=int, default=1, help="seed for openings and choices")

    bench = commands.add_parser("bench", help="benchmarks that print numbers")
    bench_kinds = bench.add_subparsers(dest="bench", metavar="KIND", required=True)
    perft = bench_kinds.add_parser("perft", help="count leaves from the start position")
    perft.add_argument("depth", nargs="?", type=_int_range(0, 20), default=9, metavar="DEPTH")
    bench_solve = bench_kinds.add_parser("solve", help="solve every position of an .obf file")
    bench_solve.add_argument("file", metavar="FILE", help="positions, one per line (obf format)")
    bench_solve.add_argument(
        "--limit", type=_int_range(1, 100000), metavar="N", help="solve only the first N"
    )
    bench_tui = bench_kinds.add_parser(
        "tui", help="start-up time, key latency and bytes per key of the app, through a pty"
    )
    bench_tui.add_argument("--columns", type=_int_range(20, 500), default=80, help="default: 80")
    bench_tui.add_argument("--rows", type=_int_range(10, 300), default=24, help="default: 24")
    bench_tui.add_argument(
        "--presses", type=_int_range(1, 10000), default=40, help="cursor keys to time"
    )
    bench_tui.add_argument(
        "--thinking", action="store_true", help="press the keys while the computer searches"
    )
    return parser


#: command -> "module:function"; imported only when the command runs.
_HANDLERS = {
    "move": "reversi_tui.commands.move:run_move",
    "solve": "reversi_tui.commands.solve:run",
    "arena": "reversi_tui.commands.arena:run",
    ("bench", "perft"): "reversi_tui.commands.bench:run_perft",
    ("bench", "solve"): "reversi_tui.commands.bench:run_solve",
    ("bench", "tui"): "reversi_tui.commands.bench_tui:run",
}


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command is None:
        if args.plain:
            from reversi_tui.commands.play import run_plain

            return run_plain(args)
        from reversi_tui.commands.play import run_tui

        return run_tui(args)
    key = (args.command, args.bench) if args.command == "bench" else args.command
    module, _, name = _HANDLERS[key].partition(":")
    try:
        return int(getattr(importlib.import_module(module), name)(args))
    except KeyboardInterrupt:
        print("\nreversi: interrupted", file=sys.stderr)
        return 130
