"""The kinds of player, each a ``MoveSource`` (see ``match/sources.py``).

A local human's request is answered by a key or a click (``offer``: it is the
one ``LocalInput`` here); the computer's by a search in a worker thread that stops
when the request is cancelled. Neither holds anything to close. An online player
is in ``net/remote.py``; an external engine (GTP, NBoard) in ``players_engine.py``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from reversi_tui.engine import Color, Move, Ply, Position
from reversi_tui.match.engine_config import EngineConfig, can_play
from reversi_tui.match.settings import MOST_THINK_SECONDS, MatchSettings, PlayerKind, PlayerSpec
from reversi_tui.match.sources import MoveRequest, MoveSource, PlayResult, SourceFactory

if TYPE_CHECKING:  # the AI is imported when a computer first searches, off the start-up path
    from reversi_tui.engine.ai.result import SearchResult, StopCheck


class LocalHuman:
    """A person at this terminal (a ``LocalInput``): a key or a click (``offer``) answers
    the pending request."""

    takes_local_input = True

    def __init__(self, name: str = "Human") -> None:
        self.label = name
        self._waiting: asyncio.Future[PlayResult] | None = None

    def play(self, request: MoveRequest) -> asyncio.Future[PlayResult]:
        """A future that the next ``offer`` resolves; it exists as soon as the request does,
        so a key pressed at once is never lost."""
        waiting: asyncio.Future[PlayResult] = asyncio.get_running_loop().create_future()
        self._waiting = waiting
        waiting.add_done_callback(self._forget)
        return waiting

    def _forget(self, waiting: asyncio.Future[PlayResult]) -> None:
        if self._waiting is waiting:  # a later request may already be waiting
            self._waiting = None

    def offer(self, move: Move) -> bool:
        waiting = self._waiting
        if waiting is None or waiting.done():
            return False
        waiting.set_result(PlayResult(move))
        return True

    def observe(self, ply: Ply) -> None:
        """A person sees the board; nothing to keep."""

    async def close(self) -> None:
        """Nothing to release."""


@dataclass
class Computer:
    """The engine's AI at a level; ``think_time`` overrides the level's budget, and
    ``depth`` searches that deep with no clock, or at most that deep within ``think_time``.

    The search runs in a worker thread and polls a stop flag every thousand nodes,
    so cancelling the request stops it within milliseconds.
    """

    level: str
    think_time: float | None = None
    seed: int | None = None
    #: A fixed search depth instead of the clock (reproducible; the arena uses it).
    depth: int | None = None
    _rng: random.Random = field(init=False, repr=False)

    def __post_init__(self) -> None:
        PlayerSpec.computer(self.level, self.think_time, self.depth)  # validates the values
        self._rng = random.Random(self.seed)

    @property
    def label(self) -> str:
        return f"Computer ({self.level})"

    def search(self, position: Position, should_stop: StopCheck | None = None) -> SearchResult:
        """The full search result (move, score, depth, nodes, seconds); blocking."""
        from reversi_tui.engine.ai import choose_move

        fixed = self.think_time is None
        return choose_move(
            position,
            self.level,
            think_time=self.think_time,
            rng=self._rng,
            should_stop=should_stop,
            depth=self.depth if fixed else None,
            max_depth=None if fixed else self.depth,
        )

    async def play(self, request: MoveRequest) -> PlayResult:
        return await run_search(self.search, request.position)

    def observe(self, ply: Ply) -> None:
        """The search starts from the position each request carries; nothing to keep."""

    async def close(self) -> None:
        """Each search ends with its request; nothing to release."""


Search = Callable[[Position, "StopCheck"], "SearchResult"]


async def run_search(search: Search, position: Position) -> PlayResult:
    """Run a blocking, stoppable search in a thread; cancelling stops the search too."""
    stop = threading.Event()
    try:
        result = await asyncio.to_thread(search, position, stop.is_set)
    except asyncio.CancelledError:
        stop.set()
        raise
    return PlayResult(result.move, result)


class UnplayableError(ValueError):
    """A player that cannot play here (an engine name nobody configured, a command line
    that is not one); ``str()`` says so in a sentence."""


def _computer(spec: PlayerSpec, seed: int | None) -> MoveSource:
    """The computer at its level; read from a file (``recorded``), it thinks at most
    ``MOST_THINK_SECONDS`` a move, and its depth is searched at most that deep on the
    level's usual clock, never without one."""
    think = spec.think_time
    if spec.recorded and think is None and spec.depth is not None:
        from reversi_tui.engine.ai.levels import get_level

        think = get_level(spec.level).budget
    if spec.recorded and think is not None:
        think = min(think, MOST_THINK_SECONDS)
    return Computer(spec.level, think, seed, spec.depth)


