"""Statistics from the viewer's side: per opponent, verdicts, scores and streaks,
with properties that hold for any list of games."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from reversi_tui.engine import Color, Outcome, Position
from reversi_tui.match import GameRecord, PlayerKind, PlayerSpec, Result, Termination
from reversi_tui.records.database import StoredGame
from reversi_tui.records.statistics import (
    Opponent,
    Statistics,
    Streak,
    Verdict,
    statistics,
    verdict_words,
    view,
)

ME = "ann"
T0 = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
LEVELS = ("easy", "medium", "hard", "expert")


def spec(name: str) -> PlayerSpec:
    """A level name makes a computer, an engine's text (``gtp:edax``) that engine;
    anything else a human."""
    if name in LEVELS or ":" in name:
        return PlayerSpec.from_text(name)
    return PlayerSpec.human()


def stored(
    game_id: int,
    black: str,
    white: str,
    discs: tuple[int, int],
    *,
    resigned: Color | None = None,
    hours: float | None = None,
) -> StoredGame:
    """A stored game with only what statistics read: players, result and end time.

    ``black``/``white`` are a level (a computer) or a human's name; ``resigned``
    is the colour that resigned (else the discs decide).
    """
    outcome = Outcome(*discs)
    if resigned is None:
        result = Result.from_board(outcome)
    else:
        result = Result.forfeit(resigned, Termination.RESIGNATION, outcome)
    ended = T0 + timedelta(hours=game_id if hours is None else hours)
    record = GameRecord(
        Position.initial(),
        (),
        spec(black),
        spec(white),
        result,
        ended - timedelta(minutes=5),
        ended,
    )
    names = [n if spec(n).is_human else spec(n).label for n in (black, white)]
    return StoredGame(game_id, record, names[0], names[1])


WIN, LOSS, DRAW = (40, 24), (20, 44), (32, 32)


def test_a_game_seen_from_each_side() -> None:
    game = stored(1, ME, "hard", (40, 20))
    seen = view(game, ME)
    assert seen is not None
    assert (seen.colour, seen.verdict, seen.score) == (Color.BLACK, Verdict.WIN, (44, 20))
    assert seen.opponent == Opponent(PlayerKind.COMPUTER, "hard")
    assert seen.opponent.label == "Computer (hard)"
    as_white = view(stored(2, "bob", ME, (40, 20)), ME)
    assert as_white is not None
    assert (as_white.colour, as_white.verdict, as_white.score) == (
        Color.WHITE,
        Verdict.LOSS,
        (20, 44),
    )
    assert as_white.opponent == Opponent(PlayerKind.HUMAN, "bob")
    assert view(stored(3, "bob", "hard", (40, 20)), ME) is None


def test_a_computer_never_counts_as_the_viewer() -> None:
    game = stored(1, "hard", "bob", WIN)
    assert view(StoredGame(1, game.record, ME, "bob"), ME) is None


def test_per_opponent_counts_scores_and_rate() -> None:
    games = [
        stored(1, ME, "hard", WIN),
        stored(2, "hard", ME, WIN),  # ME is white and loses
        stored(3, ME, "hard", DRAW),
        stored(4, ME, "easy", (10, 0)),  # a wipeout: 64-0
        stored(5, ME, "hard", (30, 20), resigned=Color.WHITE),  # hard resigns: 44-20
    ]
    stats = statistics(games, ME)
    hard, easy = stats.opponents
    assert hard.opponent == Opponent(PlayerKind.COMPUTER, "hard")
    assert (hard.games, hard.wins, hard.losses, hard.draws) == (4, 2, 1, 1)
    assert hard.win_rate == 0.5
    assert hard.average_score == (40 + 24 + 32 + 44) / 4
    assert hard.average_margin == 2 * hard.average_score - 64
    assert hard.best_score == (44, 20)
    assert (easy.games, easy.wins, easy.best_score) == (1, 1, (64, 0))
    assert (stats.overall.games, stats.overall.wins) == (5, 3)
    assert stats.overall.opponent is None


def test_a_resignation_is_counted_and_said_as_one_with_the_final_score() -> None:
    games = [
        stored(1, ME, "hard", (2, 5), resigned=Color.WHITE),  # hard resigns: 59-5 for ME
        stored(2, "easy", ME, (20, 10), resigned=Color.WHITE),  # ME resigns: 10-54
        stored(3, ME, "hard", WIN),
    ]
    stats = statistics(games, ME)
    overall = stats.overall
    assert (overall.wins, overall.losses) == (2, 1)
    assert (overall.wins_by_resignation, overall.losses_by_resignation) == (1, 1)
    won, lost = (view(game, ME) for game in games[:2])
    assert won is not None and lost is not None
    assert (verdict_words(won), won.score) == ("Won by resignation", (59, 5))
    assert (verdict_words(lost), lost.score) == ("Lost by resignation", (10, 54))
    normal = view(games[2], ME)
    assert normal is not None and verdict_words(normal) == "Won"
    draw = view(stored(4, ME, "hard", DRAW), ME)
    assert draw is not None and verdict_words(draw) == "Drew"


def test_streaks_follow_the_order_games_ended_in() -> None:
    played = [WIN, WIN, LOSS, WIN, WIN, WIN, DRAW, WIN, WIN]
    games = [stored(i, ME, "medium", discs, hours=i) for i, discs in enumerate(played, 1)]
    stats = statistics(games[::-1], ME)  # given newest first: sorted by when they ended
    assert stats.overall.current_streak == Streak(Verdict.WIN, 2)
    assert stats.overall.longest_winning_streak == 3
    last_draw = statistics([*games, stored(99, ME, "medium", DRAW, hours=10)], ME)
    assert last_draw.overall.current_streak == Streak(Verdict.DRAW, 1)
    assert last_draw.overall.longest_winning_streak == 3


def test_recent_games_are_newest_first() -> None:
    games = [stored(i, ME, "hard", WIN) for i in range(1, 9)]
    stats = statistics(games, ME, recent=3)
    assert [item.game.id for item in stats.overall.recent] == [8, 7, 6]
    assert [item.game.id for item in stats.opponents[0].recent] == [8, 7, 6]
    assert statistics(games, ME, recent=0).overall.recent == ()


def test_the_most_played_first_then_computers_weakest_first_then_humans() -> None:
    games = [
        stored(1, ME, "bob", WIN),
        stored(2, "cat", ME, WIN),
        stored(3, ME, "cat", LOSS),
        stored(4, ME, "expert", LOSS),
        stored(5, ME, "easy", DRAW),
        stored(6, ME, "abe", DRAW),
    ]
    labels = [t.opponent.label for t in statistics(games, ME).opponents if t.opponent]
    assert labels == ["cat", "Computer (easy)", "Computer (expert)", "abe", "bob"]


def test_an_engine_is_an_opponent_of_its_own_between_computers_and_people() -> None:
    games = [
        stored(1, ME, "gtp:edax -gtp", WIN),
        stored(2, "gtp:edax -gtp", ME, WIN),  # ME is white and loses
        stored(3, ME, "engine:Edax", DRAW),
        stored(4, ME, "hard", LOSS),
        stored(5, ME, "bob", LOSS),
    ]
    stats = statistics(games, ME)
    edax = stats.opponents[0]
    assert edax.opponent == Opponent(PlayerKind.GTP, "edax")
    assert (edax.games, edax.wins, edax.losses) == (2, 1, 1)
    labels = [t.opponent.label for t in stats.opponents if t.opponent]
    assert labels == ["GTP engine (edax)", "Computer (hard)", "Engine (Edax)", "bob"]
    # An engine recorded under the viewer's name is still not the viewer.
    as_me = stored(6, "gtp:edax -gtp", "bob", WIN)
    assert view(StoredGame(6, as_me.record, ME, "bob"), ME) is None


def test_playing_yourself_counts_once_from_blacks_side() -> None:
    stats = statistics([stored(1, ME, ME, LOSS)], ME)
    (only,) = stats.opponents
    assert only.opponent == Opponent(PlayerKind.HUMAN, ME)
    assert (only.games, only.losses) == (1, 1)


def test_no_games() -> None:
    stats = statistics([stored(1, "bob", "cat", WIN)], ME)
    assert stats == Statistics(ME, stats.overall, ())
    overall = stats.overall
    assert (overall.games, overall.win_rate, overall.average_score) == (0, 0.0, None)
    assert (overall.best_score, overall.current_streak, overall.recent) == (None, None, ())


# Properties -------------------------------------------------------------------------
PLAYERS = st.sampled_from([ME, "bob", "cat", *LEVELS])


@st.composite
def games(draw: st.DrawFn) -> list[StoredGame]:
    count = draw(st.integers(0, 25))
    result = []
    for game_id in range(1, count + 1):
        black, white = draw(PLAYERS), draw(PLAYERS)
        black_discs = draw(st.integers(0, 64))
        white_discs = draw(st.integers(0, 64 - black_discs))
        resigned = draw(st.sampled_from([None, Color.BLACK, Color.WHITE]))
        hours = draw(st.integers(0, 1000))
        result.append(
            stored(
                game_id, black, white, (black_discs, white_discs), resigned=resigned, hours=hours
            )
        )
    return result


@given(games())
def test_the_counts_always_add_up(played: list[StoredGame]) -> None:
    stats = statistics(played, ME)
    mine = [g for g in played if view(g, ME) is not None]
    assert stats.overall.games == len(mine) == sum(t.games for t in stats.opponents)
    for t in (stats.overall, *stats.opponents):
        assert t.wins + t.losses + t.draws == t.games
        assert t.wins_by_resignation <= t.wins and t.losses_by_resignation <= t.losses
        assert 0.0 <= t.win_rate <= 1.0
        assert t.longest_winning_streak <= t.wins
        assert len(t.recent) == min(5, t.games)
        if t.games:
            assert t.average_score is not None and t.best_score is not None
            assert 0 <= t.average_score <= t.best_score[0] <= 64
            assert sum(t.best_score) == 64
            assert t.current_streak is not None and 1 <= t.current_streak.length <= t.games
            if t.current_streak.verdict is Verdict.WIN:
                assert t.longest_winning_streak >= t.current_streak.length
    assert sum(t.wins for t in stats.opponents) == stats.overall.wins


@given(games())
def test_other_peoples_games_change_nothing(played: list[StoredGame]) -> None:
    others = [stored(1000 + i, "bob", "hard", WIN) for i in range(3)]
    assert statistics([*played, *others], ME) == statistics(played, ME)


@given(games())
def test_the_order_games_are_given_in_does_not_matter(played: list[StoredGame]) -> None:
    assert statistics(list(reversed(played)), ME) == statistics(played, ME)
