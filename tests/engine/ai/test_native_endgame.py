"""The C node search (``native/endgame.c``): same answers as Python, stops, bad input,
memory, and the check that the compiled module matches the shipped source."""

from __future__ import annotations

import contextlib
import gc
import hashlib
import io
import os
import random
import subprocess
import sys
import types
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest

from reversi_tui import cli
from reversi_tui.engine import PASS, Position, parse_position
from reversi_tui.engine.ai import endgame, native_endgame
from reversi_tui.engine.ai.native_endgame import MODULE, NativeSearch
from reversi_tui.engine.ai.result import SearchCancelled
from reversi_tui.engine.ai.stability import stable_discs
from tests.engine.ai.helpers import DATA, StopAfter, endgame_cases
from tests.engine.ai.many_moves import MANY_MOVES

#: The directory holding ``tests``: another interpreter imports them from there.
ROOT = Path(__file__).parents[3]

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
    monkeypatch.setattr(native_endgame, "UNAVAILABLE", "the C module was not built")
    with pytest.raises(ValueError, match=r"^the C module was not built$"):
        endgame.use_solver("c")
    with pytest.raises(RuntimeError, match=r"^the C module was not built$"):
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
        ((1, 2, -1, 1 << 70), ValueError),  # beyond a C long, too
        ((-1, 2, -1, 1), OverflowError),
        ((1 << 64, 2, -1, 1), OverflowError),
        ((1, 1 << 64, -1, 1), OverflowError),
        (("x", 2, -1, 1), TypeError),
        ((1, 2, -1.0, 1), TypeError),
        ((1, 2, -1), TypeError),
    ],
)
def test_bad_arguments_are_refused(args: tuple[object, ...], error: type[Exception]) -> None:
    assert MODULE is not None
    with pytest.raises(error):
        MODULE.Search(None, 4).node(*args)  # type: ignore[arg-type]


@built
@pytest.mark.parametrize(
    ("args", "error", "message"),
    [
        ((None, 40), ValueError, "table_bits must be between 4 and 30"),
        ((None, 3), ValueError, "table_bits"),
        ((None, 1 << 40), OverflowError, "greater than maximum"),
        ((None, 21, 1 << 20), ValueError, "stability_margin must be between"),
        ((None, 21, -1000), ValueError, "stability_margin"),
        ((42,), TypeError, "should_stop must be a callable"),
    ],
)
def test_bad_search_settings_are_refused(
    args: tuple[object, ...], error: type[Exception], message: str
) -> None:
    assert MODULE is not None
    with pytest.raises(error, match=message):
        MODULE.Search(*args)  # type: ignore[arg-type]


@built
@pytest.mark.parametrize(
    ("args", "error", "message"),
    [
        ((3, 1), ValueError, "overlap"),
        ((-1, 0), OverflowError, r"me must be a 64-bit board mask: 0 <= me < 2\*\*64"),
        ((0, 1 << 64), OverflowError, r"other must be a 64-bit board mask"),
    ],
)
def test_bad_boards_for_stable_discs_are_refused(
    args: tuple[int, int], error: type[Exception], message: str
) -> None:
    assert MODULE is not None
    with pytest.raises(error, match=message):
        MODULE.stable_discs(*args)


def _python(code: str) -> subprocess.CompletedProcess[str]:
    """``code`` run by another interpreter: a crash there fails a test instead of the run."""
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@built
def test_a_search_whose_init_never_ran_refuses_to_search() -> None:
    # It crashed the interpreter (a NULL table) before the check.
    done = _python(
        "from reversi_tui.engine.ai.native_endgame import MODULE\n"
        "search = MODULE.Search.__new__(MODULE.Search)\n"
        "try:\n"
        "    search.node(1, 2, -1, 1)\n"
        "except RuntimeError as err:\n"
        "    print(err)\n"
        "print(search.count())\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "this Search was not initialised: create it by calling Search(...)",
        "0",
    ]


