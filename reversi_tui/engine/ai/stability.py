"""Stable discs: discs no sequence of moves can flip, for the solver's stability cut-off.

A safe subset, as endgame solvers compute it: the edges exactly (a disc on an
edge can only be flipped along that edge, so a table over the 3^8 edge
configurations, built by trying every sequence of edge moves, is exact), then
inner discs that are protected along each of their four lines, because the
line is full or a neighbour on it is a stable disc of the same colour,
repeated until nothing changes. It misses some stable discs (never reports an
unstable one), which only weakens the cut-off.

Cost: about 3 us a call, so the solver only asks where a cut-off is plausible.
"""

from __future__ import annotations

from functools import cache

FULL = 0xFFFFFFFFFFFFFFFF
_COL_A = 0x0101010101010101
_COL_H = 0x8080808080808080
_NOT_A = FULL ^ _COL_A
_NOT_H = FULL ^ _COL_H
_EDGES = 0xFF818181818181FF


def _edge_moves(p: int, o: int) -> list[tuple[int, int]]:
    """Every (p, o) after one move by either side on a line of 8 squares.

    On the board, a move on an edge square is possible through the other
    directions even when it flips nothing along the edge, so every empty
    square is a move for both sides here, flipping what it outflanks.
    """
    empty = ~(p | o) & 0xFF
    out = []
    for sq in range(8):
        bit = 1 << sq
        if not empty & bit:
            continue
        for me, you, mine in ((p, o, True), (o, p, False)):
            flipped = 0
            for step in (1, -1):
                run = 0
                s = sq + step
                while 0 <= s < 8 and you >> s & 1:
                    run |= 1 << s
                    s += step
                if run and 0 <= s < 8 and me >> s & 1:
                    flipped |= run
            me, you = me | bit | flipped, you & ~flipped
            out.append((me, you) if mine else (you, me))
    return out


@cache
def _edge_stable(p: int, o: int) -> int:
    """``p``'s discs on an 8-square edge that stay ``p``'s whatever is played there."""
    stable = p
    for np, no in _edge_moves(p, o):
        stable &= _edge_stable(np, no)
        if not stable:
            break
    return stable


def _edge_table() -> dict[int, int]:
    """Stable discs of ``p`` keyed by ``p | o << 8`` for every edge configuration."""
    table = {}
    for code in range(3**8):
        p = o = 0
        for i in range(8):
            code, digit = divmod(code, 3)
            if digit == 1:
                p |= 1 << i
            elif digit == 2:
                o |= 1 << i
        table[p | o << 8] = _edge_stable(p, o)
    _edge_stable.cache_clear()
    return table


def _column_maps(col: int) -> tuple[dict[int, int], list[int]]:
    """Column ``col`` as 8 bits (keyed by its board mask), and back."""
    to_board = []
    for bits in range(256):
        mask = 0
        for row in range(8):
            if bits >> row & 1:
                mask |= 1 << (row * 8 + col)
        to_board.append(mask)
    return {mask: bits for bits, mask in enumerate(to_board)}, to_board


def _diagonals() -> list[int]:
    """Every diagonal of both directions at least three squares long."""
    lines = []
    for d in range(-7, 8):
        lines.append(sum(1 << (r * 8 + r + d) for r in range(8) if 0 <= r + d < 8))
        lines.append(sum(1 << (r * 8 + d + 7 - r) for r in range(8) if 0 <= d + 7 - r < 8))
    return [line for line in lines if line.bit_count() >= 3]


_EDGE = _edge_table()
_A_BITS, _A_BOARD = _column_maps(0)
_H_BITS, _H_BOARD = _column_maps(7)
_DIAGONALS_9 = [line for line in _diagonals() if line & (line << 9)]
_DIAGONALS_7 = [line for line in _diagonals() if not line & (line << 9)]


def stable_discs(p: int, o: int) -> int:
    """A mask of ``p``'s discs that can never be flipped (a safe subset of them)."""
    filled = p | o
    # Squares whose row / column / diagonal is full: nothing can flip along it.
    a = filled & (filled >> 4) & 0x0F0F0F0F0F0F0F0F
    a &= a >> 2
    a &= a >> 1
    full_h = (a & _COL_A) * 0xFF
    a = filled & (filled >> 32)
    a &= a >> 16
    a &= a >> 8
    full_v = (a & 0xFF) * _COL_A
    full_9 = full_7 = 0
    for line in _DIAGONALS_9:
        if filled & line == line:
            full_9 |= line
    for line in _DIAGONALS_7:
        if filled & line == line:
            full_7 |= line
    stable = _EDGE[(p & 0xFF) | (o & 0xFF) << 8]
    stable |= _EDGE[(p >> 56) | (o >> 56) << 8] << 56
    stable |= _A_BOARD[_EDGE[_A_BITS[p & _COL_A] | _A_BITS[o & _COL_A] << 8]]
    stable |= _H_BOARD[_EDGE[_H_BITS[p & _COL_H] | _H_BITS[o & _COL_H] << 8]]
    inner = p & ~_EDGES
    stable |= inner & full_h & full_v & full_9 & full_7
    candidates = inner & ~stable
    while candidates:
        new = (
            candidates
            & (full_h | (stable << 1 & _NOT_A) | (stable >> 1 & _NOT_H))
            & (full_v | stable << 8 | stable >> 8)
            & (full_9 | (stable << 9 & _NOT_A) | (stable >> 9 & _NOT_H))
            & (full_7 | (stable << 7 & _NOT_H) | (stable >> 7 & _NOT_A))
        )
        if not new:
            break
        stable |= new
        candidates ^= new
    return stable


def score_ceiling(p: int, o: int) -> int:
    """The best final disc difference ``p`` can still reach: ``o``'s stable discs stay ``o``'s."""
    return 64 - 2 * stable_discs(o, p).bit_count()
