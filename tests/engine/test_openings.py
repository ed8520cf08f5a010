"""Opening names: the packaged file, lookup by position under the start's symmetries."""

from __future__ import annotations

import random
from importlib import resources

import pytest

from reversi_tui.engine import PASS, Color, Game, IllegalMoveError, Move, Position, parse_square
from reversi_tui.engine.ai.patterns import SYMMETRIES, transform_mask
from reversi_tui.engine.game import handicap_position
from reversi_tui.engine.openings import (
    RESOURCE,
    Opening,
    load_openings,
    opening_for,
    packaged_openings,
    position_key,
)

#: The symmetries that keep the start position: identity, half turn, the two diagonals.
START_SYMMETRIES = [SYMMETRIES[i] for i in (0, 3, 4, 5)]


def _text() -> str:
    return resources.files("reversi_tui.engine").joinpath(RESOURCE).read_text(encoding="utf-8")


def _entries() -> list[tuple[int, str, str]]:
    """(line number, moves, name) of each line of the packaged file that is not a comment."""
    entries = []
    for number, line in enumerate(_text().splitlines(), 1):
        if line.strip() and not line.startswith("#"):
            moves, name = line.split(" ", 1)
            entries.append((number, moves, name))
    return entries


def _moves(text: str) -> list[Move]:
    return [parse_square(text[i : i + 2]) for i in range(0, len(text), 2)]


def _mapped(moves: list[Move], symmetry: int) -> list[Move]:
    """The moves under one of the start's symmetries (by row and column, not bit tricks)."""
    image = START_SYMMETRIES[symmetry]
    out = []
    for sq in moves:
        r, c = image(*divmod(sq, 8))
        out.append(r * 8 + c)
    return out


def _name(moves: list[Move]) -> str | None:
    found = opening_for(moves)
    return None if found is None else found.name


# The packaged file ------------------------------------------------------------------


def test_the_packaged_file_states_its_source() -> None:
    comments = " ".join(line for line in _text().splitlines() if line.startswith("#"))
    assert "compiled by reversi_tui from the common English names" in comments
    assert "Robert Gatliff's catalogue of Othello openings" in comments
    assert "sequences from the f5 start" in comments


def test_the_packaged_file_parses_with_enough_openings() -> None:
    table = packaged_openings()
    assert len(_entries()) >= 70
    assert len(table) == len(_entries())


def test_every_line_is_legal_from_the_start_and_opens_with_f5() -> None:
    for number, moves, name in _entries():
        assert moves == moves.lower() and moves.startswith("f5"), number
        assert name.isascii() and name == name.strip(), number
        game = Game.from_moves(None, _moves(moves))  # raises on an illegal move
        assert game.move_list() == moves, number


def test_no_two_lines_name_the_same_position() -> None:
    """Aliases share one line; two lines for one position would hide the second name."""
    seen: dict[tuple[int, int, Color], int] = {}
    for number, moves, name in _entries():
        (key,) = load_openings(f"{moves} {name}")
        assert key not in seen, f"line {number} reaches the position of line {seen[key]}"
        seen[key] = number


def test_every_line_is_named_by_its_own_moves() -> None:
    for number, moves, name in _entries():
        found = opening_for(_moves(moves))
        assert found is not None, number
        assert found.name == name, number
        assert found.moves == tuple(_moves(moves))
        assert found.plies == len(found.moves)


def test_well_known_lines() -> None:
    assert _name(_moves("f5d6")) == "Perpendicular"
    assert _name(_moves("f5f6")) == "Diagonal"
    assert _name(_moves("f5f4")) == "Parallel"
    assert _name(_moves("f5d6c3d3c4")) == "Tiger"
    assert _name(_moves("f5d6c5f4e3c6d3f6e6d7")) == "Rose"
    assert _name(_moves("f5f6e6f4c3")) == "Buffalo / Kenichi Variation"
    assert _name(_moves("f5f6e6f4g5")) == "Heath / Tobidashi"
    assert _name(_moves("f5f6e6f4g6")) == "Snake / Peasant"


# Lookup by position ------------------------------------------------------------------


@pytest.mark.parametrize("symmetry", range(4))
def test_the_tiger_is_the_tiger_from_each_first_move(symmetry: int) -> None:
    moves = _mapped(_moves("f5d6c3d3c4"), symmetry)
    assert moves[0] == parse_square(["f5", "c4", "e6", "d3"][symmetry])
    assert _name(moves) == "Tiger"


def test_the_four_first_moves_are_covered() -> None:
    firsts = {_mapped(_moves("f5d6c3d3c4"), s)[0] for s in range(4)}
    assert firsts == {parse_square(sq) for sq in ("f5", "d3", "c4", "e6")}


@pytest.mark.parametrize("symmetry", range(4))
def test_every_line_is_named_the_same_under_each_symmetry(symmetry: int) -> None:
    for number, moves, name in _entries():
        assert _name(_mapped(_moves(moves), symmetry)) == name, number


