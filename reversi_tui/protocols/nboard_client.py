"""Our side of NBoard's protocol: an engine that speaks it (NTest, Edax, Egaroucid, ours).

We say ``nboard 2`` and wait for ``pong`` to a ``ping`` (the engine names itself
with ``set myname`` meanwhile); each request is ``set game <GGF>`` (the whole game,
from any start) then ``go``, answered ``=== F5/eval/time`` (Edax separates the items
with spaces). ``status`` and ``search`` lines while it thinks are its search line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from reversi_tui.engine import Color, Move, Ply, Position
from reversi_tui.engine.notation import NotationError
from reversi_tui.protocols.common import parse_vertex, vertex_name
from reversi_tui.protocols.process import EngineFailure, EngineProcess
from reversi_tui.records.ggf import board_value

_ITEMS = re.compile(r"[/\s]+")


class NBoardClient:
    """An NBoard engine in a process; ``name`` once started, ``status`` its latest search line."""

    protocol = "NBoard"

    def __init__(self, process: EngineProcess) -> None:
        self.process = process
        self.name = ""
        self.status = ""
        self._pings = 0

    async def start(self) -> None:
        await self.process.start()
        await self.process.send("nboard 2")
        self._pings += 1
        await self.process.send(f"ping {self._pings}")
        while (line := await self.process.readline()).strip() != f"pong {self._pings}":
            self._heard(line)

    async def best_move(self, start: Position, plies: Sequence[Ply]) -> tuple[Move | None, str]:
        """The engine's move after ``plies`` from ``start`` and its evaluation ("" for none);
        NBoard has no resignation, so the move is never None."""
        await self.process.send(f"set game {game_ggf(start, plies)}")
        await self.process.send("go")
        while not (line := (await self.process.readline()).strip()).startswith("==="):
            self._heard(line)
        items = _ITEMS.split(line.removeprefix("===").strip())
        try:
            move = parse_vertex(items[0])
        except NotationError:
            raise EngineFailure(f"answered {line[:40]!r} to go: not a move") from None
        return move, items[1] if len(items) > 1 else ""

    async def quit(self) -> None:
        await self.process.finish("quit")

    def _heard(self, line: str) -> None:
        """A line that is not the answer awaited: its name, its search, or nothing to us."""
        words = line.split()
        if words[:2] == ["set", "myname"] and len(words) > 2:
            self.name = " ".join(words[2:])[:40]
        elif words[:1] == ["status"] and len(words) > 1:
            self.status = " ".join(words[1:])[:80]
        elif words[:1] == ["search"] and len(words) >= 5:
            pv, score, depth = words[1], words[2], words[4]
            self.status = f"depth {depth}  eval {score}  pv {pv}"[:80]


def game_ggf(start: Position, plies: Sequence[Ply]) -> str:
    """The game as NBoard's ``set game`` takes it: one GGF line, passes written ``PA``."""
    moves = "".join(
        f"{'B' if ply.color is Color.BLACK else 'W'}[{vertex_name(ply.move, 'PA')}]"
        for ply in plies
    )
    return f"(;GM[Othello]PC[reversi-tui]TY[8]BO[8 {board_value(start)}]{moves};)"
