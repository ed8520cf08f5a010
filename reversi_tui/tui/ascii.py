"""ASCII mode (``--ascii``): every character on screen is ASCII, not only the board's.

The board and the game's own text take their marks from ``Glyphs``; what Textual
draws is covered here and in ``app.tcss``:

* the app carries the ``-ascii`` class, and ``app.tcss`` gives dialogs, buttons,
  toasts, the footer and the command palette ASCII borders under it;
* ``AsciiScrollBarRender`` draws scrollbars as a ``#`` thumb on a plain track;
* ``ascii_key_display`` names keys in words (``Enter``, ``Up``) instead of symbols;
* ``asciify_palette`` swaps a command palette's magnifying glass and ellipsis;
* ``AsciiFilter``, last in the app's line filters, turns whatever is left (the
  arrows of a ``Select``, anything a future Textual adds) into ASCII of the same
  width, so the guarantee never rests on knowing every widget.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from math import ceil

from rich.cells import cell_len
from rich.color import Color
from rich.segment import Segment, Segments
from rich.style import Style
from textual._context import active_app
from textual.color import Color as TextualColor
from textual.command import CommandInput, CommandPalette, SearchIcon
from textual.filter import LineFilter
from textual.scrollbar import ScrollBar, ScrollBarRender

#: The class the app carries in ASCII mode; ``app.tcss`` keys its ASCII rules on it.
ASCII_CLASS = "-ascii"

#: Textual's key symbols as words.
KEY_NAMES = {
    "⏎": "Enter",
    "↑": "Up",
    "↓": "Down",
    "←": "Left",
    "→": "Right",
    "⌫": "Backspace",
}

#: Characters with an obvious ASCII stand-in of the same width.
_STAND_INS = {
    "…": ".",
    "🔎": ">",
    "·": "-",
    "•": "*",
    "●": "o",
    "○": "o",
    "◐": "o",
    "◑": "o",
    "▲": "^",
    "△": "^",
    "▼": "v",
    "▽": "v",
    "▶": ">",
    "►": ">",
    "▸": ">",
    "◀": "<",
    "◄": "<",
    "◂": "<",
    "↑": "^",
    "↓": "v",
    "←": "<",
    "→": ">",
    "⏎": "#",
    "✓": "v",
    "✔": "v",
    "✗": "x",
    "✘": "x",
    "\u00d7": "x",  # multiplication sign
    "\u2013": "-",  # en dash
    "\u2014": "-",  # em dash
    "\u2018": "'",
    "\u2019": "'",
    "\u201c": '"',
    "\u201d": '"',
    "\u00a0": " ",  # no-break space
}

#: Thin edges among the block elements; the rest of them fill a cell more or less.
_BLOCK_EDGES = {"▁": "_", "▂": "_", "▔": "-", "▏": "|", "▕": "|", "▎": "|", "▐": "|", "▌": "|"}


@lru_cache(maxsize=1024)
def ascii_char(char: str) -> str:
    """An ASCII stand-in for one character, exactly as wide on screen."""
    if char.isascii():
        return char
    width = cell_len(char)
    if width == 0:
        return ""
    stand_in = _STAND_INS.get(char) or _BLOCK_EDGES.get(char) or _by_name(char)
    return stand_in.ljust(width)[:width]


def _by_name(char: str) -> str:
    """Box drawing by its Unicode name, blocks as ``#``, letters without accents, else ``?``."""
    name = unicodedata.name(char, "")
    if name.startswith("BOX DRAWINGS"):
        across, down = "HORIZONTAL" in name, "VERTICAL" in name
        if " AND " in name or "ARC" in name or (across and down):
            return "+"
        if "DIAGONAL" in name:
            return "X" if "CROSS" in name else "/" if "UPPER RIGHT" in name else "\\"
        return "-" if across else "|" if down else "+"
    if name.endswith(("BLOCK", "SHADE")) or name.startswith("QUADRANT"):
        return "#"
    plain = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode()
    return plain or "?"


def to_ascii(text: str) -> str:
    """``text`` in ASCII, taking the same number of cells."""
    return text if text.isascii() else "".join(ascii_char(c) for c in text)


