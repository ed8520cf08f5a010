"""Board patterns for a learned evaluation, as ternary indices from the side to move's view.

The Logistello/Edax family: each pattern is an ordered list of squares read as a
base-3 number (0 empty, 1 the side to move's disc, 2 the opponent's), and each
comes in all its symmetric forms, which share one table of weights. Square ``i``
of an instance is digit ``i`` (``3 ** i``), and every instance of a pattern is the
image of its first instance under a board symmetry, square for square, so one
weight table fits all of them.

Computing all 46 indices, in CPython, where each big-int operation costs the
same for 64 or 800 bits: every instance is a 16-bit lane of one wide int. A
square's *vector* holds its digit weight in the lane of every instance it
belongs to; a side's *sum* is the sum of the vectors of its discs, looked up a
row byte at a time (8 lookups a side). The indices are then ``mover + 2 *
opponent``, and one ``to_bytes`` with a ``memoryview`` cast reads all lanes at
once. A move updates both sums by the vectors of the squares it changes, so a
search can carry them instead of recomputing (``play_sums``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import accumulate

#: A board symmetry as a map of (row, column).
Symmetry = Callable[[int, int], tuple[int, int]]

#: The eight symmetries of the square, identity first.
SYMMETRIES: tuple[Symmetry, ...] = (
    lambda r, c: (r, c),
    lambda r, c: (r, 7 - c),
    lambda r, c: (7 - r, c),
    lambda r, c: (7 - r, 7 - c),
    lambda r, c: (c, r),
    lambda r, c: (7 - c, 7 - r),
    lambda r, c: (c, 7 - r),
    lambda r, c: (7 - c, r),
)

#: Bits per instance lane: the largest index, 3**10 - 1, needs 16.
LANE_BITS = 16


def _squares(names: str) -> tuple[int, ...]:
    """``"a1 b1 b2"`` as square indices (bit ``row * 8 + column``)."""
    return tuple((int(name[1]) - 1) * 8 + ord(name[0]) - ord("a") for name in names.split())


#: Each pattern's first instance, its squares in digit order. Corners come first
#: in the corner patterns and edges, so a digit means the same square in every form.
BASES: dict[str, tuple[int, ...]] = {
    "edge_x": _squares("a1 b1 c1 d1 e1 f1 g1 h1 b2 g2"),
    "corner_3x3": _squares("a1 b1 c1 a2 b2 c2 a3 b3 c3"),
    "corner_2x5": _squares("a1 b1 c1 d1 e1 a2 b2 c2 d2 e2"),
    "line_2": _squares("a2 b2 c2 d2 e2 f2 g2 h2"),
    "line_3": _squares("a3 b3 c3 d3 e3 f3 g3 h3"),
    "line_4": _squares("a4 b4 c4 d4 e4 f4 g4 h4"),
    "diagonal_8": _squares("a1 b2 c3 d4 e5 f6 g7 h8"),
    "diagonal_7": _squares("b1 c2 d3 e4 f5 g6 h7"),
    "diagonal_6": _squares("c1 d2 e3 f4 g5 h6"),
    "diagonal_5": _squares("d1 e2 f3 g4 h5"),
    "diagonal_4": _squares("e1 f2 g3 h4"),
}


def transform(squares: Sequence[int], symmetry: Symmetry) -> tuple[int, ...]:
    """``squares`` mapped by ``symmetry``, in the same order."""
    return tuple(r * 8 + c for r, c in (symmetry(*divmod(sq, 8)) for sq in squares))


def transform_mask(mask: int, symmetry: Symmetry) -> int:
    """A bitboard mapped by ``symmetry`` (for tests and data augmentation; not fast)."""
    out = 0
    for sq in range(64):
        if mask >> sq & 1:
            r, c = symmetry(*divmod(sq, 8))
            out |= 1 << (r * 8 + c)
    return out


@dataclass(frozen=True, slots=True)
class Pattern:
    """One pattern: its name, its instances (each the image of the first), and for a
    pattern that a symmetry maps onto its own squares (all but the 2x5 corner), that
    reflection as digit ``i`` read from digit ``mirror[i]``."""

    name: str
    instances: tuple[tuple[int, ...], ...]
    mirror: tuple[int, ...] | None

    @property
    def size(self) -> int:
        """Number of indices: 3 to the number of squares."""
        return int(3 ** len(self.instances[0]))

    def mirrored(self, index: int) -> int:
        """The index the same squares give read in the mirrored order.

        A position and its mirror image give an instance these two indices, so a
        weight table must hold the same weight for both (``canonical``).
        """
        if self.mirror is None:
            return index
        digits = [index // 3**d % 3 for d in range(len(self.mirror))]
        return sum(digits[j] * 3**d for d, j in enumerate(self.mirror))

    def canonical(self, index: int) -> int:
        """The smaller of ``index`` and its mirror: one weight for both."""
        return min(index, self.mirrored(index))


def _forms(base: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The images of ``base`` on distinct sets of squares, in symmetry order."""
    seen: set[frozenset[int]] = set()
    forms = []
    for symmetry in SYMMETRIES:
        image = transform(base, symmetry)
        if frozenset(image) not in seen:
            seen.add(frozenset(image))
            forms.append(image)
    return tuple(forms)


