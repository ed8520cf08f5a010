"""The analysis screen (issue 21): opened from the game-over dialog (``a``), a game
(``A``) or the statistics (``a``); a progress bar that Esc cancels at once; then the
board, the panel and the graph, walked with the keys of ``ANALYSIS_KEYS``.

The searches run on a small budget (``QUICK``) so each analysis takes about a second.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from textual.binding import Binding
from textual.pilot import Pilot
from textual.widgets import ProgressBar

from reversi_tui.engine import (
    PASS,
    Color,
    Game,
    Move,
    Position,
    parse_position,
    parse_square,
    square_name,
)
from reversi_tui.engine.ai import analysis as engine
from reversi_tui.engine.ai.analysis import AnalysisOptions, GameAnalysis, analyse_game
from reversi_tui.engine.ai.result import SearchCancelled
from reversi_tui.engine.notation import parse_move_list
from reversi_tui.match import GameRecord, PlayerSpec
from reversi_tui.records.analysis_cache import AnalysisCache
from reversi_tui.records.keeper import GameKeeper
from reversi_tui.records.paths import Places
from reversi_tui.screenshots import ANALYSED_GAME
from reversi_tui.tui import keys
from reversi_tui.tui.app import ReversiApp
from reversi_tui.tui.keys import ANALYSIS_HELP, ANALYSIS_KEYS, help_rows
from reversi_tui.tui.screens import analysis as screen_module
from reversi_tui.tui.screens.analysis import AnalysisScreen, line_positions, short_value
from reversi_tui.tui.screens.confirm import ConfirmScreen
from reversi_tui.tui.screens.game import GameScreen
from reversi_tui.tui.screens.game_over import GameOverScreen
from reversi_tui.tui.screens.help import ANALYSIS_KEYS as HELP_ROWS
from reversi_tui.tui.screens.help import AnalysisHelpScreen
from reversi_tui.tui.screens.statistics import StatisticsScreen
from reversi_tui.tui.widgets.board_art import ASCII
from reversi_tui.tui.widgets.eval_graph import (
    ASCII_MARKS,
    GUTTER,
    UNICODE_MARKS,
    EvalGraph,
    GraphData,
    column_points,
    graph_cells,
)

from .helpers import make_app, settle, ui, wait_until
from .test_ascii import non_ascii, screen_text

#: Black to move with 13 empty squares (from ``ANALYSED_GAME``).
THIRTEEN_EMPTIES = "XOXXXXXXOOOOXXXXOOXXOXOXOOOXOXXXOXXXOOXXOOOOOOOX--O-O--X-------- X"
#: A budget that analyses a whole game in about a second.
QUICK = AnalysisOptions(time_per_move=0.02, exact_empties=8)
#: Waiting on an analysis: generous, the CPU is shared.
LIMIT = 60.0
NAMES = {Color.BLACK: "Ann", Color.WHITE: "Computer (easy)"}


def the_game() -> Game:
    return Game.from_moves(None, parse_move_list(ANALYSED_GAME))


@pytest.fixture(scope="module")
def analysed() -> GameAnalysis:
    """The game's analysis, searched once for the tests that only look at it."""
    game = the_game()
    return analyse_game(game.start, game.moves, QUICK)


def keeper_on(tmp_path: Path) -> GameKeeper:
    keeper = GameKeeper(Places.resolve(tmp_path / "data"))
    keeper.user = "ann"
    return keeper


def data_dir(keeper: GameKeeper) -> Path:
    assert keeper.places is not None
    return keeper.places.data


async def show(
    app: ReversiApp, pilot: Pilot[int], analysis: GameAnalysis, initial: int | None = None
) -> AnalysisScreen:
    """The analysis screen over the game, with the analysis already done."""
    await settle(app, pilot)
    game = the_game()
    screen = AnalysisScreen(
        game.start,
        game.plies,
        NAMES,
        None,
        QUICK,
        glyphs=ui(app).glyphs,
        analysis=analysis,
        initial=initial,
    )
    await app.push_screen(screen, ui(app)._analysed)  # as the game screen opens it
    await pilot.pause()
    return screen


async def game_over(app: ReversiApp, pilot: Pilot[int]) -> GameOverScreen:
    await settle(app, pilot)
    ui(app).analysis_options = QUICK
    ui(app).play_on(the_game())
    await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
    assert isinstance(app.screen, GameOverScreen)
    return app.screen


def panel(screen: AnalysisScreen) -> str:
    return screen_text(screen.app)  # type: ignore[arg-type]


