"""External engines as players: a program speaking GTP or NBoard, as a ``MoveSource``.

``gtp:COMMAND LINE`` and ``nboard:COMMAND LINE`` start the command line (split as a
shell would, but never run by one); ``engine:NAME`` is the engine configured under
NAME in the settings file (``[engines.NAME]``: ``protocol``, ``command``, optional
``cwd`` and ``think_time``). The engine starts with the first request and replays
the game the request carries (undo and redo need nothing else); a cancelled request
ends the engine, since its answer is unwanted and neither protocol can be trusted to
stop, and the next request starts it again. Whatever goes wrong (it cannot start,
exits, hangs past the deadline, answers nonsense or an illegal move, floods its
output) ends the engine and raises ``SourceFailed`` with one line, which the match
reports without losing the game.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Final, Protocol

from reversi_tui.engine import PASS, Move, Ply, Position, square_name
from reversi_tui.match.engine_config import EngineConfig, Engines
from reversi_tui.match.settings import PlayerKind, PlayerSpec
from reversi_tui.match.sources import MoveRequest, PlayResult, SourceFailed
from reversi_tui.protocols.process import EngineFailure, EngineProcess, wait_for_ended

#: Seconds an engine has to start and answer its first command.
START_SECONDS: Final = 10.0


def engine_config(spec: PlayerSpec, engines: Engines) -> EngineConfig:
    """How to run ``spec``'s engine; ValueError with one line when there is no way."""
    if spec.kind is PlayerKind.ENGINE:
        config = engines.get(spec.program)
        if config is None:
            known = f" (configured: {', '.join(sorted(engines))})" if engines else ""
            raise ValueError(
                f"no engine is configured as {spec.program!r}{known}: add [engines."
                f"{spec.program}] with protocol and command to the settings file"
            )
        return config
    return EngineConfig.of_command(spec.kind, spec.program)


class EngineClient(Protocol):
    """One protocol's side of a conversation with an engine (``protocols/*_client.py``)."""

    protocol: str
    process: EngineProcess
    name: str
    status: str

    async def start(self) -> None: ...

    async def best_move(self, start: Position, plies: Sequence[Ply]) -> tuple[Move | None, str]: ...

    async def quit(self) -> None: ...


def _client(config: EngineConfig) -> EngineClient:
    from reversi_tui.protocols.gtp_client import GtpClient
    from reversi_tui.protocols.nboard_client import NBoardClient

    process = EngineProcess(config.argv, cwd=config.cwd)
    return GtpClient(process) if config.protocol is PlayerKind.GTP else NBoardClient(process)


class EngineSource:
    """An external engine playing a side; ``status``: its latest search line, for the sidebar."""

    def __init__(self, spec: PlayerSpec, config: EngineConfig) -> None:
        self.spec = spec
        self.config = config
        self._client: EngineClient | None = None
        self._name = ""
        self._status = ""

    @property
    def label(self) -> str:
        """Its spec's label (``GTP engine (gtp-rhino)``): the one name the sidebar, the
        records, the statistics and the exports all give it."""
        return self.spec.label

    @property
    def status(self) -> str:
        """What the engine last said of its search (depth, evaluation, PV); before
        that, the name it gave itself (``GRhino 0.16.1``), or ""."""
        said = self._client.status if self._client is not None else self._status
        return said or self._name

    async def play(self, request: MoveRequest) -> PlayResult:
        loop = asyncio.get_running_loop()
        began = loop.time()
        try:
            client = await self._started()
            async with asyncio.timeout(self.config.move_seconds):
                move, evaluation = await client.best_move(request.game_start, request.plies)
        except TimeoutError:
            self._end()
            raise SourceFailed(
                f"{self.label} did not move within {self.config.move_seconds:g} seconds"
            ) from None
        except EngineFailure as failure:
            self._end()
            raise SourceFailed(f"{self.label} {failure}") from None
        except asyncio.CancelledError:
            self._end()
            raise
        if move is None:
            return PlayResult(resigned=True)
        if not request.position.is_legal(move):
            self._end()
            what = "passed" if move == PASS else f"played {square_name(move)}"
            raise SourceFailed(f"{self.label} {what}, which is not a legal move here")
        from reversi_tui.engine.ai.result import SearchResult

        return PlayResult(move, SearchResult(move, _score(evaluation), 0, 0, loop.time() - began))

    async def _started(self) -> EngineClient:
        if self._client is not None:
            return self._client
        client = self._client = _client(self.config)
        try:
            async with asyncio.timeout(START_SECONDS):
                await client.start()
        except TimeoutError:
            raise EngineFailure(f"did not start within {START_SECONDS:g} seconds") from None
        self._name = client.name
        return client

    def observe(self, ply: Ply) -> None:
        """Each request carries the whole game; nothing to keep."""

    async def close(self) -> None:
        """``quit`` the engine, then make sure it and any engine ended before are gone."""
        client, self._client = self._client, None
        if client is not None:
            await client.quit()
        await wait_for_ended()

    def _end(self) -> None:
        """End the engine now; the next request starts it again."""
        client, self._client = self._client, None
        if client is not None:
            self._status = client.status
            client.process.abandon()


def _score(evaluation: str) -> float:
    try:
        return float(evaluation)
    except ValueError:
        return 0.0


def make_engine_source(spec: PlayerSpec, engines: Engines) -> EngineSource:
    """The source for an engine spec; ValueError (one line) when it cannot be run,
    and always for one read from a file (``PlayerSpec.recorded``): only the user's own
    command line and settings start a program."""
    if not spec.runs_program:
        raise ValueError("an engine named in a file, a record or a message never runs")
    return EngineSource(spec, engine_config(spec, engines))
