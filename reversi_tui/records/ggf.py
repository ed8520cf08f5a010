"""GGF, the Generic Game Server format that NBoard and Edax read and write.

A game is ``(;GM[Othello]PC[...]DT[...]PB[...]PW[...]RE[+2.000]TI[...]TY[8]
BO[8 <64 squares> <side>]B[f5]W[d6//1.2]...;)``: ``BO`` gives the start (row by
row, ``-`` empty, ``*`` black, ``O`` white, spaces optional, then ``*`` or ``O`` to
move), ``B[..]``/``W[..]`` the moves with an optional ``/eval/time`` suffix, a
pass written ``pass`` or ``PA`` (any case), and ``RE`` Black's disc difference.
Every property is kept in the tags when read (``PB``/``PW``/``PC`` also as
``Black``/``White``/``Site``, ``DT`` as ``Date``); only the 8x8 game is supported. The
players are not known from a GGF file: they open as people, with their names.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from reversi_tui.engine import PASS, Color, Move, Position, parse_square, square_name
from reversi_tui.engine.notation import NotationError
from reversi_tui.match.record import GameRecord
from reversi_tui.records.game_text import (
    PASS_WORDS,
    FormatError,
    ImportedGame,
    no_such_game,
    parse_date,
    parse_player_tag,
    pgn_date,
    record_of,
    replay,
)

_GAME = re.compile(r"\(\s*;(.*?);\s*\)", re.DOTALL)
_PROPERTY = re.compile(r"([A-Z]{1,3})\[([^\]]*)\]")
_DISCS = {"-": None, ".": None, "*": Color.BLACK, "x": Color.BLACK, "o": Color.WHITE}


def read_ggf(text: str, index: int = 0) -> ImportedGame:
    """Game ``index`` (from 0) of a GGF file."""
    games = _GAME.findall(text)
    if not games:
        raise FormatError("no GGF game found: expected (;GM[Othello]...;)")
    if not 0 <= index < len(games):
        raise no_such_game(len(games), index)
    return _read(games[index])


def read_ggf_all(text: str) -> list[ImportedGame]:
    return [_read(body) for body in _GAME.findall(text)]


def _read(body: str) -> ImportedGame:
    tags: dict[str, str] = {}
    plays: list[tuple[Color, str]] = []
    for key, value in _PROPERTY.findall(body):
        if key in ("B", "W"):
            plays.append((Color.BLACK if key == "B" else Color.WHITE, value.split("/", 1)[0]))
        else:
            tags.setdefault(key, value)
    if tags.get("GM", "Othello").lower() != "othello":
        raise FormatError(f"not an Othello game: GM[{tags['GM']}]")
    start = _board(tags["BO"]) if "BO" in tags else Position.initial()
    moves = _moves(start, plays)
    game = replay(start, moves)
    started = parse_date(tags.get("DT"))
    for ours, theirs in (("Black", "PB"), ("White", "PW"), ("Site", "PC")):
        if tags.get(theirs):
            tags[ours] = tags[theirs]
    if "DT" in tags:
        tags["Date"] = pgn_date(started)
    black, white = (parse_player_tag(None, tags.get(key)) for key in ("PB", "PW"))
    return ImportedGame(record_of(game, black, white, started), tags)


def _board(value: str) -> Position:
    """``8 <64 squares> <side>``, spaces optional."""
    cells = "".join(value.split())
    if not cells.startswith("8"):
        raise FormatError(f"only 8x8 boards are supported: BO[{value.strip()[:12]}...]")
    cells = cells[1:]
    if len(cells) != 65:
        raise FormatError("BO must give 64 squares and the side to move")
    black = white = 0
    for square, char in enumerate(cells[:64]):
        if char.lower() not in _DISCS:
            raise FormatError(f"BO has {char!r} at {square_name(square)}: use -, * or O")
        colour = _DISCS[char.lower()]
        if colour is Color.BLACK:
            black |= 1 << square
        elif colour is Color.WHITE:
            white |= 1 << square
    side = _DISCS.get(cells[64].lower())
    if side is None:
        raise FormatError("BO must end with the side to move: * or O")
    return Position(black, white, side)


def _moves(start: Position, plays: list[tuple[Color, str]]) -> list[tuple[str, Move]]:
    """Squares and written passes; each move's colour is checked against the turn."""
    moves: list[tuple[str, Move]] = []
    position = start
    number = 0
    for colour, written in plays:
        word = written.strip()
        if word.lower() in PASS_WORDS:
            moves.append((word, PASS))
            if position.must_pass:
                position = position.pass_turn()
            continue
        number += 1
        try:
            square = parse_square(word)
        except NotationError:
            raise FormatError(f"move {number} ({word}) is not a square") from None
        if position.turn is not colour and position.must_pass:
            position = position.pass_turn()  # a pass the file left out
        if position.turn is not colour:
            raise FormatError(
                f"move {number} ({word}) is {colour.title}'s, but {position.turn.title} is to move"
            )
        moves.append((word, square))
        if position.is_game_over or not position.flips(square):
            break  # replay names the fault
        position = position.play(square)
    return moves


