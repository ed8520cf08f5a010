"""``reversi analyse SOURCE``: every move of a game valued against the best.

SOURCE is a game file in any format the project reads (PGN, GGF, a move list, a
position with moves), ``-`` for standard input, or the moves themselves
(``f5d6c3``, ``"f5 d6 c3"``, or a position and the moves after it). An existing
file wins over a move list of the same name.

The analysis (``engine/ai/analysis.py``, described in ``docs/analysis.md``) is
kept in the data directory's cache, so a second look at a game is instant;
``--no-cache`` neither reads nor writes it. The output is a table (one row per
ply, then each side's account and the turning point), ``--json`` the whole
analysis, or ``--annotate pgn|ggf`` the game itself with the analysis in it.

Exit status: 0; 2 with one line on standard error for a source or an option that
cannot be used; 1 when the game has no move to analyse; 130 when interrupted.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from reversi_tui.commands.options import MOST_GAMES, Commands, data_dir_after, int_range
from reversi_tui.match.settings import LEVEL_NAMES
from reversi_tui.terminal import is_terminal, warn

if TYPE_CHECKING:
    from collections.abc import Sequence

    from rich.console import RenderableType

    from reversi_tui.engine import Move, Position
    from reversi_tui.engine.ai.analysis import AnalysisOptions, GameAnalysis, MoveReview
    from reversi_tui.records.game_text import ImportedGame

#: The analysis's defaults (``AnalysisOptions``), named here so that reading the
#: options imports no search.
DEFAULT_TIME_PER_MOVE = 0.35
DEFAULT_LEVEL = "hard"
LEAST_TIME_PER_MOVE = 0.01
MOST_TIME_PER_MOVE = 600.0
#: What the annotated PGN names as its annotator.
ANNOTATOR = "reversi_tui analysis"
#: Moves of each position's best line the table shows.
LINE_MOVES = 4
#: Exit statuses.
BAD_INPUT = 2
NOTHING_TO_ANALYSE = 1
INTERRUPTED = 130

#: A move list given as SOURCE: squares, spaces allowed.
_MOVE_LIST = re.compile(r"\s*(?:[a-hA-H][1-8]\s*)+")
#: Looks like words rather than a path: a mistyped move list, or a missing file name.
_WORDS = re.compile(r"[A-Za-z0-9\s]+")

#: The colour of each class in a terminal (plain words elsewhere).
CLASS_STYLES = {
    "best": "bold green",
    "good": "green",
    "inaccuracy": "yellow",
    "mistake": "dark_orange",
    "blunder": "bold red",
    "forced": "dim",
}


def add_parser(commands: Commands) -> None:
    """``reversi analyse``'s options; ``run`` is its handler."""
    analyse = commands.add_parser(
        "analyse",
        help="every move of a game valued against the best: mistakes, accuracy",
        description="Every move of a game valued against the best move: the moves classed "
        "(best, good, inaccuracy, mistake, blunder, forced), each side's accuracy and "
        "the move that turned the game. Exact from 20 empty squares (16 with the Python "
        "solver); analyses are kept "
        "in the data directory, so a second look is instant. See docs/analysis.md.",
    )
    analyse.add_argument(
        "source",
        metavar="SOURCE",
        help="a game file (PGN, GGF, a move list, a position), - for standard input, "
        "or the moves themselves (f5d6c3...)",
    )
    analyse.add_argument(
        "--time-per-move",
        metavar="S",
        help=f"seconds of search for each position before the exact endgame, "
        f"{LEAST_TIME_PER_MOVE:g}-{MOST_TIME_PER_MOVE:g} (default: {DEFAULT_TIME_PER_MOVE:g})",
    )
    analyse.add_argument(
        "--level",
        metavar="LEVEL",
        help=f"the search that values the moves: {', '.join(LEVEL_NAMES)} "
        f"(default: {DEFAULT_LEVEL})",
    )
    analyse.add_argument(
        "--game",
        type=int_range(1, MOST_GAMES),
        default=argparse.SUPPRESS,  # not given here: reversi --game N analyse's, or the first
        metavar="N",
        help="which game of a file with several (default: the first)",
    )
    output = analyse.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="the whole analysis as JSON")
    output.add_argument(
        "--annotate",
        choices=("pgn", "ggf"),
        help="the game as PGN with a comment on each error, or as GGF with each move's value",
    )
    analyse.add_argument(
        "--no-cache", action="store_true", help="analyse again, and keep nothing on disk"
    )
    data_dir_after(analyse, "keep the analyses (a cache) in DIR")
    analyse.set_defaults(handler=run)