def headline(screen: AnalysisScreen) -> str:
    """The panel's move line: ``Move 8, White b6: ...``, or the end's words."""
    lines = [line[38:].strip() for line in panel(screen).splitlines()]
    return next(line for line in lines if line.startswith(("Move ", "The end", "The position")))


def current_columns(graph: EvalGraph) -> list[int]:
    """The plot columns drawn as the current ply's."""
    cells = graph.cells()[1][1:]  # the gutter is the first cell
    return [x for x, (_, names) in enumerate(cells) if "current" in names]


def assert_graph_at(screen: AnalysisScreen, index: int) -> None:
    graph = screen.graph
    assert graph.current == index
    spans = column_points(len(graph.data.values), graph.size.width - GUTTER)
    columns = current_columns(graph)
    assert columns and all(index in spans[x] for x in columns)
    top = graph.cells()[0][1 + columns[0]][0]
    assert top in ("▼", *UNICODE_MARKS.classes.values())


# Opening it, the progress bar, cancelling ------------------------------------------------
class Gated:
    """Stands in for ``analyse_game``: reports one position, then waits for the gate
    (or its stop check) and runs the real analysis."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.calls = 0
        self.stopped = threading.Event()
        self.real = engine.analyse_game

    def __call__(
        self,
        start: Position,
        moves: Sequence[Move],
        options: AnalysisOptions | None = None,
        progress: Callable[[int, int], None] | None = None,
        should_stop: Callable[[], bool] | None = None,
    ) -> GameAnalysis:
        self.calls += 1
        assert progress is not None and should_stop is not None
        progress(1, len(moves))
        while not self.gate.wait(0.005):
            if should_stop():
                self.stopped.set()
                raise SearchCancelled
        return self.real(start, moves, options, progress, should_stop)


async def test_a_in_the_game_over_dialog_analyses_behind_a_progress_bar(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gated = Gated()
    monkeypatch.setattr(engine, "analyse_game", gated)
    keeper = keeper_on(tmp_path)
    app = make_app(keeper=keeper)
    async with app.run_test(size=(80, 24)) as pilot:
        over = await game_over(app, pilot)
        assert over.query_one("#analyse").label.plain == "Analyse (a)"
        await pilot.press("a")
        await wait_until(pilot, lambda: isinstance(app.screen, AnalysisScreen))
        screen = app.screen
        assert isinstance(screen, AnalysisScreen)
        bar = screen.query_one(ProgressBar)
        await wait_until(pilot, lambda: bar.progress == 1)
        assert bar.display and bar.region.width > 20 and bar.total == len(the_game().moves)
        text = panel(screen)
        assert "Esc cancels" in text and "Position 2 of 61" in text
        assert not screen.board.region  # the review waits for the analysis
        gated.gate.set()
        await wait_until(pilot, lambda: not screen.analysing, LIMIT)
        await pilot.pause()
        assert not bar.region and screen.board.region
        assert headline(screen).startswith("Move 1, Black f5")
        game = the_game()
        cached = AnalysisCache(data_dir(keeper)).get(game.start, game.moves, QUICK)
        assert cached is not None and cached.moves == tuple(game.moves)
        assert ui(app).reviewing  # under the analysis, the game is in review
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, GameScreen))
    assert gated.calls == 1


async def test_escape_during_the_analysis_returns_at_once_and_the_worker_ends(
    tmp_path: Path,
) -> None:
    keeper = keeper_on(tmp_path)
    app = make_app(keeper=keeper)
    async with app.run_test(size=(80, 24)) as pilot:
        await game_over(app, pilot)
        ui(app).analysis_options = AnalysisOptions(time_per_move=2.0)  # minutes in all
        await pilot.press("a")
        await wait_until(pilot, lambda: isinstance(app.screen, AnalysisScreen))
        screen = app.screen
        assert isinstance(screen, AnalysisScreen)
        worker = screen.worker
        assert worker is not None
        await wait_until(pilot, lambda: worker.is_running)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)  # back at once
        await wait_until(pilot, lambda: worker.is_finished, 5.0)
        assert not (data_dir(keeper) / "analyses").exists() or not any(
            (data_dir(keeper) / "analyses").iterdir()
        )


async def test_a_cached_analysis_opens_without_searching(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, analysed: GameAnalysis
) -> None:
    keeper = keeper_on(tmp_path)
    AnalysisCache(data_dir(keeper)).put(analysed)
    calls: list[object] = []

    def counted(*args: Any, **kwargs: Any) -> GameAnalysis:
        calls.append(args)
        raise AssertionError("searched again")

    monkeypatch.setattr(engine, "analyse_game", counted)
    app = make_app(keeper=keeper)
    async with app.run_test(size=(80, 24)) as pilot:
        await game_over(app, pilot)
        await pilot.press("a")
        await wait_until(pilot, lambda: isinstance(app.screen, AnalysisScreen))
        screen = app.screen
        assert isinstance(screen, AnalysisScreen)
        assert not screen.analysing and screen.worker is None
        await pilot.pause()
        assert headline(screen).startswith("Move 1, Black f5")
    assert calls == []


async def test_an_analysis_that_cannot_be_kept_is_a_notice(tmp_path: Path) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a directory")
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(app, pilot)
        game = the_game()
        screen = AnalysisScreen(game.start, game.plies, NAMES, blocked, QUICK)
        await app.push_screen(screen)
        await wait_until(pilot, lambda: not screen.analysing, LIMIT)
        await pilot.pause()
        assert any("not kept" in n.message for n in app._notifications)
        assert headline(screen).startswith("Move 1")


# Walking the game ----------------------------------------------------------------------
async def test_the_arrows_home_and_end_move_the_ply_in_the_panel_and_the_graph(
    analysed: GameAnalysis,
) -> None:
    app = make_app()
    game = the_game()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await show(app, pilot, analysed)
        assert screen.index == 0 and headline(screen).startswith("Move 1, Black f5: ")
        assert_graph_at(screen, 0)
        await pilot.press("right", "right", "right")
        assert screen.index == 3
        review = analysed.reviews[3]
        assert headline(screen).startswith(
            f"Move 4, White {square_name(review.played)}: {review.played_value:+.1f}"
        )
        assert_graph_at(screen, 3)
        assert screen.board.view.position == game.plies[2].after
        assert screen.board.view.last_move == game.plies[2].move
        await pilot.press("left")
        assert screen.index == 2 and headline(screen).startswith("Move 3, Black")
        await pilot.press("end")
        assert screen.index == len(game.plies)
        assert headline(screen) == "The end: Black won, Black 44, White 20"
        assert_graph_at(screen, len(game.plies))
        assert screen.board.view.position == game.position
        await pilot.press("right")
        assert "At the end of the game." in panel(screen)
        await pilot.press("home")
        assert screen.index == 0 and screen.board.view.position == game.start
        assert_graph_at(screen, 0)


async def test_the_board_marks_the_played_and_the_best_move(analysed: GameAnalysis) -> None:
    error = analysed.errors()[0]
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await show(app, pilot, analysed, error.ply)
        notes = {sq: (text, style) for sq, text, style in screen.board.view.notes}
        assert notes == {error.played: ("◆", "played"), error.best: ("★", "best")}
        assert not screen.board.view.show_cursor and not screen.board.view.markers
        assert f"best {square_name(error.best)} {error.best_value:+.1f}" in panel(screen)
        assert error.klass.value in headline(screen)


@pytest.mark.parametrize(
    ("key", "side", "step"),
    [
        ("n", None, 1),
        ("N", None, -1),
        ("b", Color.BLACK, 1),
        ("B", Color.BLACK, -1),
        ("w", Color.WHITE, 1),
        ("W", Color.WHITE, -1),
    ],
)
async def test_the_error_keys_jump_to_the_errors(
    analysed: GameAnalysis, key: str, side: Color | None, step: int
) -> None:
    plies = [r.ply for r in analysed.errors(side)]
    assert len(plies) >= 2
    start = 0 if step > 0 else len(analysed.reviews)
    expected = plies if step > 0 else plies[::-1]
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await show(app, pilot, analysed)
        if step < 0:
            await pilot.press("end")
        assert screen.index == start
        for ply in expected[:3]:
            await pilot.press(key)
            assert screen.index == ply
            assert analysed.reviews[ply].klass.value in headline(screen)
            assert_graph_at(screen, ply)
        for _ in expected[3:]:
            await pilot.press(key)
        assert screen.index == expected[-1]
        await pilot.press(key)
        assert screen.index == expected[-1]
        assert "No error of" in panel(screen)


async def test_v_writes_every_legal_moves_value_on_its_square(analysed: GameAnalysis) -> None:
    review = next(r for r in analysed.errors() if len(r.values) >= 3)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await show(app, pilot, analysed, review.ply)
        await pilot.press("v")
        notes = {sq: (text, style) for sq, text, style in screen.board.view.notes}
        legal = the_game().plies[review.ply].before.legal_moves
        assert set(notes) == set(legal)
        for move in legal:
            text, _style = notes[move]
            assert text.split("\n")[0] == short_value(review.values[move])
        assert notes[review.played][1] == "played" and notes[review.best][1] == "best"
        await pilot.press("v")
        assert len(screen.board.view.notes) == 2


async def test_v_finds_the_values_the_analysis_lacks_with_an_ellipsis_meanwhile(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """From 11 or 12 empties the analysis has only the best and the played move's."""
    game = Game(parse_position(THIRTEEN_EMPTIES))
    while not game.is_over:
        game.play(game.legal_moves[0])
    options = AnalysisOptions(time_per_move=0.02, exact_empties=12)
    analysis = analyse_game(game.start, game.moves, options)
    ply = next(
        i
        for i, r in enumerate(analysis.reviews)
        if len(r.values) < len(game.plies[i].before.legal_moves)
    )
    gate = threading.Event()
    real = screen_module.move_values

    def slow(
        position: Position, opts: AnalysisOptions, stop: Callable[[], bool]
    ) -> dict[Move, float]:
        while not gate.wait(0.005):
            if stop():
                raise SearchCancelled
        return real(position, opts, stop)

    monkeypatch.setattr(screen_module, "move_values", slow)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = AnalysisScreen(
            game.start, game.plies, NAMES, None, options, analysis=analysis, initial=ply
        )
        await app.push_screen(screen)
        await pilot.pause()
        await pilot.press("v")
        texts = [text.split("\n")[0] for _, text, _ in screen.board.view.notes]
        assert "…" in texts and "Finding every move's value" in panel(screen)
        gate.set()
        await wait_until(pilot, lambda: ply in screen.found_values, LIMIT)
        await pilot.pause()
        texts = [text.split("\n")[0] for _, text, _ in screen.board.view.notes]
        assert "…" not in texts
        legal = game.plies[ply].before.legal_moves
        assert len(texts) == len(legal)


