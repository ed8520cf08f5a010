"""The one stand-in move source of the test suite: a computer that never searches.

It answers at once with its scripted squares (then its first legal move), or,
when gated, only once the test opens the gate; a gated answer waits in a worker
thread through the same ``run_search`` path as the real computer, so cancelling
the request stops it the same way.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable

from reversi_tui.engine import Move, Ply, Position, parse_square
from reversi_tui.engine.ai.result import SearchCancelled, SearchResult
from reversi_tui.match import PlayerKind, PlayerSpec
from reversi_tui.match.sources import (
    LocalInput,
    MoveRequest,
    MoveSource,
    PlayResult,
    SourceFactory,
)
from reversi_tui.players import LocalHuman, run_search


class FakeComputer:
    """Plays ``moves`` in order, then the first legal move; instantly unless ``gated``;
    raises ``error`` instead when one is given; counts how often it is closed."""

    def __init__(
        self,
        moves: Iterable[str] = (),
        *,
        gated: bool = False,
        level: str = "medium",
        error: Exception | None = None,
    ) -> None:
        self.moves = [parse_square(m) for m in moves]
        self.error = error  # raised instead of answering: a search that crashes
        self.level = level
        self.searches = 0
        self.closes = 0
        self.seen: list[Ply] = []
        self.started = threading.Event()
        self.answered = threading.Event()  # a gated search returned its move
        self.gate = threading.Event()
        if not gated:
            self.gate.set()

    @property
    def label(self) -> str:
        return f"Computer ({self.level})"

    def choose(self, position: Position) -> Move:
        return self.moves.pop(0) if self.moves else position.legal_moves[0]

    def _wait_for_gate(self, position: Position, should_stop: Callable[[], bool]) -> SearchResult:
        while not self.gate.wait(0.005):
            if should_stop():
                raise SearchCancelled
        self.answered.set()
        return SearchResult(self.choose(position), 0.0, 1, 1, 0.0)

    async def play(self, request: MoveRequest) -> PlayResult:
        self.searches += 1
        self.started.set()
        if self.error is not None:
            raise self.error
        if self.gate.is_set():
            return PlayResult(self.choose(request.position))
        return await run_search(self._wait_for_gate, request.position)

    def observe(self, ply: Ply) -> None:
        self.seen.append(ply)

    async def close(self) -> None:
        self.closes += 1


def fake_sources(*presets: MoveSource | None) -> SourceFactory:
    """A factory: the given sources first (black's, then white's; None for the default),
    then a local human for a human spec and a fresh ``FakeComputer`` for a computer."""
    queue = list(presets)

    def make(spec: PlayerSpec, seed: int | None) -> MoveSource:
        preset = queue.pop(0) if queue else None
        if preset is not None:
            return preset
        if spec.kind is PlayerKind.HUMAN:
            return LocalHuman()
        return FakeComputer(level=spec.level)

    return make


def spec_of(source: MoveSource | None) -> PlayerSpec:
    """The spec a preset source stands for (a human when there is none)."""
    if source is None or isinstance(source, LocalInput):
        return PlayerSpec.human()
    return PlayerSpec.computer(getattr(source, "level", "medium"))
