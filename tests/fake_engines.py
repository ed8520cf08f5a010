"""Tiny engine scripts for the tests: GTP or NBoard, well behaved or broken on purpose.

``engine_command(tmp_path, protocol, mode)`` writes the script and gives the text
after ``gtp:``/``nboard:``. The script plays the first legal move, except as
``mode`` says: ``exit`` (exits on its second move, a word on stderr), ``hang``
(never answers a move), ``illegal`` (answers a1), ``malformed`` (answers nonsense),
``flood`` (writes a line without end), ``stubborn`` (hangs, ignores SIGTERM and the end
of its input; writes its pid to ``pid`` first), ``edax`` (NBoard's ``===`` items with
spaces, a search line before).
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

SCRIPT = r"""
import os, signal, sys, time
from reversi_tui.engine import Position
from reversi_tui.protocols.common import parse_vertex, vertex_name
from reversi_tui.records.ggf import read_ggf

protocol, mode = sys.argv[1], sys.argv[2]
position = Position.initial()
moves = 0
if mode == "stubborn":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    with open("pid", "w") as f:
        f.write(str(os.getpid()))


def say(*lines):
    for line in lines:
        sys.stdout.write(line + "\n")
    sys.stdout.flush()


def answer():
    global moves, position
    moves += 1
    if mode in ("hang", "stubborn"):
        while True:
            time.sleep(1)
    if mode == "exit" and moves == 2:
        sys.stderr.write("boom: out of cheese\n")
        sys.exit(3)
    if mode == "flood":
        while True:
            sys.stdout.write("x" * 65536)
    if mode == "illegal":
        return "A1"
    if mode == "malformed":
        return None
    move = position.legal_moves[0]
    position = position.play(move)
    return vertex_name(move)


for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if protocol == "gtp":
        command = words[0]
        if command == "quit":
            say("=", "")
            if mode != "stubborn":
                break
        elif command == "name":
            say("= Fake " + mode, "")
        elif command == "version":
            say("= 1.0", "")
        elif command == "clear_board":
            position = Position.initial()
            say("=", "")
        elif command == "play":
            if words[2].lower() == "pass":
                say("? syntax error", "")
                continue
            if position.must_pass:
                position = position.pass_turn()
            position = position.play(parse_vertex(words[2]))
            say("=", "")
        elif command == "genmove":
            if position.must_pass:
                position = position.pass_turn()
            move = answer()
            say("banana" if move is None else "= " + move, "")
        else:
            say("=", "")
    else:
        if words[0] == "nboard":
            say("set myname Fake" + mode)
        elif words[0] == "ping":
            say("pong " + words[1])
        elif words[0:2] == ["set", "game"]:
            game = read_ggf(line.split(None, 2)[2]).record.game()
            position = game.position
        elif words[0] == "go":
            say("status thinking hard", "search F5 1.50 0 7 fake")
            move = answer()
            if move is None:
                say("=== Z9")
            elif mode == "edax":
                say("=== " + move + " 1.5 0.1")
            else:
                say("=== " + move + "/1.50/0.1")
        elif words[0] == "quit" and mode != "stubborn":
            break
"""


def engine_command(tmp_path: Path, protocol: str, mode: str = "ok") -> str:
    """The command line of a fake engine speaking ``protocol`` (gtp, nboard) as ``mode`` says."""
    script = tmp_path / "fake_engine.py"
    script.write_text(SCRIPT)
    return shlex.join([sys.executable, str(script), protocol, mode])
