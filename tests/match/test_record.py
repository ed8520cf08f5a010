"""Game records: every finished golden game, a handicap game and games with passes
round-trip through the move list and the JSON form; bad records are rejected."""

import json
import random
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from reversi_tui.engine import (
    PASS,
    Color,
    Game,
    NotationError,
    Outcome,
    Position,
    parse_rowcol,
    parse_square,
)
from reversi_tui.engine.notation import parse_move_list
from reversi_tui.match import (
    GameRecord,
    MatchSettings,
    PlayerSpec,
    RecordError,
    Result,
    Termination,
)
from reversi_tui.match.record import parse_moves

PLAIN = Path(__file__).parent.parent / "data" / "plain"
STARTED = datetime(2024, 5, 17, 12, 30, 5, 250000, tzinfo=UTC)
WIPEOUT = ["d3", "c3", "b3", "d2", "e1", "d6", "d7", "e3", "f4"]
PLAYERS = {
    Color.BLACK: PlayerSpec.human(),
    Color.WHITE: PlayerSpec.computer("hard", think_time=0.5, depth=6),
}


def replay_line_mode(data: bytes, game: Game) -> Game:
    """Play the lines the line mode would accept: RowCol text legal where it is typed."""
    for raw in data.splitlines():
        if game.is_over:
            break
        try:
            sq = parse_rowcol(raw.strip().decode("ascii"))
        except (NotationError, UnicodeDecodeError):
            continue
        if game.position.is_legal(sq):
            game.play(sq)
    return game


def golden_games() -> dict[str, Game]:
    games = {path.stem: replay_line_mode(path.read_bytes(), Game()) for path in PLAIN.glob("*.in")}
    return {name: game for name, game in sorted(games.items()) if game.is_over}


def handicap_game(seed: int | None) -> Game:
    """A finished game from a two-corner handicap for white: first legal moves, or seeded."""
    settings = MatchSettings(handicap=2, handicap_colour=Color.WHITE)
    game = Game(settings.start_position())
    assert game.start == Game.with_handicap(2, Color.WHITE).start
    rng = random.Random(seed)
    while not game.is_over:
        moves = game.legal_moves
        game.play(moves[0] if seed is None else rng.choice(moves))
    return game


def all_games() -> dict[str, Game]:
    games = golden_games()
    games["handicap"] = handicap_game(None)
    games["handicap-random"] = handicap_game(3)
    return games


GAMES = all_games()


def test_the_golden_finished_games_are_found() -> None:
    # The line mode's own tests say these three end; the replay must agree.
    assert {"wipeout", "passes", "draw"} <= set(GAMES)
    assert "example" not in GAMES and "invalid" not in GAMES
    assert GAMES["wipeout"].outcome() == Outcome(13, 0)
    assert GAMES["draw"].outcome().winner is None
    with_pass = [name for name, game in GAMES.items() if any(p.is_pass for p in game.plies)]
    assert "passes" in with_pass and "handicap-random" in with_pass


@pytest.mark.parametrize("name", sorted(GAMES))
def test_move_list_round_trip(name: str) -> None:
    game = GAMES[name]
    text = game.move_list()
    assert "pass" not in text and len(text) == 2 * sum(not p.is_pass for p in game.plies)
    moves = parse_move_list(text, game.start)
    assert moves == game.moves  # the passes are put back where they were
    again = Game.from_moves(game.start, moves)
    assert again.plies == game.plies
    assert again.position == game.position
    assert again.start == game.start


@pytest.mark.parametrize("name", sorted(GAMES))
def test_json_round_trip(name: str) -> None:
    game = GAMES[name]
    record = GameRecord.of(game, PLAYERS, started=STARTED)
    assert record.result == Result.from_board(game.outcome())
    assert record.ended is not None
    data = json.loads(json.dumps(record.to_dict()))
    back = GameRecord.from_dict(data)
    assert back == record
    assert back.game().plies == game.plies
    assert back.game().position == game.position


def test_unfinished_and_forfeited_records_round_trip() -> None:
    game = Game.from_moves(None, [parse_square(m) for m in WIPEOUT[:4]])
    unfinished = GameRecord.of(game, PLAYERS, started=STARTED)
    assert unfinished.result is None and unfinished.ended is None
    assert GameRecord.from_dict(json.loads(json.dumps(unfinished.to_dict()))) == unfinished
    resigned = unfinished.finished(
        Result.forfeit(Color.WHITE, Termination.RESIGNATION, game.position.outcome())
    )
    back = GameRecord.from_dict(json.loads(json.dumps(resigned.to_dict())))
    assert back == resigned
    assert back.result is not None and back.result.winner is Color.BLACK


# Rejected records ----------------------------------------------------------------------


