"""Online play in the app: the lobby, a challenge, a game, its keys, against a real server.

The app connects to an in-process server as ``ann``; ``bob`` is a raw protocol
client (tests/net/conftest.py's), so each step checks what really crossed the wire.
"""

from __future__ import annotations

import asyncio
import math
import socket
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Button, DataTable, Static

from reversi_tui.engine import Color, parse_square
from reversi_tui.net import protocol
from reversi_tui.net.clocks import clock_text
from reversi_tui.net.server import Server
from reversi_tui.net.store import SqliteStore
from reversi_tui.records.database import RecordsDatabase
from reversi_tui.records.keeper import GameKeeper
from reversi_tui.records.paths import Places
from reversi_tui.tui.app import ReversiApp
from reversi_tui.tui.screens.challenge import ChallengedScreen, ChallengeScreen
from reversi_tui.tui.screens.confirm import ConfirmScreen
from reversi_tui.tui.screens.game_over import GameOverScreen, OnlineGameOverScreen
from reversi_tui.tui.screens.lobby import LobbyScreen
from reversi_tui.tui.screens.online_game import OnlineGameScreen
from reversi_tui.tui.widgets.board import Board

from ..net.conftest import Client
from ..net.hub_fakes import OPENING
from .helpers import make_app, wait_until

LIMIT = 10.0


class Names:
    """Identity by connection order: the app first (ann), then bob."""

    def __init__(self, *names: str) -> None:
        self.names = list(names)

    def __call__(self, _sock: socket.socket) -> str:
        return self.names.pop(0)


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[tuple[Server, str]]:
    store = SqliteStore(tmp_path / "db" / "online.sqlite3")
    running = Server(store, identify=Names("ann", "bob"))
    path = str(tmp_path / "s.sock")
    await running.start(path)
    yield running, path
    await running.stop()
    store.close()


async def bob_on(path: str) -> Client:
    reader, writer = await asyncio.open_unix_connection(path)
    bob = Client(reader, writer)
    await bob.hello()
    return bob


def online_app(path: str, keeper: GameKeeper | None = None) -> ReversiApp:
    """The app as ``reversi online --socket PATH`` starts it."""
    app = make_app(keeper=keeper)
    app.online_on_mount = (path,)
    return app


async def lobby_with_bob(
    app: ReversiApp, pilot: Pilot[int], path: str
) -> tuple[LobbyScreen, Client]:
    """The app's lobby once ann is in, and bob logged in and listed there."""
    await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen), LIMIT)
    lobby = app.screen
    assert isinstance(lobby, LobbyScreen)
    await wait_until(pilot, lambda: lobby.session.user == "ann", LIMIT)
    bob = await bob_on(path)
    players = lobby.query_one("#players", DataTable)
    await wait_until(pilot, lambda: players.row_count == 2, LIMIT)
    return lobby, bob


async def two_moves_each(
    pilot: Pilot[int], screen: OnlineGameScreen, bob: Client, game: int, *, bob_black: bool = True
) -> None:
    """``OPENING``, bob's moves from his client, ann's from her session: past the abort,
    so a resignation now has a result."""
    for ply, square in enumerate(OPENING):
        if (ply % 2 == 0) == bob_black:
            bob.send(type="move", game=game, ply=ply, square=square)
        else:
            screen.session.request(protocol.MoveMessage(game=game, ply=ply, square=square))
        await wait_until(pilot, lambda ply=ply: len(screen.game.moves) == ply + 1, LIMIT)


