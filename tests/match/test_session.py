"""The match's turn loop with stand-in sources: events, offers, undo/redo, pause,
resignation, stale answers and seeds."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable

import pytest

from reversi_tui.engine import PASS, Color, Game, Move, Outcome, Ply, parse_square, square_name
from reversi_tui.match import (
    Change,
    Changed,
    GameOver,
    Match,
    MatchEvent,
    MatchSettings,
    MatchState,
    Passed,
    PlayerSpec,
    Result,
    StateChanged,
    Termination,
    play_out,
)
from reversi_tui.match.sources import MoveRequest, MoveSource, PlayResult
from reversi_tui.players import LocalHuman

from ..fakes import FakeComputer, fake_sources
from ..timing import patience

COMPUTERS = MatchSettings(PlayerSpec.computer("easy"), PlayerSpec.computer("hard"))
HUMAN_VS_COMPUTER = MatchSettings(PlayerSpec.human(), PlayerSpec.computer("medium"))
HUMANS = MatchSettings(PlayerSpec.human(), PlayerSpec.human())
#: A game with a forced pass: white has no move after a8 and black ends it with g2.
PASS_GAME = ["f5", "d6", "c7", "f3", "d3", "c6", "b6", "c2", "b1", "b7", "a8", "g2"]
D3, C3, D4, A1 = (parse_square(name) for name in ("d3", "c3", "d4", "a1"))


def sq(name: str) -> Move:
    return parse_square(name)


class EventLog:
    """Every event a match emits, and a way to wait (without sleeping) for one to come."""

    def __init__(self, match: Match) -> None:
        self.match = match
        self.events: list[MatchEvent] = []
        self._arrived = asyncio.Event()
        match.subscribe(self._on_event)

    def _on_event(self, event: MatchEvent) -> None:
        self.events.append(event)
        self._arrived.set()

    def since(self, mark: int) -> list[MatchEvent]:
        return self.events[mark:]

    async def wait(self, condition: Callable[[], bool], timeout: float = 5) -> None:
        """Until ``condition()`` holds, checked after every event."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + patience(timeout)
        while not condition():
            self._arrived.clear()
            remaining = deadline - loop.time()
            if remaining <= 0:
                pytest.fail(f"timed out; match state {self.match.state}, events {self.events}")
            try:
                await asyncio.wait_for(self._arrived.wait(), remaining)
            except TimeoutError:
                continue

    async def wait_for_event(self, mark: int, wanted: MatchEvent) -> None:
        await self.wait(lambda: wanted in self.since(mark))

    def game_overs(self) -> list[GameOver]:
        return [e for e in self.events if isinstance(e, GameOver)]

    def played(self, mark: int = 0) -> list[Changed]:
        return [e for e in self.since(mark) if isinstance(e, Changed) and e.change is Change.PLAYED]


def awaiting(match: Match, color: Color) -> Callable[[], bool]:
    return lambda: match.state is MatchState.AWAITING and match.turn is color


async def stop_executor_threads(*gated: FakeComputer) -> None:
    """Wait until no worker thread runs (a gated search that never stops fails the test)."""
    shutdown = asyncio.ensure_future(asyncio.get_running_loop().shutdown_default_executor())
    done, _ = await asyncio.wait({shutdown}, timeout=patience(5))
    if not done:
        for source in gated:
            source.gate.set()  # let the stuck thread out so the loop can close
        await shutdown
        pytest.fail("a cancelled search thread kept running")


async def finish(match: Match, task: asyncio.Future[Result | None]) -> Result | None:
    match.close()
    return await asyncio.wait_for(task, 5)


def split_by_colour(moves: list[str]) -> tuple[list[str], list[str]]:
    """The squares each side plays in ``moves`` (forced passes are found by replaying)."""
    game = Game()
    black: list[str] = []
    white: list[str] = []
    for name in moves:
        (black if game.turn is Color.BLACK else white).append(name)
        game.play(sq(name))
    return black, white


