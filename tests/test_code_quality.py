"""The code stays ruff-clean, ruff-formatted and mypy-strict clean: the suite fails otherwise."""

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent


def run_tool(module: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run a checker from the test extra on the tree; skip when it is not installed."""
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} is not installed (it comes with the test extra)")
    return subprocess.run(
        [sys.executable, "-m", module, *args], cwd=ROOT, capture_output=True, text=True
    )


def test_ruff_check_is_clean() -> None:
    done = run_tool("ruff", "check", "reversi_tui", "tests")
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_format_is_clean() -> None:
    done = run_tool("ruff", "format", "--check", "reversi_tui", "tests")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_strict_is_clean() -> None:
    """Type hints are checked (``[tool.mypy]`` in pyproject.toml sets strict mode too)."""
    done = run_tool("mypy", "--strict", "reversi_tui")
    assert done.returncode == 0, done.stdout + done.stderr
