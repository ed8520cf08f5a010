"""``reversi serve``: idle exit, the command clients start it with, its refusals, its log."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from reversi_tui.commands import serve
from reversi_tui.net.discovery import AUTO_SERVER_IDLE_EXIT, serve_command, start_detached
from reversi_tui.net.server import Server
from reversi_tui.net.store import SqliteStore

from ..ptys import read_until
from .conftest import WAIT, Setup, name_from_address

REVERSI = [sys.executable, "-m", "reversi_tui"]


def run(
    argv: Sequence[str], env: dict[str, str], **options: Any
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        argv,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=env,
        timeout=WAIT * 3,
        check=False,
        **options,
    )


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """No data directory named, and a home of the test's own (never the real one)."""
    home = tmp_path / "home"
    environment = {**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(home / "data")}
    for name in ("REVERSI_DATA_DIR", "JOURNAL_STREAM"):
        environment.pop(name, None)
    return environment


async def test_an_idle_server_stops_by_itself_but_not_while_connected(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="reversi_tui")
    store = SqliteStore(tmp_path / "db" / "online.sqlite3")
    server = Server(store, identify=name_from_address, idle_exit=0.3)
    path = str(tmp_path / "s.sock")
    await server.start(path)
    try:
        ann = await Setup(tmp_path, server, path).login("ann")
        with pytest.raises(TimeoutError):  # three idle times, held open by ann
            await asyncio.wait_for(asyncio.shield(server.wait_stopped()), 0.9)
        ann.send(type="ping", id=1)
        await ann.expect("pong", re=1)
        ann.close()
        await asyncio.wait_for(server.wait_stopped(), WAIT)  # then idle: it stops
    finally:
        if not server._stopped.is_set():
            await server.stop()
        store.close()
    assert "no connection for 0.3 s: stopping" in caplog.messages
    assert "stopped: idle for 0.3 s" in caplog.messages
    assert not Path(path).exists()


def test_reversi_serve_idle_exit_ends_with_status_0(tmp_path: Path, env: dict[str, str]) -> None:
    path = tmp_path / "s.sock"
    command = ["--data-dir", str(tmp_path / "data"), "serve", "--socket", str(path)]
    done = run([*REVERSI, *command, "--idle-exit", "0.3"], env)
    assert done.returncode == 0, done.stderr
    log = done.stderr.splitlines()
    assert "reversi serve: no connection for 0.3 s: stopping" in log
    assert log[-1] == "reversi serve: stopped: idle for 0.3 s"
    assert "Traceback" not in done.stderr and not path.exists()