# Computer against computer -------------------------------------------------------------


def test_computers_play_to_the_end_with_events_in_order() -> None:
    black_moves, white_moves = split_by_colour(PASS_GAME)
    black, white = FakeComputer(black_moves), FakeComputer(white_moves)
    match = Match(COMPUTERS, fake_sources(black, white))
    events: list[MatchEvent] = []
    match.subscribe(events.append)

    result = play_out(match)

    game = match.game
    assert [square_name(m) for m in game.moves if m != PASS] == PASS_GAME
    assert game.is_over and game.outcome() == Outcome(16, 0)
    assert result == match.result == Result.from_board(Outcome(16, 0))
    assert match.state is MatchState.OVER

    # Expected: each move with the forced passes after it, then the end.
    expected: list[MatchEvent] = []
    groups: list[list] = []
    for ply in game.plies:
        if ply.is_pass:
            groups[-1].append(ply)
        else:
            groups.append([ply])
    for group in groups:
        expected.append(Changed(Change.PLAYED, tuple(group)))
        expected.extend(Passed(ply) for ply in group[1:])
    expected.append(GameOver(result))
    seen = [
        Changed(e.change, e.plies) if isinstance(e, Changed) else e
        for e in events
        if not isinstance(e, StateChanged)
    ]
    assert seen == expected
    assert sum(isinstance(e, Passed) for e in events) == 1
    answers = [e.answer for e in events if isinstance(e, Changed)]
    assert [a.move if a else None for a in answers] == [g[0].move for g in groups]
    assert black.seen == list(game.plies)
    assert white.seen == list(game.plies)


async def test_run_returns_the_result_and_record_matches_the_game() -> None:
    settings = MatchSettings(
        PlayerSpec.computer("easy"),
        PlayerSpec.computer("expert"),
        handicap=2,
        handicap_colour=Color.WHITE,
    )
    match = Match(settings, fake_sources())
    log = EventLog(match)
    result = await asyncio.wait_for(match.run(), 5)
    game = match.game
    assert game.start == settings.start_position()
    assert game.is_over
    assert result == Result.from_board(game.outcome())
    assert log.game_overs() == [GameOver(result)]
    record = match.record()
    assert record.result == Result.from_board(game.outcome())
    assert record.moves == tuple(game.moves)
    assert record.start == game.start
    assert (record.black, record.white) == (settings.black, settings.white)
    assert record.game().plies == game.plies


def test_undo_and_redo_do_nothing_once_the_game_is_over() -> None:
    match = Match(COMPUTERS, fake_sources())
    play_out(match)
    plies = match.game.plies
    events: list[MatchEvent] = []
    match.subscribe(events.append)
    assert match.undo() == []
    assert match.redo() == []
    assert match.game.plies == plies
    assert events == []
    assert match.state is MatchState.OVER


# A person at this terminal -------------------------------------------------------------


async def test_local_human_offers_are_played_or_refused() -> None:
    white = FakeComputer(gated=True)
    match = Match(HUMAN_VS_COMPUTER, fake_sources(LocalHuman(), white))
    log = EventLog(match)
    assert match.offer(D3).startswith("Wait")  # nobody has been asked yet
    task = asyncio.ensure_future(match.run())
    await log.wait(awaiting(match, Color.BLACK))
    assert match.local_to_move

    taken = match.offer(D4)
    assert taken and "d4" in taken and "taken" in taken
    flips_nothing = match.offer(A1)
    assert flips_nothing and "a1" in flips_nothing and "flips nothing" in flips_nothing
    assert match.game.plies == ()

    assert match.offer(D3) == ""
    await log.wait(lambda: match.thinking)
    assert match.game.moves == [D3]
    assert match.turn is Color.WHITE

    wait = match.offer(C3)  # legal for white, but the computer plays white
    assert wait.startswith("Wait") and "White" in wait
    assert match.game.moves == [D3]

    await asyncio.to_thread(white.started.wait, 5)
    white.gate.set()
    await log.wait(awaiting(match, Color.BLACK))
    reply = match.game.plies[1]
    assert reply.color is Color.WHITE and reply.move == reply.before.legal_moves[0]
    assert [e.plies[0].move for e in log.played()] == [D3, reply.move]
    assert await finish(match, task) is None


