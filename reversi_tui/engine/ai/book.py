"""The opening book: positions searched ahead of time, keyed under the 8 board symmetries.

A position is stored once for all its images: its *canonical form* is the smallest of
its 8 images under ``patterns.SYMMETRIES`` (as the integer ``mover << 64 | opponent``),
so transpositions and symmetric openings share one entry. An entry holds every
legal move's value in discs for the side to move, in the canonical frame; a lookup
maps them back into the position's own frame.

The file (``reversi train book`` writes it) is small and strict
(``checked_file``'s frame):

* ``MAGIC``, then a little-endian u32 header length and the header, UTF-8 JSON: the
  format version, the value scale, the entry count, the sha256 of the pattern weights
  file its positions were searched with (``weights_sha256``), the payload's length and
  sha256, and free ``meta`` (seed, plies, depth, origin: where the values came from);
* the payload, zlib-compressed: the entries in increasing key order, each the
  canonical mover and opponent masks (u64, u64), a move count (u8), then per move
  its square (u8) and value (i16, ``VALUE_SCALE`` a disc), all little-endian.

Loading checks every one of those, so a damaged file is refused with a ``BookError``.
The package ships one (``RESOURCE``, built by ``reversi train book``; the README
says how), which ``learned.book`` reads and ties to the pinned weights; without it
the levels simply search. Nothing here touches the disk.
"""

from __future__ import annotations

import random
import struct
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from reversi_tui.engine.ai import checked_file
from reversi_tui.engine.ai.patterns import SYMMETRIES
from reversi_tui.engine.board import Position

MAGIC = b"RVBK"
#: 2: the header names the weights the book was searched with.
FORMAT_VERSION = 2
#: The book the engine uses, in this package (absent: no book).
RESOURCE = "opening_book.bin"
#: Value units per disc in the file.
VALUE_SCALE = 100

_ENTRY = struct.Struct("<QQB")
_MOVE = struct.Struct("<Bh")

#: ``SQUARE_MAP[s][sq]``: the square ``sq`` becomes under symmetry ``s``.
SQUARE_MAP: tuple[tuple[int, ...], ...] = tuple(
    tuple(r * 8 + c for r, c in (sym(*divmod(sq, 8)) for sq in range(64))) for sym in SYMMETRIES
)
#: ``INVERSE_MAP[s][sq]``: the square that symmetry ``s`` sends to ``sq``.
INVERSE_MAP: tuple[tuple[int, ...], ...] = tuple(
    tuple(row.index(sq) for sq in range(64)) for row in SQUARE_MAP
)


def _row_tables() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """``[s][row][byte]``: the image under symmetry ``s`` of ``byte`` on row ``row``."""
    out = []
    for squares in SQUARE_MAP:
        rows = []
        for row in range(8):
            table = [0] * 256
            for byte in range(1, 256):
                low = byte & -byte
                table[byte] = table[byte ^ low] | 1 << squares[row * 8 + low.bit_length() - 1]
            rows.append(tuple(table))
        out.append(tuple(rows))
    return tuple(out)


_ROWS = _row_tables()


def image(mask: int, symmetry: int) -> int:
    """A bitboard's image under ``SYMMETRIES[symmetry]``, a row byte at a time."""
    rows = _ROWS[symmetry]
    return (
        rows[0][mask & 255]
        | rows[1][mask >> 8 & 255]
        | rows[2][mask >> 16 & 255]
        | rows[3][mask >> 24 & 255]
        | rows[4][mask >> 32 & 255]
        | rows[5][mask >> 40 & 255]
        | rows[6][mask >> 48 & 255]
        | rows[7][mask >> 56]
    )


def canonical(p: int, o: int) -> tuple[int, int]:
    """The canonical key of (mover ``p``, opponent ``o``) and the symmetry that gives it."""
    best, best_sym = p << 64 | o, 0
    for s in range(1, 8):
        key = image(p, s) << 64 | image(o, s)
        if key < best:
            best, best_sym = key, s
    return best, best_sym


