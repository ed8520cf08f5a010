"""Statistics (``s``): how the player fares against each opponent, and the recent games.

The numbers come from ``records.statistics`` (from the records database, seen
from the login name's side): per opponent (each computer level, each human
name) games, wins, losses, draws, win rate, average and best final score, the
current streak and the longest winning one; then the recent games. Enter on a
recent game replays it on the board: the game-over dialog's Review steps
through it, and ``p`` plays on from any move; ``a`` analyses it (screens/analysis.py),
and ``p`` there closes both screens to play on from the move shown. Laid out for
80x24, in any number of colours (the verdicts are words, the colour only adds to
them) and in ASCII.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from rich import box
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from reversi_tui.engine import PASS, Color, Game
from reversi_tui.match.record import RecordError
from reversi_tui.records.database import DatabaseError, RecordsDatabase, StoredGame
from reversi_tui.records.paths import StorageError
from reversi_tui.records.sqlite_file import SCREEN_WAIT_SECONDS
from reversi_tui.records.statistics import (
    Statistics,
    Streak,
    Tally,
    Verdict,
    statistics,
    verdict_words,
)
from reversi_tui.tui.ascii import ASCII_CLASS
from reversi_tui.tui.screens.dialog import Dialog
from reversi_tui.tui.screens.save_game import bindings_without
from reversi_tui.tui.widgets.board_art import ASCII, UNICODE
from reversi_tui.tui.widgets.footer import KeyFooter

if TYPE_CHECKING:  # the AI package loads with the analysis, off the path to the first frame
    from reversi_tui.engine.ai.analysis import AnalysisOptions

#: How many recent games the screen lists.
RECENT = 20
#: The opponents table: a rule under the header and above the total, none elsewhere.
RULED = box.Box("    \n    \n ── \n    \n ── \n ── \n    \n    \n")
ASCII_RULED = box.Box("    \n    \n -- \n    \n -- \n -- \n    \n    \n", ascii=True)
#: A verdict's colour in the recent games (its words first, colour second).
VERDICT_STYLES = {Verdict.WIN: "bold green", Verdict.LOSS: "red", Verdict.DRAW: ""}


def load_statistics(database: Path, user: str) -> tuple[Statistics, list[str]]:
    """``user``'s statistics from the records at ``database``, and the problems met.

    A database that does not exist yet is not created: no games, no problem.
    """
    if not database.is_file():
        return statistics([], user, recent=RECENT), []
    try:
        db = RecordsDatabase(database, wait=SCREEN_WAIT_SECONDS, reading=True)
    except (DatabaseError, StorageError, sqlite3.Error, OSError) as error:
        return statistics([], user, recent=RECENT), [f"The records cannot be read: {error}"]
    try:
        games = list(db.all())
        problems = list(db.problems)
    except (DatabaseError, StorageError, sqlite3.Error, OSError, RecordError) as error:
        games, problems = [], [f"The records cannot be read: {error}"]
    finally:
        db.close()
    return statistics(games, user, recent=RECENT), problems


def streak_words(streak: Streak | None) -> str:
    """``3 wins``, ``1 loss``, ``2 draws``; ``-`` without games."""
    if streak is None:
        return "-"
    one, many = {
        Verdict.WIN: ("win", "wins"),
        Verdict.LOSS: ("loss", "losses"),
        Verdict.DRAW: ("draw", "draws"),
    }[streak.verdict]
    return f"{streak.length} {one if streak.length == 1 else many}"


def summary(stats: Statistics) -> str:
    """The overall line: games, the won-lost-drawn record, the win rate and the streaks."""
    overall = stats.overall
    if not overall.games:
        return (
            f"No finished games of {stats.viewer} recorded yet: every game played to the "
            "end is counted here."
        )
    games = f"{overall.games} game{'s' * (overall.games != 1)}"
    won = _counted(overall.wins, "won", overall.wins_by_resignation)
    lost = _counted(overall.losses, "lost", overall.losses_by_resignation)
    return (
        f"{games}: {won}, {lost}, {overall.draws} drawn "
        f"({overall.win_rate:.0%} won). Current streak: {streak_words(overall.current_streak)}; "
        f"longest winning streak: {overall.longest_winning_streak}."
    )


def _counted(count: int, verdict: str, by_resignation: int) -> str:
    """``3 won``, or ``3 won (1 by resignation)`` when some of them ended so."""
    resigned = f" ({by_resignation} by resignation)" if by_resignation else ""
    return f"{count} {verdict}{resigned}"


def _row(tally: Tally, name: str) -> tuple[str, ...]:
    average = "-" if tally.average_score is None else f"{tally.average_score:.1f}"
    best = "-" if tally.best_score is None else f"{tally.best_score[0]}-{tally.best_score[1]}"
    return (
        name,
        str(tally.games),
        str(tally.wins),
        str(tally.losses),
        str(tally.draws),
        f"{tally.win_rate:.0%}",
        average,
        best,
        streak_words(tally.current_streak),
        str(tally.longest_winning_streak),
    )


def opponents_table(stats: Statistics, *, ascii_only: bool) -> Table:
    """One row per opponent, the most played first, then all of them together."""
    table = Table(
        box=ASCII_RULED if ascii_only else RULED,
        show_edge=False,
        pad_edge=False,
        padding=(0, 0),
        header_style="bold",
        expand=False,
    )
    table.add_column("Opponent", no_wrap=True, max_width=22, overflow="ellipsis")
    for name in ("Games", "Won", "Lost", "Drawn", "Win %", "Avg", "Best"):
        table.add_column(name, justify="right", no_wrap=True)
    table.add_column("Streak", no_wrap=True)
    table.add_column("Longest", justify="right", no_wrap=True)
    for tally in stats.opponents:
        assert tally.opponent is not None
        table.add_row(*_row(tally, tally.opponent.label))
    if len(stats.opponents) > 1:
        table.rows[-1].end_section = True
        table.add_row(*_row(stats.overall, "All opponents"), style="bold")
    return table


class GamesTable(DataTable[str | Text], inherit_bindings=False):
    """The recent games: Enter goes on to the screen's Replay (which the footer shows)."""

    BINDINGS = bindings_without(DataTable, ["enter"])