async def test_undo_against_the_computer_takes_back_its_reply_and_redo_replays_both() -> None:
    white = FakeComputer(["c3"])
    match = Match(HUMAN_VS_COMPUTER, fake_sources(None, white))
    log = EventLog(match)
    task = asyncio.ensure_future(match.run())
    await log.wait(awaiting(match, Color.BLACK))
    assert match.offer(D3) == ""
    await log.wait(lambda: len(match.game.plies) == 2 and match.local_to_move)
    played = match.game.plies

    mark = len(log.events)
    taken = match.undo()
    assert tuple(taken) == played
    assert match.game.plies == ()
    assert match.turn is Color.BLACK
    await log.wait_for_event(mark, StateChanged(MatchState.AWAITING))
    assert Changed(Change.UNDONE, played) in log.since(mark)
    assert match.local_to_move and white.searches == 1

    mark = len(log.events)
    replayed = match.redo()
    assert tuple(replayed) == played
    assert match.game.plies == played
    assert match.turn is Color.BLACK
    await log.wait_for_event(mark, StateChanged(MatchState.AWAITING))
    assert Changed(Change.REDONE, played) in log.since(mark)
    assert log.played(mark) == []
    assert white.searches == 1  # the computer's reply came back from the redo, not a search
    assert match.offer(sq("c4")) == ""  # and the person is asked again
    await log.wait(lambda: len(match.game.plies) == 4)
    assert await finish(match, task) is None


async def test_undo_without_a_local_player_pauses_and_resume_continues() -> None:
    black, white = FakeComputer(gated=True), FakeComputer(gated=True)
    game = Game.from_moves(None, [D3, C3])
    match = Match(COMPUTERS, fake_sources(black, white), game=game)
    log = EventLog(match)
    task = asyncio.ensure_future(match.run())
    await asyncio.to_thread(black.started.wait, 5)
    before = match.game.plies

    mark = len(log.events)
    taken = match.undo()
    assert taken == [before[1]]  # one ply only: nobody here to hand the turn back to
    assert match.game.plies == before[:1]
    assert match.state is MatchState.PAUSED and match.paused
    assert StateChanged(MatchState.PAUSED) in log.since(mark)
    assert Changed(Change.UNDONE, (before[1],)) in log.since(mark)
    assert not task.done()

    match.resume()
    await asyncio.to_thread(white.started.wait, 5)
    await log.wait(lambda: match.thinking and match.turn is Color.WHITE)
    assert white.searches == 1
    white.gate.set()
    await log.wait(lambda: len(match.game.plies) == 2 and match.thinking)
    assert match.game.plies[0] == before[0]
    assert match.game.plies[1].color is Color.WHITE
    assert match.turn is Color.BLACK
    assert await finish(match, task) is None
    await stop_executor_threads(black)


async def test_pause_stops_a_thinking_computer_and_resume_asks_again() -> None:
    black = FakeComputer(gated=True)
    match = Match(COMPUTERS, fake_sources(black, None))
    log = EventLog(match)
    task = asyncio.ensure_future(match.run())
    await asyncio.to_thread(black.started.wait, 5)
    assert match.thinking

    match.pause()
    assert match.state is MatchState.PAUSED
    await stop_executor_threads(black)  # the gate is still shut: only the stop flag ends it
    assert match.state is MatchState.PAUSED and not task.done()

    black.gate.set()
    for _ in range(20):
        await asyncio.sleep(0)
    assert match.game.plies == ()
    assert match.state is MatchState.PAUSED
    assert black.searches == 1
    assert log.played() == []

    match.resume()  # gate open now: every answer comes at once, no thread
    await log.wait(lambda: match.is_over)
    result = await asyncio.wait_for(task, 5)
    assert result == Result.from_board(match.game.outcome())
    first = match.game.plies[0]
    assert first.color is Color.BLACK and first.move == first.before.legal_moves[0]
    black_moves = sum(1 for p in match.game.plies if p.color is Color.BLACK and not p.is_pass)
    assert black.searches == 1 + black_moves  # the cancelled search, then one per move


