"""One door for every game format: read whatever a file holds, write the one asked for.

``read_game`` tells GGF (``(;GM[Othello]``), PGN-style records (tags or numbered
moves), a 64-character position and a plain move list (``f5d6c3...``) apart. A
move list from another start than the usual one is led by that position
(``"<64 squares> X f5d6"``, ``moves_text``): it is what ``m`` copies and
``convert --to moves`` writes, and ``--moves``/``--position`` take it back
(``parse_moves_text``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

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

#: The formats ``write_game`` (and ``reversi convert --to``) know.
FORMATS = ("pgn", "ggf", "moves", "position")
_POSITION = re.compile(
    r"^\s*(?P<position>[-.XxOo*0]{64}\s+[XxOo*0-])(?P<moves>(?:\s*[a-hA-H][1-8])*)\s*(;.*)?$",
    re.DOTALL,
)
_MOVES = re.compile(r"^[a-hA-H1-8\s]+$")

__all__ = [
    "FORMATS",
    "FormatError",
    "ImportedGame",
    "moves_text",
    "opening_settings",
    "parse_moves_text",
    "read_game",
    "write_game",
]


def read_game(text: str, index: int = 0) -> ImportedGame:
    """Game ``index`` (from 0) of ``text``, whatever its format; FormatError if none is
    recognised, or when the file holds no such game (a position or a move list is one)."""
    text = text.lstrip("\ufeff")
    if "(;" in text:
        return read_ggf(text, index)
    found = _POSITION.match(text)
    if index and (found or (_MOVES.match(text) and text.strip())):
        raise no_such_game(1, index)
    if found:
        try:
            start = parse_position(found["position"])
        except NotationError as error:
            raise FormatError(str(error)) from None
        squares = "".join(found["moves"].split())
        pairs = [squares[i : i + 2] for i in range(0, len(squares), 2)]
        game = replay(start, [(pair, parse_square(pair)) for pair in pairs])
        human = PlayerSpec.human()
        return ImportedGame(record_of(game, human, human, parse_date(None)))
    if _MOVES.match(text) and text.strip():
        return read_pgn(text)
    if "[" in text or re.search(r"\d+\.", text):
        return read_pgn(text, index)
    raise FormatError(
        "not a game file: expected PGN tags and moves, a GGF game, a move list or a position"
    )


def write_game(
    record: GameRecord, fmt: str, tags: Mapping[str, str] | None = None, *, players: bool = True
) -> str:
    """``record`` in format ``fmt`` (one of ``FORMATS``), ending with a newline.

    ``players=False``: the players' kinds are not known (a game from another program).
    """
    if fmt == "pgn":
        return write_pgn(record, tags, players=players)
    if fmt == "ggf":
        return write_ggf(record, tags)
    if fmt == "moves":
        return moves_text(record.start, record.moves) + "\n"
    if fmt == "position":
        final = record.game().position
        board = format_position(final)
        return (board[:64] + " -" if final.is_game_over else board) + "\n"
    raise ValueError(f"unknown format {fmt!r}: choose from {', '.join(FORMATS)}")


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
