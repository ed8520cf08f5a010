"""What the protocol tests share: a session's output, a gated thinker, a game with a pass."""

from __future__ import annotations

import queue
import random
import subprocess
import sys
import threading
from dataclasses import dataclass, field

from reversi_tui.engine import PASS, Move, Position
from reversi_tui.engine.ai.result import SearchCancelled, SearchResult, StopCheck
from reversi_tui.protocols.engine_session import Effort

from ..timing import patience

#: Seconds any wait in these tests may take before it counts as hanging.
PATIENCE = patience(20.0)


class Lines:
    """A session's ``send``: every line kept, and a wait for the one wanted."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self._queue: queue.Queue[str] = queue.Queue()

    def __call__(self, line: str) -> None:
        self.lines.append(line)
        self._queue.put(line)

    def next(self) -> str:
        """The next line not yet awaited."""
        return self._queue.get(timeout=PATIENCE)

    def until(self, prefix: str) -> list[str]:
        """The lines sent since the last wait, up to the first that starts with ``prefix``."""
        seen = []
        while True:
            line = self._queue.get(timeout=PATIENCE)
            seen.append(line)
            if line.startswith(prefix):
                return seen


@dataclass
class GatedThinker:
    """Thinks until told to stop: proves that ``ping``/``quit`` stop a search."""

    started: threading.Event = field(default_factory=threading.Event)
    efforts: list[Effort] = field(default_factory=list)

    def best(self, position: Position, effort: Effort, stop: StopCheck) -> SearchResult:
        self.efforts.append(effort)
        self.started.set()
        while not stop():
            threading.Event().wait(0.001)
        raise SearchCancelled

    def rank(self, position: Position, effort: Effort, stop: StopCheck) -> list[SearchResult]:
        return [self.best(position, effort, stop)]


@dataclass
class FirstMoveThinker:
    """Plays the lowest legal square at once, noting the effort it was given."""

    efforts: list[Effort] = field(default_factory=list)

    def best(self, position: Position, effort: Effort, stop: StopCheck) -> SearchResult:
        self.efforts.append(effort)
        moves = position.legal_moves
        return SearchResult(moves[0] if moves else PASS, 1.5, 3, 10, 0.01)

    def rank(self, position: Position, effort: Effort, stop: StopCheck) -> list[SearchResult]:
        self.efforts.append(effort)
        return [SearchResult(m, -i, 3, 10, 0.01) for i, m in enumerate(position.legal_moves)]


def moves_to_a_pass(seed: int = 0) -> tuple[list[Move], Position]:
    """Random legal moves from the start until the side to move must pass (and that position)."""
    rng = random.Random(seed)
    while True:
        position, moves = Position.initial(), list[Move]()
        while not position.is_game_over:
            if position.must_pass:
                return moves, position
            move = rng.choice(position.legal_moves)
            moves.append(move)
            position = position.play(move)


class EngineProcess:
    """``python -m reversi_tui engine ARGS`` on pipes, its lines read by a thread."""

    def __init__(self, *args: str, command: list[str] | None = None) -> None:
        self.process = subprocess.Popen(
            command or [sys.executable, "-m", "reversi_tui", "engine", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.out = Lines()
        threading.Thread(target=self._read, daemon=True).start()

    @classmethod
    def of(cls, command: list[str]) -> EngineProcess:
        """Another program on the same pipes (another engine to pair ours with)."""
        return cls(command=command)

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.out(line.rstrip("\n"))

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def close(self) -> int:
        try:
            return self.process.wait(PATIENCE)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