class Refused(Exception):
    """A source or an option that cannot be used: the one line to print, and the status."""

    def __init__(self, line: str, status: int = BAD_INPUT) -> None:
        super().__init__(line)
        self.status = status


@dataclass(frozen=True, slots=True)
class Source:
    """The game to analyse, as read: the record (moves with every pass), its tags and
    whether the file said exactly who played."""

    game: ImportedGame

    @property
    def players(self) -> tuple[str | None, str | None]:
        """Black's and White's names when known (a file's tags, or our own players)."""
        tags, record = self.game.tags, self.game.record
        black = tags.get("Black") or (record.black.label if self.game.ours else None)
        white = tags.get("White") or (record.white.label if self.game.ours else None)
        return black, white


def run(args: argparse.Namespace) -> int:
    """Analyse the game of ``args.source`` and print the table, JSON or annotated game."""
    from reversi_tui.engine import PASS
    from reversi_tui.records.analysis_cache import AnalysisCache
    from reversi_tui.records.paths import Places, StorageError

    try:
        options = analysis_options(args.time_per_move, args.level)
        source = read_source(args.source, getattr(args, "game", None))
    except Refused as refused:
        warn(f"reversi analyse: {refused}")
        return refused.status
    record = source.game.record
    moves = tuple(record.game().moves)  # every pass written: one review per ply
    if all(move == PASS for move in moves):
        warn("reversi analyse: no moves to analyse")
        return NOTHING_TO_ANALYSE
    cache = None if args.no_cache else AnalysisCache(Places.resolve(args.data_dir).data)
    analysis = None if cache is None else cache.get(record.start, moves, options)
    cached = analysis is not None
    if analysis is None:
        try:
            analysis = analyse(record.start, moves, options)
        except KeyboardInterrupt:
            warn("reversi analyse: interrupted; nothing was kept")
            return INTERRUPTED
        if cache is not None:
            try:
                cache.put(analysis)
            except StorageError as error:
                warn(f"reversi analyse: the analysis was not kept: {error}")
    analysis = judged(analysis, source)
    if args.json:
        print(json.dumps(analysis_json(analysis, source, cached), indent=2))
    elif args.annotate is not None:
        sys.stdout.write(annotated(source, analysis, args.annotate))
    else:
        show(analysis, source, cached)
    return 0


def analysis_options(time_per_move: str | None, level: str | None) -> AnalysisOptions:
    """The options given (the defaults for those not given); Refused for a bad one."""
    from reversi_tui.engine.ai.analysis import AnalysisOptions

    seconds = DEFAULT_TIME_PER_MOVE
    if time_per_move is not None:
        try:
            seconds = float(time_per_move)
        except ValueError:
            seconds = math.nan
        if not LEAST_TIME_PER_MOVE <= seconds <= MOST_TIME_PER_MOVE:
            raise Refused(
                f"--time-per-move must be from {LEAST_TIME_PER_MOVE:g} to "
                f"{MOST_TIME_PER_MOVE:g} seconds, not {time_per_move!r}"
            )
    name = DEFAULT_LEVEL if level is None else level.strip().lower()
    if name not in LEVEL_NAMES:
        raise Refused(f"--level must be one of {', '.join(LEVEL_NAMES)}, not {level!r}")
    return AnalysisOptions(time_per_move=seconds, level=name)


def read_source(source: str, number: int | None) -> Source:
    """The game SOURCE names: a file (or ``-``), else a move list; Refused when neither."""
    from reversi_tui.commands.play import StartError, read_game_file
    from reversi_tui.records.formats import FormatError, read_game

    index = (number or 1) - 1
    if source != "-" and not os.path.lexists(source):
        words = source.split(";", 1)[0].split()
        if _MOVE_LIST.fullmatch(source) or (words and len(words[0]) == 64):
            if index:
                raise Refused(f"a move list is one game: there is no game {index + 1}")
            try:
                return Source(read_game(source.strip()))
            except FormatError as error:
                raise Refused(f"not a legal move list: {error}") from None
        if _WORDS.fullmatch(source):
            raise Refused(
                f"{source!r} is neither a file nor a move list (moves are squares: f5d6c3...)"
            )
    try:  # a file, or one that is missing or unreadable: then its own reason
        return Source(read_game(read_game_file(source), index))
    except (StartError, FormatError) as error:
        raise Refused(str(error)) from None