async def test_l_walks_the_best_line_and_esc_leaves_it(analysed: GameAnalysis) -> None:
    review = next(r for r in analysed.errors() if len(r.pv) >= 3)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await show(app, pilot, analysed, review.ply)
        before = the_game().plies[review.ply].before
        along = line_positions(before, review.pv)
        await pilot.press("l")
        assert screen.line_step == 1 and screen.board.view.position == along[1]
        assert "(1 of" in panel(screen)
        await pilot.press("right", "right")
        assert screen.line_step == 3 and screen.board.view.position == along[3]
        await pilot.press("left")
        assert screen.board.view.position == along[2]
        assert screen.index == review.ply  # the game's ply stays
        await pilot.press("escape")
        assert screen.line_step is None and app.screen is screen
        assert screen.board.view.position == before
        await pilot.press("l", "l")
        assert screen.line_step is None
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, GameScreen))


async def test_a_click_on_the_graph_shows_that_move(analysed: GameAnalysis) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await show(app, pilot, analysed)
        graph = screen.graph
        spans = column_points(len(graph.data.values), graph.size.width - GUTTER)
        x = next(i for i, span in enumerate(spans) if span.start >= 30)
        target = spans[x].start
        target += 1 if the_game().moves[target] == PASS else 0
        await pilot.click(EvalGraph, offset=(GUTTER + x, 3))
        await pilot.pause()
        assert screen.index == target
        assert_graph_at(screen, target)


