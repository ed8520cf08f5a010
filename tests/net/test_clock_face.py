"""The clocks as the client shows them: counted down locally from the server's reading."""

from __future__ import annotations

import pytest

from reversi_tui.engine import Color
from reversi_tui.net.clocks import ClockFace, clock_text, control_words


def face(
    black_ms: int = 300_000, white_ms: int = 300_000, running: Color | None = Color.BLACK
) -> ClockFace:
    return ClockFace(black_ms, white_ms, running, received=100.0, minutes=5, increment=3)


def test_only_the_running_clock_counts_down() -> None:
    clocks = face()
    assert clocks.left(Color.BLACK, 112.5) == pytest.approx(287.5)
    assert clocks.left(Color.WHITE, 112.5) == pytest.approx(300.0)


def test_a_clock_never_shows_less_than_zero() -> None:
    clocks = face(black_ms=1_000)
    assert clocks.left(Color.BLACK, 200.0) == 0.0
    assert clocks.text(Color.BLACK, 200.0) == "0:00.0"


def test_a_stopped_game_does_not_tick() -> None:
    clocks = face(running=None)
    assert clocks.left(Color.BLACK, 1000.0) == 300.0


def test_low_time_under_twenty_seconds() -> None:
    clocks = face(black_ms=25_000)
    assert not clocks.low(Color.BLACK, 104.0)
    assert clocks.low(Color.BLACK, 106.0)


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [
        (300.0, "5:00"),
        (59.99, "0:59"),
        (10.0, "0:10"),
        (9.96, "0:09.9"),
        (0.04, "0:00.0"),
        (3725.0, "1:02:05"),
    ],
)
def test_clock_text(seconds: float, shown: str) -> None:
    assert clock_text(seconds) == shown


def test_control_words() -> None:
    assert control_words(5, 3) == "5 minutes each, plus 3 seconds a move"
    assert control_words(1, 0) == "1 minute each"
    assert face().control == "5+3"
