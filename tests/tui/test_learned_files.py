"""The app plays on when a learned file is refused, and says so in one notice."""

from __future__ import annotations

from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import pytest

from reversi_tui.engine.ai import learned
from reversi_tui.engine.ai.book import RESOURCE as BOOK_FILE
from reversi_tui.engine.ai.pattern_eval import RESOURCE as WEIGHTS_FILE
from reversi_tui.players import Computer

from .helpers import make_app, settle, ui, wait_until


@pytest.fixture
def folder(tmp_path: Path) -> Iterator[Path]:
    """The learned files are read from ``tmp_path``: copies of the shipped ones."""
    for name in (WEIGHTS_FILE, BOOK_FILE):
        data = resources.files(learned.__package__).joinpath(name).read_bytes()
        (tmp_path / name).write_bytes(data)
    learned.read_from(tmp_path)
    yield tmp_path
    learned.read_from(None)


@pytest.mark.parametrize(
    ("damaged", "content", "said"),
    [
        (BOOK_FILE, b"RVBK\x10\x00\x00\x00{", "opening book is damaged"),
        (WEIGHTS_FILE, b"garbage" * 100, "pattern weights are damaged"),
    ],
)
async def test_a_damaged_learned_file_is_one_notice_and_the_game_goes_on(
    folder: Path, damaged: str, content: bytes, said: str
) -> None:
    (folder / damaged).write_bytes(content)
    app = make_app(white=Computer("hard", think_time=0.05))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        for turn in range(1, 4):
            await pilot.press("tab", "enter")  # Black plays; the computer answers
            await wait_until(pilot, lambda n=turn: len(ui(app).game.moves) >= 2 * n)
            await settle(app, pilot)
        assert app.is_running and not ui(app).game.is_over
        messages = [n.message for n in app._notifications]
        assert len(messages) == 1 and said in messages[0], messages
        assert "plays" in messages[0]
    assert (folder / damaged).read_bytes() == content  # set aside by nobody, never deleted
