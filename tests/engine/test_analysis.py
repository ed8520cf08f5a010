"""Game analysis: exact values against the solver, classes against their thresholds,
the turning point, cancellation and the JSON form."""

from __future__ import annotations

import random

import pytest

from reversi_tui.engine import PASS, Color, Move, Position
from reversi_tui.engine.ai import endgame, native_endgame
from reversi_tui.engine.ai.analysis import (
    CLASS_THRESHOLDS,
    AnalysisOptions,
    GameAnalysis,
    MoveClass,
    analyse_game,
    classify,
    from_json,
    judge,
    move_accuracy,
    to_json,
    turned_result,
    win_chance,
)
from reversi_tui.engine.ai.endgame import solve
from reversi_tui.engine.ai.result import SearchCancelled
from reversi_tui.engine.bitboard import flips, legal_moves

QUICK = AnalysisOptions(time_per_move=0.02, exact_empties=10)


def random_game(seed: int) -> list[Move]:
    rng = random.Random(seed)
    pos = Position.initial()
    moves: list[Move] = []
    while not pos.is_game_over:
        if not pos.legal_moves:
            moves.append(PASS)
            pos = pos.pass_turn()
            continue
        move = rng.choice(pos.legal_moves)
        moves.append(move)
        pos = pos.play(move)
    return moves


def positions_of(moves: list[Move]) -> list[Position]:
    out = [Position.initial()]
    for move in moves:
        out.append(out[-1].pass_turn() if move == PASS else out[-1].play(move))
    return out


@pytest.fixture(scope="module")
def analysed() -> tuple[list[Move], GameAnalysis]:
    moves = random_game(4)
    return moves, analyse_game(Position.initial(), moves, QUICK)


@pytest.mark.parametrize(
    ("loss", "klass"),
    [
        (0.0, MoveClass.BEST),
        (1.99, MoveClass.GOOD),
        (2.0, MoveClass.INACCURACY),
        (5.99, MoveClass.INACCURACY),
        (6.0, MoveClass.MISTAKE),
        (11.99, MoveClass.MISTAKE),
        (12.0, MoveClass.BLUNDER),
        (40.0, MoveClass.BLUNDER),
    ],
)
def test_a_disc_loss_is_classed_by_the_documented_thresholds(loss: float, klass: MoveClass) -> None:
    assert classify(loss) is klass


def test_the_thresholds_rise() -> None:
    limits = [threshold for _, threshold in CLASS_THRESHOLDS]
    assert limits == sorted(limits) and len(set(limits)) == 3


def test_a_turned_result_is_named_and_outranks_a_small_loss() -> None:
    assert turned_result(2, 0, exact=True) == "win->draw"
    assert turned_result(2, -2, exact=True) == "win->loss"
    assert turned_result(0, -2, exact=True) == "draw->loss"
    assert turned_result(-2, -20, exact=True) is None
    assert turned_result(30, 2, exact=True) is None
    # Estimates count a small edge as level.
    assert turned_result(2, -2, exact=False) is None
    assert judge(2, "win->draw", exact=True) is MoveClass.BLUNDER
    assert judge(0.5, "ahead->behind", exact=False) is MoveClass.INACCURACY
    assert judge(7, "level->behind", exact=False) is MoveClass.MISTAKE
    assert judge(14, "ahead->behind", exact=False) is MoveClass.BLUNDER
    assert judge(2, None, exact=True) is MoveClass.INACCURACY


@pytest.mark.parametrize(
    ("best", "played", "words"),
    [
        (4.5, 0.8, "ahead->level"),  # "win->draw" beside a +0.8 claimed a result
        (6, -6, "ahead->behind"),
        (1, -5, "level->behind"),
        (30, 2, "ahead->level"),
    ],
)
def test_estimates_never_claim_a_result(best: float, played: float, words: str) -> None:
    """Only exact values prove a win, a draw or a loss; an estimate says where the
    mover stands, in words its number bears out (within 4 discs is level)."""
    assert turned_result(best, played, exact=False) == words
    assert not {"win", "draw", "loss"} & set(words.split("->"))


def test_winning_chances_and_accuracy_behave() -> None:
    assert win_chance(0) == 50
    assert win_chance(10) == pytest.approx(100 - win_chance(-10))
    assert win_chance(12) > win_chance(6) > 50
    assert move_accuracy(0) == pytest.approx(100, abs=1e-3)
    assert 100 > move_accuracy(5) > move_accuracy(20) > move_accuracy(60) >= 0


def test_every_exact_value_is_the_solver_s(analysed: tuple[list[Move], GameAnalysis]) -> None:
    moves, analysis = analysed
    positions = positions_of(moves)
    checked = 0
    for review in analysis.reviews:
        pos = positions[review.ply]
        if not review.exact or review.played == PASS or pos.empties > 10:
            continue
        assert review.best_value == solve(pos.player, pos.opponent).score
        child = positions[review.ply + 1]
        assert review.played_value == -solve(child.player, child.opponent).score
        assert review.values[review.best] == review.best_value
        checked += 1
    assert checked >= 5


