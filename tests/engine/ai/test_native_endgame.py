"""The C node search (``native/endgame.c``): same answers as Python, stops, bad input."""

from __future__ import annotations

import os
import random
import types
from collections.abc import Iterator

import pytest

from reversi_tui.engine import PASS, Position, parse_position
from reversi_tui.engine.ai import endgame, native_endgame
from reversi_tui.engine.ai.native_endgame import MODULE, NativeSearch
from reversi_tui.engine.ai.result import SearchCancelled
from reversi_tui.engine.ai.stability import stable_discs
from tests.engine.ai.helpers import DATA, StopAfter, endgame_cases

built = pytest.mark.skipif(MODULE is None, reason="the C solver was not built (no C compiler)")


@pytest.mark.skipif(
    os.environ.get("REVERSI_EXPECT_C_SOLVER") != "1", reason="only where the C solver must exist"
)
def test_the_install_built_the_c_solver() -> None:
    # .ci/run sets REVERSI_EXPECT_C_SOLVER: a compiler problem there must not hide
    # behind the Python fallback.
    assert MODULE is not None
    assert endgame.solver_name() == "c"


def test_an_unknown_solver_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown solver"):
        endgame.use_solver("fortran")


def test_the_c_solver_cannot_be_chosen_where_it_was_not_built(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(native_endgame, "MODULE", None)
    with pytest.raises(ValueError, match="not built"):
        endgame.use_solver("c")
    with pytest.raises(RuntimeError, match="not built"):
        NativeSearch(None)


@pytest.fixture
def c_solver() -> Iterator[None]:
    before = endgame.solver_name()
    endgame.use_solver("c")
    yield
    endgame.use_solver(before)


@built
@pytest.mark.parametrize("name", ["endgame_e14.obf", "endgame_e16.obf", "endgame_e18.obf"])
def test_deeper_reference_sets(c_solver: None, name: str) -> None:
    for position, score, move in endgame_cases(name)[:6]:
        solution = endgame.solve_best_moves(position.player, position.opponent)
        assert solution.score == score
        assert move in [f"{'abcdefgh'[sq % 8]}{sq // 8 + 1}" for sq in solution.moves]


@built
def test_ffo_40(c_solver: None) -> None:
    line = (DATA / "ffo40-59.obf").read_text().splitlines()[0]
    position = parse_position(line)
    result = endgame.solve(position.player, position.opponent)
    assert (result.score, result.move) == (38, 8)  # a2


@built
def test_a_stop_check_stops_the_c_search(c_solver: None) -> None:
    position, _, _ = endgame_cases("endgame_e18.obf")[1]
    stop = StopAfter(3)
    with pytest.raises(SearchCancelled):
        endgame.solve(position.player, position.opponent, should_stop=stop)
    assert stop.calls == 3


@built
def test_a_failing_stop_check_raises_and_the_search_stays_usable() -> None:
    position, score, _ = endgame_cases("endgame_e18.obf")[1]
    calls = 0

    def broken() -> bool:
        nonlocal calls
        calls += 1
        if calls == 2:
            raise ZeroDivisionError("stop check")
        return False

    search = NativeSearch(broken)
    n = position.empties
    with pytest.raises(ZeroDivisionError):
        search.node(position.player, position.opponent, -64, 64, n, 0)
    # Not left "running": the same search answers the next call exactly.
    assert search.node(position.player, position.opponent, -64, 64, n, 0) == score


@built
@pytest.mark.parametrize(
    ("args", "error"),
    [
        ((3, 1, -1, 1), ValueError),  # the sides overlap
        ((1, 2, 1, 1), ValueError),  # empty window
        ((1, 2, -200, 1), ValueError),  # window beyond any score
        ((-1, 2, -1, 1), OverflowError),
        ((1 << 64, 2, -1, 1), OverflowError),
        (("x", 2, -1, 1), TypeError),
        ((1, 2, -1), TypeError),
    ],
)
def test_bad_arguments_are_refused(args: tuple[object, ...], error: type[Exception]) -> None:
    assert MODULE is not None
    with pytest.raises(error):
        MODULE.Search().node(*args)  # type: ignore[arg-type]


@built
def test_a_table_size_out_of_range_is_refused() -> None:
    assert MODULE is not None
    with pytest.raises(ValueError, match="table_bits"):
        MODULE.Search(None, 40)


@built
def test_the_table_carries_over_between_calls() -> None:
    position, score, _ = endgame_cases("endgame_e16.obf")[0]
    search = NativeSearch(None)
    args = (position.player, position.opponent, -64, 64, position.empties, 0)
    assert search.node(*args) == score
    first = search.count()
    assert search.node(*args) == score
    assert search.count() - first < first // 10


@built
def test_the_stability_cut_off_saves_nodes_and_keeps_the_score() -> None:
    assert MODULE is not None
    lines = (DATA / "endgame_e12.obf").read_text().splitlines()
    line = max(lines, key=lambda text: int(text.split(":")[1].rstrip(";")))
    position = parse_position(line)
    with_cut, without = MODULE.Search(), MODULE.Search(None, 21, 200)
    score = with_cut.node(position.player, position.opponent, -64, 64)
    assert score == without.node(position.player, position.opponent, -64, 64)
    assert score == int(line.split(":")[1].rstrip(";"))
    assert with_cut.count() < without.count()


@built
def test_c_stable_discs_are_a_subset_of_the_exact_edge_ones_and_never_flip() -> None:
    rng = random.Random(7)
    found = 0
    for _ in range(40):
        pos = Position.initial()
        history: list[Position] = []
        while not pos.is_game_over:
            history.append(pos)
            moves = pos.legal_moves
            pos = pos.play(rng.choice(moves) if moves else PASS)
        for seen in history:
            for me, other, final_me in (
                (seen.black, seen.white, pos.black),
                (seen.white, seen.black, pos.white),
            ):
                stable = native_endgame.stable_discs(me, other)
                assert stable & ~stable_discs(me, other) == 0
                assert stable & ~final_me == 0
                found += stable.bit_count()
    assert found > 1000


def test_a_module_built_from_another_source_is_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    stale = types.SimpleNamespace(ABI=native_endgame.ABI - 1)
    monkeypatch.setattr(native_endgame, "import_module", lambda name: stale)
    assert native_endgame._load() is None
    current = types.SimpleNamespace(ABI=native_endgame.ABI)
    monkeypatch.setattr(native_endgame, "import_module", lambda name: current)
    assert native_endgame._load() is current


def test_a_missing_module_means_the_python_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(name: str) -> object:
        raise ImportError(name)

    monkeypatch.setattr(native_endgame, "import_module", missing)
    assert native_endgame._load() is None
