"""The lobby as players enjoy it (issue 18): live, its own help, challenges that reach
the player, and back into the game after a reconnection. The session is fed by hand
(no server), so each test says exactly what the server said."""

from __future__ import annotations

from typing import Any

from textual.widgets import DataTable, Static

from reversi_tui.engine import Game, parse_square
from reversi_tui.net import protocol
from reversi_tui.net.client import Client
from reversi_tui.net.online import OnlineSession
from reversi_tui.tui.online_alerts import OnlineAlerts
from reversi_tui.tui.screens.challenge import ChallengedScreen, ChallengeScreen
from reversi_tui.tui.screens.help import ONLINE_KEYS, HelpScreen
from reversi_tui.tui.screens.lobby import LobbyScreen
from reversi_tui.tui.screens.lobby_help import LOBBY_KEY_ROWS, LobbyHelpScreen
from reversi_tui.tui.screens.online_game import OnlineGameScreen

from .helpers import make_app, wait_until

LIMIT = 5.0
STARTED = "2026-11-26T08:00:00+00:00"
RATED = protocol.Rating(rating=1623, deviation=80, provisional=False)


def hand_session(user: str = "ann") -> tuple[OnlineSession, list[Any]]:
    client = Client(lambda _: None, lambda _: None, socket="/nowhere")
    client.user, client.server = user, "s1"
    sent: list[Any] = []

    def send(message: protocol.ClientMessage) -> bool:
        sent.append(message)
        return True

    client.send = send  # type: ignore[method-assign]
    return OnlineSession(client), sent


def player(user: str, status: str = "lobby", **more: Any) -> protocol.PlayerInfo:
    fields: dict[str, Any] = {"waiting": False, "playing": False, "rating": protocol.NEW_RATING}
    return protocol.PlayerInfo(user=user, status=status, **(fields | more))  # type: ignore[arg-type]


def state(moves: str, number: int = 1) -> protocol.State:
    squares = [parse_square(moves[i : i + 2]) for i in range(0, len(moves), 2)]
    return protocol.state_of(
        number, "ann", "bob", Game.from_moves(None, squares), origin=f"s1:{number}", started=STARTED
    )


def rows(lobby: LobbyScreen, table: str) -> list[str]:
    data = lobby.query_one(f"#{table}", DataTable)
    return [" | ".join(str(c) for c in data.get_row_at(i)) for i in range(data.row_count)]


async def open_lobby(app: Any, pilot: Any, session: OnlineSession) -> LobbyScreen:
    screen = app.game_screen
    lobby = LobbyScreen(session, screen.advisor, screen.glyphs)
    await app.push_screen(lobby)
    await pilot.pause()
    return lobby


async def test_the_lobby_follows_what_the_server_pushes_without_asking() -> None:
    session, sent = hand_session()
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await open_lobby(app, pilot, session)
        assert "Nobody is online yet." in str(lobby.query_one("#players-empty", Static).render())
        assert lobby.query_one("#players-empty").display
        session.receive(
            protocol.LobbyReply(
                players=[
                    player("ann"),
                    player("bob", "local", rating=RATED),
                    player("carol", "away"),
                ],
                games=[
                    protocol.GameInfo(
                        game=1,
                        black="ann",
                        white="bob",
                        ply=0,
                        spectators=0,
                        turn="black",
                        clock=protocol.TimeControl(minutes=5, increment=3),
                        rated=True,
                    )
                ],
            )
        )
        await pilot.pause()
        assert rows(lobby, "players") == [
            "ann (you) | 1500? | in the lobby",
            "bob | 1623 | in a local game",
            "carol | 1500? | away",
        ]
        assert rows(lobby, "games") == ["1 | ann | bob | 1 | 5+3 rated | your move!"]
        assert not lobby.query_one("#players-empty").display
        session.receive(protocol.State(**{**_fields(state("d3")), "re": None}))
        await pilot.pause()
        assert not [m for m in sent if isinstance(m, protocol.LobbyRequest)]  # pushed, not asked


def _fields(value: protocol.State) -> dict[str, Any]:
    import msgspec

    return msgspec.structs.asdict(value)


async def test_question_mark_in_the_lobby_is_the_lobby_s_help() -> None:
    session, _ = hand_session()
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_lobby(app, pilot, session)
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, LobbyHelpScreen), LIMIT)
        await pilot.pause()
        # the notes are longer than 24 rows: the scroll has the keys, so Down reads on
        assert app.screen.focused is app.screen.query_one("#lobby-help-scroll")
        keys = dict(LOBBY_KEY_ROWS)
        assert "Tab, Shift+Tab" in keys and keys["x"] == "cancel the challenges you sent"
        assert keys["?"] == "this help"
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen), LIMIT)


