"""The Python node search's own machinery: its stop-check interval and its table."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from reversi_tui.engine.ai import endgame
from reversi_tui.engine.ai.endgame import solve
from reversi_tui.engine.ai.result import SearchCancelled
from tests.engine.ai.helpers import StopAfter, endgame_cases


@pytest.fixture(autouse=True)
def python_solver() -> Iterator[None]:
    before = endgame.solver_name()
    endgame.use_solver("python")
    yield
    endgame.use_solver(before)


def test_cancellation_stops_promptly() -> None:
    position, _, _ = endgame_cases("endgame_e12.obf")[11]
    full = solve(position.player, position.opponent)
    assert full.nodes > 4 * endgame.POLL_INTERVAL
    stop = StopAfter(3)
    with pytest.raises(SearchCancelled):
        solve(position.player, position.opponent, should_stop=stop)
    # It stopped at the first true answer, not later.
    assert stop.calls == 3


def test_a_full_table_keeps_only_the_positions_with_many_empties() -> None:
    deep_key = (0xFF, 0xFF00)  # 48 empties
    shallow_key = ((1 << 60) - 1, 0)  # 4 empties
    table = {deep_key: (0, 2, 1), shallow_key: (-4, -4, 2)}
    endgame._prune(table)
    assert table == {deep_key: (0, 2, 1)}


def test_a_small_table_limit_still_gives_exact_scores(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(endgame, "TT_MAX", 200)
    monkeypatch.setattr(endgame, "TT_KEEP_EMPTIES", 9)
    for position, score, _ in endgame_cases("endgame_e12.obf")[:3]:
        assert solve(position.player, position.opponent).score == score
