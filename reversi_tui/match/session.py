"""The match: one game between two move sources, and the one turn loop of the code base.

Every front end (the Textual app, the line mode, the arena) builds a ``Match``
and awaits ``run()``: ask the side to move for its move, apply it, tell the
listeners, until the game is over. Undo, redo, pause and resignation are plain
method calls that may come at any time (between two keys, while a computer
thinks): they cancel the pending request and the loop asks again. Nothing here
imports a user interface.

The life cycle: a match's sources are made with it and closed (``MoveSource.close``)
exactly once, when it ends: the game is over (the board, or a resignation, by
``resign`` or by a source's answer) or ``close`` is called. Undo, redo, pause and
a cancelled ``run`` (a front end may start the loop again) end nothing; a match
that has ended does not start again.
"""

from __future__ import annotations

import asyncio
import inspect
import signal
import threading
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum

from reversi_tui.engine import Color, Game, Move, Ply, Position, square_name
from reversi_tui.match.record import GameRecord, Result, Termination
from reversi_tui.match.settings import MatchSettings, PlayerSpec
from reversi_tui.match.sources import (
    MoveRequest,
    MoveSource,
    PlayResult,
    SourceFactory,
    SourceFailed,
    local_input,
)

#: The closing of sources still running (asyncio keeps only weak references to tasks).
_closing_tasks: set[asyncio.Task[None]] = set()


class MatchState(StrEnum):
    #: Not asking anyone yet (before ``run``, or between a change and the next request).
    READY = "ready"
    #: The side to move has been asked for its move.
    AWAITING = "awaiting"
    PAUSED = "paused"
    #: A source failed (``Match.failure``): nobody is asked until a player replaces it.
    FAILED = "failed"
    OVER = "over"


class Change(StrEnum):
    PLAYED = "played"
    UNDONE = "undone"
    REDONE = "redone"


@dataclass(frozen=True, slots=True)
class Changed:
    """The game changed: plies played (a move and any forced pass), taken back or replayed."""

    change: Change
    plies: tuple[Ply, ...]
    #: The answer that played the move, when a source played it.
    answer: PlayResult | None = None


@dataclass(frozen=True, slots=True)
class Passed:
    """A side had no legal move and passed (also part of the ``Changed`` before it)."""

    ply: Ply


@dataclass(frozen=True, slots=True)
class StateChanged:
    state: MatchState


@dataclass(frozen=True, slots=True)
class GameOver:
    result: Result


@dataclass(frozen=True, slots=True)
class PlayerFailed:
    """A side's source failed (``SourceFailed``): the game stays as it is, not lost."""

    color: Color
    #: One line: who failed and why.
    reason: str


MatchEvent = Changed | Passed | StateChanged | GameOver | PlayerFailed
Listener = Callable[[MatchEvent], None]


def why_illegal(position: Position, sq: Move) -> str:
    """Why a square cannot be played, in words that say what to do; "" when it can."""
    name = square_name(sq)
    if position.color_at(sq) is not None:
        return f"{name} is taken: choose an empty square (Tab jumps to a legal move)."
    if not position.flips(sq):
        them = position.turn.opponent.title
        return f"{name} flips nothing: a move must trap {them} discs in a line. Tab finds one."
    return ""


