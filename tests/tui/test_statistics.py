"""The statistics screen (``s``, the palette's Statistics): the numbers of
``records.statistics`` per opponent, the recent games, and replaying one on the board.
At 80x24, in ASCII mode and with a damaged record in the database."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from textual import events
from textual.command import CommandPalette
from textual.pilot import Pilot
from textual.widgets import DataTable, Static

from reversi_tui.engine import Color, Game, parse_position, parse_square
from reversi_tui.match import GameRecord, PlayerSpec, Result, Termination
from reversi_tui.records.database import RecordsDatabase
from reversi_tui.records.keeper import GameKeeper
from reversi_tui.records.paths import Places
from reversi_tui.records.statistics import statistics
from reversi_tui.tui.app import ReversiApp
from reversi_tui.tui.screens.confirm import ConfirmScreen
from reversi_tui.tui.screens.game_over import GameOverScreen
from reversi_tui.tui.screens.statistics import StatisticsScreen, opponents_table, summary
from reversi_tui.tui.widgets.board_art import ASCII

from .helpers import LAST_MOVE, make_app, settle, ui, wait_until
from .test_ascii import non_ascii, screen_text

HUMAN = PlayerSpec.human()
HARD = PlayerSpec.computer("hard")
EASY = PlayerSpec.computer("easy")


def keeper_on(tmp_path: Path) -> GameKeeper:
    keeper = GameKeeper(Places.resolve(tmp_path / "data"))
    keeper.user = "ann"
    return keeper


def full_game(pick: int = 0) -> Game:
    """A game played to its end, each side taking its first (or last) legal move."""
    game = Game()
    while not game.is_over:
        moves = game.legal_moves
        game.play(moves[0] if pick == 0 else moves[-1])
    return game


def black_wins_34_30() -> Game:
    game = Game(parse_position(LAST_MOVE))
    game.play(parse_square("b8"))
    return game


def record(game: Game, black: PlayerSpec, white: PlayerSpec) -> GameRecord:
    return GameRecord.of(game, {Color.BLACK: black, Color.WHITE: white})


def fill(keeper: GameKeeper) -> None:
    """Ann (the login name here) against hard and easy, from both colours."""
    keeper.add_record(record(black_wins_34_30(), HUMAN, HARD))  # Ann wins as Black
    keeper.add_record(record(black_wins_34_30(), HARD, HUMAN))  # Ann loses as White
    keeper.add_record(record(full_game(), HUMAN, EASY))
    keeper.add_record(record(black_wins_34_30(), HUMAN, HARD))  # Ann wins as Black
    keeper.add_record(record(full_game(1), EASY, HARD))  # not Ann's: not counted


async def open_stats(app: ReversiApp, pilot: Pilot[int]) -> StatisticsScreen:
    await settle(app, pilot)
    await pilot.press("s")
    await wait_until(pilot, lambda: isinstance(app.screen, StatisticsScreen))
    await pilot.pause()
    assert isinstance(app.screen, StatisticsScreen)
    return app.screen


def text_of(screen: StatisticsScreen) -> str:
    return screen_text(screen.app)  # type: ignore[arg-type]


def recent_rows(screen: StatisticsScreen) -> list[list[str]]:
    table: DataTable[object] = screen.query_one("#recent", DataTable)
    return [[str(cell) for cell in table.get_row_at(i)] for i in range(table.row_count)]


async def test_the_numbers_per_opponent_are_those_of_records_statistics(tmp_path: Path) -> None:
    keeper = keeper_on(tmp_path)
    fill(keeper)
    assert keeper.places is not None
    with RecordsDatabase(keeper.places.database) as db:
        expected = statistics(list(db.all()), "ann", recent=20)
    hard = next(t for t in expected.opponents if t.opponent and t.opponent.name == "hard")
    assert (hard.games, hard.wins, hard.losses) == (3, 2, 1)  # the data is what we think
    app = make_app(keeper=keeper)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_stats(app, pilot)
        shown = text_of(screen)
        assert "Statistics of ann" in shown
        assert summary(expected).split(".")[0] in " ".join(shown.split())
        lines = shown.splitlines()
        hard_line = next(line for line in lines if "Computer (hard)" in line)
        assert hard_line.split()[2:8] == ["3", "2", "1", "0", "67%", f"{hard.average_score:.1f}"]
        assert "34-30" in hard_line  # the best final score
        assert any("Computer (easy)" in line for line in lines)
        assert any("All opponents" in line for line in lines)
        assert len(recent_rows(screen)) == 4  # the computers' own game is not Ann's


async def test_recent_games_newest_first_with_verdict_words(tmp_path: Path) -> None:
    keeper = keeper_on(tmp_path)
    fill(keeper)
    app = make_app(keeper=keeper)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_stats(app, pilot)
        rows = recent_rows(screen)
        assert rows[0][1:4] == ["Black", "Computer (hard)", "Won"]
        assert rows[2][1:4] == ["White", "Computer (hard)", "Lost"]
        assert rows[2][4] == "30-34"
        assert screen.query_one("#recent", DataTable).has_focus


def hard_resigns_after_three_moves() -> GameRecord:
    """Ann (Black) against hard, who resigns with 5-2 on the board: 62-2 as scores go."""
    game = Game.from_moves(None, [parse_square(s) for s in ("f5", "d6", "c3")])
    outcome = game.position.outcome()
    result = Result.forfeit(Color.WHITE, Termination.RESIGNATION, outcome)
    return GameRecord.of(game, {Color.BLACK: HUMAN, Color.WHITE: HARD}, result=result)


async def test_a_resignation_says_so_with_its_final_score(tmp_path: Path) -> None:
    keeper = keeper_on(tmp_path)
    keeper.add_record(hard_resigns_after_three_moves())
    keeper.add_record(record(black_wins_34_30(), HUMAN, HARD))
    app = make_app(keeper=keeper)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_stats(app, pilot)
        rows = recent_rows(screen)
        assert rows[0][3:5] == ["Won", "34-30"]
        assert rows[1][3:5] == ["Won by resignation", "62-2"]
        shown = " ".join(text_of(screen).split())
        assert "2 games: 2 won (1 by resignation), 0 lost, 0 drawn (100% won)" in shown
        table = screen.query_one("#recent", DataTable)
        assert table.virtual_size.width <= table.region.width  # the longer words fit


async def test_enter_replays_a_recent_game_and_review_steps_through_it(tmp_path: Path) -> None:
    keeper = keeper_on(tmp_path)
    game = full_game()
    keeper.add_record(record(game, HUMAN, EASY))
    keeper.add_record(record(black_wins_34_30(), HUMAN, HARD))
    app = make_app(keeper=keeper)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_stats(app, pilot)
        await pilot.press("down", "enter")  # the older one: the whole game
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        screen = ui(app)
        assert screen.game.move_list() == game.move_list()
        assert screen.match.settings.white == EASY
        await pilot.press("r")
        await wait_until(pilot, lambda: screen.reviewing)
        await pilot.press("home", "right", "right")
        assert screen.review is not None and screen.review.index == 2
        assert "Move 2 of" in screen.status
        await pilot.press("p")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await wait_until(pilot, lambda: app.screen is screen and not screen.reviewing)
        assert len(screen.game.plies) >= 2 and not screen.match.is_over


async def test_down_then_enter_in_one_burst_replays_the_game_moved_to(tmp_path: Path) -> None:
    keeper = keeper_on(tmp_path)
    game = full_game()
    keeper.add_record(record(game, HUMAN, EASY))
    keeper.add_record(record(black_wins_34_30(), HUMAN, HARD))
    app = make_app(keeper=keeper)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_stats(app, pilot)
        # As a terminal sends them: at once, not one key per frame as Pilot.press does.
        app.post_message(events.Key("down", None))
        app.post_message(events.Key("enter", "\r"))
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        assert ui(app).game.move_list() == game.move_list()


async def test_replaying_over_a_game_in_progress_asks_first(tmp_path: Path) -> None:
    keeper = keeper_on(tmp_path)
    keeper.add_record(record(black_wins_34_30(), HUMAN, HARD))
    app = make_app(moves="f5d6", keeper=keeper)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_stats(app, pilot)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")
        await wait_until(pilot, lambda: app.screen is ui(app))
        assert ui(app).game.move_list() == "f5d6"


async def test_escape_or_s_closes_and_the_game_goes_on(tmp_path: Path) -> None:
    keeper = keeper_on(tmp_path)
    fill(keeper)
    app = make_app(moves="f5d6", keeper=keeper)
    async with app.run_test(size=(80, 24)) as pilot:
        for key in ("escape", "s"):
            await open_stats(app, pilot)
            await pilot.press(key)
            await wait_until(pilot, lambda: app.screen is ui(app))
            assert ui(app).game.move_list() == "f5d6"


async def test_no_records_yet_says_so(tmp_path: Path) -> None:
    keeper = keeper_on(tmp_path)
    app = make_app(keeper=keeper)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_stats(app, pilot)
        assert "No finished games of ann recorded yet" in " ".join(text_of(screen).split())
        assert not screen.query(DataTable)
        assert keeper.places is not None and not keeper.places.database.exists()  # not made


async def test_damaged_records_are_skipped_or_refused_with_a_message(tmp_path: Path) -> None:
    keeper = keeper_on(tmp_path)
    fill(keeper)
    assert keeper.places is not None
    with sqlite3.connect(keeper.places.database) as db:
        db.execute("UPDATE games SET termination = 'bogus' WHERE id = 1")
        db.execute("UPDATE games SET moves = 'a1 a1' WHERE id = 4")  # reads, does not replay
    app = make_app(moves="f5", keeper=keeper)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_stats(app, pilot)
        problems = screen.query_one("#problems", Static)
        assert problems.display and "damaged" in str(problems.render())
        assert len(recent_rows(screen)) == 3
        await pilot.press("enter")  # the newest: game 4, whose moves do not replay
        await wait_until(pilot, lambda: app.screen is ui(app))  # nothing to confirm
        assert ui(app).status.startswith("Not opened:") and "replay" in ui(app).status
        assert ui(app).game.move_list() == "f5"


async def test_a_newer_database_is_one_line_not_a_crash(tmp_path: Path) -> None:
    keeper = keeper_on(tmp_path)
    fill(keeper)
    assert keeper.places is not None
    with sqlite3.connect(keeper.places.database) as db:
        db.execute("PRAGMA user_version = 999")
    app = make_app(keeper=keeper)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_stats(app, pilot)
        assert "newer version" in str(screen.query_one("#problems", Static).render())


async def test_the_palette_opens_statistics(tmp_path: Path) -> None:
    keeper = keeper_on(tmp_path)
    app = make_app(keeper=keeper)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("ctrl+p")
        await wait_until(pilot, lambda: isinstance(app.screen, CommandPalette))
        await pilot.press(*"statistics")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, StatisticsScreen))


@pytest.mark.parametrize("ascii_only", [False, True], ids=["unicode", "ascii"])
async def test_it_fits_80x24_and_ascii_mode_is_ascii(tmp_path: Path, ascii_only: bool) -> None:
    keeper = keeper_on(tmp_path)
    for level in ("easy", "medium", "hard", "expert"):
        keeper.add_record(record(black_wins_34_30(), HUMAN, PlayerSpec.computer(level)))
    keeper.add_record(record(black_wins_34_30(), HUMAN, HUMAN))  # Ann against herself
    for _ in range(20):
        keeper.add_record(record(full_game(), EASY, HUMAN))
    app = make_app(keeper=keeper, glyphs=ASCII) if ascii_only else make_app(keeper=keeper)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_stats(app, pilot)
        text = text_of(screen)
        for widget in screen.query("Static, DataTable"):
            assert screen.region.contains_region(widget.region), widget
        table = screen.query_one("#recent", DataTable)
        assert table.region.height >= 4  # several recent games in view
        assert table.virtual_size.width <= table.region.width  # no sideways scrolling
        opponents = screen.query_one("#opponents", Static)
        assert opponents.region.height >= 5 and "Computer (expert)" in text
        assert "Enter" in text.splitlines()[-1] and "Close" in text.splitlines()[-1]
        if ascii_only:
            assert non_ascii(text) == ""
            assert app.ascii_filter is not None and not app.ascii_filter.replaced
        else:
            assert non_ascii(text)  # the check above can fail


def test_the_opponents_table_has_a_total_only_for_several_opponents(tmp_path: Path) -> None:
    keeper = keeper_on(tmp_path)
    keeper.add_record(record(black_wins_34_30(), HUMAN, HARD))
    assert keeper.places is not None
    with RecordsDatabase(keeper.places.database) as db:
        one = statistics(list(db.all()), "ann")
    table = opponents_table(one, ascii_only=True)
    assert table.row_count == 1
