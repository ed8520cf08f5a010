"""Signals that end the app: the terminal is restored, as when the player quits.

Textual 8.2.8's ``LinuxDriver`` handles SIGTSTP and SIGCONT (suspend and resume)
but not SIGTERM or SIGHUP, whose default action kills the process in application
mode: the terminal stays in the alternate screen, with mouse reporting on and the
cursor hidden. SIGINT (``kill -INT``; the Ctrl+C key is a key in raw mode) reaches
asyncio's own handler, which cancels the app's task and exits 0. Here each of the
three asks the app to exit instead, so the driver's ``stop_application_mode``
restores the terminal, and the exit status is the conventional 128 + the signal
number (143, 129, 130). Before that, ``before_exit`` runs: the game is saved and
released for resuming, first, in case the terminal is gone.

A hung-up terminal (the SSH connection dropped) may refuse the restoring writes
and leave Textual's writer thread dead with its queue full; a watchdog then ends
the process a few seconds after the signal, with the same status.

The handlers are Python's own (``signal.signal``), not asyncio's: asyncio learns of a
signal from a byte its C handler writes to the loop's self-pipe, and when a flood of
input has filled that pipe (each ``call_soon_threadsafe`` writes one) the byte is lost
and the signal with it: SIGTERM during a megabyte of input was never acted on. Python's
handler runs in the main thread at once, starts the watchdog, and hands the exit to the
loop with ``call_soon_threadsafe``, whose callback is queued even when the pipe is full.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import threading
import weakref
from collections.abc import Callable
from types import FrameType
from typing import Any

from textual.app import App

#: The signals that end the app cleanly.
EXIT_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
#: Seconds the app has to exit after a signal before the process ends regardless.
GRACE_SECONDS = 5.0

Handler = Callable[[int, FrameType | None], Any] | int | None

#: The handlers each app's replaced, to be put back.
_installed: weakref.WeakKeyDictionary[App[Any], dict[int, Handler]] = weakref.WeakKeyDictionary()


def exit_status(signum: int) -> int:
    """The shell's status for a process ended by ``signum``: 128 + its number."""
    return 128 + signum


def install_exit_signals(app: App[Any], before_exit: Callable[[], None] | None = None) -> None:
    """Make SIGTERM, SIGHUP and SIGINT exit ``app`` until ``remove_exit_signals(app)``.

    Call from inside the app's running event loop (``on_load`` is the earliest, before
    the driver changes the terminal), in the main thread. A second signal while the
    app is closing is ignored; the watchdog has the last word.
    """
    loop = asyncio.get_running_loop()
    received: list[int] = []

    def exit_app(status: int) -> None:
        """In the loop: save the game, then exit as quitting does."""
        if before_exit is not None:
            before_exit()
        app.exit(return_code=status)

    def on_signal(signum: int, _frame: FrameType | None) -> None:
        """In the main thread, between two bytecodes of whatever it was doing."""
        if received:
            return
        received.append(signum)
        status = exit_status(signum)
        watchdog = threading.Timer(GRACE_SECONDS, os._exit, (status,))
        watchdog.daemon = True
        watchdog.start()
        with contextlib.suppress(RuntimeError):  # the loop has closed: the watchdog ends it
            loop.call_soon_threadsafe(exit_app, status)

    _installed[app] = {signum: signal.signal(signum, on_signal) for signum in EXIT_SIGNALS}


def remove_exit_signals(app: App[Any]) -> None:
    """Give the signals back the handlers they had before, if installed."""
    previous = _installed.pop(app, None)
    if previous is not None:
        for signum, handler in previous.items():
            signal.signal(signum, signal.SIG_DFL if handler is None else handler)
