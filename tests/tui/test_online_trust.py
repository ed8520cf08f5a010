"""Online play in the app when the server is not to be taken on trust.

A server run by another real uid (as root, a forked child) is named in a dialog
before anything is sent; "Don't" leaves the lobby saying so, with the owner the
kernel gave in its header, and ``r`` asks again. A game this server does not hold
yet opens as a board that says why it cannot be played.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from textual.widgets import DataTable, Static

from reversi_tui.net.client import Client
from reversi_tui.net.copies import GameCopy
from reversi_tui.net.online import OnlineSession
from reversi_tui.records.keeper import GameKeeper
from reversi_tui.records.paths import Places
from reversi_tui.tui.screens.confirm import ConfirmScreen
from reversi_tui.tui.screens.lobby import LobbyScreen
from reversi_tui.tui.screens.online_game import OnlineGameScreen

from ..net.test_trust import IMPOSTOR, Impostor
from .helpers import make_app, wait_until

LIMIT = 10.0
needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="needs root to become another user")


@needs_root
async def test_another_users_server_is_named_in_a_dialog_and_refused(tmp_path: Path) -> None:
    impostor = Impostor(IMPOSTOR, connections=2)
    try:
        app = make_app(keeper=GameKeeper(Places.resolve(tmp_path / "data")))
        app.online_on_mount = (impostor.name,)
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), LIMIT)
            dialog = app.screen
            assert isinstance(dialog, ConfirmScreen)
            text = dialog.question
            assert f"uid{IMPOSTOR}" in text and "can read and change every game" in text
            assert app.screen.focused is not None and app.screen.focused.id == "no"
            await pilot.press("n")
            await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen), LIMIT)
            lobby = app.screen
            assert isinstance(lobby, LobbyScreen)
            status = lobby.query_one("#status", Static)
            await wait_until(pilot, lambda: "chose not to use it" in str(status.render()), LIMIT)
            title = str(lobby.query_one("#title", Static).render())
            assert f"server of uid{IMPOSTOR}" in title
            await pilot.press("r")  # ask again
            await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), LIMIT)
            await pilot.press("n")
            await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen), LIMIT)
    finally:
        os.kill(impostor.pid, 9)
        assert impostor.received() == b""  # neither connection got as much as hello


async def test_a_game_waiting_to_be_resumed_opens_unplayable_and_says_why(
    tmp_path: Path,
) -> None:
    client = Client(lambda _: None, lambda _: None, socket="/nowhere")
    client.user, client.server = "ann", "new-server"
    session = OnlineSession(client)
    copy = GameCopy(
        origin="old-server:3",
        server="old-server",
        game=3,
        black="ann",
        white="bob",
        started="2026-11-26T09:00:00+00:00",
        moves="d3c5",
    )
    session.picture.resuming[copy.origin] = (copy, "waiting for bob to come back")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.game_screen
        lobby = LobbyScreen(session, screen.advisor, screen.glyphs)
        await app.push_screen(lobby)
        await pilot.pause()
        games = lobby.query_one("#games", DataTable)
        assert games.row_count == 1
        assert "waiting for bob" in str(games.get_row_at(0))
        games.focus()
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, OnlineGameScreen), LIMIT)
        online = app.screen
        assert isinstance(online, OnlineGameScreen)
        await pilot.pause()
        assert online.game.moves == online.link.move_list() and len(online.game.moves) == 2
        status = str(online.query_one("#status", Static).render())
        assert "not on this server yet" in status and "waiting for bob" in status
        assert not online.match.local_to_move  # no legal-move marks, no key plays a move
        await pilot.press("e", "6")
        await pilot.pause()
        assert len(online.game.moves) == 2
        await pilot.press("r", "t")  # no resigning or talking into a game not here
        await pilot.pause()
        assert app.screen is online
