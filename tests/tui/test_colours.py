"""Colours that survive the terminal: every mark on the board at least 3:1 against what it
sits on, in every theme, in true colour and rounded to the 256-colour palette.

Over SSH ``COLORTERM`` is rarely forwarded, so Rich rounds Textual's true colours to
the xterm palette; this rounds them the same way (``Color.downgrade``) and measures
the WCAG contrast ratio of what the terminal would then show. The colours are read
from the running app, so what is checked is what the widgets actually draw.
"""

from __future__ import annotations

import pytest
from rich._palettes import EIGHT_BIT_PALETTE, STANDARD_PALETTE
from rich.color import Color as RichColor
from rich.color import ColorSystem, ColorType
from rich.style import Style
from textual.widget import Widget

from reversi_tui.tui.app import ReversiApp
from reversi_tui.tui.themes import THEMES, with_board_labels
from reversi_tui.tui.widgets.board import Board
from reversi_tui.tui.widgets.sidebar import ScoreBar, Sidebar

from .helpers import make_app

RGB = tuple[int, int, int]

#: WCAG's minimum for graphics and large text, the bar every mark must clear.
MINIMUM = 3.0
#: Among the 16 colours of a Linux console (Rich's standard palette) green is bright,
#: and the brightest yellow on it reaches 2.9:1: markers may drop to this, no further.
MINIMUM_16 = 2.8

#: (what, widget, component drawn, component it is drawn on); "" is the widget itself.
PAIRS: tuple[tuple[str, type[Widget], str, str], ...] = (
    ("grid lines", Board, "board--grid", "board--grid"),
    ("black disc", Board, "board--black", "board--cell"),
    ("white disc", Board, "board--white", "board--cell"),
    ("legal-move marker", Board, "board--legal", "board--cell"),
    ("last-move frame", Board, "board--last", "board--grid"),
    ("cursor", Board, "board--cursor", "board--cursor-cell"),
    ("black disc under the cursor", Board, "board--black", "board--cursor-cell"),
    ("white disc under the cursor", Board, "board--white", "board--cursor-cell"),
    ("legal marker under the cursor", Board, "board--legal", "board--cursor-cell"),
    ("black disc just played", Board, "board--black", "board--flash"),
    ("white disc just played", Board, "board--white", "board--flash"),
    ("flip preview to black", Board, "board--black", "board--preview"),
    ("flip preview to white", Board, "board--white", "board--preview"),
    ("row and column labels", Board, "board--label", ""),
    ("score bar, black share", ScoreBar, "scorebar--black", "scorebar--black"),
    ("score bar, white share", ScoreBar, "scorebar--white", "scorebar--white"),
    ("sidebar text", Sidebar, "", ""),
)
#: Text in the theme's own colours: ours must read, and Textual's light themes (whose
#: text the board's colours must not drown). Textual's solarized-dark rounds its own
#: text to 2.2:1 in 256 colours, which no board colour can mend.
THEME_TEXT = frozenset({"sidebar text"})

THEME_NAMES = sorted(theme.name for theme in THEMES)
OURS = frozenset({"reversi", "reversi-contrast"})


def luminance(rgb: RGB) -> float:
    """WCAG relative luminance of an sRGB colour."""

    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = rgb
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def contrast(a: RGB, b: RGB) -> float:
    """WCAG contrast ratio, from 1 (the same) to 21 (black on white)."""
    dark, light = sorted((luminance(a), luminance(b)))
    return (light + 0.05) / (dark + 0.05)


def shown(color: RichColor, depth: ColorSystem | None, *, dark: bool, foreground: bool) -> RGB:
    """What a terminal shows for ``color`` at ``depth`` (None: true colour).

    The terminal's default colour (ANSI themes) is taken as white on black for a dark
    theme and black on white for a light one.
    """
    if color.type is ColorType.DEFAULT:
        return (255, 255, 255) if dark == foreground else (0, 0, 0)
    if color.type is ColorType.STANDARD:
        assert color.number is not None
        return tuple(STANDARD_PALETTE[color.number])  # type: ignore[return-value]
    if depth is None:
        return tuple(color.get_truecolor())  # type: ignore[return-value]
    rounded = color.downgrade(depth)
    assert rounded.number is not None
    palette = EIGHT_BIT_PALETTE if depth is ColorSystem.EIGHT_BIT else STANDARD_PALETTE
    return tuple(palette[rounded.number])  # type: ignore[return-value]


def _style(widget: Widget, component: str) -> Style:
    return widget.get_component_rich_style(component) if component else widget.rich_style