@built
def test_a_position_with_more_moves_than_a_game_ever_has_is_searched() -> None:
    # 35 moves overflowed the deep node's 34-slot child list (AddressSanitizer shows
    # the write; .ci/sanitize runs this file under it).
    done = _python(
        "from tests.engine.ai.many_moves import MANY_MOVES\n"
        "from reversi_tui.engine.ai.native_endgame import MODULE\n"
        "from reversi_tui.engine.bitboard import legal_moves\n"
        "for p, o in MANY_MOVES:\n"
        "    print(legal_moves(p, o).bit_count(), MODULE.Search(None, 16).node(p, o, -65, -64))\n"
    )
    assert done.returncode == 0, done.stderr
    for line in done.stdout.splitlines():
        moves, score = map(int, line.split())
        assert moves >= 35
        assert score >= -64  # fails high: every score is at least -64
    assert len(done.stdout.splitlines()) == len(MANY_MOVES)


class _Owner:
    """An object whose search's stop check is its own method: a reference cycle."""

    def __init__(self) -> None:
        assert MODULE is not None
        self.search = MODULE.Search(self.should_stop)

    def should_stop(self) -> bool:
        return False


@built
def test_a_search_in_a_reference_cycle_is_collected() -> None:
    # Without GC support the cycle kept the owner, and the 48 MiB table, for ever.
    owner = _Owner()
    gone = weakref.ref(owner)
    del owner
    gc.collect()
    assert gone() is None


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
    stale = types.SimpleNamespace(SOURCE_SHA256=hashlib.sha256(b"older").hexdigest())
    monkeypatch.setattr(native_endgame, "import_module", lambda name: stale)
    module, why = native_endgame._load()
    assert module is None
    assert "stale" in why
    current = types.SimpleNamespace(SOURCE_SHA256=native_endgame.source_sha256())
    monkeypatch.setattr(native_endgame, "import_module", lambda name: current)
    assert native_endgame._load() == (current, "")


@built
def test_the_built_module_carries_the_hash_of_its_source(monkeypatch: pytest.MonkeyPatch) -> None:
    assert MODULE is not None
    source = Path(native_endgame.__file__).parent.joinpath(*native_endgame.SOURCE)
    assert hashlib.sha256(source.read_bytes()).hexdigest() == MODULE.SOURCE_SHA256
    # Another source beside it (as after an edit without a rebuild): the module is ignored.
    monkeypatch.setattr(native_endgame, "SOURCE", ("native_endgame.py",))
    module, why = native_endgame._load()
    assert module is None
    assert "stale" in why


def test_a_missing_source_means_the_python_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(native_endgame, "SOURCE", ("native", "no such file.c"))
    assert native_endgame.source_sha256() is None
    module, why = native_endgame._load()
    assert module is None
    assert "source is missing" in why


def test_a_missing_module_means_the_python_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(name: str) -> object:
        raise ModuleNotFoundError(name)

    monkeypatch.setattr(native_endgame, "import_module", missing)
    assert native_endgame._load() == (
        None,
        "the C module was not built: reinstall with a C compiler such as gcc",
    )


def test_a_module_that_does_not_load_means_the_python_solver(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(name: str) -> object:
        raise ImportError("undefined symbol: PyFoo")

    monkeypatch.setattr(native_endgame, "import_module", broken)
    module, why = native_endgame._load()
    assert module is None
    assert "does not load (undefined symbol: PyFoo)" in why


def _version() -> list[str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as exited:
        cli.main(["--version"])
    assert exited.value.code == 0
    return out.getvalue().splitlines()


def test_the_version_names_the_solver_in_use() -> None:
    lines = _version()
    assert lines[0].startswith("reversi ")
    if MODULE is None:
        assert lines[1] == f"endgame solver: Python ({native_endgame.UNAVAILABLE})"
    else:
        assert lines[1] == "endgame solver: C"


def test_the_version_says_why_the_python_solver_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(native_endgame, "MODULE", None)
    monkeypatch.setattr(native_endgame, "UNAVAILABLE", "the C module is stale")
    assert _version()[1] == "endgame solver: Python (the C module is stale)"
