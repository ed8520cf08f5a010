"""The match core: settings, records and the session that runs a game. No user interface.

Front ends (the Textual app, the line mode, the arena) build a ``Match`` from
``MatchSettings`` and a source factory, subscribe to its events and await
``Match.run()``, the one turn loop.
"""

from reversi_tui.match.record import GameRecord, RecordError, Result, Termination
from reversi_tui.match.session import (
    Change,
    Changed,
    GameOver,
    Match,
    MatchEvent,
    MatchState,
    Passed,
    PlayerFailed,
    StateChanged,
    play_out,
    why_illegal,
)
from reversi_tui.match.settings import (
    LEVEL_NAMES,
    PLAYER_CHOICES,
    MatchSettings,
    PlayerKind,
    PlayerSpec,
)

__all__ = [
    "LEVEL_NAMES",
    "PLAYER_CHOICES",
    "Change",
    "Changed",
    "GameOver",
    "GameRecord",
    "Match",
    "MatchEvent",
    "MatchSettings",
    "MatchState",
    "Passed",
    "PlayerFailed",
    "PlayerKind",
    "PlayerSpec",
    "RecordError",
    "Result",
    "StateChanged",
    "Termination",
    "play_out",
    "why_illegal",
]
