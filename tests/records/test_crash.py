"""Kill -9 at random moments: every restart finds whole saves and a sound database.

A child process plays computer-against-computer games one after another with the
keeper saving every change and recording every finished game, printing each
move list it has played. It is killed with SIGKILL at a random moment, many
times over the same data directory. After each kill: every save loads (nothing
set aside), its moves are consistent with what the child said it played, and the
database passes ``PRAGMA integrity_check``.

``REVERSI_CRASH_RUNS=200 pytest tests/records/test_crash.py -s`` runs the full
count; CI runs a reduced one.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from reversi_tui.records.keeper import GameKeeper
from reversi_tui.records.paths import Places

from ..timing import patience

RUNS = int(os.environ.get("REVERSI_CRASH_RUNS", "12"))

CHILD = """
import sys
from reversi_tui.match import Match, MatchSettings, PlayerSpec, play_out
from reversi_tui.players import make_source
from reversi_tui.records.keeper import GameKeeper
from reversi_tui.records.paths import Places

keeper = GameKeeper(Places.resolve(sys.argv[1]))
for item in keeper.resumable():  # what an earlier child left: resumed, played to the end
    save = keeper.claim(item)
    if save is not None:
        match = Match(MatchSettings(item.saved.record.black, item.saved.record.white),
                      make_source, game=item.saved.game(), started=item.saved.record.started)
        keeper.attach(match, save)
        match.subscribe(lambda event, match=match: print(match.game.move_list(), flush=True))
        play_out(match)
while True:
    easy = PlayerSpec.computer("easy")
    match = Match(MatchSettings(easy, easy), make_source)
    keeper.attach(match)
    match.subscribe(lambda event: print(match.game.move_list(), flush=True))
    play_out(match)
"""


def test_kill_9_at_random_moments_never_tears_a_save(tmp_path: Path) -> None:
    rng = random.Random(int(os.environ.get("REVERSI_CRASH_SEED", "1")))
    places = Places.resolve(tmp_path)
    checked_saves = 0
    for _ in range(RUNS):
        log = tmp_path / "played.txt"
        with log.open("w") as out:
            child = subprocess.Popen([sys.executable, "-c", CHILD, str(tmp_path)], stdout=out)
            deadline = time.monotonic() + patience(30)
            while log.stat().st_size == 0 and time.monotonic() < deadline:
                time.sleep(0.01)  # wait until it plays, then let it run a random while
            time.sleep(rng.uniform(0.0, 0.4))
            child.send_signal(signal.SIGKILL)
            child.wait()
        played = log.read_text().splitlines()
        keeper = GameKeeper(places)
        games = keeper.resumable()
        assert keeper.problems == [], keeper.problems
        assert len(games) <= 1  # only the game the child was playing when killed
        for item in games:
            saved = item.saved.record.move_list()
            assert item.saved.game().move_list() == saved
            # Saved before it was printed: what was played, or one move more.
            assert saved in played or saved[:-2] in played or len(saved) == 2, saved
            checked_saves += 1
        if places.database.exists():
            with sqlite3.connect(places.database) as db:
                assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    print(f"crash test: {RUNS} kills, {checked_saves} saves found whole")
    assert RUNS > 0
