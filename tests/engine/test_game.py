import pytest

from reversi_tui.engine import (
    PASS,
    Color,
    Game,
    IllegalMoveError,
    Outcome,
    Position,
    handicap_position,
    parse_square,
    square_name,
)
from reversi_tui.engine.notation import parse_move_list

WIPEOUT = ["d3", "c3", "b3", "d2", "e1", "d6", "d7", "e3", "f4"]


def play_all(game: Game, moves: list[str]) -> None:
    for m in moves:
        game.play(parse_square(m))


def test_start_position() -> None:
    pos = Position.initial()
    assert pos.color_at(parse_square("d4")) is Color.WHITE
    assert pos.color_at(parse_square("e5")) is Color.WHITE
    assert pos.color_at(parse_square("d5")) is Color.BLACK
    assert pos.color_at(parse_square("e4")) is Color.BLACK
    assert pos.turn is Color.BLACK
    assert [square_name(m) for m in pos.legal_moves] == ["d3", "c4", "f5", "e6"]


def test_illegal_moves_raise_value_errors() -> None:
    game = Game()
    with pytest.raises(IllegalMoveError):
        game.play(parse_square("d4"))  # occupied
    with pytest.raises(IllegalMoveError):
        game.play(parse_square("a1"))  # outflanks nothing
    with pytest.raises(ValueError):
        game.play(PASS)  # passes are never voluntary
    assert game.position == Position.initial()


def test_last_move_and_flips() -> None:
    game = Game()
    game.play(parse_square("d3"))
    last = game.last_move
    assert last is not None and last.move == parse_square("d3")
    assert last.flipped == 1 << parse_square("d4")
    assert game.move_number == 2
    assert game.move_list() == "d3"


def test_undo_redo_round_trip() -> None:
    game = Game()
    play_all(game, ["f5", "d6", "c3"])
    after = game.position
    assert [square_name(p.move) for p in game.undo()] == ["c3"]
    assert [square_name(p.move) for p in game.undo()] == ["d6"]
    assert game.can_redo
    game.redo()
    game.redo()
    assert game.position == after
    assert not game.can_redo
    game.undo()
    game.play(parse_square("c5"))  # a new move drops the redo line
    assert not game.can_redo


def test_wipeout_ends_game_with_empties_to_winner() -> None:
    game = Game()
    play_all(game, WIPEOUT)
    assert game.is_over
    outcome = game.outcome()
    assert (outcome.black, outcome.white) == (13, 0)
    assert outcome.winner is Color.BLACK
    assert outcome.final_score == (64, 0)
    assert outcome.margin == 13


def test_forced_pass_is_recorded_and_undone_with_its_move() -> None:
    moves = ["f5", "d6", "c7", "f3", "d3", "c6", "b6", "c2", "b1", "b7", "a8"]
    game = Game()
    play_all(game, moves)
    assert game.plies[-1].is_pass and game.plies[-1].color is Color.WHITE
    assert game.turn is Color.BLACK
    taken = game.undo()
    assert [p.move for p in taken] == [parse_square("a8"), PASS]
    assert game.turn is Color.BLACK
    assert game.redo() == list(taken)


def test_outcome_tie_splits_empties() -> None:
    assert Outcome(30, 30).final_score == (32, 32)
    assert Outcome(31, 30).final_score == (34, 30)
    assert Outcome(20, 40).final_score == (20, 44)
    assert Outcome(30, 30).winner is None


@pytest.mark.parametrize("corners", [1, 2, 3, 4])
@pytest.mark.parametrize("colour", [Color.BLACK, Color.WHITE])
def test_handicap_corners(corners: int, colour: Color) -> None:
    pos = handicap_position(corners, colour)
    order = ["a1", "h8", "h1", "a8"]
    for i, name in enumerate(order):
        expected = colour if i < corners else None
        assert pos.color_at(parse_square(name)) is expected
    assert pos.turn is Color.BLACK
    assert Game.with_handicap(corners, colour).position == pos


def test_handicap_out_of_range() -> None:
    with pytest.raises(ValueError):
        handicap_position(5, Color.BLACK)