def analyse(start: Position, moves: Sequence[Move], options: AnalysisOptions) -> GameAnalysis:
    """``analyse_game``, with a progress line on standard error when it is a terminal
    (rewritten in place, cleared at the end, also when interrupted)."""
    from reversi_tui.engine.ai.analysis import analyse_game

    stream = sys.stderr
    if not is_terminal(stream):
        return analyse_game(start, moves, options)
    shown = 0

    def progress(done: int, total: int) -> None:
        nonlocal shown
        text = f"analysing: {done}/{total}"
        stream.write("\r" + text.ljust(shown))
        stream.flush()
        shown = len(text)

    try:
        return analyse_game(start, moves, options, progress)
    finally:
        if shown:
            stream.write("\r" + " " * shown + "\r")
            stream.flush()


# What is printed -----------------------------------------------------------------------


def _name(move: Move) -> str:
    from reversi_tui.engine.ai.review_words import move_name

    return move_name(move)


def comment(review: MoveReview) -> str | None:
    """The PGN comment on an error: the move as the table and the screen say it
    (``-14 blunder (win->loss), loss 12, best f1``); None for a move that is not an error."""
    from reversi_tui.engine.ai.review_words import note

    return note(review) if review.klass.is_error else None


def annotated(source: Source, analysis: GameAnalysis, fmt: str) -> str:
    """The game as PGN with a comment on each error, or as GGF with each move's value."""
    from reversi_tui.engine import PASS
    from reversi_tui.records.ggf import write_ggf
    from reversi_tui.records.pgn import write_pgn

    game = source.game
    if fmt == "ggf":
        values = [None if r.played == PASS else r.played_value for r in analysis.reviews]
        return write_ggf(game.record, game.tags, evaluations=values)
    tags = {**game.tags, "Annotator": ANNOTATOR}
    notes = [comment(r) for r in analysis.reviews]
    return write_pgn(game.record, tags, players=game.ours, comments=notes)


def judged(analysis: GameAnalysis, source: Source) -> GameAnalysis:
    """The analysis with its turning point on the side that lost by the game's result,
    when the file gives one (a game resigned, lost on time or claimed may end with the
    winner behind on the board)."""
    result = source.game.record.result
    return analysis if result is None else analysis.judged_by(result.winner)


def opening(analysis: GameAnalysis) -> str | None:
    """The named opening the game reached (the deepest named position along it), as
    the app's sidebar names it; None for a game without one or from another start."""
    from reversi_tui.engine.openings import opening_for

    found = opening_for(analysis.moves, analysis.start)
    return None if found is None else found.name


def analysis_json(analysis: GameAnalysis, source: Source, cached: bool) -> dict[str, Any]:
    """``to_json``'s fields, the game's (players, start, moves, opening) and whether it
    was cached."""
    from reversi_tui.engine import format_position
    from reversi_tui.engine.ai.analysis import to_json

    black, white = source.players
    data = to_json(analysis)
    data["game"] = {
        "black": black,
        "white": white,
        "start": format_position(analysis.start),
        "moves": [_name(move) for move in analysis.moves],
        "opening": opening(analysis),
    }
    data["cached"] = cached
    return data


def show(analysis: GameAnalysis, source: Source, cached: bool) -> None:
    """The table, each side's account, the turning point and the time, with Rich, in
    the terminal's width (80 columns when it has none)."""
    from rich.console import Console

    console = Console(file=sys.stdout, highlight=False)
    for part in report(analysis, source, cached):
        console.print(part)


def _line(words: str) -> RenderableType:
    """One line of words, cut with an ellipsis rather than wrapped when it is too long."""
    from rich.text import Text

    return Text(words, no_wrap=True, overflow="ellipsis")


