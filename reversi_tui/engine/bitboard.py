"""Raw bitboard primitives on Python ints.

Bit ``row * 8 + col`` is the square at column ``col`` (a=0) and row ``row``
(row 1 = 0, drawn at the top), so bit 0 is a1, bit 7 is h1 and bit 63 is h8.
A side is a 64-bit mask; functions take ``(player, opponent)`` masks, which is
what a negamax search wants.

In CPython the cost is the number of big-int operations, so move generation
uses whole-board shifts with the "doubling" fill (four steps per direction
instead of six) and flips walk precomputed rays: no per-square loops.
"""

from __future__ import annotations

from collections.abc import Iterator

FULL = 0xFFFFFFFFFFFFFFFF
#: Every square but columns a and h: masks wrap-around for shifts with a column step.
INNER_COLS = 0x7E7E7E7E7E7E7E7E

#: The four corners a1, h1, a8 and h8.
CORNERS = (1 << 0) | (1 << 7) | (1 << 56) | (1 << 63)


def legal_moves(p: int, o: int, inner: int = INNER_COLS, full: int = FULL) -> int:
    """Mask of the empty squares where the player with ``p`` outflanks ``o``.

    ``inner`` and ``full`` are for packed boards (see ``LANE``); leave them out for one board.
    """
    empty = ~(p | o) & full
    m = o & inner
    # Horizontal (shift 1), with the column mask.
    pre = m & (m << 1)
    f = m & (p << 1)
    f |= m & (f << 1)
    f |= pre & (f << 2)
    f |= pre & (f << 2)
    moves = f << 1
    pre = m & (m >> 1)
    f = m & (p >> 1)
    f |= m & (f >> 1)
    f |= pre & (f >> 2)
    f |= pre & (f >> 2)
    moves |= f >> 1
    # Vertical (shift 8): no wrap-around, the whole opponent mask.
    pre = o & (o << 8)
    f = o & (p << 8)
    f |= o & (f << 8)
    f |= pre & (f << 16)
    f |= pre & (f << 16)
    moves |= f << 8
    pre = o & (o >> 8)
    f = o & (p >> 8)
    f |= o & (f >> 8)
    f |= pre & (f >> 16)
    f |= pre & (f >> 16)
    moves |= f >> 8
    # Diagonal (shift 7).
    pre = m & (m << 7)
    f = m & (p << 7)
    f |= m & (f << 7)
    f |= pre & (f << 14)
    f |= pre & (f << 14)
    moves |= f << 7
    pre = m & (m >> 7)
    f = m & (p >> 7)
    f |= m & (f >> 7)
    f |= pre & (f >> 14)
    f |= pre & (f >> 14)
    moves |= f >> 7
    # Anti-diagonal (shift 9).
    pre = m & (m << 9)
    f = m & (p << 9)
    f |= m & (f << 9)
    f |= pre & (f << 18)
    f |= pre & (f << 18)
    moves |= f << 9
    pre = m & (m >> 9)
    f = m & (p >> 9)
    f |= m & (f >> 9)
    f |= pre & (f >> 18)
    f |= pre & (f >> 18)
    moves |= f >> 9
    return moves & empty


def _build_rays() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """Rays from every square: (up-index rays, down-index rays), four of each."""
    up: list[tuple[int, ...]] = []
    down: list[tuple[int, ...]] = []
    for sq in range(64):
        row, col = divmod(sq, 8)
        ups: list[int] = []
        downs: list[int] = []
        for dr, dc in ((0, 1), (1, -1), (1, 0), (1, 1)):
            for sign, target in ((1, ups), (-1, downs)):
                ray = 0
                r, c = row + sign * dr, col + sign * dc
                while 0 <= r < 8 and 0 <= c < 8:
                    ray |= 1 << (r * 8 + c)
                    r, c = r + sign * dr, c + sign * dc
                target.append(ray)
        up.append(tuple(ups))
        down.append(tuple(downs))
    return tuple(up), tuple(down)


_UP_RAYS, _DOWN_RAYS = _build_rays()


def flips(p: int, o: int, sq: int) -> int:
    """Mask of the opponent discs that a move at ``sq`` flips (0 if it flips none)."""
    result = 0
    not_o = ~o
    for ray in _UP_RAYS[sq]:
        # The first non-opponent square along a rising ray is its lowest set bit.
        blockers = ray & not_o
        if blockers:
            b = blockers & -blockers
            if b & p:
                result |= ray & (b - 1)
    for ray in _DOWN_RAYS[sq]:
        # Along a falling ray it is the highest set bit.
        blockers = ray & not_o
        if blockers:
            b = 1 << (blockers.bit_length() - 1)
            if b & p:
                result |= ray & -(b << 1)
    return result


def squares(mask: int) -> Iterator[int]:
    """The set bits of ``mask`` as square indices, lowest first.

    The one bit loop to use outside the hot paths. Packed perft, the midgame search
    and the endgame solver write the same loop out where it runs once per node:
    there a generator costs about twice as much per square (measured: 2-6% of a search).
    """
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


