"""Learned pattern weights: their file, its lazy loader and the evaluation they give.

The weights are learned by this project from its own self-play (``reversi train``;
no other program's weights are used). The file is small and strict:

* ``MAGIC``, then a little-endian u32 header length and the header, UTF-8 JSON: the
  format version, the patterns (name and square count, which must match
  ``patterns.PATTERNS``), the phases (``phase_empties`` empty squares each), the
  ``scale`` (weight units per disc), each phase's bias, the ``offsets`` (one per
  count of empty squares, 0 to 60, added to its phase's bias: see ``offsets``
  below; absent means none), the payload's length and sha256, and free ``meta``
  (seed, data, errors: where the weights came from);
* the payload, zlib-compressed: per phase, every pattern's table laid end to end
  (``patterns.OFFSETS``), as little-endian int16.

Loading checks every one of those, so a truncated or altered file is refused with
a ``WeightsError`` rather than evaluating nonsense. Nothing here needs numpy.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from operator import getitem
from typing import Any

from reversi_tui.engine.ai import checked_file
from reversi_tui.engine.ai.evaluation import DISC, Evaluator, final_score_units
from reversi_tui.engine.ai.patterns import (
    INSTANCE_PATTERN,
    N_FEATURES,
    OFFSETS,
    PATTERNS,
    indices,
)
from reversi_tui.engine.bitboard import FULL

MAGIC = b"RVPW"
FORMAT_VERSION = 1
#: The most empty squares a position can have (the start has 60).
MAX_EMPTIES = 60
#: The weights the engine ships, in this package (``learned.weights`` reads them).
RESOURCE = "pattern_weights.bin"


class WeightsError(ValueError):
    """A weights file that cannot be used, saying why."""


@dataclass(frozen=True, slots=True)
class PatternWeights:
    """Per phase, every pattern's table (int16 units, ``scale`` a disc) and a bias;
    per count of empty squares an offset on top of its phase's bias.

    The offsets centre the evaluation: a phase spans several counts of empty squares
    and both sides to move, and searches label each phase from the next, so a small
    bias of the side to move builds up phase after phase. ``reversi train centre``
    measures it per count against the games' results and stores its opposite here.
    """

    scale: int
    phase_empties: int
    tables: tuple[tuple[array[int], ...], ...]
    biases: tuple[int, ...]
    meta: dict[str, Any]
    offsets: tuple[int, ...] = (0,) * (MAX_EMPTIES + 1)

    def phase(self, empties: int) -> int:
        """The phase of a position with ``empties`` empty squares (at least 1)."""
        return min((max(empties, 1) - 1) // self.phase_empties, len(self.tables) - 1)


def pattern_layout() -> list[list[Any]]:
    """The patterns as the header records them: [name, squares] each."""
    return [[p.name, len(p.instances[0])] for p in PATTERNS]


def encode_weights(
    phases: Sequence[bytes],
    biases: Sequence[int],
    *,
    scale: int,
    phase_empties: int,
    meta: dict[str, Any],
    offsets: Sequence[int] | None = None,
) -> bytes:
    """A weights file from each phase's tables (``N_FEATURES`` little-endian int16 each)
    and, optionally, an offset per count of empty squares (0 to ``MAX_EMPTIES``)."""
    if len(phases) != len(biases) or not phases:
        raise ValueError("one bias per phase, and at least one phase")
    if offsets is not None and len(offsets) != MAX_EMPTIES + 1:
        raise ValueError(f"one offset per count of empty squares, 0 to {MAX_EMPTIES}")
    if any(len(table) != 2 * N_FEATURES for table in phases):
        raise ValueError(f"each phase holds {N_FEATURES} int16 weights")
    payload = b"".join(phases)
    header: dict[str, Any] = {
        "format": FORMAT_VERSION,
        "patterns": pattern_layout(),
        "phases": len(phases),
        "phase_empties": phase_empties,
        "scale": scale,
        "biases": [int(b) for b in biases],
        "meta": meta,
    }
    if offsets is not None:
        header["offsets"] = [int(x) for x in offsets]
    return checked_file.pack(MAGIC, header, payload)


def weights_bytes(weights: PatternWeights) -> bytes:
    """The file of ``weights`` (``decode_weights`` reads it back equal)."""
    phases = []
    for tables in weights.tables:
        flat = array("h")
        for table in tables:
            flat.extend(table)
        if sys.byteorder == "big":
            flat.byteswap()
        phases.append(flat.tobytes())
    return encode_weights(
        phases,
        weights.biases,
        scale=weights.scale,
        phase_empties=weights.phase_empties,
        meta=weights.meta,
        offsets=weights.offsets if any(weights.offsets) else None,
    )


def decode_weights(data: bytes) -> PatternWeights:
    """The weights in a file's bytes; WeightsError when anything does not check out."""
    header, payload = checked_file.unpack(
        data, MAGIC, FORMAT_VERSION, WeightsError, "a pattern weights", "the weights are"
    )
    if header.get("patterns") != pattern_layout():
        raise WeightsError("the file's patterns are not this program's")
    n_phases, biases = header.get("phases"), header.get("biases")
    if (
        type(n_phases) is not int
        or not isinstance(biases, list)
        or not all(type(b) is int for b in biases)
        or type(header.get("scale")) is not int
        or type(header.get("phase_empties")) is not int
        or header["phase_empties"] < 1
    ):
        raise WeightsError("the header's phases, biases or scale are not whole numbers")
    if len(payload) != n_phases * 2 * N_FEATURES or len(biases) != n_phases:
        raise WeightsError("the payload does not hold the phases the header announces")
    offsets = header.get("offsets", [0] * (MAX_EMPTIES + 1))
    if (
        not isinstance(offsets, list)
        or len(offsets) != MAX_EMPTIES + 1
        or not all(type(x) is int and abs(x) < 1 << 15 for x in offsets)
    ):
        raise WeightsError(f"the offsets are not {MAX_EMPTIES + 1} small whole numbers")
    return weights_from_tables(
        payload,
        [int(b) for b in header["biases"]],
        scale=int(header["scale"]),
        phase_empties=int(header["phase_empties"]),
        meta=dict(header.get("meta") or {}),
        offsets=offsets,
    )