def report(analysis: GameAnalysis, source: Source, cached: bool) -> list[RenderableType]:
    """What ``show`` prints, each part no wider than the console: the players and the
    opening on a line each, the moves' table (its best lines cut to fit), each side's
    account, the turning point, the final value and the time."""
    from reversi_tui.engine.ai.review_words import discs

    parts: list[RenderableType] = []
    black, white = source.players
    if black or white:
        parts.append(_line(f"Black: {black or '?'}   White: {white or '?'}"))
    named = opening(analysis)
    if named is not None:
        parts.append(_line(f"Opening: {named}"))
    parts.append(moves_table(analysis))
    parts.append(summary_table(analysis))
    parts.append(_line(turning_words(analysis)))
    final = discs(analysis.final_black_value, analysis.final_exact)
    kind = "exact" if analysis.final_exact else "estimated"
    parts.append(_line(f"Final value for Black: {final} ({kind})."))
    options = analysis.options
    parts.append(
        _line(
            f"Analysed in {analysis.seconds:.1f} s ({options.time_per_move:g} s a position "
            f"at {options.level}, exact from {options.exact_empties} empty squares)."
        )
    )
    if cached:
        parts.append(_line("Shown from the cache."))
    return parts


def moves_table(analysis: GameAnalysis) -> RenderableType:
    """One row per ply. Every column keeps its width on one line; the best line, last,
    is cut with an ellipsis to fit (wrapped, it made each row two or three lines)."""
    from rich import box
    from rich.table import Table
    from rich.text import Text

    from reversi_tui.engine import PASS
    from reversi_tui.engine.ai.review_words import best_value_of, loss_of, value_of

    table = Table(box=box.SIMPLE_HEAD, show_edge=False, collapse_padding=True)
    for header in ("#", "Side", "Played", "Value", "Best", "Value", "Loss", "Class", "Exact"):
        right = header in ("#", "Value", "Loss")
        table.add_column(header, justify="right" if right else "left", no_wrap=True)
    table.add_column("Best line", no_wrap=True, overflow="ellipsis", min_width=4)
    for r in analysis.reviews:
        passed = r.played == PASS
        table.add_row(
            str(r.ply + 1),
            r.color.title,
            _name(r.played),
            "" if passed else value_of(r),
            "" if passed else _name(r.best),
            "" if passed else best_value_of(r),
            "" if passed or r.loss == 0 else loss_of(r),
            # A result thrown away goes under the class: why a small loss is a mistake.
            Text(
                r.klass.value + (f"\n{r.turned}" if r.turned else ""),
                style=CLASS_STYLES.get(r.klass.value, ""),
            ),
            "yes" if r.exact and not passed else "",
            " ".join(_name(m) for m in r.pv[:LINE_MOVES]),
        )
    return table


def summary_table(analysis: GameAnalysis) -> RenderableType:
    """Each side's account, a column a side: its moves per class (the class words
    coloured as in the moves' table), its mean loss in discs and its accuracy."""
    from rich import box
    from rich.table import Table
    from rich.text import Text

    from reversi_tui.engine.ai.analysis import MoveClass

    sides = list(analysis.summaries.values())
    table = Table(box=box.SIMPLE_HEAD, show_edge=False)
    table.add_column("")
    for side in sides:
        table.add_column(side.color.title, justify="right")
    for klass in MoveClass:
        table.add_row(
            Text(klass.value, style=CLASS_STYLES.get(klass.value, "")),
            *(str(side.counts.get(klass, 0)) for side in sides),
        )
    table.add_row("mean loss", *(f"{side.mean_loss:.1f}" for side in sides))
    table.add_row(
        "accuracy",
        *("-" if side.accuracy is None else f"{side.accuracy:.1f}%" for side in sides),
    )
    return table


def turning_words(analysis: GameAnalysis) -> str:
    """``The game turned at move 5 (Black h5: -14 blunder, loss 12, best f1).``, or
    that none did; the move said as in the table and the PGN comment."""
    from reversi_tui.engine.ai.review_words import note

    where = analysis.turning_point
    if where is None:
        return "No single move turned the game."
    r = analysis.reviews[where]
    return f"The game turned at move {where + 1} ({r.color.title} {_name(r.played)}: {note(r)})."
