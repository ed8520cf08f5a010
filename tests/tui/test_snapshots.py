"""Snapshot tests of the main screens, from the same scenes as the screenshots.

``pytest tests/tui --snapshot-update`` accepts changed pictures after a look.
"""

from __future__ import annotations

import pytest

from reversi_tui.match import MatchSettings
from reversi_tui.screenshots import HUMAN, MEDIUM, SCENES, Scene
from reversi_tui.tui.app import ReversiApp
from reversi_tui.tui.widgets.board_art import ASCII

BY_NAME = {scene.name: scene for scene in SCENES}


@pytest.mark.parametrize("name", [scene.name for scene in SCENES])
def test_scene_80x24(snap_compare: object, name: str) -> None:
    scene: Scene = BY_NAME[name]
    assert snap_compare(scene.make_app(), terminal_size=(80, 24), run_before=scene.run_before)


@pytest.mark.parametrize("name", ["opening", "mid-game"])
def test_scene_large(snap_compare: object, name: str) -> None:
    scene: Scene = BY_NAME[name]
    assert snap_compare(scene.make_app(), terminal_size=(120, 40), run_before=scene.run_before)


def test_ascii_high_contrast(snap_compare: object) -> None:
    app = ReversiApp(MatchSettings(HUMAN, MEDIUM), glyphs=ASCII, theme="reversi-contrast")
    assert snap_compare(app, terminal_size=(80, 24), press=["tab"])


def test_too_small(snap_compare: object) -> None:
    scene: Scene = BY_NAME["opening"]
    assert snap_compare(scene.make_app(), terminal_size=(60, 16))
