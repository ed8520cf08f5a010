"""What the screen runs in worker threads (the hint), and how results come back.

The computer's own moves are searched by its move source (``players.Computer``)
under the match's turn loop. These functions never touch widgets. They poll a
stop check (the screen's ``threading.Event`` for this search, or the worker
being cancelled when the app closes) and hand their result back with
``post_message``, which is thread-safe and never blocks, so a search that ends
as the app closes cannot hang it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.message import Message
from textual.worker import get_current_worker

from reversi_tui.engine import Position

if TYPE_CHECKING:  # the AI package is imported in the worker, off the path to the first frame
    from reversi_tui.engine.ai.result import SearchResult

StopCheck = Callable[[], bool]
#: Searches the hint (the hard level's move) for a position.
Advisor = Callable[[Position, StopCheck], "SearchResult"]
Post = Callable[[Message], bool]


@dataclass
class SearchFinished(Message):
    """A search run for the screen finished; ``token`` says which request it answers."""

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


def search_hint(
    post: Post, advisor: Advisor, position: Position, stop: threading.Event, token: int
) -> None:
    """Search ``position`` with the advisor and post ``SearchFinished`` unless stopped."""
    from reversi_tui.engine.ai.result import SearchCancelled

    should_stop = stop_check(stop)
    try:
        result = advisor(position, should_stop)
    except SearchCancelled:
        return
    if not should_stop():
        post(SearchFinished(token, position, result))
