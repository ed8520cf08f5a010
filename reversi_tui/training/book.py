"""Building the opening book: ``reversi train book``.

The positions: every distinct position (under the 8 symmetries) of the first
``enumerate_plies`` plies from the start, then those met along ``lines`` random
openings of ``plies`` plies, each line seeded by the run's seed and its number, and,
with ``--from DIR``, those of a ``reversi train generate`` data directory within the
first ``plies`` plies. Each is searched in its canonical frame by the hard level's
evaluation to a fixed ``depth`` (no clock), every legal move getting an exact value
at that depth, so the same settings give the same book on any machine.

Resumable: each searched position is appended as one JSON line to a progress file
beside the book (``FILE.progress``, its first line the settings), flushed as it goes;
a stopped run, started again with the same options, searches only what is left. The
book is written atomically at the end from the progress file's entries, and the
progress file is then removed.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from reversi_tui import __version__
from reversi_tui.engine.ai.book import canonical, encode_book
from reversi_tui.engine.ai.play import rank_moves
from reversi_tui.engine.bitboard import flips, legal_moves, squares
from reversi_tui.engine.board import Color, Position
from reversi_tui.records.atomic import atomic_write

ORIGIN = (
    "openings enumerated and sampled by reversi_tui itself, each position searched by its own "
    "engine (hard level's evaluation, fixed depth); no other program's games, books or weights"
)
#: The level whose evaluation scores the moves.
LEVEL = "hard"
START = (0x0000000810000000, 0x0000001008000000)


class BookBuildError(ValueError):
    """A build that cannot go on as asked, saying what to do."""


@dataclass(frozen=True, slots=True)
class BookSettings:
    """What decides the book: a resumed run must keep them."""

    seed: int
    plies: int
    depth: int
    lines: int = 1000
    enumerate_plies: int = 4
    source: str | None = None  # a data directory, as given


def _play(p: int, o: int, sq: int) -> tuple[int, int]:
    """The position after mover ``p`` plays ``sq``, from the new mover's side."""
    f = flips(p, o, sq)
    return o ^ f, p | f | 1 << sq


def positions(settings: BookSettings) -> list[int]:
    """The canonical keys to search (side to move has a move, fewer than ``plies``
    plies played), in increasing order."""
    keys: set[int] = set()

    def add(p: int, o: int) -> bool:
        if not legal_moves(p, o):
            return False
        keys.add(canonical(p, o)[0])
        return True

    frontier = {canonical(*START)[0]}
    for ply in range(min(settings.enumerate_plies, settings.plies)):
        following: set[int] = set()
        for key in frontier:
            p, o = key >> 64, key & (1 << 64) - 1
            if not add(p, o):
                continue
            if ply + 1 < settings.plies:
                moves = squares(legal_moves(p, o))
                following.update(canonical(*_play(p, o, sq))[0] for sq in moves)
        frontier = following
    for line in range(settings.lines):
        rng = random.Random(f"reversi-book/{settings.seed}/{line}")
        p, o = START
        for _ in range(settings.plies):
            if not add(p, o):
                break
            p, o = _play(p, o, rng.choice(list(squares(legal_moves(p, o)))))
    if settings.source is not None:
        from reversi_tui.training.data import records

        for record in records(Path(settings.source)):
            played = 60 - (64 - (record.player | record.opponent).bit_count())
            if played < settings.plies:
                add(record.player, record.opponent)
    return sorted(keys)


def progress_path(out: Path) -> Path:
    return out.with_name(out.name + ".progress")


def _read_progress(path: Path, settings: BookSettings) -> dict[int, list[tuple[int, float]]]:
    """The entries a stopped run searched; a torn last line is dropped."""
    done: dict[int, list[tuple[int, float]]] = {}
    if not path.exists():
        return done
    lines = path.read_text(encoding="utf-8").splitlines()
    try:
        head = json.loads(lines[0]) if lines else None
    except ValueError:
        head = None
    if head != {"settings": asdict(settings)}:
        raise BookBuildError(
            f"{path} was written with other settings: give the same options, or delete it"
        )
    for line in lines[1:]:
        try:
            item = json.loads(line)
            done[int(item["key"], 16)] = [(int(sq), float(v)) for sq, v in item["moves"]]
        except (ValueError, KeyError, TypeError):
            break
    return done


def build_book(
    out: Path,
    settings: BookSettings,
    log: Callable[[str], None],
    stop_after: int | None = None,
) -> dict[str, Any]:
    """Search what is left, then write the book; its meta. ``stop_after`` stops after
    that many new positions without writing the book (a stopped run, for tests)."""
    keys = positions(settings)
    path = progress_path(out)
    done = _read_progress(path, settings)
    if not path.exists():
        path.write_text(json.dumps({"settings": asdict(settings)}) + "\n", encoding="utf-8")
    todo = [key for key in keys if key not in done]
    log(f"{len(keys)} positions, {len(done)} searched before, {len(todo)} to search")
    started = time.perf_counter()
    with path.open("a", encoding="utf-8") as progress:
        for count, key in enumerate(todo):
            if stop_after is not None and count >= stop_after:
                return {}
            position = Position(key >> 64, key & (1 << 64) - 1, Color.BLACK)
            ranked = rank_moves(position, LEVEL, depth=settings.depth, rng=random.Random(0))
            moves = sorted((r.move, round(r.score, 2)) for r in ranked)
            done[key] = moves
            progress.write(json.dumps({"key": f"{key:032x}", "moves": moves}) + "\n")
            progress.flush()
            if (count + 1) % 100 == 0:
                log(f"{count + 1}/{len(todo)} in {time.perf_counter() - started:.0f} s")
    meta = {
        "settings": asdict(settings),
        "origin": ORIGIN,
        "version": __version__,
        "positions": len(keys),
    }
    entries = {key: done[key] for key in keys}
    atomic_write(out, encode_book(entries, meta))
    path.unlink()
    return meta