class Match:
    """A game, its settings and its two move sources, and the turn loop that joins them."""

    def __init__(
        self,
        settings: MatchSettings,
        make_source: SourceFactory,
        *,
        game: Game | None = None,
        pace: float = 0.0,
        reply_delay: float = 0.0,
        started: datetime | None = None,
    ) -> None:
        self.settings = settings
        self.game = game if game is not None else Game(settings.start_position())
        self._make_source = make_source
        self.sources: dict[Color, MoveSource] = {
            color: make_source(settings.player(color), settings.seed_for(color)) for color in Color
        }
        #: Seconds between moves when nobody at this terminal plays (computer vs computer).
        self.pace = pace
        #: Against a person here: the least seconds between their move and the computer's
        #: reply, so they see their own move land first.
        self.reply_delay = reply_delay
        self.started = started or datetime.now(UTC)
        self._listeners: list[Listener] = []
        self._token = 0
        self._request: MoveRequest | None = None
        self._ask: asyncio.Future[PlayResult] | None = None
        self._paused = False
        self._resumed: asyncio.Event | None = None
        self._held = False
        self._released: asyncio.Event | None = None
        self._forfeit: Result | None = None
        self._failure: PlayerFailed | None = None
        self._closed = False
        self._announced_over = False
        self._sources_closing = False
        self._closing: asyncio.Task[None] | None = None

    # Listeners ---------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` with every event from now on; returns the way to stop."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def _emit(self, event: MatchEvent) -> None:
        for listener in list(self._listeners):
            listener(event)

    # State -------------------------------------------------------------------------
    @property
    def turn(self) -> Color:
        return self.game.turn

    @property
    def to_move(self) -> MoveSource:
        return self.sources[self.game.turn]

    @property
    def is_over(self) -> bool:
        return self._forfeit is not None or self.game.is_over

    @property
    def result(self) -> Result | None:
        if self._forfeit is not None:
            return self._forfeit
        outcome = self.game.outcome()
        return None if outcome is None else Result.from_board(outcome)

    @property
    def paused(self) -> bool:
        return self._paused

    @property
    def failure(self) -> PlayerFailed | None:
        """The side whose source failed and why, until ``run`` asks again or a player
        replaces it (None: no failure)."""
        return self._failure

    @property
    def state(self) -> MatchState:
        if self.is_over:
            return MatchState.OVER
        if self._failure is not None:
            return MatchState.FAILED
        if self._paused:
            return MatchState.PAUSED
        return MatchState.AWAITING if self._request is not None else MatchState.READY

    @property
    def thinking(self) -> bool:
        """A source that nobody here answers (a computer) has been asked and is working."""
        return self.state is MatchState.AWAITING and local_input(self.to_move) is None

    @property
    def local_players(self) -> list[Color]:
        """The colours a person at this terminal plays."""
        return [c for c in Color if local_input(self.sources[c]) is not None]

    @property
    def local_to_move(self) -> bool:
        """A person here is to move now (legal-move markers, hints and previews are for them)."""
        return not self.is_over and local_input(self.to_move) is not None

    @property
    def in_progress(self) -> bool:
        """Moves have been made and the game is not over: leaving would lose something."""
        return self.game.can_undo and not self.is_over

    def record(self) -> GameRecord:
        return GameRecord.of(
            self.game, self.settings.players, started=self.started, result=self._forfeit
        )

    # The turn loop -----------------------------------------------------------------
    async def run(self) -> Result | None:
        """Ask the side to move, apply its answer, repeat until the game is over.

        Returns the result (when the match has ended, once its sources are closed), or
        None when a source failed (``failure`` says which and why: the game stays, and
        ``run`` asks again, maybe after ``replace_player``). Cancelling the task that
        runs it cancels the pending request too (and closes nothing: ``run`` may be
        awaited again); changes made meanwhile through the methods below are safe. A
        closed match returns at once.
        """
        self._resumed = asyncio.Event()
        self._released = asyncio.Event()
        if not self._held:
            self._released.set()
        self._failure = None
        while not self.is_over and not self._closed and self._failure is None:
            if self._paused:
                self._resumed.clear()
                await self._resumed.wait()
                continue
            request = MoveRequest(self.game.position, self._token, self.game.start, self.game.plies)
            source = self.to_move
            ask = asyncio.ensure_future(self._ask_source(source, request))
            self._request, self._ask = request, ask
            self._emit(StateChanged(MatchState.AWAITING))
            try:
                answer = await ask
                await self._released.wait()  # a hold keeps a finished answer waiting
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if task is not None and task.cancelling():
                    raise  # the loop itself is being stopped
                continue  # the match moved on (undo, pause...): ask again
            except SourceFailed as failed:
                self._failed(request, str(failed))
                continue
            finally:
                if self._request is request:
                    self._request = self._ask = None
            self._apply(request, answer)
        self._announce_over()
        if self._closing is not None:
            await asyncio.shield(self._closing)
        return self.result

    async def _ask_source(self, source: MoveSource, request: MoveRequest) -> PlayResult:
        """Ask ``source``, at a pace people can follow when a computer moves.

        Computer against computer waits ``pace`` seconds before each move; a
        computer's reply to a person here takes at least ``reply_delay`` seconds.
        """
        if local_input(source) is not None:
            return await source.play(request)
        if not self.local_players:
            await asyncio.sleep(self.pace)
            return await source.play(request)
        loop = asyncio.get_running_loop()
        start = loop.time()
        answer = await source.play(request)
        remaining = self.reply_delay - (loop.time() - start)
        if remaining > 0:
            await asyncio.sleep(remaining)
        return answer

    def _failed(self, request: MoveRequest, reason: str) -> None:
        """The source asked for ``request`` failed: unless the match moved on meanwhile,
        stop asking and say so."""
        if request.token != self._token or request.position != self.game.position:
            return
        self._failure = PlayerFailed(request.position.turn, reason)
        self._emit(self._failure)
        self._emit(StateChanged(MatchState.FAILED))

    def _apply(self, request: MoveRequest, answer: PlayResult) -> None:
        """Play an answer (or resign for it) if it still belongs to the position on the board."""
        if request.token != self._token or request.position != self.game.position:
            return  # answered just as the match moved on; the loop asks again
        if answer.ended is not None:
            self.end(answer.ended)
        elif answer.resigned or answer.opponent_resigned:
            turn = request.position.turn
            self.resign(turn if answer.resigned else turn.opponent)
        elif answer.move is not None:
            self._play(answer.move, answer)

    def _play(self, move: Move, answer: PlayResult | None) -> list[Ply]:
        self._interrupt()
        plies = self.game.play(move)
        for ply in plies:
            for source in self.sources.values():
                source.observe(ply)
        self._emit(Changed(Change.PLAYED, tuple(plies), answer))
        for ply in plies[1:]:
            self._emit(Passed(ply))
        self._announce_over()
        return plies

    def _announce_over(self) -> None:
        result = self.result
        if result is not None and not self._announced_over:
            self._announced_over = True
            self._close_sources()
            self._emit(GameOver(result))

    def _close_sources(self) -> None:
        """The match has ended: close each source once, on the running event loop (``run``
        waits for it), or here and now when none is running."""
        if self._sources_closing:
            return
        self._sources_closing = True
        self._closing = _close_all(list({id(s): s for s in self.sources.values()}.values()))

    # Players -----------------------------------------------------------------------
    def replace_player(self, color: Color, spec: PlayerSpec) -> None:
        """``spec`` plays ``color`` from now on (after a failure, or by choice): the game
        stays, the old source is closed, a failure is forgotten and ``run`` asks again."""
        if self.is_over or self._closed:
            raise ValueError("the match has ended")
        old = self.sources[color]
        self.sources[color] = self._make_source(spec, self.settings.seed_for(color))
        self.settings = (
            self.settings.with_players(spec, self.settings.white)
            if color is Color.BLACK
            else self.settings.with_players(self.settings.black, spec)
        )
        self._failure = None
        self._interrupt()
        if old not in self.sources.values():
            _close_all([old])
        self._emit(StateChanged(self.state))

    def _interrupt(self) -> None:
        """The match moves on: stale answers are dropped and the pending request cancelled."""
        self._token += 1
        if self._ask is not None:
            self._ask.cancel()

    # Input from this terminal ------------------------------------------------------
    def offer(self, move: Move) -> str:
        """A move typed or clicked here; "" when played, else why not (for the status line)."""
        if self.is_over:
            return "The game is over."
        color = self.turn
        source = local_input(self.to_move)
        if source is None:
            return f"Wait: {color.title} ({self.to_move.label}) is to move."
        if self._paused or self._request is None:
            return "Wait: the game is not asking for a move yet."
        reason = why_illegal(self.game.position, move)
        if reason:
            return reason
        if not source.offer(move):
            return "Wait: the game is not asking for a move yet."
        return ""

    # Changes from outside the loop -------------------------------------------------
    def undo(self) -> list[Ply]:
        """Take back the last move; against the computer, its reply goes too.

        With a person here, undo goes back to their last move and never takes
        back only the computer's (its opening, say): with no move of theirs to
        take back, nothing changes. With nobody here (computer against computer)
        the match pauses, so the position can be looked at. Returns the plies
        taken back, oldest first.
        """
        if self.is_over or not self.game.can_undo:
            return []
        local = self.local_players
        if local and not any(not p.is_pass and p.color in local for p in self.game.plies):
            return []
        self._interrupt()
        taken = self.game.undo()
        if local:
            while local_input(self.to_move) is None and self.game.can_undo:
                taken = self.game.undo() + taken
        else:
            self.pause()
        self._emit(Changed(Change.UNDONE, tuple(taken)))
        return taken

    def redo(self) -> list[Ply]:
        """Play again what undo took back (up to a local player's turn); the plies replayed."""
        if self.is_over or not self.game.can_redo:
            return []
        self._interrupt()
        plies = self.game.redo()
        if self.local_players:
            while self.game.can_redo and local_input(self.to_move) is None:
                plies += self.game.redo()
        self._emit(Changed(Change.REDONE, tuple(plies)))
        self._announce_over()
        return plies

    def pause(self) -> None:
        """Stop asking (a computer's search is cancelled) until ``resume``."""
        if self._paused or self.is_over:
            return
        self._paused = True
        self._interrupt()
        self._emit(StateChanged(MatchState.PAUSED))

    def resume(self) -> None:
        if not self._paused:
            return
        self._paused = False
        if self._resumed is not None:
            self._resumed.set()
        self._emit(StateChanged(self.state))

    @property
    def held(self) -> bool:
        return self._held

    def hold(self) -> None:
        """Keep any answer from being played until ``release`` (a dialog is open).

        Unlike ``pause``, a computer goes on searching; its move waits.
        """
        self._held = True
        if self._released is not None:
            self._released.clear()

    def release(self) -> None:
        self._held = False
        if self._released is not None:
            self._released.set()

    def resign(self, color: Color) -> Result:
        """``color`` gives up: the other side wins, with the discs as they are.

        A source's answer that resigns (``PlayResult.resigned``) comes here too.
        """
        return self.end(
            Result.forfeit(color, Termination.RESIGNATION, self.game.position.outcome())
        )

    def end(self, result: Result) -> Result:
        """The game ends before the board does, as ``result`` says (a resignation, a
        flag that fell, a game claimed after a player left)."""
        if self.is_over:
            raise ValueError("the game is already over")
        self._forfeit = result
        self._interrupt()
        if self._resumed is not None:
            self._resumed.set()
        self._announce_over()
        return self._forfeit

    def close(self) -> None:
        """End the match (the front end is leaving): ``run`` returns, a search stops and
        the sources are closed (once, whatever ended the match first). Safe to repeat."""
        self._closed = True
        self._interrupt()
        if self._resumed is not None:
            self._resumed.set()
        self.release()
        self._close_sources()

    async def aclose(self) -> None:
        """``close``, and wait until the sources are closed."""
        self.close()
        if self._closing is not None:
            await asyncio.shield(self._closing)


