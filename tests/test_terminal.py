"""The terminal checks before the full-screen game: no terminal, stderr redirected, ASCII.

Unit tests of the pure decisions, then the real thing in subprocesses and pseudo-
terminals: standard input from /dev/null or closed, output to a pipe, standard
error thrown away.
"""

from __future__ import annotations

import argparse
import io
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from reversi_tui import terminal
from reversi_tui.cli import build_parser, main
from reversi_tui.commands import play
from reversi_tui.terminal import (
    NO_TERMINAL,
    can_encode_board,
    coerced_by_python,
    is_terminal,
    locale_codeset,
    locale_is_utf8,
    terminal_problem,
    use_ascii,
    user_locale,
)

from .ptys import read_until, reap
from .timing import patience

ROOT = Path(__file__).parent.parent
#: A UTF-8 environment for the children, whatever the machine running the tests has.
CHILD_ENV = {**os.environ, "TERM": "xterm-256color", "LC_ALL": "C.UTF-8"}


# The locale ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("environ", "codeset"),
    [
        ({}, None),
        ({"LANG": ""}, None),
        ({"LANG": "C"}, None),
        ({"LANG": "POSIX"}, None),
        ({"LANG": "en_GB.UTF-8"}, "UTF-8"),
        ({"LANG": "de_DE.ISO-8859-15@euro"}, "ISO-8859-15"),
        ({"LANG": "en_US"}, ""),
        # LC_ALL overrides LC_CTYPE, which overrides LANG; empty ones do not count.
        ({"LANG": "en_GB.UTF-8", "LC_ALL": "C"}, None),
        ({"LANG": "C", "LC_CTYPE": "fr_FR.utf8"}, "utf8"),
        ({"LANG": "C", "LC_CTYPE": "fr_FR.utf8", "LC_ALL": "de_DE.ISO-8859-1"}, "ISO-8859-1"),
        ({"LANG": "en_GB.UTF-8", "LC_ALL": "", "LC_CTYPE": ""}, "UTF-8"),
    ],
)
def test_locale_codeset_resolves_as_the_c_library(
    environ: dict[str, str], codeset: str | None
) -> None:
    assert locale_codeset(environ) == codeset


@pytest.mark.parametrize(
    ("value", "utf8"),
    [
        ("C.UTF-8", True),
        ("en_US.utf8", True),
        ("en_US.UTF-8@euro", True),
        ("C", False),
        ("POSIX", False),
        ("en_US", False),
        ("en_US.ISO-8859-1", False),
        ("ja_JP.eucJP", False),
    ],
)
def test_locale_is_utf8(value: str, utf8: bool) -> None:
    assert locale_is_utf8({"LC_ALL": value}) is utf8


@pytest.mark.parametrize(
    ("environ", "original", "utf8_mode", "coerced"),
    [
        # What Python leaves in os.environ after its start-up, and what it was given.
        ({"LC_CTYPE": "C.UTF-8"}, {}, True, True),
        ({"LANG": "C", "LC_CTYPE": "C.UTF-8"}, {"LANG": "C"}, True, True),
        ({"LANG": "C", "LC_CTYPE": "C.utf8"}, {"LANG": "C", "LC_CTYPE": "C"}, True, True),
        ({"LC_CTYPE": "C.UTF-8"}, {"LC_CTYPE": "C.UTF-8"}, False, False),  # the user's own
        ({"LC_ALL": "C"}, {"LC_ALL": "C"}, True, False),
        ({"LANG": "en_GB.UTF-8"}, {"LANG": "en_GB.UTF-8"}, False, False),
        # Without /proc/self/environ, Python's UTF-8 mode tells.
        ({"LANG": "C", "LC_CTYPE": "C.UTF-8"}, None, True, True),
        ({"LANG": "C", "LC_CTYPE": "C.UTF-8"}, None, False, False),
    ],
)
def test_python_s_locale_coercion_is_recognised(
    environ: dict[str, str], original: dict[str, str] | None, utf8_mode: bool, coerced: bool
) -> None:
    assert coerced_by_python(environ, original, utf8_mode) is coerced
    locale = user_locale(environ, original, utf8_mode)
    assert ("LC_CTYPE" not in locale) is (coerced or "LC_CTYPE" not in environ)