def test_pause_and_resume_outside_the_loop_are_harmless() -> None:
    match = Match(HUMANS, fake_sources())
    events: list[MatchEvent] = []
    match.subscribe(events.append)
    match.resume()  # not paused: nothing happens
    assert events == []
    match.pause()
    match.pause()
    assert match.state is MatchState.PAUSED
    assert events == [StateChanged(MatchState.PAUSED)]
    match.resume()
    assert match.state is MatchState.READY


# Resignation ---------------------------------------------------------------------------


async def test_resign_ends_the_match_for_the_other_side() -> None:
    white = FakeComputer(gated=True)
    match = Match(HUMAN_VS_COMPUTER, fake_sources(None, white))
    log = EventLog(match)
    task = asyncio.ensure_future(match.run())
    await log.wait(awaiting(match, Color.BLACK))
    assert match.offer(D3) == ""
    await asyncio.to_thread(white.started.wait, 5)

    result = match.resign(Color.BLACK)
    assert result.termination is Termination.RESIGNATION
    assert result.winner is Color.WHITE
    assert result.discs == match.game.position.outcome() == Outcome(4, 1)
    assert await asyncio.wait_for(task, 5) == result
    assert match.result == result
    assert match.state is MatchState.OVER
    assert log.game_overs() == [GameOver(result)]
    assert match.game.moves == [D3]
    assert match.offer(C3) == "The game is over."
    with pytest.raises(ValueError):
        match.resign(Color.WHITE)
    assert match.record().result == result
    assert log.game_overs() == [GameOver(result)]
    await stop_executor_threads(white)
    assert match.game.moves == [D3]


async def test_undo_and_redo_after_resignation_do_nothing() -> None:
    match = Match(HUMAN_VS_COMPUTER, fake_sources(None, FakeComputer(["c3"])))
    log = EventLog(match)
    task = asyncio.ensure_future(match.run())
    await log.wait(awaiting(match, Color.BLACK))
    match.offer(D3)
    await log.wait(lambda: len(match.game.plies) == 2 and match.local_to_move)
    assert len(match.undo()) == 2
    assert match.game.can_redo
    result = match.resign(Color.WHITE)
    assert result.winner is Color.BLACK
    assert match.redo() == []
    assert match.undo() == []
    assert match.game.plies == ()
    assert await asyncio.wait_for(task, 5) == result


class Answering:
    """A source that answers every request with the same ``PlayResult`` (a resignation)."""

    label = "Scripted"

    def __init__(self, answer: PlayResult) -> None:
        self.answer = answer
        self.closes = 0

    async def play(self, request: MoveRequest) -> PlayResult:
        return self.answer

    def observe(self, ply: Ply) -> None:
        pass

    async def close(self) -> None:
        self.closes += 1


@pytest.mark.parametrize("side", list(Color))
async def test_a_source_that_answers_with_a_resignation_loses_the_match(side: Color) -> None:
    quitter = Answering(PlayResult(resigned=True))
    presets = (quitter, None) if side is Color.BLACK else (None, quitter)
    game = Game() if side is Color.BLACK else Game.from_moves(None, [D3])
    discs = game.position.outcome()
    match = Match(COMPUTERS, fake_sources(*presets), game=game)
    log = EventLog(match)

    result = await asyncio.wait_for(match.run(), 5)

    assert result == match.result == Result.forfeit(side, Termination.RESIGNATION, discs)
    assert result.winner is side.opponent
    assert log.game_overs() == [GameOver(result)] and log.played() == []
    assert match.record().result == result
    assert quitter.closes == 1


