"""Our engine as a GTP engine, through ``GtpSession`` (issue 19).

From the issue: "GTP (as ``gtp-rhino`` and Edax answer it): ``protocol_version``,
``name``, ``version``, ``known_command``, ``list_commands``, ``boardsize 8``,
``clear_board``, ``play <color> <vertex|pass>``, ``genmove <color>`` (plays it on
its own board, as GTP requires), ``undo``, ``showboard``, ``time_settings``/
``time_left`` (used to budget the search), ``final_score``, ``quit``; ids on
commands echoed as GTP says; errors as ``? message``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from reversi_tui import __version__
from reversi_tui.engine import PASS, Position, parse_square
from reversi_tui.protocols.common import vertex_name
from reversi_tui.protocols.engine_session import Effort, Thinker
from reversi_tui.protocols.gtp_engine import Clock, GtpSession, clock_budget
from tests.protocols.helpers import PATIENCE, FirstMoveThinker, GatedThinker, Lines, moves_to_a_pass


class Gtp:
    """A session and a way to ask it one command and get its answer's lines."""

    def __init__(self, effort: Effort | None = None, thinker: Thinker | None = None) -> None:
        self.lines = Lines()
        self.session = GtpSession(self.lines, effort or Effort("easy"), thinker)
        self.session.start()

    def ask(self, command: str) -> list[str]:
        """The answer's lines, the closing empty line left out."""
        self.session.feed(command)
        return list(iter(self.lines.next, ""))

    def one(self, command: str) -> str:
        answer = self.ask(command)
        assert len(answer) == 1, answer
        return answer[0]


@pytest.fixture
def gtp() -> Iterator[Gtp]:
    engine = Gtp()
    yield engine
    engine.session.feed("quit")
    assert engine.session.wait(PATIENCE)


def test_the_administrative_commands(gtp: Gtp) -> None:
    assert gtp.one("protocol_version") == "= 2"
    assert gtp.one("name") == "= reversi-tui"
    assert gtp.one("version") == f"= {__version__}"
    assert gtp.one("known_command genmove") == "= true"
    assert gtp.one("known_command frobnicate") == "= false"
    listed = gtp.ask("list_commands")
    assert listed[0] == "= protocol_version"
    for name in (
        "boardsize",
        "clear_board",
        "play",
        "genmove",
        "undo",
        "showboard",
        "time_settings",
        "time_left",
        "final_score",
        "quit",
    ):
        assert name in listed[1:]
    assert gtp.one("boardsize 8") == "="
    assert gtp.one("boardsize 19") == "? unacceptable size"
    assert gtp.one("komi 6.5") == "="


def test_ids_are_echoed_on_success_and_failure(gtp: Gtp) -> None:
    assert gtp.one("1 protocol_version") == "=1 2"
    assert gtp.one("42 boardsize 9") == "?42 unacceptable size"
    assert gtp.one("7 frobnicate") == "?7 unknown command"
    assert gtp.one("3 play black d3") == "=3"


def test_bad_commands(gtp: Gtp) -> None:
    assert gtp.one("frobnicate") == "? unknown command"
    assert gtp.one("play").startswith("? syntax error")
    assert gtp.one("play purple d3").startswith("? syntax error")
    assert gtp.one("play black z9").startswith("? syntax error")
    assert gtp.one("play black a1") == "? illegal move"
    assert gtp.one("play white f5") == "? illegal move"  # Black's turn
    assert gtp.one("play black pass") == "? illegal move"  # Black has moves
    assert gtp.one("undo") == "? cannot undo"
    assert gtp.one("genmove").startswith("? syntax error")
    assert gtp.one("time_settings 300").startswith("? syntax error")
    # Comments, tabs and empty lines, as GTP preprocesses them.
    gtp.session.feed("# a comment")
    gtp.session.feed("")
    assert gtp.one("play\tBLACK\tD3  # the usual opening") == "="


def test_vertices_in_any_case(gtp: Gtp) -> None:
    assert gtp.one("play B f5") == "="
    assert gtp.one("play WHITE D6") == "="
    assert gtp.one("play b C3") == "="
    assert gtp.session.game.moves == [parse_square(s) for s in ("f5", "d6", "c3")]


def test_genmove_plays_on_its_own_board_and_undo_takes_it_back(gtp: Gtp) -> None:
    answer = gtp.one("genmove black")
    move = parse_square(answer.removeprefix("= "))
    assert Position.initial().is_legal(move)
    assert gtp.session.game.moves == [move]
    assert gtp.one("genmove w").startswith("= ")
    assert gtp.one("undo") == "="
    assert gtp.session.game.moves == [move]
    assert gtp.one("clear_board") == "="
    assert gtp.session.game.moves == []