async def test_lobby_challenge_game_and_its_keys(
    server: tuple[Server, str], tmp_path: Path
) -> None:
    _, path = server
    keeper = GameKeeper(Places.resolve(tmp_path / "data"))
    keeper.user = "ann"
    app = online_app(path, keeper)
    async with app.run_test(size=(100, 30)) as pilot:
        lobby, bob = await lobby_with_bob(app, pilot, path)
        assert "your own server" in str(lobby.query_one("#title").render())  # the kernel's word

        # bob challenges ann, as Black; y accepts
        bob.send(type="challenge", to="ann", color="black", id="c")
        await bob.expect("challenge_sent", re="c")
        await wait_until(pilot, lambda: isinstance(app.screen, ChallengedScreen), LIMIT)
        await pilot.press("y")
        await wait_until(pilot, lambda: isinstance(app.screen, OnlineGameScreen), LIMIT)
        game_screen = app.screen
        assert isinstance(game_screen, OnlineGameScreen)
        state = await bob.expect("state")
        game = state["game"]
        assert (state["black"], state["white"]) == ("bob", "ann")

        # bob's move arrives on ann's board
        bob.send(type="move", game=game, ply=0, square="d3")
        await wait_until(pilot, lambda: len(game_screen.game.moves) == 1, LIMIT)
        assert "(you)" in game_screen._turn_text()

        # ann's key goes to the server, and lands when the server says so
        game_screen.query_one(Board).cursor = parse_square("c5")
        await pilot.press("enter")
        answer = await bob.expect("state", game=game, ply=2)
        assert answer["moves"] == "d3c5"
        await wait_until(pilot, lambda: len(game_screen.game.moves) == 2, LIMIT)
        assert "(bob)" in game_screen._turn_text()

        # bob's chat shows in the panel as plain text: markup stays literal
        bob.send(type="chat", game=game, text="[b]well[/b] played\x1b[2J")
        panel = game_screen.query_one("#chat-text", Static)
        await wait_until(pilot, lambda: "well" in str(panel.content), LIMIT)
        assert "bob: [b]well[/b] played [2J" in str(panel.content)
        bob.send(type="chat", game=game, text="a long line " * 15)
        bob.send(type="chat", game=game, text="the newest")
        await wait_until(pilot, lambda: "the newest" in str(panel.content), LIMIT)
        assert "[b]well[/b]" in str(panel.content)  # older lines kept, scrolled

        # local-only keys say why not
        await pilot.press("u")
        assert "not available online" in game_screen.status
        await pilot.press("i")
        assert "not available online" in game_screen.status
        await pilot.press("ctrl+s")
        assert "not available online" in game_screen.status
        # n does not drop the game for the lobby (issue 18): it says how to get there
        await pilot.press("n")
        assert app.screen is game_screen
        assert game_screen.status == "n starts a local game: q goes back to the lobby first."

        # two moves each: past the abort (shown in the footer until ann's second move)
        assert game_screen.check_action("abort", ()) is True
        bob.send(type="move", game=game, ply=2, square="f6")
        await wait_until(pilot, lambda: len(game_screen.game.moves) == 3, LIMIT)
        game_screen.query_one(Board).cursor = parse_square("f5")
        await pilot.press("enter")
        await wait_until(pilot, lambda: len(game_screen.game.moves) == 4, LIMIT)
        assert game_screen.check_action("abort", ()) is False

        # resign, after a confirmation
        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), LIMIT)
        await pilot.press("y")
        final = await bob.expect("state", game=game, status="finished")
        assert final["result"]["winner"] == "black" and final["result"]["reason"] == "resign"
        await wait_until(pilot, lambda: game_screen.match.is_over, LIMIT)

        # the review keys walk the finished game; playing on from a move is local play's
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen), LIMIT)
        await pilot.press("r")
        await wait_until(pilot, lambda: game_screen.reviewing, LIMIT)
        await pilot.press("u")
        assert game_screen.review is not None and game_screen.review.index == 3
        assert game_screen.status == "Move 3 of 4: Black f6."
        await pilot.press("p")
        assert game_screen.status.startswith("Playing on from here is not available online")
        bob.close()
    # the finished game is in ann's own records, under both users' names
    records = RecordsDatabase(keeper.places.database)
    (kept,) = list(records.all())
    records.close()
    assert (kept.black_name, kept.white_name) == ("bob", "ann")
    assert kept.record.move_list() == "d3c5f6f5" and kept.record.result is not None


