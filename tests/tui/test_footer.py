"""The footer at every size: ``?`` Help always shows, and no key covers another."""

from __future__ import annotations

import pytest
from textual.widgets._footer import FooterKey

from reversi_tui.engine import parse_square
from reversi_tui.tui.app import ReversiApp
from reversi_tui.tui.screens.game_over import GameOverScreen
from reversi_tui.tui.widgets.footer import KeyFooter

from ..fakes import FakeComputer
from .helpers import LAST_MOVE, make_app, settle, ui, wait_until


def footer_keys(app: ReversiApp) -> list[FooterKey]:
    return list(app.screen.query_one(KeyFooter).query(FooterKey))


def help_is_shown(app: ReversiApp) -> bool:
    """The help key lies wholly on the screen and no other key covers it."""
    keys = footer_keys(app)
    (help_key,) = [k for k in keys if k.action == "help"]
    region = help_key.region
    on_screen = region.width > 0 and app.screen.region.contains_region(region)
    covered = any(k is not help_key and k.region.overlaps(region) for k in keys)
    return on_screen and not covered and "Help" in str(help_key.render())


def no_key_covers_another(app: ReversiApp) -> bool:
    regions = [k.region for k in footer_keys(app) if k.region.width]
    return not any(a.overlaps(b) for i, a in enumerate(regions) for b in regions[i + 1 :])


@pytest.mark.parametrize("size", [(69, 20), (72, 20), (80, 24), (120, 40)])
async def test_help_shows_against_the_computer(size: tuple[int, int]) -> None:
    """Issue 17: at 69x20 the palette's key covered ``? Help``."""
    app = make_app(white=FakeComputer())
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        await pilot.pause()
        assert help_is_shown(app) and no_key_covers_another(app)


@pytest.mark.parametrize("size", [(69, 20), (80, 24)])
async def test_help_shows_in_computer_against_computer(size: tuple[int, int]) -> None:
    app = make_app(FakeComputer(gated=True), FakeComputer(gated=True))
    async with app.run_test(size=size) as pilot:
        await wait_until(pilot, lambda: ui(app).thinking)
        await pilot.pause()
        assert help_is_shown(app) and no_key_covers_another(app)


async def test_help_shows_in_review_at_the_smallest_size() -> None:
    app = make_app(white=FakeComputer(), start=LAST_MOVE)
    async with app.run_test(size=(69, 20)) as pilot:
        await settle(app, pilot)
        ui(app).board.cursor = parse_square("b8")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await pilot.press("r", "left")
        await wait_until(pilot, lambda: ui(app).reviewing)
        await pilot.pause()
        assert help_is_shown(app) and no_key_covers_another(app)
