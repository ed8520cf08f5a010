"""The solver split over worker processes: serial answers, cancellation, lost workers."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from reversi_tui import parallel_solver
from reversi_tui.engine import PASS, Position, parse_position
from reversi_tui.engine.ai import endgame, native_endgame
from reversi_tui.engine.ai.endgame import solve, solve_best_moves
from reversi_tui.engine.ai.result import SearchCancelled
from reversi_tui.engine.bitboard import legal_moves
from reversi_tui.parallel_solver import ParallelSolver

from .timing import patience

DATA = Path(__file__).parent / "data"
SOLVERS = ["python", *(["c"] if native_endgame.MODULE is not None else [])]
POSITIONS = [parse_position(line) for line in (DATA / "endgame_e12.obf").read_text().splitlines()]

pytestmark = pytest.mark.skipif(not parallel_solver.can_fork(), reason="needs fork")


@pytest.fixture(params=SOLVERS)
def solver(
    monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> Iterator[ParallelSolver]:
    """Two workers, splitting from 10 empties so that 12-empty positions go to them.

    Once with each node search this install has (the workers fork with it).
    """
    monkeypatch.setattr(endgame, "_native", request.param == "c")
    monkeypatch.setattr(parallel_solver, "PARALLEL_EMPTIES", 10)
    monkeypatch.setattr(parallel_solver, "PARALLEL_EMPTIES_C", 10)
    monkeypatch.setattr(parallel_solver, "MIN_SPLIT_EMPTIES", 8)
    with ParallelSolver(2) as pool:
        yield pool


def _score_after(position: Position, move: int) -> int:
    child = position.play(move)
    return -solve(child.player, child.opponent).score


@pytest.mark.parametrize("index", range(0, len(POSITIONS), 3))
def test_same_score_as_the_serial_solver_and_a_move_that_reaches_it(
    solver: ParallelSolver, index: int
) -> None:
    position = POSITIONS[index]
    serial = solve(position.player, position.opponent)
    result = solver.solve(position.player, position.opponent)
    assert solver.parallel
    assert result.score == serial.score
    assert _score_after(position, result.move) == serial.score
    assert result.nodes > 0


def test_best_moves_and_all_scores_as_the_serial_solver(solver: ParallelSolver) -> None:
    for position in POSITIONS[:4]:
        p, o = position.player, position.opponent
        assert solver.solve_best_moves(p, o).moves == solve_best_moves(p, o).moves
        assert solver.solve_best_moves(p, o, True).scores == solve_best_moves(p, o, True).scores


def test_windows_give_fail_soft_bounds(solver: ParallelSolver) -> None:
    position = POSITIONS[1]
    exact = solve(position.player, position.opponent).score
    above = solver.solve(position.player, position.opponent, exact + 1, exact + 9).score
    below = solver.solve(position.player, position.opponent, exact - 9, exact - 1).score
    assert above <= exact + 1 and above >= exact
    assert below >= exact - 1 and below <= exact


def _must_pass_positions() -> Iterator[tuple[int, int]]:
    """(player, opponent) with 10 or 11 empties where the player must pass."""
    for position in POSITIONS:
        for move in position.legal_moves:
            child = position.play(move)
            for grandchild in (child, *(child.play(m) for m in child.legal_moves)):
                p, o = grandchild.player, grandchild.opponent
                if not legal_moves(p, o) and legal_moves(o, p):
                    yield p, o


def test_a_side_that_must_pass_is_solved_from_its_point_of_view(solver: ParallelSolver) -> None:
    p, o = next(_must_pass_positions())
    result = solver.solve(p, o)
    assert result.move == PASS
    assert result.score == -solve(o, p).score == solve(p, o).score


def test_a_cancelled_solve_raises_and_the_pool_still_solves(solver: ParallelSolver) -> None:
    position = POSITIONS[2]
    with pytest.raises(SearchCancelled):
        solver.solve(position.player, position.opponent, should_stop=lambda: True)
    result = solver.solve(position.player, position.opponent)
    assert solver.parallel
    assert result.score == solve(position.player, position.opponent).score


def test_a_killed_worker_costs_time_not_the_answer(solver: ParallelSolver) -> None:
    position = POSITIONS[3]
    solver.solve(position.player, position.opponent)  # forks the workers
    assert solver.parallel
    os.kill(solver._procs[0].pid, signal.SIGKILL)
    solver._procs[0].join()
    result = solver.solve(position.player, position.opponent)
    assert result.score == solve(position.player, position.opponent).score
    assert not solver.parallel


def test_one_job_or_few_empties_never_forks() -> None:
    position = POSITIONS[0]
    with ParallelSolver(1) as single:
        assert not single.parallel
        assert single.solve(position.player, position.opponent).score == (
            solve(position.player, position.opponent).score
        )
        assert single._procs == []
    with ParallelSolver(2) as pool:
        pool.solve(position.player, position.opponent)  # 12 empties: below the default
        assert pool._procs == []


def test_close_ends_the_workers(solver: ParallelSolver) -> None:
    position = POSITIONS[0]
    solver.solve(position.player, position.opponent)
    procs = list(solver._procs)
    assert procs and all(proc.is_alive() for proc in procs)
    solver.close()
    assert not any(proc.is_alive() for proc in procs)


ORPHAN_SCRIPT = """
import sys, time
from reversi_tui import parallel_solver
from reversi_tui.engine import parse_position
position = parse_position(sys.argv[1])
parallel_solver.PARALLEL_EMPTIES_C = 14  # the C solver alone splits from 20 empties
solver = parallel_solver.ParallelSolver(2)
solver.prepare(position.player, position.opponent)
print(*(proc.pid for proc in solver._procs), flush=True)
time.sleep(600)
"""


def _gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (a zombie waiting for its reaper counts)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] in {"Z", "X"}
    except FileNotFoundError:
        return True


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_idle_workers_end_when_their_parent_is_killed() -> None:
    line = "O--OOOOX-OOOOOOXOOXXOOXXOOXOOXXXOOOOXOXX--OOOOOX--X-O--X-------- X"  # 18 empties
    parent = subprocess.Popen(
        [sys.executable, "-c", ORPHAN_SCRIPT, line], stdout=subprocess.PIPE, text=True
    )
    assert parent.stdout is not None
    pids = [int(pid) for pid in parent.stdout.readline().split()]
    assert len(pids) == 2 and not any(_gone(pid) for pid in pids)
    parent.kill()
    parent.wait()
    deadline = time.monotonic() + patience(20)
    while not all(_gone(pid) for pid in pids):
        assert time.monotonic() < deadline, "workers outlived their parent"
        time.sleep(0.05)
