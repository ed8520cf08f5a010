"""An online game is a Match of two online move sources fed by the server's states."""

from __future__ import annotations

import asyncio
import functools
import random
from collections.abc import Callable

import pytest

from reversi_tui.engine import Color, Game, parse_square, square_name
from reversi_tui.match import GameOver, Match, MatchSettings, PlayerSpec, Result, Termination
from reversi_tui.match.sources import LocalInput, MoveSource
from reversi_tui.net import protocol
from reversi_tui.net.remote import GameLink, moves_played

from ..timing import patience

state_of = functools.partial(protocol.state_of, origin="s1:9", started="2026-11-26T08:00:00+00:00")
WAIT = patience(5.0)


class Server:
    """What the link sends, and the states a server would answer with."""

    def __init__(self) -> None:
        self.sent: list[protocol.ClientMessage] = []
        self.connected = True
        self.game = Game()

    def send(self, message: protocol.ClientMessage) -> bool:
        if not self.connected:
            return False
        self.sent.append(message)
        return True

    def state(self, *, resigned: Color | None = None) -> protocol.State:
        if resigned is None:
            return state_of(9, "ann", "bob", self.game)
        result = Result.forfeit(resigned, Termination.RESIGNATION, self.game.position.outcome())
        return state_of(9, "ann", "bob", self.game, result=result)


def online_match(link: GameLink, game: Game | None = None) -> Match:
    black, white = PlayerSpec.human(), PlayerSpec.computer("easy")
    settings = MatchSettings(black, white)
    colours = {id(black): Color.BLACK, id(white): Color.WHITE}
    return Match(settings, lambda spec, _: link.source(colours[id(spec)]), game=game)


async def until(condition: Callable[[], bool], what: str) -> None:
    async def poll() -> None:
        while not condition():
            await asyncio.sleep(0.005)

    await asyncio.wait_for(poll(), WAIT)


def test_moves_played_counts_discs_not_passes() -> None:
    game = Game()
    for move in ("f5", "d6", "c3"):
        game.play(parse_square(move))
    assert moves_played(game.position) == 3


def test_an_online_source_is_a_move_source_and_only_my_side_takes_keys() -> None:
    server = Server()
    link = GameLink(server.state(), "ann", server.send, "s1")
    source: MoveSource = link.source(Color.BLACK)
    assert isinstance(source, LocalInput) and source.takes_local_input
    assert source.label == "ann"
    assert not isinstance(link.source(Color.WHITE), LocalInput)
    assert link.my_colour is Color.BLACK
    watched = GameLink(server.state(), None, server.send, "s1")
    assert not any(isinstance(watched.source(c), LocalInput) for c in Color)


async def test_my_key_is_sent_and_played_only_when_the_server_says_so() -> None:
    server = Server()
    link = GameLink(server.state(), "ann", server.send, "s1")
    match = online_match(link)
    running = asyncio.create_task(match.run())
    await until(lambda: match.state == "awaiting", "asked")
    assert match.offer(parse_square("f5")) == ""
    assert server.sent == [protocol.MoveMessage(game=9, ply=0, square="f5")]
    assert match.game.moves == []  # not on the board until the server commits it
    server.game.play(parse_square("f5"))
    link.update(server.state(), "s1")
    await until(lambda: len(match.game.moves) == 1, "played")
    # bob answers on his terminal; the state brings it
    server.game.play(parse_square("d6"))
    link.update(server.state(), "s1")
    await until(lambda: len(match.game.moves) == 2, "answered")
    assert match.offer(parse_square("a1")) != ""  # illegal: refused here, nothing sent
    assert len(server.sent) == 1
    match.close()
    await asyncio.wait_for(running, WAIT)


async def test_not_connected_sends_nothing() -> None:
    server = Server()
    server.connected = False
    link = GameLink(server.state(), "ann", server.send, "s1")
    match = online_match(link)
    running = asyncio.create_task(match.run())
    await until(lambda: match.state == "awaiting", "asked")
    assert match.offer(parse_square("f5")) != ""
    assert server.sent == [] and match.game.moves == []
    match.close()
    await asyncio.wait_for(running, WAIT)


async def test_a_watcher_follows_a_whole_game_with_passes() -> None:
    server = Server()
    link = GameLink(server.state(), None, server.send, "s1")
    assert link.my_colour is None
    match = online_match(link)
    running = asyncio.create_task(match.run())
    rng = random.Random(3)
    while not server.game.is_over:
        server.game.play(rng.choice(server.game.legal_moves))
        link.update(server.state(), "s1")
    await asyncio.wait_for(running, WAIT)
    assert match.game.plies == server.game.plies  # passes forced alike on both sides
    assert server.sent == []


