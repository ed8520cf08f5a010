"""External engines as players (issue 19): "Failure is a result, not a crash: an engine
that cannot start, exits, hangs past a deadline, answers an illegal or malformed move,
or floods its output, is reported in one clear line; the game is kept and can continue
with another player." Each case is a tiny fake engine (tests/fake_engines.py)."""

from __future__ import annotations

import asyncio
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from reversi_tui.engine import Color, Game, Position, handicap_position, parse_square
from reversi_tui.match import (
    Changed,
    Match,
    MatchEvent,
    MatchSettings,
    MatchState,
    Passed,
    PlayerFailed,
    PlayerKind,
    PlayerSpec,
)
from reversi_tui.match.engine_config import EngineConfig
from reversi_tui.match.sources import MoveRequest
from reversi_tui.players import UnplayableError, make_source, source_factory
from reversi_tui.players.engine import EngineSource, engine_config
from reversi_tui.protocols.process import EngineProcess, wait_for_ended

from .fake_engines import engine_command
from .timing import patience

GTP_RHINO = "/usr/games/gtp-rhino"
QUICK = PlayerSpec.from_text("easy/1ply")


def alive(pid: int) -> bool:
    """The process exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def engine_spec(tmp_path: Path, protocol: str, mode: str = "ok") -> PlayerSpec:
    return PlayerSpec.from_text(f"{protocol}:{engine_command(tmp_path, protocol, mode)}")


async def play(match: Match) -> list[MatchEvent]:
    events: list[MatchEvent] = []
    match.subscribe(events.append)
    await asyncio.wait_for(match.run(), 60)
    return events


def failure_of(match: Match) -> str:
    assert match.failure is not None and match.state is MatchState.FAILED
    assert not match.is_over
    return match.failure.reason


@pytest.mark.parametrize("protocol", ["gtp", "nboard"])
async def test_an_engine_plays_a_whole_game_and_is_gone_after(
    tmp_path: Path, protocol: str
) -> None:
    match = Match(MatchSettings(engine_spec(tmp_path, protocol), QUICK, seed=1), make_source)
    engine = match.sources[Color.BLACK]
    assert isinstance(engine, EngineSource)
    guards: set[int] = set()

    def note_guard(event: MatchEvent) -> None:
        client = engine._client
        if client is not None and client.process.pid is not None:
            guards.add(client.process.pid)

    match.subscribe(note_guard)
    result = await asyncio.wait_for(match.run(), 60)
    assert result is not None and match.game.is_over
    # One name everywhere (sidebar, records, statistics): never the command line; the
    # name the engine gave itself is said in its status line.
    kind = {"gtp": "GTP", "nboard": "NBoard"}[protocol]
    assert engine.label == f"{kind} engine (fake_engine.py)" == match.settings.black.label
    record = match.record()
    assert record.black.text.startswith(f"{protocol}:")  # the records name the engine
    assert len(guards) == 1 and not any(alive(pid) for pid in guards)


async def test_an_engine_that_cannot_start_is_a_failure_and_the_game_stays(
    tmp_path: Path,
) -> None:
    missing = PlayerSpec.from_text("gtp:no-such-engine-anywhere --level 3")
    match = Match(MatchSettings(missing, QUICK), make_source)
    events = await play(match)
    reason = failure_of(match)
    assert reason == (
        "GTP engine (no-such-engine-anywhere) cannot start: "
        "no-such-engine-anywhere is not a program on PATH"
    )
    assert [e for e in events if isinstance(e, PlayerFailed)] == [match.failure]
    # Another player takes the side: the game goes on to its end.
    match.replace_player(Color.BLACK, QUICK)
    assert match.failure is None and match.settings.black == QUICK
    assert await asyncio.wait_for(match.run(), 60) is not None


@pytest.mark.parametrize(
    ("mode", "words"),
    [
        ("exit", "GTP engine (fake_engine.py) exited (exit status 3): boom: out of cheese"),
        ("illegal", "GTP engine (fake_engine.py) played a1, which is not a legal move here"),
        ("malformed", "GTP engine (fake_engine.py) answered 'banana' to genmove: not GTP"),
        ("flood", "GTP engine (fake_engine.py) floods its output (a line over 65536 bytes)"),
    ],
)
async def test_an_engine_that_goes_wrong_fails_in_one_line(
    tmp_path: Path, mode: str, words: str
) -> None:
    spec = engine_spec(tmp_path, "gtp", mode)
    match = Match(MatchSettings(spec, QUICK, seed=2), make_source)
    await play(match)
    reason = failure_of(match)
    assert reason == words and "\n" not in reason
    assert match.turn is Color.BLACK
    assert len(match.game.plies) == (2 if mode == "exit" else 0)  # the moves so far are kept
    await match.aclose()


async def test_a_malformed_nboard_answer_and_the_edax_form_of_an_answer(tmp_path: Path) -> None:
    bad = Match(MatchSettings(engine_spec(tmp_path, "nboard", "malformed"), QUICK), make_source)
    await play(bad)
    assert failure_of(bad) == ("NBoard engine (fake_engine.py) answered '=== Z9' to go: not a move")
    await bad.aclose()
    edax = Match(MatchSettings(engine_spec(tmp_path, "nboard", "edax"), QUICK), make_source)
    assert await asyncio.wait_for(edax.run(), 60) is not None


async def test_an_engine_past_its_deadline_fails_and_is_ended(tmp_path: Path) -> None:
    spec = engine_spec(tmp_path, "gtp", "hang")
    config = EngineConfig.of_command(PlayerKind.GTP, spec.program)
    source = EngineSource(spec, EngineConfig(config.protocol, config.argv, deadline=0.5))
    match = Match(MatchSettings(spec, QUICK), lambda s, seed: source if s == spec else QUICK_SOURCE)
    began = time.monotonic()
    await play(match)
    assert failure_of(match) == "GTP engine (fake_engine.py) did not move within 0.5 seconds"
    assert time.monotonic() - began < 10
    await match.aclose()


QUICK_SOURCE = make_source(QUICK, 1)


async def test_a_cancelled_request_ends_the_engine_and_the_next_one_starts_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Undo, a new game, pause: the request is cancelled and the thinking engine ended."""
    source = make_source(engine_spec(tmp_path / "..", "gtp", "stubborn"))
    assert isinstance(source, EngineSource)
    monkeypatch.chdir(tmp_path)  # the stubborn engine writes its pid here
    asking = asyncio.ensure_future(source.play(MoveRequest(Position.initial(), 0)))
    pid = await _pid_written(tmp_path / "pid")
    asking.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asking
    await wait_for_ended()
    assert not alive(pid)  # SIGTERM ignored: killed after the grace, and reaped
    await source.close()


