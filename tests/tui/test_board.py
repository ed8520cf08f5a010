"""The board widget: which clicks play, the flip preview, typed coordinates, the cursor's place."""

from __future__ import annotations

from reversi_tui.engine import Position, parse_square
from reversi_tui.tui.widgets.board import Board, BoardView, nearest_square

from ..fakes import FakeComputer
from .helpers import cell_offset, make_app, settle, ui

INITIAL = Position.initial()
#: The opening with Black's legal moves marked: someone here is to move.
PLAYABLE = BoardView(INITIAL, markers=INITIAL.legal_mask)
#: The same position with no markers: nobody here may play (the computer thinks, or review).
WATCHING = BoardView(INITIAL)


def sq(name: str) -> int:
    return parse_square(name)


def label_row(board: Board) -> str:
    """The column letters above the board as drawn, from the widget's left edge."""
    return board.render_line(board.geometry.top - 1).text


async def test_only_the_left_button_plays() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        offset = cell_offset(ui(app).board, "f5")
        await pilot.click(Board, offset=offset, button=3)  # right
        await pilot.click(Board, offset=offset, button=2)  # middle
        assert ui(app).game.moves == []
        await pilot.click(Board, offset=offset, button=1)
        assert ui(app).game.moves == [sq("f5")]


async def test_keyboard_cursor_previews_the_flips_of_a_legal_square() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        board = ui(app).board
        await pilot.press("right")  # e3: empty but not legal
        assert board.cursor == sq("e3") and board.preview == 0
        await pilot.press("left")  # d3 flips d4
        assert board.preview == 1 << sq("d4")
        y = board.geometry.cell_origin(sq("d4"))[1] + board.geometry.cell_h // 2
        assert board.glyphs.preview_black in board.render_line(y).text
        await pilot.press("tab")  # the next legal move, c4, flips d4 too
        assert board.cursor == sq("c4") and board.preview == 1 << sq("d4")
        await pilot.press("down")  # c5: off the legal moves, the preview goes
        assert board.preview == 0
        assert board.glyphs.preview_black not in board.render_line(y).text


async def test_no_preview_or_tab_while_markers_are_hidden() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        board = ui(app).board
        board.cursor = sq("d3")
        assert board.preview == 1 << sq("d4")
        board.view = WATCHING  # e.g. the computer starts thinking: the preview disappears
        assert board.preview == 0
        await pilot.hover(Board, offset=cell_offset(board, "f5"))
        assert board.cursor == sq("f5") and board.preview == 0
        await pilot.press("tab")
        assert board.cursor == sq("f5")
        board.view = PLAYABLE  # a person here is to move again: the preview comes back
        assert board.preview == 1 << sq("e5")
        await pilot.press("tab")
        assert board.cursor == sq("e6") and board.preview == 1 << sq("e5")


async def test_a_typed_column_shows_and_waits_for_its_row() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        board = ui(app).board
        corner = board.geometry.left - 2
        assert label_row(board)[corner : corner + 2] == "  "
        await pilot.press("b")
        assert label_row(board)[corner : corner + 2] == "b_"
        assert board.pending_column == 1
        await pilot.pause(1.5)  # a slow link: the row digit arrives late, and still counts
        await pilot.press("5")
        assert board.cursor == sq("b5")
        assert board.pending_column is None
        assert label_row(board)[corner : corner + 2] == "  "


async def test_escape_and_cursor_moves_cancel_a_typed_column() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        board = ui(app).board
        assert not await app.run_action("cancel_column", board)  # nothing pending: Escape bubbles
        await pilot.press("c", "escape", "6")
        assert board.cursor == sq("d3") and board.pending_column is None
        await pilot.press("c", "down", "6")  # a cursor move forgets the column
        assert board.cursor == sq("d4")
        await pilot.press("c", "e", "6")  # another column replaces it
        assert board.cursor == sq("e6")
        await pilot.press("c", "h")  # h is a column too (and moves left at once)
        assert board.cursor == sq("d6") and board.pending_column == 7
        await pilot.press("2")
        assert board.cursor == sq("h2")


async def test_arrows_stop_at_the_edges() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        board = ui(app).board
        await pilot.press("a", "1", "left", "up", "h")
        assert board.cursor == sq("a1")
        await pilot.press("escape", "h", "8", "right", "l", "down", "j")
        assert board.cursor == sq("h8")


def test_nearest_square_breaks_ties_in_reading_order() -> None:
    legal = INITIAL.legal_mask  # d3 c4 f5 e6
    assert nearest_square(legal, sq("d4")) == sq("d3")  # d3 and c4 both one step away
    assert nearest_square(legal, sq("e5")) == sq("f5")  # f5 and e6 both one step away
    assert nearest_square(legal, sq("h1")) == sq("d3")
    assert nearest_square(legal, sq("e4")) == sq("d3")  # two diagonals: d3 before f5


async def test_a_new_view_moves_the_cursor_off_a_taken_square() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        board = ui(app).board
        board.view = WATCHING
        board.cursor = sq("e5")
        board.view = BoardView(INITIAL, last_move=sq("e5"))  # markers 0: it stays
        assert board.cursor == sq("e5")
        board.view = PLAYABLE
        assert board.cursor == sq("f5")
        assert board.preview == 1 << sq("e5")
        board.cursor = sq("e6")
        board.view = WATCHING
        board.view = PLAYABLE  # already on a legal move: it stays
        assert board.cursor == sq("e6")
        await pilot.pause()


async def test_after_the_computers_reply_the_cursor_stands_on_a_legal_move() -> None:
    app = make_app(white=FakeComputer())  # White answers d3 with c3
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await settle(app, pilot)
        assert ui(app).game.moves == [sq("d3"), sq("c3")]
        assert ui(app).board.cursor == sq("c4")  # nearest d3 of b3 c4 f5 e6
