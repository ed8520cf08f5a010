"""Our engine as an NBoard engine, through ``NBoardSession`` (issue 19).

From the issue: "NBoard (version 2 as the NBoard client sends it): ``nboard 2``,
``set depth N``, ``set game <GGF>`` (the full game; later commands refer to its
last position), ``move F5/eval/time`` (and the old bare ``F5``), ``hint N``
(answers ``search <pv> <eval> 0 <depth> <text>`` lines, best first, from the
mover's point of view), ``go`` (answers ``=== F5/eval/time`` and does not play
the move itself), ``ping N`` (stops any thinking, then ``pong N``) [...];
unknown lines are ignored. A search is interrupted at once by ``ping`` or ``quit``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from reversi_tui.engine import PASS, Color, Position, parse_square, square_name
from reversi_tui.protocols.common import vertex_name
from reversi_tui.protocols.engine_session import Effort, Thinker
from reversi_tui.protocols.nboard_engine import NBoardSession
from tests.protocols.helpers import (
    PATIENCE,
    FirstMoveThinker,
    GatedThinker,
    Lines,
    moves_to_a_pass,
)

START = "---------------------------O*------*O--------------------------- *"


def ggf(moves: list[int], board: str = START) -> str:
    """A GGF game as NBoard sends it, with ``moves`` from ``board`` (passes as PA)."""
    plies = []
    colour = "B" if board.endswith("*") else "W"
    for move in moves:
        plies.append(f"{colour}[{vertex_name(move, 'PA')}//1.02]")
        colour = "W" if colour == "B" else "B"
    return (
        "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[me]PW[you]RE[?]TI[5:00]"
        f"TY[8]BO[8 {board}]{''.join(plies)};)"
    )


@pytest.fixture
def session() -> Iterator[tuple[NBoardSession, Lines]]:
    yield from _session(Effort("easy"))


def _session(
    effort: Effort, thinker: Thinker | None = None
) -> Iterator[tuple[NBoardSession, Lines]]:
    lines = Lines()
    nboard = NBoardSession(lines, effort, thinker)
    nboard.start()
    yield nboard, lines
    nboard.close()
    assert nboard.wait(PATIENCE)


def test_the_opening_lines_name_the_engine_and_its_depth(
    session: tuple[NBoardSession, Lines],
) -> None:
    nboard, lines = session
    nboard.feed("nboard 2")
    assert lines.until("set myname") == ["set myname reversi-tui easy"]
    nboard.feed("set depth 12")
    assert lines.until("set myname") == ["set myname reversi-tui easy depth 12"]
    assert nboard.effort.max_depth == 12
    nboard.feed("set depth 99")
    lines.until("set myname")
    assert nboard.effort.max_depth == 60


def test_a_whole_game_by_go_and_move(session: tuple[NBoardSession, Lines]) -> None:
    """``go`` answers ``=== F5/eval/time`` without playing it; ``move`` plays it."""
    nboard, lines = session
    nboard.feed("nboard 2")
    nboard.feed("set depth 2")
    nboard.feed(f"set game {ggf([])}")
    position = Position.initial()
    played = 0
    while not position.is_game_over:
        nboard.feed("go")
        answer = lines.until("===")[-1]
        word = answer.split()[1]
        if position.must_pass:
            assert word == "PA"
            position = position.pass_turn()
            nboard.feed("move PA")
            continue
        square, value, seconds = word.split("/")
        move = parse_square(square)
        assert square == square.upper() and position.is_legal(move)
        float(value), float(seconds)
        nboard.feed(f"move {word}")
        position = position.play(move)
        played += 1
        # The engine did not play the move itself: its board moves only by "move".
        nboard.feed(f"ping {played}")
        lines.until(f"pong {played}")
        assert nboard.game.position == position
    # To its end, however early that comes (a wipe-out can end a game before move 50).
    assert position.is_game_over
    assert played == (position.player | position.opponent).bit_count() - 4


def test_hint_sends_search_lines_best_first_from_the_movers_view(
    session: tuple[NBoardSession, Lines],
) -> None:
    nboard, lines = session
    nboard.feed(f"set game {ggf([parse_square('f5')])}")
    nboard.feed("hint 3")
    answer = lines.until("status")  # "status analysing"
    answer = lines.until("nodestats")
    searches = [line.split() for line in answer if line.startswith("search")]
    assert len(searches) == 3  # White has exactly three moves: d6, f4, f6
    assert {s[1] for s in searches} == {"D6", "F4", "F6"}
    values = [float(s[2]) for s in searches]
    assert values == sorted(values, reverse=True)
    assert all(s[3] == "0" and s[4].isdigit() for s in searches)
    assert lines.until("status") == ["status"]


def test_hint_asks_for_fewer_than_all(session: tuple[NBoardSession, Lines]) -> None:
    nboard, lines = session
    nboard.feed(f"set game {ggf([])}")
    nboard.feed("hint 1")
    searches = [line for line in lines.until("nodestats") if line.startswith("search")]
    assert len(searches) == 1
    assert searches[0].split()[1] in {"F5", "E6", "D3", "C4"}


def test_ping_stops_a_search_at_once_and_nothing_of_it_is_sent() -> None:
    thinker = GatedThinker()
    for nboard, lines in _session(Effort("expert"), thinker):
        nboard.feed(f"set game {ggf([])}")
        nboard.feed("go")
        assert thinker.started.wait(PATIENCE)
        nboard.feed("ping 7")
        assert lines.until("pong") == ["status thinking", "pong 7"]


def test_quit_stops_a_search_and_ends_the_session() -> None:
    thinker = GatedThinker()
    lines = Lines()
    nboard = NBoardSession(lines, Effort(), thinker)
    nboard.start()
    nboard.feed("hint 4")
    assert thinker.started.wait(PATIENCE)
    nboard.feed("quit")
    assert nboard.wait(PATIENCE)
    assert not any(line.startswith("search") for line in lines.lines)


def test_a_nonstandard_start_position() -> None:
    """A GGF whose BO is not the usual start (a random s8r-style position, White to move)."""
    board = ("-------- -------- --*O---- --**O--- --*OO--- ---O*--- -------- -------- O").replace(
        " ", ""
    )
    thinker = FirstMoveThinker()
    for nboard, lines in _session(Effort(), thinker):
        nboard.feed(f"set game {ggf([], board)}")
        nboard.feed("go")
        answer = lines.until("===")[-1]
        start = nboard.game.start
        assert start.turn is Color.WHITE and start.count(Color.BLACK) == 5
        expected = square_name(start.legal_moves[0]).upper()
        assert answer == f"=== {expected}/1.50/0.01"


def test_moves_after_a_nonstandard_start_are_its_moves() -> None:
    board = "---------------------------OO------**--------------------------- *"
    for nboard, lines in _session(Effort("easy")):
        nboard.feed(f"set game {ggf([], board)}")
        legal = Position((1 << 35) | (1 << 36), (1 << 27) | (1 << 28), Color.BLACK).legal_moves
        nboard.feed("hint 10")
        searches = [line for line in lines.until("nodestats") if line.startswith("search")]
        assert sorted(parse_square(s.split()[1]) for s in searches) == legal


def test_a_pass_left_to_the_front_end_and_a_written_pass() -> None:
    """The GGF ends where the side to move must pass: ``go`` answers ``=== PA``; once
    the pass is written (``move PA`` or PA in the GGF) the other side moves."""
    moves, position = moves_to_a_pass()
    for nboard, lines in _session(Effort("easy")):
        nboard.feed(f"set game {ggf(moves)}")
        nboard.feed("go")
        assert lines.until("===")[-1] == "=== PA"
        nboard.feed("move PA")
        nboard.feed("go")
        move = parse_square(lines.until("===")[-1].split()[1].split("/")[0])
        assert position.pass_turn().is_legal(move)
        nboard.feed(f"set game {ggf([*moves, PASS])}")
        nboard.feed("ping 1")
        lines.until("pong 1")
        assert nboard.game.position == position.pass_turn()


def test_the_old_bare_move_and_moves_with_evals(session: tuple[NBoardSession, Lines]) -> None:
    nboard, lines = session
    nboard.feed(f"set game {ggf([])}")
    nboard.feed("F5")
    nboard.feed("move d6/-0.50/1.25")
    nboard.feed("ping 1")
    lines.until("pong 1")
    assert nboard.game.moves == [parse_square("f5"), parse_square("d6")]


def test_bad_lines_are_ignored_or_reported_on_the_status_line(
    session: tuple[NBoardSession, Lines],
) -> None:
    nboard, lines = session
    for line in ("", "   ", "frobnicate 3", "set", "set colour blue", "move", "zz"):
        nboard.feed(line)
    nboard.feed("move A1")
    nboard.feed("set game (;GM[Chess];)")
    nboard.feed("set depth deep")
    nboard.feed("set contempt much")
    nboard.feed("ping 2")
    got = lines.until("pong 2")
    assert got[-1] == "pong 2"
    statuses = got[:-1]
    assert len(statuses) == 4 and all(line.startswith("status ") for line in statuses)
    assert "A1" in statuses[0]
    assert nboard.game.moves == []


def test_analyze_learn_and_contempt(session: tuple[NBoardSession, Lines]) -> None:
    nboard, lines = session
    nboard.feed(f"set game {ggf([parse_square('f5'), parse_square('d6')])}")
    nboard.feed("set contempt 2")
    nboard.feed("analyze")
    got = lines.until("status")  # "status analysing the game"
    got = lines.until("status")
    analyses = [line.split() for line in got if line.startswith("analysis")]
    assert [a[1] for a in analyses] == ["2", "1", "0"]
    assert all(isinstance(float(a[2]), float) for a in analyses)
    nboard.feed("learn")
    assert lines.until("learned") == ["learned"]
    assert nboard.contempt == 2.0


def test_analyze_gives_a_finished_game_its_exact_score() -> None:
    for nboard, lines in _session(Effort("easy")):
        position, moves = Position.initial(), []
        while not position.is_game_over:
            move = position.legal_moves[0] if position.legal_moves else PASS
            moves.append(move)
            position = position.play(move)
        nboard.feed(f"set game {ggf(moves)}")
        nboard.feed("analyze")
        lines.until("status analysing")
        first = lines.until("analysis")[-1].split()
        black, white = position.outcome().final_score
        mine = black - white if position.turn is Color.BLACK else white - black
        assert first == ["analysis", str(len(moves)), f"{mine:.2f}"]
        nboard.feed("ping 1")
        lines.until("pong 1")
