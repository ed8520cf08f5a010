"""``reversi history``: the finished games in the records database, as a table, JSON or PGN.

The database is the one in the data directory (``--data-dir``,
``$REVERSI_DATA_DIR`` or the user's). Reading never creates it: without one
there are no games yet. ``--export FILE`` writes the games, oldest first, as one
multi-game PGN file (atomically: a failed export leaves FILE as it was).

An online game's facts, where they were recorded, are shown too: each player's
rating after a rated game with its change (``1523 (+23)``, a ``?`` after a
provisional one) under the name, and the game's terms (``5+3 rated``) under the
result; ``--json`` has them for every game (null for a local one), and the PGN
export writes its own ``Event`` (``reversi-tui online game 17, rated 5+3``, the
number the records' own), this host as its ``Site``, ``TimeControl`` (in seconds:
``300+3``, ``-`` for an untimed online game) and, for a rated game,
``BlackElo``/``WhiteElo`` (the ratings the game was played at) with
``BlackRatingDiff``/``WhiteRatingDiff``.
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reversi_tui.commands.options import Commands, data_dir_after, int_range
from reversi_tui.engine import PASS, Color, format_position
from reversi_tui.match.record import GameRecord, Result
from reversi_tui.match.settings import PlayerKind, PlayerSpec, handicap_of
from reversi_tui.records.atomic import atomic_write
from reversi_tui.records.names import shared_name
from reversi_tui.records.paths import DATA_DIR_ENV, Places, StorageError
from reversi_tui.terminal import warn

if TYPE_CHECKING:
    from rich.table import Table

    from reversi_tui.records.database import StoredGame
    from reversi_tui.records.online_facts import OnlineFacts

NO_GAMES = "No games recorded yet: finished games appear here."


def add_parser(commands: Commands) -> None:
    """``reversi history``'s options; ``run`` is its handler."""
    history = commands.add_parser(
        "history",
        help="the finished games recorded: table, JSON or PGN",
        description="The finished games in the records database, newest first. They are "
        f"read from the data directory: reversi history --data-dir DIR, or ${DATA_DIR_ENV}.",
    )
    data_dir_after(history, "read the records database in DIR")
    history.add_argument(
        "--limit",
        type=int_range(1, 10000),
        metavar="N",
        help="only the N most recent games, 1-10000 (default: all)",
    )
    history_output = history.add_mutually_exclusive_group()
    history_output.add_argument("--json", action="store_true", help="a JSON array, one per game")
    history_output.add_argument(
        "--export", metavar="FILE", help="write the games to FILE as one multi-game PGN file"
    )
    history.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Print (or export) the records; 1 with one line on standard error when that fails."""
    from reversi_tui.records.database import DatabaseError, RecordsDatabase

    path = Places.resolve(args.data_dir).database
    if not path.exists():
        return _show([], args, total=0)
    try:
        database = RecordsDatabase(path, reading=True)
    except DatabaseError as error:
        warn(f"reversi history: {error}")
        return 1
    with database:
        try:
            total = database.count()
            games = database.recent(args.limit)
        except DatabaseError as error:
            warn(f"reversi history: {error}")
            return 1
        for problem in database.problems:
            warn(f"reversi history: {problem}")
    return _show(games, args, total=total)


def _show(games: list[StoredGame], args: argparse.Namespace, *, total: int) -> int:
    if args.export is not None:
        return _export(games[::-1], Path(args.export))  # a PGN archive runs oldest first
    if args.json:
        print(json.dumps([game_json(game) for game in games], indent=2))
    elif not games:
        print(NO_GAMES)
    else:
        from rich.console import Console  # Rich: only for the table

        Console(file=sys.stdout).print(history_table(games, total))
    return 0


def history_table(games: list[StoredGame], total: int) -> Table:
    """The games as a Rich table, in the order given; the caption counts them.

    An online game's facts take a second line, never a column (the table fits 80
    columns as it did): each player's rating after a rated game under their name,
    and the game's terms (``5+3 rated``, ``rated``, ``10+5 casual``) under the result.
    """
    from rich import box
    from rich.table import Table
    from rich.text import Text

    table = Table(box=box.SIMPLE_HEAD, caption=_caption(len(games), total))
    table.add_column("Date", no_wrap=True)
    table.add_column("Black")
    table.add_column("White")
    table.add_column("Result")
    table.add_column("Moves", justify="right")
    for game in games:
        record = game.record
        result = record.result
        terms = "" if game.online is None else terms_words(game.online)
        cells = (
            record.started.astimezone().strftime("%Y-%m-%d %H:%M"),
            _player_cell(shared_name(record.black, game.black_name), game.online, Color.BLACK),
            _player_cell(shared_name(record.white, game.white_name), game.online, Color.WHITE),
            ("" if result is None else result_words(result)) + (terms and f"\n{terms}"),
            str(_move_count(record)),
        )
        table.add_row(*(Text(cell) for cell in cells))  # Text: a name is never markup
    return table


def terms_words(online: OnlineFacts) -> str:
    """An online game's terms as players say them: ``5+3 rated``, ``rated`` (untimed),
    ``10+5 casual``; nothing for an untimed casual game (as a local one)."""
    from reversi_tui.records.online_facts import format_control

    words = [] if online.control is None else [format_control(online.control)]
    if online.rated or words:
        words.append("rated" if online.rated else "casual")
    return " ".join(words)


def _player_cell(name: str, online: OnlineFacts | None, colour: Color) -> str:
    """The player's name, and under it their rating after a rated game with its change
    (``1523 (+23)``, ``1500? (-12)`` while provisional): on its own line, so that neither
    is split at 80 columns."""
    from reversi_tui.records.online_facts import format_rating

    rating = None if online is None else online.rating(colour)
    if rating is None:
        return name
    assert online is not None
    return f"{name}\n{format_rating(*rating, provisional=colour in online.provisional)}"


def result_words(result: Result) -> str:
    """``Black wins, 44-20``, ``Draw, 32-32``, ``White wins by resignation, 12-52``:
    who won and how, with the final score (the empty squares to the winner; on a
    resignation, every square the loser does not hold)."""
    black, white = result.final_score
    if result.winner is None:
        return f"Draw, {black}-{white}"
    return f"{result.summary.split(',')[0]}, {black}-{white}"


def _caption(shown: int, total: int) -> str:
    noun = "game" if total == 1 else "games"
    if shown == total:
        return f"{total} {noun}, newest first"
    newest = "the most recent" if shown == 1 else f"the {shown} most recent"
    return f"{newest} of {total} {noun}"


def _move_count(record: GameRecord) -> int:
    return sum(1 for move in record.moves if move != PASS)


def game_json(game: StoredGame) -> dict[str, Any]:
    """One game's JSON object: the columns of the records database."""
    from reversi_tui.records.database import duration_seconds

    record, result = game.record, game.record.result
    corners, colour = handicap_of(record.start) or (None, None)
    data: dict[str, Any] = {
        "id": game.id,
        "black": _player_json(shared_name(record.black, game.black_name), record.black),
        "white": _player_json(shared_name(record.white, game.white_name), record.white),
        "handicap": corners,
        "handicap_colour": colour.name.lower() if corners and colour else None,
        "start": format_position(record.start),
        "moves": record.move_list(),
        "move_count": _move_count(record),
        "started": record.started.isoformat(),
        "ended": None if record.ended is None else record.ended.isoformat(),
        "duration_seconds": duration_seconds(record),
        "rated": None if game.online is None else game.online.rated,
        "time_control": _control_json(game.online),
    }
    for colour in Color:
        data[colour.name.lower()]["rating"] = _rating_json(game.online, colour)
    if result is not None:
        black, white = result.final_score
        data["discs"] = {"black": result.discs.black, "white": result.discs.white}
        data["score"] = {"black": black, "white": white}
        data["winner"] = None if result.winner is None else result.winner.name.lower()
        data["termination"] = result.termination.value
        data["result"] = result.summary
    return data


