"""The AI modules stay pure: no UI, disk, network, process or thread imports."""

from __future__ import annotations

import ast
from pathlib import Path

import reversi_tui.engine.ai as ai

FORBIDDEN = {
    "textual",
    "rich",
    "threading",
    "multiprocessing",
    "concurrent",
    "socket",
    "asyncio",
    "os",
    "pathlib",
    "sqlite3",
    "subprocess",
    "io",
}
MINE = ("__init__.py", "evaluation.py", "search.py", "levels.py", "play.py")


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_ai_modules_import_nothing_impure() -> None:
    folder = Path(ai.__file__).parent
    for name in MINE:
        assert not _imports(folder / name) & FORBIDDEN, name