def test_a_transposed_move_order_gets_the_same_name() -> None:
    """The Tiger's third and fifth moves swapped (c4 before c3) reach the Tiger's position."""
    tiger, other = _moves("f5d6c3d3c4"), _moves("f5d6c4d3c3")
    assert tiger != other and _name(other[:3]) != "Tiger"
    assert Game.from_moves(None, tiger).position == Game.from_moves(None, other).position
    assert _name(other) == "Tiger"
    # The Cow from the parallel side: f5 f4 e3 f6 e6 is f5 f6 e6 f4 e3 in another order.
    assert _name(_moves("f5f4e3f6")) == "Parallel"
    assert _name(_moves("f5f4e3f6e6")) == "Cow"


def test_the_key_is_the_smallest_image_under_the_four_symmetries() -> None:
    rng = random.Random(21)
    for _ in range(300):
        black = rng.getrandbits(64)
        white = rng.getrandbits(64) & ~black
        turn = rng.choice(list(Color))
        images = [(transform_mask(black, s), transform_mask(white, s)) for s in START_SYMMETRIES]
        assert position_key(Position(black, white, turn)) == (*min(images), turn)


def test_the_side_to_move_is_part_of_the_key() -> None:
    pos = Game.from_moves(None, _moves("f5d6")).position
    turned = Position(pos.black, pos.white, pos.turn.opponent)
    assert position_key(pos) != position_key(turned)


# Games -------------------------------------------------------------------------------


def test_plies_and_moves_give_the_same_name() -> None:
    game = Game.from_moves(None, _moves("f5d6c5f4e3c6d3f6e6d7"))
    found = opening_for(game.plies)
    assert found is not None and found.name == "Rose"
    assert opening_for(game.moves) == found


def test_no_moves_and_the_first_move_alone_have_no_name() -> None:
    assert opening_for([]) is None
    assert opening_for(Game().plies) is None
    assert _name(_moves("f5")) is None


def test_the_deepest_name_stays_after_the_game_leaves_the_book() -> None:
    book = _moves("f5d6c3d3c4f4e3")
    assert _name(book) == "Brightwell"
    game = Game.from_moves(None, book)
    rng = random.Random(5)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves))
    assert len(game.plies) > len(book) + 40
    found = opening_for(game.plies)
    assert found is not None and found.name == "Brightwell"
    assert found.moves == tuple(book)


def test_the_deepest_of_several_names_wins() -> None:
    table = load_openings("f5d6 Short\nf5d6c3d3c4 Long\n")
    moves = _moves("f5d6c3d3c4f4c5")
    assert opening_for(moves[:1], table=table) is None
    assert [opening_for(moves[:n], table=table) for n in (2, 3, 4)] == [
        Opening("Short", tuple(moves[:2]), 2)
    ] * 3
    assert opening_for(moves, table=table) == Opening("Long", tuple(moves[:5]), 5)


def test_a_game_from_another_start_has_no_name() -> None:
    start = handicap_position(1, Color.BLACK)
    game = Game(start)
    for sq in ("f5", "d6", "c3", "d3", "c4"):
        game.play(parse_square(sq))
    assert opening_for(game.plies) is None
    assert opening_for(game.moves, start) is None
    # The same moves from the standard start are the Tiger, and so with start given.
    assert _name(game.moves) == "Tiger"
    tiger = opening_for(game.moves, Position.initial())
    assert tiger is not None and tiger.name == "Tiger"


def test_a_pass_that_is_not_forced_is_refused() -> None:
    table = load_openings("f5d6 Perpendicular\n")
    with pytest.raises(IllegalMoveError):
        opening_for([*_moves("f5d6"), PASS], table=table)


# Bad data ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("f5z9 Bad square", "move 2"),
        ("f5f5 Twice", "move 2 (f5) is not legal"),
        ("f5d6c3d3c4", "no name"),
        ("f5d6c3d3c4   ", "no name"),
        ("f5d Odd", "odd number"),
        ("e3 Not a first move", "move 1 (e3) is not legal"),
    ],
)
def test_a_bad_line_is_refused_naming_its_line(line: str, words: str) -> None:
    text = f"# a comment\n\nf5d6 Perpendicular\n{line}\n"
    with pytest.raises(ValueError, match="line 4") as caught:
        load_openings(text)
    assert words in str(caught.value)


def test_comments_and_blank_lines_are_skipped_and_the_first_line_wins() -> None:
    table = load_openings("# names\n\n  f5d6 First  \ne6f4 Same position, turned\n")
    assert [o.name for o in table.values()] == ["First"]
    found = opening_for(_moves("e6f4"), table=table)
    assert found is not None and found.name == "First"


def test_an_empty_table_names_nothing() -> None:
    assert opening_for(_moves("f5d6c3d3c4"), table={}) is None