async def test_p_plays_on_from_the_position_shown(analysed: GameAnalysis) -> None:
    app = make_app()
    game = the_game()
    async with app.run_test(size=(80, 24)) as pilot:
        await show(app, pilot, analysed, 10)
        await pilot.press("p")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "Play on from move 11" in screen_text(app)
        await pilot.press("y")
        await wait_until(pilot, lambda: isinstance(app.screen, GameScreen))
        await pilot.pause()
        assert ui(app).game.moves == game.moves[:10]
        assert not ui(app).game.is_over and not ui(app).reviewing
        assert "Playing on from move 11" in ui(app).status


async def test_p_in_the_line_plays_on_from_the_lines_position(analysed: GameAnalysis) -> None:
    review = next(r for r in analysed.errors() if len(r.pv) >= 2)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await show(app, pilot, analysed, review.ply)
        await pilot.press("l", "right", "p")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_until(pilot, lambda: isinstance(app.screen, GameScreen))
        await pilot.pause()
        moves = [m for m in the_game().moves[: review.ply]] + list(review.pv[:2])
        assert ui(app).game.position == Game.from_moves(None, moves).position


# Sizes, ASCII, keys ----------------------------------------------------------------------
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_keyboard_alone_walks_it_and_everything_fits(
    analysed: GameAnalysis, size: tuple[int, int]
) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        screen = await show(app, pilot, analysed)
        for widget in (screen.board, screen.graph, screen.query_one("#analysis-panel")):
            assert screen.region.contains_region(widget.region) and widget.region.area, widget
        assert screen.graph.region.height >= 7 and screen.graph.region.width >= 38
        board = screen.board.region
        assert not board.overlaps(screen.graph.region)
        for key in ("n", "n", "v", "l", "right", "escape", "w", "b", "end", "home", "N"):
            await pilot.press(key)
        text = screen_text(app)
        footer = text.splitlines()[-1]
        for shown in ("Help", "n b w", "Errors", "Values", "Line", "Play on", "Close"):
            assert shown in footer, shown
        assert "Turning point" in text and "accuracy" in text
        assert screen.focused is None  # no widget takes the keys from the screen


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_ascii_mode_is_ascii(analysed: GameAnalysis, size: tuple[int, int]) -> None:
    app = make_app(glyphs=ASCII)
    async with app.run_test(size=size) as pilot:
        await show(app, pilot, analysed, analysed.errors()[0].ply)
        await pilot.press("v")
        text = screen_text(app)
        assert non_ascii(text) == ""
        assert app.ascii_filter is not None and not app.ascii_filter.replaced
        assert "@" in text or "!" in text
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, AnalysisHelpScreen))
        await pilot.pause()
        assert non_ascii(screen_text(app)) == ""
        assert not app.ascii_filter.replaced