async def test_a_game_aborted_with_w_says_so_and_is_not_recorded(
    server: tuple[Server, str], tmp_path: Path
) -> None:
    _, path = server
    keeper = GameKeeper(Places.resolve(tmp_path / "data"))
    keeper.user = "ann"
    app = online_app(path, keeper)
    async with app.run_test(size=(100, 30)) as pilot:
        _, bob = await lobby_with_bob(app, pilot, path)
        bob.send(type="challenge", to="ann", color="black", rated=True, id="c")
        await bob.expect("challenge_sent", re="c")
        await wait_until(pilot, lambda: isinstance(app.screen, ChallengedScreen), LIMIT)
        await pilot.press("y")
        await wait_until(pilot, lambda: isinstance(app.screen, OnlineGameScreen), LIMIT)
        game_screen = app.screen
        assert isinstance(game_screen, OnlineGameScreen)
        game = (await bob.expect("state"))["game"]
        bob.send(type="move", game=game, ply=0, square="d3")
        await wait_until(pilot, lambda: len(game_screen.game.moves) == 1, LIMIT)
        assert game_screen.check_action("abort", ()) is True  # in the footer
        await pilot.press("w")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), LIMIT)
        await pilot.press("y")
        final = await bob.expect("state", game=game, status="finished")
        assert final["result"]["reason"] == "aborted" and final["result"]["winner"] is None
        await wait_until(pilot, lambda: game_screen.status.startswith("Game aborted"), LIMIT)
        assert game_screen.status == (
            "Game aborted: no result, ratings unchanged. q goes back to the lobby."
        )
        assert game_screen._turn_text() == "Game aborted: no result, ratings unchanged"
        for action in ("abort", "resign", "claim"):
            assert game_screen.check_action(action, ()) is False
        await pilot.press("q")
        await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen), LIMIT)
        bob.close()
    records = RecordsDatabase(keeper.places.database)
    assert list(records.all()) == []  # no result: nothing for the statistics
    records.close()


async def test_challenging_from_the_lobby(server: tuple[Server, str]) -> None:
    _, path = server
    app = online_app(path)
    async with app.run_test(size=(100, 30)) as pilot:
        lobby, bob = await lobby_with_bob(app, pilot, path)
        lobby.query_one("#players", DataTable).move_cursor(row=1)  # bob
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ChallengeScreen), LIMIT)
        await pilot.press("w", "2", "g", "enter")
        challenged = await bob.expect("challenged")
        assert challenged["from"] == "ann" and challenged["color"] == "white"
        assert challenged["clock"] == {"minutes": 5, "increment": 3} and challenged["rated"]
        bob.send(type="decline", challenge=challenged["challenge"])
        await wait_until(pilot, lambda: "declined" in lobby.session.status, LIMIT)
        assert lobby.session.status == "bob declined your challenge."  # a name, not a number
        bob.close()


async def test_a_withdrawn_challenge_closes_its_dialog_and_says_who(
    server: tuple[Server, str],
) -> None:
    _, path = server
    app = online_app(path)
    async with app.run_test(size=(100, 30)) as pilot:
        lobby, bob = await lobby_with_bob(app, pilot, path)
        bob.send(type="challenge", to="ann", color="random", id="c")
        number = (await bob.expect("challenge_sent", re="c"))["challenge"]
        await wait_until(pilot, lambda: isinstance(app.screen, ChallengedScreen), LIMIT)
        challenges = lobby.query_one("#challenges", DataTable)
        assert challenges.row_count == 1  # listed in the lobby too
        bob.send(type="cancel", challenge=number)
        await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen), LIMIT)
        await wait_until(pilot, lambda: "bob withdrew the challenge" in lobby.session.status, LIMIT)
        assert challenges.row_count == 0
        bob.close()