def _mirror(base: tuple[int, ...]) -> tuple[int, ...] | None:
    """The digit permutation of a symmetry other than the identity that keeps ``base``'s
    squares (every one here is a reflection, its own inverse), or None."""
    for symmetry in SYMMETRIES[1:]:
        image = transform(base, symmetry)
        if image != base and set(image) == set(base):
            return tuple(base.index(sq) for sq in image)
    return None


PATTERNS: tuple[Pattern, ...] = tuple(
    Pattern(name, _forms(base), _mirror(base)) for name, base in BASES.items()
)
#: Every instance in lane order, and the pattern each belongs to.
INSTANCES: tuple[tuple[int, ...], ...] = tuple(i for p in PATTERNS for i in p.instances)
INSTANCE_PATTERN: tuple[int, ...] = tuple(
    k for k, p in enumerate(PATTERNS) for _ in range(len(p.instances))
)
N_INSTANCES = len(INSTANCES)
#: Where each pattern's table starts in all patterns' tables laid end to end.
OFFSETS: tuple[int, ...] = (0, *accumulate(p.size for p in PATTERNS))
N_FEATURES = OFFSETS[-1]
_BYTES = N_INSTANCES * LANE_BITS // 8


def _lane(k: int) -> int:
    """Bit position of instance ``k``'s lane, so that ``to_bytes`` in the machine's byte
    order followed by a native 16-bit cast reads the lanes in instance order."""
    if sys.byteorder == "little":
        return k * LANE_BITS
    return (N_INSTANCES - 1 - k) * LANE_BITS


def _square_vectors() -> tuple[int, ...]:
    vectors = [0] * 64
    for k, instance in enumerate(INSTANCES):
        for digit, sq in enumerate(instance):
            vectors[sq] += 3**digit << _lane(k)
    return tuple(vectors)


#: Per square: its digit weight in the lane of each instance holding it.
SQUARE_VECTORS = _square_vectors()


def _row_tables() -> tuple[tuple[int, ...], ...]:
    tables = []
    for row in range(8):
        vectors = SQUARE_VECTORS[row * 8 : row * 8 + 8]
        tables.append(
            tuple(sum(v for bit, v in enumerate(vectors) if byte >> bit & 1) for byte in range(256))
        )
    return tuple(tables)


_ROWS = _row_tables()


def side_sum(mask: int) -> int:
    """The sum of the square vectors of ``mask``: one row-byte lookup per row."""
    t0, t1, t2, t3, t4, t5, t6, t7 = _ROWS
    return (
        t0[mask & 255]
        + t1[mask >> 8 & 255]
        + t2[mask >> 16 & 255]
        + t3[mask >> 24 & 255]
        + t4[mask >> 32 & 255]
        + t5[mask >> 40 & 255]
        + t6[mask >> 48 & 255]
        + t7[mask >> 56]
    )


def pattern_sums(p: int, o: int) -> tuple[int, int]:
    """(mover's sum, opponent's sum) of a position, for ``indices_of_sums`` and ``play_sums``."""
    return side_sum(p), side_sum(o)


def play_sums(sp: int, so: int, sq: int, flipped: int) -> tuple[int, int]:
    """The sums after the mover plays ``sq`` flipping ``flipped``, from the new mover's view.

    Only the changed squares' vectors are added: a handful of big-int operations,
    against 16 lookups for ``pattern_sums``. A pass is ``(so, sp)``.
    """
    vectors = SQUARE_VECTORS
    moved = 0
    while flipped:
        low = flipped & -flipped
        flipped ^= low
        moved += vectors[low.bit_length() - 1]
    return so - moved, sp + moved + vectors[sq]


def indices_of_sums(sp: int, so: int) -> memoryview:
    """Every instance's index, in instance order, from the two sums."""
    return memoryview((sp + so + so).to_bytes(_BYTES, sys.byteorder)).cast("H")


def indices(p: int, o: int) -> memoryview:
    """Every instance's ternary index for ``p`` to move against ``o``, in instance order."""
    return indices_of_sums(side_sum(p), side_sum(o))


def index_slowly(p: int, o: int, instance: Sequence[int]) -> int:
    """One instance's index square by square: the definition the fast paths are tested against."""
    index = 0
    for digit, sq in enumerate(instance):
        if p >> sq & 1:
            index += 3**digit
        elif o >> sq & 1:
            index += 2 * 3**digit
    return index