async def test_resuming_picks_up_from_the_moves_already_on_the_board() -> None:
    server = Server()
    for move in ("f5", "d6", "c3", "d3"):
        server.game.play(parse_square(move))
    link = GameLink(server.state(), "ann", server.send, "s1")
    local = Game.from_moves(None, server.game.moves)
    match = online_match(link, local)
    running = asyncio.create_task(match.run())
    await until(lambda: match.state == "awaiting", "asked")
    assert match.offer(parse_square("c4")) == ""
    assert server.sent[-1] == protocol.MoveMessage(game=9, ply=4, square="c4")
    match.close()
    await asyncio.wait_for(running, WAIT)


@pytest.mark.parametrize("me", ["ann", None], ids=["playing", "watching"])
@pytest.mark.parametrize("resigner", list(Color), ids=["black-resigns", "white-resigns"])
@pytest.mark.parametrize("to_move", list(Color), ids=["black-to-move", "white-to-move"])
async def test_a_resignation_from_the_server_ends_the_match_once_through_a_source(
    me: str | None, resigner: Color, to_move: Color
) -> None:
    """Whoever resigns (the user here, whose state comes back, or the other player),
    on either side's turn, and for a player or a watcher: the side asked answers."""
    server = Server()
    if to_move is Color.WHITE:
        server.game.play(parse_square("f5"))
    link = GameLink(server.state(), me, server.send, "s1")
    match = online_match(link, Game.from_moves(None, server.game.moves))
    overs: list[GameOver] = []
    match.subscribe(lambda event: overs.append(event) if isinstance(event, GameOver) else None)
    running = asyncio.create_task(match.run())
    await until(lambda: match.state == "awaiting", "asked")
    assert match.turn is to_move and not match.is_over

    link.update(server.state(resigned=resigner), "s1")
    link.update(server.state(resigned=resigner), "s1")  # the same state again: no matter

    result = await asyncio.wait_for(running, WAIT)
    assert result is not None and result.termination is Termination.RESIGNATION
    assert result.winner is resigner.opponent
    assert overs == [GameOver(result)]
    assert match.game.moves == server.game.moves
    assert link._sources == []  # the ended match closed its sources: they follow no more


async def test_moves_that_came_with_a_resignation_are_played_first() -> None:
    server = Server()
    link = GameLink(server.state(), "ann", server.send, "s1")
    match = online_match(link)
    running = asyncio.create_task(match.run())
    await until(lambda: match.state == "awaiting", "asked")
    for move in ("f5", "d6"):
        server.game.play(parse_square(move))
    link.update(server.state(resigned=Color.WHITE), "s1")
    result = await asyncio.wait_for(running, WAIT)
    assert match.game.moves == server.game.moves
    assert result is not None and result.winner is Color.BLACK
    assert result.termination is Termination.RESIGNATION


def test_a_resignation_names_the_side_that_resigned() -> None:
    server = Server()
    server.game.play(parse_square("f5"))
    link = GameLink(server.state(), "ann", server.send, "s1")
    assert link.resigned() is None
    link.update(server.state(resigned=Color.WHITE), "s1")
    assert link.resigned() is Color.WHITE
    assert square_name(link.move_at(0) or 0) == "f5"


def test_an_older_or_foreign_state_is_ignored() -> None:
    server = Server()
    server.game.play(parse_square("f5"))
    link = GameLink(server.state(), "ann", server.send, "s1")
    link.update(state_of(9, "ann", "bob", Game()), "s1")  # older
    assert link.state.ply == 1
    link.update(state_of(10, "ann", "bob", Game(), origin="s1:10"), "s1")  # another game
    assert link.state.game == 9


def test_an_opponent_without_a_session_is_shown_away() -> None:
    server = Server()
    state = state_of(9, "ann", "bob", Game(), online={"ann": True, "bob": False})
    link = GameLink(state, "ann", server.send, "s1")
    assert link.source(Color.WHITE).label == "bob (away)"  # the state says bob is offline
    link.set_online("bob", True)
    assert link.source(Color.WHITE).label == "bob"
    link.set_online("ann", False)  # never "away" for the user here
    assert link.source(Color.BLACK).label == "ann"


# Clocks, claims and other endings (issue 18) ----------------------------------------------


