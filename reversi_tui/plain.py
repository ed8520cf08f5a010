"""Line mode: the published RowCol transcript format, byte for byte.

Typed input is not echoed, so ``reversi --plain < moves > out`` is the
transcript minus what was typed. Input is read as bytes so that no junk,
however malformed, can raise: anything that is not a legal RowCol move is an
invalid move.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, BinaryIO, TextIO

from reversi_tui.engine import Color, Game, Position, rowcol_name

if TYPE_CHECKING:
    from reversi_tui.players import Player

_LETTER = {Color.BLACK: "B", Color.WHITE: "W"}
_ROWS = "abcdefgh"


def render_board(pos: Position) -> str:
    """The board block: header, then a row per letter, ``.``/``B``/``W`` cells."""
    lines = ["  abcdefgh"]
    for row in range(8):
        cells = []
        for col in range(8):
            bit = 1 << (row * 8 + col)
            cells.append("B" if pos.black & bit else "W" if pos.white & bit else ".")
        lines.append(f"{_ROWS[row]} {''.join(cells)}")
    return "\n".join(lines) + "\n"


def result_line(pos: Position) -> str:
    outcome = pos.outcome()
    if outcome.winner is None:
        return "Draw!\n"
    return f"{outcome.winner.title} wins by {outcome.margin} points!\n"


def parse_input(raw: bytes) -> int | None:
    """The square of a RowCol line (``b"cd\\r\\n"`` -> d3), or None if it is not one."""
    text = raw.strip()
    if len(text) != 2 or text[0] not in b"abcdefgh" or text[1] not in b"abcdefgh":
        return None
    return (text[0] - 0x61) * 8 + (text[1] - 0x61)


class InputEnded(Exception):
    """Standard input closed before the game was over."""


def play(
    game: Game,
    players: dict[Color, Player],
    stdin: BinaryIO,
    stdout: TextIO,
) -> None:
    """Run the game to its end on the given streams; raises InputEnded on EOF."""
    stdout.write(render_board(game.position))
    while not game.is_over:
        color = game.turn
        player = players[color]
        if player.is_human:
            stdout.write(f"Enter move for colour {_LETTER[color]} (RowCol): ")
            stdout.flush()
            raw = stdin.readline()
            if not raw:
                raise InputEnded
            sq = parse_input(raw)
            if sq is None or not game.position.is_legal(sq):
                stdout.write("Invalid move. Try again.\n")
                stdout.write(render_board(game.position))
                continue
        else:
            sq = player.choose_move(game.position)
            stdout.write(f"Computer places {_LETTER[color]} at {rowcol_name(sq)}.\n")
        plies = game.play(sq)
        stdout.write(render_board(game.position))
        for ply in plies[1:]:
            if ply.is_pass:
                stdout.write(f"{_LETTER[ply.color]} player has no valid move.\n")
    stdout.write(result_line(game.position))
    stdout.flush()


def run(game: Game, players: dict[Color, Player]) -> int:
    """Play on the process's standard streams; the exit status."""
    try:
        play(game, players, sys.stdin.buffer, sys.stdout)
    except InputEnded:
        sys.stdout.flush()
        print("reversi: input ended before the game was over", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\nreversi: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1
    return 0
