"""``reversi engine`` as a front end runs it: a child process on pipes (issue 19).

Each answer must arrive while standard input stays open (so every line is
flushed), and ``ping``/``quit`` must stop a search that would otherwise run for
an hour. The search is known to have started from the engine's own
``status thinking`` line, not from a sleep."""

from __future__ import annotations

import shutil
import time

import pytest

from reversi_tui.engine import Position, parse_square
from tests.protocols.helpers import EngineProcess

#: Well under the hour the searches below are given, well over a loaded machine's lag.
QUICKLY = 10.0
GTP_RHINO = shutil.which("gtp-rhino") or shutil.which("/usr/games/gtp-rhino")


def test_nboard_answers_line_by_line_and_ping_stops_a_long_search() -> None:
    engine = EngineProcess("--protocol", "nboard", "--level", "expert", "--think-time", "3600")
    engine.send("nboard 2")
    assert engine.out.until("set myname") == ["set myname reversi-tui expert"]
    engine.send("set depth 60")
    engine.out.until("set myname")
    # Out of the opening book (a book move would come at once): e6 f6 g6 g7.
    board = "-" * 27 + "O*------*O" + "-" * 27
    engine.send(f"set game (;GM[Othello]TY[8]BO[8 {board} *]B[E6]W[F6]B[G6]W[G7];)")
    engine.send("go")
    assert engine.out.until("status") == ["status thinking"]
    asked = time.monotonic()
    engine.send("ping 3")
    assert engine.out.until("pong") == ["pong 3"]
    assert time.monotonic() - asked < QUICKLY
    engine.send("quit")
    assert engine.close() == 0


def test_gtp_answers_line_by_line_and_quit_stops_a_long_genmove() -> None:
    engine = EngineProcess("--protocol", "gtp", "--level", "expert", "--think-time", "3600")
    engine.send("1 name")
    assert [engine.out.next(), engine.out.next()] == ["=1 reversi-tui", ""]
    for number, move in enumerate(("black e6", "white f6", "black g6", "white g7"), 10):
        engine.send(f"{number} play {move}")  # out of the opening book
        assert [engine.out.next(), engine.out.next()] == [f"={number}", ""]
    engine.send("2 genmove black")
    asked = time.monotonic()
    engine.send("3 quit")
    assert [engine.out.next() for _ in range(4)] == ["?2 interrupted", "", "=3", ""]
    assert engine.close() == 0
    assert time.monotonic() - asked < QUICKLY


def test_the_end_of_input_ends_the_engine() -> None:
    engine = EngineProcess("--protocol", "gtp", "--level", "easy")
    engine.send("play black d3")
    assert [engine.out.next(), engine.out.next()] == ["=", ""]
    assert engine.process.stdin is not None
    engine.process.stdin.close()
    assert engine.close() == 0


@pytest.mark.skipif(GTP_RHINO is None, reason="gtp-rhino is not installed (Debian: grhino)")
def test_a_whole_game_against_gtp_rhino() -> None:
    """Our GTP engine and GRhino's, each told the other's moves; gtp-rhino takes no
    ``play <color> pass`` (it passes by itself), ours takes the pass as implied."""
    assert GTP_RHINO is not None
    ours = EngineProcess("--protocol", "gtp", "--level", "medium")
    theirs = EngineProcess.of([GTP_RHINO])
    position = Position.initial()
    sides = {"black": ours, "white": theirs}
    while not position.is_game_over:
        if position.must_pass:
            position = position.pass_turn()
            continue
        colour = position.turn.name.lower()
        mover, other = sides[colour], sides["white" if colour == "black" else "black"]
        mover.send(f"genmove {colour}")
        answer, blank = mover.out.next(), mover.out.next()
        assert answer.startswith("= ") and blank == "", answer
        move = parse_square(answer[2:])
        position = position.play(move)
        other.send(f"play {colour} {answer[2:]}")
        assert [other.out.next(), other.out.next()] == ["=", ""]
    for engine in (ours, theirs):
        engine.send("final_score")
        assert engine.out.next().startswith("=")
        engine.out.next()
        engine.send("quit")
        engine.out.next()
        engine.close()