async def test_a_challenge_withdrawn_under_another_leaves_the_one_on_top(
    server: tuple[Server, str], tmp_path: Path
) -> None:
    """Two challenges, two dialogs; the first is withdrawn: the second's dialog (on top)
    stays, and answering it answers the second (Textual pops whatever is on top)."""
    running, path = server
    running.identify = Names("ann", "bob", "carol")
    app = online_app(path)
    async with app.run_test(size=(100, 30)) as pilot:
        lobby, bob = await lobby_with_bob(app, pilot, path)
        carol = await bob_on(path)  # the third connection is carol
        bob.send(type="challenge", to="ann", color="random", id="b")
        first = (await bob.expect("challenge_sent", re="b"))["challenge"]
        await wait_until(pilot, lambda: isinstance(app.screen, ChallengedScreen), LIMIT)
        carol.send(type="challenge", to="ann", color="random", id="c")
        await carol.expect("challenge_sent", re="c")
        await wait_until(
            pilot,
            lambda: isinstance(app.screen, ChallengedScreen) and app.screen.challenger == "carol",
            LIMIT,
        )
        bob.send(type="cancel", challenge=first)
        await wait_until(pilot, lambda: "bob withdrew the challenge" in lobby.session.status, LIMIT)
        assert isinstance(app.screen, ChallengedScreen) and app.screen.challenger == "carol"
        await pilot.press("y")
        state = await carol.expect("state")
        assert {state["black"], state["white"]} == {"ann", "carol"}
        bob.close()
        carol.close()


async def test_a_timed_rated_game_shows_its_clocks_and_offers_a_rematch(
    server: tuple[Server, str],
) -> None:
    _, path = server
    app = online_app(path)
    async with app.run_test(size=(80, 24)) as pilot:
        _, bob = await lobby_with_bob(app, pilot, path)
        clock = {"minutes": 3, "increment": 2}
        bob.send(type="challenge", to="ann", color="black", clock=clock, rated=True, id="c")
        await bob.expect("challenge_sent", re="c")
        await wait_until(pilot, lambda: isinstance(app.screen, ChallengedScreen), LIMIT)
        dialog = app.screen
        assert isinstance(dialog, ChallengedScreen) and dialog.rated and dialog.control == (3, 2)
        accepted = time.monotonic()
        await pilot.press("y")
        await wait_until(pilot, lambda: isinstance(app.screen, OnlineGameScreen), LIMIT)
        game_screen = app.screen
        assert isinstance(game_screen, OnlineGameScreen)
        state = await bob.expect("state")
        assert state["clock"]["minutes"] == 3 and state["rated"]
        # both clocks in the sidebar, the game's terms in its title: Black's runs, and has
        # lost no more than the time since the challenge was accepted (seconds under load)
        clocks = game_screen._clocks()
        since = time.monotonic() - accepted
        assert clocks is not None
        assert game_screen.link.clocks is not None
        assert game_screen.link.clocks.running is Color.BLACK
        assert clocks[Color.WHITE] == ("3:00", False)
        assert clocks[Color.BLACK][0] in {clock_text(180 - s) for s in range(math.ceil(since) + 1)}
        shown = app.export_screenshot()
        assert "3:00" in shown
        title = str(game_screen.query_one("#title", Static).content)
        assert "3+2" in title and "rated" in title
        # bob resigns: the dialog offers a rematch, which reaches bob with the same terms
        await two_moves_each(pilot, game_screen, bob, state["game"])
        bob.send(type="resign", game=state["game"])
        await wait_until(pilot, lambda: isinstance(app.screen, OnlineGameOverScreen), LIMIT)
        over = app.screen
        assert isinstance(over, OnlineGameOverScreen)
        assert over.ratings.startswith("Ratings: bob 1") and "ann 1" in over.ratings
        assert over.check_action("choose", ("new",)) is False  # no local "New game" online
        assert over.check_action("choose", ("quit",)) is False
        await pilot.press("n")
        await pilot.pause()
        assert app.screen is over
        await pilot.press("m")
        offer = await bob.expect("challenged")
        assert offer["rematch"] == state["game"] and offer["clock"] == clock and offer["rated"]
        assert offer["color"] == "black"  # ann played White: she takes Black now
        # bob accepts: ann's screen moves on to the new game
        bob.send(type="accept", challenge=offer["challenge"])
        await wait_until(
            pilot,
            lambda: (
                isinstance(app.screen, OnlineGameScreen)
                and app.screen is not game_screen
                and app.screen.is_mounted
            ),
            LIMIT,
        )
        assert app.screen.link.state.black == "ann"
        # the old game is not left under the new one: q goes straight to the lobby
        assert [s for s in app.screen_stack if isinstance(s, OnlineGameScreen)] == [app.screen]
        bob.close()


