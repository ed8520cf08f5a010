"""The help screen (a legend of the board's marks, the mouse only when it is on) and the
command palette's game commands."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from rich.console import Console
from textual.command import Command, CommandList, CommandPalette
from textual.containers import VerticalScroll
from textual.pilot import Pilot
from textual.widgets import Footer, Static

from reversi_tui.cli import build_parser
from reversi_tui.commands.play import run_game_app
from reversi_tui.tui import app as app_module
from reversi_tui.tui.app import ReversiApp
from reversi_tui.tui.screens.confirm import ConfirmScreen
from reversi_tui.tui.screens.help import HelpScreen, Legend
from reversi_tui.tui.screens.new_game import NewGameScreen
from reversi_tui.tui.widgets.board_art import ASCII, UNICODE, Glyphs

from .helpers import make_app, settle, ui, wait_until

MOUSE_WORDS = ("mouse", "click", "hover")
GATHER = CommandPalette._GATHER_COMMANDS_GROUP


def help_text(screen: HelpScreen) -> str:
    """Everything the help screen says, scrolled into view or not, as plain text."""
    console = Console(width=72, file=io.StringIO(), record=True, color_system=None)
    scroll = screen.query_one(VerticalScroll)
    console.print(scroll.border_title, scroll.border_subtitle)
    for widget in screen.query(Static):
        console.print(widget.content)
    for legend in screen.query(Legend):
        console.print(legend.render())
    return console.export_text()


async def open_help(app: ReversiApp, pilot: Pilot[int]) -> HelpScreen:
    await settle(app, pilot)
    await pilot.press("question_mark")
    await pilot.pause()
    assert isinstance(app.screen, HelpScreen)
    return app.screen


@pytest.mark.parametrize("glyphs", [UNICODE, ASCII], ids=["unicode", "ascii"])
async def test_legend_draws_every_mark_with_the_board_glyphs(glyphs: Glyphs) -> None:
    app = make_app(glyphs=glyphs)
    async with app.run_test(size=(80, 24)) as pilot:
        text = help_text(await open_help(app, pilot))
        bar, last = glyphs.grid[2], glyphs.last[2]
        left, right = glyphs.cursor
        for sample in (
            f"{bar} {glyphs.black} {bar}",
            f"{bar} {glyphs.white} {bar}",
            f"{bar} {glyphs.legal} {bar}",
            f"{bar}{left}{glyphs.empty}{right}{bar}",
            f"{last} {glyphs.black} {last}",
            f"{bar} {glyphs.preview_black} {bar}",
            f"{bar} {glyphs.preview_white} {bar}",
        ):
            assert sample in text
        for meaning in ("legal move", "cursor", "last move", "flip preview", "black disc"):
            assert meaning in text


async def test_ascii_help_is_ascii_through_and_through() -> None:
    app = make_app(glyphs=ASCII)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_help(app, pilot)
        assert help_text(screen).isascii()
        assert screen.query_one(VerticalScroll).styles.border_top[0] == "ascii"


@pytest.mark.parametrize("theme", ["reversi", "reversi-contrast", "textual-light"])
async def test_legend_colours_are_the_board_colours(theme: str) -> None:
    app = make_app(theme=theme)
    async with app.run_test(size=(80, 24)) as pilot:
        legend = (await open_help(app, pilot)).query_one(Legend)
        board = ui(app).board
        for name in Legend.COMPONENT_CLASSES:
            mine = legend.get_component_rich_style(name, partial=True)
            assert mine == board.get_component_rich_style(name, partial=True), name
        assert legend.get_component_rich_style("board--legal", partial=True).color is not None


async def test_help_says_nothing_of_the_mouse_without_one() -> None:
    app = make_app(mouse=False)
    async with app.run_test(size=(80, 24)) as pilot:
        text = help_text(await open_help(app, pilot)).lower()
        assert [w for w in MOUSE_WORDS if w in text] == []
        assert "esc cancels" in text and "home" in text and "play on" in text
        assert "--unicode" in text and "utf-8" in text


async def test_help_explains_the_mouse_when_it_is_on() -> None:
    app = make_app(mouse=True)
    async with app.run_test(size=(80, 24)) as pilot:
        text = help_text(await open_help(app, pilot)).lower()
        assert all(w in text for w in MOUSE_WORDS)


async def test_help_mouse_sentence_is_part_of_the_flip_preview_note() -> None:
    """Issue 17: "... new games are off, and the mouse pointer over one." was garbled."""
    app = make_app(mouse=True)
    async with app.run_test(size=(80, 24)) as pilot:
        text = " ".join(help_text(await open_help(app, pilot)).split())
        assert "new games are off. " in text and "are off, and the mouse" not in text
        assert (
            "The flip preview follows the cursor when it stands on a legal square, "
            "and the mouse pointer over one." in text
        )


async def test_help_scrolls_to_the_rules_at_80x24() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_help(app, pilot)
        scroll = screen.query_one(VerticalScroll)
        assert scroll.region.height <= 24 and scroll.max_scroll_y > 0
        await pilot.press("end")
        await wait_until(pilot, lambda: scroll.scroll_y == scroll.max_scroll_y)
        assert scroll.region.contains_region(screen.query_one("#rules").region)


async def test_help_footer_shows_the_help_keys() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_help(app, pilot)
        await pilot.pause()
        footer = screen.query_one(Footer)  # the help's own, not the game's beneath
        shown = " ".join(str(key.render()) for key in footer.query("*"))
        assert "Close help" in shown and "Undo" not in shown


def test_no_mouse_reaches_the_app_and_the_terminal(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    seen: dict[str, bool] = {}

    def fake_run(self: ReversiApp, *, mouse: bool = True) -> int:
        seen.update(app=self.mouse, driver=mouse)
        return 0

    monkeypatch.setattr(app_module.ReversiApp, "run", fake_run)
    monkeypatch.setattr(sys, "setswitchinterval", lambda interval: None)
    args = build_parser().parse_args(["--no-mouse", "--data-dir", str(tmp_path)])
    assert run_game_app(args, ascii_only=False) == 0
    assert seen == {"app": False, "driver": False}


# The command palette ------------------------------------------------------------------


async def open_palette(app: ReversiApp, pilot: Pilot[int], query: str = "") -> CommandPalette:
    await pilot.press("ctrl+p")
    await wait_until(pilot, lambda: CommandPalette.is_open(app))
    palette = app.screen
    assert isinstance(palette, CommandPalette)
    if query:
        await pilot.press(*query)

    def listed() -> bool:
        """Every search has finished (hits come in batches) and something is listed."""
        gathering = any(w.group == GATHER and not w.is_finished for w in palette.workers)
        return not gathering and palette.query_one(CommandList).option_count > 0

    await wait_until(pilot, listed)
    return palette


def entries(palette: CommandPalette) -> list[str]:
    options = palette.query_one(CommandList).options
    return [str(option.hit.text) for option in options if isinstance(option, Command)]


async def run_command(app: ReversiApp, pilot: Pilot[int], name: str) -> None:
    """Type the command's name in the palette and press Enter on the one match."""
    palette = await open_palette(app, pilot, name.lower())
    assert entries(palette) == [name]
    await pilot.press("enter")
    await wait_until(pilot, lambda: not CommandPalette.is_open(app))
    await pilot.pause()