async def _pid_written(path: Path) -> int:
    for _ in range(200):
        if path.exists() and path.read_text():
            return int(path.read_text())
        await asyncio.sleep(0.05)
    raise AssertionError("the engine did not start")


def test_an_engine_dies_with_us_even_by_kill_9(tmp_path: Path) -> None:
    """No orphans: our process killed outright, the guard ends the engine."""
    command = engine_command(tmp_path, "gtp", "stubborn")
    parent = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import asyncio, shlex, sys\n"
            "from reversi_tui.protocols.process import EngineProcess\n"
            "async def main():\n"
            "    engine = EngineProcess(shlex.split(sys.argv[1]))\n"
            "    await engine.start()\n"
            "    await engine.send('genmove black')\n"
            "    await asyncio.sleep(3600)\n"
            "asyncio.run(main())\n",
            command,
        ],
        cwd=tmp_path,
    )
    try:
        pid_file = tmp_path / "pid"
        deadline = time.monotonic() + patience(20)
        while not (pid_file.exists() and pid_file.read_text()):
            assert time.monotonic() < deadline, "the engine did not start"
            time.sleep(0.05)
        pid = int(pid_file.read_text())
        assert alive(pid)
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        deadline = time.monotonic() + patience(10)
        while alive(pid):
            assert time.monotonic() < deadline, "the engine outlived us"
            time.sleep(0.05)
    finally:
        parent.kill()
        parent.wait()


async def test_gtp_cannot_set_up_another_start_but_nboard_can(tmp_path: Path) -> None:
    handicap = MatchSettings(engine_spec(tmp_path, "gtp"), QUICK, handicap=2)
    gtp = Match(handicap, make_source)
    await play(gtp)
    assert failure_of(gtp).endswith("speaks GTP, which cannot set up a start other than the usual")
    await gtp.aclose()
    nboard = Match(MatchSettings(engine_spec(tmp_path, "nboard"), QUICK, handicap=2), make_source)
    assert nboard.game.start == handicap_position(2, Color.BLACK)
    assert await asyncio.wait_for(nboard.run(), 60) is not None


async def test_an_nboard_engine_s_search_line_is_its_status(tmp_path: Path) -> None:
    source = make_source(engine_spec(tmp_path, "nboard"))
    assert isinstance(source, EngineSource) and source.status == ""
    answer = await source.play(MoveRequest(Position.initial(), 0))
    assert answer.move in Position.initial().legal_moves
    assert source.status == "depth 7  eval 1.50  pv F5"
    assert answer.search is not None and answer.search.score == 1.5
    await source.close()