async def test_a_finished_online_game_is_analysed_from_its_game_over_dialog(
    server: tuple[Server, str],
) -> None:
    from reversi_tui.tui.screens.analysis import AnalysisScreen

    _, path = server
    app = online_app(path)
    async with app.run_test(size=(80, 24)) as pilot:
        _, bob = await lobby_with_bob(app, pilot, path)
        bob.send(type="challenge", to="ann", color="black", id="c")
        await bob.expect("challenge_sent", re="c")
        await wait_until(pilot, lambda: isinstance(app.screen, ChallengedScreen), LIMIT)
        await pilot.press("y")
        await wait_until(pilot, lambda: isinstance(app.screen, OnlineGameScreen), LIMIT)
        game_screen = app.screen
        assert isinstance(game_screen, OnlineGameScreen)
        state = await bob.expect("state")
        await two_moves_each(pilot, game_screen, bob, state["game"])
        bob.send(type="resign", game=state["game"])
        await wait_until(pilot, lambda: isinstance(app.screen, OnlineGameOverScreen), LIMIT)
        over = app.screen
        await pilot.pause()
        assert str(over.query_one("#analyse", Button).label) == "Analyse (a)"
        await pilot.press("a")
        await wait_until(pilot, lambda: isinstance(app.screen, AnalysisScreen), LIMIT)
        bob.close()


async def test_a_server_that_never_answers_is_said_in_the_lobby(tmp_path: Path) -> None:
    """A socket that takes the connection and never writes: after the welcome limit the
    lobby says that the server does not answer and when the next try is."""
    taken: list[asyncio.StreamWriter] = []

    async def mute(_reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        taken.append(writer)

    path = str(tmp_path / "mute.sock")
    listening = await asyncio.start_unix_server(mute, path)
    app = online_app(path)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen), LIMIT)
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        status = lobby.query_one("#status", Static)
        await wait_until(pilot, lambda: "does not answer" in str(status.content), LIMIT)
        assert "no welcome within 5 s" in str(status.content)
        assert "Trying again in 0.5 s, at " in str(status.content)
        title = str(lobby.query_one("#title", Static).content)
        assert title.startswith("Online: no answer yet")
    listening.close()


async def test_while_no_server_holds_the_game_it_stops_and_then_says_how_it_came_back(
    tmp_path: Path,
) -> None:
    """A rated 5+3 game whose server stops: no move markers, ann's clock stands still;
    another server re-creates it from both copies, still rated and timed (both copies
    carry the clock and the terms), and says so."""
    path = str(tmp_path / "s.sock")
    stores = [SqliteStore(tmp_path / name / "online.sqlite3") for name in ("one", "two")]
    first = Server(stores[0], identify=Names("ann", "bob"))
    second = Server(stores[1], identify=Names("ann", "bob"))
    await first.start(path)
    app = online_app(path)
    async with app.run_test(size=(100, 30)) as pilot:
        _, bob = await lobby_with_bob(app, pilot, path)
        clock = {"minutes": 5, "increment": 3}
        bob.send(type="challenge", to="ann", color="white", clock=clock, rated=True, id="c")
        await bob.expect("challenge_sent", re="c")
        await wait_until(pilot, lambda: isinstance(app.screen, ChallengedScreen), LIMIT)
        await pilot.press("y")
        await wait_until(pilot, lambda: isinstance(app.screen, OnlineGameScreen), LIMIT)
        screen = app.screen
        assert isinstance(screen, OnlineGameScreen)
        state = await bob.expect("state")
        board = screen.query_one(Board)
        await wait_until(pilot, lambda: board.view.markers != 0, LIMIT)  # ann (Black) to move

        await first.stop("killed")
        bob.close()
        await wait_until(pilot, lambda: board.view.markers == 0, LIMIT)
        assert screen.status.startswith("No server holds this game now:")
        stopped = screen._clocks()
        later = screen.link.now() + 60
        screen.link.now = lambda: later  # a minute on: the clock has not moved
        assert screen._clocks() == stopped
        screen._tick()
        assert screen._clocks() == stopped

        await second.start(path)
        await wait_until(pilot, lambda: "waiting for bob" in screen.status, LIMIT)
        assert board.view.markers == 0
        bob = await bob_on(path)
        fields = ("origin", "black", "white", "started", "moves", "clock", "rated")
        bob.send(type="resume", id=1, **{name: state[name] for name in fields})
        await wait_until(pilot, lambda: board.view.markers != 0, LIMIT)
        assert screen.status.startswith("The game is back on the server: play on.")
        assert "rated" in str(screen.query_one("#title", Static).content)
        bob.close()
    await second.stop()
    for store in stores:
        store.close()