class FakeTime:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def timed_state(game: Game, **changes: object) -> protocol.State:
    clock = protocol.Clock(
        black_ms=180_000, white_ms=170_000, running="black", minutes=3, increment=2
    )
    state = state_of(9, "ann", "bob", game, clock=clock)
    return msgspec_replace(state, **changes)


def msgspec_replace(state: protocol.State, **changes: object) -> protocol.State:
    import msgspec

    return msgspec.structs.replace(state, **changes)


def test_the_clocks_tick_from_when_the_state_arrived() -> None:
    clock = FakeTime()
    server = Server()
    link = GameLink(timed_state(server.game), "ann", server.send, "s1", now=clock)
    clock.now += 12.5
    face = link.clocks
    assert face is not None
    assert face.left(Color.BLACK, clock.now) == pytest.approx(167.5)
    assert face.left(Color.WHITE, clock.now) == pytest.approx(170.0)
    assert GameLink(server.state(), "ann", server.send, "s1").clocks is None


def test_a_move_reports_how_long_its_player_thought() -> None:
    clock = FakeTime()
    server = Server()
    link = GameLink(timed_state(server.game), "ann", server.send, "s1", now=clock)
    clock.now += 3.25
    assert link.play(0, parse_square("d3"))
    (sent,) = server.sent
    assert isinstance(sent, protocol.MoveMessage) and sent.think_ms == 3250


def test_the_game_may_be_claimed_only_after_the_grace() -> None:
    clock = FakeTime()
    server = Server()
    state = timed_state(server.game, online={"ann": True, "bob": False}, away_ms={"bob": 30_000})
    link = GameLink(state, "ann", server.send, "s1", now=clock)
    assert link.claim_in() == pytest.approx(protocol.ABANDON_GRACE - 30)
    clock.now += 15
    assert link.claim_in() == 0.0
    link.set_online("bob", True)
    assert link.claim_in() is None
    watcher = GameLink(state, None, server.send, "s1", now=clock)
    assert watcher.claim_in() is None


@pytest.mark.parametrize(
    ("reason", "winner", "termination", "expected"),
    [
        ("time", "white", Termination.TIME_FORFEIT, Color.WHITE),
        ("abandoned", "black", Termination.DISCONNECTION, Color.BLACK),
        ("abandoned", None, Termination.DISCONNECTION, None),
    ],
)
async def test_a_flag_or_a_claim_ends_the_match_through_a_source(
    reason: str, winner: str | None, termination: Termination, expected: Color | None
) -> None:
    server = Server()
    server.game.play(parse_square("d3"))
    result = protocol.GameResult(winner=winner, black=4, white=1, score=(32, 32), reason=reason)  # type: ignore[arg-type]
    state = msgspec_replace(
        state_of(9, "ann", "bob", server.game), status="finished", turn=None, result=result
    )
    link = GameLink(state, "ann", server.send, "s1")
    match = online_match(link, Game.from_moves(None, [parse_square("d3")]))
    ended = await asyncio.wait_for(match.run(), WAIT)
    assert ended is not None and ended.termination is termination and ended.winner is expected
    from reversi_tui.net.remote import record_of

    assert record_of(state).result == ended


def test_the_records_keep_a_rated_game_s_clock_and_ratings() -> None:
    from reversi_tui.net.remote import online_facts

    server = Server()
    server.game.play(parse_square("d3"))
    clock = protocol.Clock(black_ms=1, white_ms=0, running=None, minutes=3, increment=2)
    result = protocol.GameResult(
        winner="black", black=4, white=1, score=(63, 1), reason="time",
        rating_change={"ann": 12, "bob": -12},
    )  # fmt: skip
    ratings = {
        "ann": protocol.Rating(rating=1512, deviation=300, provisional=True),
        "bob": protocol.Rating(rating=1488, deviation=90, provisional=False),
    }
    state = msgspec_replace(
        state_of(9, "ann", "bob", server.game, clock=clock, rated=True, ratings=ratings),
        status="finished", turn=None, result=result,
    )  # fmt: skip
    facts = online_facts(state)
    assert facts.rated and facts.control == (3, 2)
    assert facts.rating(Color.BLACK) == (1512, 12) and facts.rating(Color.WHITE) == (1488, -12)
    assert facts.provisional == frozenset({Color.BLACK})
    casual = online_facts(msgspec_replace(state, rated=False, clock=None))
    assert not casual.rated and casual.control is None and casual.ratings is None