def wipeout_dict() -> dict[str, Any]:
    game = Game.from_moves(None, [parse_square(m) for m in WIPEOUT])
    return json.loads(json.dumps(GameRecord.of(game, PLAYERS, started=STARTED).to_dict()))


def test_the_fixture_dict_loads() -> None:
    record = GameRecord.from_dict(wipeout_dict())
    assert record.result == Result(Termination.NORMAL, Color.BLACK, Outcome(13, 0))


def test_from_dict_rejects_an_illegal_move() -> None:
    data = wipeout_dict()
    data["moves"][2] = "d4"  # taken
    with pytest.raises(RecordError, match=r"\bply 3\b"):
        GameRecord.from_dict(data)
    data = wipeout_dict()
    data["moves"][1] = "pass"  # not forced
    with pytest.raises(RecordError):
        GameRecord.from_dict(data)
    data = wipeout_dict()
    data["moves"][0] = "z9"
    with pytest.raises(RecordError):
        GameRecord.from_dict(data)


@pytest.mark.parametrize("key", ["start", "moves", "black", "white", "result", "started", "ended"])
def test_from_dict_rejects_a_missing_field(key: str) -> None:
    data = wipeout_dict()
    del data[key]
    with pytest.raises(RecordError):
        GameRecord.from_dict(data)


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("moves",), "d3c3b3d2e1d6d7e3f4"),
        (("moves",), 7),
        (("start",), 12),
        (("start",), "not a position"),
        (("black",), "robot"),
        (("black",), 7),
        (("black",), None),
        (("white",), "hard/fast"),
        (("white",), "grandmaster"),
        (("white",), "gtp:"),
        (("result",), "black"),
        (("result", "black"), "many"),
        (("result", "winner"), "green"),
        (("result", "termination"), "boredom"),
        (("started",), 1715949005),
        (("ended",), "yesterday"),
    ],
)
def test_from_dict_rejects_a_wrong_type(path: tuple[str, ...], value: object) -> None:
    data = wipeout_dict()
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(RecordError):
        GameRecord.from_dict(data)


def old_wipeout_dict(data: dict[str, Any] | None = None) -> dict[str, Any]:
    """The wipeout as the first releases wrote it: each player a dict of its fields."""
    data = wipeout_dict() if data is None else json.loads(json.dumps(data))
    data["black"] = {"kind": "human", "level": "medium", "think_time": None, "depth": None}
    data["white"] = {"kind": "computer", "level": "hard", "think_time": 0.5, "depth": 6}
    return data


def test_players_are_written_in_their_text_form() -> None:
    data = wipeout_dict()
    assert (data["black"], data["white"]) == ("human", "hard/0.5s/6ply")


def test_a_record_of_the_first_releases_reads_the_same() -> None:
    new = wipeout_dict()
    record = GameRecord.from_dict(old_wipeout_dict(new))
    assert record == GameRecord.from_dict(new)
    assert (record.black, record.white) == (PLAYERS[Color.BLACK], PLAYERS[Color.WHITE])
    older = old_wipeout_dict()
    del older["white"]["depth"]  # before fixed depths
    assert GameRecord.from_dict(older).white == PlayerSpec.computer("hard", think_time=0.5)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("think_time", "fast"),
        ("think_time", True),
        ("depth", 2.5),
        ("kind", "robot"),
        ("level", "grandmaster"),
    ],
)
def test_from_dict_rejects_a_wrong_field_of_an_old_player(key: str, value: object) -> None:
    data = old_wipeout_dict()
    data["white"][key] = value
    with pytest.raises(RecordError):
        GameRecord.from_dict(data)


@pytest.mark.parametrize(
    ("path", "value", "where"),
    [
        (("moves", 2), "z9", "$.moves[2]"),
        (("moves", 0), None, "$.moves[0]"),
        (("moves",), "d3c3", "$.moves"),
        (("start",), "not a position", "$.start"),
        (("black",), "robot", "$.black"),
        (
            ("white",),
            {"kind": "computer", "level": "hard", "think_time": True},
            "$.white.think_time",
        ),
        (("white",), {"kind": "robot", "level": "hard", "think_time": None}, "$.white.kind"),
        (("result", "black"), "many", "$.result.black"),
        (("result", "white"), 65, "$.result.white"),
        (("result", "termination"), "boredom", "$.result.termination"),
        (("result", "winner"), "white", "$.result"),
        (("ended",), "yesterday", "$.ended"),
    ],
)
def test_a_wrong_field_is_named_by_its_path(
    path: tuple[Any, ...], value: object, where: str
) -> None:
    data = wipeout_dict()
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(RecordError, match=re.escape(f" - at `{where}`")) as raised:
        GameRecord.from_dict(data)
    assert "\n" not in str(raised.value)


