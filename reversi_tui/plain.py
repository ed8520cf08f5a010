"""Line mode: the published RowCol transcript format, byte for byte.

Typed input is not echoed, so ``reversi --plain < moves > out`` is the
transcript minus what was typed. Input is read as bytes so that no junk,
however malformed, can raise: anything that is not a legal RowCol move is an
invalid move. Lines are read with a limit, so no input (``< /dev/zero``) can
make memory grow.
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
from reversi_tui.match.sources import (
    MoveRequest,
    MoveSource,
    PlayResult,
    SourceFactory,
    local_input,
)
from reversi_tui.players import make_source
from reversi_tui.terminal import warn

_LETTER = {Color.BLACK: "B", Color.WHITE: "W"}
_LETTERS = COLUMNS.encode()

#: The longest line read as a move; a longer one is an invalid move.
MAX_LINE = 4096
#: The longest line skipped: past this the input is not moves at all (``< /dev/zero``).
MAX_SKIP = 1 << 20


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

    message = "reversi: input ended before the game was over"


class LineTooLong(InputEnded):
    """A line of input went on past ``MAX_SKIP`` bytes: it holds no moves."""

    message = f"reversi: a line of input is over {MAX_SKIP} bytes long; stopping"


class LineReader:
    """Lines of at most ``MAX_LINE`` bytes from a binary stream, in bounded memory.

    A longer line comes back empty (an invalid move, whatever it held) and its rest
    is skipped before the next line; both players of a game share one reader, so a
    skip carries over from one to the other.
    """

    def __init__(self, stream: BinaryIO) -> None:
        self.stream = stream
        #: True while the rest of an over-long line is still to be skipped.
        self.skipping = False

    def readline(self) -> bytes:
        """The next line, newline included; raises InputEnded at the end of input.

        Raises LineTooLong when a line runs on past ``MAX_SKIP`` bytes.
        """
        if self.skipping:
            self._skip_rest()
        line = self.stream.readline(MAX_LINE + 1)
        if not line:
            raise InputEnded
        if len(line) > MAX_LINE and not line.endswith(b"\n"):
            self.skipping = True
            return b""
        return line

    def _skip_rest(self) -> None:
        skipped = MAX_LINE
        while skipped <= MAX_SKIP:
            chunk = self.stream.readline(MAX_LINE)
            if not chunk or chunk.endswith(b"\n"):
                self.skipping = False
                return
            skipped += len(chunk)
        raise LineTooLong


class PlayerGaveOut(Exception):
    """A player failed (an engine that exited, hung or answered nonsense): ``str()`` is
    the line to show."""


class LineHuman:
    """A person typing RowCol moves on standard input; wrong lines are re-prompted."""

    takes_local_input = True
    label = "Human"

    def __init__(self, stdin: LineReader, stdout: TextIO) -> None:
        self.stdin = stdin
        self.stdout = stdout

    async def play(self, request: MoveRequest) -> PlayResult:
        position = request.position
        while True:
            self.stdout.write(f"Enter move for colour {_LETTER[position.turn]} (RowCol): ")
            self.stdout.flush()
            sq = parse_input(self.stdin.readline())
            if sq is not None and position.is_legal(sq):
                return PlayResult(sq)
            self.stdout.write("Invalid move. Try again.\n")
            self.stdout.write(render_board(position))

    def offer(self, move: Move) -> bool:
        return False  # moves come from standard input, read in ``play``

    def observe(self, ply: Ply) -> None:
        """The transcript shows every board; nothing to keep."""

    async def close(self) -> None:
        """Nothing to release (standard input is the caller's)."""


def _transcript(match: Match, stdout: TextIO) -> Listener:
    """Writes each board after a move, who the computer played, and forced passes."""

    def write(event: MatchEvent) -> None:
        if isinstance(event, Changed):
            ply = event.plies[0]
            if local_input(match.sources[ply.color]) is None:
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
    Raises InputEnded when the input ends first (LineTooLong when it is no lines),
    PlayerGaveOut when a player fails.
    """
    lines = LineReader(stdin)

    def make(spec: PlayerSpec, seed: int | None) -> MoveSource:
        if spec.kind is PlayerKind.HUMAN:
            return LineHuman(lines, stdout)
        return make_computer(spec, seed)

    match = Match(settings, make, game=game)
    match.subscribe(_transcript(match, stdout))
    stdout.write(render_board(match.game.position))
    play_out(match)
    if match.failure is not None:
        stdout.flush()
        raise PlayerGaveOut(f"reversi: {match.failure.reason}")
    stdout.write(result_line(match.game.position))
    stdout.flush()
    return match


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


#: The line ``reversi --plain <&-`` prints (and exits 2).
STDIN_CLOSED = "reversi: standard input is closed; line mode reads the moves from it"


def run(
    settings: MatchSettings, *, game: Game | None = None, make_source: SourceFactory = make_source
) -> int:
    """Play on the process's standard streams; the exit status.

    Messages go to standard error, or nowhere when it is closed: never into the
    transcript. A broken or full standard output is left to ``cli.main``.
    """
    if sys.stdin is None:
        warn(STDIN_CLOSED)
        return 2
    # asyncio's own Ctrl-C handler only cancels the loop's task, which cannot wake a
    # blocking readline; raising at once (its handler then stays out) ends the game now.
    signal.signal(signal.SIGINT, _interrupt)
    try:
        play(settings, sys.stdin.buffer, sys.stdout, game=game, make_computer=make_source)
    except PlayerGaveOut as failed:
        warn(str(failed))
        return 1
    except InputEnded as ended:
        sys.stdout.flush()
        warn(ended.message)
        return 1
    except KeyboardInterrupt:
        warn("\nreversi: interrupted")
        return 130
    return 0