def _close_all(sources: list[MoveSource]) -> asyncio.Task[None] | None:
    """Close ``sources`` on the running event loop (the task, which the caller may await),
    or here and now when none is running (a script or a test: None)."""

    async def close_all() -> None:
        outcomes = await asyncio.gather(*(s.close() for s in sources), return_exceptions=True)
        for outcome in outcomes:
            if isinstance(outcome, BaseException):
                raise outcome

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        asyncio.run(close_all())
        return None
    closing = asyncio.ensure_future(close_all())
    _closing_tasks.add(closing)
    closing.add_done_callback(_closing_tasks.discard)
    return closing


def play_out(match: Match) -> Result | None:
    """The blocking facade: run the match to its end in a fresh event loop, then close it.

    The match is closed before the loop ends on every path (an end, a failed source,
    an interrupt): an engine's process and pipes belong to this loop, and a transport
    left for the garbage collector after the loop has closed prints "Exception ignored
    ... Event loop is closed". A failed match is over here: no other loop can ask it again.

    An interrupt (the line mode's Ctrl-C handler raises at once) may land anywhere: one
    that lands while the loop is being built waits until the loop stands, since a
    half-built loop prints a traceback when it is collected; one that lands before the
    match starts leaves its coroutine closed, not "never awaited".
    """
    runner = asyncio.Runner()
    running: Coroutine[object, object, Result | None] | None = None
    try:
        with _interrupts_held():
            runner.get_loop()
            running = _run_then_close(match)
        return runner.run(running)
    finally:
        runner.close()
        if running is not None and inspect.getcoroutinestate(running) == inspect.CORO_CREATED:
            running.close()


async def _run_then_close(match: Match) -> Result | None:
    try:
        return await match.run()
    finally:
        await match.aclose()


@contextmanager
def _interrupts_held() -> Iterator[None]:
    """SIGINT is delivered on leaving, not inside (in the main thread: only it has handlers)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, _: held.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if held:
        signal.raise_signal(signal.SIGINT)