#: Properties ``write_ggf`` writes itself; other two-letter ones read from a file
#: (``RB``, ``RW``, ``TI``...) are written back as they were.
_OWN = frozenset({"GM", "PC", "DT", "PB", "PW", "RE", "TY", "BO", "B", "W"})


def write_ggf(
    record: GameRecord,
    tags: Mapping[str, str] | None = None,
    *,
    evaluations: Sequence[float | None] | None = None,
) -> str:
    """The record as one GGF game, passes written ``PA``.

    ``evaluations``, one per ply of the record (passes included; None: none), go in
    each move's evaluation field, ``B[d3/-4.00]``: the mover's value of the move, in
    discs, as GGF's ``move/eval/time`` has it (readers that want no value drop it).
    """
    given = dict(tags or {})
    game = record.game()
    if evaluations is not None and len(evaluations) != len(game.plies):
        raise ValueError(f"{len(evaluations)} evaluations for {len(game.plies)} plies")
    outcome = game.outcome()
    parts = [
        "GM[Othello]",
        f"PC[{_clean(given.get('Site', 'reversi-tui'))}]",
        f"DT[{record.started.strftime('%Y.%m.%d_%H:%M:%S.%Z')}]",
        f"PB[{_clean(given.get('Black', record.black.label))}]",
        f"PW[{_clean(given.get('White', record.white.label))}]",
    ]
    parts.extend(
        f"{key}[{_clean(value)}]"
        for key, value in given.items()
        if re.fullmatch(r"[A-Z]{2}", key) and key not in _OWN
    )
    if outcome is not None:
        parts.append(f"RE[{outcome.black - outcome.white:+.3f}]")
    parts.append("TY[8]")
    parts.append(f"BO[8 {board_value(record.start)}]")
    for i, ply in enumerate(game.plies):
        key = "B" if ply.color is Color.BLACK else "W"
        move = "PA" if ply.move == PASS else square_name(ply.move)
        value = None if evaluations is None else evaluations[i]
        parts.append(f"{key}[{move}]" if value is None else f"{key}[{move}/{value:.2f}]")
    return f"(;{''.join(parts)};)\n"


def board_value(position: Position) -> str:
    """``BO``'s value after its size: the rows (``-``, ``*``, ``O``), then the side to move."""
    rows = []
    for row in range(8):
        cells = ""
        for column in range(8):
            colour = position.color_at(row * 8 + column)
            cells += "*" if colour is Color.BLACK else "O" if colour is Color.WHITE else "-"
        rows.append(cells)
    side = "*" if position.turn is Color.BLACK else "O"
    return " ".join(rows) + f" {side}"


def _clean(value: str) -> str:
    return value.replace("]", ")").replace("[", "(")
