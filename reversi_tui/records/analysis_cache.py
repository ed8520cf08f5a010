"""Analyses kept on disk, so a second look at a game is instant.

One JSON file per analysis in ``<data dir>/analyses/``, named by the sha256 of
what decides it: the start position, the moves, and the options (time per move,
level, exact empties). A recorded game and the same game opened from a file, or
given as a move list, share their entry. Files are written atomically; one that
does not read back (damaged, foreign, from another version) is set aside as
``<name>.damaged-<time>``, never deleted, and the game is analysed again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from contextlib import suppress
from pathlib import Path

from reversi_tui.engine import PASS, Move, Position, format_position, square_name
from reversi_tui.engine.ai.analysis import AnalysisOptions, GameAnalysis, from_json, to_json
from reversi_tui.records.atomic import atomic_write, set_aside
from reversi_tui.records.paths import StorageError, ensure_private_dir

#: The directory's name inside the data directory.
DIRECTORY = "analyses"
#: Bumped when what the analysis computes changes: old entries are then not found.
VERSION = 2
#: A cache file is far smaller than this; a bigger one is not ours.
MAX_BYTES = 4 << 20


def analysis_key(start: Position, moves: Sequence[Move], options: AnalysisOptions) -> str:
    """The hex sha256 naming the analysis of ``moves`` from ``start`` with ``options``."""
    text = "\n".join(
        (
            f"reversi_tui analysis {VERSION}",
            format_position(start),
            " ".join("pass" if m == PASS else square_name(m) for m in moves),
            f"{options.time_per_move!r} {options.level} {options.exact_empties}",
        )
    )
    return hashlib.sha256(text.encode()).hexdigest()


class AnalysisCache:
    """The analyses of one data directory."""

    def __init__(self, data_dir: Path) -> None:
        self.directory = data_dir / DIRECTORY

    def path(self, start: Position, moves: Sequence[Move], options: AnalysisOptions) -> Path:
        return self.directory / f"{analysis_key(start, moves, options)}.json"

    def get(
        self, start: Position, moves: Sequence[Move], options: AnalysisOptions
    ) -> GameAnalysis | None:
        """The stored analysis, or None (none stored, or a damaged one set aside)."""
        path = self.path(start, moves, options)
        try:
            with path.open("rb") as file:
                raw = file.read(MAX_BYTES + 1)
        except OSError:  # none stored, or unreadable: analyse again
            return None
        try:
            if len(raw) > MAX_BYTES:
                raise ValueError("too large")
            analysis = from_json(json.loads(raw), start)
            if analysis.moves != tuple(moves) or analysis.options != options:
                raise ValueError("another game's analysis")
        except (ValueError, KeyError, TypeError, AttributeError, IndexError):
            with suppress(StorageError):
                set_aside(path)
            return None
        return analysis

    def put(self, analysis: GameAnalysis) -> Path:
        """Store ``analysis``; StorageError when the directory cannot be written."""
        ensure_private_dir(self.directory)
        path = self.path(analysis.start, analysis.moves, analysis.options)
        atomic_write(path, json.dumps(to_json(analysis), separators=(",", ":")))
        return path
