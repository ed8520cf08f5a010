"""The sdist is the whole source tree, and the wheel built from it carries what the game
reads at run time.

Built as a user's tools build it: ``python -m build`` makes the sdist, then the wheel
from that sdist (not from this tree), each in an isolated environment with pyproject's
build requirement. The wheel is then installed without its dependencies into a
directory of its own and run from there, away from this tree. One test, three checks:
the build takes a minute, and pytest-xdist would build once in each worker that ran a
test of the module.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path, PurePosixPath

from .timing import patience

ROOT = Path(__file__).parent.parent
#: In git, and rightly not in the sdist.
NOT_SHIPPED = frozenset({".gitignore"})
#: What every sdist must hold, even where git cannot list the tree.
SOURCES = ("LICENSE", "README.md", "pyproject.toml", "setup.py", "MANIFEST.in")
SOURCE_DIRS = ("tests/data", "tests/tui/__snapshots__", "docs", "screenshots", ".ci")
#: The package data the game reads at run time.
PACKAGE_DATA = (
    "reversi_tui/engine/ai/pattern_weights.bin",
    "reversi_tui/engine/ai/opening_book.bin",
    "reversi_tui/engine/openings.txt",
    "reversi_tui/tui/app.tcss",
    "reversi_tui/py.typed",
)
#: Never in an sdist or a wheel: caches and builds.
JUNK = ("__pycache__", ".pyc", ".so", ".venv", ".pytest_cache", ".mypy_cache")
START = "---------------------------OX------XO--------------------------- X"


def test_the_sdist_and_the_wheel_built_from_it(tmp_path: Path) -> None:
    members, contents, wheel = build(tmp_path / "dist")
    check_the_sdist_holds_the_whole_source_tree(set(members))
    check_the_wheel_carries_the_package_data(set(contents))
    check_the_wheel_installs_and_plays_from_its_own_folder(wheel, tmp_path)


def build(out: Path) -> tuple[list[str], list[str], Path]:
    """The sdist's members (relative to its top folder), the wheel's, and the wheel."""
    done = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=patience(600),
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    [sdist] = out.glob("*.tar.gz")
    [wheel] = out.glob("*.whl")
    with tarfile.open(sdist) as archive:
        members = [
            PurePosixPath(*PurePosixPath(m.name).parts[1:]).as_posix()
            for m in archive.getmembers()
            if m.isfile()
        ]
    with zipfile.ZipFile(wheel) as archive:
        contents = archive.namelist()
    return members, contents, wheel


def _tracked() -> set[str] | None:
    """The files git tracks in this tree; None outside a git checkout (an unpacked sdist)."""
    if shutil.which("git") is None:
        return None
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, timeout=patience(60)
    )
    if listed.returncode != 0 or not listed.stdout:
        return None
    return {name for name in listed.stdout.decode().split("\0") if name}


def check_the_sdist_holds_the_whole_source_tree(members: set[str]) -> None:
    """It once held only ``tests/test*.py`` (no conftest, helpers or data) and no docs."""
    for name in SOURCES:
        assert name in members
    for folder in SOURCE_DIRS:
        assert any(m.startswith(folder + "/") for m in members), f"{folder}/ is missing"
    assert any(m.startswith("reversi_tui/") and m.endswith(".c") for m in members), "no C source"
    tracked = _tracked()
    if tracked is not None:
        assert sorted(tracked - NOT_SHIPPED - members) == []
    assert [m for m in members if any(part in m for part in JUNK)] == []


def check_the_wheel_carries_the_package_data(contents: set[str]) -> None:
    for name in PACKAGE_DATA:
        assert name in contents
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in contents)
    assert [n for n in contents if n.endswith(".pyc") or "__pycache__" in n] == []
    # The one C file is the solver's source: its hash tells whether the module is current.
    assert [n for n in contents if n.endswith(".c")] == ["reversi_tui/engine/ai/native/endgame.c"]
    if os.environ.get("REVERSI_EXPECT_C_SOLVER") == "1":  # CI has a compiler: built from the sdist
        assert any(n.endswith(".so") for n in contents), "the C solver was not built"


def check_the_wheel_installs_and_plays_from_its_own_folder(wheel: Path, tmp_path: Path) -> None:
    """Installed alone (the dependencies are this venv's), run from elsewhere: the book,
    the weights and the openings load from the installed package, not from this tree."""
    target = tmp_path / "site"
    install = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps"]
    done = subprocess.run(
        [*install, "--target", str(target), str(wheel)],
        capture_output=True,
        text=True,
        timeout=patience(120),
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr
    env = {**os.environ, "PYTHONPATH": str(target), "PYTHONSAFEPATH": "1"}
    where = subprocess.run(
        [sys.executable, "-c", "import reversi_tui; print(reversi_tui.__file__)"],
        capture_output=True, text=True, cwd=tmp_path, env=env, timeout=patience(60),
    )  # fmt: skip
    assert Path(where.stdout.strip()).is_relative_to(target), where.stdout + where.stderr
    move = subprocess.run(
        [sys.executable, "-m", "reversi_tui", "move", START, "--depth", "1"],
        capture_output=True, text=True, cwd=tmp_path, env=env, timeout=patience(60),
    )  # fmt: skip
    assert move.returncode == 0, move.stderr
    if os.environ.get("REVERSI_EXPECT_C_SOLVER") == "1":  # the built module is the current one
        version = subprocess.run(
            [sys.executable, "-m", "reversi_tui", "--version"],
            capture_output=True, text=True, cwd=tmp_path, env=env, timeout=patience(60),
        )  # fmt: skip
        assert "endgame solver: C" in version.stdout, version.stdout + version.stderr
    assert move.stdout.strip(), "no move"
    assert "Traceback" not in move.stderr
