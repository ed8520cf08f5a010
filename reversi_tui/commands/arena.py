"""``reversi arena``: any two players play each other (our levels, external engines);
the statistics that tune and rank them.

Games come in pairs: both games of a pair start from the same opening with the
colours swapped, so an unbalanced opening cancels out. Openings are a few random
plies from the seed, kept only when a shallow search calls them roughly even.
Games are independent, so ``--jobs`` spreads them over a process pool.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import sys
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from types import FrameType
from typing import TYPE_CHECKING

from reversi_tui.commands.options import Commands, data_dir_after, int_range, think_seconds
from reversi_tui.commands.play import StartError, configured_engines, player_option
from reversi_tui.engine import Color, Game, Position
from reversi_tui.match import (
    Changed,
    Match,
    MatchEvent,
    MatchSettings,
    PlayerKind,
    PlayerSpec,
    play_out,
)
from reversi_tui.terminal import warn

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

    from reversi_tui.match.engine_config import Engines

#: Random plies from the start position that make an opening.
OPENING_PLIES = 6
#: An opening is kept when a depth-4 search scores it within this many discs.
BALANCE_LIMIT = 3.0
#: Signals that end a run at once, as Ctrl+C does (which raises KeyboardInterrupt).
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)
#: Seconds a terminated worker gets to exit before it is killed.
WORKER_GRACE = 2.0
#: Held back while a worker starts, until it has set its own handlers.
HELD_SIGNALS = {signal.SIGINT, *STOP_SIGNALS}
#: ``prctl`` option: the signal a process gets when its parent dies (linux/prctl.h).
PR_SET_PDEATHSIG = 1


@dataclass(frozen=True, slots=True)
class GameSpec:
    """Everything one game needs, picklable for the process pool."""

    index: int
    opening: tuple[int, ...]
    black: PlayerSpec
    white: PlayerSpec
    seed: int
    a_is_black: bool
    #: The engines configured by name, for an ``engine:NAME`` player.
    engines: Engines = field(default_factory=dict)


class ArenaFailure(Exception):
    """A player failed in a game (an engine that exited, hung or answered nonsense):
    ``str()`` says which game and why."""


@dataclass(slots=True)
class ArenaResult:
    """The outcome of one game from side A's point of view, and the thinking times."""

    index: int
    a_is_black: bool
    diff_a: int  # final disc difference for A, empties to the winner
    times_a: list[float] = field(default_factory=list)
    times_b: list[float] = field(default_factory=list)


def openings(seed: int) -> Iterator[tuple[int, ...]]:
    """Balanced random openings, an endless reproducible stream for one seed."""
    from reversi_tui.engine.ai import choose_move  # the search: only when games are played

    rng = random.Random(seed)
    while True:
        pos = Position.initial()
        plies: list[int] = []
        for _ in range(OPENING_PLIES):
            moves = pos.legal_moves
            if not moves:
                break
            move = rng.choice(moves)
            plies.append(move)
            pos = pos.play(move)
        if not pos.legal_moves:
            continue
        if abs(choose_move(pos, "hard", depth=4).score) <= BALANCE_LIMIT:
            yield tuple(plies)


def play_game(spec: GameSpec) -> ArenaResult:
    """Play one game to the end and record who won by how much and each move's time."""
    from reversi_tui.players import source_factory

    settings = MatchSettings(
        black=spec.black,
        white=spec.white,
        seed=spec.seed * 2,  # black's seed; white's is the next one
    )
    match = Match(settings, source_factory(spec.engines), game=Game.from_moves(None, spec.opening))
    times: dict[Color, list[float]] = {Color.BLACK: [], Color.WHITE: []}

    def clock(event: MatchEvent) -> None:
        if isinstance(event, Changed) and event.answer is not None and event.answer.search:
            times[event.plies[0].color].append(event.answer.search.seconds)

    match.subscribe(clock)
    result = play_out(match)
    if match.failure is not None:
        raise ArenaFailure(f"game {spec.index + 1}: {match.failure.reason}")
    assert result is not None, "an arena game ends or fails"
    black, white = result.final_score
    a, b = (Color.BLACK, Color.WHITE) if spec.a_is_black else (Color.WHITE, Color.BLACK)
    diff_black = black - white
    return ArenaResult(
        spec.index,
        spec.a_is_black,
        diff_black if spec.a_is_black else -diff_black,
        times[a],
        times[b],
    )