def test_each_review_is_consistent(analysed: tuple[list[Move], GameAnalysis]) -> None:
    moves, analysis = analysed
    positions = positions_of(moves)
    assert [r.played for r in analysis.reviews] == moves
    for review in analysis.reviews:
        pos = positions[review.ply]
        assert review.color is pos.turn
        assert review.loss == max(0.0, review.best_value - review.played_value)
        if review.played == PASS or len(pos.legal_moves) == 1:
            assert review.klass is MoveClass.FORCED and review.accuracy is None
            continue
        assert review.best in pos.legal_moves
        if review.turned is None:
            assert review.klass is classify(review.loss)
        # The line starts with the best move and is legal all the way.
        assert review.pv[0] == review.best
        p, o = pos.player, pos.opponent
        for move in review.pv:
            if move == PASS:
                assert not legal_moves(p, o)
                p, o = o, p
                continue
            assert legal_moves(p, o) >> move & 1
            f = flips(p, o, move)
            p, o = o ^ f, p | f | (1 << move)


def test_the_last_plies_are_exact_and_the_final_value_is_the_score(
    analysed: tuple[list[Move], GameAnalysis],
) -> None:
    moves, analysis = analysed
    final = positions_of(moves)[-1]
    assert analysis.final_exact
    assert analysis.final_black_value == final.outcome().margin
    assert all(r.exact for r in analysis.reviews[-10:])
    graph = analysis.graph()
    assert len(graph) == len(moves) + 1 and graph[-1] == analysis.final_black_value


def test_the_turning_point_is_the_loser_s_costliest_move(
    analysed: tuple[list[Move], GameAnalysis],
) -> None:
    _, analysis = analysed
    assert analysis.turning_point is not None
    final = analysis.final_black_value
    loser = Color.WHITE if final > 0 else Color.BLACK
    turn = analysis.reviews[analysis.turning_point]
    if final:
        assert turn.color is loser
    drops = [
        r.chance_before - r.chance_after
        for r in analysis.reviews
        if r.klass is not MoveClass.FORCED and (not final or r.color is loser)
    ]
    assert turn.chance_before - turn.chance_after == max(drops)


def test_each_side_s_summary_counts_its_moves(analysed: tuple[list[Move], GameAnalysis]) -> None:
    _, analysis = analysed
    for color, summary in analysis.summaries.items():
        mine = [r for r in analysis.reviews if r.color is color]
        judged = [r for r in mine if r.klass is not MoveClass.FORCED]
        assert summary.moves == len(judged)
        assert sum(summary.counts.values()) == len(mine)
        assert summary.counts[MoveClass.BLUNDER] == sum(
            r.klass is MoveClass.BLUNDER for r in judged
        )
        assert summary.mean_loss == pytest.approx(sum(r.loss for r in judged) / len(judged))
        assert summary.accuracy is not None and 0 <= summary.accuracy <= 100
    assert [r.ply for r in analysis.errors(Color.BLACK)] == [
        r.ply for r in analysis.reviews if r.color is Color.BLACK and r.klass.is_error
    ]


def test_the_json_form_reads_back(analysed: tuple[list[Move], GameAnalysis]) -> None:
    _, analysis = analysed
    data = to_json(analysis)
    again = from_json(data, Position.initial())
    assert to_json(again) == data
    assert data["moves"][0]["ply"] == 1 and data["sides"]["black"]["moves"] > 0
    with pytest.raises(ValueError):
        from_json({**data, "format": 99}, Position.initial())


def test_a_stop_request_ends_the_analysis_at_once() -> None:
    moves = random_game(5)
    heard: list[int] = []

    def stop() -> bool:
        return len(heard) >= 2

    with pytest.raises(SearchCancelled):
        analyse_game(
            Position.initial(),
            moves,
            AnalysisOptions(time_per_move=5.0, exact_empties=10),
            lambda done, _total: heard.append(done),
            stop,
        )
    assert len(heard) == 2


def test_an_illegal_move_is_refused() -> None:
    from reversi_tui.engine import IllegalMoveError

    with pytest.raises(IllegalMoveError):
        analyse_game(Position.initial(), [0], QUICK)


def test_options_are_checked() -> None:
    with pytest.raises(ValueError):
        AnalysisOptions(time_per_move=0)
    with pytest.raises(ValueError, match="easy"):
        AnalysisOptions(level="grandmaster")


def test_the_default_exact_start_follows_the_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(endgame, "_native", False)
    assert AnalysisOptions().exact_empties == 16
    if native_endgame.MODULE is not None:
        monkeypatch.setattr(endgame, "_native", True)
        assert AnalysisOptions().exact_empties == 20
