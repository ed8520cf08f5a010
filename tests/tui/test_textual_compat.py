"""The Textual installed is the pinned one, and every workaround's Textual names exist.

``reversi_tui.tui.compat.WORKAROUNDS`` lists what each workaround of Textual's
internals relies on; a name gone means that workaround must be re-checked (and
perhaps deleted) before the pin in .ci/pins.txt is raised.
"""

from __future__ import annotations

import importlib
import inspect
import re
from importlib.metadata import version
from pathlib import Path

import pytest

from reversi_tui.tui.compat import WORKAROUNDS

CONSTRAINTS = Path(__file__).parents[2] / ".ci" / "constraints.txt"


def pinned(package: str) -> str:
    match = re.search(rf"^{package}==(\S+)$", CONSTRAINTS.read_text(), re.MULTILINE)
    assert match, f"{package} is not pinned in {CONSTRAINTS}"
    return match.group(1)


def exists(module_name: str, dotted: str) -> bool:
    """``module.dotted`` exists, or its last part is an instance attribute the class
    (or a base) assigns as ``self.<name>``."""
    try:
        found: object = importlib.import_module(module_name)
    except ImportError:
        return False
    *path, last = dotted.split(".")
    for part in path:
        found = getattr(found, part, None)
        if found is None:
            return False
    if hasattr(found, last):
        return True
    if not inspect.isclass(found):
        return False
    assigned = re.compile(rf"\bself\.{re.escape(last)}\s*(:[^=\n]+)?=")
    return any(
        assigned.search(inspect.getsource(base))
        for base in found.__mro__
        if base.__module__.startswith("textual")
    )


def test_textual_is_the_pinned_version() -> None:
    assert version("textual") == pinned("textual"), (
        "Textual is not the version in .ci/constraints.txt: re-check every workaround "
        "in reversi_tui.tui.compat.WORKAROUNDS before raising the pin"
    )


@pytest.mark.parametrize("workaround", sorted(WORKAROUNDS))
def test_what_each_workaround_relies_on_exists(workaround: str) -> None:
    entry = WORKAROUNDS[workaround]
    gone = [f"{module}.{name}" for module, name in entry.relies_on if not exists(module, name)]
    assert not gone, f"re-check the workaround {workaround!r} ({entry.where}): gone {gone}"


def test_the_check_finds_a_name_gone() -> None:
    assert exists("textual.screen", "Screen.dismiss")
    assert exists("textual.drivers.linux_driver", "LinuxDriver._file")  # self._file = ...
    assert not exists("textual.screen", "Screen._no_such_name")
    assert not exists("textual._no_such_module", "x")
