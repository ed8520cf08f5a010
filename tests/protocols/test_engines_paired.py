"""Our engine servers paired through our own arena (issue 19): "our GTP engine against
GRhino's gtp-rhino through our own arena, and our NBoard engine driven by our own
NBoard client". Each side is a real child process started by its command line, as
a person would name it with ``--black``/``--white``."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys

import pytest

from ..timing import patience

GTP_RHINO = shutil.which("gtp-rhino") or shutil.which("/usr/games/gtp-rhino")
OURS = f"{shlex.quote(sys.executable)} -m reversi_tui engine --level easy --protocol"


def arena(black: str, white: str, games: int = 2) -> str:
    """``reversi arena`` between two players; its output (it must succeed)."""
    done = subprocess.run(
        [sys.executable, "-m", "reversi_tui", "arena", "--black", black, "--white", white,
         "--games", str(games), "--seed", "7"],
        capture_output=True, text=True, timeout=patience(600), stdin=subprocess.DEVNULL,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr + done.stdout
    return done.stdout


def totals(output: str) -> list[tuple[int, int, int]]:
    """Each side's (wins, losses, draws) from the arena's summary lines."""
    rows = []
    for line in output.splitlines():
        words = line.split()
        if "wins" in words and "losses" in words:
            at = words.index("wins")
            rows.append((int(words[at + 1]), int(words[at + 3]), int(words[at + 5])))
    return rows


def test_our_nboard_engine_plays_our_gtp_engine_through_our_clients() -> None:
    output = arena(f"nboard:{OURS} nboard", f"gtp:{OURS} gtp")
    (black, white) = totals(output)
    assert sum(black) == sum(white) == 2  # both games played to their end
    assert black[0] == white[1] and black[1] == white[0]


@pytest.mark.skipif(GTP_RHINO is None, reason="gtp-rhino is not installed (Debian: grhino)")
def test_our_gtp_engine_plays_gtp_rhino_through_our_arena() -> None:
    output = arena(f"gtp:{OURS} gtp", f"gtp:{GTP_RHINO} -l 1")
    (ours, theirs) = totals(output)
    assert sum(ours) == sum(theirs) == 2
