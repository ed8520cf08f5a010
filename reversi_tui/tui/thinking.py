"""What runs in worker threads: the computer's search and the hint, and how results come back.

These functions never touch widgets. They poll a stop check (the app's
``threading.Event`` for this search, or the worker being cancelled when the app
closes) and hand their result back with ``post_message``, which is thread-safe
and never blocks, so a search that ends as the app closes cannot hang it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from textual.message import Message
from textual.worker import get_current_worker

from reversi_tui.engine import Position

if TYPE_CHECKING:  # the AI package is imported in the worker, off the path to the first frame
    from reversi_tui.engine.ai.result import SearchResult

StopCheck = Callable[[], bool]
#: Searches the hint (the hard level's move) for a position.
Advisor = Callable[[Position, StopCheck], "SearchResult"]
Post = Callable[[Message], bool]


class Searcher(Protocol):
    """A computer player, as far as the worker is concerned."""

    def search(self, position: Position, should_stop: StopCheck | None = None) -> SearchResult: ...


@dataclass
class ComputerMoved(Message):
    """The computer's search finished; ``token`` says which request it answers."""

    token: int
    position: Position
    result: SearchResult


@dataclass
class HintFound(Message):
    """The hint search finished; ``token`` says which request it answers."""

    token: int
    position: Position
    result: SearchResult


def default_advisor(position: Position, should_stop: StopCheck) -> SearchResult:
    from reversi_tui.engine.ai import hint

    return hint(position, should_stop=should_stop)


def stop_check(stop: threading.Event) -> StopCheck:
    """Stop when the app cancels this search, or when the worker is cancelled (app exit).

    Must be called in the worker thread.
    """
    worker = get_current_worker()

    def should_stop() -> bool:
        return stop.is_set() or worker.is_cancelled

    return should_stop


def search_move(
    post: Post,
    position: Position,
    player: Searcher,
    stop: threading.Event,
    token: int,
    delay: float,
) -> None:
    """Wait ``delay`` seconds (the computer-vs-computer pace), search, post the move."""
    from reversi_tui.engine.ai.result import SearchCancelled

    should_stop = stop_check(stop)
    deadline = time.monotonic() + delay
    while time.monotonic() < deadline:
        if should_stop() or stop.wait(min(0.05, max(0.0, deadline - time.monotonic()))):
            return
    try:
        result = player.search(position, should_stop)
    except SearchCancelled:
        return
    if not should_stop():
        post(ComputerMoved(token, position, result))


def search_hint(
    post: Post, advisor: Advisor, position: Position, stop: threading.Event, token: int
) -> None:
    from reversi_tui.engine.ai.result import SearchCancelled

    should_stop = stop_check(stop)
    try:
        result = advisor(position, should_stop)
    except SearchCancelled:
        return
    if not should_stop():
        post(HintFound(token, position, result))