async def test_the_progress_bar_in_ascii_is_ascii(monkeypatch: pytest.MonkeyPatch) -> None:
    gated = Gated()
    monkeypatch.setattr(engine, "analyse_game", gated)
    app = make_app(glyphs=ASCII)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        game = the_game()
        screen = AnalysisScreen(game.start, game.plies, NAMES, None, QUICK, glyphs=ASCII)
        await app.push_screen(screen)
        await wait_until(pilot, lambda: screen.query_one(ProgressBar).progress == 1)
        await pilot.pause()
        text = screen_text(app)
        assert "-" * 40 in text and "Position 2 of 61..." in text
        assert non_ascii(text) == ""
        assert app.ascii_filter is not None and not app.ascii_filter.replaced
        await pilot.press("escape")
        await wait_until(pilot, gated.stopped.is_set, 5.0)


def test_the_graph_in_ascii_is_pure_ascii_and_unicode_is_not() -> None:
    values = tuple(float(v) for v in (0, 4, -8, 12, 30, -40, 64, -64, 2, 0))
    errors = {1: ("white", "mistake"), 2: ("black", "blunder"), 5: ("white", "inaccuracy")}
    data = GraphData(values, errors)
    for width, height in ((20, 5), (41, 7), (65, 13), (8, 3)):
        for current in (0, 4, 9):
            rows = graph_cells(data, width, height, current, ASCII_MARKS)
            ascii_text = "".join(c for row in rows for c, _ in row)
            assert ascii_text.isascii(), (width, height)
            assert len(ascii_text) == width * height
    unicode_text = "".join(c for row in graph_cells(data, 41, 7, 4, UNICODE_MARKS) for c, _ in row)
    assert "█" in unicode_text and "✗" in unicode_text and "▲" in unicode_text


def test_the_graph_marks_errors_by_side_and_the_current_ply() -> None:
    errors = {0: ("black", "inaccuracy"), 1: ("white", "blunder")}
    data = GraphData((0.0, 10.0, -10.0, 0.0), errors)
    rows = graph_cells(data, 4, 7, 2, ASCII_MARKS)  # too narrow for the scale: no gutter
    text = ["".join(c for c, _ in row) for row in rows]
    assert text[0] == ". v "  # Black's error above, the current ply's marker
    assert text[-1] == " X^ "  # White's below
    assert text[3] == "--+-"  # the zero line, crossed at the current ply
    assert text[1][1] == "#" and text[5][2] == "#"  # Black ahead up, White ahead down
    assert all("current" in rows[y][2][1] for y in range(7))