async def test_your_move_said_in_the_lobby_goes_when_the_game_ends(
    server: tuple[Server, str],
) -> None:
    _, path = server
    app = online_app(path)
    async with app.run_test(size=(100, 30)) as pilot:
        lobby, bob = await lobby_with_bob(app, pilot, path)
        bob.send(type="challenge", to="ann", color="black", id="c")
        await bob.expect("challenge_sent", re="c")
        await wait_until(pilot, lambda: isinstance(app.screen, ChallengedScreen), LIMIT)
        await pilot.press("y")
        await wait_until(pilot, lambda: isinstance(app.screen, OnlineGameScreen), LIMIT)
        state = await bob.expect("state")
        await pilot.press("q")
        await wait_until(pilot, lambda: app.screen is lobby, LIMIT)
        bob.send(type="move", game=state["game"], ply=0, square="d3")
        status = lobby.query_one("#status", Static)
        said = f"Your move in game {state['game']} against bob."
        await wait_until(pilot, lambda: str(status.content) == said, LIMIT)
        bob.send(type="resign", game=state["game"])
        over = f"Game {state['game']} against bob is over."
        await wait_until(pilot, lambda: str(status.content) == over, LIMIT)
        bob.close()


async def test_who_is_away_and_watching_is_not_said_after_the_game(
    server: tuple[Server, str],
) -> None:
    running, path = server
    running.identify = Names("ann", "bob", "carol")
    app = online_app(path)
    async with app.run_test(size=(100, 30)) as pilot:
        _, bob = await lobby_with_bob(app, pilot, path)
        carol = await bob_on(path)
        bob.send(type="challenge", to="ann", color="black", id="c")
        await bob.expect("challenge_sent", re="c")
        await wait_until(pilot, lambda: isinstance(app.screen, ChallengedScreen), LIMIT)
        await pilot.press("y")
        await wait_until(pilot, lambda: isinstance(app.screen, OnlineGameScreen), LIMIT)
        screen = app.screen
        assert isinstance(screen, OnlineGameScreen)
        state = await bob.expect("state")
        carol.send(type="watch", game=state["game"])
        title = screen.query_one("#title", Static)
        await wait_until(pilot, lambda: "1 watching" in str(title.content), LIMIT)
        await two_moves_each(pilot, screen, bob, state["game"])
        bob.send(type="resign", game=state["game"])
        await wait_until(pilot, lambda: screen.match.is_over, LIMIT)
        carol.close()
        bob.close()
        await wait_until(pilot, lambda: screen.link.online.get("bob") is False, LIMIT)
        await pilot.pause()
        assert screen._labels()[Color.BLACK] == "bob"  # not "bob (away)"
        assert "watching" not in str(title.content)