class AsciiFilter(LineFilter):
    """The last line filter in ASCII mode: any character still outside ASCII is replaced.

    ``replaced`` collects what it had to replace, so a test can tell the designed
    ASCII look (borders, scrollbars, key names) from this safety net.
    """

    def __init__(self) -> None:
        super().__init__()
        self.replaced: set[str] = set()

    def apply(self, segments: list[Segment], background: TextualColor) -> list[Segment]:
        if all(segment.text.isascii() for segment in segments):
            return segments
        result: list[Segment] = []
        for segment in segments:
            text = segment.text
            if not text.isascii():
                self.replaced.update(c for c in text if not c.isascii())
                segment = segment._replace(text=to_ascii(text))
            result.append(segment)
        return result


def ascii_key_display(display: str) -> str:
    """A key as the footer shows it, in ASCII: ``⏎`` becomes ``Enter``, arrows ``Up``..."""
    if display.isascii():
        return display
    for symbol, name in KEY_NAMES.items():
        display = display.replace(symbol, name)
    return to_ascii(display)


def _ascii_app() -> bool:
    """True while the app running this code is in ASCII mode."""
    app = active_app.get(None)
    return app is not None and app.has_class(ASCII_CLASS)


#: Textual's default scrollbar colours, for ``render_bar``'s defaults.
_BACK = Color.parse("#555555")
_BAR = Color.parse("bright_magenta")


class AsciiScrollBarRender(ScrollBarRender):
    """Scrollbars as a ``#`` thumb on a plain track in an ASCII app; Textual's own otherwise.

    Textual's bars end in eighth blocks for smoothness; here the thumb covers whole
    cells, and shows by its shape as well as its colour. A workaround listed in
    ``reversi_tui.tui.compat.WORKAROUNDS`` (it reads Textual's private ``active_app``):
    no upstream issue filed; delete when Textual draws ASCII scrollbars itself.
    """

    THUMB = "#"

    @classmethod
    def render_bar(
        cls,
        size: int = 25,
        virtual_size: float = 50,
        window_size: float = 20,
        position: float = 0,
        thickness: int = 1,
        vertical: bool = True,
        back_color: Color = _BACK,
        bar_color: Color = _BAR,
    ) -> Segments:
        if not _ascii_app():
            return super().render_bar(
                size,
                virtual_size,
                window_size,
                position,
                thickness,
                vertical,
                back_color,
                bar_color,
            )
        width = thickness if vertical else 1
        blank = " " * width
        if window_size and size and virtual_size and size != virtual_size:
            thumb_size = min(size, max(1, ceil(window_size * size / virtual_size)))
            room = size - thumb_size
            scrollable = max(1.0, virtual_size - window_size)
            start = min(room, max(0, round(room * position / scrollable)))
            upper = Segment(blank, Style(bgcolor=back_color, meta={"@mouse.down": "scroll_up"}))
            lower = Segment(blank, Style(bgcolor=back_color, meta={"@mouse.down": "scroll_down"}))
            thumb = Segment(
                cls.THUMB * width,
                Style(color=back_color, bgcolor=bar_color, meta={"@mouse.down": "grab"}),
            )
            segments = [upper] * start + [thumb] * thumb_size + [lower] * (room - start)
        else:
            segments = [Segment(blank, Style(bgcolor=back_color))] * size
        if vertical:
            return Segments(segments, new_lines=True)
        return Segments([*segments, Segment.line()] * thickness, new_lines=False)


def install_scrollbars() -> None:
    """Draw every scrollbar through ``AsciiScrollBarRender``, which stays Textual's own
    look outside ASCII mode."""
    ScrollBar.renderer = AsciiScrollBarRender


def asciify_palette(palette: CommandPalette) -> None:
    """An open command palette's prompt in ASCII: ``>`` for the magnifying glass, and
    ``...`` for the placeholder's ellipsis (which the filter could only make one dot)."""
    palette.query_one(SearchIcon).icon = ">"
    prompt = palette.query_one(CommandInput)
    prompt.placeholder = prompt.placeholder.replace("…", "...")