def game_specs(args: argparse.Namespace) -> Iterator[GameSpec]:
    """The games to play, lazily: colours swap every game, a new opening every pair.

    Each opening costs a short search, so they are worked out as the games need
    them: ``--games 100000`` starts at once instead of after minutes of silence.
    """
    a, b = (_side(text, args) for text in (args.black, args.white))
    engines = configured_engines(args, MatchSettings(a, b))
    stream = openings(args.seed)
    opening: tuple[int, ...] = ()
    for i in range(args.games):
        if i % 2 == 0:
            opening = next(stream)
        a_black = i % 2 == 0
        black, white = (a, b) if a_black else (b, a)
        yield GameSpec(i, opening, black, white, args.seed * 100_003 + i, a_black, engines)


def _side(text: str, args: argparse.Namespace) -> PlayerSpec:
    """A side's player: ``--think-time`` and ``--depth`` go to a level without its own."""
    spec = PlayerSpec.parse(text, args.think_time)
    if spec.kind is PlayerKind.COMPUTER and spec.depth is None and args.depth is not None:
        return replace(spec, depth=args.depth)
    return spec


def labels(black: str, white: str) -> tuple[str, str]:
    """The names of the two sides: their players, with the option that set each when equal.

    The ``--black`` player plays black in odd-numbered games and white in the others,
    so its option names it better than a colour would.
    """
    if black == white:
        return f"{black} (--black)", f"{white} (--white)"
    return black, white


def summary(records: list[ArenaResult], label_a: str, label_b: str) -> list[str]:
    """The report lines: results per side, mean disc difference, time per move."""
    wins = sum(r.diff_a > 0 for r in records)
    losses = sum(r.diff_a < 0 for r in records)
    draws = len(records) - wins - losses
    diffs = [r.diff_a for r in records]
    lines = [
        f"{len(records)} games, colours alternating, openings in pairs; "
        f"{label_a} has black in odd-numbered games"
    ]
    width = max(len(label_a), len(label_b))
    for label, w, lo, sign, times in (
        (label_a, wins, losses, 1, [t for r in records for t in r.times_a]),
        (label_b, losses, wins, -1, [t for r in records for t in r.times_b]),
    ):
        mean_diff = sign * statistics.fmean(diffs) if diffs else 0.0
        mean_t = statistics.fmean(times) if times else 0.0
        max_t = max(times, default=0.0)
        lines.append(
            f"{label:<{width}}  wins {w:>4}  losses {lo:>4}  draws {draws:>4}  "
            f"score {100 * (w + draws / 2) / max(len(records), 1):5.1f}%  "
            f"mean disc diff {mean_diff:+6.2f}  "
            f"time/move mean {mean_t:.3f} s max {max_t:.3f} s"
        )
    return lines