async def test_accepting_a_rematch_moves_the_accepter_to_the_new_game_at_once(
    server: tuple[Server, str],
) -> None:
    """ann accepts bob's rematch on the game-over dialog: she lands in the new game (its
    clock runs), not on the old dialog, and q from it goes to the lobby."""
    _, path = server
    app = online_app(path)
    async with app.run_test(size=(100, 30)) as pilot:
        lobby, bob = await lobby_with_bob(app, pilot, path)
        bob.send(type="challenge", to="ann", color="white", clock={"minutes": 3, "increment": 2})
        await wait_until(pilot, lambda: isinstance(app.screen, ChallengedScreen), LIMIT)
        await pilot.press("y")
        await wait_until(pilot, lambda: isinstance(app.screen, OnlineGameScreen), LIMIT)
        old = app.screen
        assert isinstance(old, OnlineGameScreen)
        state = await bob.expect("state")
        await two_moves_each(pilot, old, bob, state["game"], bob_black=False)
        bob.send(type="resign", game=state["game"])
        await wait_until(pilot, lambda: isinstance(app.screen, OnlineGameOverScreen), LIMIT)
        bob.send(type="rematch", game=state["game"])
        await wait_until(pilot, lambda: isinstance(app.screen, ChallengedScreen), LIMIT)
        await pilot.press("y")
        await wait_until(
            pilot,
            lambda: (
                isinstance(app.screen, OnlineGameScreen)
                and app.screen is not old
                and app.screen.is_mounted
            ),
            LIMIT,
        )
        new = app.screen
        assert isinstance(new, OnlineGameScreen) and new.link.state.white == "ann"
        games = [s for s in app.screen_stack if isinstance(s, OnlineGameScreen | GameOverScreen)]
        assert games == [new]  # the old game and its dialog are gone
        await pilot.press("q")
        await wait_until(pilot, lambda: app.screen is lobby, LIMIT)
        bob.close()


def test_a_game_back_on_a_server_says_what_terms_it_lost() -> None:
    """Copies saved before both carried the terms come back untimed and casual: said."""
    from reversi_tui.tui.screens.online_game import back_words

    assert back_words((True, True), (True, True)) == "The game is back on the server: play on."
    assert back_words((True, True), (False, False)).startswith(
        "The game is back, untimed and casual now: another server re-created it"
    )
    assert back_words((False, True), (False, False)).startswith("The game is back, casual now")


async def test_a_player_mutes_the_watchers_chat(tmp_path: Path) -> None:
    """w hides the watchers' lines from a player flooded by them (issue 31), and brings
    them back; the players' own lines stay."""
    store = SqliteStore(tmp_path / "db" / "online.sqlite3")
    running = Server(store, identify=Names("ann", "bob", "carol"))
    path = str(tmp_path / "s.sock")
    await running.start(path)
    app = online_app(path)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            _, bob = await lobby_with_bob(app, pilot, path)
            bob.send(type="challenge", to="ann", color="black", id="c")
            await wait_until(pilot, lambda: isinstance(app.screen, ChallengedScreen), LIMIT)
            await pilot.press("y")
            await wait_until(pilot, lambda: isinstance(app.screen, OnlineGameScreen), LIMIT)
            game_screen = app.screen
            assert isinstance(game_screen, OnlineGameScreen)
            game = (await bob.expect("state"))["game"]
            carol = await bob_on(path)
            carol.send(type="watch", game=game, id="w")
            await carol.expect("state", re="w")
            panel = game_screen.query_one("#chat-text", Static)
            carol.send(type="chat", game=game, text="from the stands")
            await wait_until(pilot, lambda: "from the stands" in str(panel.content), LIMIT)

            await pilot.press("z")
            assert "hidden" in game_screen.status
            assert "from the stands" not in str(panel.content)
            carol.send(type="chat", game=game, text="louder")
            bob.send(type="chat", game=game, text="the player")
            kept = game_screen.session.picture.chat
            origin = game_screen.link.origin
            await wait_until(pilot, lambda: "louder" in str(kept[origin]), LIMIT)
            await wait_until(pilot, lambda: "the player" in str(panel.content), LIMIT)
            assert "louder" not in str(panel.content)

            await pilot.press("z")
            assert "shown again" in game_screen.status
            assert "louder" in str(panel.content) and "from the stands" in str(panel.content)
            bob.close()
            carol.close()
    finally:
        await running.stop()
        store.close()
