"""The evaluation graph of a whole game: Black's advantage in discs, ply by ply.

One column per ply (several plies share a column on a narrow widget, one ply
spreads over several columns on a wide one). Black's advantage rises above the
zero line, White's hangs below it, drawn with half blocks on the felt (``#`` in
ASCII). Above the plot a row marks Black's errors, below it a row marks White's,
each by its class in a shape of its own (``·`` inaccuracy, ``?`` mistake, ``✗``
blunder; ``.`` ``?`` ``X`` in ASCII), so they read without colour. The current
ply is a column of its own colour with a vertical line through its empty cells
and ``▼``/``▲`` at its ends (``|``, ``v``, ``^`` in ASCII), which a 16-colour or
colourless terminal shows too. A click on a column posts ``EvalGraph.Jump``.

The drawing is a pure function (``graph_cells``) of the values, the marks, the
size and the current ply; the widget only paints its cells and hears clicks.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget

#: The graph never scales below this many discs either way, nor above 64.
MIN_SCALE = 10.0
MAX_SCALE = 64.0
#: Columns of the scale at the left (``+20``, `` 0``, ``-20``, ``B``, ``W``).
GUTTER = 4
#: Error classes, mildest first: the worst in a column is the one drawn.
ERROR_ORDER = ("inaccuracy", "mistake", "blunder")


@dataclass(frozen=True, slots=True)
class GraphMarks:
    """The characters of one drawing: Unicode or ASCII."""

    up_half: str
    down_half: str
    full: str
    axis: str
    line: str
    cross: str
    top: str
    bottom: str
    classes: Mapping[str, str] = field(default_factory=dict)


UNICODE_MARKS = GraphMarks(
    up_half="▄",
    down_half="▀",
    full="█",
    axis="─",
    line="│",
    cross="┼",
    top="▼",
    bottom="▲",
    classes={"inaccuracy": "·", "mistake": "?", "blunder": "✗"},
)
ASCII_MARKS = GraphMarks(
    up_half=".",
    down_half="'",
    full="#",
    axis="-",
    line="|",
    cross="+",
    top="v",
    bottom="^",
    classes={"inaccuracy": ".", "mistake": "?", "blunder": "X"},
)

#: One character cell: its text and the names of the styles laid on it (``plot``,
#: ``black``, ``white``, ``axis``, ``current``, ``label``, a class name).
Cell = tuple[str, tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class GraphData:
    """What the graph shows: Black's value before each ply and after the last (so one
    more than the plies), and each erring ply's side and class."""

    values: tuple[float, ...]
    #: ply -> (``"black"`` or ``"white"``, ``"inaccuracy"``/``"mistake"``/``"blunder"``)
    errors: Mapping[int, tuple[str, str]] = field(default_factory=dict)


def graph_scale(values: Sequence[float]) -> float:
    """Discs at the top (and bottom) of the plot: the game's largest, clipped to 64,
    at least 10, rounded up to an even number."""
    largest = max((abs(v) for v in values), default=0.0)
    scale = min(max(largest, MIN_SCALE), MAX_SCALE)
    return float(min(MAX_SCALE, 2 * math.ceil(scale / 2)))


