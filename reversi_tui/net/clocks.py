"""Game clocks as a client shows them: the server's reading, ticking on locally.

The server keeps the clocks (``docs/protocol.md``, "Clocks"): every ``state`` carries
each side's time left at the moment it was sent and whose clock runs. Between two
states the client counts the running side down from its own monotonic time, so the
display ticks without asking the server; the next state corrects it. Pure: the time
is passed in, so tests need no waiting.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from reversi_tui.engine import Color

#: Below this many seconds left a clock is shown as low (and tenths appear under 10 s).
LOW_TIME: Final = 20.0
#: The standard time controls a challenger picks from: (minutes each, increment seconds).
STANDARD: Final = ((3, 2), (5, 3), (10, 5), (15, 10))


def control_text(minutes: int, increment: int) -> str:
    """``5+3``: minutes for each player, plus seconds added after each move."""
    return f"{minutes}+{increment}"


def control_words(minutes: int, increment: int) -> str:
    """``5 minutes each, plus 3 seconds a move``."""
    each = f"{minutes} minute{'s' * (minutes != 1)} each"
    if not increment:
        return each
    return f"{each}, plus {increment} second{'s' * (increment != 1)} a move"


@dataclass(frozen=True, slots=True)
class ClockFace:
    """Both clocks as the server last read them, and when that reading arrived here."""

    black_ms: int
    white_ms: int
    #: The side whose clock runs; None when neither does (the game is over).
    running: Color | None
    #: This client's monotonic time (seconds) when the reading arrived.
    received: float
    minutes: int
    increment: int

    def left(self, colour: Color, now: float) -> float:
        """Seconds left for ``colour`` at ``now`` (never below zero)."""
        ms = self.black_ms if colour is Color.BLACK else self.white_ms
        seconds = ms / 1000
        if self.running is colour:
            seconds -= max(0.0, now - self.received)
        return max(0.0, seconds)

    def low(self, colour: Color, now: float) -> bool:
        """Whether ``colour``'s time is short enough to warn about."""
        return self.left(colour, now) < LOW_TIME

    def text(self, colour: Color, now: float) -> str:
        """``4:59``, ``1:02:00`` for long games, ``0:09.4`` under ten seconds."""
        return clock_text(self.left(colour, now))

    @property
    def control(self) -> str:
        return control_text(self.minutes, self.increment)


def clock_text(seconds: float) -> str:
    """A time left as a clock shows it: whole seconds, tenths under ten seconds."""
    if seconds < 10:
        tenths = int(seconds * 10)  # rounded down: never show time that is not there
        return f"0:0{tenths // 10}.{tenths % 10}"
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"
