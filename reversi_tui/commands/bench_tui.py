"""Measure the full-screen app as a user's terminal sees it: through a pseudo-terminal.

Starts ``reversi`` in a pty of the given size, waits for the first frame to settle,
then presses cursor keys one at a time and records, for each, the time until the
last byte of the app's answer and how many bytes it wrote; with ``--thinking``, while
the computer searches. Also checks that an idle
screen writes nothing. Prints medians and maxima.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import os
import pty
import select
import signal
import statistics
import struct
import sys
import termios
import time
from typing import NoReturn

from reversi_tui.commands.options import Commands, int_range
from reversi_tui.terminal import warn

#: No output for this long means the app has finished answering.
QUIET = 0.25
#: Seconds after a move until its highlight has faded (the board's FLASH_SECONDS, and some).
FLASH_FADE = 1.0

KEYS = [b"\x1b[C", b"\x1b[B", b"\x1b[D", b"\x1b[A"]


class NothingMeasured(Exception):
    """The app gave nothing to time: it exited, or drew nothing in answer to the keys."""


class _AppEnded(Exception):
    """The pty was closed: the app has exited."""


def _read_burst(fd: int, quiet: float, limit: float) -> tuple[int, float]:
    """Bytes read until ``quiet`` seconds pass with none, and the time of the last byte."""
    total = 0
    last = time.perf_counter()
    deadline = last + limit
    while time.perf_counter() < deadline:
        ready, _, _ = select.select([fd], [], [], quiet)
        if not ready:
            break
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # EIO: the app closed the terminal
            raise _AppEnded from None
        if not chunk:
            raise _AppEnded
        total += len(chunk)
        last = time.perf_counter()
    return total, last


def measure(columns: int, rows: int, presses: int, thinking: bool) -> dict[str, float]:
    """Start the app in a pty of ``columns`` x ``rows`` and time ``presses`` cursor keys.

    Raises NothingMeasured when the app exits, or answers no key.
    """
    pid, fd = pty.fork()
    if pid == 0:
        _exec_app(thinking)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    ended = False
    try:
        start = time.perf_counter()
        select.select([fd], [], [], 15.0)
        first, settled = _read_burst(fd, 0.5, 15.0)
        startup = settled - start
        idle, _ = _read_burst(fd, 1.0, 1.0)
        if thinking:
            os.write(fd, b"\r")  # play d3: the computer starts a long search
            _read_burst(fd, QUIET, 2.0)
            # Let the move's highlight fade (0.8 s) before timing keys: its repaint landing
            # inside a key's quiet window was counted as that key's latency (~250 ms).
            time.sleep(FLASH_FADE)
            _read_burst(fd, 0.05, 0.5)
        latencies: list[float] = []
        sizes: list[int] = []
        for i in range(presses):
            key = KEYS[(i // 2) % len(KEYS)]
            sent = time.perf_counter()
            os.write(fd, key)
            size, last = _read_burst(fd, QUIET, 5.0)
            latencies.append((last - sent) * 1000 if size else 0.0)
            sizes.append(size)
        if not any(sizes):
            raise NothingMeasured(f"the app drew nothing in answer to {presses} cursor keys")
        return {
            "startup_s": startup,
            "first_frame_bytes": first,
            "idle_bytes_per_s": idle,
            "key_ms_median": statistics.median(latencies),
            "key_ms_max": max(latencies),
            "key_bytes_median": statistics.median(sizes),
            "key_bytes_max": max(sizes),
        }
    except _AppEnded:
        _, status = os.waitpid(pid, 0)
        ended = True
        raise NothingMeasured(f"the app exited ({_describe(status)})") from None
    finally:
        if not ended:
            os.kill(pid, signal.SIGTERM)
            os.waitpid(pid, 0)
        os.close(fd)


def _exec_app(thinking: bool) -> NoReturn:
    """In the forked child: become the app, or exit 127 if it cannot be started.

    Nothing may return from here: the child would go on running the parent's code
    (its measurement, or a test runner's next tests).
    """
    try:
        os.environ["TERM"] = "xterm-256color"
        os.environ["LC_ALL"] = "C.UTF-8"  # the Unicode board, whatever the caller's locale
        os.environ.pop("NO_COLOR", None)
        white = ["expert", "--think-time", "60"] if thinking else ["human"]
        os.execvp(sys.executable, [sys.executable, "-m", "reversi_tui", "--white", *white])
    except BaseException as err:
        with contextlib.suppress(OSError):
            os.write(2, f"reversi bench tui: cannot start {sys.executable}: {err}\n".encode())
    finally:
        os._exit(127)


def _describe(status: int) -> str:
    """``exit status 127`` or ``killed by SIGSEGV`` from a ``waitpid`` status."""
    if os.WIFSIGNALED(status):
        return f"killed by {signal.Signals(os.WTERMSIG(status)).name}"
    return f"exit status {os.waitstatus_to_exitcode(status)}"


def add_parser(kinds: Commands) -> None:
    """``reversi bench tui``'s options; ``run`` is its handler."""
    bench_tui = kinds.add_parser(
        "tui", help="start-up time, key latency and bytes per key of the app, through a pty"
    )
    bench_tui.add_argument("--columns", type=int_range(20, 500), default=80, help="default: 80")
    bench_tui.add_argument("--rows", type=int_range(10, 300), default=24, help="default: 24")
    bench_tui.add_argument(
        "--presses", type=int_range(1, 10000), default=40, help="cursor keys to time"
    )
    bench_tui.add_argument(
        "--thinking", action="store_true", help="press the keys while the computer searches"
    )
    bench_tui.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Measure and print the figures; exit status 2 below the game's minimum size and 1
    when nothing could be measured (the app did not start or never answered a key)."""
    from reversi_tui.tui.widgets.too_small import MIN_HEIGHT, MIN_WIDTH  # imports Textual

    if args.columns < MIN_WIDTH or args.rows < MIN_HEIGHT:
        warn(
            f"reversi bench tui: nothing to measure at {args.columns}x{args.rows}: below "
            f"{MIN_WIDTH}x{MIN_HEIGHT} the app only asks for a larger terminal "
            "and does not answer keys"
        )
        return 2
    try:
        r = measure(args.columns, args.rows, args.presses, args.thinking)
    except NothingMeasured as err:
        warn(f"reversi bench tui: nothing measured: {err}")
        return 1
    print(f"terminal {args.columns}x{args.rows}, TERM=xterm-256color, {args.presses} cursor keys")
    if args.thinking:
        print("keys pressed while the computer (expert) searches")
    print(f"first frame settled: {r['startup_s']:.3f} s ({r['first_frame_bytes']:.0f} bytes)")
    print(f"idle output: {r['idle_bytes_per_s']:.0f} bytes in 1 s")
    print(
        f"cursor key: median {r['key_ms_median']:.1f} ms, max {r['key_ms_max']:.1f} ms; "
        f"median {r['key_bytes_median']:.0f} bytes, max {r['key_bytes_max']:.0f} bytes"
    )
    return 0