#: The decision in a fresh Python, as ``reversi`` makes it (its output stream aside).
DECIDE_IN_CHILD = (
    "from reversi_tui.terminal import startup_locale, use_ascii; "
    "print(use_ascii(ascii_flag=False, unicode_flag=False, environ=startup_locale()))"
)


@pytest.mark.parametrize(
    ("locale", "ascii_only"),
    [
        ({}, True),
        ({"LANG": "C"}, True),
        ({"LANG": "POSIX"}, True),
        ({"LC_ALL": "C"}, True),
        ({"LANG": "en_US.UTF-8"}, False),  # coerced too when the system lacks en_US
        ({"LC_ALL": "C.UTF-8"}, False),
        ({"LC_CTYPE": "C.UTF-8"}, False),
    ],
    ids=["unset", "LANG=C", "LANG=POSIX", "LC_ALL=C", "LANG=en_US", "LC_ALL=C.UTF-8", "LC_CTYPE"],
)
def test_the_locale_the_user_had_decides_in_a_real_process(
    locale: dict[str, str], ascii_only: bool
) -> None:
    """``env -i``: Python's start-up coercion really happens in the child."""
    environ = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), **locale}
    done = subprocess.run(
        [sys.executable, "-c", DECIDE_IN_CHILD],
        capture_output=True,
        text=True,
        env=environ,
        timeout=30,
        cwd=ROOT,
        check=True,
    )
    assert done.stdout.strip() == str(ascii_only)


def test_the_output_encoding_must_carry_the_board() -> None:
    assert can_encode_board("utf-8")
    assert can_encode_board(None)
    assert not can_encode_board("ascii")
    assert not can_encode_board("latin-1")
    assert not can_encode_board("no-such-codec")


@pytest.mark.parametrize(
    ("ascii_flag", "unicode_flag", "environ", "encoding", "expected"),
    [
        (False, False, {"LANG": "en_GB.UTF-8"}, "utf-8", False),
        (False, False, {"LC_ALL": "C"}, "utf-8", True),
        (False, False, {}, "utf-8", True),
        (False, False, {"LANG": "de_DE.ISO-8859-1"}, "utf-8", True),
        (False, False, {"LANG": "en_GB.UTF-8"}, "ascii", True),  # PYTHONIOENCODING=ascii
        (True, False, {"LANG": "en_GB.UTF-8"}, "utf-8", True),
        (False, True, {"LC_ALL": "C"}, "ascii", False),  # --unicode forces it back
    ],
)
def test_use_ascii(
    ascii_flag: bool, unicode_flag: bool, environ: dict[str, str], encoding: str, expected: bool
) -> None:
    chosen = use_ascii(
        ascii_flag=ascii_flag, unicode_flag=unicode_flag, environ=environ, encoding=encoding
    )
    assert chosen is expected


def test_windows_ignores_the_locale_variables() -> None:
    assert not use_ascii(ascii_flag=False, unicode_flag=False, environ={}, windows=True)


def test_ascii_and_unicode_exclude_each_other() -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--ascii", "--unicode"])


def test_help_says_ascii_is_chosen_automatically() -> None:
    text = " ".join(build_parser().format_help().split())
    assert "chosen automatically when the locale is not UTF-8" in text
    assert "--unicode" in text


