"""What the board draws, kept apart from the widget so it can be tested without a terminal.

Every mark must survive a terminal without colour (``NO_COLOR``, a 16-colour
console), so each one differs by shape as well as by colour: black discs are
filled and white discs are rings, the cursor is a heavy frame around its cell,
the last move a double frame, legal moves a dot, a flip preview a half disc.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from reversi_tui.engine import Color

#: Largest interior height of a cell; beyond it discs would just look bloated.
MAX_CELL_HEIGHT = 4
#: Columns taken by the row numbers on each side of the grid.
LABEL_WIDTH = 2


@dataclass(frozen=True, slots=True)
class Glyphs:
    """One set of characters for the board: Unicode (default) or ASCII (``--ascii``)."""

    black: str
    white: str
    preview_black: str
    preview_white: str
    legal: str
    empty: str
    #: Frame characters: corner, horizontal, vertical, for the grid and the last move.
    grid: tuple[str, str, str]
    last: tuple[str, str, str]
    #: Cursor marks at the interior's edges: for one-row cells, then the top and
    #: bottom rows of taller ones.
    cursor: tuple[str, str]
    cursor_top: tuple[str, str]
    cursor_bottom: tuple[str, str]
    #: Big discs drawn with half blocks for cells two or more rows high.
    big_discs: bool
    #: Text marks outside the board: a separator, an ellipsis, the turn marker.
    dot: str = "·"
    ellipsis: str = "…"
    pointer: str = "▶"
    #: Every character on screen is ASCII (borders, scrollbars, key names too).
    ascii_only: bool = False

    def disc(self, color: Color) -> str:
        return self.black if color is Color.BLACK else self.white

    def preview(self, color: Color) -> str:
        """A disc about to turn to ``color``."""
        return self.preview_black if color is Color.BLACK else self.preview_white


UNICODE = Glyphs(
    black="●",
    white="○",
    preview_black="◐",
    preview_white="◑",
    legal="•",
    empty=" ",
    grid=("┼", "─", "│"),
    last=("╬", "═", "║"),
    cursor=("[", "]"),
    cursor_top=("┏", "┓"),
    cursor_bottom=("┗", "┛"),
    big_discs=True,
)

#: In ASCII each mark still differs by shape: discs X and O, previews x and o, legal
#: moves ``*`` (never the grid's ``+``), the last move framed in ``#`` and ``=``.
ASCII = Glyphs(
    black="X",
    white="O",
    preview_black="x",
    preview_white="o",
    legal="*",
    empty=".",
    grid=("+", "-", "|"),
    last=("#", "=", "#"),
    cursor=("[", "]"),
    cursor_top=("", ""),
    cursor_bottom=("", ""),
    big_discs=False,
    dot="-",
    ellipsis="...",
    pointer=">",
    ascii_only=True,
)

# Unicode junctions of the plain grid by (row kind, column kind): 0 first, 1 inner, 2 last.
_GRID_JOINS = ("┌┬┐", "├┼┤", "└┴┘")
_DOUBLE_JOINS = ("╔╦╗", "╠╬╣", "╚╩╝")


def join_char(glyphs: Glyphs, frame: Literal["grid", "last"], row_kind: int, col_kind: int) -> str:
    """The junction character of a frame (``grid`` or ``last``) at a corner."""
    if glyphs.ascii_only:
        return (glyphs.grid if frame == "grid" else glyphs.last)[0]
    table = _GRID_JOINS if frame == "grid" else _DOUBLE_JOINS
    return table[row_kind][col_kind]


@dataclass(frozen=True, slots=True)
class Geometry:
    """Where everything sits inside the widget for one size.

    Cells are ``cell_w`` x ``cell_h`` characters inside a one-character grid;
    ``cell_w = 2 * cell_h + 1`` keeps them roughly square on a terminal's tall
    character cells.
    """

    cell_w: int
    cell_h: int
    left: int  # x of the grid's left edge
    top: int  # y of the grid's top edge

    @property
    def pitch_x(self) -> int:
        return self.cell_w + 1

    @property
    def pitch_y(self) -> int:
        return self.cell_h + 1

    @property
    def grid_width(self) -> int:
        return 8 * self.pitch_x + 1

    @property
    def grid_height(self) -> int:
        return 8 * self.pitch_y + 1

    def cell_origin(self, sq: int) -> tuple[int, int]:
        """Top-left interior character of a square (row 1 drawn at the top)."""
        row, col = divmod(sq, 8)
        return self.left + col * self.pitch_x + 1, self.top + row * self.pitch_y + 1

    def frame_box(self, sq: int) -> tuple[int, int, int, int]:
        """``(x, y, width, height)`` of a cell with its surrounding grid lines."""
        x, y = self.cell_origin(sq)
        return x - 1, y - 1, self.cell_w + 2, self.cell_h + 2

    def square_at(self, x: int, y: int) -> int | None:
        """The square under a content offset, or None off the cells (grid lines count as off)."""
        dx, dy = x - self.left, y - self.top
        if dx < 0 or dy < 0:
            return None
        col, cx = divmod(dx, self.pitch_x)
        row, cy = divmod(dy, self.pitch_y)
        if col > 7 or row > 7 or cx == 0 or cy == 0:
            return None
        return row * 8 + col


def board_size(cell_h: int) -> tuple[int, int]:
    """Width and height the board needs, labels included, for an interior height."""
    cell_w = 2 * cell_h + 1
    return 8 * (cell_w + 1) + 1 + 2 * LABEL_WIDTH, 8 * (cell_h + 1) + 1 + 2


def fit(width: int, height: int) -> Geometry:
    """The largest board that fits, centred; the smallest one when nothing fits."""
    cell_h = 1
    for h in range(MAX_CELL_HEIGHT, 0, -1):
        w_needed, h_needed = board_size(h)
        if w_needed <= width and h_needed <= height:
            cell_h = h
            break
    w_needed, h_needed = board_size(cell_h)
    left = max(0, (width - w_needed) // 2) + LABEL_WIDTH
    top = max(0, (height - h_needed) // 2) + 1
    return Geometry(2 * cell_h + 1, cell_h, left, top)


@lru_cache(maxsize=64)
def disc_art(color: Color, cell_w: int, cell_h: int) -> tuple[str, ...]:
    """A big disc in half blocks with rounded corners: filled for black, a ring for white."""
    filled = color is Color.BLACK
    if cell_h == 2:  # no room for a margin: the disc fills the cell
        n = cell_w - 2
        if filled:
            return "▗" + "█" * n + "▖", "▝" + "█" * n + "▘"
        return "▗" + "▀" * n + "▖", "▝" + "▄" * n + "▘"
    n = cell_w - 4  # one column of margin each side, plus the rounded corners
    top = " ▗" + "▄" * n + "▖ "
    bottom = " ▝" + "▀" * n + "▘ "
    middle = " " + ("█" * (n + 2) if filled else "█" + " " * n + "█") + " "
    return (top, *([middle] * (cell_h - 2)), bottom)


@lru_cache(maxsize=64)
def centred(glyph: str, cell_w: int, cell_h: int, fill: str = " ") -> tuple[str, ...]:
    """A single glyph in the middle of a cell of ``fill``."""
    side = (cell_w - 1) // 2
    blank = fill * cell_w
    middle = fill * side + glyph + fill * (cell_w - side - 1)
    mid_row = (cell_h - 1) // 2
    return tuple(middle if r == mid_row else blank for r in range(cell_h))


def cursor_marks(glyphs: Glyphs, sub: int, cell_h: int) -> tuple[str, str]:
    """The cursor's left and right marks on row ``sub`` of a cell, or ``("", "")`` for none.

    One-row cells get brackets; taller cells get viewfinder corners (Unicode) or
    brackets on the middle row (ASCII). The marks replace the interior's edge
    columns, which the disc art leaves blank (or rounds off) for them.
    """
    if cell_h == 1:
        return glyphs.cursor
    if glyphs.cursor_top[0]:
        if sub == 0:
            return glyphs.cursor_top
        if sub == cell_h - 1:
            return glyphs.cursor_bottom
        return "", ""
    return glyphs.cursor if sub == (cell_h - 1) // 2 else ("", "")
