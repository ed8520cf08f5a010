"""The training data on disk: fixed-size records in append-only chunk files, and a manifest.

A directory holds ``manifest.json`` and ``chunk-00000.bin``, ``chunk-00001.bin``...
Each chunk holds the records of consecutive games and is written whole, atomically,
before the manifest names it; so a run stopped at any instant leaves every named
chunk complete, and the next run starts again at the first game no chunk holds.
"""

from __future__ import annotations

import hashlib
import json
import struct
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reversi_tui.records.atomic import atomic_write

MANIFEST = "manifest.json"
#: Bumped when a record or the manifest changes meaning.
DATA_FORMAT = 1
#: mover's discs, opponent's discs, colour to move (0 black, 1 white), the game's final
#: disc difference and the exact score (``NO_EXACT`` when unknown), both for the
#: side to move, and the game's number.
RECORD = struct.Struct("<QQBbbI")
NO_EXACT = -128


class DataError(ValueError):
    """A data directory that cannot be used as it is, saying what to do."""


@dataclass(frozen=True, slots=True)
class Record:
    player: int
    opponent: int
    white_to_move: bool
    final: int
    exact: int | None
    game: int

    def pack(self) -> bytes:
        exact = NO_EXACT if self.exact is None else self.exact
        return RECORD.pack(
            self.player, self.opponent, self.white_to_move, self.final, exact, self.game
        )

    @classmethod
    def unpack(cls, raw: bytes | memoryview) -> Record:
        p, o, white, final, exact, game = RECORD.unpack(raw)
        return cls(p, o, bool(white), final, None if exact == NO_EXACT else exact, game)


def chunk_name(index: int) -> str:
    return f"chunk-{index:05d}.bin"


def read_manifest(directory: Path) -> dict[str, Any] | None:
    """The manifest, or None for a directory without one (a new run)."""
    path = directory / MANIFEST
    if not path.exists():
        return None
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise DataError(f"{path}: cannot read the manifest: {err}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != DATA_FORMAT:
        raise DataError(f"{path}: not a manifest of data format {DATA_FORMAT}")
    return manifest


def write_manifest(directory: Path, manifest: dict[str, Any]) -> None:
    atomic_write(directory / MANIFEST, json.dumps(manifest, indent=1, sort_keys=True) + "\n")


def write_chunk(directory: Path, index: int, data: bytes) -> dict[str, Any]:
    """Write chunk ``index`` whole; its manifest entry (name, size, sha256)."""
    atomic_write(directory / chunk_name(index), data)
    return {
        "file": chunk_name(index),
        "bytes": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
    }


def read_chunks(directory: Path) -> Iterator[bytes]:
    """Every chunk the manifest names, in order, each checked against its sha256."""
    manifest = read_manifest(directory)
    if manifest is None:
        raise DataError(f"{directory}: no {MANIFEST}: make data with 'reversi train generate'")
    for entry in manifest["chunks"]:
        path = directory / entry["file"]
        try:
            data = path.read_bytes()
        except OSError as err:
            raise DataError(f"{path}: {err.strerror}") from None
        if hashlib.sha256(data).hexdigest() != entry["sha256"] or len(data) % RECORD.size:
            raise DataError(f"{path}: damaged (its checksum is not the manifest's)")
        yield data


def records(directory: Path) -> Iterator[Record]:
    """Every record of the directory, in order."""
    for data in read_chunks(directory):
        for start in range(0, len(data), RECORD.size):
            yield Record.unpack(data[start : start + RECORD.size])
