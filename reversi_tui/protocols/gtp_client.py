"""Our side of GTP: an engine that speaks the Go Text Protocol, asked for its moves.

Each request replays the game on the engine's board: only the plies it lacks
when it already holds the start of the game (``genmove`` played its own move
there), else ``clear_board`` and every ply. GTP cannot set up a position, so a
game from another start is refused in words. Engines that refuse ``play <colour>
pass`` (``gtp-rhino`` answers ``? syntax error``: it passes by itself) are sent
no more passes once they refuse one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from reversi_tui.engine import PASS, Color, Move, Ply, Position
from reversi_tui.engine.notation import NotationError
from reversi_tui.protocols.common import parse_vertex, vertex_name
from reversi_tui.protocols.process import EngineFailure, EngineProcess

_ANSWER = re.compile(r"([=?])\d*\s?(.*)")


class GtpClient:
    """A GTP engine in a process; ``name`` once started, ``status`` never (GTP says nothing
    while it thinks)."""

    protocol = "GTP"

    def __init__(self, process: EngineProcess) -> None:
        self.process = process
        self.name = ""
        self.status = ""
        self._sent: list[tuple[Color, Move]] = []
        self._passes_refused = False

    async def start(self) -> None:
        await self.process.start()
        named, name = await self.ask("name")
        if named:
            versioned, version = await self.ask("version")
            self.name = f"{name} {version}".strip() if versioned else name
        sized, why = await self.ask("boardsize 8")
        if not sized:
            raise EngineFailure(f"does not play on an 8x8 board ({why})")
        await self._must("clear_board")

    async def best_move(self, start: Position, plies: Sequence[Ply]) -> tuple[Move | None, str]:
        """The engine's move after ``plies`` from ``start`` (None: it resigns) and the
        evaluation it gave ("" for none: GTP gives none)."""
        if start != Position.initial():
            raise EngineFailure("speaks GTP, which cannot set up a start other than the usual")
        await self._replay(plies)
        colour = plies[-1].after.turn if plies else start.turn
        answer = await self._must(f"genmove {colour.name.lower()}")
        word = answer.split()[0] if answer else ""
        if word.lower() == "resign":
            return None, ""
        try:
            move = parse_vertex(word)
        except NotationError:
            raise EngineFailure(f"answered {answer!r} to genmove: not a move") from None
        self._sent.append((colour, move))
        return move, ""

    async def quit(self) -> None:
        await self.process.finish("quit")

    async def ask(self, command: str) -> tuple[bool, str]:
        """Send ``command``: whether the engine accepted it (``=``), and its answer's text."""
        await self.process.send(command)
        line = await self.process.readline()
        while not line.strip():
            line = await self.process.readline()
        answer = _ANSWER.fullmatch(line.strip())
        if answer is None:
            raise EngineFailure(f"answered {_short(line)} to {command.split()[0]}: not GTP")
        lines = [answer.group(2)]
        while line := await self.process.readline():
            lines.append(line)
        return answer.group(1) == "=", "\n".join(lines).strip()

    async def _must(self, command: str) -> str:
        accepted, answer = await self.ask(command)
        if not accepted:
            raise EngineFailure(f"refused {command!r}: {answer or 'no reason given'}")
        return answer

    async def _replay(self, plies: Sequence[Ply]) -> None:
        wanted = [(ply.color, ply.move) for ply in plies]
        if self._sent != wanted[: len(self._sent)]:  # another game, or moves taken back
            await self._must("clear_board")
            self._sent = []
        for colour, move in wanted[len(self._sent) :]:
            self._sent.append((colour, move))
            if move == PASS and self._passes_refused:
                continue
            command = f"play {colour.name.lower()} {vertex_name(move)}"
            accepted, answer = await self.ask(command)
            if accepted:
                continue
            if move != PASS:
                raise EngineFailure(f"refused {command!r}: {answer or 'no reason given'}")
            self._passes_refused = True  # it passes by itself


def _short(line: str) -> str:
    return repr(line if len(line) <= 40 else line[:37] + "...")
