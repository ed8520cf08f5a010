"""Game files: PGN-style records, GGF, move lists and positions, both ways."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reversi_tui.engine import PASS, Game, Position, format_position, handicap_position
from reversi_tui.engine.board import Color
from reversi_tui.engine.notation import parse_move_list
from reversi_tui.match.record import GameRecord, Result
from reversi_tui.match.settings import PlayerSpec
from reversi_tui.records.formats import (
    FORMAT_NAMES,
    FORMATS,
    SAVED_FORMATS,
    FormatError,
    GameFormat,
    format_named,
    format_of_suffix,
    moves_text,
    parse_moves_text,
    read_game,
    write_game,
)
from reversi_tui.records.ggf import read_ggf, read_ggf_all, write_ggf
from reversi_tui.records.pgn import read_pgn, read_pgn_all, write_pgn

START_BO = "8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *"
WHEN = datetime(2026, 11, 23, 10, 15, tzinfo=UTC)


def random_game(seed: int, *, start: Position | None = None, plies: int = 80) -> Game:
    rng = random.Random(seed)
    game = Game(start)
    while not game.is_over and len(game.plies) < plies:
        game.play(rng.choice(game.legal_moves))
    return game


def game_with_a_pass() -> Game:
    """A whole random game in which some side had to pass (the first such seed)."""
    for seed in range(10_000):
        game = random_game(seed)
        if game.is_over and any(p.is_pass for p in game.plies[:-1]):
            return game
    raise AssertionError("no random game with a pass")


def record(
    game: Game, black: PlayerSpec | None = None, white: PlayerSpec | None = None
) -> GameRecord:
    players = {Color.BLACK: black or PlayerSpec.human(), Color.WHITE: white or PlayerSpec.human()}
    return GameRecord.of(game, players, started=WHEN)


# --- PGN -----------------------------------------------------------------------------


ARCHIVE = (
    '[Event "Club championship"]\r\n[Date "2024.05.01"]\r\n[Black "Tamaki"]\r\n'
    '[White "Nicolet"]\r\n[Result "*"]\r\n\r\n'
    "1. F5 D6 2. C3 D3 {the tiger} 3. C4 F4 *\r\n\r\n"
    '[Event "Second"]\r\n[Black "B"]\r\n[White "W"]\r\n\r\n'
    "1. f5 2. f6 3. e6 4. f4 ; perpendicular\r\n*\r\n"
)


def test_an_archive_with_two_games_crlf_comments_and_either_case() -> None:
    first = read_pgn(ARCHIVE)
    assert first.record.move_list() == "f5d6c3d3c4f4"
    assert first.tags["Black"] == "Tamaki" and first.tags["Date"] == "2024.05.01"
    assert first.record.started.date().isoformat() == "2024-05-01"
    second = read_pgn(ARCHIVE, 1)
    assert second.record.move_list() == "f5f6e6f4" and second.tags["White"] == "W"
    assert [g.record.move_list() for g in read_pgn_all(ARCHIVE)] == ["f5d6c3d3c4f4", "f5f6e6f4"]
    with pytest.raises(FormatError, match="2 games"):
        read_pgn(ARCHIVE, 2)


def test_passes_are_implied_or_written() -> None:
    game = game_with_a_pass()
    squares = game.move_list()
    implied = read_game(squares)
    assert implied.record.game().plies == game.plies
    written = " ".join(
        "pass" if m == PASS else f"{'abcdefgh'[m % 8]}{m // 8 + 1}" for m in game.moves
    )
    assert read_pgn(written).record.game().plies == game.plies


def test_a_pass_where_the_rules_do_not_force_one_is_refused() -> None:
    with pytest.raises(FormatError, match="pass after move 1 is not allowed"):
        read_pgn("1. f5 pass d6")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("1. f5 d6 2. c3 c3", "move 4 (c3) is not legal: c3 is taken"),
        ("1. f5 d6 2. a1", "move 3 (a1) is not legal: it flips nothing for Black"),
        ("1. F5 D6 2. Z9", "'Z9' is not a move"),
    ],
)
def test_an_illegal_move_names_its_number_and_square(text: str, words: str) -> None:
    with pytest.raises(FormatError) as caught:
        read_game(text)
    assert words in str(caught.value)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('[Event "x', 'line 1: unterminated tag [Event "x'),
        ('[Event "x"', 'line 1: unterminated tag [Event "x"'),
        ('[Event "e"]\r\n[Black "a\r\n\r\n1. f5 d6 *\r\n', 'line 2: unterminated tag [Black "a'),
        ('% a comment line\n[Event "e"]\n[Black a]\n\n1. f5 *\n', "line 3: [Black a] is not a tag"),
    ],
    ids=["truncated", "no bracket", "later line", "unquoted"],
)
def test_a_broken_tag_is_named_with_its_line_not_taken_for_a_move(text: str, words: str) -> None:
    with pytest.raises(FormatError) as caught:
        read_game(text)
    message = str(caught.value)
    assert message.startswith(words) and "not a move" not in message and "\n" not in message


def test_a_result_that_disagrees_with_the_board_is_refused() -> None:
    game = random_game(3)
    outcome = game.outcome()
    assert outcome is not None
    good = write_pgn(record(game))
    assert read_pgn(good).record.result == Result.from_board(outcome)
    bad = good.replace(f'"{outcome.black}-{outcome.white}"', '"64-0"')
    with pytest.raises(FormatError, match="does not match the moves"):
        read_pgn(bad)


def test_our_pgn_keeps_players_handicap_and_date() -> None:
    start = handicap_position(2, Color.WHITE)
    game = random_game(7, start=start, plies=20)
    ours = record(game, PlayerSpec.human(), PlayerSpec.computer("hard", 2.0))
    text = write_pgn(ours, {"Black": "alice"})
    assert f'[Position "{format_position(start)}"]' in text
    assert '[Black "alice"]' in text and '[WhitePlayer "hard/2s"]' in text
    back = read_pgn(text)
    assert back.ours
    assert back.record.start == start and back.record.moves == ours.moves
    # The person is known by the name the file gives: never credited to whoever opens it.
    assert (back.record.black, back.record.white) == (PlayerSpec.person("alice"), ours.white)
    assert back.record.started.date() == WHEN.astimezone().date()
    assert max(len(line) for line in text.splitlines()) <= 80


#: A game as the first releases wrote it: players as ``human`` or ``computer LEVEL [SECONDS]``.
OLD_PGN = (
    '[Event "reversi-tui game"]\n[Date "2026.11.23"]\n[Black "Computer (easy)"]\n'
    '[White "Computer (hard)"]\n[Result "*"]\n[BlackPlayer "computer easy"]\n'
    '[WhitePlayer "computer hard 2"]\n\n1. f5 d6 2. c3 *\n'
)


def test_the_player_tags_of_the_first_releases_read_the_same() -> None:
    old = read_pgn(OLD_PGN)
    assert old.ours
    assert old.record.black == PlayerSpec.computer("easy")
    assert old.record.white == PlayerSpec.computer("hard", 2.0)
    human = read_pgn(OLD_PGN.replace("computer easy", "human"))
    assert human.record.black == PlayerSpec.person("Computer (easy)")


@pytest.mark.parametrize(
    "spec",
    [
        PlayerSpec.human(),
        PlayerSpec.computer("expert", 0.25, 7),
        PlayerSpec.computer("medium", depth=3),
        PlayerSpec.from_text('gtp:edax -gtp "x y"'),
        PlayerSpec.from_text("engine:Edax 4.4"),
    ],
)
def test_every_player_goes_through_a_pgn_tag_and_back(spec: PlayerSpec) -> None:
    text = write_pgn(record(random_game(5, plies=10), spec, PlayerSpec.human()))
    assert f'[BlackPlayer "{spec.shared_text}"]' in text
    back = read_pgn(text).record.black
    assert back == PlayerSpec.from_text(spec.shared_text) and back.recorded
    assert not back.runs_program


def test_an_engine_is_written_by_its_name_never_its_command_line() -> None:
    engine = PlayerSpec.from_text("gtp:/usr/games/gtp-rhino -l 5 --secret=xyz")
    text = write_pgn(record(random_game(5, plies=10), engine, PlayerSpec.human()))
    assert "secret" not in text and "-l 5" not in text
    assert '[BlackPlayer "engine:gtp-rhino"]' in text
    assert '[Black "GTP engine (gtp-rhino)"]' in text


@pytest.mark.parametrize("tag", ["Kasparov", "computer godlike", "computer hard fast", "hard/9"])
def test_a_player_tag_that_is_not_ours_reads_as_a_person(tag: str) -> None:
    text = OLD_PGN.replace("computer easy", tag)
    assert read_pgn(text).record.black == PlayerSpec.person("Computer (easy)")


# --- GGF -----------------------------------------------------------------------------


GGS = (
    "(;GM[Othello]PC[GGS/os]DT[2003.12.15_10:23:44.CET]PB[Saio1200]PW[Saio3000]RE[+0.000]"
    f"TI[05:00//02:00]TY[8]BO[{START_BO}]B[f5//0.01]W[d6/-1.00/0.24]B[c3//0.01]W[d3]"
    "B[c4/2.5/1.0];)\n"
    "(;GM[Othello]PB[a]PW[b]TY[8]"
    "BO[8 ---------------------------O*------*O--------------------------- *]B[d3]W[c5];)\n"
)


def test_ggs_games_with_times_evals_and_several_per_file() -> None:
    first = read_ggf(GGS)
    assert first.record.move_list() == "f5d6c3d3c4"
    assert first.tags["Black"] == "Saio1200" and first.tags["TI"] == "05:00//02:00"
    assert first.tags["RE"] == "+0.000"
    assert read_ggf(GGS, 1).record.move_list() == "d3c5"
    assert len(read_ggf_all(GGS)) == 2


def test_ggf_passes_are_written_pa_and_read_in_any_case() -> None:
    game = game_with_a_pass()
    text = write_ggf(record(game))
    assert "[PA]" in text
    assert read_ggf(text).record.game().plies == game.plies
    assert read_ggf(text.replace("[PA]", "[pass]")).record.game().plies == game.plies
    outcome = game.outcome()
    assert outcome is not None
    assert f"RE[{outcome.black - outcome.white:+.3f}]" in text


def test_ggf_move_of_the_wrong_colour_is_refused() -> None:
    text = f"(;GM[Othello]TY[8]BO[{START_BO}]B[f5]B[d6];)"
    with pytest.raises(FormatError, match="move 2 \\(d6\\) is Black's, but White is to move"):
        read_ggf(text)


def test_ggf_other_board_sizes_are_refused() -> None:
    with pytest.raises(FormatError, match="8x8"):
        read_ggf("(;GM[Othello]TY[10]BO[10 " + "-" * 100 + " *]B[f5];)")


# --- Every format, both ways ------------------------------------------------------


@settings(max_examples=30)
@given(seed=st.integers(0, 10**6), plies=st.integers(0, 70))
def test_random_games_round_trip_through_every_format(seed: int, plies: int) -> None:
    game = random_game(seed, plies=plies)
    original = record(game, PlayerSpec.computer("easy"), PlayerSpec.human())
    for fmt in ("pgn", "ggf", "moves") if game.moves else ("pgn", "ggf"):
        back = read_game(write_game(original, fmt)).record
        assert back.game().plies == game.plies, fmt
        assert back.result == original.result
    assert read_game(write_pgn(original)).record.black == original.black


def test_the_moves_of_a_handicap_game_carry_its_start_and_replay() -> None:
    """A move list alone replays from the usual start: a handicap game's is led by its
    start position, in the form the commands, --load and convert read back."""
    start = handicap_position(2, Color.WHITE)
    game = random_game(5, start=start, plies=12)
    text = write_game(record(game), "moves")
    assert text == f"{format_position(start)} {game.move_list()}\n"
    assert text.rstrip() == moves_text(game.start, game.moves)
    back = read_game(text).record
    assert back.start == start and back.game().plies == game.plies
    assert parse_moves_text(text).plies == game.plies
    usual = Game.from_moves(None, parse_move_list("f5d6"))
    assert write_game(record(usual), "moves") == "f5d6\n"  # the usual start: as before
    assert moves_text(start, []) == format_position(start)


@pytest.mark.parametrize(
    ("text", "position", "words"),
    [
        ("f5f5", False, "f5"),
        (f"{format_position(handicap_position(1, Color.BLACK))} f5a1", False, "a1"),
        ("nonsense X f5", True, "64 characters"),
    ],
)
def test_moves_text_that_does_not_replay_is_refused(text: str, position: bool, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        parse_moves_text(text, position=position)


def test_position_format_says_who_moves_or_dash_when_over() -> None:
    live = record(Game.from_moves(None, parse_move_list("f5d6")))
    assert write_game(live, "position") == format_position(live.game().position) + "\n"
    over = record(random_game(11))
    assert write_game(over, "position").rstrip().endswith(" -")
    start = read_game(format_position(Position.initial()))
    assert start.record.moves == () and start.record.start == Position.initial()


def test_text_that_is_no_game_is_refused() -> None:
    with pytest.raises(FormatError, match="not a game file"):
        read_game("hello, world")


# --- The registry -------------------------------------------------------------------


def test_each_format_is_declared_once() -> None:
    assert FORMAT_NAMES == ("pgn", "ggf", "moves", "position")  # convert --to's, in order
    assert [fmt.name for fmt in SAVED_FORMATS] == ["pgn", "ggf"]  # the default first
    suffixes = [suffix for fmt in FORMATS for suffix in fmt.suffixes]
    assert len(set(suffixes)) == len(suffixes) == 2
    assert len({fmt.rank for fmt in FORMATS}) == len(FORMATS)
    for fmt in FORMATS:
        assert format_named(fmt.name) is fmt
        for suffix in fmt.suffixes:
            assert suffix == suffix.lower() and format_of_suffix(suffix.upper()) is fmt
    assert format_of_suffix(".txt") is None and format_of_suffix("") is None


@pytest.mark.parametrize("fmt", FORMATS, ids=FORMAT_NAMES)
def test_each_format_reads_back_as_itself(fmt: GameFormat) -> None:
    """What a format writes, the reader tells as that format (no other sniffs first)."""
    game = record(random_game(3, plies=12), PlayerSpec.computer("easy"))
    text = write_game(game, fmt.name)
    sniffed = [f for f in sorted(FORMATS, key=lambda f: f.rank) if f.sniff(text)]
    assert sniffed[0] is fmt
    back = read_game(text).record
    if fmt.name == "position":
        assert back.start == game.game().position
    else:
        assert back.game().plies == game.game().plies


def test_an_unknown_format_names_the_choices() -> None:
    with pytest.raises(ValueError, match="choose from pgn, ggf, moves, position"):
        write_game(record(random_game(3, plies=4)), "sgf")


@pytest.mark.parametrize("loser", [Color.BLACK, Color.WHITE])
def test_a_resigned_game_is_written_with_its_score_and_reads_back_resigned(loser: Color) -> None:
    from reversi_tui.match.record import Termination

    game = Game.from_moves(None, parse_move_list("f5d6c3d3c4"))
    result = Result.forfeit(loser, Termination.RESIGNATION, game.position.outcome())
    record = GameRecord.of(game, {c: PlayerSpec.human() for c in Color}, result=result)
    text = write_pgn(record)
    score = "{}-{}".format(*result.final_score)
    assert f'[Result "{score}"]' in text and '[Termination "resignation"]' in text
    back = read_pgn(text).record
    assert back.result is not None
    assert back.result.termination is Termination.RESIGNATION
    assert back.result.winner is loser.opponent
    assert back.result.final_score == result.final_score
    assert back.moves == record.moves


@pytest.mark.parametrize("tag", ["computer hard 86400", "hard/1e9s"])
def test_a_file_cannot_make_the_computer_think_for_days(tag: str) -> None:
    """A PGN's player tag asking for more than an hour a move plays at an hour (issue 17)."""
    text = OLD_PGN.replace("computer easy", tag)
    black = read_pgn(text).record.black
    assert black.level == "hard" and black.think_time == 3600.0
