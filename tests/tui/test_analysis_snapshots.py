"""Snapshot tests of the analysis screen, from the same scenes as its screenshots.

The scenes analyse their game with ``STEADY_ANALYSIS``, whose searches reach the
level's whole depth long before their time is up, so the pictures are the same on
every run. ``pytest tests/tui/test_analysis_snapshots.py --snapshot-update`` accepts
changed pictures after a look.
"""

from __future__ import annotations

import pytest

from reversi_tui.screenshots import ANALYSIS_SCENES, Scene

BY_NAME = {scene.name: scene for scene in ANALYSIS_SCENES}


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
@pytest.mark.parametrize("name", list(BY_NAME))
def test_analysis_scene(snap_compare: object, name: str, size: tuple[int, int]) -> None:
    scene: Scene = BY_NAME[name]
    assert snap_compare(scene.make_app(), terminal_size=size, run_before=scene.run_before)