def _engine(spec: PlayerSpec, seed: int | None) -> MoveSource:
    return _engine_with({})(spec, seed)


def _engine_with(engines: Mapping[str, EngineConfig]) -> SourceFactory:
    def make(spec: PlayerSpec, seed: int | None) -> MoveSource:
        if not spec.runs_program:  # read from a file: a person here plays it, always
            return LocalHuman(spec.label)
        from reversi_tui.players_engine import make_engine_source

        try:
            return make_engine_source(spec, engines)
        except ValueError as error:
            raise UnplayableError(f"{spec.label} cannot play: {error}") from None

    return make


#: The kinds of player, each with how its source is made: a new kind is its source class
#: and its entry here (its ``PlayerKind`` gives its text form). An engine configured by
#: name (``engine:NAME``) is made only by a factory that knows the configured engines
#: (``source_factory``).
SOURCES: dict[PlayerKind, SourceFactory] = {
    PlayerKind.HUMAN: lambda spec, seed: LocalHuman(spec.label),
    PlayerKind.COMPUTER: _computer,
    PlayerKind.GTP: _engine,
    PlayerKind.NBOARD: _engine,
    PlayerKind.ENGINE: _engine,
}
assert set(SOURCES) == set(PlayerKind)


def playable(
    settings: MatchSettings, engines: Mapping[str, EngineConfig] | None = None
) -> tuple[MatchSettings, str | None]:
    """``settings`` with a person at this terminal on each side that cannot play here (an
    engine a file or a save names: it never runs; an engine name that is not configured),
    named as the engine was, and a sentence saying so; else unchanged."""
    swapped = {c: settings.player(c) for c in Color if not can_play(settings.player(c), engines)}
    if not swapped:
        return settings, None
    people = {c: PlayerSpec.person(spec.label) for c, spec in swapped.items()}
    replaced = dataclasses.replace(
        settings,
        black=people.get(Color.BLACK, settings.black),
        white=people.get(Color.WHITE, settings.white),
    )
    named = " and ".join(f"{spec.label} ({colour.title})" for colour, spec in swapped.items())
    if all(spec.recorded for spec in swapped.values()):
        why = "an engine named in a file never runs"
    else:
        why = "no engine is configured by that name"
    return replaced, f"{named}: {why}; a person here plays it."


def make_source(spec: PlayerSpec, seed: int | None = None) -> MoveSource:
    """The standard source for a spec: a local human, the computer at its level, or an
    engine by its command line.

    Raises UnplayableError for an engine that cannot be run (a name: see ``source_factory``).
    """
    return SOURCES[spec.kind](spec, seed)


def source_factory(engines: Mapping[str, EngineConfig]) -> SourceFactory:
    """``make_source`` that also runs the engines configured by name (``engines``)."""
    with_engines = _engine_with(engines)

    def make(spec: PlayerSpec, seed: int | None) -> MoveSource:
        if spec.kind is PlayerKind.ENGINE:
            return with_engines(spec, seed)
        return make_source(spec, seed)

    return make
