"""An external engine as a child process we talk to line by line (asyncio).

The engine is started from an argument vector, never through a shell, behind
``guard.py`` in a process group of its own: closing the guard's pipe (``close``,
``abandon``) or our death, even by ``kill -9``, ends the engine and its children.
Its output is read a line at a time with a cap on each line and on each answer, so
an engine that floods its output fails instead of filling our memory; its standard
error is drained (its last lines explain a failure) so it can never block on it.
Every way an engine goes wrong is an ``EngineFailure`` with one line saying how.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import sys
from collections import deque
from collections.abc import Sequence
from pathlib import Path
from typing import Final

#: The longest line an engine may write.
MAX_LINE: Final = 64 * 1024
#: The most bytes an engine may write in answer to one command.
MAX_ANSWER: Final = 1024 * 1024
#: Seconds an engine has to exit after ``quit`` before it is ended.
QUIT_WAIT: Final = 1.0
#: Seconds the guard has to end the engine (its ``GRACE`` and some) before the group is killed.
END_WAIT: Final = 3.0
#: The guard's exit status when the engine could not be started.
CANNOT_START: Final = 127
_GUARD: Final = Path(__file__).with_name("guard.py")
#: Engines being ended in the background (asyncio keeps only weak references to tasks).
_ending: set[asyncio.Task[None]] = set()


class EngineFailure(Exception):
    """The engine cannot go on: ``str()`` says why in one line, without the engine's name."""


