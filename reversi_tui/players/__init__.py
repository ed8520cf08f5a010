"""The kinds of player, each a ``MoveSource`` (see ``match/sources.py``).

A person at this terminal (``local``) answers a request by a key or a click; the
computer (``computer``) by a search in a worker thread; an external engine speaking
GTP or NBoard (``engine``) by its own process, started only from the user's own
command line or settings. ``kinds`` says which source plays each kind of player. An
online player is in ``net/remote.py``.
"""

from reversi_tui.match.engine_config import can_play
from reversi_tui.players.computer import Computer, run_search
from reversi_tui.players.kinds import (
    SOURCES,
    UnplayableError,
    make_source,
    playable,
    source_factory,
)
from reversi_tui.players.local import LocalHuman

__all__ = [
    "SOURCES",
    "Computer",
    "LocalHuman",
    "UnplayableError",
    "can_play",
    "make_source",
    "playable",
    "run_search",
    "source_factory",
]