def test_the_analysis_keys_are_the_tables() -> None:
    made = {b.key: b.action for b in Binding.make_bindings(AnalysisScreen.BINDINGS)}
    table = {
        b.key: b.action
        for b in Binding.make_bindings([action.binding() for action in ANALYSIS_KEYS])
    }
    assert made == table
    for key in ("left", "right", "home", "end", "n", "N", "b", "B", "w", "W", "v", "l", "p"):
        assert key in made, key
    for action in ANALYSIS_KEYS:
        assert hasattr(AnalysisScreen, action.method), action
    assert help_rows(ANALYSIS_HELP) == HELP_ROWS
    assert len({row for row, _ in HELP_ROWS}) == len(HELP_ROWS)
    assert ("A", keys.ANALYSE.help) in help_rows(keys.GAME_HELP)


async def test_the_help_lists_the_keys_and_closes(analysed: GameAnalysis) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await show(app, pilot, analysed)
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, AnalysisHelpScreen))
        await pilot.pause()
        text = screen_text(app)
        assert "n N" in text and "the next / previous error" in text
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)


# The other ways in -----------------------------------------------------------------------
async def test_A_analyses_a_game_in_progress_and_a_stays_a_column_key() -> None:
    app = make_app(moves="f5d6c3d3c4f4")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        ui(app).analysis_options = QUICK
        await pilot.press("a", "4")
        assert ui(app).board.cursor == parse_square("a4")
        await pilot.press("A")
        await wait_until(pilot, lambda: isinstance(app.screen, AnalysisScreen))
        screen = app.screen
        assert isinstance(screen, AnalysisScreen)
        await wait_until(pilot, lambda: not screen.analysing, LIMIT)
        await pilot.press("end")
        assert screen.index == 6 and headline(screen).startswith("The position now:")
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, GameScreen))
        assert ui(app).match.in_progress and len(ui(app).game.moves) == 6


async def test_A_before_any_move_says_there_is_nothing_to_analyse() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("A")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert "Nothing to analyse yet" in ui(app).status


async def test_a_in_the_statistics_analyses_the_chosen_game_and_p_plays_on(
    tmp_path: Path,
) -> None:
    keeper = keeper_on(tmp_path)
    game = the_game()
    human, easy = PlayerSpec.human(), PlayerSpec.computer("easy")
    keeper.add_record(GameRecord.of(game, {Color.BLACK: human, Color.WHITE: easy}))
    app = make_app(keeper=keeper)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("s")
        await wait_until(pilot, lambda: isinstance(app.screen, StatisticsScreen))
        stats = app.screen
        assert isinstance(stats, StatisticsScreen)
        stats.analysis_options = QUICK
        await pilot.pause()
        assert "Analyse" in screen_text(app).splitlines()[-1]
        await pilot.press("a")
        await wait_until(pilot, lambda: isinstance(app.screen, AnalysisScreen))
        screen = app.screen
        assert isinstance(screen, AnalysisScreen)
        await wait_until(pilot, lambda: not screen.analysing, LIMIT)
        # An analysis found in the cache is shown at once, but painted a moment later.
        await wait_until(pilot, lambda: "ann (Black) v" in screen_text(app))
        await pilot.press("right", "right", "p")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_until(pilot, lambda: isinstance(app.screen, GameScreen))
        await pilot.pause()
        assert ui(app).game.moves == game.moves[:2]
        assert not any(isinstance(s, StatisticsScreen) for s in app.screen_stack)
        cached = AnalysisCache(data_dir(keeper)).get(game.start, game.moves, QUICK)
        assert cached is not None


def test_online_games_are_analysed_once_over_and_never_played_on_from() -> None:
    """``A`` is bound in an online game too (once it is over); its game-over dialog
    offers Analyse like the local one, and the analysis hands nothing back."""
    from reversi_tui.match import Result, Termination
    from reversi_tui.tui.screens.game_over import OnlineGameOverScreen
    from reversi_tui.tui.screens.online_game import OnlineGameScreen

    assert keys.ANALYSE in keys.ONLINE_GAME_KEYS and keys.ANALYSE in keys.GAME_KEYS
    assert not OnlineGameScreen.ANALYSE_LIVE and GameScreen.ANALYSE_LIVE
    result = Result(Termination.RESIGNATION, Color.BLACK, the_game().position.outcome())
    online = OnlineGameOverScreen(result, rematch=True)
    assert online.check_action("choose", ("analyse",)) is True
    assert ("analyse", "Analyse (a)") in online.button_rows()[0]
    assert online.check_action("choose", ("new",)) is False
    local = GameOverScreen(result)
    assert ("analyse", "Analyse (a)") in local.button_rows()[0]
