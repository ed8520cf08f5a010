"""The Resume dialog: unfinished games offered first, resumed exactly, discarded on request."""

from __future__ import annotations

from pathlib import Path

from reversi_tui.engine import Game
from reversi_tui.engine.notation import parse_move_list
from reversi_tui.match import Match, MatchSettings, PlayerSpec
from reversi_tui.records.autosave import AutosaveStore
from reversi_tui.records.keeper import GameKeeper
from reversi_tui.records.paths import Places
from reversi_tui.tui.screens.confirm import ConfirmScreen
from reversi_tui.tui.screens.resume import ResumeScreen

from ..fakes import fake_sources
from .helpers import make_app, settle, ui, wait_until

AGAINST_HARD = MatchSettings(PlayerSpec.human(), PlayerSpec.computer("hard", 2.0))


def leave_game(places: Places, moves: str, *, undo: int = 0) -> None:
    """A game left unfinished by an earlier run (quit, or killed after its last save)."""
    keeper = GameKeeper(places)
    match = Match(AGAINST_HARD, fake_sources(), game=Game.from_moves(None, parse_move_list(moves)))
    keeper.attach(match)
    keeper.save_now()
    for _ in range(undo):
        match.undo()
    keeper.close()


def app_with(places: Places, **kwargs: object):  # type: ignore[no-untyped-def]
    keeper = GameKeeper(places)
    return make_app(keeper=keeper, offer=keeper.resumable(), **kwargs)


async def test_resume_restores_board_moves_players_and_undo(tmp_path: Path) -> None:
    places = Places.resolve(tmp_path)
    leave_game(places, "f5d6c3d3c4f4", undo=1)
    app = app_with(places)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ResumeScreen))
        assert app.screen.focused is not None and app.screen.focused.id == "resume"
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.screen is app.game_screen)
        await settle(app, pilot)
        match = ui(app).match
        assert match.game.move_list() == "f5d6c3d3"
        assert match.settings.white == PlayerSpec.computer("hard", 2.0)
        assert match.game.can_redo  # the redo stack came back too
        assert "Resumed at move 5" in ui(app).status
        await pilot.press("u")
        await settle(app, pilot)
        assert match.game.move_list() == "f5d6"


async def test_new_game_from_the_dialog_keeps_the_unfinished_one(tmp_path: Path) -> None:
    places = Places.resolve(tmp_path)
    leave_game(places, "f5d6c3")
    app = app_with(places)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ResumeScreen))
        await pilot.press("n")
        await wait_until(pilot, lambda: app.screen is app.game_screen)
        assert ui(app).match.game.move_list() == ""
    assert [i.saved.record.move_list() for i in GameKeeper(places).resumable()] == ["f5d6c3"]


async def test_discard_asks_then_removes_the_game(tmp_path: Path) -> None:
    places = Places.resolve(tmp_path)
    leave_game(places, "f5d6c3")
    leave_game(places, "f5f6")
    app = app_with(places)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ResumeScreen))
        dialog = app.screen
        assert isinstance(dialog, ResumeScreen) and len(dialog.games) == 2
        newest = dialog.games[0].saved.record.move_list()
        await pilot.press("d")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")  # keep it
        await wait_until(pilot, lambda: app.screen is dialog)
        assert len(dialog.games) == 2
        await pilot.press("d")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_until(pilot, lambda: app.screen is dialog and len(dialog.games) == 1)
    left = [i.saved.record.move_list() for i in GameKeeper(places).resumable()]
    assert newest not in left and len(left) == 1


async def test_a_game_open_elsewhere_is_not_offered(tmp_path: Path) -> None:
    places = Places.resolve(tmp_path)
    leave_game(places, "f5d6c3")
    elsewhere = GameKeeper(places)
    [item] = elsewhere.resumable()
    held = elsewhere.claim(item)
    assert held is not None
    try:
        assert GameKeeper(places).resumable() == []
        assert AutosaveStore(places.autosave_dir).claim(item) is None
    finally:
        held.close()
    assert len(GameKeeper(places).resumable()) == 1
