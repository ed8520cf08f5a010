"""The ``slow`` marker, the time factor and the Hypothesis profile, for every test.

A quick local loop may skip the slow tests (``pytest -m "not slow"``; the README gives
the times); CI and the README's test command run everything. Wall-clock bounds scale
with ``REVERSI_TEST_TIME_FACTOR`` (``tests/timing.py``); Hypothesis has no deadlines,
since a property test on a loaded machine is slow, not wrong.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from .timing import TIME_FACTOR

settings.register_profile("reversi", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("reversi")

#: Whole modules: property tests (hypothesis, random games), kill -9 at random moments,
#: memory and key-fuzz runs, the tests that drive the real app in a pty, the sdist and
#: wheel built, and the weight fits (173 s of the training tests' 181 s, both cores busy).
SLOW_MODULES = frozenset(
    {
        "engine/test_rules_property.py",
        "records/test_crash.py",
        "test_packaging.py",
        "training/test_bootstrap.py",
        "training/test_centre.py",
        "test_streams.py",
        "test_terminal.py",
        "tui/test_bursts.py",
        "tui/test_fuzz.py",
        "tui/test_input_survival.py",
        "tui/test_memory.py",
        "tui/test_suspend.py",
    }
)
#: Single tests elsewhere that take seconds: a whole game played by keys, the screens
#: checked character by character in every mode and theme, the deepest exact solves.
#: Each took 7 s or more with both cores busy (the README gives the suite's times).
SLOW_TESTS = frozenset(
    {
        "test_whole_game_keyboard_only_against_the_computer",
        "test_focus_shows_after_every_tab_in_256_colours",
        "test_hard_plays_18_empties_exactly_with_the_c_solver",
        "test_deeper_reference_sets",
        "test_ascii_mode_puts_only_ascii_on_screen",
        "test_unicode_mode_keeps_its_look",
        "test_the_board_survives_16_colours",
        "test_every_mark_reads_in_every_theme",
    }
)
_HERE = Path(__file__).parent


def pytest_report_header() -> str:
    return f"wall-clock bounds x{TIME_FACTOR:g} (REVERSI_TEST_TIME_FACTOR)"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: property, crash and long pty tests (-m 'not slow')")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        module = item.path.relative_to(_HERE).as_posix() if item.path.is_relative_to(_HERE) else ""
        name = item.originalname if isinstance(item, pytest.Function) else item.name
        if module in SLOW_MODULES or name in SLOW_TESTS:
            item.add_marker(pytest.mark.slow)
