"""The analysis of a game: every move against the best, the errors, a graph of the game.

``AnalysisScreen`` takes a game (its start and its moves), looks in the analysis
cache of the data directory and, when the game is not there, runs ``analyse_game``
in a thread worker behind a progress bar; Esc cancels at once (the worker polls a
stop flag and ends), and a finished analysis is stored in the cache. Then the
review: the board shows the position before the current move with the move played
(``◆``) and the best one (``★``) marked, the panel says what the move was worth
against the best, the best line, each side's account and the turning point, and
the evaluation graph (``widgets/eval_graph.py``) runs along the side with the
current move marked. Its keys are ``ANALYSIS_KEYS`` (tui/keys.py): Left/Right and
Home/End walk the game, n/N b/B w/W jump between errors, v writes every legal
move's value on its square, l walks the best line, p plays on from the position
shown (the screen is dismissed with that game; its caller asks and starts it).

All engine work runs in thread workers that hand their results back with
``post_message``, so the interface never waits on a search. The AI package is
imported here, and this module is imported only when an analysis is asked for.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from rich.console import Console, ConsoleOptions, RenderResult
from rich.table import Table
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.renderables.bar import Bar as BarRenderable
from textual.screen import Screen
from textual.widgets import ProgressBar, Static
from textual.worker import Worker, WorkerState

from reversi_tui.engine import PASS, Color, Game, Move, Ply, Position, square_name
from reversi_tui.engine.ai.analysis import (
    AnalysisOptions,
    GameAnalysis,
    MoveClass,
    MoveReview,
    move_values,
)
from reversi_tui.engine.ai.review_words import best_value_of, discs, loss_of, value_of
from reversi_tui.engine.ai.review_words import move_name as _name
from reversi_tui.match.record import Result
from reversi_tui.records.analysis_cache import AnalysisCache
from reversi_tui.records.paths import StorageError
from reversi_tui.tui.compat.dismiss import ClosesOnce
from reversi_tui.tui.keys import ANALYSIS_KEYS, bindings
from reversi_tui.tui.thinking import stop_check
from reversi_tui.tui.widgets.board import Board, BoardView
from reversi_tui.tui.widgets.board_art import UNICODE, Glyphs
from reversi_tui.tui.widgets.eval_graph import (
    ASCII_MARKS,
    UNICODE_MARKS,
    EvalGraph,
    GraphData,
)
from reversi_tui.tui.widgets.footer import KeyFooter
from reversi_tui.tui.widgets.too_small import TooSmall

#: Columns the board leaves for the panel and the graph: at 80 columns the board
#: is the smallest one, at 120 the next size up.
PANEL_RESERVE = 60
#: The marks of the move played and of the best move, Unicode and ASCII.
PLAYED_MARK = {False: "◆", True: "@"}
BEST_MARK = {False: "★", True: "!"}
#: A class's colour in the panel (its word always says it too).
CLASS_STYLES: dict[MoveClass, str] = {
    MoveClass.BEST: "bold green",
    MoveClass.GOOD: "green",
    MoveClass.INACCURACY: "bold yellow",
    MoveClass.MISTAKE: "bold dark_orange",
    MoveClass.BLUNDER: "bold red",
    MoveClass.FORCED: "",
}


def short_value(value: float) -> str:
    """A value as a square shows it: ``+4``, ``-12``, ``0`` (three characters at most)."""
    rounded = round(max(-64.0, min(64.0, value)))
    return f"{rounded:+d}" if rounded else "0"


@dataclass(frozen=True)
class AnalysedGame:
    """A game to analyse: its start, its moves (forced passes written) and the
    positions before each ply and after the last."""

    start: Position
    moves: tuple[Move, ...]
    positions: tuple[Position, ...]

    @classmethod
    def of(cls, start: Position, moves: Sequence[Move] | Sequence[Ply]) -> AnalysedGame:
        """Replayed through the rules (IllegalMoveError for moves that do not replay),
        so a game given with or without its forced passes is the same game."""
        squares = [m.move if isinstance(m, Ply) else m for m in moves]
        game = Game.from_moves(start, squares)
        positions = (game.start, *(ply.after for ply in game.plies))
        return cls(game.start, tuple(game.moves), positions)

    @property
    def plies(self) -> int:
        return len(self.moves)

    def move_number(self, ply: int) -> int:
        """The number of the disc played at ``ply`` (passes do not count)."""
        return sum(1 for m in self.moves[:ply] if m != PASS) + 1

    def last_move(self, ply: int) -> Move | None:
        """The last disc played before ``ply``."""
        return next((m for m in reversed(self.moves[:ply]) if m != PASS), None)


def line_positions(position: Position, line: Sequence[Move]) -> list[Position]:
    """The positions along a line from ``position``: itself first."""
    out = [position]
    for move in line:
        pos = out[-1]
        out.append(pos.pass_turn() if move == PASS else pos.play(move))
    return out


def opening_name(game: AnalysedGame, ply: int) -> str | None:
    """The opening the game had reached before ``ply``, when it has a name.

    Hook for the opening names (``engine/openings.py``): None when that module or a
    name is missing."""
    try:
        from reversi_tui.engine.openings import opening_for
    except ImportError:  # pragma: no cover - the module ships with the package
        return None
    try:
        found = opening_for(game.moves[:ply], game.start)
    except ValueError:
        return None
    return None if found is None else found.name


# The panel's words ---------------------------------------------------------------------
def class_words(review: MoveReview) -> str:
    """``mistake``, or ``blunder: win->loss`` when the move turned the result."""
    return f"{review.klass.value}: {review.turned}" if review.turned else review.klass.value


def move_headline(review: MoveReview, number: int) -> Text:
    """``Move 23, White g2: -14 (mistake)``: the move's value as the table and the PGN
    comment write it (``review_words``)."""
    who = f"Move {number}, {review.color.title}"
    if review.played == PASS:
        return Text(f"{who} passes (forced)")
    played = square_name(review.played)
    if review.klass is MoveClass.FORCED:
        return Text(f"{who} {played}: forced, the only move")
    return Text.assemble(
        f"{who} {played}: {value_of(review)} (",
        (class_words(review), CLASS_STYLES[review.klass]),
        ")",
    )


def best_words(review: MoveReview) -> str:
    """``best b1 -2, exact; loss 12`` (or ``the best move, depth 9``)."""
    how = "exact" if review.exact else f"depth {review.depth}"
    if review.played == PASS or review.klass is MoveClass.FORCED:
        return f"Worth {best_value_of(review)} for {review.color.title}, {how}"
    if review.best == review.played:
        return f"The best move, {how}"
    if review.loss <= 0:
        return f"As good as the best, {_name(review.best)}; {how}"
    return f"best {_name(review.best)} {best_value_of(review)}, {how}; loss {loss_of(review)}"


def line_text(line: Sequence[Move], step: int | None) -> Text:
    """``Line: b1 a1 b2``; in the line, the move played last is in reverse video."""
    text = Text("Line:")
    for i, move in enumerate(line):
        text.append(" ")
        text.append(_name(move), "reverse" if step is not None and i == step - 1 else "")
    if step is not None:
        text.append(f"  ({step} of {len(line)})")
    return text


def summary_table(analysis: GameAnalysis, marks: Mapping[str, str]) -> Table:
    """Each side: its moves per class, its mean loss and its accuracy."""
    table = Table.grid(padding=(0, 1))
    table.add_column()
    for _ in range(5):
        table.add_column(justify="right")
    table.add_column(justify="right")
    table.add_column(justify="right")
    table.add_row(
        "",
        "best",
        "good",
        Text(marks["inaccuracy"], CLASS_STYLES[MoveClass.INACCURACY]),
        Text(marks["mistake"], CLASS_STYLES[MoveClass.MISTAKE]),
        Text(marks["blunder"], CLASS_STYLES[MoveClass.BLUNDER]),
        "loss",
        "accuracy",
        style="bold",
    )
    for color in Color:
        side = analysis.summaries.get(color)
        if side is None:
            continue
        counts = side.counts
        # One decimal: a side with a mistake must not read "100%" from rounding.
        accuracy = "-" if side.accuracy is None else f"{side.accuracy:.1f}%"
        table.add_row(
            color.title,
            *(str(counts.get(k, 0)) for k in (MoveClass.BEST, MoveClass.GOOD)),
            *(str(counts.get(k, 0)) for k in (MoveClass.INACCURACY, MoveClass.MISTAKE)),
            str(counts.get(MoveClass.BLUNDER, 0)),
            f"{side.mean_loss:.1f}",
            accuracy,
        )
    return table


def turning_words(analysis: GameAnalysis, game: AnalysedGame) -> str:
    """``Turning point: move 31, Black c8``, or none."""
    ply = analysis.turning_point
    if ply is None or not 0 <= ply < len(analysis.reviews):
        return "Turning point: none (no move gave away much of a winning chance)"
    review = analysis.reviews[ply]
    return (
        f"Turning point: move {game.move_number(ply)}, {review.color.title} {_name(review.played)}"
    )


def end_words(analysis: GameAnalysis, position: Position) -> str:
    """The last position: the result when the game is over, else its value."""
    value = analysis.final_black_value
    if position.is_game_over:
        black, white = position.count(Color.BLACK), position.count(Color.WHITE)
        empties = position.empties
        if black > white:
            black += empties
        elif white > black:
            white += empties
        else:
            black += empties // 2
            white += empties - empties // 2
        who = "A draw" if black == white else f"{'Black' if black > white else 'White'} won"
        return f"The end: {who}, Black {black}, White {white}"
    how = "exact" if analysis.final_exact else "estimated"
    return f"The position now: {discs(value, analysis.final_exact)} for Black ({how})"


def legend(ascii_only: bool) -> tuple[tuple[Text, str], ...]:
    """Each mark of the board and the graph as drawn, with what it means (the help)."""
    graph = ASCII_MARKS if ascii_only else UNICODE_MARKS
    classes = graph.classes
    return (
        (
            Text(PLAYED_MARK[ascii_only], "bold underline"),
            "the move played, on its square before it is played",
        ),
        (Text(BEST_MARK[ascii_only], "bold reverse"), "the best move (in a line: its next move)"),
        (Text("+4  -12", "bold"), "v: each legal move's value, for the side to move"),
        (
            Text.assemble(
                (classes["inaccuracy"], CLASS_STYLES[MoveClass.INACCURACY]),
                " ",
                (classes["mistake"], CLASS_STYLES[MoveClass.MISTAKE]),
                " ",
                (classes["blunder"], CLASS_STYLES[MoveClass.BLUNDER]),
            ),
            "on the graph and in the totals: inaccuracy, mistake, blunder",
        ),
        (
            Text(f"{graph.full}{graph.up_half}  {graph.down_half}{graph.full}"),
            "the graph: Black ahead (up), White ahead (down)",
        ),
        (Text(f"{graph.top} {graph.line} {graph.bottom}", "bold"), "the graph: the move shown"),
    )


class AsciiBarRenderable(BarRenderable):
    """A progress bar in ASCII: ``#`` done, ``-`` to do."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = self.width or options.max_width
        done = max(0, min(width, round(self.highlight_range[1])))
        yield Text.assemble(
            ("#" * done, console.get_style(self.highlight_style)),
            ("-" * (width - done), console.get_style(self.background_style)),
            end="",
        )


