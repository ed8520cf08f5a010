"""``reversi convert SOURCE --to FORMAT``: a game file in another format."""

from __future__ import annotations

import argparse
import sys

from reversi_tui.commands.play import StartError, read_game_file
from reversi_tui.records.formats import FormatError, read_game, write_game
from reversi_tui.terminal import warn


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