async def measure(app: ReversiApp, depth: ColorSystem | None) -> dict[str, dict[str, float]]:
    """Contrast of every pair in ``PAIRS`` for every theme: {theme: {what: ratio}}."""
    ratios: dict[str, dict[str, float]] = {}
    async with app.run_test(size=(80, 24)) as pilot:
        for name in THEME_NAMES:
            app.theme = name
            await pilot.pause()
            dark = app.current_theme.dark
            ratios[name] = {}
            for what, kind, drawn, under in PAIRS:
                if what in THEME_TEXT and dark and name not in OURS:
                    continue
                widget = app.screen.query_one(kind)
                fg = _style(widget, drawn).color
                bg = _style(widget, under).bgcolor or widget.rich_style.bgcolor
                assert fg is not None and bg is not None, (name, what)
                ratios[name][what] = contrast(
                    shown(fg, depth, dark=dark, foreground=True),
                    shown(bg, depth, dark=dark, foreground=False),
                )
    return ratios


def failures(ratios: dict[str, dict[str, float]], minimum: float) -> list[str]:
    return [
        f"{theme}: {what} {ratio:.2f}:1"
        for theme, pairs in ratios.items()
        for what, ratio in pairs.items()
        if ratio < minimum
    ]


def test_contrast_ratio_follows_wcag() -> None:
    assert contrast((0, 0, 0), (255, 255, 255)) == pytest.approx(21.0)
    assert contrast((18, 52, 86), (18, 52, 86)) == pytest.approx(1.0)
    assert contrast((118, 118, 118), (255, 255, 255)) == pytest.approx(4.54, abs=0.01)


def test_rounding_to_256_colours_is_what_hid_the_old_grid() -> None:
    """The old felt and grid were 1.9:1 in true colour and all but equal in 256 colours."""
    felt, grid = RichColor.parse("#1f6b3e"), RichColor.parse("#0d3b21")
    ratio = contrast(
        shown(felt, ColorSystem.EIGHT_BIT, dark=True, foreground=False),
        shown(grid, ColorSystem.EIGHT_BIT, dark=True, foreground=True),
    )
    assert ratio < 1.2


@pytest.mark.parametrize("depth", [None, ColorSystem.EIGHT_BIT], ids=["true colour", "256 colours"])
async def test_every_mark_reads_in_every_theme(depth: ColorSystem | None) -> None:
    ratios = await measure(make_app(), depth)
    assert set(ratios) >= {"reversi", "reversi-contrast", "textual-light", "textual-dark"}
    assert failures(ratios, MINIMUM) == []


async def test_the_board_survives_16_colours() -> None:
    ratios = await measure(make_app(), ColorSystem.STANDARD)
    assert failures(ratios, MINIMUM_16) == []
    for theme in ("reversi", "textual-light"):
        for what in ("grid lines", "black disc", "white disc", "last-move frame"):
            assert ratios[theme][what] >= MINIMUM, (theme, what)


def test_textual_themes_get_labels_for_their_background() -> None:
    light = next(t for t in THEMES if t.name == "textual-light")
    dark = next(t for t in THEMES if t.name == "textual-dark")
    assert light.variables["board-label"] != dark.variables["board-label"]
    ours = next(t for t in THEMES if t.name == "reversi")
    assert with_board_labels(ours) is ours


async def test_score_bar_draws_both_shares_as_discs_on_felt() -> None:
    """Filled and hollow discs tell the shares apart even without colour."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        bar = app.screen.query_one(ScoreBar)
        bar.set_counts(20, 44)
        await pilot.pause()
        text = bar.render().plain
        width = bar.size.width
        assert text == "●" * round(width * 20 / 64) + "○" * (width - round(width * 20 / 64))
        track = bar.get_component_rich_style("scorebar--black").bgcolor
        assert track == bar.get_component_rich_style("scorebar--white").bgcolor
        assert track is not None and track != app.screen.query_one(Sidebar).rich_style.bgcolor


async def test_row_numbers_keep_clear_of_the_sidebar_text() -> None:
    """At 80x24 the right-hand row numbers end the board widget; the sidebar's text
    starts two columns later, so a blank column stands beside the sidebar's edge."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        board = app.screen.query_one(Board)
        sidebar = app.screen.query_one(Sidebar)
        geo = board.geometry
        row_1 = geo.cell_origin(0)[1] + (geo.cell_h - 1) // 2
        assert board.render_line(row_1).text.rstrip().endswith(" 1")
        assert board.region.right + 2 <= sidebar.content_region.x