@pytest.mark.parametrize("seconds", ["0", "-1", "soon", "inf"])
def test_idle_exit_must_be_a_positive_number_of_seconds(
    seconds: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from reversi_tui.cli import main

    with pytest.raises(SystemExit) as exited:
        main(["serve", "--idle-exit", seconds])
    assert exited.value.code == 2
    assert "argument --idle-exit:" in capsys.readouterr().err


def test_a_client_starts_its_server_with_idle_exit_and_its_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("REVERSI_DATA_DIR", raising=False)
    monkeypatch.chdir(tmp_path)
    tail = ["serve", "--idle-exit", "600"]
    assert AUTO_SERVER_IDLE_EXIT == 600
    assert serve_command(None) == [*REVERSI, *tail]  # the user's own data directory
    relative = serve_command(Path("mine"))  # made absolute: the server starts in /
    assert relative == [*REVERSI, "--data-dir", str(tmp_path / "mine"), *tail]
    monkeypatch.setenv("REVERSI_DATA_DIR", "from-env")
    assert serve_command(None) == [*REVERSI, "--data-dir", str(tmp_path / "from-env"), *tail]
    assert serve_command(Path("/given"))[3:5] == ["--data-dir", "/given"]


def test_start_detached_runs_that_command_detached(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[tuple[list[str], dict[str, Any]]] = []

    class Process:
        def __init__(self, argv: list[str], **options: Any) -> None:
            started.append((argv, options))

        def wait(self) -> int:
            return 0

    monkeypatch.setattr(subprocess, "Popen", Process)
    start_detached(data_dir=tmp_path / "data")
    [(argv, options)] = started
    assert argv == serve_command(tmp_path / "data")
    assert argv[3:] == ["--data-dir", str(tmp_path / "data"), "serve", "--idle-exit", "600"]
    assert options["start_new_session"] and options["cwd"] == "/"


def test_the_started_server_keeps_its_games_in_the_clients_data_dir(
    tmp_path: Path, env: dict[str, str]
) -> None:
    """The very command (with a short idle time and a socket file of the test's own)."""
    argv = serve_command(tmp_path / "data")
    argv[argv.index("--idle-exit") + 1] = "0.3"
    done = run([*argv, "--socket", str(tmp_path / "s.sock")], env, cwd="/")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "data" / "online.sqlite3").is_file()
    assert f"games kept in {tmp_path / 'data' / 'online.sqlite3'}" in done.stderr
    assert not (tmp_path / "home").exists()  # nothing in the user's real data directory


def test_serve_refuses_an_empty_socket_path(env: dict[str, str]) -> None:
    done = run([*REVERSI, "serve", "--socket", ""], env)
    assert done.returncode == 2
    assert "error: argument --socket: needs a path" in done.stderr
    assert "Traceback" not in done.stderr


def test_serve_says_a_db_that_is_a_directory_is_one(tmp_path: Path, env: dict[str, str]) -> None:
    directory = tmp_path / "games"
    directory.mkdir()
    done = run(
        [*REVERSI, "serve", "--socket", str(tmp_path / "s.sock"), "--db", str(directory)], env
    )
    assert done.returncode == 1
    wanted = f"{directory} is a directory: give a file path, e.g. {directory}/online.sqlite3"
    assert done.stderr == f"reversi serve: {wanted}\n"


def test_the_log_off_a_terminal_has_no_time_stamp(tmp_path: Path, env: dict[str, str]) -> None:
    argv = [*REVERSI, "--data-dir", str(tmp_path / "data"), "serve", "--idle-exit", "0.3"]
    done = run([*argv, "--socket", str(tmp_path / "s.sock")], env)
    assert done.returncode == 0, done.stderr
    log = done.stderr.splitlines()
    assert log[0].startswith("reversi serve: open files: at most ")
    assert all(line.startswith("reversi serve: ") for line in log), log


def test_the_log_on_the_journal_carries_syslog_priorities(
    tmp_path: Path, env: dict[str, str]
) -> None:
    """systemd names the journal's stream in ``JOURNAL_STREAM`` (device:inode of stderr)."""
    journal = tmp_path / "journal"
    argv = [*REVERSI, "--data-dir", str(tmp_path / "data"), "serve", "--idle-exit", "0.3"]
    with journal.open("w") as stream:
        info = os.fstat(stream.fileno())
        env["JOURNAL_STREAM"] = f"{info.st_dev}:{info.st_ino}"
        done = subprocess.run(
            [*argv, "--socket", str(tmp_path / "s.sock")],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=stream,
            env=env,
            timeout=WAIT * 3,
            check=False,
        )
    assert done.returncode == 0
    log = journal.read_text().splitlines()
    assert log[0].startswith("<6>open files: at most ")
    assert "<6>stopped: idle for 0.3 s" in log
    assert all(re.match(r"<[3-6]>[a-z]", line) for line in log), log


@pytest.fixture
def clean_logging() -> Iterator[None]:
    yield
    for name in serve.LOGGERS:
        named = logging.getLogger(name)
        for handler in [h for h in named.handlers if isinstance(h, serve.StderrHandler)]:
            named.removeHandler(handler)


def test_the_log_on_a_terminal_is_time_stamped_and_one_line_per_event(
    monkeypatch: pytest.MonkeyPatch, clean_logging: None
) -> None:
    monkeypatch.delenv("JOURNAL_STREAM", raising=False)
    master, slave = os.openpty()
    with os.fdopen(slave, "w") as terminal:
        monkeypatch.setattr(sys, "stderr", terminal)
        serve.setup_logging()
        log = logging.getLogger("reversi_tui.net.server")
        log.info("ann is online")
        try:
            raise OSError(28, "No space left on device")
        except OSError:
            log.exception("store: cannot commit")  # no traceback: the error in the line
        seen = read_until(master, b"device", limit=WAIT)
    os.close(master)
    stamp = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d "
    first, second = seen.decode().splitlines()
    assert re.fullmatch(stamp + "reversi serve: ann is online", first)
    tail = "reversi serve: error: store: cannot commit: OSError: [Errno 28] No space left on device"
    assert re.fullmatch(stamp + re.escape(tail), second)