class EngineProcess:
    """One run of an engine: ``start``, then ``send`` and ``readline``, then ``close``."""

    def __init__(self, argv: Sequence[str], *, cwd: str | None = None) -> None:
        if not argv:
            raise ValueError("an engine needs a command")
        self.argv = tuple(argv)
        self.cwd = cwd
        self._process: asyncio.subprocess.Process | None = None
        self._watch: int | None = None  # our end of the guard's pipe
        self._stderr: deque[str] = deque(maxlen=3)
        self._drain: asyncio.Task[None] | None = None
        self._answered = 0  # bytes read since the last command

    @property
    def pid(self) -> int | None:
        """The guard's process id, which is also the engine's process group."""
        return None if self._process is None else self._process.pid

    async def start(self) -> None:
        """Start the engine; EngineFailure when its program cannot be found."""
        if self.cwd is not None and not os.path.isdir(self.cwd):
            raise EngineFailure(f"cannot start: its directory {self.cwd} does not exist")
        found = _find(self.argv[0], self.cwd)
        watch_read, self._watch = os.pipe()
        try:
            self._process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-I",
                "-S",
                str(_GUARD),
                str(watch_read),
                self.cwd or "",
                found,
                *self.argv[1:],
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                pass_fds=(watch_read,),
                start_new_session=True,
                limit=MAX_LINE,
            )
        except OSError as error:
            self._let_go()
            raise EngineFailure(f"cannot start: {error.strerror or error}") from None
        finally:
            os.close(watch_read)
        self._drain = asyncio.ensure_future(self._drain_stderr())

    async def send(self, line: str) -> None:
        """Write one line (a command) and start counting its answer."""
        process = self._running()
        assert process.stdin is not None
        self._answered = 0
        try:
            process.stdin.write(line.encode() + b"\n")
            await process.stdin.drain()
        except (BrokenPipeError, ConnectionResetError):
            raise await self._exited() from None

    async def readline(self) -> str:
        """The next line, without its end; EngineFailure when the engine exited or floods."""
        process = self._running()
        assert process.stdout is not None
        try:
            raw = await process.stdout.readline()
        except ValueError:  # asyncio's LimitOverrunError, re-raised by readline
            raise EngineFailure(f"floods its output (a line over {MAX_LINE} bytes)") from None
        if not raw:
            raise await self._exited()
        self._answered += len(raw)
        if self._answered > MAX_ANSWER:
            raise EngineFailure(f"floods its output (over {MAX_ANSWER} bytes for one command)")
        return raw.decode(errors="replace").rstrip("\r\n")

    async def finish(self, farewell: str) -> None:
        """Say ``farewell`` (the protocol's ``quit``) if the engine still listens, then close."""
        with contextlib.suppress(EngineFailure):
            await self.send(farewell)
        await self.close()

    async def close(self, *, quit_wait: float = QUIT_WAIT) -> None:
        """End the engine: ``quit_wait`` seconds to exit on its own (after its protocol's
        ``quit``), then the guard ends its group; reaped either way. Safe to repeat."""
        process = self._process
        if process is None:
            return
        if process.stdin is not None and not process.stdin.is_closing():
            process.stdin.close()
        if not await _exits_within(process, quit_wait):
            self._let_go()
            if not await _exits_within(process, END_WAIT):
                _kill_group(process.pid)
                await process.wait()
        self._let_go()
        _kill_group(process.pid)  # anything the engine left behind in its group
        await self._drained()
        if process.stdout is not None:  # to its end, so asyncio lets go of the pipe
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.stdout.read(), QUIT_WAIT)

    def abandon(self) -> None:
        """End the engine now, without waiting (a cancelled request: its answer is unwanted);
        the guard ends it and a background task reaps the guard."""
        if self._process is None:
            return
        self._let_go()
        task = asyncio.ensure_future(self.close(quit_wait=0))
        _ending.add(task)
        task.add_done_callback(_ending.discard)

    def _running(self) -> asyncio.subprocess.Process:
        if self._process is None:
            raise EngineFailure("was not started")
        return self._process

    def _let_go(self) -> None:
        """Close our end of the guard's pipe: the guard ends the engine."""
        if self._watch is not None:
            os.close(self._watch)
            self._watch = None

    async def _exited(self) -> EngineFailure:
        """Why the engine stopped talking: its exit status and last words on stderr."""
        process = self._running()
        try:
            status = await asyncio.wait_for(process.wait(), QUIT_WAIT)
        except TimeoutError:
            return EngineFailure("closed its output")
        await self._drained()
        said = f": {self._stderr[-1]}" if self._stderr else ""
        if status == CANNOT_START and said:
            return EngineFailure(said.removeprefix(": "))
        how = f"exit status {status}" if status >= 0 else f"signal {-status}"
        return EngineFailure(f"exited ({how}){said}")

    async def _drained(self) -> None:
        """Let standard error's last lines in (a child the engine left may hold it open)."""
        if self._drain is not None:
            try:
                await asyncio.wait_for(asyncio.shield(self._drain), QUIT_WAIT)
            except TimeoutError:
                self._drain.cancel()

    async def _drain_stderr(self) -> None:
        """Keep the last few lines of the engine's standard error, bounded in size."""
        stream = self._running().stderr
        assert stream is not None
        pending = b""
        while chunk := await stream.read(4096):
            lines = (pending + chunk).split(b"\n")
            pending = lines.pop()[-MAX_LINE:]
            for line in lines:
                text = line.decode(errors="replace").strip()
                if text:
                    self._stderr.append(text[:200])
        if pending.strip():
            self._stderr.append(pending.decode(errors="replace").strip()[:200])


def _find(program: str, cwd: str | None) -> str:
    """The program's path: ``program`` looked up on PATH, or a path (``./engine``, from
    the engine's directory); EngineFailure when there is no such program."""
    if os.sep not in program:
        found = shutil.which(program)
        if found is None:
            raise EngineFailure(f"cannot start: {program} is not a program on PATH")
        return found
    path = os.path.abspath(os.path.join(cwd or "", program))
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        raise EngineFailure(f"cannot start: {path} is not an executable file")
    return path


async def _exits_within(process: asyncio.subprocess.Process, seconds: float) -> bool:
    try:
        await asyncio.wait_for(process.wait(), seconds)
    except TimeoutError:
        return False
    return True


def _kill_group(group: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(group, signal.SIGKILL)


async def wait_for_ended() -> None:
    """Wait until the engines abandoned so far are reaped (tests, a clean exit)."""
    while _ending:
        await asyncio.gather(*list(_ending), return_exceptions=True)
