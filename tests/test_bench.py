"""``reversi arena`` and ``reversi bench``: bounded input, prompt starts and prompt stops."""

from __future__ import annotations

import argparse
import itertools
import os
import re
import resource
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from reversi_tui.cli import build_parser, main
from reversi_tui.commands import arena
from reversi_tui.engine import PASS
from reversi_tui.engine.ai.endgame import EndgameResult
from reversi_tui.parallel_solver import ParallelSolver

from .timing import patience

DATA = Path(__file__).parent / "data"
#: A 10-empty position whose only best move is b6, +6.
TEN = (DATA / "endgame_e10.obf").read_text().splitlines()[0]
#: White to move must pass; then black's a1 or h1 ends the game at +62 for black.
MUST_PASS = "-OXXXXO-" + "X" * 24 + "XXOXXXXX" + "X" * 24 + " O"
START = "---------------------------OX------XO--------------------------- X"
#: Games of a minute or more each: stopping must not wait for the games being played.
ARENA = ["arena", "--black", "hard", "--white", "hard", "--think-time", "1", "--jobs", "2"]


def arena_args(*extra: str) -> argparse.Namespace:
    return build_parser().parse_args(["arena", "--black", "easy", "--white", "hard", *extra])


# --- arena: games start at once -----------------------------------------------------------


def test_arena_works_out_openings_only_as_games_need_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn = 0

    def counted(seed: int) -> Iterator[tuple[int, ...]]:
        nonlocal drawn
        for n in itertools.count():
            drawn += 1
            yield (n,)

    monkeypatch.setattr(arena, "openings", counted)
    specs = arena.game_specs(arena_args("--games", "100000"))
    first = list(itertools.islice(specs, 3))
    assert [spec.opening for spec in first] == [(0,), (0,), (1,)]
    assert drawn == 2, f"{drawn} openings worked out for the first 3 games"


def test_arena_says_what_it_plays_before_the_first_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    seen: list[str] = []

    def play(spec: arena.GameSpec) -> arena.ArenaResult:
        seen.append(capsys.readouterr().err)
        return arena.ArenaResult(spec.index, spec.a_is_black, 2)

    monkeypatch.setattr(arena, "play_game", play)
    monkeypatch.setattr(arena, "openings", lambda seed: itertools.repeat((19,)))
    assert main(["arena", "--black", "easy", "--white", "hard", "--games", "2"]) == 0
    assert "arena: 2 games, easy against hard" in seen[0]
    assert "game 1/2: easy as black +2 against hard" in seen[1]


# --- arena: Ctrl+C and SIGTERM stop the pool at once --------------------------------------


def group_members(pgid: int) -> list[int]:
    """Live (not zombie) processes of process group ``pgid``, from /proc."""
    members = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        state, _ppid, group = stat.rsplit(")", 1)[1].split()[:3]
        if int(group) == pgid and state != "Z":
            members.append(int(entry))
    return members


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize(
    ("signum", "to_group", "status"),
    [
        (signal.SIGINT, True, 130),  # Ctrl+C in a terminal: the whole foreground job
        (signal.SIGINT, False, 130),
        (signal.SIGTERM, False, 143),
        (signal.SIGKILL, False, -signal.SIGKILL),  # no handler runs: the kernel ends them
    ],
    ids=["ctrl-c", "sigint", "sigterm", "sigkill"],
)
def test_arena_pool_stops_at_once(signum: int, to_group: bool, status: int) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "reversi_tui", *ARENA, "--games", "20"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group: the workers join it
    )
    try:
        deadline = time.monotonic() + patience(60)
        while len(group_members(process.pid)) < 3:  # the parent and two workers
            assert time.monotonic() < deadline, "the workers never started"
            time.sleep(0.05)
        (os.killpg if to_group else os.kill)(process.pid, signum)
        _, err = process.communicate(timeout=patience(5))
        assert process.returncode == status
        assert "Traceback" not in err, err
        # (after SIGKILL the group lives on in the orphaned workers, until they end)
        deadline = time.monotonic() + patience(5)
        while group_members(process.pid):
            assert time.monotonic() < deadline, f"left running: {group_members(process.pid)}"
            time.sleep(0.05)
    finally:
        for pid in group_members(process.pid):
            os.kill(pid, signal.SIGKILL)
        process.kill()
        process.wait()


# --- bench solve: obf as Edax writes it, bounded lines ------------------------------------