class AsciiProgressBar(ProgressBar):
    """Textual's progress bar, drawn in ASCII."""

    BAR_RENDERABLE = AsciiBarRenderable


class AnalysisScreen(ClosesOnce, Screen[Game | None]):
    """A game's analysis; dismissed with a game to play on from (``p``), or None."""

    BINDINGS = bindings(ANALYSIS_KEYS)
    DEFAULT_CSS = """
    AnalysisScreen { background: $background; }
    AnalysisScreen #analysis-side { width: 1fr; height: 1fr; padding: 0 0 0 1; }
    AnalysisScreen #analysis-panel { height: 1fr; overflow: hidden hidden; }
    AnalysisScreen #analysis-graph { height: 7; }
    AnalysisScreen #progress-view {
        width: 1fr;
        height: 1fr;
        align: center middle;
        display: none;
    }
    AnalysisScreen #progress-box {
        width: 60;
        max-width: 100%;
        height: auto;
        border: thick $primary;
        background: $surface;
        padding: 0 2;
    }
    AnalysisScreen #progress-title { text-style: bold; color: $accent; margin-bottom: 1; }
    AnalysisScreen #progress-note { color: $text-muted; margin-top: 1; }
    AnalysisScreen ProgressBar { width: 1fr; }
    AnalysisScreen ProgressBar Bar { width: 1fr; }
    AnalysisScreen.-analysing #progress-view { display: block; }
    AnalysisScreen.-analysing #main { display: none; }
    AnalysisScreen.-too-narrow #progress-view, AnalysisScreen.-too-short #progress-view {
        display: none;
    }
    AnalysisScreen.-ascii #progress-box { border: ascii $primary; }
    """

    @dataclass
    class Progress(Message):
        """The analysis has looked at ``done`` of ``total`` positions."""

        done: int
        total: int

    @dataclass
    class Analysed(Message):
        """The analysis is done; ``problem`` says why it was not kept (None: kept)."""

        analysis: GameAnalysis
        problem: str | None

    @dataclass
    class ValuesFound(Message):
        """Every legal move's value at ``ply``, found for the values on the board."""

        ply: int
        values: dict[Move, float]

    @dataclass
    class PlayFrom(Message):
        """Sent to the app when a screen under the analysis (the statistics) closed to
        let the game screen play on from ``game``."""

        game: Game

    def __init__(
        self,
        start: Position,
        moves: Sequence[Move] | Sequence[Ply],
        names: Mapping[Color, str],
        data_dir: Path | None,
        options: AnalysisOptions | None = None,
        *,
        glyphs: Glyphs = UNICODE,
        analysis: GameAnalysis | None = None,
        initial: int | None = None,
        can_play_on: bool = True,
        result: Result | None = None,
    ) -> None:
        """``moves`` (or the plies) from ``start``, played by ``names``; ``data_dir`` holds
        the cache (None: nothing is kept); ``analysis`` a finished one to show at once;
        ``initial`` the ply to show first (the start by default); ``can_play_on``:
        ``p`` may hand back a game to play on from; ``result`` the game's when it has
        one: who lost by it (a resignation, the clock, a claim) is whose move turned it."""
        super().__init__()
        if glyphs.ascii_only:
            self.add_class("-ascii")
        self.game = AnalysedGame.of(start, moves)
        self.names = dict(names)
        self.data_dir = data_dir
        self.options = options or AnalysisOptions()
        self.glyphs = glyphs
        self.result = result
        self.analysis = None if analysis is None else self._judged(analysis)
        self.can_play_on = can_play_on
        self.index = min(max(initial or 0, 0), self.game.plies)
        self.index = self._settle(self.index, 1)
        #: The step along the best line shown (None: not in the line).
        self.line_step: int | None = None
        self.values_on = False
        #: Values found for plies where the analysis has only the best and the played.
        self.found_values: dict[int, dict[Move, float]] = {}
        self.status = ""
        self._stop = threading.Event()
        self._values_stop = threading.Event()
        self._values_for: int | None = None  # the ply whose values are being found
        self._worker: Worker[None] | None = None
        self._openings: dict[int, str | None] = {}

    # Composition -------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        ascii_only = self.glyphs.ascii_only
        with Vertical(id="progress-view"), Vertical(id="progress-box"):
            black = self.names.get(Color.BLACK, "Black")
            white = self.names.get(Color.WHITE, "White")
            yield Static(f"Analysing {black} against {white}", id="progress-title")
            yield Static("", id="progress-text")
            bar = AsciiProgressBar if ascii_only else ProgressBar
            yield bar(total=max(self.game.plies, 1), show_eta=False, id="progress")
            yield Static("Esc cancels.", id="progress-note")
        with Horizontal(id="main"):
            board = Board(self.glyphs, reserve_width=PANEL_RESERVE, id="analysis-board")
            board.can_focus = False  # looked at only: every key is the screen's
            yield board
            with Vertical(id="analysis-side"):
                yield Static("", id="analysis-panel")
                yield EvalGraph(ascii_only=ascii_only, id="analysis-graph")
        yield TooSmall(id="too-small")
        yield KeyFooter()

    @property
    def board(self) -> Board:
        return self.query_one("#analysis-board", Board)

    @property
    def graph(self) -> EvalGraph:
        return self.query_one(EvalGraph)

    @property
    def analysing(self) -> bool:
        return self.analysis is None

    def on_mount(self) -> None:
        if self.analysis is None:
            self.analysis = self._cached()
        if self.analysis is None:
            self.add_class("-analysing")
            self._show_progress(0, self.game.plies)
            self._worker = self.run_worker(
                partial(self._analyse, self._stop),
                thread=True,
                group="analysis",
                exit_on_error=False,
            )
        self._fit_graph()
        self._show()

    def on_resize(self, event: events.Resize) -> None:
        self._fit_graph()

    def _fit_graph(self) -> None:
        """The graph takes a third of the height: 7 rows at 24, 13 at 40."""
        height = max(7, min(13, (self.size.height - 1) // 3))
        self.graph.styles.height = height

    # The analysis ------------------------------------------------------------------
    def _judged(self, analysis: GameAnalysis) -> GameAnalysis:
        """The analysis with its turning point on the side that lost by the result."""
        return analysis if self.result is None else analysis.judged_by(self.result.winner)

    def _cached(self) -> GameAnalysis | None:
        if self.data_dir is None:
            return None
        try:
            found = AnalysisCache(self.data_dir).get(self.game.start, self.game.moves, self.options)
        except (StorageError, OSError):
            return None
        return None if found is None else self._judged(found)

    def _analyse(self, stop: threading.Event) -> None:
        """The worker: analyse the game, keep it in the cache, hand it back."""
        from reversi_tui.engine.ai import analysis as engine
        from reversi_tui.engine.ai.result import SearchCancelled

        should_stop = stop_check(stop)

        def progress(done: int, total: int) -> None:
            self.post_message(self.Progress(done, total))

        try:
            found = engine.analyse_game(
                self.game.start, self.game.moves, self.options, progress, should_stop
            )
        except SearchCancelled:
            return
        if should_stop():
            return
        problem = None
        if self.data_dir is not None:
            try:
                AnalysisCache(self.data_dir).put(found)
            except (StorageError, OSError) as error:
                problem = str(error)
        self.post_message(self.Analysed(found, problem))

    def on_analysis_screen_progress(self, message: Progress) -> None:
        if self.analysing:
            self._show_progress(message.done, message.total)

    def _show_progress(self, done: int, total: int) -> None:
        words = f"Position {min(done + 1, total)} of {total}{self.glyphs.ellipsis}"
        if not total:
            words = "Nothing to analyse: no move was played."
        self.query_one("#progress-text", Static).update(words)
        self.query_one(ProgressBar).update(total=max(total, 1), progress=done)

    def on_analysis_screen_analysed(self, message: Analysed) -> None:
        if self._stop.is_set():
            return
        self.analysis = self._judged(message.analysis)
        self.remove_class("-analysing")
        self.refresh_bindings()
        if message.problem is not None:
            self.notify(
                f"The analysis was not kept: {message.problem}",
                title="Not kept",
                severity="warning",
                timeout=8,
                markup=False,
            )
        self._show()

    @on(Worker.StateChanged)
    def _worker_failed(self, event: Worker.StateChanged) -> None:
        """A worker that raised: said, never fatal."""
        if event.state is not WorkerState.ERROR:
            return
        what = "finding the values" if event.worker.group == "values" else "the analysis"
        words = f"An internal error stopped {what}: {event.worker.error!r}."
        self.notify(words, title="Error", severity="error", timeout=10, markup=False)
        if event.worker.group == "analysis":
            self.query_one("#progress-text", Static).update(f"{words} Esc goes back.")
        else:
            self._values_for = None
            self._say(words)

    # The values on the board -------------------------------------------------------
    def _values_at(self, ply: int) -> dict[Move, float] | None:
        """Every legal move's value at ``ply``: the analysis's, or those found since;
        None while some are missing."""
        assert self.analysis is not None
        review = self.analysis.reviews[ply]
        legal = self.game.positions[ply].legal_moves
        values = {**review.values, **self.found_values.get(ply, {})}
        return values if all(m in values for m in legal) else None

    def _find_values(self, ply: int) -> None:
        """Start finding the values the analysis lacks at ``ply`` (one search at a time)."""
        if self._values_for == ply:
            return
        self._values_stop.set()
        self._values_stop = threading.Event()
        self._values_for = ply
        job = partial(self._values_job, ply, self.game.positions[ply], self._values_stop)
        self.run_worker(job, thread=True, group="values", exclusive=True, exit_on_error=False)

    def _values_job(self, ply: int, position: Position, stop: threading.Event) -> None:
        from reversi_tui.engine.ai.result import SearchCancelled

        should_stop = stop_check(stop)
        try:
            values = move_values(position, self.options, should_stop)
        except SearchCancelled:
            return
        if not should_stop():
            self.post_message(self.ValuesFound(ply, values))

    def on_analysis_screen_values_found(self, message: ValuesFound) -> None:
        self.found_values[message.ply] = message.values
        if self._values_for == message.ply:
            self._values_for = None
        self._show()

    # Showing the ply ---------------------------------------------------------------
    def _review(self) -> MoveReview | None:
        analysis = self.analysis
        if analysis is None or self.index >= len(analysis.reviews):
            return None
        return analysis.reviews[self.index]

    def _line(self) -> tuple[Move, ...]:
        review = self._review()
        return review.pv if review is not None else ()

    def _show(self) -> None:
        """The board, the panel and the graph for the ply (and line step) shown."""
        if self.analysis is None:
            return
        self.board.view = self._board_view()
        self.query_one("#analysis-panel", Static).update(self._panel())
        self.graph.show(self._graph_data(), self.index)

    def _graph_data(self) -> GraphData:
        analysis = self.analysis
        assert analysis is not None
        errors = {r.ply: (r.color.name.lower(), r.klass.value) for r in analysis.errors()}
        return GraphData(tuple(analysis.graph()), errors)

    def _board_view(self) -> BoardView:
        ascii_only = self.glyphs.ascii_only
        position = self.game.positions[self.index]
        last = self.game.last_move(self.index)
        review = self._review()
        step = self.line_step
        if step is not None and review is not None:
            line = review.pv
            position = line_positions(position, line[:step])[-1]
            last = next((m for m in reversed(line[:step]) if m != PASS), last)
            following = line[step] if step < len(line) else PASS
            notes = () if following == PASS else ((following, BEST_MARK[ascii_only], "best"),)
            return BoardView(position, last, show_cursor=False, notes=notes)
        if review is None:
            return BoardView(position, last, show_cursor=False)
        return BoardView(position, last, show_cursor=False, notes=self._notes(review))

    def _notes(self, review: MoveReview) -> tuple[tuple[int, str, str], ...]:
        """The played and best moves' marks, or every legal move's value (``v``)."""
        ascii_only = self.glyphs.ascii_only
        played, best = review.played, review.best
        marks: dict[int, tuple[str, str]] = {}
        if played != PASS:
            marks[played] = (PLAYED_MARK[ascii_only], "played")
        if best != PASS:
            marks[best] = (BEST_MARK[ascii_only], "best")
        if not self.values_on:
            return tuple((sq, text, style) for sq, (text, style) in marks.items())
        values = {**review.values, **self.found_values.get(review.ply, {})}
        notes = []
        for move in self.game.positions[review.ply].legal_moves:
            value = values.get(move)
            text = self.glyphs.ellipsis if value is None else short_value(value)
            mark, style = marks.get(move, ("", "note"))
            notes.append((move, f"{text}\n{mark}" if mark else text, style))
        return tuple(notes)

    def _panel(self) -> Table:
        analysis = self.analysis
        assert analysis is not None
        game = self.game
        black = self.names.get(Color.BLACK, "Black")
        white = self.names.get(Color.WHITE, "White")
        rows: list[Text | Table] = [Text(f"{black} (Black) v {white} (White)", style="bold")]
        review = self._review()
        if review is None:
            rows.append(Text(end_words(analysis, game.positions[-1])))
        else:
            rows.append(move_headline(review, game.move_number(self.index)))
            rows.append(Text(best_words(review)))
            if review.pv:
                rows.append(line_text(review.pv, self.line_step))
        opening = self._opening()
        if opening:
            rows.append(Text(f"Opening: {opening}"))
        rows.append(Text(""))
        marks = (ASCII_MARKS if self.glyphs.ascii_only else UNICODE_MARKS).classes
        rows.append(summary_table(analysis, marks))
        rows.append(Text(turning_words(analysis, game)))
        rows.append(Text(""))
        rows.append(self._legend(marks))
        if self.status:
            rows.append(Text(self.status, style="italic"))
        table = Table.grid()
        table.add_column()
        for row in rows:
            table.add_row(row)
        return table

    def _legend(self, marks: Mapping[str, str]) -> Text:
        ascii_only = self.glyphs.ascii_only
        return Text.assemble(
            (PLAYED_MARK[ascii_only], "bold underline"),
            " played  ",
            (BEST_MARK[ascii_only], "bold reverse"),
            " best  ",
            (marks["inaccuracy"], CLASS_STYLES[MoveClass.INACCURACY]),
            " inaccuracy  ",
            (marks["mistake"], CLASS_STYLES[MoveClass.MISTAKE]),
            " mistake  ",
            (marks["blunder"], CLASS_STYLES[MoveClass.BLUNDER]),
            " blunder",
        )

    def _opening(self) -> str | None:
        index = self.index
        if index not in self._openings:
            self._openings[index] = opening_name(self.game, index)
        return self._openings[index]

    def _say(self, words: str) -> None:
        self.status = words
        self._show()

    def _go(self, index: int, words: str = "") -> None:
        """Show ``index`` (out of any line), and what the status says."""
        self.index = index
        self.line_step = None
        self.status = words
        self._want_values()
        self._show()

    def _want_values(self) -> None:
        """With the values on, find those the analysis lacks at the ply shown."""
        if not self.values_on or self._review() is None:
            return
        if self._values_at(self.index) is None:
            self._find_values(self.index)

    def _settle(self, index: int, step: int) -> int:
        """``index`` moved past forced passes in the direction of ``step`` (a pass shows
        the same discs as the move next to it)."""
        moves = self.game.moves
        index = min(max(index, 0), len(moves))
        while index < len(moves) and moves[index] == PASS:
            if step < 0 and index > 0:
                index -= 1
            else:  # a pass first of all: the move after it
                step, index = 1, index + 1
        return index

    # Keys ----------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """While analysing, only help and the keys that go back."""
        if self.analysing:
            return action in ("back", "close", "help")
        return True

    def action_step(self, step: int) -> None:
        """Left/Right: a move back or forward; in the line, a step along it."""
        if self.analysis is None:
            return
        if self.line_step is not None:
            line = self._line()
            self.line_step = min(max(self.line_step + step, 0), len(line))
            self.status = ""
            self._show()
            return
        index = self._settle(self.index + step, step)
        if index == self.index:
            self._say(f"At the {'start' if step < 0 else 'end'} of the game.")
            return
        self._go(index)

    def action_edge(self, end: int) -> None:
        """Home: the start; End: the end."""
        if self.analysis is not None:
            self._go(self.game.plies if end > 0 else self._settle(0, 1))

    def action_error(self, step: int, color: str = "") -> None:
        """The next (``step`` > 0) or previous error, of one side or either."""
        analysis = self.analysis
        if analysis is None:
            return
        side = Color[color.upper()] if color else None
        plies = [r.ply for r in analysis.errors(side)]
        found = (
            next((p for p in plies if p > self.index), None)
            if step > 0
            else next((p for p in reversed(plies) if p < self.index), None)
        )
        whose = f"{side.title}'s error" if side is not None else "Error"
        if found is None:
            where = "after" if step > 0 else "before"
            if not plies:
                self._say(f"No error of {side.title if side else 'either side'} in this game.")
            else:
                self._say(f"No error of {side.title if side else 'either side'} {where} this one.")
            return
        nth = plies.index(found) + 1
        self._go(found, f"{whose} {nth} of {len(plies)}.")

    def action_toggle_values(self) -> None:
        """``v``: every legal move's value on its square, or the marks alone."""
        if self.analysis is None:
            return
        self.values_on = not self.values_on
        if not self.values_on:
            self._values_stop.set()
            self._values_for = None
            self._say("Values off.")
            return
        if self.line_step is not None:
            self.line_step = None
        words = "Values on: each legal move's, for the side to move."
        if self._review() is not None and self._values_at(self.index) is None:
            words = f"Finding every move's value{self.glyphs.ellipsis}"
        self.status = words
        self._want_values()
        self._show()

    def action_line(self) -> None:
        """``l``: into the best line (its first move played), or out of it."""
        if self.analysis is None:
            return
        if self.line_step is not None:
            self.line_step = None
            self._say("Back to the game.")
            return
        line = self._line()
        if not line:
            self._say("No line to follow from here.")
            return
        self.line_step = 1
        self._say("In the best line: Left/Right walk it, l or Esc leaves it.")

    def action_play_from_here(self) -> None:
        """``p``: hand back the position shown (in the line too) to play on from."""
        if self.analysis is None:
            return
        if not self.can_play_on:
            self._say("Playing on from here is for local games.")
            return
        moves = list(self.game.moves[: self.index])
        if self.line_step is not None:
            moves += self._line()[: self.line_step]
        try:
            game = Game.from_moves(self.game.start, moves)
        except ValueError:  # pragma: no cover - the line replays by construction
            self._say("That position cannot be played on.")
            return
        if game.is_over:
            self._say("The game is over here: step back to play on from an earlier move.")
            return
        self._stop_all()
        self.dismiss(game)

    def action_help(self) -> None:
        """``?``: this screen's keys and marks."""
        from reversi_tui.tui.screens.help import AnalysisHelpScreen

        ascii_only = self.glyphs.ascii_only
        self.app.push_screen(AnalysisHelpScreen(legend(ascii_only), ascii_only=ascii_only))

    def action_back(self) -> None:
        """Esc: out of the line first; else (and while analysing, at once) back."""
        if self.line_step is not None:
            self.action_line()
            return
        self.action_close()

    def action_close(self) -> None:
        """Back to the screen before; a running analysis is cancelled (its worker ends)."""
        self._stop_all()
        self.dismiss(None)

    def _stop_all(self) -> None:
        self._stop.set()
        self._values_stop.set()
        self.workers.cancel_group(self, "analysis")
        self.workers.cancel_group(self, "values")

    def on_unmount(self) -> None:
        self._stop.set()
        self._values_stop.set()

    @on(EvalGraph.Jump)
    def _graph_clicked(self, message: EvalGraph.Jump) -> None:
        if self.analysis is not None:
            self._go(self._settle(min(message.ply, self.game.plies), 1))

    @property
    def worker(self) -> Worker[None] | None:
        """The analysis's worker (None when the analysis came from the cache)."""
        return self._worker
