"""``--ascii`` covers every character on screen, not only the board's.

Each scene is read back as the terminal would show it (a modal over the screens
beneath it), so a border, scrollbar or key name that slips out of ASCII fails
here. The same scenes in Unicode must show non-ASCII, or the check proves nothing.
"""

from __future__ import annotations

import io

import pytest
from rich.cells import cell_len
from rich.console import Console
from textual.binding import Binding
from textual.command import CommandList, CommandPalette
from textual.widgets import Select
from textual.widgets._select import SelectOverlay
from textual.widgets._toast import Toast

from reversi_tui.engine import Game, parse_square
from reversi_tui.tui.app import ReversiApp
from reversi_tui.tui.ascii import ascii_key_display, to_ascii
from reversi_tui.tui.screens.confirm import ConfirmScreen
from reversi_tui.tui.screens.game_over import GameOverScreen
from reversi_tui.tui.screens.help import HelpScreen
from reversi_tui.tui.screens.new_game import NewGameScreen
from reversi_tui.tui.widgets.board_art import ASCII, UNICODE, Glyphs
from reversi_tui.tui.widgets.sidebar import MoveList

from .helpers import LAST_MOVE, make_app, settle, ui, wait_until

#: What ASCII mode leaves to its last-resort filter on purpose: a Select's arrows
#: (Textual hard-codes them; the filter draws ``v`` and ``^``). Anything else
#: reaching the filter means a border, scrollbar or text is not ASCII by design.
LEFT_TO_THE_FILTER = {"▼", "▲"}
#: A command palette's first frame may come before the app gives it an ASCII prompt
#: (on ``CommandPalette.Opened``); the filter draws the magnifying glass as ``>`` too.
PALETTE_FIRST_FRAME = {"🔎", "…"}


def screen_text(app: ReversiApp) -> str:
    """Every character on screen: the current screen over the ones beneath it."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        color_system=None,
        record=True,
        legacy_windows=False,
        safe_box=False,
    )
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    console.print(update)
    return console.export_text()


def non_ascii(text: str) -> str:
    return "".join(sorted({c for c in text if not c.isascii()}))


def scrollbar_column(app: ReversiApp, text: str) -> str:
    """The characters of the move list's scrollbar, top to bottom."""
    region = app.query_one(MoveList).vertical_scrollbar.region
    lines = text.splitlines()
    return "".join(lines[y][region.x] for y in range(region.y, region.bottom))


def mid_game(plies: int) -> str:
    """A move list of ``plies`` moves, each side taking its first legal move."""
    game = Game()
    while len(game.plies) < plies:
        game.play(game.legal_moves[0])
    return game.move_list()


class Scenes:
    """What each scene shows, and what the ASCII filter first had to replace in it."""

    def __init__(self) -> None:
        self.texts: dict[str, str] = {}
        self.replaced: dict[str, set[str]] = {}
        self._seen: set[str] = set()

    def capture(self, name: str, app: ReversiApp) -> str:
        self.texts[name] = text = screen_text(app)
        replaced = set(app.ascii_filter.replaced) if app.ascii_filter else set()
        self.replaced[name] = replaced - self._seen
        self._seen |= replaced
        return text


