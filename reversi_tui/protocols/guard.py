"""Runs an engine for us, and ends it when we end, however we end.

Started by ``process.EngineProcess`` as ``python -I -S guard.py FD CWD ARGV...`` in a
process group of its own: it starts the engine with our pipes as its standard
streams, then waits for either the engine to exit or file descriptor ``FD`` (the
read end of a pipe only we write to) to reach its end. That end comes when we close
the pipe (``close``) and when the kernel closes it because we died, even by
``kill -9``: then the guard terminates the engine's whole group, kills what is left
after ``GRACE`` seconds and reaps the engine, so it leaves neither an orphan nor a
zombie. Run by path with ``-S``, it imports only the standard library: it starts in
a few hundredths of a second.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys

#: Seconds the engine has to exit after SIGTERM before it is killed.
GRACE = 1.0
#: The exit status when the engine cannot be started (as a shell says "not found").
CANNOT_START = 127


def main(argv: list[str]) -> int:
    watch, cwd, command = int(argv[0]), argv[1], argv[2:]
    try:
        engine = subprocess.Popen(command, cwd=cwd or None)
    except OSError as error:
        print(f"cannot start {command[0]}: {error.strerror or error}", file=sys.stderr)
        return CANNOT_START
    _let_go_of_streams()
    signal.signal(signal.SIGTERM, lambda signum, frame: _end(engine))
    if _wait_for_either(engine, watch) is None:
        _end(engine)
    return engine.wait()


def _let_go_of_streams() -> None:
    """The engine holds our pipes now: the guard keeping them open would hide its exit."""
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.close(null)


def _wait_for_either(engine: subprocess.Popen[bytes], watch: int) -> int | None:
    """The engine's exit status, or None when the watched pipe ended first."""
    pidfd = os.pidfd_open(engine.pid) if hasattr(os, "pidfd_open") else None
    while True:
        ready, _, _ = select.select([watch] + ([] if pidfd is None else [pidfd]), [], [], 0.2)
        if watch in ready and not os.read(watch, 512):
            return None
        status = engine.poll()
        if status is not None:
            return status


def _end(engine: subprocess.Popen[bytes]) -> None:
    """Terminate the engine's group (the guard stays), kill the engine if it lingers,
    reap it, then kill whatever it left in the group and the guard with it."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    os.killpg(0, signal.SIGTERM)
    try:
        engine.wait(GRACE)
    except subprocess.TimeoutExpired:
        engine.kill()
        engine.wait()
    os.killpg(0, signal.SIGKILL)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
