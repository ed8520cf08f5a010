"""What both protocol servers share: lines in, lines out, thinking in a worker thread.

``feed`` is called by whoever reads the front end's lines and never waits: it
counts a line that must interrupt thinking (NBoard's ``ping``, ``quit``) before
queueing it, and the search polls that count. The worker thread handles the
lines in order, one at a time, and runs the searches, so a command that arrives
during a search waits its turn while ``ping`` or ``quit`` stops the search at once.
"""

from __future__ import annotations

import queue
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Protocol

from reversi_tui.engine import Position
from reversi_tui.engine.ai.names import LEVEL_NAMES
from reversi_tui.engine.ai.result import SearchResult, StopCheck

#: Writes one line to the front end (no newline), flushed.
Send = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class Effort:
    """How hard the engine thinks: a level, and what the options or the protocol changed."""

    level: str = "hard"
    #: Seconds per move instead of the level's own.
    think_time: float | None = None
    #: A cap on the midgame search's depth (NBoard's ``set depth``); the clock still runs.
    max_depth: int | None = None

    def __post_init__(self) -> None:
        if self.level not in LEVEL_NAMES:
            raise ValueError(f"unknown level {self.level!r}: choose from {', '.join(LEVEL_NAMES)}")

    def with_time(self, seconds: float | None) -> Effort:
        return replace(self, think_time=seconds)


class Thinker(Protocol):
    """The search behind a session; tests give one they can hold and release."""

    def best(self, position: Position, effort: Effort, stop: StopCheck) -> SearchResult:
        """The move to play (``PASS`` when there is none); raises SearchCancelled on ``stop``."""
        ...

    def rank(self, position: Position, effort: Effort, stop: StopCheck) -> list[SearchResult]:
        """Every legal move, best first; empty when there is none."""
        ...


class LevelThinker:
    """Our engine: ``choose_move`` and ``rank_moves`` at the effort's level."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def best(self, position: Position, effort: Effort, stop: StopCheck) -> SearchResult:
        from reversi_tui.engine.ai import choose_move  # the search: only when it runs

        return choose_move(
            position,
            effort.level,
            think_time=effort.think_time,
            max_depth=effort.max_depth,
            rng=self.rng,
            should_stop=stop,
        )

    def rank(self, position: Position, effort: Effort, stop: StopCheck) -> list[SearchResult]:
        from reversi_tui.engine.ai import rank_moves

        return rank_moves(
            position,
            effort.level,
            think_time=effort.think_time,
            max_depth=effort.max_depth,
            rng=self.rng,
            should_stop=stop,
        )


class EngineSession:
    """One front end's session: subclasses say what each line means (``handle``)."""

    #: First words of the lines that stop any thinking as soon as they are read.
    INTERRUPTS: frozenset[str] = frozenset({"quit"})

    def __init__(self, send: Send, effort: Effort, thinker: Thinker | None = None) -> None:
        self.effort = effort
        self.thinker: Thinker = thinker if thinker is not None else LevelThinker()
        self._send = send
        self._send_lock = threading.Lock()
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._interrupts = 0
        self._count_lock = threading.Lock()
        self._worker = threading.Thread(target=self._work, name="engine-session", daemon=True)

    # The reader's side ---------------------------------------------------------------
    def start(self) -> None:
        self._worker.start()

    def feed(self, line: str) -> None:
        """One line from the front end; returns at once."""
        if self.command_of(line) in self.INTERRUPTS:
            self._interrupt()
        self._lines.put(line.rstrip("\r\n"))

    def close(self) -> None:
        """The front end is gone (end of input): stop thinking and end the session."""
        self._interrupt()
        self._lines.put(None)

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the session to end (``quit`` or ``close``); False on timeout."""
        self._worker.join(timeout)
        return not self._worker.is_alive()

    # The worker's side ---------------------------------------------------------------
    def stopping(self) -> bool:
        """The search's stop check: an interrupting line is waiting."""
        return self._interrupts > 0

    def send(self, line: str) -> None:
        with self._send_lock:
            self._send(line)

    def command_of(self, line: str) -> str:
        """The command a line names (its first word, lower case)."""
        words = line.split(None, 1)
        return words[0].lower() if words else ""

    def handle(self, line: str) -> bool:
        """Act on one line; False ends the session."""
        raise NotImplementedError

    def failed(self, line: str, error: Exception) -> None:
        """A line's handling broke: say so in the protocol's way, and carry on."""
        raise NotImplementedError

    def _interrupt(self) -> None:
        with self._count_lock:
            self._interrupts += 1

    def _work(self) -> None:
        while True:
            line = self._lines.get()
            if line is None:
                return
            if self.command_of(line) in self.INTERRUPTS:
                # Everything before it is done: its stop has served.
                with self._count_lock:
                    self._interrupts -= 1
            try:
                going_on = self.handle(line)
            except Exception as error:  # a bug must not leave the front end waiting
                self.failed(line, error)
                going_on = True
            if not going_on:
                return
