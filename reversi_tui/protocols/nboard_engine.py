"""Our engine as an NBoard engine (protocol version 2, as the NBoard GUI sends it).

The front end sends ``nboard 2``, ``set depth N``, ``set game <GGF>`` and then
``move F5/eval/time`` (or the old bare ``F5``) as the game goes on; ``hint N``
asks for ``search <pv> <eval> 0 <depth> <text>`` lines, best first, from the
mover's point of view; ``go`` for ``=== F5/eval/time`` (the move is not played
here: the front end sends it back with ``move``); ``ping N`` stops any thinking
and answers ``pong N``. Lines it does not know are ignored, as the protocol says.
Problems (a bad GGF, an illegal move) go to the front end's status line.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from reversi_tui.engine import PASS, IllegalMoveError
from reversi_tui.engine.ai.result import SearchCancelled, SearchResult
from reversi_tui.engine.notation import NotationError
from reversi_tui.protocols.common import PASS_WORDS, PlayedGame, parse_vertex, vertex_name
from reversi_tui.protocols.engine_session import Effort, EngineSession, Send, Thinker

#: The name the engine announces (``set myname``), followed by its level.
ENGINE_NAME = "reversi-tui"
#: NBoard writes a pass ``PA``.
NBOARD_PASS = "PA"
#: A GGF game's B[...] and W[...] (not PB[...] or PW[...]), to see whether it ends in a pass.
_PLY = re.compile(r"(?<![A-Z])[BW]\[([^\]]*)\]")


class NBoardSession(EngineSession):
    """One NBoard front end: the game it set, the depth it chose, what it asks."""

    INTERRUPTS = frozenset({"ping", "quit"})

    def __init__(self, send: Send, effort: Effort, thinker: Thinker | None = None) -> None:
        super().__init__(send, effort, thinker)
        self.game = PlayedGame()
        self.contempt = 0.0
        self._commands: dict[str, Callable[[list[str], str], bool]] = {
            "nboard": self._nboard,
            "set": self._set,
            "move": self._move,
            "hint": self._hint,
            "go": self._go,
            "ping": self._ping,
            "analyze": self._analyze,
            "learn": self._learn,
            "quit": lambda words, line: False,
        }

    def handle(self, line: str) -> bool:
        words = line.split()
        if not words:
            return True
        command = self._commands.get(words[0].lower())
        if command is not None:
            return command(words[1:], line)
        if _is_vertex(words[0]):  # NBoard 1.1's bare move, "F5"
            self._play(words[0])
        return True

    def failed(self, line: str, error: Exception) -> None:
        self.send(f"status {ENGINE_NAME} could not do {line.split()[0]}: {error}")

    # Setting up ---------------------------------------------------------------------
    def _nboard(self, words: list[str], line: str) -> bool:
        self._announce()
        return True

    def _announce(self) -> None:
        depth = "" if self.effort.max_depth is None else f" depth {self.effort.max_depth}"
        self.send(f"set myname {ENGINE_NAME} {self.effort.level}{depth}")

    def _set(self, words: list[str], line: str) -> bool:
        if not words:
            return True
        what = words[0].lower()
        if what == "depth" and len(words) > 1:
            self._set_depth(words[1])
        elif what == "game":
            self._set_game(line.split(None, 2)[2] if len(words) > 1 else "")
        elif what == "contempt" and len(words) > 1:
            # Our search does not weigh draws: kept, and harmless.
            try:
                self.contempt = float(words[1])
            except ValueError:
                self.send(f"status contempt must be a number, not {words[1]!r}")
        return True

    def _set_depth(self, text: str) -> None:
        try:
            depth = int(text)
        except ValueError:
            self.send(f"status depth must be a whole number, not {text!r}")
            return
        self.effort = Effort(self.effort.level, self.effort.think_time, min(max(depth, 1), 60))
        self._announce()

    def _set_game(self, ggf: str) -> None:
        from reversi_tui.records.game_text import FormatError
        from reversi_tui.records.ggf import read_ggf

        try:
            record = read_ggf(ggf).record
        except (FormatError, IllegalMoveError, ValueError) as error:
            self.send(f"status the game was not set: {error}")
            return
        moves = list(record.moves)
        plies = _PLY.findall(ggf)
        written_pass = bool(plies) and plies[-1].split("/")[0].strip().lower() in PASS_WORDS
        if moves and moves[-1] == PASS and not written_pass:
            moves.pop()  # a pass the front end has not played yet: it will say so
        self.game = PlayedGame(record.start, [[move] for move in moves])

    def _move(self, words: list[str], line: str) -> bool:
        if words:
            self._play(words[0].split("/")[0])
        return True

    def _play(self, text: str) -> None:
        try:
            self.game.play(parse_vertex(text))
        except (NotationError, IllegalMoveError) as error:
            self.send(f"status move {text} ignored: {error}")

    # Thinking -----------------------------------------------------------------------
    def _hint(self, words: list[str], line: str) -> bool:
        try:
            count = max(1, int(words[0])) if words else 1
        except ValueError:
            count = 1
        position = self.game.position
        self.send("status analysing")
        try:
            ranked = self.thinker.rank(position, self.effort, self.stopping)
            if not ranked and not position.is_game_over:
                ranked = [self.thinker.best(position, self.effort, self.stopping)]
        except SearchCancelled:
            return True
        for result in ranked[:count]:
            self.send(_search_line(result, self.effort.level))
        self._finish(ranked)
        return True

    def _go(self, words: list[str], line: str) -> bool:
        self.send("status thinking")
        try:
            result = self.thinker.best(self.game.position, self.effort, self.stopping)
        except SearchCancelled:
            return True
        self.send(_search_line(result, self.effort.level))
        self._finish([result])
        if result.move == PASS:
            self.send(f"=== {NBOARD_PASS}")
        else:
            self.send(f"=== {vertex_name(result.move)}/{result.score:.2f}/{result.seconds:.2f}")
        return True

    def _analyze(self, words: list[str], line: str) -> bool:
        """``analysis <plies played> <eval>`` for each position, the last one first."""
        self.send("status analysing the game")
        positions = self.game.positions
        for number in range(len(positions) - 1, -1, -1):
            try:
                # A finished game's value is its exact final score.
                result = self.thinker.best(positions[number], self.effort, self.stopping)
            except SearchCancelled:
                return True
            self.send(f"analysis {number} {result.score:.2f}")
        self.send("status")
        return True

    def _finish(self, results: list[SearchResult]) -> None:
        if results:  # a ranking's results all carry the whole search's nodes and time
            self.send(f"nodestats {results[0].nodes} {results[0].seconds:.3f}")
        self.send("status")

    # Synchronising ------------------------------------------------------------------
    def _ping(self, words: list[str], line: str) -> bool:
        # Any search has stopped by now: this line waited for it in the queue.
        self.send(f"pong {words[0] if words else 0}")
        return True

    def _learn(self, words: list[str], line: str) -> bool:
        self.send("learned")  # the book is built offline (reversi train book): nothing to add
        return True


def _is_vertex(word: str) -> bool:
    try:
        parse_vertex(word)
    except NotationError:
        return False
    return True


def _search_line(result: SearchResult, level: str) -> str:
    """``search F5 1.50 0 9 hard estimate``: the move, its value, 0 games, the depth."""
    move = vertex_name(result.move, NBOARD_PASS)
    kind = "exact" if result.exact else "estimate"
    return f"search {move} {result.score:.2f} 0 {result.depth} {level} {kind}"
