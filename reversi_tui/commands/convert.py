"""``reversi convert SOURCE --to FORMAT``: a game file in another format."""

from __future__ import annotations

import argparse
import sys

from reversi_tui.commands.options import MOST_GAMES, Commands, int_range
from reversi_tui.commands.play import StartError, read_game_file
from reversi_tui.records.formats import FORMAT_NAMES, FORMATS, FormatError, read_game, write_game
from reversi_tui.terminal import warn


def add_parser(commands: Commands) -> None:
    """``reversi convert``'s options; ``run`` is its handler."""
    convert = commands.add_parser(
        "convert",
        help=f"a game file ({', '.join(fmt.title for fmt in FORMATS)}) in another format",
    )
    convert.add_argument("source", metavar="SOURCE", help="a game file, or - for standard input")
    convert.add_argument(
        "--to",
        choices=FORMAT_NAMES,
        required=True,
        help=", ".join(fmt.help for fmt in FORMATS[:-1]) + f" or {FORMATS[-1].help}",
    )
    convert.add_argument(
        "--game",
        type=int_range(1, MOST_GAMES),
        default=argparse.SUPPRESS,  # not given here: reversi --game N convert's, or the first
        metavar="N",
        help="which game of a file with several (default: the first)",
    )
    convert.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Print the game of ``args.source`` as ``args.to``; 1 and one line when it cannot."""
    try:
        text = read_game_file(args.source)
        imported = read_game(text, (args.game or 1) - 1)
    except (StartError, FormatError) as error:
        warn(f"reversi convert: {error}")
        return 1
    sys.stdout.write(write_game(imported.record, args.to, imported.tags, players=imported.ours))
    return 0
