"""One door for every game format: read whatever a file holds, write the one asked for.

``read_game`` tells GGF (``(;GM[Othello]``), PGN-style records (tags or numbered
moves), a 64-character position and a plain move list (``f5d6c3...``) apart.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from reversi_tui.engine import format_position, parse_position
from reversi_tui.engine.notation import NotationError
from reversi_tui.match.record import GameRecord
from reversi_tui.match.settings import PlayerSpec
from reversi_tui.records.game_text import FormatError, ImportedGame, parse_date, record_of, replay
from reversi_tui.records.ggf import read_ggf, write_ggf
from reversi_tui.records.pgn import read_pgn, write_pgn

#: The formats ``write_game`` (and ``reversi convert --to``) know.
FORMATS = ("pgn", "ggf", "moves", "position")
_POSITION = re.compile(r"^\s*[-.XxOo*0]{64}\s+[XxOo*0-]\s*(;.*)?$", re.DOTALL)
_MOVES = re.compile(r"^[a-hA-H1-8\s]+$")

__all__ = ["FORMATS", "FormatError", "ImportedGame", "read_game", "write_game"]


def read_game(text: str, index: int = 0) -> ImportedGame:
    """The game in ``text``, whatever its format; FormatError if none is recognised."""
    text = text.lstrip("\ufeff")
    if "(;" in text:
        return read_ggf(text, index)
    if _POSITION.match(text):
        try:
            start = parse_position(text)
        except NotationError as error:
            raise FormatError(str(error)) from None
        game = replay(start, [])
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
        return record.move_list() + "\n"
    if fmt == "position":
        final = record.game().position
        board = format_position(final)
        return (board[:64] + " -" if final.is_game_over else board) + "\n"
    raise ValueError(f"unknown format {fmt!r}: choose from {', '.join(FORMATS)}")