class BookError(ValueError):
    """A book file that cannot be used, saying why."""


class Book:
    """Positions' move values by canonical key; lookups map them back."""

    def __init__(
        self,
        entries: Mapping[int, Sequence[tuple[int, int]]],
        meta: dict[str, Any] | None = None,
        weights_sha256: str = "",
    ) -> None:
        #: canonical key -> ((square, value in 1/VALUE_SCALE discs), ...) in the canonical frame
        self.entries = {key: tuple(moves) for key, moves in entries.items()}
        self.meta = dict(meta or {})
        #: The sha256 of the pattern weights file the values were searched with.
        self.weights_sha256 = weights_sha256

    def __len__(self) -> int:
        return len(self.entries)

    def lookup_masks(self, p: int, o: int) -> list[tuple[int, float]]:
        """(move, value in discs) for mover ``p`` and opponent ``o``, best first
        (lowest square first among equals); empty when the book does not know it."""
        key, sym = canonical(p, o)
        moves = self.entries.get(key)
        if not moves:
            return []
        back = INVERSE_MAP[sym]
        found = [(back[sq], value / VALUE_SCALE) for sq, value in moves]
        found.sort(key=lambda item: (-item[1], item[0]))
        return found

    def lookup(self, position: Position) -> list[tuple[int, float]]:
        """(move, value in discs) in ``position``, best first; empty if not in the book."""
        return self.lookup_masks(position.player, position.opponent)

    def choose(
        self, position: Position, rng: random.Random, spread: float
    ) -> tuple[int, float] | None:
        """A move within ``spread`` discs of the book's best, picked by ``rng``, with its
        value; None when the position is not in the book."""
        found = self.lookup(position)
        if not found:
            return None
        best = found[0][1]
        near = [item for item in found if item[1] >= best - spread]
        return near[0] if len(near) == 1 else rng.choice(near)


def encode_book(
    entries: Mapping[int, Iterable[tuple[int, float]]], meta: dict[str, Any], weights_sha256: str
) -> bytes:
    """A book file's bytes: ``entries`` maps a canonical key to (square, value in discs)
    pairs in the canonical frame, searched with the weights file of ``weights_sha256``."""
    parts = []
    for key in sorted(entries):
        moves = sorted(entries[key])
        parts.append(_ENTRY.pack(key >> 64, key & (1 << 64) - 1, len(moves)))
        parts.extend(_MOVE.pack(sq, round(value * VALUE_SCALE)) for sq, value in moves)
    header = {
        "format": FORMAT_VERSION,
        "entries": len(entries),
        "value_scale": VALUE_SCALE,
        "weights_sha256": weights_sha256,
        "meta": meta,
    }
    return checked_file.pack(MAGIC, header, b"".join(parts))


def decode_book(data: bytes) -> Book:
    """The book in a file's bytes; BookError when anything does not check out."""
    header, payload = checked_file.unpack(
        data, MAGIC, FORMAT_VERSION, BookError, "an opening book", "the book is"
    )
    if header.get("value_scale") != VALUE_SCALE:
        raise BookError("the file's value scale is not this program's")
    weights_sha256 = header.get("weights_sha256")
    if not isinstance(weights_sha256, str) or len(weights_sha256) != 64:
        raise BookError("the header does not name the weights the book was built from")
    entries: dict[int, tuple[tuple[int, int], ...]] = {}
    at = 0
    try:
        while at < len(payload):
            p, o, count = _ENTRY.unpack_from(payload, at)
            at += _ENTRY.size
            moves = tuple(_MOVE.unpack_from(payload, at + i * _MOVE.size) for i in range(count))
            at += count * _MOVE.size
            entries[p << 64 | o] = moves
    except struct.error:
        raise BookError("the payload ends inside an entry") from None
    if len(entries) != header.get("entries"):
        raise BookError("the payload does not hold the entries the header announces")
    return Book(entries, header.get("meta") or {}, weights_sha256)
