"""The board's drawing rules, checked as text: shapes must carry meaning without colour."""

from __future__ import annotations

from dataclasses import fields

import pytest

from reversi_tui.engine import Color, parse_square
from reversi_tui.tui.widgets.board_art import (
    ASCII,
    UNICODE,
    Glyphs,
    board_size,
    centred,
    cursor_marks,
    disc_art,
    fit,
)

from .helpers import make_app, ui


@pytest.mark.parametrize(("width", "height", "cell_h"), [(37, 19, 1), (53, 27, 2), (69, 35, 3)])
def test_fit_picks_the_largest_board_that_fits(width: int, height: int, cell_h: int) -> None:
    assert board_size(cell_h) == (width, height)
    assert fit(width, height).cell_h == cell_h
    assert fit(width - 1, height).cell_h == max(1, cell_h - 1)


def test_square_at_maps_cells_and_ignores_grid_lines() -> None:
    geo = fit(37, 19)
    for sq in (0, 7, 19, 56, 63):
        x, y = geo.cell_origin(sq)
        assert geo.square_at(x, y) == sq
        assert geo.square_at(x - 1, y) is None  # the grid line left of the cell
    assert geo.square_at(0, 0) is None


@pytest.mark.parametrize("cell_h", [2, 3, 4])
def test_big_discs_differ_by_fill_not_only_colour(cell_h: int) -> None:
    cell_w = 2 * cell_h + 1
    black = disc_art(Color.BLACK, cell_w, cell_h)
    white = disc_art(Color.WHITE, cell_w, cell_h)
    assert all(len(row) == cell_w for row in black + white)
    assert black != white
    assert sum(row.count("█") for row in black) > sum(row.count("█") for row in white)


def test_glyph_sets_tell_everything_apart() -> None:
    for glyphs in (UNICODE, ASCII):
        marks = {glyphs.black, glyphs.white, glyphs.legal, glyphs.empty}
        assert len(marks) == 4
        assert glyphs.grid != glyphs.last
    assert (ASCII.black, ASCII.white, ASCII.empty) == ("X", "O", ".")
    assert centred("X", 3, 1) == (" X ",)
    assert cursor_marks(UNICODE, 0, 1) == ("[", "]")
    assert cursor_marks(UNICODE, 0, 3) == ("┏", "┓")
    assert cursor_marks(UNICODE, 1, 3) == ("", "")


@pytest.mark.parametrize("glyphs", [UNICODE, ASCII], ids=["unicode", "ascii"])
def test_every_mark_differs_by_shape_from_the_grid_and_the_others(glyphs: Glyphs) -> None:
    """Without colour, a legal move must not read as a grid junction (ASCII ``+`` once
    was both), nor the last move's frame as the grid."""
    cells = [glyphs.black, glyphs.white, glyphs.preview_black, glyphs.preview_white]
    cells += [glyphs.legal, *glyphs.cursor]
    cells += [glyphs.empty] if glyphs.empty.strip() else []
    frames = {*glyphs.grid, *glyphs.last}
    assert len(set(cells)) == len(cells)
    assert not set(cells) & frames
    assert not set(glyphs.grid) & set(glyphs.last)


def test_ascii_glyphs_are_all_ascii() -> None:
    texts = [getattr(ASCII, field.name) for field in fields(Glyphs)]
    flat = "".join("".join(t) if isinstance(t, tuple) else str(t) for t in texts)
    assert flat.isascii() and ASCII.ascii_only
    assert not UNICODE.ascii_only
    assert (ASCII.legal, ASCII.grid[0]) == ("*", "+")


async def test_rendered_board_marks_cursor_legal_moves_and_last_move() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        board = ui(app).board
        await pilot.press("enter")  # d3; the cursor moves on to a legal reply
        board.cursor = parse_square("d3")
        await pilot.pause()
        geo = board.geometry
        lines = [board.render_line(y).text for y in range(board.size.height)]
        x, y = geo.cell_origin(parse_square("d3"))
        assert lines[y][x : x + 3] == "[●]"
        assert lines[y - 1][x - 1 : x + 4] == "╔═══╗"  # the last move's double frame
        cx, cy = geo.cell_origin(parse_square("c3"))  # a legal reply for White
        assert lines[cy][cx : cx + 3] == " • "
        letters = lines[geo.top - 1].split()
        assert letters == list("abcdefgh")


async def test_ascii_board_tells_legal_moves_from_grid_junctions() -> None:
    app = make_app(glyphs=ASCII)
    async with app.run_test(size=(80, 24)) as pilot:
        board = ui(app).board
        await pilot.press("enter")  # d3
        board.cursor = parse_square("d3")
        await pilot.pause()
        geo = board.geometry
        lines = [board.render_line(y).text for y in range(board.size.height)]
        x, y = geo.cell_origin(parse_square("d3"))
        assert lines[y][x - 1 : x + 4] == "#[X]#"
        assert lines[y - 1][x - 1 : x + 4] == "#===#"  # the last move's frame
        cx, cy = geo.cell_origin(parse_square("c3"))  # a legal reply for White
        assert lines[cy][cx : cx + 3] == " * "
        assert lines[cy - 1][cx - 1 : cx + 3] == "+---"  # the grid around it
        assert "".join(lines).isascii()
