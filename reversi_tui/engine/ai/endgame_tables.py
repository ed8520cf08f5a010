"""Lookup tables of the endgame solver, built once at import (about 0.1 s).

Every table is per square and per line through it (row, column, two
diagonals): a line has at most seven other squares, so a table keyed by the
discs on it has at most 128 entries, and the four lines of one square are
disjoint, so their results simply add or combine with OR.
"""

from __future__ import annotations

from reversi_tui.engine.bitboard import FULL, INNER_COLS
from reversi_tui.engine.notation import parse_square

#: Line directions (row step, column step); each line is this ray plus its mirror.
_LINES = ((0, 1), (1, 0), (1, 1), (1, -1))

#: Squares in the order the shallow search tries them (within a parity class):
#: corners first, X-squares (diagonally next to a corner) and C-squares last,
#: the usual static order of endgame solvers.
_ORDER_NAMES = (
    "a1 h1 a8 h8 c4 f4 c5 f5 d3 e3 d6 e6 c3 f3 c6 f6 a3 h3 a6 h6 c1 f1 c8 f8 "
    "a4 h4 a5 h5 d1 e1 d8 e8 b3 g3 b6 g6 c2 f2 c7 f7 b4 g4 b5 g5 d2 e2 d7 e7 "
    "b1 g1 b8 g8 a2 h2 a7 h7 b2 g2 b7 g7 d4 e4 d5 e5"
)
SQUARE_ORDER: tuple[int, ...] = tuple(parse_square(name) for name in _ORDER_NAMES.split())

#: Each square's place in SQUARE_ORDER, to sort a few empties by it.
SQUARE_RANK: tuple[int, ...] = tuple(SQUARE_ORDER.index(sq) for sq in range(64))

#: One bit per 4x4 quadrant: parity ordering plays first where an odd number
#: of squares is empty, as the last move of a region tends to be worth most.
QUADRANT: tuple[int, ...] = tuple(1 << ((sq >= 32) * 2 + (sq % 8 >= 4)) for sq in range(64))


#: Squares next to each square: a move needs an opponent disc among them, a
#: one-operation test that skips most hopeless flip computations.
NEIGHBOURS: tuple[int, ...] = tuple(
    sum(
        1 << (r * 8 + c)
        for r in range(sq // 8 - 1, sq // 8 + 2)
        for c in range(sq % 8 - 1, sq % 8 + 2)
        if 0 <= r < 8 and 0 <= c < 8 and r * 8 + c != sq
    )
    for sq in range(64)
)

#: Bits per lane when several boards are packed into one int to generate their
#: moves in one pass: eight guard bits stop shifts from leaking between lanes.
LANE = 72

#: For k packed boards: (every square, every square but columns a and h).
PACKED_MASKS: tuple[tuple[int, int], ...] = tuple(
    (
        sum(FULL << (LANE * i) for i in range(k)),
        sum(INNER_COLS << (LANE * i) for i in range(k)),
    )
    for k in range(65)
)


def _ray(sq: int, dr: int, dc: int) -> list[int]:
    """Squares from ``sq`` (excluded) to the edge in one direction, nearest first."""
    row, col = divmod(sq, 8)
    out = []
    row, col = row + dr, col + dc
    while 0 <= row < 8 and 0 <= col < 8:
        out.append(row * 8 + col)
        row, col = row + dr, col + dc
    return out


def _subsets(squares: list[int]) -> list[int]:
    """Every mask made of some of ``squares``."""
    masks = [0]
    for sq in squares:
        masks += [m | 1 << sq for m in masks]
    return masks


def _closing(ray: list[int], opp: int) -> int:
    """The square that would close a run of ``opp`` discs starting next to the mover."""
    k = 0
    while k < len(ray) and opp >> ray[k] & 1:
        k += 1
    return 1 << ray[k] if 0 < k < len(ray) else 0


def _run_to(ray: list[int], end: int) -> int:
    """The squares of ``ray`` before the square ``end`` (a bit), or 0 for no end."""
    run = 0
    if end:
        for sq in ray:
            if 1 << sq == end:
                return run
            run |= 1 << sq
    return 0


def _flip_count(up: list[int], down: list[int], mine: int, theirs: int) -> int:
    """Discs a move flips along a full line where ``mine``/``theirs`` hold the squares."""
    total = 0
    for ray in (up, down):
        k = 0
        while k < len(ray) and theirs >> ray[k] & 1:
            k += 1
        if 0 < k < len(ray) and mine >> ray[k] & 1:
            total += k
    return total


#: A lookup keyed by the discs on one line (a mask of at most seven squares).
LineTable = dict[int, int]
#: Per square, for each of its four lines: (line mask, closing squares, flipped runs).
FlipEntry = tuple[
    int, LineTable, LineTable,
    int, LineTable, LineTable,
    int, LineTable, LineTable,
    int, LineTable, LineTable,
]  # fmt: skip
#: Per square, for each of its four lines: (line mask, packed flip counts).
LastEntry = tuple[int, LineTable, int, LineTable, int, LineTable, int, LineTable]


def _line_tables(sq: int, dr: int, dc: int) -> tuple[int, LineTable, LineTable, LineTable]:
    """(line mask, closing, runs, last-move counts) of the line through ``sq`` along (dr, dc)."""
    up, down = _ray(sq, dr, dc), _ray(sq, -dr, -dc)
    line = 0
    for s in up + down:
        line |= 1 << s
    subsets = _subsets(up + down)
    closing = {m: _closing(up, m) | _closing(down, m) for m in subsets}
    runs = {}
    for end_up in [0] + [1 << s for s in up[1:]]:
        for end_down in [0] + [1 << s for s in down[1:]]:
            if end_up | end_down:
                runs[end_up | end_down] = _run_to(up, end_up) | _run_to(down, end_down)
    # Full line: the opponent holds every square the player does not.
    last = {
        m: _flip_count(up, down, m, line ^ m) | _flip_count(up, down, line ^ m, m) << 6
        for m in subsets
    }
    return line, closing, runs, last


def _build() -> tuple[list[FlipEntry], list[LastEntry]]:
    flip_tables: list[FlipEntry] = []
    last_tables: list[LastEntry] = []
    for sq in range(64):
        (l0, c0, r0, n0), (l1, c1, r1, n1), (l2, c2, r2, n2), (l3, c3, r3, n3) = (
            _line_tables(sq, dr, dc) for dr, dc in _LINES
        )
        flip_tables.append((l0, c0, r0, l1, c1, r1, l2, c2, r2, l3, c3, r3))
        last_tables.append((l0, n0, l1, n1, l2, n2, l3, n3))
    return flip_tables, last_tables


#: Per square: (line, closing, runs) for each of the four lines. ``closing``
#: maps the opponent discs on the line to the squares that would end a run of
#: them next to the square; ``runs`` maps the player's discs among those to
#: the discs flipped.
FLIP_TABLES: list[FlipEntry]
#: Per square: (line, counts) for each line. ``counts`` maps the player's discs
#: on a full line to the discs the player's move there flips, plus 64 times
#: the discs the opponent's move there would flip.
LAST_TABLES: list[LastEntry]
FLIP_TABLES, LAST_TABLES = _build()
