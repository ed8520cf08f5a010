"""The exact endgame solver on several cores, for the commands that solve.

A solve runs on one core at a time, so the work goes to worker processes,
each a serial solver (``engine.ai.endgame``, with the C node search where it
was built) keeping its own transposition table between jobs. This process
drives the root's MTD(f) null-window tests and splits their top plies the
"young brothers wait" way: at a node, the first (best-ordered) child is
searched alone, and only if it does not cut off are its brothers searched side
by side, one job per worker, the first brother that cuts off stopping the
others. In a null-window test most nodes either cut
off on their first move or search every move, so after the first child the
brothers are nearly always all needed, which is what keeps the workers busy.
A small table here keeps the split nodes' bounds and best moves between tests.
The first test is at the value of a short midgame search (the learned
evaluation), not at 0: each test ends with a few brothers still running on one
worker while the other waits, so fewer tests waste less.

Measured on this 2-core machine with the Python nodes, the 18-empty set:
median 1.8-2.0 s, mean 2.2-2.3 s with 2 workers, against 2.6 s and 3.5 s for
the serial solver; FFO #40 15.6 s against 30.5 s (the workers' separate tables cost 10-30% more
nodes at 18 empties; 3 workers were slower; splitting 3
plies deep beat 2, 4 and 5; first guesses from searches of depth 6 to 10 did
equally well, 12 worse). Below ``PARALLEL_EMPTIES`` (``PARALLEL_EMPTIES_C``
with the C nodes) the serial solver runs in this process: a solve is then too
short to pay for the messages.

Workers are forked on the first parallel solve (Linux and other systems with
``fork``; elsewhere, and with one job, everything stays serial), ignore Ctrl+C
(this process handles it), stop within a few thousand nodes when a solve is
cancelled or their parent dies, and end with :meth:`ParallelSolver.close`. If a
worker dies or fails, the solve is redone serially here and the pool is not
used again: a lost worker costs time, never a wrong answer.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.popen_fork  # imported by the first fork otherwise (see ``prepare``)
import multiprocessing.sharedctypes
import os
import signal
import time
import traceback
from multiprocessing.connection import Connection, wait
from random import Random
from types import TracebackType
from typing import Any

from reversi_tui.engine.ai.endgame import (
    _STABILITY_ALPHA,
    EVAL_ORDER,
    EndgameResult,
    Solution,
    all_scores_solution,
    final_score,
    new_search,
    ordered_children,
    root_result,
    scored_moves,
    solve,
    solve_best_moves,
    solver_name,
)
from reversi_tui.engine.ai.learned import evaluator as learned_evaluator
from reversi_tui.engine.ai.result import SearchCancelled, StopCheck
from reversi_tui.engine.ai.search import Limits, iterative_deepening, units_to_discs
from reversi_tui.engine.ai.stability import score_ceiling
from reversi_tui.engine.bitboard import legal_moves
from reversi_tui.engine.board import PASS, Move

#: From this many empty squares a solve is split across the workers (Python solver).
PARALLEL_EMPTIES = 14
#: The same with the C solver, whose subtrees are much cheaper (README): measured on
#: the 18-empty set, 2 processes took a median 0.131 s against 0.105 s serially;
#: on FFO #40-44 (20-23 empties) 10.1 s in all against 15.1 s.
PARALLEL_EMPTIES_C = 20
#: Plies from the root where nodes are split; below them a whole subtree is one job.
SPLIT_PLIES = 3
#: A node with fewer empties than this is never split further (its subtree is one job).
MIN_SPLIT_EMPTIES = 12
#: Plies of the midgame search whose value is the first MTD(f) test.
GUESS_DEPTH = 8
#: How often (seconds) an idle worker checks that its parent still lives.
ORPHAN_CHECK_SECONDS = 0.5
#: How often (seconds) a waiting solve looks at its stop check.
POLL_SECONDS = 0.02

_INF = 127
#: A job: player, opponent, alpha, beta, empties, the player's legal moves.
Job = tuple[int, int, int, int, int, int]


def usable_cores() -> int:
    """Cores this process may run on (its CPU affinity where the system tells)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def can_fork() -> bool:
    """Whether worker processes can be forked here."""
    return "fork" in multiprocessing.get_all_start_methods()