def test_fields_a_later_release_may_add_are_let_be() -> None:
    plain = wipeout_dict()
    data = json.loads(json.dumps(plain))
    data["event"] = "club night"
    data["result"]["margin"] = 13
    assert GameRecord.from_dict(data) == GameRecord.from_dict(plain)
    old = old_wipeout_dict()
    old["white"]["colour"] = "red"
    assert GameRecord.from_dict(old).white == PLAYERS[Color.WHITE]


def test_the_moves_of_records_and_saves_have_one_parser() -> None:
    assert parse_moves(["d3", "pass", "C5"]) == (parse_square("d3"), PASS, parse_square("c5"))
    with pytest.raises(RecordError, match=re.escape("- at `$.redo[1]`")):
        parse_moves(["d3", "d9"], "$.redo")


def test_from_dict_rejects_a_result_that_does_not_match_the_board() -> None:
    data = wipeout_dict()
    data["result"]["black"] = 12
    with pytest.raises(RecordError, match="result"):
        GameRecord.from_dict(data)
    data = wipeout_dict()
    data["moves"] = data["moves"][:-1]  # not over: the board has no result yet
    with pytest.raises(RecordError, match="result"):
        GameRecord.from_dict(data)


def test_from_dict_rejects_a_normal_result_with_the_wrong_winner() -> None:
    data = wipeout_dict()
    data["result"]["winner"] = "white"  # discs 13-0 stay right; the winner is wrong
    with pytest.raises(RecordError):
        GameRecord.from_dict(data)


def test_from_dict_rejects_a_forfeit_without_a_winner() -> None:
    data = wipeout_dict()
    data["moves"] = data["moves"][:4]
    resigned = {"termination": "resignation", "winner": "black", "black": 4, "white": 4}
    data["result"] = resigned
    assert GameRecord.from_dict(data).result.summary == "Black wins by resignation"
    data["result"] = {**resigned, "winner": None}  # a forfeit always has a winner
    with pytest.raises(RecordError):
        GameRecord.from_dict(data)


def test_from_dict_rejects_a_forfeit_whose_discs_are_not_the_board() -> None:
    data = wipeout_dict()
    data["moves"] = data["moves"][:4]  # 4-4 on the board
    data["result"] = {"termination": "resignation", "winner": "black", "black": 60, "white": 0}
    with pytest.raises(RecordError):
        GameRecord.from_dict(data)


def test_from_dict_rejects_a_finished_game_without_a_result() -> None:
    data = wipeout_dict()
    data["result"] = None
    data["ended"] = None
    with pytest.raises(RecordError, match="no result"):
        GameRecord.from_dict(data)


def test_record_game_rejects_moves_that_do_not_replay() -> None:
    record = GameRecord(Position.initial(), (parse_square("d3"), PASS), *PLAYERS.values())
    with pytest.raises(RecordError, match=r"\bply 2\b"):
        record.game()


# Results ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("discs", "score"),
    [
        (Outcome(13, 0), (64, 0)),
        (Outcome(20, 40), (20, 44)),
        (Outcome(33, 30), (34, 30)),
        (Outcome(30, 30), (32, 32)),
        (Outcome(29, 30), (29, 35)),
        (Outcome(32, 32), (32, 32)),
        (Outcome(29, 29), (32, 32)),
    ],
)
def test_final_score_gives_the_empties_to_the_winner(
    discs: Outcome, score: tuple[int, int]
) -> None:
    assert Result.from_board(discs).final_score == score


def test_forfeit_makes_the_other_side_the_winner() -> None:
    discs = Outcome(40, 10)
    resigned = Result.forfeit(Color.BLACK, Termination.RESIGNATION, discs)
    assert resigned.winner is Color.WHITE
    assert resigned.termination is Termination.RESIGNATION
    assert resigned.discs == discs
    assert resigned.final_score == (40, 24)  # every square black does not hold
    timed = Result.forfeit(Color.WHITE, Termination.TIME_FORFEIT, discs)
    assert timed.winner is Color.BLACK
    assert timed.final_score == (54, 10)
    with pytest.raises(ValueError):
        Result.forfeit(Color.BLACK, Termination.NORMAL, discs)


def test_result_summaries() -> None:
    assert Result.from_board(Outcome(40, 24)).summary == "Black wins, 40-24"
    assert Result.from_board(Outcome(20, 43)).summary == "White wins, 20-43"
    assert Result.from_board(Outcome(32, 32)).summary == "Draw, 32-32"
    discs = Outcome(10, 30)
    assert (
        Result.forfeit(Color.BLACK, Termination.RESIGNATION, discs).summary
        == "White wins by resignation"
    )
    assert (
        Result.forfeit(Color.WHITE, Termination.TIME_FORFEIT, discs).summary
        == "Black wins by time forfeit"
    )