async def test_a_source_can_answer_that_the_other_side_resigned_meanwhile() -> None:
    # Online, the server's state says the side not to move gave up: the side asked says so.
    white = Answering(PlayResult(opponent_resigned=True))
    match = Match(COMPUTERS, fake_sources(FakeComputer(["d3"]), white))
    log = EventLog(match)
    result = await asyncio.wait_for(match.run(), 5)
    assert result is not None and result.termination is Termination.RESIGNATION
    assert result.winner is Color.WHITE and match.game.moves == [D3]
    assert log.game_overs() == [GameOver(result)]


async def test_a_source_can_end_the_game_otherwise_as_its_server_said() -> None:
    # Online, a flag fell (or a player left and the other claimed the game).
    discs = Game.from_moves(None, [D3]).position.outcome()
    flagged = Result.forfeit(Color.WHITE, Termination.TIME_FORFEIT, discs)
    white = Answering(PlayResult(ended=flagged))
    match = Match(COMPUTERS, fake_sources(FakeComputer(["d3"]), white))
    log = EventLog(match)
    result = await asyncio.wait_for(match.run(), 5)
    assert result == match.result == flagged and result.winner is Color.BLACK
    assert log.game_overs() == [GameOver(flagged)]
    assert match.record().result == flagged
    with pytest.raises(ValueError):
        match.end(flagged)


def test_an_answer_without_a_move_must_be_a_resignation() -> None:
    with pytest.raises(ValueError, match="needs a move"):
        PlayResult()
    assert PlayResult(resigned=True).move is None


# The sources' life cycle ----------------------------------------------------------------


def test_each_source_is_closed_once_when_the_game_ends() -> None:
    black_moves, white_moves = split_by_colour(PASS_GAME)
    black, white = FakeComputer(black_moves), FakeComputer(white_moves)
    match = Match(COMPUTERS, fake_sources(black, white))
    play_out(match)
    assert (black.closes, white.closes) == (1, 1)
    match.close()  # it has ended already: nothing is closed again
    assert (black.closes, white.closes) == (1, 1)


def test_a_source_playing_both_sides_is_closed_once() -> None:
    both = FakeComputer()
    play_out(Match(COMPUTERS, fake_sources(both, both)))
    assert both.closes == 1