async def test_palette_lists_the_game_commands_and_theme() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        palette = await open_palette(app, pilot)
        names = [
            "New game",
            "Undo",
            "Redo",
            "Hint",
            "Save game",
            "Open game",
            "Copy moves",
            "Statistics",
            "Play online",
            "Help",
            "Theme",
            "Quit",
            "Screenshot",
        ]
        assert entries(palette) == names


async def test_palette_undo_and_redo_act_on_the_game() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("enter")
        await settle(app, pilot)
        assert len(ui(app).game.plies) == 1
        await run_command(app, pilot, "Undo")
        assert len(ui(app).game.plies) == 0
        await run_command(app, pilot, "Redo")
        assert len(ui(app).game.plies) == 1


async def test_palette_opens_new_game_and_help() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await run_command(app, pilot, "New game")
        assert isinstance(app.screen, NewGameScreen)
        await pilot.press("escape")
        await run_command(app, pilot, "Help")
        assert isinstance(app.screen, HelpScreen)


async def test_palette_hint_moves_the_cursor_to_the_advice() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        board = ui(app).board
        board.cursor = 0
        await run_command(app, pilot, "Hint")
        await settle(app, pilot)
        assert board.cursor == ui(app).game.position.legal_moves[-1]  # the stand-in's advice


async def test_palette_quit_during_a_game_asks_first() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("enter")
        await settle(app, pilot)
        await run_command(app, pilot, "Quit")
        assert isinstance(app.screen, ConfirmScreen)
        assert app.return_value is None and app.is_running
        await pilot.press("n")
        assert app.screen is ui(app) and len(ui(app).game.plies) == 1


async def test_palette_quit_before_any_move_quits_at_once() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await run_command(app, pilot, "Quit")
        await wait_until(pilot, lambda: app.return_value == 0)


async def test_palette_over_a_dialog_offers_no_game_commands() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_help(app, pilot)
        palette = await open_palette(app, pilot)
        assert entries(palette) == ["Theme", "Screenshot"]