@pytest.mark.parametrize(
    ("flags", "environ", "expected"),
    [
        ([], {"LANG": "en_GB.UTF-8"}, False),
        ([], {"LC_ALL": "C", "LANG": "en_GB.UTF-8"}, True),
        (["--unicode"], {"LC_ALL": "C"}, False),
        (["--ascii"], {"LANG": "en_GB.UTF-8"}, True),
    ],
)
def test_run_tui_hands_the_app_the_resolved_choice(
    monkeypatch: pytest.MonkeyPatch, flags: list[str], environ: dict[str, str], expected: bool
) -> None:
    for name in ("LC_ALL", "LC_CTYPE", "LANG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    seen: list[bool] = []

    def fake_run_app(args: argparse.Namespace, *, ascii_only: bool, online: bool = False) -> int:
        seen.append(ascii_only)
        return 0

    monkeypatch.setattr(play, "terminal_problem", lambda stdin, stdout: None)
    monkeypatch.setattr(play, "run_game_app", fake_run_app)
    assert main(flags) == 0
    assert seen == [expected]


# Is there a terminal? -----------------------------------------------------------------


def test_streams_without_a_terminal() -> None:
    assert not is_terminal(None)
    assert not is_terminal(io.StringIO())  # no file descriptor
    with open(os.devnull) as null:
        assert not is_terminal(null)
        assert terminal_problem(null, null) == NO_TERMINAL
    closed = open(os.devnull)  # noqa: SIM115 -- closed on purpose
    closed.close()
    assert not is_terminal(closed)


def test_a_pty_is_a_terminal() -> None:
    master, slave = pty.openpty()
    try:
        with os.fdopen(slave, "w", closefd=False) as stream:
            assert is_terminal(stream)
            assert terminal_problem(stream, stream) is None
            with open(os.devnull) as null:
                assert terminal_problem(null, stream) == NO_TERMINAL
                assert terminal_problem(stream, null) == NO_TERMINAL
    finally:
        os.close(master)
        os.close(slave)


def test_warn_with_standard_error_closed_writes_nowhere(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stderr", None)
    terminal.warn("reversi: not into the transcript")
    assert capsys.readouterr().out == ""


def reversi_without_terminal(shell_redirect: str) -> subprocess.CompletedProcess[bytes]:
    """``reversi`` with standard output to a pipe and ``shell_redirect`` for stdin."""
    code = (
        "import sys; from reversi_tui.cli import main; rc = main([]); "
        "print('textual' in sys.modules, file=sys.stderr); sys.exit(rc)"
    )
    command = f'exec {sys.executable} -c "{code}" {shell_redirect}'
    return subprocess.run(
        ["sh", "-c", command], capture_output=True, env=CHILD_ENV, timeout=patience(30), cwd=ROOT
    )


@pytest.mark.parametrize("redirect", ["</dev/null", "<&-"], ids=["devnull", "closed"])
def test_no_terminal_is_one_line_and_exit_2_without_textual(redirect: str) -> None:
    done = reversi_without_terminal(redirect)
    assert done.returncode == 2
    assert done.stdout == b""
    message, textual_loaded = done.stderr.decode().splitlines()
    assert message == NO_TERMINAL
    assert "--plain" in message
    assert textual_loaded == "False"


def test_no_terminal_writes_no_escape_codes_into_a_file(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    with open(os.devnull, "rb") as stdin, out.open("wb") as stdout:
        done = subprocess.run(
            [sys.executable, "-m", "reversi_tui"],
            stdin=stdin,
            stdout=stdout,
            stderr=subprocess.PIPE,
            env=CHILD_ENV,
            timeout=patience(30),
        )
    assert done.returncode == 2
    assert out.read_bytes() == b""
    assert done.stderr.decode() == NO_TERMINAL + "\n"


# Through a pseudo-terminal -------------------------------------------------------------


def spawn_in_pty(*, stdin_devnull: bool = False, stderr_devnull: bool = False) -> tuple[int, int]:
    """``reversi`` in a pty of 80x24, some of its standard streams elsewhere."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: never returns
        try:
            null = os.open(os.devnull, os.O_RDWR)
            if stdin_devnull:
                os.dup2(null, 0)
            if stderr_devnull:
                os.dup2(null, 2)
            os.execve(sys.executable, [sys.executable, "-m", "reversi_tui"], CHILD_ENV)
        finally:
            os._exit(127)
    import fcntl
    import struct
    import termios

    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    return pid, fd


def test_stdin_not_a_terminal_is_refused_even_with_output_on_one() -> None:
    pid, fd = spawn_in_pty(stdin_devnull=True)
    try:
        output = read_until(fd, None)
        status = reap(pid)
    finally:
        os.close(fd)
    assert status == 2
    assert b"\x1b" not in output
    assert output.decode().strip() == NO_TERMINAL


def test_stderr_redirected_still_draws_on_the_terminal_and_quits() -> None:
    """``reversi 2>/dev/null``: Textual drew on stderr, a blank screen; now the game shows."""
    pid, fd = spawn_in_pty(stderr_devnull=True)
    try:
        screen = read_until(fd, b"Black")
        assert b"\x1b[?1049h" in screen  # the alternate screen, on the terminal
        assert b"Black" in screen
        os.write(fd, b"q")  # no move made yet: quits without asking
        read_until(fd, None)
        status = reap(pid)
    finally:
        os.close(fd)
    assert status == 0
