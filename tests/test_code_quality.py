"""The code stays ruff-clean: lint errors fail the suite, not just a reviewer's eye."""

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent


def test_ruff_check_is_clean() -> None:
    if importlib.util.find_spec("ruff") is None:
        pytest.skip("ruff is not installed (it comes with the test extra)")
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "reversi_tui", "tests"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
