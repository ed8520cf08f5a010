"""Building the opening book: ``reversi train book``.

The positions: every distinct position (under the 8 symmetries) of the first
``enumerate_plies`` plies from the start, then those met along ``lines`` random
openings of ``plies`` plies, each line seeded by the run's seed and its number, and,
with ``--from DIR``, those of a ``reversi train generate`` data directory within the
first ``plies`` plies. Then, with ``expand``, the lines good play follows: from the
start, every move within ``spread`` discs of the best, ``expand`` plies deep. Each
position is searched in its canonical frame by the hard level's evaluation to a
fixed ``depth`` (no clock; with ``selective`` through Multi-ProbCut, as hard and
expert search), every legal move getting a value at that depth, so the same
settings give the same book on any machine. Before the book is written, a move
leading to another book position takes that position's best value (negamax from
the deepest positions up), so a line is worth what its end was searched to.

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
from typing import Any, TextIO

from reversi_tui import __version__
from reversi_tui.engine.ai import learned
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
    #: Multi-ProbCut in the searches (deeper for the same time, as hard and expert play).
    selective: bool = False
    #: Follow every move within ``spread`` discs of the best from the start, this many plies.
    expand: int = 0
    spread: float = 2.0


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


def _children(key: int, moves: list[tuple[int, float]]) -> list[tuple[int, int | None]]:
    """Each move's child as a book key (None when the side to move there must pass)."""
    p, o = key >> 64, key & (1 << 64) - 1
    out: list[tuple[int, int | None]] = []
    for sq, _ in moves:
        cp, co = _play(p, o, sq)
        out.append((sq, canonical(cp, co)[0] if legal_moves(cp, co) else None))
    return out


def _near_best(key: int, moves: list[tuple[int, float]], spread: float) -> list[int]:
    """The children (book keys) of the moves within ``spread`` discs of the best."""
    best = max(v for _, v in moves)
    near = {sq for sq, v in moves if v >= best - spread}
    return [child for sq, child in _children(key, moves) if sq in near and child is not None]


def propagate(
    entries: dict[int, list[tuple[int, float]]],
) -> dict[int, list[tuple[int, float]]]:
    """The book with each move that leads to another book position valued by that
    position's best move (negated), deepest positions first: a line the book follows
    is worth what its end was searched to, not the shallower search of its start."""
    out: dict[int, list[tuple[int, float]]] = {}
    for key in sorted(entries, key=lambda k: -(k >> 64 | k & (1 << 64) - 1).bit_count()):
        moves = entries[key]
        values = dict(moves)
        for sq, child in _children(key, moves):
            if child is not None and child in out:
                values[sq] = -max(v for _, v in out[child])
        out[key] = sorted(values.items())
    return out


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
    if learned.weights() is None:
        raise BookBuildError("a book is searched with the pinned pattern weights, refused here")
    keys = positions(settings)
    path = progress_path(out)
    done = _read_progress(path, settings)
    if not path.exists():
        path.write_text(json.dumps({"settings": asdict(settings)}) + "\n", encoding="utf-8")
    todo = [key for key in keys if key not in done]
    log(f"{len(keys)} positions, {len(done)} searched before, {len(todo)} to search")
    started = time.perf_counter()
    searched = 0

    def search(progress: TextIO, key: int) -> bool:
        """Search ``key`` unless done; False when ``stop_after`` says stop."""
        nonlocal searched
        if key in done:
            return True
        if stop_after is not None and searched >= stop_after:
            return False
        position = Position(key >> 64, key & (1 << 64) - 1, Color.BLACK)
        ranked = rank_moves(
            position,
            LEVEL,
            depth=settings.depth,
            rng=random.Random(0),
            selective=settings.selective,
        )
        moves = sorted((r.move, round(r.score, 2)) for r in ranked)
        done[key] = moves
        progress.write(json.dumps({"key": f"{key:032x}", "moves": moves}) + "\n")
        progress.flush()
        searched += 1
        if searched % 100 == 0:
            log(f"{searched} searched in {time.perf_counter() - started:.0f} s")
        return True

    with path.open("a", encoding="utf-8") as progress:
        for key in todo:
            if not search(progress, key):
                return {}
        frontier = [canonical(*START)[0]]
        for ply in range(settings.expand):
            following: set[int] = set()
            for key in frontier:
                if not search(progress, key):
                    return {}
                keys.append(key)
                if ply + 1 < settings.expand:
                    following.update(_near_best(key, done[key], settings.spread))
            frontier = sorted(following)
            log(f"ply {ply + 1} of the expansion: {len(frontier)} positions next")
    keys = sorted(set(keys))
    meta = {
        "settings": asdict(settings),
        "origin": ORIGIN,
        "version": __version__,
        "positions": len(keys),
    }
    entries = propagate({key: done[key] for key in keys})
    atomic_write(out, encode_book(entries, meta, learned.WEIGHTS_SHA256))
    path.unlink()
    return meta
