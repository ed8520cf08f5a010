"""Self-play positions with labels: ``reversi train generate``.

Each game is played from its own random generator, seeded by the run's seed and the
game's number, so a game is the same whichever run, chunk or resumption plays it:
the same seed gives the same data, and a stopped run resumes where it stopped.

A game: a random opening of ``opening`` plies (uniform legal moves), then the
hand-weighted evaluation searched to a fixed ``depth`` (no clock, so nothing
depends on the machine's speed; not the levels' learned evaluation, so weights
fitted on these data do not change the data a seed gives) with an ``epsilon``
chance of a uniformly random move instead; from ``exact_empties`` empty squares
the exact solver plays (and is still overruled by the random move with the same
chance). Every position where the side to move has a move is recorded, labelled
with the game's final disc difference and, from ``exact_empties`` on, its exact
score. A solve after a solved move only
needs to confirm the score it inherits (a window of one score around it), so the
labelling costs about one full solve per game plus one per random move.
"""

from __future__ import annotations

import multiprocessing
import platform
import random
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from reversi_tui import __version__
from reversi_tui.engine import PASS, Color, Position
from reversi_tui.engine.ai.endgame import final_score, solve
from reversi_tui.engine.ai.levels import base_evaluator
from reversi_tui.engine.ai.search import Limits, iterative_deepening
from reversi_tui.training.data import (
    DATA_FORMAT,
    DataError,
    Record,
    read_manifest,
    write_chunk,
    write_manifest,
)

ORIGIN = (
    "self-play by reversi_tui's own engine (random openings, then its hand-weighted "
    "evaluation at a fixed depth with epsilon-random moves), labelled by its own exact "
    "endgame solver; no other program's games, positions or weights"
)
#: The midgame's evaluation: the hand-weighted one, fixed (no noise, no tie margin).
EVALUATION = base_evaluator("full")


@dataclass(frozen=True, slots=True)
class Settings:
    """What decides the games, besides the seed: a resumed run must keep them."""

    seed: int
    depth: int = 4
    epsilon: float = 0.05
    opening_min: int = 4
    opening_max: int = 12
    exact_empties: int = 14
    chunk_games: int = 100


def play_game(settings: Settings, game: int) -> list[Record]:
    """The records of game number ``game`` of a run with ``settings``."""
    rng = random.Random(f"reversi-train/{settings.seed}/{game}")
    pos = Position.initial()
    opening = rng.randint(settings.opening_min, settings.opening_max)
    seen: list[tuple[Position, int | None]] = []
    known: int | None = None  # the exact score for the side to move, when inherited
    ply = 0
    while not pos.is_game_over:
        moves = pos.legal_moves
        if not moves:
            pos = pos.play(PASS)
            known = None if known is None else -known
            continue
        exact = best = None
        if ply < opening:
            move = rng.choice(moves)
        elif pos.empties <= settings.exact_empties:
            exact, best = _solved(pos, known)
            move = best
        else:
            limits = Limits(settings.depth, None)
            move = iterative_deepening(pos.player, pos.opponent, EVALUATION, limits, rng)[0].move
        if ply >= opening and rng.random() < settings.epsilon:
            move = rng.choice(moves)
        seen.append((pos, exact))
        # The solver's move keeps the score, so the next position inherits it.
        known = -exact if exact is not None and move == best else None
        pos = pos.play(move)
        ply += 1
    black = final_score(pos.black, pos.white)
    return [
        Record(
            p.player,
            p.opponent,
            p.turn is Color.WHITE,
            black if p.turn is Color.BLACK else -black,
            exact,
            game,
        )
        for p, exact in seen
    ]


def _solved(pos: Position, known: int | None) -> tuple[int, int]:
    """(exact score, a move reaching it) for the side to move."""
    if known is None:
        result = solve(pos.player, pos.opponent)
    else:
        result = solve(pos.player, pos.opponent, known - 1, known + 1)
        if result.score != known:
            raise RuntimeError(f"the solver disagrees with itself: {result.score} != {known}")
    return result.score, result.move


def play_chunk(settings: Settings, first: int, last: int) -> tuple[bytes, int, int, float]:
    """Games ``first`` to ``last - 1``: (their packed records, positions, exact ones, seconds)."""
    started = time.perf_counter()
    made = [r for game in range(first, last) for r in play_game(settings, game)]
    exact = sum(r.exact is not None for r in made)
    data = b"".join(r.pack() for r in made)
    return data, len(made), exact, time.perf_counter() - started


def _ignore_interrupts() -> None:
    """A worker leaves Ctrl+C to the parent, which ends the pool (no tracebacks from it)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def _played(
    settings: Settings, spans: list[tuple[int, int]], jobs: int
) -> Iterator[Iterator[tuple[bytes, int, int, float]]]:
    """Every span's chunk in order, played by ``jobs`` processes (this one when 1)."""
    if jobs == 1:
        yield (play_chunk(settings, first, last) for first, last in spans)
        return
    with multiprocessing.get_context("fork").Pool(jobs, _ignore_interrupts) as pool:
        yield pool.imap(_play_span, [(settings, first, last) for first, last in spans])


def _play_span(args: tuple[Settings, int, int]) -> tuple[bytes, int, int, float]:
    return play_chunk(*args)


def generate(
    directory: Path,
    settings: Settings,
    games: int,
    report: Callable[[str], None],
    jobs: int = 1,
) -> dict[str, Any]:
    """Play games until the directory holds ``games`` of them; its manifest at the end.

    Resumes a directory made with the same settings (DataError otherwise). Chunks
    may be played by ``jobs`` processes at once, but each is written, then named
    in the manifest, then reported through ``report`` in order, so the data are the
    same whatever ``jobs`` is.
    """
    directory.mkdir(parents=True, exist_ok=True)
    manifest = read_manifest(directory)
    if manifest is None:
        manifest = {
            "format": DATA_FORMAT,
            "origin": ORIGIN,
            "settings": asdict(settings),
            "games": 0,
            "positions": 0,
            "exact_positions": 0,
            "seconds": 0.0,
            "chunks": [],
        }
    elif manifest["settings"] != asdict(settings):
        raise DataError(
            f"{directory} holds data made with other settings ({manifest['settings']}): "
            "give the same ones to add to it, or another --out"
        )
    step = settings.chunk_games
    spans = [(first, min(first + step, games)) for first in range(manifest["games"], games, step)]
    with _played(settings, spans, jobs) as chunks:
        for (first, last), (data, positions, exact, seconds) in zip(spans, chunks, strict=False):
            entry = write_chunk(directory, len(manifest["chunks"]), data)
            entry.update(
                first_game=first,
                games=last - first,
                positions=positions,
                exact_positions=exact,
                seconds=round(seconds, 3),
                made_by=f"reversi_tui {__version__}, Python {platform.python_version()}",
            )
            manifest["chunks"].append(entry)
            manifest["games"] = last
            manifest["positions"] += positions
            manifest["exact_positions"] += exact
            manifest["seconds"] = round(manifest["seconds"] + seconds, 3)
            write_manifest(directory, manifest)
            report(
                f"{entry['file']}: games {first}-{last - 1}, {positions} positions "
                f"({exact} exact) in {seconds:.1f} s, "
                f"{positions / max(seconds, 1e-9):.1f} positions/s"
            )
    return manifest