def test_a_whole_game_of_genmove_with_final_score(gtp: Gtp) -> None:
    position = Position.initial()
    while not position.is_game_over:
        colour = position.turn.name.lower()
        answer = gtp.one(f"genmove {colour}")
        word = answer.removeprefix("= ")
        if position.must_pass:
            assert word == "pass"
            position = position.pass_turn()
        else:
            assert word == word.upper()
            position = position.play(parse_square(word))
    assert gtp.one("genmove black") == "= pass"
    black, white = position.outcome().final_score
    expected = (
        "0" if black == white else f"B+{black - white}" if black > white else f"W+{white - black}"
    )
    assert gtp.one("final_score") == f"= {expected}"


def test_passes_played_told_and_implied(gtp: Gtp) -> None:
    moves, position = moves_to_a_pass()
    for move in moves:
        colour = "black" if len(gtp.session.game.moves) % 2 == 0 else "white"
        assert gtp.one(f"play {colour} {vertex_name(move)}") == "="
    mover = position.turn.name.lower()
    other = position.turn.opponent.name.lower()
    assert gtp.one(f"genmove {mover}") == "= pass"
    assert gtp.one("undo") == "="
    assert gtp.one(f"play {mover} pass") == "="
    assert gtp.one("undo") == "="
    # gtp-rhino's way: no pass told, the other colour just plays.
    answer = gtp.one(f"genmove {other}")
    assert position.pass_turn().is_legal(parse_square(answer.removeprefix("= ")))
    assert gtp.session.game.moves[-2] == PASS
    assert gtp.one("undo") == "="
    assert gtp.session.game.moves == moves


def test_showboard_draws_the_board(gtp: Gtp) -> None:
    gtp.one("play black d3")
    board = gtp.ask("showboard")
    assert board[0] == "="
    assert board[1].split() == list("ABCDEFGH")
    assert board[4].split() == ["3", ".", ".", ".", "X", ".", ".", ".", ".", "3"]
    assert board[5].split() == ["4", ".", ".", ".", "X", "X", ".", ".", ".", "4"]
    assert board[-1] == "Black (X) 4, White (O) 1; White to move"


def test_final_score_of_an_unfinished_game_counts_the_discs(gtp: Gtp) -> None:
    assert gtp.one("final_score") == "= 0"
    gtp.one("play black d3")
    assert gtp.one("final_score") == "= B+3"


def test_the_clock_budgets_genmove() -> None:
    thinker = FirstMoveThinker()
    gtp = Gtp(Effort("expert"), thinker)
    gtp.one("genmove black")
    assert thinker.efforts[-1].think_time is None  # no clock: the level's own 5 s
    assert gtp.one("time_settings 60 0 0") == "="
    gtp.one("genmove white")
    budget = thinker.efforts[-1].think_time
    assert budget is not None and budget < 5.0
    assert gtp.one("time_left black 2 0") == "="
    gtp.one("genmove black")
    low = thinker.efforts[-1].think_time
    assert low is not None and low < 0.1
    assert gtp.one("time_settings 0 1 0") == "="  # byo-yomi without stones: no limit
    gtp.one("genmove white")
    assert thinker.efforts[-1].think_time is None
    gtp.session.feed("quit")
    assert gtp.session.wait(PATIENCE)


def test_clock_budget() -> None:
    assert clock_budget(Clock(600, 0, 0, 600), 60) == pytest.approx(600 / 30 * 0.85)
    assert clock_budget(Clock(600, 0, 0, 30), 10) == pytest.approx(30 / 5 * 0.85)
    in_byo_yomi = Clock(600, 30, 10, 15, stones_left=5)
    assert clock_budget(in_byo_yomi, 40) == pytest.approx(3 * 0.85)
    assert clock_budget(Clock(0, 0, 0, 0), 40) is None
    assert clock_budget(Clock(300, 0, 0, 0.001), 40) == pytest.approx(0.02)


def test_a_clock_counts_its_own_moves() -> None:
    clock = Clock(10, 5, 2, 10)
    clock.spend(4)
    assert (clock.left, clock.stones_left) == (6, 0)
    clock.spend(7)
    assert (clock.left, clock.stones_left) == (5, 2)  # main time out: byo-yomi
    clock.spend(1)
    clock.spend(1)
    assert (clock.left, clock.stones_left) == (5, 2)  # a new period


def test_quit_stops_genmove_at_once() -> None:
    thinker = GatedThinker()
    gtp = Gtp(Effort("expert"), thinker)
    gtp.session.feed("5 genmove black")
    assert thinker.started.wait(PATIENCE)
    gtp.session.feed("6 quit")
    assert gtp.session.wait(PATIENCE)
    assert gtp.lines.lines == ["?5 interrupted", "", "=6", ""]
    assert gtp.session.game.moves == []
