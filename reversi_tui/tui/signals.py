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
"""

from __future__ import annotations

import asyncio
import os
import signal
import threading
import weakref
from collections.abc import Callable
from typing import Any

from textual.app import App

#: The signals that end the app cleanly.
EXIT_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
#: Seconds the app has to exit after a signal before the process ends regardless.
GRACE_SECONDS = 5.0

#: The loop each app's handlers were added to.
_installed: weakref.WeakKeyDictionary[App[Any], asyncio.AbstractEventLoop] = (
    weakref.WeakKeyDictionary()
)


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

    def on_signal(signum: int) -> None:
        if received:
            return
        received.append(signum)
        status = exit_status(signum)
        watchdog = threading.Timer(GRACE_SECONDS, os._exit, (status,))
        watchdog.daemon = True
        watchdog.start()
        if before_exit is not None:
            before_exit()
        app.exit(return_code=status)

    for signum in EXIT_SIGNALS:
        loop.add_signal_handler(signum, on_signal, signum)
    _installed[app] = loop


def remove_exit_signals(app: App[Any]) -> None:
    """Give the signals back their usual handlers (asyncio restores them), if installed."""
    loop = _installed.pop(app, None)
    if loop is not None and not loop.is_closed():
        for signum in EXIT_SIGNALS:
            loop.remove_signal_handler(signum)