async def test_a_challenge_that_came_while_away_is_put_to_the_player_in_the_lobby() -> None:
    session, _ = hand_session()
    challenge = protocol.ChallengeInfo(
        challenge=4,
        from_="bob",
        to="ann",
        color="white",
        clock=protocol.TimeControl(minutes=3, increment=2),
        rated=True,
    )
    session.receive(
        protocol.Welcome(version=4, user="ann", server="s1", games=[], challenges=[challenge])
    )
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_lobby(app, pilot, session)
        await wait_until(pilot, lambda: isinstance(app.screen, ChallengedScreen), LIMIT)
        dialog = app.screen
        assert isinstance(dialog, ChallengedScreen)
        assert dialog.rated and dialog.control == (3, 2) and dialog.challenger == "bob"


async def test_a_challenge_reaches_a_player_in_a_local_game() -> None:
    session, _ = hand_session()
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        rang: list[bool] = []
        alerts = OnlineAlerts(app, session, bell=lambda: True)
        app.bell = lambda: rang.append(True)  # type: ignore[method-assign]
        session.receive(protocol.Challenged(challenge=2, from_="bob", color="random", rated=True))
        await pilot.pause()
        assert app.game_screen.status == "bob challenges you (rated). o opens the lobby to answer."
        assert rang == [True]
        assert alerts.activity() == "local"
        session.receive(state(""))  # a game of ann's where it is her move
        await pilot.pause()
        assert app.game_screen.status.startswith("Your move in game 1 against bob.")
        alerts.stop()


async def test_the_challenge_dialog_sends_colour_clock_and_rating() -> None:
    session, sent = hand_session()
    session.receive(protocol.LobbyReply(players=[player("ann"), player("bob", "local")], games=[]))
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await open_lobby(app, pilot, session)
        players = lobby.query_one("#players", DataTable)
        players.focus()
        players.move_cursor(row=1)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ChallengeScreen), LIMIT)
        terms = str(app.screen.query_one("#terms", Static).render())
        assert "bob is in a local game" in terms  # busy, said before sending
        await pilot.press("b", "4", "g", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen), LIMIT)
        assert sent[-1] == protocol.Challenge(
            to="bob",
            color="black",
            clock=protocol.TimeControl(minutes=15, increment=10),
            rated=True,
        )


async def test_after_a_welcome_the_player_goes_straight_back_into_their_game() -> None:
    session, _ = hand_session()
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_lobby(app, pilot, session)
        session.receive(
            protocol.Welcome(
                version=4, user="ann", server="s1", games=[state("d3c5")], challenges=[]
            )
        )
        await wait_until(pilot, lambda: isinstance(app.screen, OnlineGameScreen), LIMIT)
        assert app.screen.link.origin == "s1:1"
        # ? over an online game is that game's help: its own keys, not local play's
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen), LIMIT)
        assert app.screen.online
        assert "resign (after a confirmation)" in dict(ONLINE_KEYS).values()
        assert "undo (takes back the computer's reply too)" not in dict(ONLINE_KEYS).values()


async def test_players_who_arrive_later_take_the_keys_without_a_click() -> None:
    # Found by hand: the tables were empty when the lobby opened, so nothing had the
    # focus, and Down did nothing when players arrived.
    session, sent = hand_session()
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await open_lobby(app, pilot, session)
        assert lobby.focused is None
        session.receive(protocol.LobbyReply(players=[player("ann"), player("bob")], games=[]))
        await pilot.pause()
        assert lobby.focused is lobby.query_one("#players", DataTable)
        await pilot.press("down", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ChallengeScreen), LIMIT)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen), LIMIT)
        assert isinstance(sent[-1], protocol.Challenge) and sent[-1].to == "bob"


async def test_a_burst_of_lobby_chat_makes_one_notice() -> None:
    """A lobby-chat flood (issue 31) is told once, with the number of lines; a lone
    line later is told as itself."""
    session, _ = hand_session()
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await open_lobby(app, pilot, session)

        def told() -> list[str]:
            return [n.message for n in app._notifications if n.title == "Lobby chat"]

        for number in range(30):
            session.receive(protocol.ChatMessage(from_="eve", game=None, text=f"spam {number}"))
        await wait_until(pilot, lambda: bool(told()), LIMIT)
        assert told() == ["30 new lines in the lobby chat; the last, eve: spam 29"]
        session.receive(protocol.ChatMessage(from_="bob", game=None, text="hello"))
        await wait_until(pilot, lambda: len(told()) == 2, LIMIT)
        assert told()[-1] == "bob: hello"