async def test_a_game_opened_part_way_and_undo_are_replayed_to_the_engine(
    tmp_path: Path,
) -> None:
    opening = Game.from_moves(None, [parse_square(m) for m in ("f5", "d6", "c3", "d3")])
    match = Match(
        MatchSettings(engine_spec(tmp_path, "gtp"), PlayerSpec.human()), make_source, game=opening
    )
    running = asyncio.ensure_future(match.run())
    for _ in range(3):
        await _offer_first_legal(match)
    await _offer_first_legal(match)
    assert len(match.game.plies) == 13  # the engine (Black) moved first
    match.undo()  # the engine's board is ahead: it is cleared and replayed
    match.undo()
    await _offer_first_legal(match)
    assert len(match.game.plies) == 11 and match.failure is None
    await match.aclose()
    running.cancel()
    await wait_for_ended()


async def _offer_first_legal(match: Match) -> None:
    """Wait for the person's turn, then play the first legal move and the engine's reply."""
    while match.offer(match.game.legal_moves[0]):
        assert match.failure is None
        await asyncio.sleep(0.01)
    played = len(match.game.plies)
    while len(match.game.plies) < played + 2:
        assert match.failure is None
        await asyncio.sleep(0.01)


def test_engines_configured_by_name() -> None:
    rhino = EngineConfig(PlayerKind.GTP, ("gtp-rhino", "-l", "5"))
    spec = PlayerSpec.from_text("engine:Rhino")
    assert engine_config(spec, {"Rhino": rhino}) is rhino
    with pytest.raises(UnplayableError, match=r"no engine is configured as 'Rhino'"):
        make_source(spec)
    made = source_factory({"Rhino": rhino})(spec, None)
    assert isinstance(made, EngineSource) and made.label == "Engine (Rhino)"
    table = {"protocol": "nboard", "command": "edax -n 1 'a b'", "cwd": "/opt", "think_time": 2}
    edax = EngineConfig.of_table(table)
    assert edax.argv == ("edax", "-n", "1", "a b") and edax.move_seconds == 11
    assert EngineConfig.of_table(edax.table()) == edax
    for bad, words in (
        ({"protocol": "uci", "command": "x"}, "protocol = 'uci' \\(expected 'gtp' or 'nboard'\\)"),
        ({"protocol": "gtp"}, "command is missing \\(expected a command line"),
        ({"protocol": "gtp", "command": "x 'y"}, "not a command line"),
    ):
        with pytest.raises(ValueError, match=words):
            EngineConfig.of_table(bad)


def test_an_unconfigured_name_in_a_saved_game_is_played_by_a_person() -> None:
    from reversi_tui.players import playable

    engine = PlayerSpec.from_text("engine:Gone")
    settings, note = playable(MatchSettings(engine, QUICK), {})
    assert settings.black == PlayerSpec.person("Engine (Gone)")
    assert note is not None and "Engine (Gone) (Black)" in note
    same, none = playable(MatchSettings(PlayerSpec.from_text("gtp:x"), QUICK), {})
    assert none is None and same.black.kind is PlayerKind.GTP


async def test_the_process_refuses_nothing_it_cannot_read() -> None:
    process = EngineProcess(["/"])
    with pytest.raises(Exception, match="is not an executable file"):
        await process.start()


@pytest.mark.skipif(not shutil.which(GTP_RHINO), reason=f"{GTP_RHINO} is not installed")
async def test_a_real_game_against_gtp_rhino_with_forced_passes() -> None:
    """gtp-rhino answers ``play <colour> pass`` with ``? syntax error``: it passes by itself.
    Without its opening book (``-b 0``: the book picks among lines at random) and with
    no randomness, this game is the same every time, and White passes in it."""
    rhino = PlayerSpec.from_text(f"gtp:{GTP_RHINO} -l 1 -b 0 -r 0")
    match = Match(MatchSettings(rhino, QUICK, seed=3), make_source)
    events = await play(match)
    assert match.result is not None, match.failure
    assert any(isinstance(e, Passed) and e.ply.color is Color.WHITE for e in events)
    rhino = match.sources[Color.BLACK]
    assert rhino.label == "GTP engine (gtp-rhino)" == match.record().black.label
    assert isinstance(rhino, EngineSource) and rhino._name == "GTP GRhino 0.16.1"
    rhino_moves = [e for e in events if isinstance(e, Changed) and e.plies[0].color is Color.BLACK]
    assert all(e.answer is not None and e.answer.search is not None for e in rhino_moves)