def add_parser(commands: Commands) -> None:
    """``reversi arena``'s options; ``run`` is its handler."""
    arena = commands.add_parser(
        "arena", help="players (levels, engines) play each other: the statistics"
    )
    arena.add_argument(
        "--black",
        type=player_option,
        required=True,
        metavar="PLAYER",
        help="one side: a level (hard, hard/2s, hard/6ply) or an engine (gtp:COMMAND, "
        "nboard:COMMAND, engine:NAME)",
    )
    arena.add_argument(
        "--white", type=player_option, required=True, metavar="PLAYER", help="the other side"
    )
    arena.add_argument(
        "--games",
        type=int_range(1, 100000),
        default=10,
        metavar="N",
        help="games to play; colours swap every game (default: 10)",
    )
    arena.add_argument(
        "--jobs", type=int_range(1, 64), default=1, metavar="J", help="games at once (processes)"
    )
    arena.add_argument(
        "--think-time", type=think_seconds, metavar="S", help="seconds per move for both sides"
    )
    arena.add_argument("--depth", type=int_range(1, 60), help="fixed depth for both sides")
    arena.add_argument("--seed", type=int, default=1, help="seed for openings and choices")
    data_dir_after(arena, "read the engines configured by name from the settings file in DIR")
    arena.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Play the games (in a pool with ``--jobs`` > 1), printing progress to stderr.

    Ctrl+C (exit status 130, reported by the caller) and SIGTERM or SIGHUP (128
    plus the signal's number) stop at once: the workers are ended, not awaited.
    """
    total = args.games
    label_a, label_b = labels(args.black, args.white)
    jobs = "1 process" if args.jobs == 1 else f"{args.jobs} processes"
    warn(f"arena: {total} games, {label_a} against {label_b}, {jobs}; Ctrl+C stops")
    records: list[ArenaResult] = []

    def record(result: ArenaResult) -> None:
        records.append(result)
        _progress(result, total, label_a, label_b)

    previous = {sig: signal.signal(sig, _stop_on_signal) for sig in STOP_SIGNALS}
    try:
        if args.jobs > 1:
            _play_in_pool(game_specs(args), args.jobs, record)
        else:
            for spec in game_specs(args):
                record(play_game(spec))
    except _Stopped as stopped:
        warn(f"reversi arena: stopped by {signal.Signals(stopped.signum).name}")
        return 128 + stopped.signum
    except (ArenaFailure, StartError) as failed:
        warn(f"reversi arena: {failed}")
        status = 1 if isinstance(failed, ArenaFailure) else 2
    else:
        status = 0
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if records:
        for line in summary(records, label_a, label_b):
            print(line)
    return status


class _Stopped(Exception):
    """SIGTERM or SIGHUP arrived: unwind, end the workers, exit with 128 + ``signum``."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _stop_on_signal(signum: int, frame: FrameType | None) -> None:
    raise _Stopped(signum)


def _play_in_pool(
    specs: Iterator[GameSpec], jobs: int, record: Callable[[ArenaResult], None]
) -> None:
    """Play ``specs`` on ``jobs`` processes, passing each result to ``record`` in order.

    Only a few games are queued ahead of the results, so openings are worked out
    as the pool needs them. Any exception (Ctrl+C, a stop signal, a failed game)
    ends the workers before it goes on.
    """
    from concurrent.futures import ProcessPoolExecutor

    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_worker_setup, initargs=(os.getpid(),))
    pending: deque[Future[ArenaResult]] = deque()
    try:
        for spec in specs:
            pending.append(_submit(pool, spec))
            if len(pending) >= 2 * jobs:
                record(pending.popleft().result())
        while pending:
            record(pending.popleft().result())
    except BaseException:
        _end_workers(pool)
        raise
    pool.shutdown()


def _submit(pool: ProcessPoolExecutor, spec: GameSpec) -> Future[ArenaResult]:
    """Queue one game, holding Ctrl+C and the stop signals back meanwhile.

    The first call forks the workers: held back, a signal waits in a new worker
    until ``_worker_setup`` has set it aside, instead of raising there (a
    traceback) before it could.
    """
    held = signal.pthread_sigmask(signal.SIG_BLOCK, HELD_SIGNALS)
    try:
        return pool.submit(play_game, spec)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def _worker_setup(parent: int) -> None:
    """In each worker: leave Ctrl+C and the stop signals to the parent.

    A terminal sends SIGINT to every process of the foreground job; the parent
    ends the workers itself. They do not inherit its SIGTERM handler either (a
    forked child would), so ``terminate()`` ends them at once. A parent killed
    outright (SIGKILL, the OOM killer) cannot end them: on Linux the kernel does.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for sig in STOP_SIGNALS:
        signal.signal(sig, signal.SIG_DFL)
    _die_with(parent)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, HELD_SIGNALS)


def _die_with(parent: int) -> None:
    """Have the kernel send SIGTERM to this process when ``parent`` dies (Linux).

    ``prctl(PR_SET_PDEATHSIG)``; a parent already gone before it took effect is
    checked for after. Elsewhere nothing is done.
    """
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:
        os._exit(1)


def _end_workers(pool: ProcessPoolExecutor) -> None:
    """Terminate the pool's workers now, with the games they are playing.

    ``ProcessPoolExecutor.shutdown`` waits for the running games (seconds each)
    even with ``cancel_futures``, and Python before 3.14 has no
    ``terminate_workers()``: the workers are ended through the pool's private
    ``_processes``.
    """
    processes = list((pool._processes or {}).values())
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(WORKER_GRACE)
        if process.is_alive():
            process.kill()
            process.join()
    pool.shutdown(wait=True, cancel_futures=True)


def progress_line(record: ArenaResult, total: int, label_a: str, label_b: str) -> str:
    """``game 3/10: hard as black +12 against medium``: the result for the --black level."""
    colour = "black" if record.a_is_black else "white"
    game = f"game {record.index + 1}/{total}"
    return f"{game}: {label_a} as {colour} {record.diff_a:+d} against {label_b}"


def _progress(record: ArenaResult, total: int, label_a: str, label_b: str) -> None:
    warn(progress_line(record, total, label_a, label_b))