def column_points(points: int, columns: int) -> list[range]:
    """The points (plies) each of ``columns`` columns stands for, in order."""
    if points <= 0 or columns <= 0:
        return []
    out = []
    for c in range(columns):
        lo = c * points // columns
        hi = max(lo + 1, (c + 1) * points // columns)
        out.append(range(lo, min(hi, points)))
    return out


def column_at(points: int, columns: int, x: int) -> int | None:
    """The first point (ply) of plot column ``x``, or None off the plot."""
    spans = column_points(points, columns)
    return spans[x].start if 0 <= x < len(spans) else None


def _worst(errors: Mapping[int, tuple[str, str]], span: range, side: str) -> str | None:
    worst = -1
    for ply in span:
        found = errors.get(ply)
        if found is not None and found[0] == side:
            worst = max(worst, ERROR_ORDER.index(found[1]))
    return ERROR_ORDER[worst] if worst >= 0 else None


def _halves(value: float, scale: float, rows: int) -> int:
    """Half rows a bar of ``value`` fills on a side ``rows`` rows tall (sign kept)."""
    clipped = max(-1.0, min(1.0, value / scale))
    return round(clipped * rows * 2)


def graph_cells(
    data: GraphData, width: int, height: int, current: int, marks: GraphMarks
) -> list[list[Cell]]:
    """The graph as ``height`` rows of ``width`` cells.

    Row 0 marks Black's errors, the last row White's; between them the plot, with
    its zero line in the middle and the same number of rows above and below it (a
    spare row, when the count is even, stays blank at the bottom). A gutter at the
    left gives the scale when the widget is wide enough.
    """
    if width <= 0 or height <= 0:
        return []
    gutter = GUTTER if width >= 24 else 0
    plot_w = width - gutter
    body = max(height - 2, 1)
    side = (body - 1) // 2  # rows above the zero line, and below it
    zero = 1 + side  # the zero line's row
    scale = graph_scale(data.values)
    rows: list[list[Cell]] = [[] for _ in range(height)]
    if gutter:
        labels = {0: "B", height - 1: "W", zero: "0"}
        if side:
            labels[1] = f"+{scale:.0f}"
            labels[zero + side] = f"-{scale:.0f}"
        for y in range(height):
            rows[y].append((labels.get(y, "").rjust(gutter - 1) + " ", ("label",)))
    spans = column_points(len(data.values), plot_w)
    for x in range(plot_w):
        span = spans[x] if x < len(spans) else range(0)
        here = current in span
        first = here and (x == 0 or current not in spans[x - 1])
        value = sum(data.values[i] for i in span) / len(span) if span else 0.0
        halves = _halves(value, scale, side)
        now: tuple[str, ...] = ("current",) if here else ()
        for y in range(height):
            rows[y].append(_cell(y, height, zero, side, halves, first, now, data, span, marks))
    return rows


def _cell(
    y: int,
    height: int,
    zero: int,
    side: int,
    halves: int,
    first: bool,
    now: tuple[str, ...],
    data: GraphData,
    span: range,
    marks: GraphMarks,
) -> Cell:
    """One cell of a plot column."""
    if y in (0, height - 1) and height >= 3:
        who = "black" if y == 0 else "white"
        klass = _worst(data.errors, span, who)
        if klass is not None:
            return marks.classes[klass], (*now, klass)
        if first:
            return (marks.top if y == 0 else marks.bottom), (*now, "marker")
        return " ", now
    if y == zero:
        return (marks.cross if first else marks.axis), ("plot", "axis", *now)
    if zero - side <= y < zero and halves > 0:  # above the line: Black ahead
        filled = halves - 2 * (zero - 1 - y)
        if filled > 0:
            return (marks.full if filled >= 2 else marks.up_half), ("plot", "black", *now)
    if zero < y <= zero + side and halves < 0:  # below: White ahead
        filled = -halves - 2 * (y - zero - 1)
        if filled > 0:
            return (marks.full if filled >= 2 else marks.down_half), ("plot", "white", *now)
    if zero - side <= y <= zero + side:
        return (marks.line if first else " "), ("plot", *now)
    return " ", now


class EvalGraph(Widget):
    """The game's evaluation graph; ``show`` gives it the data and the current ply."""

    COMPONENT_CLASSES = {
        "eval-graph--label",
        "eval-graph--plot",
        "eval-graph--axis",
        "eval-graph--black",
        "eval-graph--white",
        "eval-graph--current",
        "eval-graph--marker",
        "eval-graph--inaccuracy",
        "eval-graph--mistake",
        "eval-graph--blunder",
    }
    DEFAULT_CSS = """
    EvalGraph { height: 7; width: 1fr; background: $background; }
    EvalGraph > .eval-graph--label { color: $text-muted; }
    EvalGraph > .eval-graph--plot { background: $board-felt; color: $board-grid; }
    EvalGraph > .eval-graph--axis { color: $board-grid; }
    EvalGraph > .eval-graph--black { color: $disc-black; }
    EvalGraph > .eval-graph--white { color: $disc-white; }
    EvalGraph > .eval-graph--current {
        background: $board-cursor-cell;
        color: $board-cursor;
        text-style: bold;
    }
    EvalGraph > .eval-graph--marker { color: $board-cursor; text-style: bold; }
    EvalGraph > .eval-graph--inaccuracy { color: $accent; text-style: bold; }
    EvalGraph > .eval-graph--mistake { color: $warning; text-style: bold; }
    EvalGraph > .eval-graph--blunder { color: $error; text-style: bold; }
    """

    @dataclass
    class Jump(Message):
        """The graph was clicked: show this ply (0: the start; the last: the end)."""

        ply: int

    def __init__(self, *, ascii_only: bool = False, id: str | None = None) -> None:
        super().__init__(id=id)
        self.marks = ASCII_MARKS if ascii_only else UNICODE_MARKS
        self.data = GraphData((0.0,))
        self.current = 0
        self._cells: tuple[tuple[int, int], list[list[Cell]]] | None = None
        self._styles: dict[tuple[str, ...], Style] = {}

    def show(self, data: GraphData, current: int) -> None:
        """Draw ``data`` with ``current`` (a ply index, 0 to ``len(values) - 1``) marked."""
        if data == self.data and current == self.current:
            return
        self.data, self.current = data, current
        self._cells = None
        self.refresh()

    def cells(self) -> list[list[Cell]]:
        """The drawing at the present size (kept until the size or the data change)."""
        size = (self.size.width, self.size.height)
        if self._cells is None or self._cells[0] != size:
            self._cells = (size, graph_cells(self.data, *size, self.current, self.marks))
        return self._cells[1]

    def text(self) -> str:
        """The drawing as plain lines (tests, and reading it without the styles)."""
        return "\n".join("".join(c for c, _ in row) for row in self.cells())

    def notify_style_update(self) -> None:
        self._styles.clear()
        super().notify_style_update()

    def _style(self, names: tuple[str, ...]) -> Style:
        style = self._styles.get(names)
        if style is None:
            style = self.rich_style
            for name in names:
                style += self.get_component_rich_style(f"eval-graph--{name}", partial=True)
            self._styles[names] = style
        return style

    def render_line(self, y: int) -> Strip:
        rows = self.cells()
        if y >= len(rows):
            return Strip.blank(self.size.width, self.rich_style)
        segments: list[Segment] = []
        for text, names in rows[y]:
            style = self._style(names)
            if segments and segments[-1].style == style:
                segments[-1] = Segment(segments[-1].text + text, style)
            else:
                segments.append(Segment(text, style))
        return Strip(segments).extend_cell_length(self.size.width, self.rich_style)

    def on_click(self, event: events.Click) -> None:
        """A click on the plot jumps to the ply of that column."""
        offset = event.get_content_offset(self)
        if offset is None or event.button != 1:
            return
        gutter = GUTTER if self.size.width >= 24 else 0
        ply = column_at(len(self.data.values), self.size.width - gutter, offset.x - gutter)
        if ply is not None:
            event.stop()
            self.post_message(self.Jump(ply))
