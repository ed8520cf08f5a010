"""Line mode: the published RowCol transcript format, byte for byte.

Typed input is not echoed, so ``reversi --plain < moves > out`` is the
transcript minus what was typed. Input is read as bytes so that no junk,
however malformed, can raise: anything that is not a legal RowCol move is an
invalid move.
"""

from __future__ import annotations

import signal
import sys
from types import FrameType
from typing import BinaryIO, TextIO

from reversi_tui.engine import Color, Game, Move, Ply, Position, rowcol_name
from reversi_tui.engine.notation import COLUMNS
from reversi_tui.match import (
    Changed,
    Match,
    MatchEvent,
    MatchSettings,
    Passed,
    PlayerKind,
    PlayerSpec,
    play_out,
)
from reversi_tui.match.session import Listener
from reversi_tui.match.sources import MoveRequest, MoveSource, PlayResult, SourceFactory
from reversi_tui.players import make_source

_LETTER = {Color.BLACK: "B", Color.WHITE: "W"}
_LETTERS = COLUMNS.encode()


def render_board(pos: Position) -> str:
    """The board block: header, then a row per letter, ``.``/``B``/``W`` cells."""
    lines = [f"  {COLUMNS}"]
    for row in range(8):
        cells = []
        for col in range(8):
            bit = 1 << (row * 8 + col)
            cells.append("B" if pos.black & bit else "W" if pos.white & bit else ".")
        lines.append(f"{COLUMNS[row]} {''.join(cells)}")
    return "\n".join(lines) + "\n"


def result_line(pos: Position) -> str:
    outcome = pos.outcome()
    if outcome.winner is None:
        return "Draw!\n"
    return f"{outcome.winner.title} wins by {outcome.margin} points!\n"


def parse_input(raw: bytes) -> int | None:
    """The square of a RowCol line (``b"cd\\r\\n"`` -> d3), or None if it is not one."""
    text = raw.strip()
    if len(text) != 2 or text[0] not in _LETTERS or text[1] not in _LETTERS:
        return None
    return (text[0] - 0x61) * 8 + (text[1] - 0x61)


class InputEnded(Exception):
    """Standard input closed before the game was over."""


class LineHuman:
    """A person typing RowCol moves on standard input; wrong lines are re-prompted."""

    takes_local_input = True
    label = "Human"

    def __init__(self, stdin: BinaryIO, stdout: TextIO) -> None:
        self.stdin = stdin
        self.stdout = stdout

    async def play(self, request: MoveRequest) -> PlayResult:
        position = request.position
        while True:
            self.stdout.write(f"Enter move for colour {_LETTER[position.turn]} (RowCol): ")
            self.stdout.flush()
            raw = self.stdin.readline()
            if not raw:
                raise InputEnded
            sq = parse_input(raw)
            if sq is not None and position.is_legal(sq):
                return PlayResult(sq)
            self.stdout.write("Invalid move. Try again.\n")
            self.stdout.write(render_board(position))

    def offer(self, move: Move) -> bool:
        return False  # moves come from standard input, read in ``play``

    def observe(self, ply: Ply) -> None:
        """The transcript shows every board; nothing to keep."""


def _transcript(match: Match, stdout: TextIO) -> Listener:
    """Writes each board after a move, who the computer played, and forced passes."""

    def write(event: MatchEvent) -> None:
        if isinstance(event, Changed):
            ply = event.plies[0]
            if not match.sources[ply.color].takes_local_input:
                stdout.write(f"Computer places {_LETTER[ply.color]} at {rowcol_name(ply.move)}.\n")
            stdout.write(render_board(match.game.position))
        elif isinstance(event, Passed):
            stdout.write(f"{_LETTER[event.ply.color]} player has no valid move.\n")

    return write


def play(
    settings: MatchSettings,
    stdin: BinaryIO,
    stdout: TextIO,
    *,
    game: Game | None = None,
    make_computer: SourceFactory = make_source,
) -> Match:
    """Run a game (``game``, or a new one) to its end on the given streams.

    Humans type on ``stdin``; every other player comes from ``make_computer``.
    Raises InputEnded when the input ends first.
    """

    def make(spec: PlayerSpec, seed: int | None) -> MoveSource:
        if spec.kind is PlayerKind.HUMAN:
            return LineHuman(stdin, stdout)
        return make_computer(spec, seed)

    match = Match(settings, make, game=game)
    match.subscribe(_transcript(match, stdout))
    stdout.write(render_board(match.game.position))
    play_out(match)
    stdout.write(result_line(match.game.position))
    stdout.flush()
    return match


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def run(settings: MatchSettings) -> int:
    """Play on the process's standard streams; the exit status."""
    # asyncio's own Ctrl-C handler only cancels the loop's task, which cannot wake a
    # blocking readline; raising at once (its handler then stays out) ends the game now.
    signal.signal(signal.SIGINT, _interrupt)
    try:
        play(settings, sys.stdin.buffer, sys.stdout)
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
