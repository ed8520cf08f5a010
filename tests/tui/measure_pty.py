"""Measure the app as a user's terminal sees it: startup, key latency, bytes per key.

Run: ``python tests/tui/measure_pty.py [--thinking]`` (not a test: it takes a few seconds and
prints numbers). It starts ``reversi`` on a pseudo-terminal at 80x24 with
TERM=xterm-256color, waits for the first frame to settle, then presses cursor keys
and records how long each takes to be answered and how many bytes it writes.
"""

from __future__ import annotations

import fcntl
import os
import pty
import select
import statistics
import struct
import sys
import termios
import time

SETTLE = 0.15  # seconds of silence that count as "the screen has settled"


def read_until_quiet(fd: int, quiet: float = SETTLE, limit: float = 10.0) -> tuple[bytes, float]:
    """Everything written until ``quiet`` seconds pass in silence, and when the last byte came."""
    data = b""
    start = time.perf_counter()
    last = start
    while time.perf_counter() - start < limit:
        ready, _, _ = select.select([fd], [], [], quiet)
        if not ready:
            if data:
                break
            continue
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        data += chunk
        last = time.perf_counter()
    return data, last


def main() -> int:
    """``--thinking``: measure the keys while the computer searches (expert, 30 s budget)."""
    thinking = "--thinking" in sys.argv
    white = ["expert", "--think-time", "30"] if thinking else ["human"]
    cmd = [sys.executable, "-m", "reversi_tui", "--white", *white]
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="80", LINES="24")
    env.pop("NO_COLOR", None)
    pid, fd = pty.fork()
    if pid == 0:
        os.execvpe(cmd[0], cmd, env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    t0 = time.perf_counter()
    select.select([fd], [], [], 10.0)
    first_byte = time.perf_counter()
    first, last = read_until_quiet(fd, quiet=0.5)
    print(
        f"first byte after {first_byte - t0:.3f} s; first frame settled after "
        f"{last - t0:.3f} s ({len(first)} bytes)"
    )
    time.sleep(0.5)
    idle, _ = read_until_quiet(fd, quiet=1.0, limit=1.0)
    print(f"idle for 1 s: {len(idle)} bytes written")
    if thinking:
        os.write(fd, b"\r")  # play d3; the computer starts thinking
        read_until_quiet(fd, quiet=0.3, limit=2.0)
    latencies, sizes = [], []
    keys = [b"\x1b[C", b"\x1b[B", b"\x1b[D", b"\x1b[A"] * 15
    for key in keys:
        sent = time.perf_counter()
        os.write(fd, key)
        ready, _, _ = select.select([fd], [], [], 2.0)
        answered = time.perf_counter()
        data, _ = read_until_quiet(fd, quiet=0.05, limit=1.0) if ready else (b"", 0)
        latencies.append((answered - sent) * 1000)
        sizes.append(len(data))
    print(
        f"cursor key: median {statistics.median(latencies):.1f} ms "
        f"(max {max(latencies):.1f}), median {statistics.median(sizes):.0f} bytes "
        f"(max {max(sizes)}) over {len(keys)} keys"
    )
    os.write(fd, b"\x11")  # ctrl+q
    read_until_quiet(fd, quiet=0.3, limit=3.0)
    os.waitpid(pid, 0)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
