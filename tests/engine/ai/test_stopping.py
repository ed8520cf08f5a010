"""Cooperative cancellation and the clock: a search stops when told, and on time."""

from __future__ import annotations

import threading
import time

import pytest

from reversi_tui.engine import parse_position
from reversi_tui.engine.ai import SearchCancelled, choose_move
from reversi_tui.engine.ai.search import CHECK_EVERY

# A midgame position with plenty of moves: deep searches here take minutes.
MIDGAME = parse_position("--XXXX----XXXO--OOXXOXOO-OOXXXOO--OXXOXO--XOXXOO--X-OO-----OO--- X")


def test_stop_callable_ends_the_search_within_a_check_interval() -> None:
    calls = 0

    def stop_after_three() -> bool:
        nonlocal calls
        calls += 1
        return calls > 3

    with pytest.raises(SearchCancelled):
        choose_move(MIDGAME, "expert", depth=30, should_stop=stop_after_three)
    assert calls == 4  # it stopped at the first poll that said so


def test_event_set_from_another_thread_stops_a_deep_search() -> None:
    stop = threading.Event()
    polled = threading.Event()
    outcome: list[object] = []

    def should_stop() -> bool:
        polled.set()
        return stop.is_set()

    def worker() -> None:
        try:
            outcome.append(choose_move(MIDGAME, "expert", depth=30, should_stop=should_stop))
        except SearchCancelled as error:
            outcome.append(error)

    thread = threading.Thread(target=worker)
    thread.start()
    assert polled.wait(10), "the search never polled its stop check"
    stop.set()
    t0 = time.perf_counter()
    thread.join(5)
    assert not thread.is_alive()
    assert time.perf_counter() - t0 < 1.0
    assert isinstance(outcome[0], SearchCancelled)


def test_polls_often() -> None:
    polls = 0

    def count() -> bool:
        nonlocal polls
        polls += 1
        return False

    result = choose_move(MIDGAME, "hard", depth=6, should_stop=count)
    assert polls >= result.nodes // CHECK_EVERY >= 1


@pytest.mark.parametrize("think_time", [0.1, 0.3])
def test_think_time_is_respected(think_time: float) -> None:
    t0 = time.perf_counter()
    result = choose_move(MIDGAME, "expert", think_time=think_time)
    elapsed = time.perf_counter() - t0
    assert MIDGAME.is_legal(result.move)
    assert result.depth >= 2
    # A little slack for the last check interval and a loaded machine.
    assert elapsed < think_time * 1.25 + 0.05
