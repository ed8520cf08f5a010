"""Opening names: the common English names of Othello's opening lines, found by position.

The names are in ``openings.txt`` beside this module (the package's own resource, read on
first use and kept): one line each, the moves from the standard start run together
(``f5d6c3d3c4``), a space and the name; ``#`` starts a comment line.

A line names the *position* its moves reach, taken under the four symmetries that keep
the start position (the identity, the reflections in the a1-h8 and a8-h1 diagonals, and
the half turn), so the same opening begun on d3, c4 or e6 instead of f5, or reached in
another move order, has the same name. When two lines reach one position the first line
wins; the packaged file has no such pair (other names of an opening share its line:
"Snake / Peasant").

A game is named after the deepest position along it that has a name, so the name stays
once the game leaves the known lines. Nothing here touches the disk but that resource.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Final

from reversi_tui.engine.board import PASS, Color, Move, Position
from reversi_tui.engine.game import Ply
from reversi_tui.engine.notation import NotationError, parse_square

__all__ = [
    "RESOURCE",
    "Opening",
    "OpeningKey",
    "load_openings",
    "opening_for",
    "packaged_openings",
    "position_key",
]

#: The names the package ships, in this package.
RESOURCE: Final = "openings.txt"

#: A position as the table keys it: its smallest image under the four symmetries
#: (black mask, white mask), then the side to move.
OpeningKey = tuple[int, int, Color]

_START: Final = Position.initial()


@dataclass(frozen=True, slots=True)
class Opening:
    """A named line: its name, its squares as the file has them, and its length in plies
    (the squares plus any pass the rules forced on the way; the packaged lines have none)."""

    name: str
    moves: tuple[Move, ...]
    plies: int


# The symmetries, as delta swaps on a bitboard (a1 = bit 0, h1 = bit 7, a8 = bit 56).
def _flip_diagonal(x: int) -> int:
    """Reflect in the a1-h8 diagonal: the square (row, column) goes to (column, row)."""
    t = 0x0F0F0F0F00000000 & (x ^ (x << 28))
    x ^= t ^ (t >> 28)
    t = 0x3333000033330000 & (x ^ (x << 14))
    x ^= t ^ (t >> 14)
    t = 0x5500550055005500 & (x ^ (x << 7))
    return x ^ t ^ (t >> 7)


def _flip_anti_diagonal(x: int) -> int:
    """Reflect in the a8-h1 diagonal: (row, column) goes to (7 - column, 7 - row)."""
    t = x ^ (x << 36)  # bits past 64 are masked off below
    x ^= 0xF0F0F0F00F0F0F0F & (t ^ (x >> 36))
    t = 0xCCCC0000CCCC0000 & (x ^ (x << 18))
    x ^= t ^ (t >> 18)
    t = 0xAA00AA00AA00AA00 & (x ^ (x << 9))
    return x ^ t ^ (t >> 9)


def position_key(pos: Position) -> OpeningKey:
    """The key of ``pos`` and of its three images under the symmetries of the start."""
    black, white = pos.black, pos.white
    diagonal = (_flip_diagonal(black), _flip_diagonal(white))
    anti = (_flip_anti_diagonal(black), _flip_anti_diagonal(white))
    half_turn = (_flip_diagonal(anti[0]), _flip_diagonal(anti[1]))
    low_black, low_white = min((black, white), diagonal, anti, half_turn)
    return low_black, low_white, pos.turn


def _parse_line(line: str, number: int) -> tuple[Opening, Position]:
    """One line of the file: the opening and the position it names."""
    parts = line.split(None, 1)
    if len(parts) < 2 or not parts[1].strip():
        raise ValueError(
            f"line {number}: {line!r} has no name: write the moves, a space and the name"
        )
    text, name = parts[0].lower(), parts[1].strip()
    if len(text) % 2:
        raise ValueError(f"line {number}: {parts[0]!r} has an odd number of characters")
    pos = _START
    moves: list[Move] = []
    plies = 0
    for i in range(0, len(text), 2):
        index = i // 2 + 1
        try:
            sq = parse_square(text[i : i + 2])
        except NotationError as error:
            raise ValueError(f"line {number}: move {index}: {error}") from None
        if pos.must_pass:
            pos, plies = pos.pass_turn(), plies + 1
        if not pos.is_legal(sq):
            raise ValueError(f"line {number}: move {index} ({text[i : i + 2]}) is not legal there")
        pos, plies = pos.play(sq), plies + 1
        moves.append(sq)
    return Opening(name, tuple(moves), plies), pos


def load_openings(text: str) -> dict[OpeningKey, Opening]:
    """The table of a file's text: each line's opening under the key of the position its
    moves reach; the first line wins a position two lines reach. A line that is not a
    legal move list from the standard start followed by a name raises ValueError naming
    the line."""
    table: dict[OpeningKey, Opening] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        opening, pos = _parse_line(line, number)
        table.setdefault(position_key(pos), opening)
    return table


@cache
def packaged_openings() -> Mapping[OpeningKey, Opening]:
    """The package's own table, read on first use and kept."""
    resource = resources.files(__package__).joinpath(RESOURCE)
    return load_openings(resource.read_text(encoding="utf-8"))


@cache
def _packaged_discs() -> int:
    return _most_discs(packaged_openings())


def _most_discs(table: Mapping[OpeningKey, Opening]) -> int:
    """The most discs a named position has: no deeper position can have a name."""
    return max(((black | white).bit_count() for black, white, _ in table), default=0)


def opening_for(
    plies_or_moves: Sequence[Ply | Move],
    start: Position | None = None,
    *,
    table: Mapping[OpeningKey, Opening] | None = None,
) -> Opening | None:
    """The named opening of the deepest position along a game that has a name.

    The game is its plies, or its moves (squares, ``PASS`` where a side passed) from
    ``start``. None when no position along it has a name, or when the game did not
    begin at the standard start (``start``, or the first ply's position before it).
    Only positions no deeper than the table's deepest are looked at. ``table`` is the
    packaged one unless given. Raises IllegalMoveError for a move list that is not legal.
    """
    if start is not None and start != _START:
        return None
    if table is None:
        table, most = packaged_openings(), _packaged_discs()
    else:
        most = _most_discs(table)
    found: Opening | None = None
    pos = _START
    for index, item in enumerate(plies_or_moves):
        if isinstance(item, Ply):
            if index == 0 and item.before != _START:
                return None
            pos = item.after
        else:
            pos = pos.pass_turn() if item == PASS else pos.play(item)
        if (pos.black | pos.white).bit_count() > most:
            break
        found = table.get(position_key(pos), found)
    return found