def weights_from_tables(
    payload: bytes,
    biases: Sequence[int],
    *,
    scale: int,
    phase_empties: int,
    meta: dict[str, Any],
    offsets: Sequence[int] | None = None,
) -> PatternWeights:
    """Weights from every phase's tables laid end to end (little-endian int16, as the
    file's payload holds them) and a bias per phase."""
    flat = array("h", payload)
    if sys.byteorder == "big":
        flat.byteswap()
    tables = []
    for phase in range(len(biases)):
        base = phase * N_FEATURES
        tables.append(tuple(flat[base + start : base + end] for start, end in pairwise(OFFSETS)))
    return PatternWeights(
        scale=scale,
        phase_empties=phase_empties,
        tables=tuple(tables),
        biases=tuple(biases),
        meta=meta,
        offsets=tuple(offsets) if offsets is not None else (0,) * (MAX_EMPTIES + 1),
    )


def make_pattern_evaluator(weights: PatternWeights) -> Evaluator:
    """The learned evaluation in ``DISC`` units, for the side to move.

    A full board scores exactly; other finished games (no move for either side with
    squares left) are the search's to detect, as the search already does past depth 0.
    """
    per_phase = [tuple(tables[k] for k in INSTANCE_PATTERN) for tables in weights.tables]
    by_empties = [
        (
            per_phase[weights.phase(empties)],
            weights.biases[weights.phase(empties)] + weights.offsets[min(empties, MAX_EMPTIES)],
        )
        for empties in range(65)
    ]
    scale = weights.scale

    def evaluate(p: int, o: int) -> int:
        empty = ~(p | o) & FULL
        if not empty:
            return final_score_units(p, o)
        tables, bias = by_empties[empty.bit_count()]
        return (bias + sum(map(getitem, tables, indices(p, o)))) * DISC // scale

    return evaluate