#: Packed boards: one 64-bit board per lane, lanes LANE bits apart. The 18 guard bits
#: above each board absorb the widest shift of the fill (2 x 9), so lanes never mix.
LANE = 82


def _packed_masks(lanes: int) -> tuple[int, int, int]:
    """(inner columns, full board, lane repeater) for ``lanes`` packed boards."""
    inner = full = rep = 0
    for i in range(lanes):
        inner |= INNER_COLS << (i * LANE)
        full |= FULL << (i * LANE)
        rep |= 1 << (i * LANE)
    return inner, full, rep


_PACKED = [_packed_masks(n) for n in range(40)]

#: (shift, whether the direction has a column step and so must mask wrap-around)
_DIRECTIONS = ((1, True), (8, False), (7, True), (9, True))


def _packed_children(p: int, o: int, moves: int) -> tuple[int, int, int]:
    """Every child of a node at once: (movers, opponents, lanes), one child per lane.

    Each lane holds the board with one move placed. A disc flips in direction s when
    it is reached both by a fill from the move through the opponent in direction s and
    by a fill from a player's disc through the opponent in direction -s, so all lanes'
    flips come from the same few dozen big-int operations.
    """
    mv = shift = lanes = 0
    while moves:  # ``squares`` inlined (hot: once per node two and three plies from the end)
        low = moves & -moves
        moves ^= low
        mv |= low << shift
        shift += LANE
        lanes += 1
    inner, _, rep = _PACKED[lanes] if lanes < len(_PACKED) else _packed_masks(lanes)
    pp = p * rep
    oo = o * rep
    flipped = 0
    for s, wraps in _DIRECTIONS:
        m = oo & inner if wraps else oo
        s2 = s + s
        up = m & (m << s)
        down = m & (m >> s)
        a = m & (mv << s)
        a |= m & (a << s)
        a |= up & (a << s2)
        a |= up & (a << s2)
        b = m & (pp >> s)
        b |= m & (b >> s)
        b |= down & (b >> s2)
        b |= down & (b >> s2)
        c = m & (mv >> s)
        c |= m & (c >> s)
        c |= down & (c >> s2)
        c |= down & (c >> s2)
        d = m & (pp << s)
        d |= m & (d << s)
        d |= up & (d << s2)
        d |= up & (d << s2)
        flipped |= (a & b) | (c & d)
    return oo ^ flipped, pp | flipped | mv, lanes


def _perft2(p: int, o: int, moves: int) -> int:
    """Perft at depth 2 (``moves`` are p's) with all children made and counted at once.

    In CPython a big-int operation costs about the same for 64 or 2,000 bits, so work
    done once over all children, packed in lanes, beats work done per child.
    """
    if not moves:
        replies = legal_moves(o, p)
        return replies.bit_count() if replies else 1
    cp, co, lanes = _packed_children(p, o, moves)
    inner, full, rep = _PACKED[lanes] if lanes < len(_PACKED) else _packed_masks(lanes)
    child_moves = legal_moves(cp, co, inner, full)
    # A child with no move still counts one leaf (a pass, or the game's end). Adding
    # 2**64 - 1 to every lane carries into bit 64 exactly in the lanes that are not zero.
    nonzero = ((child_moves + full) & (rep << 64)).bit_count()
    return child_moves.bit_count() + lanes - nonzero


def _perft3(p: int, o: int) -> int:
    """Perft at depth 3: the children made at once, then each child's perft 2 is
    handed its moves from one packed move generation."""
    moves = legal_moves(p, o)
    if not moves:
        replies = legal_moves(o, p)
        return _perft2(o, p, replies) if replies else 1
    cp, co, lanes = _packed_children(p, o, moves)
    inner, full, _ = _PACKED[lanes] if lanes < len(_PACKED) else _packed_masks(lanes)
    child_moves = legal_moves(cp, co, inner, full)
    total = 0
    for shift in range(0, lanes * LANE, LANE):
        total += _perft2((cp >> shift) & FULL, (co >> shift) & FULL, (child_moves >> shift) & FULL)
    return total


def perft(p: int, o: int, depth: int) -> int:
    """Leaf count at ``depth`` plies.

    Convention of Aart Bik's published table: a pass is a ply, and a position where
    neither side can move is one leaf however much depth is left.
    """
    if depth == 0:
        return 1
    if depth == 3:
        return _perft3(p, o)
    if depth == 2:
        return _perft2(p, o, legal_moves(p, o))
    moves = legal_moves(p, o)
    if not moves:
        if not legal_moves(o, p):
            return 1
        return perft(o, p, depth - 1)
    if depth == 1:
        return moves.bit_count()
    total = 0
    d = depth - 1
    for sq in squares(moves):
        f = flips(p, o, sq)
        total += perft(o ^ f, p | f | (1 << sq), d)
    return total