def _moves(game: StoredGame) -> int:
    return sum(1 for m in game.record.moves if m != PASS)


class StatisticsScreen(Dialog[StoredGame | None]):
    """The player's statistics; dismisses with the recent game to replay, or None."""

    DEFAULT_CSS = """
    StatisticsScreen { align: left top; background: $background; }
    StatisticsScreen > Vertical { padding: 0 1; height: 1fr; }
    StatisticsScreen .title {
        text-style: bold;
        color: $accent;
        width: 1fr;
        content-align: center middle;
    }
    StatisticsScreen .heading { text-style: bold; color: $accent; margin-top: 1; }
    StatisticsScreen #problems { color: $warning; }
    StatisticsScreen #problems.-empty { display: none; }
    StatisticsScreen #opponents { height: auto; max-height: 10; }
    StatisticsScreen #recent { height: 1fr; min-height: 3; }
    StatisticsScreen #no-recent { color: $text-muted; }
    """
    BINDINGS = [
        Binding("enter", "replay", "Replay", key_display="Enter"),
        Binding("a", "analyse", "Analyse"),
        Binding("escape,s,q", "close", "Close", key_display="Esc"),
    ]

    #: The analysis's budget (None: ``AnalysisOptions()``'s; tests make it quick).
    analysis_options: AnalysisOptions | None = None

    def __init__(self, database: Path, user: str) -> None:
        super().__init__()
        self.title_text = "Statistics"
        #: The records; analyses are kept beside them, in the data directory.
        self.database = database
        self.stats, self.problems = load_statistics(database, user)
        self.recent = [viewed.game for viewed in self.stats.overall.recent]

    def compose(self) -> ComposeResult:
        stats = self.stats
        with Vertical():
            yield Static(f"Statistics of {stats.viewer}", classes="title")
            yield Static(summary(stats), id="summary")
            yield Static(
                " ".join(self.problems), id="problems", classes="" if self.problems else "-empty"
            )
            if stats.opponents:
                yield Static("By opponent", classes="heading")
                yield Static(id="opponents")
                yield Static(
                    "Recent games: Up/Down choose, Enter replays one on the board, a analyses it",
                    classes="heading",
                )
                yield GamesTable(id="recent", cursor_type="row", zebra_stripes=True)
        yield KeyFooter()

    def on_mount(self) -> None:
        ascii_only = self.app.has_class(ASCII_CLASS)
        if ascii_only:
            self.add_class("-ascii")
        if not self.stats.opponents:
            return
        self.query_one("#opponents", Static).update(
            opponents_table(self.stats, ascii_only=ascii_only)
        )
        table = self.query_one("#recent", GamesTable)
        table.add_columns("Finished", "You", "Opponent", "Result", "Score", "Moves")
        for index, viewed in enumerate(self.stats.overall.recent):
            record = viewed.game.record
            when = (record.ended or record.started).astimezone().strftime("%Y-%m-%d %H:%M")
            verdict = Text(verdict_words(viewed), style=VERDICT_STYLES[viewed.verdict])
            table.add_row(
                when,
                viewed.colour.title,
                viewed.opponent.label,
                verdict,
                f"{viewed.score[0]}-{viewed.score[1]}",
                Text(str(_moves(viewed.game)), justify="right"),
                key=str(index),
            )
        table.focus()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self._replay(event.cursor_row)

    def action_replay(self) -> None:
        """Enter: replay the chosen recent game (the table sends it when it has the focus)."""
        if self.recent:
            self._replay(self.query_one("#recent", DataTable).cursor_row)

    def _replay(self, index: int) -> None:
        if 0 <= index < len(self.recent):
            self.dismiss(self.recent[index])

    def action_analyse(self) -> None:
        """``a``: the analysis of the chosen recent game, over this screen."""
        if not self.recent:
            return
        from reversi_tui.tui.screens.analysis import AnalysisScreen

        index = self.query_one("#recent", DataTable).cursor_row
        if not 0 <= index < len(self.recent):
            return
        stored = self.recent[index]
        try:
            game = stored.record.game()
        except RecordError as error:
            self.notify(f"Not analysed: {error}", severity="warning", markup=False)
            return
        names = {Color.BLACK: stored.black_name, Color.WHITE: stored.white_name}
        glyphs = ASCII if self.app.has_class(ASCII_CLASS) else UNICODE
        data_dir = self.database.parent
        options = self.analysis_options
        screen = AnalysisScreen(
            game.start,
            game.plies,
            names,
            data_dir,
            options,
            glyphs=glyphs,
            result=stored.record.result,
        )
        self.app.push_screen(screen, self._analysed)

    def _analysed(self, game: Game | None) -> None:
        """``p`` in the analysis: close, and let the game screen play on from there."""
        if game is None:
            return
        from reversi_tui.tui.screens.analysis import AnalysisScreen

        self.dismiss(None)
        self.app.post_message(AnalysisScreen.PlayFrom(game))

    def action_close(self) -> None:
        self.dismiss(None)
