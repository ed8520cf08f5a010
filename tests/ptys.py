"""Reading a child's pseudo-terminal and reaping it, for the subprocess tests."""

from __future__ import annotations

import os
import select
import signal
import time

from .timing import patience


def read_until(fd: int, wanted: bytes | None, limit: float = 30.0) -> bytes:
    """Output until ``wanted`` appears (or, with None, until the pty closes), within
    ``limit`` seconds (scaled by the time factor)."""
    seen = b""
    deadline = time.monotonic() + patience(limit)
    while time.monotonic() < deadline and (wanted is None or wanted not in seen):
        ready, _, _ = select.select([fd], [], [], 0.2)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # EIO: the child has gone and the pty closed
            break
        if not chunk:
            break
        seen += chunk
    return seen


def reap(pid: int, limit: float = 20.0) -> int | None:
    """The child's exit status, or None (after killing it) if it has not ended within
    ``limit`` seconds (scaled by the time factor)."""
    deadline = time.monotonic() + patience(limit)
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return None
