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
#: The only parts of this project the AI may build on.
ALLOWED_INTERNAL = "reversi_tui.engine"


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports, fully qualified (relative imports resolved)."""
    package = "reversi_tui.engine.ai"
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = node.module or ""
            names.add(f"{base}.{module}".strip(".") if base else module)
    return names


def _modules() -> list[Path]:
    return sorted(Path(ai.__file__).parent.glob("*.py"))


def test_every_ai_module_is_checked() -> None:
    names = {path.name for path in _modules()}
    assert {"__init__.py", "endgame.py", "endgame_tables.py", "result.py", "play.py"} <= names


def test_ai_modules_import_nothing_impure() -> None:
    for path in _modules():
        top_levels = {name.split(".")[0] for name in _imports(path)}
        assert not top_levels & FORBIDDEN, path.name


def test_ai_modules_build_only_on_the_engine() -> None:
    for path in _modules():
        for name in _imports(path):
            if name.split(".")[0] == "reversi_tui":
                assert name == ALLOWED_INTERNAL or name.startswith(ALLOWED_INTERNAL + "."), (
                    f"{path.name} imports {name}"
                )