def test_game_from_position_that_must_pass_starts_with_pass() -> None:
    start = Position(black=1 << 0, white=1 << 63, turn=Color.WHITE)  # a1 and h8: nobody can move
    game = Game(start)
    assert game.is_over  # neither side can move: no pass recorded
    assert game.plies == ()
    start = Position(
        black=1 << 0, white=1 << 1, turn=Color.WHITE
    )  # a1 black, b1 white: white stuck
    game = Game(start)
    assert [p.move for p in game.plies] == [PASS]
    assert game.turn is Color.BLACK
    assert not game.can_undo


# Game.from_moves: replaying records ---------------------------------------------------

#: A finished game with one forced pass: white has no move after a8, black ends it with g2.
PASS_GAME = ["f5", "d6", "c7", "f3", "d3", "c6", "b6", "c2", "b1", "b7", "a8", "pass", "g2"]


def squares(names: list[str]) -> list[int]:
    return [PASS if name == "pass" else parse_square(name) for name in names]


def test_from_moves_replays_written_passes() -> None:
    game = Game.from_moves(None, squares(PASS_GAME))
    assert [square_name(m) for m in game.moves] == PASS_GAME
    assert game.plies[11].is_pass and game.plies[11].color is Color.WHITE
    assert game.is_over
    played = Game()
    play_all(played, [m for m in PASS_GAME if m != "pass"])
    assert game.plies == played.plies


def test_from_moves_implied_passes_give_identical_plies() -> None:
    written = Game.from_moves(None, squares(PASS_GAME))
    implied = Game.from_moves(None, squares([m for m in PASS_GAME if m != "pass"]))
    assert implied.plies == written.plies
    assert implied.position == written.position


def test_from_moves_unforced_pass_names_the_ply() -> None:
    with pytest.raises(IllegalMoveError, match=r"\bply 2\b"):
        Game.from_moves(None, squares(["d3", "pass", "c3"]))
    with pytest.raises(ValueError, match=r"\bply 1\b"):
        Game.from_moves(None, [PASS])
    # One forced pass may be written once, not twice.
    with pytest.raises(IllegalMoveError, match=r"\bply 13\b"):
        Game.from_moves(None, squares([*PASS_GAME[:12], "pass", "g2"]))


def test_from_moves_illegal_square_names_the_ply() -> None:
    with pytest.raises(IllegalMoveError, match=r"\bply 3\b"):
        Game.from_moves(None, squares(["d3", "c3", "d4"]))  # d4 is taken
    with pytest.raises(ValueError, match=r"\bply 1\b"):
        Game.from_moves(None, squares(["a1"]))  # flips nothing
    with pytest.raises(IllegalMoveError, match=r"\bply 10\b"):
        Game.from_moves(None, squares([*WIPEOUT, "a1"]))  # the game is over


def test_from_moves_forced_pass_at_the_start() -> None:
    start = Position(black=1 << 0, white=1 << 1, turn=Color.WHITE)  # a1 black, b1 white
    c1 = parse_square("c1")
    written = Game.from_moves(start, [PASS, c1])
    implied = Game.from_moves(start, [c1])
    assert written.moves == implied.moves == [PASS, c1]
    assert written.plies == implied.plies
    assert written.plies[0].color is Color.WHITE and written.plies[1].color is Color.BLACK
    assert written.position == Position(black=0b111, white=0, turn=Color.WHITE)
    assert Game.from_moves(start, []).moves == [PASS]
    with pytest.raises(IllegalMoveError, match=r"\bply 2\b"):
        Game.from_moves(start, [PASS, PASS, c1])


def test_outcome_is_none_until_the_end() -> None:
    game = Game.from_moves(None, squares(WIPEOUT[:-1]))
    assert not game.is_over
    assert game.outcome() is None
    game.play(parse_square(WIPEOUT[-1]))
    assert game.outcome() == Outcome(13, 0)
    assert Game.from_moves(None, squares(PASS_GAME)).outcome() == Outcome(16, 0)


def test_redo_moves_rebuild_the_same_redo_stack() -> None:
    game = Game.from_moves(None, parse_move_list("f5d6c3d3c4f4"))
    game.undo()
    game.undo()
    redo = game.redo_moves
    assert redo == [parse_square("c4"), parse_square("f4")]
    rebuilt = Game.from_moves(None, [*game.moves, *redo])
    for _ in redo:
        rebuilt.undo()
    assert rebuilt.plies == game.plies and rebuilt.redo_moves == redo
    rebuilt.redo()
    assert rebuilt.moves == parse_move_list("f5d6c3d3c4")
