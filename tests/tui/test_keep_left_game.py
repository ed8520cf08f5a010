"""A game in progress left for another (``n``, Ctrl+O, a replay from the statistics)
is kept for resuming, as quitting keeps it (issue 17)."""

from __future__ import annotations

from pathlib import Path

from reversi_tui.engine import Color, Game, parse_position, parse_square
from reversi_tui.match import GameRecord, PlayerSpec
from reversi_tui.records.formats import write_game
from reversi_tui.records.keeper import GameKeeper
from reversi_tui.records.paths import Places
from reversi_tui.tui.app import ReversiApp
from reversi_tui.tui.screens.confirm import ConfirmScreen
from reversi_tui.tui.screens.help import help_notes
from reversi_tui.tui.screens.new_game import NewGameScreen
from reversi_tui.tui.screens.open_game import OpenGameScreen
from reversi_tui.tui.screens.statistics import StatisticsScreen

from .helpers import LAST_MOVE, make_app, settle, ui, wait_until

OPENING = "f5d6c3d3c4"
HUMANS = {Color.BLACK: PlayerSpec.human(), Color.WHITE: PlayerSpec.human()}
KEPT = "The game you left is kept: reversi offers it again next time."


def offered(places: Places) -> list[str]:
    """The move lists a later ``reversi`` offers to resume."""
    return [item.saved.record.move_list() for item in GameKeeper(places).resumable()]


def app_on(places: Places) -> ReversiApp:
    return make_app(moves=OPENING, keeper=GameKeeper(places))


async def test_a_new_game_keeps_the_one_in_progress(tmp_path: Path) -> None:
    places = Places.resolve(tmp_path / "data")
    app = app_on(places)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("n")
        await wait_until(pilot, lambda: isinstance(app.screen, NewGameScreen))
        note = str(app.screen.query_one("#new-game-note").render())
        assert "kept" in note and "ends the current game" not in note
        await pilot.press("y")
        await wait_until(pilot, lambda: app.screen is ui(app) and not ui(app).game.plies)
        assert ui(app).status.endswith(KEPT)
        await pilot.press("enter")  # a move in the new game: it is kept too
        await wait_until(pilot, lambda: len(ui(app).game.plies) == 1)
        second = ui(app).game.move_list()
        await pilot.press("q", "y")
    assert sorted(offered(places)) == sorted([OPENING, second])


async def test_opening_a_file_keeps_the_game_in_progress(tmp_path: Path) -> None:
    places = Places.resolve(tmp_path / "data")
    places.games_dir.mkdir(parents=True)
    one = GameRecord.of(Game.from_moves(None, [parse_square("f5")]), HUMANS)
    (places.games_dir / "one.pgn").write_text(write_game(one, "pgn"))
    app = app_on(places)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("ctrl+o")
        await wait_until(pilot, lambda: isinstance(app.screen, OpenGameScreen))
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        assert "kept" in dialog.question and "dropped" not in dialog.question
        await pilot.press("y")
        await wait_until(pilot, lambda: ui(app).game.move_list() == "f5")
        assert ui(app).status.endswith(KEPT)
    assert offered(places) == [OPENING]


async def test_replaying_a_recorded_game_keeps_the_game_in_progress(tmp_path: Path) -> None:
    places = Places.resolve(tmp_path / "data")
    finished = Game(parse_position(LAST_MOVE))
    finished.play(parse_square("b8"))
    GameKeeper(places).add_record(GameRecord.of(finished, HUMANS))
    app = app_on(places)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("s")
        await wait_until(pilot, lambda: isinstance(app.screen, StatisticsScreen))
        await pilot.pause()
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_until(pilot, lambda: ui(app).game.is_over)
    assert offered(places) == [OPENING]


def test_the_help_says_a_game_left_is_kept() -> None:
    (note,) = [n for n in help_notes(mouse=False) if "left unfinished" in n]
    assert "n, Ctrl+O" in note and "resume" in note
