"""Signals end the app even when a flood of input fills the event loop.

asyncio's handlers learn of a signal through a byte on the loop's self-pipe, which a
flood of ``call_soon_threadsafe`` (one per key from the input thread) had filled.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import threading
import time
from typing import Any

import pytest
from textual.app import App

from reversi_tui.tui.signals import install_exit_signals, remove_exit_signals

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a pty and POSIX signals")


# Signals: acted on even when the event loop is flooded.


async def test_a_signal_is_acted_on_when_the_loops_wakeup_channel_is_full(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """asyncio's signal handlers learn of a signal through a byte on the loop's self-pipe;
    a flood of ``call_soon_threadsafe`` (one per key from the input thread) fills it, the
    byte is lost, and SIGTERM was never acted on."""
    watchdogs: list[tuple[float, Any]] = []

    class Watchdog:
        daemon = False

        def __init__(self, interval: float, function: Any, args: Any) -> None:
            watchdogs.append((interval, args))

        def start(self) -> None:
            pass  # never ends this process

    monkeypatch.setattr(threading, "Timer", Watchdog)
    codes: list[int] = []
    saved: list[bool] = []

    class Recorder(App[int]):
        def exit(
            self, result: int | None = None, return_code: int = 0, message: Any = None
        ) -> None:
            codes.append(return_code)

    app = Recorder()
    install_exit_signals(app, before_exit=lambda: saved.append(True))
    try:
        loop = asyncio.get_running_loop()
        for _ in range(50_000):  # the input thread's flood, which the loop has not read yet
            loop.call_soon_threadsafe(lambda: None)
        os.kill(os.getpid(), signal.SIGTERM)
        deadline = time.monotonic() + 10.0
        while not codes and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
    finally:
        remove_exit_signals(app)
    assert codes == [143]
    assert saved == [True]
    assert [args for _, args in watchdogs] == [(143,)]