def _player_json(name: str, spec: PlayerSpec) -> dict[str, Any]:
    computer = spec.kind is PlayerKind.COMPUTER
    return {
        "name": name,
        "kind": spec.kind.value,
        "level": spec.level if computer else None,
        "think_time": spec.think_time if computer else None,
        "depth": spec.depth if computer else None,
    }


def _control_json(online: OnlineFacts | None) -> dict[str, int] | None:
    if online is None or online.control is None:
        return None
    minutes, increment = online.control
    return {"minutes": minutes, "increment": increment}


def _rating_json(online: OnlineFacts | None, colour: Color) -> dict[str, Any] | None:
    """The player's rating after a rated game, its change and whether it is provisional."""
    rating = None if online is None else online.rating(colour)
    if rating is None:
        return None
    assert online is not None
    after, change = rating
    return {"after": after, "change": change, "provisional": colour in online.provisional}


def pgn_tags(game: StoredGame) -> dict[str, str]:
    """The PGN tags of a recorded game: the names, and an online game's own
    (``online_pgn_tags``: its Event, this host as its Site, terms and ratings)."""
    from reversi_tui.records.online_facts import online_pgn_tags

    record = game.record
    tags = {
        "Black": shared_name(record.black, game.black_name),
        "White": shared_name(record.white, game.white_name),
    }
    if game.online is not None:
        tags.update(online_pgn_tags(game.online, game.id, socket.gethostname()))
    return tags


def _export(games: list[StoredGame], target: Path) -> int:
    """Write ``games`` to ``target`` as one PGN file; say how many."""
    if not games:
        print(f"{NO_GAMES} Nothing was written to {target}.")
        return 0
    from reversi_tui.records.pgn import write_pgn

    text = "\n".join(write_pgn(game.record, pgn_tags(game)) for game in games)
    try:
        atomic_write(target, text)
    except StorageError as error:
        warn(f"reversi history: the games were not exported: {error}")
        return 1
    noun = "game" if len(games) == 1 else "games"
    print(f"Exported {len(games)} {noun} to {target}.")
    return 0