def test_an_interrupt_while_the_loop_is_built_still_closes_the_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The line mode's Ctrl-C raises at once: one that landed while ``asyncio.run`` built
    its loop left the loop half-built, and collecting it printed a traceback."""
    built: list[asyncio.AbstractEventLoop] = []
    new_loop = asyncio.DefaultEventLoopPolicy.new_event_loop

    def interrupted_as_it_is_built(
        policy: asyncio.DefaultEventLoopPolicy,
    ) -> asyncio.AbstractEventLoop:
        built.append(new_loop(policy))
        signal.raise_signal(signal.SIGINT)  # before the loop reaches its runner
        return built[-1]

    monkeypatch.setattr(
        asyncio.DefaultEventLoopPolicy, "new_event_loop", interrupted_as_it_is_built
    )
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            play_out(Match(COMPUTERS, fake_sources(FakeComputer(), FakeComputer())))
    finally:
        signal.signal(signal.SIGINT, previous)
    [loop] = built
    assert loop.is_closed()


async def test_a_resignation_closes_the_sources_once() -> None:
    black, white = FakeComputer(gated=True), FakeComputer(gated=True)
    match = Match(COMPUTERS, fake_sources(black, white))
    task = asyncio.ensure_future(match.run())
    await asyncio.to_thread(black.started.wait, 5)
    assert (black.closes, white.closes) == (0, 0)
    match.resign(Color.BLACK)
    await asyncio.wait_for(task, 5)
    assert (black.closes, white.closes) == (1, 1)
    await match.aclose()
    assert (black.closes, white.closes) == (1, 1)
    await stop_executor_threads(black, white)


async def test_undo_and_a_cancelled_loop_close_nothing_the_match_closing_does_once() -> None:
    white = FakeComputer()
    match = Match(HUMAN_VS_COMPUTER, fake_sources(None, white))
    log = EventLog(match)
    task = asyncio.ensure_future(match.run())
    await log.wait(awaiting(match, Color.BLACK))
    assert match.offer(D3) == ""
    await log.wait(lambda: len(match.game.plies) == 2 and match.local_to_move)
    assert len(match.undo()) == 2
    await log.wait(awaiting(match, Color.BLACK))
    task.cancel()  # the front end stops the loop (and may start it again)
    with pytest.raises(asyncio.CancelledError):
        await task
    assert white.closes == 0

    task = asyncio.ensure_future(match.run())
    await log.wait(awaiting(match, Color.BLACK))
    assert match.offer(D3) == ""
    await log.wait(lambda: len(match.game.plies) == 2)
    assert white.closes == 0
    assert await finish(match, task) is None  # closed early, the game unfinished
    assert white.closes == 1
    await match.aclose()
    assert white.closes == 1


async def test_a_match_closed_before_it_runs_closes_its_sources_and_asks_nobody() -> None:
    black, white = FakeComputer(), FakeComputer()
    match = Match(COMPUTERS, fake_sources(black, white))
    await match.aclose()
    assert (black.closes, white.closes) == (1, 1)
    assert await asyncio.wait_for(match.run(), 5) is None  # a closed match stays closed
    assert black.searches == 0 and match.game.plies == ()
    assert (black.closes, white.closes) == (1, 1)


# Stale answers -------------------------------------------------------------------------


async def test_an_answer_that_arrives_after_an_undo_is_dropped() -> None:
    # White answers (the request's future is resolved) and, before the loop has applied
    # it, the previous move is taken back: the answer belongs to a position gone by.
    match = Match(HUMANS, fake_sources(), game=Game.from_moves(None, [D3]))
    log = EventLog(match)
    task = asyncio.ensure_future(match.run())
    await log.wait(awaiting(match, Color.WHITE))
    mark = len(log.events)
    assert match.offer(C3) == ""
    assert [p.move for p in match.undo()] == [D3]
    await log.wait_for_event(mark, StateChanged(MatchState.AWAITING))
    assert match.game.plies == ()
    assert log.played(mark) == []
    assert match.turn is Color.BLACK
    assert match.offer(sq("f5")) == ""  # black is asked again
    await log.wait(lambda: len(match.game.plies) == 1)
    assert match.game.moves == [sq("f5")]
    assert await finish(match, task) is None


async def test_a_computer_answer_after_an_undo_is_dropped_and_it_is_asked_again() -> None:
    white = FakeComputer(gated=True)
    match = Match(HUMAN_VS_COMPUTER, fake_sources(None, white))
    log = EventLog(match)
    task = asyncio.ensure_future(match.run())
    await log.wait(awaiting(match, Color.BLACK))
    assert match.offer(D3) == ""
    await asyncio.to_thread(white.started.wait, 5)
    assert match.thinking

    mark = len(log.events)
    assert [p.move for p in match.undo()] == [D3]
    white.gate.set()  # the search may now finish with an answer for the old position
    await stop_executor_threads(white)
    await log.wait_for_event(mark, StateChanged(MatchState.AWAITING))
    for _ in range(20):
        await asyncio.sleep(0)
    assert match.game.plies == ()
    assert log.played(mark) == []
    assert match.turn is Color.BLACK and match.local_to_move
    assert white.searches == 1

    assert match.offer(D3) == ""
    await log.wait(lambda: len(match.game.plies) == 2)
    assert white.searches == 2
    reply = match.game.plies[1]
    assert reply.before == Game.from_moves(None, [D3]).position
    assert reply.move == reply.before.legal_moves[0]
    assert await finish(match, task) is None


# Seeds -----------------------------------------------------------------------------------


def test_each_colour_gets_its_own_seed_in_every_match_from_the_same_settings() -> None:
    made: list[tuple[PlayerSpec, int | None]] = []
    inner = fake_sources()

    def factory(spec: PlayerSpec, seed: int | None) -> MoveSource:
        made.append((spec, seed))
        return inner(spec, seed)

    settings = MatchSettings(PlayerSpec.computer("easy"), PlayerSpec.computer("hard"), seed=7)
    Match(settings, factory)
    first = list(made)
    assert first == [(settings.black, 7), (settings.white, 8)]
    assert [seed for _, seed in first] == [settings.seed_for(c) for c in Color]
    made.clear()
    Match(settings, factory)  # "new game" from the same settings
    assert made == first
    made.clear()
    Match(MatchSettings(PlayerSpec.computer("easy"), PlayerSpec.computer("hard")), factory)
    assert [seed for _, seed in made] == [None, None]


# Holding (a dialog is open), the reply delay, undo with nothing of yours -------------------


async def test_a_hold_lets_the_search_finish_but_keeps_its_move_until_release() -> None:
    black = FakeComputer(gated=True)
    match = Match(COMPUTERS, fake_sources(black, FakeComputer(gated=True)))
    log = EventLog(match)
    match.hold()
    task = asyncio.ensure_future(match.run())
    await asyncio.to_thread(black.started.wait, 5)  # the search starts under the hold
    black.gate.set()
    await asyncio.to_thread(black.answered.wait, 5)  # and finishes
    for _ in range(20):
        await asyncio.sleep(0)
    assert match.game.plies == () and log.played() == []
    assert match.held and black.searches == 1

    match.release()
    await log.wait(lambda: len(match.game.plies) == 1)
    assert match.game.plies[0].color is Color.BLACK
    assert black.searches == 1  # the answer found under the hold was played, not searched again
    assert await finish(match, task) is None


async def test_a_hold_does_not_stop_a_close() -> None:
    match = Match(COMPUTERS, fake_sources())
    match.hold()
    task = asyncio.ensure_future(match.run())
    for _ in range(5):
        await asyncio.sleep(0)
    assert await finish(match, task) is None
    assert match.game.plies == () and not match.held


async def test_the_computer_reply_to_a_person_waits_at_least_the_reply_delay() -> None:
    match = Match(HUMAN_VS_COMPUTER, fake_sources(None, FakeComputer()), reply_delay=0.2)
    log = EventLog(match)
    task = asyncio.ensure_future(match.run())
    await log.wait(awaiting(match, Color.BLACK))
    loop = asyncio.get_running_loop()
    start = loop.time()
    assert match.offer(D3) == ""
    await log.wait(lambda: len(match.game.plies) == 2)
    assert loop.time() - start >= 0.2  # the instant fake answer was held back
    assert await finish(match, task) is None


async def test_no_reply_delay_between_computers() -> None:
    match = Match(COMPUTERS, fake_sources(), reply_delay=60)
    log = EventLog(match)
    task = asyncio.ensure_future(match.run())
    await log.wait(lambda: match.is_over)  # would take hours with the delay
    assert await asyncio.wait_for(task, 5) is not None


async def test_undo_never_takes_back_only_the_computers_opening() -> None:
    settings = MatchSettings(PlayerSpec.computer("easy"), PlayerSpec.human())
    black = FakeComputer()
    match = Match(settings, fake_sources(black, None))
    log = EventLog(match)
    task = asyncio.ensure_future(match.run())
    await log.wait(awaiting(match, Color.WHITE))
    opening = match.game.plies
    assert len(opening) == 1
    mark = len(log.events)
    assert match.undo() == []
    assert match.game.plies == opening and log.since(mark) == []
    assert black.searches == 1

    reply = match.game.position.legal_moves[0]
    for _ in range(5):
        await asyncio.sleep(0)  # let the person's request start
    assert match.offer(reply) == ""
    await log.wait(lambda: len(match.game.plies) == 3 and match.local_to_move)
    taken = match.undo()  # the person's move and the computer's answer to it
    assert len(taken) == 2 and match.game.plies == opening
    assert await finish(match, task) is None