@pytest.mark.parametrize(
    "content",
    [
        f"\ufeff{TEN}\n",
        f"% Edax's comment\n{TEN}\n",
        f"{MUST_PASS}; PS:-62;\n",
        f"{MUST_PASS}; PA:-62;\n",
        f"{MUST_PASS}; pa:-62\n",
        f"{MUST_PASS}; A1:-62; H1:-62;\n",  # the reply named instead of the pass
    ],
    ids=["bom", "percent", "ps", "pa", "pa-lower", "reply"],
)
def test_bench_solve_reads_edax_obf(
    content: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "edax.obf"
    path.write_text(content, encoding="utf-8")
    assert main(["bench", "solve", str(path)]) == 0
    out, err = capsys.readouterr()
    assert "1 positions" in out and "0 mismatches" in out, out + err
    assert "MISMATCH" not in out


def test_bench_eval_prints_the_pattern_evaluations_per_second_first(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["bench", "eval", "--positions", "100"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert float(lines[0]) > 0
    assert any(line.startswith("pattern evaluation") for line in lines)
    assert any(line.startswith("incremental update") for line in lines)


def test_bench_search_compares_full_width_and_selective_to_a_depth(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["bench", "search", "--positions", "3", "--depth", "5", "--time", "0.05"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert float(lines[0]) > 0
    rows = [line.split() for line in lines if line.startswith(("full", "sel"))]
    evaluations = {row[-6] for row in rows}
    assert "hand" in evaluations and len(rows) == 2 * len(evaluations)
    for evaluation in evaluations:
        row = {r[0]: r for r in rows if r[-6] == evaluation}
        full_nodes = int(row["full"][-4].replace(",", ""))
        selective_nodes = int(row["selective"][-4].replace(",", ""))
        assert 0 < selective_nodes < full_nodes


def test_bench_search_refuses_a_silly_time(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["bench", "search", "--time", "0"])
    assert "from 0.05 to 60 seconds" in capsys.readouterr().err


def test_bench_solve_reports_a_wrong_pass_score(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "wrong.obf"
    path.write_text(f"{MUST_PASS}; PS:-60;\n")
    assert main(["bench", "solve", str(path)]) == 1
    out = capsys.readouterr().out
    assert "pass -62" in out and "MISMATCH: expected -60" in out


def test_bench_solve_refuses_an_endless_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "long.obf"
    path.write_text(TEN + " " * 10_000 + "\n")
    assert main(["bench", "solve", str(path)]) == 2
    err = capsys.readouterr().err
    assert "line 1: longer than 4096 characters" in err


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_bench_solve_dev_zero_is_bounded() -> None:
    def limit_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    done = subprocess.run(
        [sys.executable, "-m", "reversi_tui", "bench", "solve", "/dev/zero"],
        capture_output=True,
        text=True,
        timeout=patience(60),
        preexec_fn=limit_memory,
    )
    assert done.returncode == 2, done.stderr[-500:]
    assert done.stderr == "reversi bench solve: /dev/zero, line 1: longer than 4096 characters\n"


def test_bench_solve_warns_before_a_long_solve(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(
        ParallelSolver, "solve", lambda self, player, opponent: EndgameResult(0, PASS, 1)
    )
    path = tmp_path / "deep.obf"
    path.write_text(f"{TEN.split(';')[0]}\n{START}\n")  # no scores: unchecked
    assert main(["bench", "solve", str(path)]) == 0
    err = capsys.readouterr().err
    assert err.startswith("reversi bench solve: line 2 has 60 empty squares: this may take")


# --- bench tui ----------------------------------------------------------------------------


def test_bench_tui_below_the_minimum_size_measures_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["bench", "tui", "--columns", "60", "--rows", "20", "--presses", "1"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "nothing to measure at 60x20" in err and "69x20" in err


def test_bench_tui_child_that_cannot_start_never_runs_the_callers_code(tmp_path: Path) -> None:
    # The forked child must exit, not return into the caller's code (here: the finally).
    record = tmp_path / "pids"
    code = (
        "import os, sys\n"
        "from reversi_tui.cli import main\n"
        "sys.executable = '/nonexistent/python'\n"
        "try:\n"
        "    rc = main(['bench', 'tui', '--presses', '1'])\n"
        "finally:\n"
        f"    open({str(record)!r}, 'a').write(f'{{os.getpid()}}\\n')\n"
        "sys.exit(rc)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=patience(60)
    )
    assert len(record.read_text().split()) == 1, "the child ran the caller's code"
    assert done.returncode == 1, done.stderr
    assert "nothing measured: the app exited (exit status 127)" in done.stderr


def test_bench_online_plays_every_game_to_the_end_and_checks_the_database() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "reversi_tui", "bench", "online", "--clients", "6"],
        capture_output=True,
        text=True,
        timeout=patience(120),
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("6 clients, 3 games at once, ")
    assert re.match(r"move-to-update latency: median [\d.]+ ms, p95 [\d.]+ ms", lines[1])
    assert re.match(r"server peak memory: [\d.]+ MB", lines[2])
    assert lines[3] == "database: 3 games complete and consistent, integrity ok"
