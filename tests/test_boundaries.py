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


# The whole graph: no circle, and arrows that only point down ----------------------------
#
# Every import in a file is an edge, wherever it stands: one inside a function still makes
# the importer depend on the imported when it runs, and one under ``TYPE_CHECKING`` still
# ties the two together for mypy and for a reader. A circle through either is a circle.

#: The parts of the package from the bottom up (a part: ``reversi_tui.X``, with all that
#: is under it). A part may import only parts on lower lines; the parts on one line are
#: independent of each other.
LAYERS = [
    ["reversi_tui", "reversi_tui.terminal"],  # the version; what the terminal can do
    ["reversi_tui.engine"],  # the rules and the AI
    ["reversi_tui.match", "reversi_tui.parallel_solver"],  # the match core; the solver on cores
    ["reversi_tui.records"],  # settings, saves, records, formats
    ["reversi_tui.protocols", "reversi_tui.training"],  # engine protocols; reversi train
    ["reversi_tui.net"],  # online play
    ["reversi_tui.players"],  # the kinds of move source (external engines among them)
    ["reversi_tui.plain", "reversi_tui.tui"],  # the front ends
    ["reversi_tui.commands", "reversi_tui.screenshots"],  # the commands; screenshots
    ["reversi_tui.cli"],  # the commands listed
    ["reversi_tui.__main__"],  # python -m reversi_tui, and the reversi script
]
RANK = {part: rank for rank, parts in enumerate(LAYERS) for part in parts}


def all_modules() -> list[str]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        found.append(module.removesuffix(".__init__"))
    return found


def import_graph() -> dict[str, set[str]]:
    """Each module of the package and the modules of the package it imports.

    ``from reversi_tui.engine import bitboard`` is an edge to the module ``bitboard``,
    ``from reversi_tui.engine import Color`` one to the package that holds the name
    (the parent packages Python runs first are not edges: every module has them).
    """
    modules = set(all_modules())

    def holder(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for module in modules:
        path = _source(module)
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        named: set[str | None] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                named.update(holder(alias.name) for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*parts, *([base] if base else [])])
                named.update(holder(f"{base}.{alias.name}") for alias in node.names)
        graph[module] = {name for name in named if name is not None and name != module}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm,
    without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def part_of(module: str) -> str:
    return ".".join(module.split(".")[:2])


def test_no_import_cycle_anywhere() -> None:
    assert cycles(import_graph()) == []


def test_the_cycle_finder_finds_one() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(graph) == [["a", "b", "c"]]


def test_every_part_has_its_layer() -> None:
    assert {part_of(module) for module in all_modules()} == set(RANK)


def test_imports_only_point_down() -> None:
    upward = sorted(
        f"{module} -> {imported}"
        for module, imports in import_graph().items()
        for imported in imports
        if part_of(module) != part_of(imported) and RANK[part_of(imported)] >= RANK[part_of(module)]
    )
    assert upward == []


def test_the_records_never_import_the_players() -> None:
    """``records/settings_file.py`` reads ``[engines.NAME]``: ``match/engine_config.py``."""
    for module, imports in import_graph().items():
        if part_of(module) == "reversi_tui.records":
            assert not {part_of(name) for name in imports} & {
                "reversi_tui.players",
                "reversi_tui.players.engine",
            }, module


def test_a_lazy_import_is_seen() -> None:
    """``imports_in`` sees an import inside a function: commands/play.py's of the app."""
    assert "reversi_tui.tui.app" in imports_in("reversi_tui.commands.play")