class _WorkerLost(Exception):
    """A worker died or failed: the solve is redone serially."""


def _worker(conn: Connection, epoch: Any, parent: int) -> None:
    """A worker's loop: solve each job it is sent, until told to quit or orphaned."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    current = 0

    def stop() -> bool:
        return epoch.value != current or os.getppid() != parent

    search = new_search(stop)
    while True:
        try:
            # Waiting in short turns: a parent killed by SIGKILL may leave this
            # pipe open in a brother worker, so an end of file is not certain.
            while not conn.poll(ORPHAN_CHECK_SECONDS):
                if os.getppid() != parent:
                    return
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message[0] == "quit":
            return
        if message[0] == "reset":
            search = new_search(stop)
            continue
        _, job_id, current, p, o, alpha, beta, n, moves = message
        before = search.count()
        try:
            value: int | None = search.node(p, o, alpha, beta, n, moves)
        except SearchCancelled:
            value = None
        except Exception:  # a bug: reported, and the parent solves serially
            conn.send(("error", job_id, traceback.format_exc()))
            continue
        try:
            conn.send(("done", job_id, value, search.count() - before))
        except (BrokenPipeError, OSError):
            return


class ParallelSolver:
    """Exact solves across ``jobs`` processes; a context manager that ends them.

    The same answers as :func:`endgame.solve` and :func:`endgame.solve_best_moves`
    (scores exactly; among equal moves the one reported may differ).
    """

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self._conns: list[Connection] = []
        self._procs: list[Any] = []
        self._epoch: Any = None
        self._broken = jobs < 2 or not can_fork()
        self._table: dict[tuple[int, int], tuple[int, int, int]] = {}
        self._owner: dict[tuple[int, int], int] = {}
        self._nodes = 0
        self._stop: StopCheck | None = None

    @property
    def parallel(self) -> bool:
        """Whether solves large enough are split across processes."""
        return not self._broken

    def __enter__(self) -> ParallelSolver:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """End the workers (they also end on their own when this process dies)."""
        if self._epoch is not None:
            self._epoch.value += 1
        for conn in self._conns:
            with contextlib.suppress(OSError):
                conn.send(("quit",))
        for proc in self._procs:
            proc.join(timeout=2)
            if proc.is_alive():
                proc.terminate()
                proc.join(timeout=2)
        for conn in self._conns:
            conn.close()
        self._conns, self._procs = [], []

    def prepare(self, p: int, o: int) -> None:
        """Do now what a solve of ``(p, o)`` would start with: fork, read the weights.

        For a command that says "Ctrl+C stops" before it solves: an interrupt
        that lands inside an import ends the process at once and quietly (see
        ``__main__``), so nothing should be left to import once that is said.
        """
        if self._use_workers(p, o):
            if not self._procs:
                self._fork()
            learned_evaluator()

    # Public solves ----------------------------------------------------------------
    def solve(
        self,
        p: int,
        o: int,
        alpha: int = -64,
        beta: int = 64,
        should_stop: StopCheck | None = None,
    ) -> EndgameResult:
        """:func:`endgame.solve` on every worker."""
        if not self._use_workers(p, o):
            return solve(p, o, alpha, beta, should_stop)
        try:
            self._start_solve(should_stop)
            score, move = root_result(self._root, p, o, alpha, beta)
            return EndgameResult(score, move, max(self._nodes, 1))
        except _WorkerLost:
            self._give_up()
            return solve(p, o, alpha, beta, should_stop)

    def solve_best_moves(
        self, p: int, o: int, all_scores: bool = False, should_stop: StopCheck | None = None
    ) -> Solution:
        """:func:`endgame.solve_best_moves` on every worker."""
        moves = legal_moves(p, o)
        if not moves or not self._use_workers(p, o):
            return solve_best_moves(p, o, all_scores, should_stop)
        try:
            self._start_solve(should_stop)
            return self._best_moves(p, o, moves, all_scores)
        except _WorkerLost:
            self._give_up()
            return solve_best_moves(p, o, all_scores, should_stop)

    # Set-up -----------------------------------------------------------------------
    def _use_workers(self, p: int, o: int) -> bool:
        threshold = PARALLEL_EMPTIES_C if solver_name() == "c" else PARALLEL_EMPTIES
        return not self._broken and 64 - (p | o).bit_count() >= threshold

    def _start_solve(self, should_stop: StopCheck | None) -> None:
        """Fork the workers if not yet done; clear every table for a new solve."""
        if not self._procs:
            self._fork()
        self._stop = should_stop
        self._table.clear()
        self._owner.clear()
        self._nodes = 0
        for conn in self._conns:
            self._send(conn, ("reset",))

    def _fork(self) -> None:
        context = multiprocessing.get_context("fork")
        self._epoch = context.RawValue("q", 0)
        for _ in range(self.jobs):
            mine, theirs = context.Pipe()
            proc = context.Process(
                target=_worker, args=(theirs, self._epoch, os.getpid()), daemon=True
            )
            proc.start()
            theirs.close()
            self._conns.append(mine)
            self._procs.append(proc)

    def _give_up(self) -> None:
        """After a lost worker: end the pool, solve serially from now on."""
        self._broken = True
        self.close()

    def _send(self, conn: Connection, message: tuple[Any, ...]) -> None:
        try:
            conn.send(message)
        except OSError as err:
            raise _WorkerLost from err

    # The search -------------------------------------------------------------------
    def _best_moves(self, p: int, o: int, moves: int, all_scores: bool) -> Solution:
        n1 = 63 - (p | o).bit_count()
        if all_scores:
            return all_scores_solution(scored_moves(self._root, p, o), self._nodes)
        best, move = self._root(p, o, -64, 64, moves)
        # Does another move also reach ``best``? One null-window search each, all
        # independent: whole subtrees as jobs, the workers sharing them out.
        others = [child for child in ordered_children(p, o, moves) if child[1] != 1 << move]
        values = self._run(
            [(np, no, -best - 1, -best + 1, n1, cm) for _, _, np, no, cm in others], None
        )
        found = [move]
        for (_, bit, _, _, _), reply in zip(others, values, strict=True):
            assert reply is not None  # no cut-off asked: every job finishes
            if -reply >= best:
                found.append(bit.bit_length() - 1)
        return Solution(best, tuple(sorted(found)), {}, self._nodes)

    def _root(self, p: int, o: int, alpha: int, beta: int, moves: int) -> tuple[int, Move]:
        """MTD(f) as in the serial solver, null-window tests by steps of 2, but from a guess."""
        n = 64 - (p | o).bit_count()
        lower, upper = -64, 64
        t = min(max(self._guess(p, o), alpha + 1), beta)
        t += t & 1
        move: Move = PASS
        while True:
            best, bit = self._split(p, o, t - 1, t, n, moves, 0)
            if best >= t:
                lower, move = best, bit.bit_length() - 1
                t = best + 2
            else:
                upper = t = best
                if lower == -64:
                    move = bit.bit_length() - 1
            if lower >= upper or lower >= beta:
                return lower, move
            if upper <= alpha:
                return upper, move

    def _guess(self, p: int, o: int) -> int:
        """An even score near the exact one: a short selective search's value, or 0.

        Not below 0 and walking up, as the serial solver does: there the cheap
        tests far below the score fill the table for free, but here each test
        leaves a worker waiting at its end (measured: the 18-empty set's mean
        2.54 s from 0, 2.17-2.25 s from a guess; FFO #40 26.1 s, 20.4 s).
        """
        evaluate = learned_evaluator()
        if evaluate is None:
            return 0
        limits = Limits(max_depth=GUESS_DEPTH, budget=None, selective=True)
        result, _ = iterative_deepening(p, o, evaluate, limits, Random(0), self._stop)
        return round(units_to_discs(result.score) / 2) * 2

    def _split(
        self, p: int, o: int, alpha: int, beta: int, n: int, moves: int, ply: int
    ) -> tuple[int, int]:
        """Fail-soft value and best move bit of a split node (a null window)."""
        self._nodes += 1
        if not moves:
            opp = legal_moves(o, p)
            if not opp:
                return final_score(p, o), 0
            return -self._split(o, p, -beta, -alpha, n, opp, ply)[0], 0
        if alpha >= _STABILITY_ALPHA[n]:
            bound = score_ceiling(p, o)
            if bound <= alpha:
                return bound, 0
        key = (p, o)
        lower, upper, hint = self._table.get(key, (-64, 64, 0))
        if lower >= beta or upper <= alpha:
            return (lower if lower >= beta else upper), hint
        children = ordered_children(p, o, moves, n >= EVAL_ORDER)
        if hint:
            for i, child in enumerate(children):
                if child[1] == hint:
                    children.insert(0, children.pop(i))
                    break
        n1 = n - 1
        best, best_bit = -_INF, 0
        rest = children
        _, first, np, no, cm = children[0]
        if ply + 1 < SPLIT_PLIES and n1 >= MIN_SPLIT_EMPTIES:
            # The eldest brother first, split further down; the others wait for it.
            best, best_bit = -self._split(np, no, -beta, -alpha, n1, cm, ply + 1)[0], first
            rest = children[1:]
        if best < beta and rest:
            # Whole subtrees as jobs, best-ordered first: a worker that would wait
            # for the eldest searches a brother instead, dropped if the eldest cuts off.
            values = self._run([(np, no, -beta, -alpha, n1, cm) for _, _, np, no, cm in rest], beta)
            for (_, bit, _, _, _), value in zip(rest, values, strict=True):
                if value is not None and -value > best:
                    best, best_bit = -value, bit
        if best >= beta:
            self._table[key] = (best, upper, best_bit)
        else:
            self._table[key] = (lower, best, best_bit)
        return best, best_bit

    def _run(self, jobs: list[Job], beta: int | None) -> list[int | None]:
        """Each job's value from the workers; with ``beta``, stop once one reaches it.

        A job goes to the worker that last searched the same position when that
        one is free (its table knows it), else to any free worker. Jobs left
        unstarted or stopped by a cut-off are ``None``.
        """
        assert self._epoch is not None
        epoch = self._epoch.value
        pending = list(range(len(jobs)))
        busy: dict[int, int] = {}
        results: list[int | None] = [None] * len(jobs)
        cut = False
        workers: dict[object, int] = {conn: w for w, conn in enumerate(self._conns)}
        while (pending and not cut) or busy:
            if not cut:
                for worker in range(len(self._conns)):
                    if worker not in busy and pending:
                        index = self._pick(jobs, pending, worker)
                        pending.remove(index)
                        self._owner[jobs[index][:2]] = worker
                        self._send(self._conns[worker], ("job", index, epoch, *jobs[index]))
                        busy[worker] = index
            ready = wait([self._conns[w] for w in busy], POLL_SECONDS)
            if self._stop is not None and self._stop():
                self._cancel(busy)
                raise SearchCancelled
            for ready_conn in ready:
                worker = workers[ready_conn]
                index, value = self._receive(self._conns[worker])
                del busy[worker]
                results[index] = value
                if beta is not None and value is not None and -value >= beta and not cut:
                    cut = True
                    self._epoch.value += 1
        return results

    def _pick(self, jobs: list[Job], pending: list[int], worker: int) -> int:
        for index in pending:
            if self._owner.get(jobs[index][:2]) == worker:
                return index
        for index in pending:
            if jobs[index][:2] not in self._owner:
                return index
        return pending[0]

    def _receive(self, conn: Connection) -> tuple[int, int | None]:
        try:
            message = conn.recv()
        except (EOFError, OSError) as err:
            raise _WorkerLost from err
        if message[0] != "done":
            raise _WorkerLost(message[2])
        _, index, value, nodes = message
        self._nodes += nodes
        return index, value

    def _cancel(self, busy: dict[int, int]) -> None:
        """Stop the busy workers and wait for their (discarded) answers."""
        assert self._epoch is not None
        self._epoch.value += 1
        deadline = time.monotonic() + 5
        for worker in list(busy):
            conn = self._conns[worker]
            if not conn.poll(max(0.0, deadline - time.monotonic())):
                raise _WorkerLost("a worker did not stop")
            self._receive(conn)
