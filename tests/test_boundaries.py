"""The layers import only what they may (Harlequin's import contracts, as a test).

Each rule imports every module of a part of the package in a fresh interpreter
whose import system refuses the forbidden names, so an import added anywhere,
even a lazy one at module level, fails here.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

UI = ["textual", "rich", "reversi_tui.tui"]
FRONT_ENDS = [*UI, "reversi_tui.plain", "reversi_tui.commands", "reversi_tui.cli"]
RULES = {
    # The engine: no UI, no disk, no network, no threads, nothing above it.
    "reversi_tui.engine": [
        *FRONT_ENDS,
        "sqlite3",
        "socket",
        "asyncio",
        "threading",
        "reversi_tui.match",
        "reversi_tui.players",
    ],
    # The match core and the move sources: no Textual, no front end.
    "reversi_tui.match": FRONT_ENDS,
    "reversi_tui.players": FRONT_ENDS,
    # The line mode is a front end without Textual.
    "reversi_tui.plain": UI,
    # Games kept: storage and records, but no UI and no front end.
    "reversi_tui.records": FRONT_ENDS,
}
#: The game-file formats are text in, text out: no storage, no database, no UI.
FORMATS = ["reversi_tui.records.pgn", "reversi_tui.records.ggf", "reversi_tui.records.formats"]
STORAGE = [
    "sqlite3",
    "fcntl",
    "platformdirs",
    "tomli_w",
    "reversi_tui.records.paths",
    "reversi_tui.records.atomic",
    "reversi_tui.records.autosave",
    "reversi_tui.records.database",
    "reversi_tui.records.sqlite_file",
]
RULES.update({part: [*FRONT_ENDS, *STORAGE] for part in FORMATS})
#: Online play: no UI and no front end; the protocol is pure (bytes in, values out).
RULES["reversi_tui.net"] = FRONT_ENDS
RULES["reversi_tui.net.protocol"] = [
    *FRONT_ENDS,
    *STORAGE,
    "socket",
    "asyncio",
    "threading",
    "reversi_tui.records",
    "reversi_tui.players",
    "reversi_tui.net.server",
    "reversi_tui.net.store",
    "reversi_tui.net.client",
]
#: The solver on several cores: the engine plus processes (``multiprocessing`` brings
#: ``threading`` and ``socket`` along), nothing above it.
RULES["reversi_tui.parallel_solver"] = [
    *FRONT_ENDS,
    "sqlite3",
    "asyncio",
    "reversi_tui.match",
    "reversi_tui.players",
    "reversi_tui.records",
    "reversi_tui.net",
]
#: The full-screen app is handed its start-up (``commands/play.py`` reads the options).
RULES["reversi_tui.tui"] = ["reversi_tui.commands", "reversi_tui.cli"]
#: Parts whose rules need site-packages (platformdirs, tomli_w, msgspec: a game record's
#: JSON form is a msgspec struct, so everything above the engine): run without ``-S``.
#: The engine needs nothing but the standard library.
NEEDS_SITE = set(RULES) - {"reversi_tui.engine", "reversi_tui.parallel_solver"}

BLOCKER = """\
import importlib, pkgutil, sys
BLOCKED = {blocked!r}
class Block:
    def find_spec(self, name, path=None, target=None):
        if any(name == b or name.startswith(b + '.') for b in BLOCKED):
            raise ImportError('{part} imported ' + name)
for b in BLOCKED: sys.modules.pop(b, None)
sys.meta_path.insert(0, Block())
part = importlib.import_module({part!r})
if hasattr(part, '__path__'):
    for m in pkgutil.walk_packages(part.__path__, {part!r} + '.'):
        importlib.import_module(m.name)
print('ok')
"""


@pytest.mark.parametrize("part", sorted(RULES))
def test_part_imports_only_what_it_may(part: str) -> None:
    code = BLOCKER.format(blocked=RULES[part], part=part)
    flags = [] if part in NEEDS_SITE else ["-S"]
    done = subprocess.run([sys.executable, *flags, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


def test_a_forbidden_import_is_caught() -> None:
    """The blocker itself works: the TUI may not import under the engine's rule."""
    code = BLOCKER.format(blocked=["textual"], part="reversi_tui.tui.app")
    done = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True)
    assert done.returncode != 0 and "imported textual" in done.stderr


# Imports anywhere in a file, even inside a function (the blocker above sees only those
# that run when the modules load) -------------------------------------------------------

PACKAGE = Path(__file__).parent.parent / "reversi_tui"


def _source(module: str) -> Path:
    path = PACKAGE.parent / Path(*module.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def imports_in(module: str) -> set[str]:
    """Every module ``module``'s file names in an import, wherever it stands."""
    path = _source(module)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    named: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            named.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, *([base] if base else [])])
            named.add(base)
            named.update(f"{base}.{alias.name}" for alias in node.names)
    return named


def test_the_tui_never_imports_the_commands() -> None:
    """Not even lazily: the command layer hands the app its start-up (issue 17, item 6)."""
    for path in sorted((PACKAGE / "tui").rglob("*.py")):
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        module = module.removesuffix(".__init__")
        found = {
            name
            for name in imports_in(module)
            if name.split(".")[:2] in (["reversi_tui", "commands"], ["reversi_tui", "cli"])
        }
        assert not found, f"{module} imports {sorted(found)}"


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("reversi_tui.tui.app", "reversi_tui.commands.play"),
        ("reversi_tui.tui.compat.driver", "reversi_tui.tui.compat.input"),
    ],
)
def test_no_import_cycle(one: str, other: str) -> None:
    assert not (other in imports_in(one) and one in imports_in(other))


def test_a_lazy_import_is_seen() -> None:
    """``imports_in`` sees an import inside a function: commands/play.py's of the app."""
    assert "reversi_tui.tui.app" in imports_in("reversi_tui.commands.play")
