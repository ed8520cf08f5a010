"""The new-game dialog: where the focus starts and that it shows, the handicap fields.

Focus is checked as a terminal with 256 colours would show it: every cell's colours
are rounded to the xterm palette (reverse video applied), and the focused widget
must look different from the same widget unfocused.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from rich._palettes import EIGHT_BIT_PALETTE
from rich.color import Color as RichColor
from rich.color import ColorSystem, ColorType
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Button, Label, Select, Static

from reversi_tui.cli import build_parser
from reversi_tui.commands.play import run_game_app
from reversi_tui.engine import Color, Game, parse_position, parse_square
from reversi_tui.match import MatchSettings, PlayerSpec
from reversi_tui.records.paths import Places
from reversi_tui.records.settings_file import StoredSettings, save_settings
from reversi_tui.tui import app as app_module
from reversi_tui.tui.app import ReversiApp
from reversi_tui.tui.screens.confirm import ConfirmScreen
from reversi_tui.tui.screens.game_over import GameOverScreen
from reversi_tui.tui.screens.new_game import NewGameScreen

from ..fakes import FakeComputer, fake_sources
from .helpers import LAST_MOVE, make_app, quick_advisor, settle, ui

#: What one cell looks like in 256 colours: its character's colour and its background.
Look = tuple[int | None, int | None]


def _index(color: RichColor | None) -> int | None:
    """The 256-colour palette entry a colour is shown with (None: the terminal's default)."""
    if color is None or color.type is ColorType.DEFAULT:
        return None
    return color.downgrade(ColorSystem.EIGHT_BIT).number


def looks(widget: Widget) -> list[Look]:
    """Every cell of ``widget`` on screen, as a 256-colour terminal would show it."""
    region = widget.region
    cells: list[Look] = []
    for y in range(region.y, region.bottom):
        for x in range(region.x, region.right):
            style = widget.screen.get_style_at(x, y)
            fg, bg = _index(style.color), _index(style.bgcolor)
            cells.append((bg, fg) if style.reverse else (fg, bg))
    return cells


def _luminance(index: int) -> float:
    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = EIGHT_BIT_PALETTE[index]
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def stands_out(focused: list[Look], unfocused: list[Look]) -> bool:
    """Some cell's background changed to one at least 1.5:1 from what it was."""
    for (_, before), (_, after) in zip(unfocused, focused, strict=True):
        if before is not None and after is not None and before != after:
            light, dark = sorted((_luminance(before), _luminance(after)), reverse=True)
            if (light + 0.05) / (dark + 0.05) >= 1.5:
                return True
    return False


def readable(widget: Widget) -> bool:
    """The text of a field (a Select's current choice, a Button's label) reads at 3:1."""
    text = widget.query_one("#label") if isinstance(widget, Select) else widget
    style = text.rich_style
    fg, bg = _index(style.color), _index(style.bgcolor)
    assert fg is not None and bg is not None
    light, dark = sorted((_luminance(fg), _luminance(bg)), reverse=True)
    return (light + 0.05) / (dark + 0.05) >= 3.0


async def open_dialog(
    app: ReversiApp, pilot: Pilot[int], *, move_first: bool = True
) -> NewGameScreen:
    """The new-game dialog, after a move (a game in progress) unless ``move_first`` is False."""
    if move_first:
        await pilot.press("enter")
    await pilot.press("n")
    assert isinstance(app.screen, NewGameScreen)
    return app.screen


@pytest.mark.parametrize("theme", ["reversi", "reversi-contrast", "textual-light", "nord"])
async def test_focus_shows_after_every_tab_in_256_colours(theme: str) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.theme = theme
        dialog = await open_dialog(app, pilot)
        dialog.query_one("#handicap", Select).value = 1  # "Handicap for" takes the focus too
        dialog.query_one("#black", Select).value = "easy"  # the think time and the pace too
        dialog.query_one("#white", Select).value = "hard"
        await pilot.pause()
        fields: list[Widget] = [*dialog.query(Select), *dialog.query(Button)]
        before = {w.id: looks(w) for w in fields}  # Black is focused
        seen: list[str | None] = []
        for _ in range(len(fields)):
            await pilot.press("tab")
            focused = dialog.focused
            assert focused is not None and focused in fields
            seen.append(focused.id)
            now = {w.id: looks(w) for w in fields}
            assert now != before, "a Tab left the dialog looking the same"
            assert now[focused.id] != before[focused.id], f"{focused.id} looks the same focused"
            assert stands_out(now[focused.id], before[focused.id]), f"{focused.id}: too faint"
            assert readable(focused), f"{focused.id}'s text fades when focused"
            before = now
        assert set(seen) == {w.id for w in fields}


async def test_the_open_list_is_framed() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await open_dialog(app, pilot)
        select = dialog.query_one("#white", Select)
        select.focus()
        await pilot.press("enter")
        assert select.expanded
        overlay = select.query_one("SelectOverlay")
        assert overlay.styles.border_top[0] not in ("", "none", "hidden", "blank")
        assert overlay.styles.border_left[0] not in ("", "none", "hidden", "blank")
        # The frame lies outside the options: the first option sits inside the border.
        assert overlay.content_region.y == overlay.region.y + 1


async def test_the_first_field_has_the_focus_while_a_game_is_in_progress() -> None:
    """Issue 17: Cancel had the focus during a game, so Enter closed the dialog."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await open_dialog(app, pilot)
        assert dialog.focused is not None and dialog.focused.id == "black"
        await pilot.press("enter")  # opens Black's list: the dialog stays
        await pilot.pause()
        assert app.screen is dialog and dialog.query_one("#black", Select).expanded
        await pilot.press("escape")  # closes the list only
        await pilot.pause()
        assert app.screen is dialog and not dialog.query_one("#black", Select).expanded
        assert len(ui(app).game.plies) == 1
        await pilot.press("y")
        assert not isinstance(app.screen, NewGameScreen)
        assert ui(app).game.plies == ()


async def test_the_first_field_has_the_focus_before_the_first_move() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await open_dialog(app, pilot, move_first=False)
        assert dialog.focused is not None and dialog.focused.id == "black"


async def test_the_first_field_has_the_focus_after_the_game_over_dialog() -> None:
    app = make_app(start=LAST_MOVE)
    async with app.run_test(size=(80, 24)) as pilot:
        ui(app).board.cursor = parse_square("b8")
        await pilot.press("enter")
        assert isinstance(app.screen, GameOverScreen)
        await pilot.press("n")
        assert isinstance(app.screen, NewGameScreen)
        assert app.screen.focused is not None and app.screen.focused.id == "black"
        await pilot.press("y")
        assert not isinstance(app.screen, (NewGameScreen, ConfirmScreen))
        assert ui(app).game.plies == ()


async def test_handicap_for_is_disabled_while_there_is_no_handicap() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await open_dialog(app, pilot)
        colour = dialog.query_one("#handicap-colour", Select)
        assert colour.disabled
        dialog.query_one("#handicap", Select).focus()
        await pilot.press("tab")
        assert dialog.focused is not None and dialog.focused.id == "yes"  # skipped
        dialog.query_one("#handicap", Select).value = 3
        await pilot.pause()
        assert not colour.disabled
        dialog.query_one("#handicap", Select).value = 0
        await pilot.pause()
        assert colour.disabled


def looks_off(dialog: NewGameScreen, name: str) -> bool:
    """Whether field ``name`` is drawn as off: its label dim, and in place of its value,
    dim, why it is off."""
    label = dialog.query_one(f"#{name}-label", Label)
    why = dialog.query_one(f"#{name}-why", Static)
    field = dialog.query_one(f"#{name}", Select)
    off = bool(label.rich_style.dim)
    assert why.display is off and field.display is not off, name  # all of it, or none
    assert not off or (why.rich_style.dim and field.disabled), name
    return off


async def test_a_disabled_field_looks_off_and_says_why() -> None:
    """They looked almost like the enabled fields: the label as bright, only the value dim."""
    app = make_app()  # human v human, no handicap: all three fields are off
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await open_dialog(app, pilot)
        assert all(looks_off(dialog, name) for name in ("handicap-colour", "think-time", "pace"))
        assert not dialog.query_one("Label").rich_style.dim  # Black's, always on
        said = [str(why.render()) for why in dialog.query(".off-why").results(Static)]
        assert said == ["off: no handicap", "off: no computer plays", "off: a person plays"]
        dialog.query_one("#black", Select).value = "hard"
        await pilot.pause()
        assert not looks_off(dialog, "think-time") and looks_off(dialog, "pace")
        dialog.query_one("#white", Select).value = "easy"
        dialog.query_one("#handicap", Select).value = 2
        await pilot.pause()
        assert not any(looks_off(dialog, n) for n in ("handicap-colour", "think-time", "pace"))


async def test_the_dialog_remembers_the_handicap_of_a_new_game() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await open_dialog(app, pilot)
        dialog.query_one("#handicap", Select).value = 2
        await pilot.pause()
        dialog.query_one("#handicap-colour", Select).value = Color.WHITE
        await pilot.press("y")
        await settle(app, pilot)
        assert ui(app).match.settings.handicap == 2
        dialog = await open_dialog(app, pilot)
        assert dialog.query_one("#handicap", Select).value == 2
        assert dialog.query_one("#handicap-colour", Select).value is Color.WHITE
        assert not dialog.query_one("#handicap-colour", Select).disabled


async def test_the_dialog_remembers_the_handicap_after_the_game_over_dialog() -> None:
    settings = MatchSettings(
        PlayerSpec.human(), PlayerSpec.human(), handicap=1, handicap_colour=Color.WHITE
    )
    app = ReversiApp(
        settings,
        make_source=fake_sources(),
        game=Game(parse_position(LAST_MOVE)),
        delay=0.0,
        advisor=quick_advisor,
    )
    async with app.run_test(size=(80, 24)) as pilot:
        ui(app).board.cursor = parse_square("b8")
        await pilot.press("enter")
        assert isinstance(app.screen, GameOverScreen)
        await pilot.press("n")
        assert isinstance(app.screen, NewGameScreen)
        assert app.screen.query_one("#handicap", Select).value == 1
        assert app.screen.query_one("#handicap-colour", Select).value is Color.WHITE
        await pilot.press("y")
        await settle(app, pilot)
        assert ui(app).match.settings.handicap == 1
        assert ui(app).game.position.count(Color.WHITE) == 3  # two discs and one corner


@pytest.mark.parametrize("dialog", ["quit", "game over"])
@pytest.mark.parametrize("theme", ["reversi", "textual-light"])
async def test_every_dialog_shows_its_focused_button_in_256_colours(
    dialog: str, theme: str
) -> None:
    app = make_app(start=None if dialog == "quit" else LAST_MOVE)
    async with app.run_test(size=(80, 24)) as pilot:
        app.theme = theme
        if dialog == "quit":
            await pilot.press("enter", "q")  # a move was played: quitting asks
            assert isinstance(app.screen, ConfirmScreen)
        else:
            ui(app).board.cursor = parse_square("b8")
            await pilot.press("enter")
            assert isinstance(app.screen, GameOverScreen)
        screen = app.screen
        buttons = list(screen.query(Button))
        before = {b.id: looks(b) for b in buttons}
        for _ in buttons:
            await pilot.press("tab")
            focused = screen.focused
            assert isinstance(focused, Button)
            now = {b.id: looks(b) for b in buttons}
            assert stands_out(now[focused.id], before[focused.id]), focused.id
            assert readable(focused), focused.id
            before = now


# The computer's think time and the pace of computer against computer (issue 17) ----------


async def test_think_time_and_pace_are_chosen_in_the_dialog_and_remembered() -> None:
    app = make_app(white=FakeComputer(), delay=0.5)
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await open_dialog(app, pilot, move_first=False)
        think, pace = dialog.query_one("#think-time", Select), dialog.query_one("#pace", Select)
        assert not think.disabled and think.value == 0.0  # human v medium: the level's own
        assert pace.disabled and pace.value == 0.5  # only for computers on both sides
        dialog.query_one("#black", Select).value = "easy"
        await pilot.pause()
        assert not pace.disabled
        think.value = 2.0
        pace.value = 1.0
        await pilot.press("y")
        assert not isinstance(app.screen, NewGameScreen)
        settings = ui(app).match.settings
        assert settings.black == PlayerSpec.computer("easy", 2.0)
        assert settings.white == PlayerSpec.computer("medium", 2.0)
        assert ui(app).pace == 1.0 and ui(app).match.pace == 1.0
        assert (app.memory.stored.think_time, app.memory.stored.pace) == (2.0, 1.0)
        await pilot.press("space")  # pause the computers; the dialog shows the choices
        dialog = await open_dialog(app, pilot, move_first=False)
        assert dialog.query_one("#think-time", Select).value == 2.0
        assert dialog.query_one("#pace", Select).value == 1.0


async def test_think_time_is_off_for_two_people_and_shows_an_odd_think_time() -> None:
    settings = MatchSettings(PlayerSpec.human(), PlayerSpec.computer("hard", 3.7))
    app = ReversiApp(settings, make_source=fake_sources(), advisor=quick_advisor, delay=0.7)
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await open_dialog(app, pilot, move_first=False)
        think = dialog.query_one("#think-time", Select)
        assert think.value == 3.7 and think.selection == 3.7
        assert dialog.query_one("#pace", Select).value == 0.7  # --delay 0.7 is offered
        dialog.query_one("#white", Select).value = "human"
        await pilot.pause()
        assert think.disabled
        await pilot.press("y")
        assert ui(app).match.settings.white == PlayerSpec.human()


async def test_an_unchanged_think_time_keeps_each_computers_own() -> None:
    settings = MatchSettings(PlayerSpec.computer("easy", 1.0), PlayerSpec.computer("hard", 5.0))
    app = ReversiApp(settings, make_source=fake_sources(), advisor=quick_advisor, delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("space")  # pause the computers first
        dialog = await open_dialog(app, pilot, move_first=False)
        assert dialog.query_one("#think-time", Select).value == 1.0
        await pilot.press("y")
        chosen = ui(app).match.settings
        assert (chosen.black.think_time, chosen.white.think_time) == (1.0, 5.0)


async def test_the_dialog_fits_the_smallest_terminal() -> None:
    app = make_app()
    async with app.run_test(size=(69, 20)) as pilot:
        dialog = await open_dialog(app, pilot)
        await pilot.pause()
        screen = dialog.region
        for widget in [*dialog.query(Select), *dialog.query(Button)]:
            assert screen.contains_region(widget.region), widget.id
        assert dialog.query_one("#no", Button).region.bottom <= screen.bottom - 1  # the footer


@pytest.mark.parametrize(("options", "pace"), [([], 2.0), (["--delay", "0.3"], 0.3)])
def test_the_remembered_pace_starts_the_next_run_unless_delay_is_given(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, options: list[str], pace: float
) -> None:
    seen: list[float] = []

    def fake_run(self: ReversiApp, *, mouse: bool = True) -> int:
        seen.append(self.game_screen.pace)
        return 0

    monkeypatch.setattr(app_module.ReversiApp, "run", fake_run)
    monkeypatch.setattr(sys, "setswitchinterval", lambda interval: None)
    args = build_parser().parse_args([*options, "--data-dir", str(tmp_path)])
    places = Places.resolve(args.data_dir)
    places.settings_file.parent.mkdir(parents=True, exist_ok=True)
    save_settings(places.settings_file, StoredSettings(pace=2.0))
    assert run_game_app(args, ascii_only=False) == 0
    assert seen == [pace]
