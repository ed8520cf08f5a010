"""The board: one focusable Line API widget that renders a frozen ``BoardView`` value.

A single widget drawing its own lines is the cheapest way to keep the screen
fast over SSH: moving the cursor repaints two small cell frames (a few hundred
bytes), not the whole board. The widget never sees the live game: the screen
sets ``view`` (position, last move, highlighted discs, markers) after each
change, so review and analysis can show any ply without touching the game. The
widget itself only remembers the cursor (with the flip preview of a legal move
under it), a typed column waiting for its row, and the timer that ends a highlight.

``markers == 0`` means nobody at this terminal may play now (the computer is
thinking, computer versus computer, review): then there is no flip preview, Tab
finds nothing and a new view leaves the cursor where it is.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.actions import SkipAction
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.timer import Timer
from textual.widget import Widget

from reversi_tui.engine import Position
from reversi_tui.engine.bitboard import squares
from reversi_tui.engine.notation import COLUMNS
from reversi_tui.tui.widgets.board_art import (
    LABEL_WIDTH,
    UNICODE,
    Geometry,
    Glyphs,
    board_size,
    centred,
    cursor_marks,
    disc_art,
    fit,
    join_char,
)

#: Seconds the discs a move placed and flipped stay highlighted.
FLASH_SECONDS = 0.8
#: Component styles only ever layered over a complete one (so they must not carry its background).
_OVERLAYS = frozenset(
    {
        "black",
        "white",
        "legal",
        "cursor",
        "cursor-cell",
        "last",
        "flash",
        "preview",
        "note",
        "best",
        "played",
    }
)
#: The styles a note on an empty square may carry (``BoardView.notes``).
NOTE_STYLES = ("note", "best", "played")
#: A typed column waiting for its row: ``d_`` in the corner, its letter in reverse video.
_PENDING_CORNER = Style(bold=True)
_PENDING_LETTER = Style(bold=True, reverse=True)


def mark_css(widget: str) -> str:
    """The board's mark colours for ``widget``'s ``board--*`` component classes (the board,
    and the help's legend, which must look the same)."""
    return f"""
    {widget} > .board--label {{ color: $board-label; }}
    {widget} > .board--grid {{ color: $board-grid; background: $board-felt; }}
    {widget} > .board--cell {{ background: $board-felt; }}
    {widget} > .board--black {{ color: $disc-black; }}
    {widget} > .board--white {{ color: $disc-white; }}
    {widget} > .board--legal {{ color: $board-legal; text-style: bold; }}
    {widget} > .board--cursor {{ color: $board-cursor; text-style: bold; }}
    {widget} > .board--cursor-cell {{ background: $board-cursor-cell; }}
    {widget} > .board--last {{ color: $board-last; }}
    {widget} > .board--flash {{ background: $board-flash; }}
    {widget} > .board--preview {{ background: $board-preview; }}
    """


@dataclass(frozen=True, slots=True)
class BoardView:
    """Everything the board shows of a game at one ply: a value, never the live game."""

    position: Position
    #: The square of the last disc placed (passes skipped), framed on the board.
    last_move: int | None = None
    #: Discs the latest change placed or flipped, highlighted for a moment.
    flash: int = 0
    #: Squares to mark as legal moves: 0 when nobody at this terminal may play now.
    markers: int = 0
    #: Keep ``flash`` on instead of fading it (reproducible screenshots).
    hold: bool = False
    #: Text on empty squares (the analysis: move values, the best and the played
    #: move): ``(square, text, style)`` with a style of ``NOTE_STYLES``; lines of the
    #: text split on ``\n`` fill a tall cell from its middle, a one-row cell shows the first.
    notes: tuple[tuple[int, str, str], ...] = ()
    #: Draw the cursor (off where the board is only looked at: the analysis).
    show_cursor: bool = True


class Board(Widget, can_focus=True):
    """The 8x8 board with coordinates, discs, legal moves, last move and cursor."""

    BINDINGS = [
        Binding("up,k", "move(0,-1)", "Cursor", show=False),
        Binding("down,j", "move(0,1)", "Cursor", show=False),
        Binding("left", "move(-1,0)", "Cursor", show=False),
        Binding("h", "left_or_column", "Cursor", show=False),
        Binding("right,l", "move(1,0)", "Cursor", show=False),
        Binding("enter", "choose('enter')", "Play"),
        Binding("space", "choose('space')", "Play", show=False),
        Binding("tab", "next_legal(1)", "Next"),
        Binding("shift+tab", "next_legal(-1)", "Previous", show=False),
        Binding("escape", "cancel_column", "Cancel column", show=False),
        *(Binding(c, f"column('{c}')", show=False) for c in COLUMNS[:7]),
        *(Binding(str(d), f"row({d})", show=False) for d in range(1, 9)),
    ]

    COMPONENT_CLASSES = {
        "board--label",
        "board--grid",
        "board--cell",
        "board--black",
        "board--white",
        "board--legal",
        "board--cursor",
        "board--cursor-cell",
        "board--last",
        "board--flash",
        "board--preview",
        "board--note",
        "board--best",
        "board--played",
    }

    DEFAULT_CSS = """
    Board {
        width: auto;
        height: 1fr;
        background: $background;
    }
    Board > .board--note { color: $board-legal; }
    Board > .board--best { color: $board-cursor; text-style: bold reverse; }
    Board > .board--played { color: $board-last; text-style: bold underline; }
    """ + mark_css("Board")

    cursor: reactive[int] = reactive(19, repaint=False)
    view: reactive[BoardView] = reactive(BoardView(Position.initial()), repaint=False)

    @dataclass
    class Chosen(Message):
        """The user asked to play a square (Enter, Space or a click)."""

        square: int
        key: str  # "enter", "space" or "click"

    def __init__(
        self,
        glyphs: Glyphs = UNICODE,
        *,
        reserve_width: int = 0,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.reserve_width = reserve_width
        self.glyphs = glyphs
        self._preview = 0  # discs a move at the cursor would flip (only while markers show)
        self._hover: int | None = None  # the square under the mouse pointer
        self._flash = 0  # discs placed/flipped by the latest move, highlighted briefly
        self._flash_timer: Timer | None = None
        self._pending_column: int | None = None  # a typed column waiting for its row digit
        self._rich_styles: dict[str, Style] = {}
        self._geometry: tuple[tuple[int, int], Geometry] | None = None
        self._last_sq = -1  # per-paint caches, set at the top of render_line
        self._legal = 0
        self._notes: dict[int, tuple[str, str]] = {}  # the view's notes by square

    # Model changes -----------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Play and Tab only while someone here may move (markers shown); otherwise the
        keys go on to the screen (Space pauses computer against computer there)."""
        if action in ("choose", "next_legal"):
            return bool(self.view.markers)
        return True

    def watch_view(self, old: BoardView, view: BoardView) -> None:
        """A new position to show: restart the highlight, place the cursor, redo the preview.

        When someone here is to move and the cursor stands on a taken or illegal
        square, it goes to the nearest legal move.
        """
        if self._flash_timer is not None:
            self._flash_timer.stop()
            self._flash_timer = None
        self._flash = view.flash
        self._notes = {sq: (text, style) for sq, text, style in view.notes}
        if view.flash and not view.hold:
            self._flash_timer = self.set_timer(FLASH_SECONDS, self._end_flash)
        if view.markers and not view.markers >> self.cursor & 1:
            self.cursor = nearest_square(view.markers, self.cursor)
        self._preview = self._flips_at(self.cursor)
        self.refresh()
        if bool(old.markers) != bool(view.markers):
            self.refresh_bindings()

    def _end_flash(self) -> None:
        self._flash_timer = None
        if self._flash:
            flash, self._flash = self._flash, 0
            self._refresh_cells(flash)

    def on_show(self) -> None:
        """Take the focus back when a too-small terminal grows and the board reappears."""
        if self.screen.focused is None:
            self.focus()

    # Geometry ----------------------------------------------------------------------
    @property
    def geometry(self) -> Geometry:
        """The layout for the current size (recomputed only when the size changes)."""
        size = (self.size.width, self.size.height)
        if self._geometry is None or self._geometry[0] != size:
            self._geometry = (size, fit(*size))
        return self._geometry[1]

    def get_content_width(self, container: Size, viewport: Size) -> int:
        """As wide as the board that fits beside ``reserve_width`` columns for the sidebar.

        Keeping the widget no wider than the board matters over SSH: Textual
        rewrites a changed line from the widget's left edge, so blank margin
        inside the widget would be resent on every cursor move.
        """
        cell_h = fit(container.width - self.reserve_width, container.height).cell_h
        return board_size(cell_h)[0]

    def _refresh_cells(self, mask: int) -> None:
        """Repaint the interiors of the squares in ``mask``: all a cursor move or a highlight needs.

        Squares in one row become one region from the first to the last: Textual
        sends each region of a line from the widget's left edge, so two regions on
        one line would send its start twice, and one wider region costs nothing more.
        """
        geo = self.geometry
        regions = []
        for row in range(8):
            cols = mask >> row * 8 & 0xFF
            if cols:
                first, last = (cols & -cols).bit_length() - 1, cols.bit_length() - 1
                x, y = geo.cell_origin(row * 8 + first)
                regions.append(Region(x, y, (last - first) * geo.pitch_x + geo.cell_w, geo.cell_h))
        self.refresh(*regions)

    def _label_region(self) -> Region:
        """The column letters above the board, where a typed column shows."""
        return Region(0, self.geometry.top - 1, self.size.width, 1)

    # Cursor ------------------------------------------------------------------------
    def watch_cursor(self, old: int, new: int) -> None:
        """Repaint the two cells, and the discs whose flip preview came or went."""
        preview = self._flips_at(new)
        changed, self._preview = preview ^ self._preview, preview
        self._refresh_cells(1 << old | 1 << new | changed)

    def _flips_at(self, sq: int) -> int:
        """The discs a move at ``sq`` would flip, when it is a marked legal move (else 0)."""
        view = self.view
        return view.position.flips(sq) if view.markers >> sq & 1 else 0

    @property
    def pending_column(self) -> int | None:
        """The column (0 for a) typed and waiting for its row digit, if any."""
        return self._pending_column

    def _set_pending(self, column: int | None) -> None:
        if column != self._pending_column:
            self._pending_column = column
            self.refresh(self._label_region())

    def action_move(self, dx: int, dy: int) -> None:
        """Step the cursor; it stops at the board's edges."""
        self._set_pending(None)
        row, col = divmod(self.cursor, 8)
        self.cursor = min(max(row + dy, 0), 7) * 8 + min(max(col + dx, 0), 7)

    def action_left_or_column(self) -> None:
        """``h`` moves left now, and becomes column h if a row digit follows."""
        self.action_move(-1, 0)
        self._set_pending(7)

    def action_column(self, letter: str) -> None:
        """A column letter waits (shown as ``d_``) for its row digit; no time limit."""
        self._set_pending(COLUMNS.index(letter))

    def action_row(self, number: int) -> None:
        """A row digit after a column letter jumps there; alone it does nothing."""
        column = self._pending_column
        if column is not None:
            self._set_pending(None)
            self.cursor = (number - 1) * 8 + column

    def action_cancel_column(self) -> None:
        """Escape forgets a typed column; with none pending, Escape goes to the screen."""
        if self._pending_column is None:
            raise SkipAction()
        self._set_pending(None)

    def action_next_legal(self, step: int) -> None:
        """Jump to the next (or previous) legal move in reading order, wrapping around."""
        legal = self.view.markers
        self._set_pending(None)
        if not legal:
            return
        sq = self.cursor
        for _ in range(64):
            sq = (sq + step) % 64
            if legal >> sq & 1:
                self.cursor = sq
                return

    def action_choose(self, key: str) -> None:
        self._set_pending(None)
        self.post_message(self.Chosen(self.cursor, key))

    # Mouse -------------------------------------------------------------------------
    def on_mouse_move(self, event: events.MouseMove) -> None:
        """The cursor follows the pointer into each new square (and so does the preview)."""
        offset = event.get_content_offset(self)
        sq = None if offset is None else self.geometry.square_at(offset.x, offset.y)
        if sq == self._hover:
            return
        self._hover = sq
        if sq is not None:
            self._set_pending(None)
            self.cursor = sq

    def on_leave(self, event: events.Leave) -> None:
        self._hover = None

    def on_click(self, event: events.Click) -> None:
        """Only the primary (left) button plays; right and middle clicks do nothing."""
        if event.button != 1:
            return
        offset = event.get_content_offset(self)
        sq = None if offset is None else self.geometry.square_at(offset.x, offset.y)
        if sq is not None:
            self._set_pending(None)
            self.cursor = sq
            self.post_message(self.Chosen(sq, "click"))

    @property
    def preview(self) -> int:
        """Mask of the discs a move at the cursor would flip (0 off legal moves or markers)."""
        return self._preview

    # Painting ----------------------------------------------------------------------
    def notify_style_update(self) -> None:
        self._rich_styles.clear()
        super().notify_style_update()

    def _style(self, name: str) -> Style:
        style = self._rich_styles.get(name)
        if style is None:
            if name in _OVERLAYS:
                style = self.get_component_rich_style(f"board--{name}", partial=True)
            else:  # a complete style: the widget's own under the component's
                style = self.rich_style
                if name != "base":
                    style += self.get_component_rich_style(f"board--{name}", partial=True)
            self._rich_styles[name] = style
        return style

    def render_line(self, y: int) -> Strip:
        geo = self.geometry
        width = self.size.width
        view = self.view
        self._last_sq = -1 if view.last_move is None else view.last_move
        self._legal = view.markers
        base = self._style("base")
        grid_bottom = geo.top + geo.grid_height
        if y == geo.top - 1:
            segments = self._label_row(geo, self._pending_column)
        elif y == grid_bottom:
            segments = self._label_row(geo, None)
        elif geo.top <= y < grid_bottom:
            local = y - geo.top
            band, sub = divmod(local, geo.pitch_y)
            segments = self._grid_row(geo, band) if sub == 0 else self._cell_row(geo, band, sub - 1)
        else:
            segments = []
        line = [Segment(" " * (geo.left - LABEL_WIDTH), base), *segments]
        strip = Strip(line).extend_cell_length(width, base).crop(0, width)
        return strip.simplify()

    def _label_row(self, geo: Geometry, pending: int | None) -> list[Segment]:
        """The column letters; a typed column shows as ``d_`` in the corner and lights up."""
        side = (geo.cell_w - 1) // 2
        text = " " * LABEL_WIDTH + " "
        text += "".join(" " * side + c + " " * (geo.cell_w - side - 1) + " " for c in COLUMNS)
        label = self._style("label")
        if pending is None:
            return [Segment(text, label)]
        at = LABEL_WIDTH + 1 + pending * geo.pitch_x + side
        return [
            Segment(f"{COLUMNS[pending]}_".ljust(LABEL_WIDTH), label + _PENDING_CORNER),
            Segment(text[LABEL_WIDTH:at], label),
            Segment(text[at], label + _PENDING_LETTER),
            Segment(text[at + 1 :], label),
        ]

    def _is_last(self, row: int, col: int) -> bool:
        return 0 <= row < 8 and 0 <= col < 8 and row * 8 + col == self._last_sq

    def _edge(self, *cells: tuple[int, int]) -> str:
        """``last`` when a grid line borders the last move's cell, else ``grid``."""
        return "last" if any(self._is_last(r, c) for r, c in cells) else "grid"

    def _corner(self, band: int, j: int, row_kind: int, col_kind: int) -> tuple[str, str]:
        """The frame owning a grid junction and its character: a box corner for the last move."""
        if self._last_sq >= 0:
            row, col = divmod(self._last_sq, 8)
            if band in (row, row + 1) and j in (col, col + 1):
                kinds = (0 if band == row else 2, 0 if j == col else 2)
                return "last", join_char(self.glyphs, "last", *kinds)
        return "grid", join_char(self.glyphs, "grid", row_kind, col_kind)

    def _frame_style(self, frame: str) -> Style:
        grid = self._style("grid")
        return grid if frame == "grid" else grid + self._style(frame)

    def _grid_row(self, geo: Geometry, band: int) -> list[Segment]:
        """A horizontal grid line: band 0 is above row 1, band 8 below row 8."""
        glyphs = self.glyphs
        row_kind = 0 if band == 0 else 2 if band == 8 else 1
        segments = [Segment(" " * LABEL_WIDTH, self._style("label"))]
        for j in range(9):
            col_kind = 0 if j == 0 else 2 if j == 8 else 1
            frame, char = self._corner(band, j, row_kind, col_kind)
            segments.append(Segment(char, self._frame_style(frame)))
            if j < 8:
                edge = self._edge((band - 1, j), (band, j))
                segments.append(
                    Segment(getattr(glyphs, edge)[1] * geo.cell_w, self._frame_style(edge))
                )
        return segments

    def _cell_row(self, geo: Geometry, row: int, sub: int) -> list[Segment]:
        glyphs = self.glyphs
        label = str(row + 1) if sub == (geo.cell_h - 1) // 2 else " "
        segments = [Segment(label.ljust(LABEL_WIDTH), self._style("label"))]
        for j in range(9):
            edge = self._edge((row, j - 1), (row, j))
            segments.append(Segment(getattr(glyphs, edge)[2], self._frame_style(edge)))
            if j < 8:
                segments.extend(self._cell_segments(geo, row * 8 + j, sub))
        segments.append(Segment(" " + label, self._style("label")))
        return segments

    def _cell_segments(self, geo: Geometry, sq: int, sub: int) -> list[Segment]:
        """One row of a cell's interior; the cursor adds its marks at the interior's edges."""
        glyphs = self.glyphs
        bit = 1 << sq
        color = self.view.position.color_at(sq)
        if color is not None:
            style = self._style("cell")
            if self._flash & bit:
                style += self._style("flash")
            if self._preview & bit:
                style += self._style("preview") + self._style(color.opponent.name.lower())
                rows = centred(glyphs.preview(color.opponent), geo.cell_w, geo.cell_h)
            else:
                style += self._style(color.name.lower())
                if glyphs.big_discs and geo.cell_h >= 2:
                    rows = disc_art(color, geo.cell_w, geo.cell_h)
                else:
                    rows = centred(glyphs.disc(color), geo.cell_w, geo.cell_h)
        elif sq in self._notes:
            text, name = self._notes[sq]
            style = self._style("cell") + self._style(name)
            rows = note_rows(text, geo.cell_w, geo.cell_h)
        elif self._legal & bit:
            style = self._style("cell") + self._style("legal")
            rows = centred(glyphs.legal, geo.cell_w, geo.cell_h)
        else:
            style = self._style("grid")  # blank: same look as the grid, so segments merge
            rows = centred(glyphs.empty, geo.cell_w, geo.cell_h)
        text = rows[sub]
        if sq != self.cursor or not self.view.show_cursor:
            return [Segment(text, style)]
        style += self._style("cursor-cell")
        left, right = cursor_marks(glyphs, sub, geo.cell_h)
        if not left:
            return [Segment(text, style)]
        mark = style + self._style("cursor")
        return [Segment(left, mark), Segment(text[1:-1], style), Segment(right, mark)]


def note_rows(text: str, cell_w: int, cell_h: int) -> tuple[str, ...]:
    """A note's lines centred in a cell, from its middle row down (as many as fit)."""
    lines = text.split("\n")[:cell_h]
    first = min((cell_h - 1) // 2, cell_h - len(lines))
    rows = [" " * cell_w] * cell_h
    for i, line in enumerate(lines):
        line = line[:cell_w]
        left = (cell_w - len(line)) // 2
        rows[first + i] = (" " * left + line).ljust(cell_w)
    return tuple(rows)


def nearest_square(mask: int, sq: int) -> int:
    """The square of ``mask`` nearest ``sq`` on the board; ties go to the first in reading order.

    Distance is straight-line (rows and columns squared), so a diagonal neighbour
    comes after an orthogonal one; reading order is a1, b1, ..., h8.
    """
    row, col = divmod(sq, 8)
    return min(squares(mask), key=lambda s: ((s // 8 - row) ** 2 + (s % 8 - col) ** 2, s))