async def scenes(glyphs: Glyphs, size: tuple[int, int]) -> Scenes:
    """Every kind of screen: mid-game with a scrolled move list, each dialog, a toast,
    the command palettes and the game-over dialog."""
    seen = Scenes()
    app = make_app(glyphs=glyphs, moves=mid_game(56))  # more moves than the list shows
    async with app.run_test(size=size, notifications=True) as pilot:
        await settle(app, pilot)
        await pilot.press("tab", "enter")
        await settle(app, pilot)
        move_list = app.query_one(MoveList)
        assert move_list.max_scroll_y > 0 and move_list.vertical_scrollbar.display
        main = seen.capture("main", app)
        seen.texts["scrollbar"] = scrollbar_column(app, main)

        await pilot.press("n")
        assert isinstance(app.screen, NewGameScreen)
        seen.capture("new game", app)
        app.screen.query_one("#white", Select).focus()
        await pilot.press("enter")
        overlay = app.screen.query_one("#white", Select).query_one(SelectOverlay)
        await wait_until(pilot, lambda: overlay.display and overlay.region.height > 0)
        await pilot.pause()
        seen.capture("new game, list open", app)
        await pilot.press("escape", "escape")

        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.pause()
        seen.capture("help", app)
        await pilot.press("escape")

        await pilot.press("q")
        assert isinstance(app.screen, ConfirmScreen)
        seen.capture("quit", app)
        await pilot.press("n")

        app.notify("White has no move and passes.", title="Pass")
        await wait_until(pilot, lambda: bool(app.screen.query(Toast)))
        await pilot.pause()
        seen.capture("toast", app)

        await pilot.press("ctrl+p")
        assert isinstance(app.screen, CommandPalette)
        commands = app.screen.query_one(CommandList)
        await wait_until(pilot, lambda: commands.option_count > 0)
        await pilot.pause()
        seen.capture("command palette", app)
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, CommandPalette))

        app.call_later(app.search_themes)  # what the palette's Theme command does
        await wait_until(pilot, lambda: isinstance(app.screen, CommandPalette))
        commands = app.screen.query_one(CommandList)
        await wait_until(pilot, lambda: commands.option_count > 0)
        await pilot.pause()
        seen.capture("theme palette", app)

    app = make_app(start=LAST_MOVE, glyphs=glyphs)
    async with app.run_test(size=size, notifications=True) as pilot:
        ui(app).board.cursor = parse_square("b8")
        await pilot.press("enter")
        assert isinstance(app.screen, GameOverScreen)
        await pilot.pause()
        seen.capture("game over", app)
    return seen


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_ascii_mode_puts_only_ascii_on_screen(size: tuple[int, int]) -> None:
    seen = await scenes(ASCII, size)
    texts = seen.texts
    assert {name: non_ascii(text) for name, text in texts.items() if non_ascii(text)} == {}
    # Borders, buttons, scrollbars, toasts and key names are ASCII by design, not by
    # the filter's last-resort replacements.
    left_over = {
        name: non_ascii("".join(chars))
        for name, chars in seen.replaced.items()
        if not chars <= LEFT_TO_THE_FILTER | (PALETTE_FIRST_FRAME if "palette" in name else set())
    }
    assert left_over == {}
    assert "#" in texts["scrollbar"] and set(texts["scrollbar"]) <= {"#", " "}
    assert "Enter" in texts["main"]  # the footer names the key in a word
    assert ">  Search for commands..." in texts["command palette"]
    assert ">  Search for themes..." in texts["theme palette"]


async def test_unicode_mode_keeps_its_look() -> None:
    """The same scenes in Unicode show non-ASCII everywhere: the check above can fail."""
    seen = await scenes(UNICODE, (80, 24))
    texts = {name: text for name, text in seen.texts.items() if name != "scrollbar"}
    assert [name for name, text in texts.items() if not non_ascii(text)] == []
    assert not any(seen.replaced.values())
    assert "⏎" in texts["main"]


def test_key_names_are_words_in_ascii() -> None:
    assert ascii_key_display("⏎") == "Enter"
    assert ascii_key_display("shift+↑") == "shift+Up"
    assert ascii_key_display("^p") == "^p"
    app = make_app(glyphs=ASCII)
    assert app.get_key_display(Binding("enter", "play")) == "Enter"
    assert app.get_key_display(Binding("left", "back")) == "Left"
    assert make_app().get_key_display(Binding("enter", "play")) == "⏎"


@pytest.mark.parametrize(
    "text",
    [
        "┏━━┓ ║ ╰─╯",
        "▁▂▃▄▅▆▇█ ▉▊▋▌▍▎▏ ▔▕ ░▒▓",
        "▲▼◀▶ ←↑→↓ …·•●○",
        "🔎 search",
        "café e\u0301",
        "棋盘",
    ],
)
def test_to_ascii_keeps_every_width(text: str) -> None:
    ascii = to_ascii(text)
    assert ascii.isascii()
    assert cell_len(ascii) == cell_len(text)
