"""One door for every game format: read whatever a file holds, write the one asked for.

``read_game`` tells GGF (``(;GM[Othello]``), PGN-style records (tags or numbered
moves), a 64-character position and a plain move list (``f5d6c3...``) apart. A
move list from another start than the usual one is led by that position
(``"<64 squares> X f5d6"``, ``moves_text``): it is what ``m`` copies and
``convert --to moves`` writes, and ``--moves``/``--position`` take it back
(``parse_moves_text``).

Each format is declared once, in ``FORMATS``: its name, the file name endings it is
saved under, how its text is told apart, read and written. ``reversi convert --to``,
the save and open dialogs and ``read_game`` take their lists from it, so a new format
is one ``GameFormat`` here (and its reader and writer).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from reversi_tui.engine import Game, Move, Position, format_position, parse_position, parse_square
from reversi_tui.engine.notation import NotationError, format_move_list, parse_move_list
from reversi_tui.match.record import GameRecord
from reversi_tui.match.settings import PlayerSpec
from reversi_tui.records.game_text import (
    FormatError,
    ImportedGame,
    no_such_game,
    opening_settings,
    parse_date,
    record_of,
    replay,
)
from reversi_tui.records.ggf import read_ggf, write_ggf
from reversi_tui.records.pgn import read_pgn, write_pgn

_POSITION = re.compile(
    r"^\s*(?P<position>[-.XxOo*0]{64}\s+[XxOo*0-])(?P<moves>(?:\s*[a-hA-H][1-8])*)\s*(;.*)?$",
    re.DOTALL,
)
_MOVES = re.compile(r"^[a-hA-H1-8\s]+$")

__all__ = [
    "FORMATS",
    "FORMAT_NAMES",
    "SAVED_FORMATS",
    "FormatError",
    "GameFormat",
    "ImportedGame",
    "format_named",
    "format_of_suffix",
    "moves_text",
    "opening_settings",
    "parse_moves_text",
    "read_game",
    "write_game",
]

#: A writer: the record, the tags to add (names, a site...) and whether the players'
#: kinds are known (``players=False``: a game from another program).
Writer = Callable[[GameRecord, Mapping[str, str] | None, bool], str]


@dataclass(frozen=True, slots=True)
class GameFormat:
    """One game-file format: what names it, how its text is told apart, read and written."""

    #: ``reversi convert --to``'s choice, and what ``write_game`` is asked for.
    name: str
    #: What it is called in a sentence: ``PGN``, ``a move list``.
    title: str
    #: What a file of it shows, for "not a game file: expected ...".
    expected: str
    #: ``convert --to``'s help for it (the name, and what it writes when not plain).
    help: str
    #: The file name endings (lower case) it is saved and listed under, the usual one
    #: first; none: the save dialog does not write it (convert and copying do).
    suffixes: tuple[str, ...]
    #: Whether a text (its byte order mark dropped) looks like this format.
    sniff: Callable[[str], bool]
    #: Formats are sniffed from the lowest rank up: the more telling signs first.
    rank: int
    #: Game ``index`` (from 0) of a text of this format; FormatError when there is none.
    read: Callable[[str, int], ImportedGame]
    #: The record as a text of this format, ending with a newline.
    write: Writer


def _one_game(read: Callable[[str], ImportedGame]) -> Callable[[str, int], ImportedGame]:
    """The reader of a format that holds exactly one game."""

    def read_one(text: str, index: int) -> ImportedGame:
        if index:
            raise no_such_game(1, index)
        return read(text)

    return read_one


def _read_position(text: str) -> ImportedGame:
    found = _POSITION.match(text)
    if found is None:
        raise FormatError("not a position: expected 64 squares, a space and the side to move")
    try:
        start = parse_position(found["position"])
    except NotationError as error:
        raise FormatError(str(error)) from None
    squares = "".join(found["moves"].split())
    pairs = [squares[i : i + 2] for i in range(0, len(squares), 2)]
    game = replay(start, [(pair, parse_square(pair)) for pair in pairs])
    human = PlayerSpec.human()
    return ImportedGame(record_of(game, human, human, parse_date(None)))


def _write_position(record: GameRecord, tags: Mapping[str, str] | None, players: bool) -> str:
    """The final position; ``-`` to move when the game is over."""
    final = record.game().position
    board = format_position(final)
    return (board[:64] + " -" if final.is_game_over else board) + "\n"


#: Every game-file format, in ``convert --to``'s order.
FORMATS: tuple[GameFormat, ...] = (
    GameFormat(
        name="pgn",
        title="PGN",
        expected="PGN tags and moves",
        help="pgn",
        suffixes=(".pgn",),
        sniff=lambda text: "[" in text or re.search(r"\d+\.", text) is not None,
        rank=3,
        read=read_pgn,
        write=lambda record, tags, players: write_pgn(record, tags, players=players),
    ),
    GameFormat(
        name="ggf",
        title="GGF",
        expected="a GGF game",
        help="ggf",
        suffixes=(".ggf",),
        sniff=lambda text: "(;" in text,
        rank=0,
        read=read_ggf,
        write=lambda record, tags, players: write_ggf(record, tags),
    ),
    GameFormat(
        name="moves",
        title="a move list",
        expected="a move list",
        help="moves (f5d6c3...)",
        suffixes=(),
        sniff=lambda text: _MOVES.match(text) is not None and bool(text.strip()),
        rank=2,
        read=_one_game(read_pgn),
        write=lambda record, tags, players: moves_text(record.start, record.moves) + "\n",
    ),
    GameFormat(
        name="position",
        title="a position",
        expected="a position",
        help="position (the final one; - to move when over)",
        suffixes=(),
        sniff=lambda text: _POSITION.match(text) is not None,
        rank=1,
        read=_one_game(_read_position),
        write=_write_position,
    ),
)
#: Their names: ``reversi convert --to``'s choices.
FORMAT_NAMES = tuple(fmt.name for fmt in FORMATS)
#: The formats the save dialog writes (and the open dialog lists), the default first.
SAVED_FORMATS = tuple(fmt for fmt in FORMATS if fmt.suffixes)
_SNIFFED = sorted(FORMATS, key=lambda fmt: fmt.rank)


def format_named(name: str) -> GameFormat:
    """The format called ``name``; ValueError naming the choices when there is none."""
    for fmt in FORMATS:
        if fmt.name == name:
            return fmt
    raise ValueError(f"unknown format {name!r}: choose from {', '.join(FORMAT_NAMES)}")


def format_of_suffix(suffix: str) -> GameFormat | None:
    """The format a file name ending (``.PGN`` as ``.pgn``) is saved in; None when none is."""
    return next((fmt for fmt in FORMATS if suffix.lower() in fmt.suffixes), None)


def _choices(words: Iterable[str]) -> str:
    """``a, b or c``."""
    *most, last = words
    return f"{', '.join(most)} or {last}" if most else last


def read_game(text: str, index: int = 0) -> ImportedGame:
    """Game ``index`` (from 0) of ``text``, whatever its format; FormatError if none is
    recognised, or when the file holds no such game (a position or a move list is one)."""
    text = text.lstrip("\ufeff")
    for fmt in _SNIFFED:
        if fmt.sniff(text):
            return fmt.read(text, index)
    expected = _choices(fmt.expected for fmt in FORMATS)
    raise FormatError(f"not a game file: expected {expected}")


def write_game(
    record: GameRecord, fmt: str, tags: Mapping[str, str] | None = None, *, players: bool = True
) -> str:
    """``record`` in format ``fmt`` (one of ``FORMAT_NAMES``), ending with a newline.

    ``players=False``: the players' kinds are not known (a game from another program).
    """
    return format_named(fmt).write(record, tags, players)


def moves_text(start: Position, moves: Iterable[Move]) -> str:
    """The moves as one line that replays: ``f5d6c3`` from the usual start; from any
    other (a handicap, a loaded position) led by it, ``"<64 squares> X f5d6c3"``."""
    squares = format_move_list(list(moves))
    if start == Position.initial():
        return squares
    return f"{format_position(start)} {squares}".rstrip()


def parse_moves_text(text: str, *, position: bool = False) -> Game:
    """The game ``moves_text`` wrote: a move list, led by its start when its first word
    is a 64-square board (always, with ``position``: ``--position``'s text).

    Raises NotationError (a ValueError) naming what is wrong, or the first move that
    cannot be played.
    """
    words = text.split(";", 1)[0].split()
    if position or (words and len(words[0]) == 64):
        start: Position | None = parse_position(" ".join(words[:2]))
        squares = "".join(words[2:])
    else:
        start, squares = None, text
    return Game.from_moves(start, parse_move_list(squares, start))
