"""Ctrl+Z suspends ``reversi`` with job control, as other full-screen programs do: the
terminal is given back (the alternate screen left), the process stops, and on SIGCONT
(``fg``) the game is drawn again."""

from __future__ import annotations

import fcntl
import os
import pty
import shutil
import struct
import sys
import termios
import time
from pathlib import Path

import pytest

from reversi_tui.records.keeper import GameKeeper
from reversi_tui.records.paths import Places
from reversi_tui.tui.app import ReversiApp
from reversi_tui.tui.screens.help import KEYS

from ..ptys import read_until, reap
from ..timing import patience
from .helpers import make_app, settle, ui, wait_until

ALT_SCREEN_ON = b"\x1b[?1049h"
ALT_SCREEN_OFF = b"\x1b[?1049l"
#: Pieces of every part of the screen: the sidebar, the board, the footer.
DRAWN = (b"Reversi", b"Black Human", b"Move 1", b"a   b   c", b"no moves yet", b"Help")

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="job control is POSIX")


def spawn(argv: list[str]) -> tuple[int, int]:
    """``argv`` in a pty of 80x24 (as its session leader)."""
    pid, fd = pty.fork()
    if pid == 0:  # pragma: no cover -- the child becomes the program
        env = {**os.environ, "TERM": "xterm-256color", "LC_ALL": "C.UTF-8", "PS1": "$ "}
        try:
            os.execve(argv[0], argv, env)
        finally:
            os._exit(127)  # never fall back into the test's code
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    return pid, fd


def reversi(data_dir: Path) -> list[str]:
    return [sys.executable, "-m", "reversi_tui", "--new", "--data-dir", str(data_dir)]


def read_drawn(fd: int, before: bytes = b"") -> bytes:
    """Output until every part of the screen (``DRAWN``) has been drawn, or 10 s."""
    drawn = before
    deadline = time.monotonic() + patience(10)
    while not all(part in drawn for part in DRAWN) and time.monotonic() < deadline:
        drawn += read_until(fd, DRAWN[-1], limit=0.5)
    return drawn


def keys_one_by_one(fd: int, limit: float = 10.0) -> bool:
    """Whether the terminal is (back) in the game's raw mode within ``limit`` seconds:
    Textual draws before it sets the mode, and a key sent in between would wait for
    Enter, as the shell's."""
    deadline = time.monotonic() + patience(limit)
    while termios.tcgetattr(fd)[3] & termios.ICANON:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def missing(drawn: bytes) -> list[bytes]:
    return [part for part in DRAWN if part not in drawn]


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash for job control")
def test_ctrl_z_stops_the_game_and_fg_draws_it_again(tmp_path: Path) -> None:
    """Under an interactive shell: Ctrl+Z gives the terminal back (the shell says the
    job stopped), ``fg`` brings the whole game back."""
    shell = shutil.which("bash")
    assert shell is not None
    pid, fd = spawn([shell, "--norc", "--noprofile", "-i"])
    try:
        read_until(fd, b"$ ", limit=10)
        os.write(fd, " ".join(reversi(tmp_path / "data")).encode() + b"\n")
        assert not missing(read_drawn(fd))
        os.write(fd, b"\x1a")  # Ctrl+Z
        given_back = read_until(fd, b"Stopped", limit=10)
        assert ALT_SCREEN_OFF in given_back, "the terminal was not given back"
        assert b"Stopped" in given_back, "Ctrl+Z did not stop the game"
        if b"$ " not in given_back.partition(b"Stopped")[2]:
            read_until(fd, b"$ ", limit=10)  # the shell's prompt: it reads a command
        os.write(fd, b"fg\n")
        again = read_until(fd, ALT_SCREEN_ON, limit=10)
        assert ALT_SCREEN_ON in again
        drawn = read_drawn(fd, again.partition(ALT_SCREEN_ON)[2])
        assert not missing(drawn), f"not drawn again after fg: {missing(drawn)}"
        assert keys_one_by_one(fd), "the game did not take the terminal's keys again"
        os.write(fd, b"q")  # no move made: quits without asking
        left = read_until(fd, ALT_SCREEN_OFF, limit=10)
        assert ALT_SCREEN_OFF in left
        if b"$ " not in left.partition(ALT_SCREEN_OFF)[2]:
            read_until(fd, b"$ ", limit=10)  # the game has ended: the shell reads again
        os.write(fd, b"exit\n")
        read_until(fd, None, limit=10)
        status = reap(pid)
    finally:
        os.close(fd)
    assert status == 0


def test_without_a_shell_to_bring_it_back_ctrl_z_only_says_so(tmp_path: Path) -> None:
    """Run as the session leader (``ssh -t host reversi``, ``exec reversi``), no shell
    could ``fg`` a stopped game: the terminal would freeze. It says so and plays on."""
    pid, fd = spawn(reversi(tmp_path / "data"))
    try:
        assert not missing(read_drawn(fd))
        os.write(fd, b"\x1a")  # Ctrl+Z
        said = read_until(fd, b"Not suspended", limit=10)
        assert b"Not suspended" in said
        done, status = os.waitpid(pid, os.WNOHANG | os.WUNTRACED)
        assert not done, "the game stopped with no shell to bring it back"
        os.write(fd, b"q")  # no move made: quits without asking
        read_until(fd, None)
        status = reap(pid)
    finally:
        os.close(fd)
    assert status == 0


@pytest.mark.parametrize("dialog", [None, "question_mark", "ctrl+s", "n"])
async def test_ctrl_z_suspends_from_the_game_and_from_any_dialog(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, dialog: str | None
) -> None:
    """The key reaches Textual's ``action_suspend_process`` wherever the focus is (the
    save dialog's text field too); the headless test driver cannot suspend."""
    asked: list[bool] = []
    monkeypatch.setattr(ReversiApp, "action_suspend_process", lambda self: asked.append(True))
    app = make_app(keeper=GameKeeper(Places.resolve(tmp_path / "data")))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        if dialog is not None:
            await pilot.press(dialog)
            await wait_until(pilot, lambda: app.screen is not ui(app))
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert asked == [True]


def test_the_help_lists_ctrl_z() -> None:
    assert any(key == "Ctrl+Z" and "fg" in what for key, what in KEYS)
