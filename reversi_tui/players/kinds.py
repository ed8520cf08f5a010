"""Which source plays each kind of player (``SOURCES``), and which players can play here.

A recorded engine (read from a file, ``PlayerSpec.recorded``) never runs: it is a
person here (``playable`` says so; ``make_source`` makes a ``LocalHuman`` of it).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from reversi_tui.engine import Color
from reversi_tui.match.engine_config import EngineConfig, can_play
from reversi_tui.match.settings import MOST_THINK_SECONDS, MatchSettings, PlayerKind, PlayerSpec
from reversi_tui.match.sources import MoveSource, SourceFactory
from reversi_tui.players.computer import Computer
from reversi_tui.players.local import LocalHuman


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
        from reversi_tui.players.engine import make_engine_source

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
