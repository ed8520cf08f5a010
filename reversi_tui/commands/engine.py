"""``reversi engine --protocol nboard|gtp``: our engine for other programs' front ends.

Standard input is read in a thread of its own, so ``ping`` and ``quit`` reach a
search at once; every line written is flushed. Kept light to import: the
protocol and the search load when the command runs.
"""

from __future__ import annotations

import argparse
import sys
import threading
from typing import TYPE_CHECKING, TextIO

from reversi_tui.commands.options import Commands, int_range, think_seconds
from reversi_tui.engine.ai.names import LEVEL_NAMES

if TYPE_CHECKING:
    from reversi_tui.protocols.engine_session import Effort, EngineSession

PROTOCOLS = ("nboard", "gtp")


def add_parser(commands: Commands) -> None:
    """``reversi engine``'s options; ``run`` is its handler."""
    engine = commands.add_parser(
        "engine", help="our engine on standard input and output, for NBoard or GTP front ends"
    )
    engine.add_argument(
        "--protocol", choices=PROTOCOLS, required=True, help="the front end's protocol"
    )
    engine.add_argument("--level", choices=LEVEL_NAMES, default="hard", help="default: hard")
    engine.add_argument(
        "--think-time",
        type=think_seconds,
        metavar="S",
        help="seconds per move instead of the level's (a GTP clock may give less)",
    )
    engine.add_argument(
        "--depth",
        type=int_range(1, 60),
        metavar="N",
        help="cap the search's depth (NBoard's set depth changes it); the clock still runs",
    )
    engine.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Serve one front end until ``quit`` or the end of standard input."""
    from reversi_tui.protocols.engine_session import Effort

    effort = Effort(args.level, args.think_time, args.depth)
    session = make_session(args.protocol, effort, sys.stdout)
    serve(session, sys.stdin)
    return 0


def make_session(protocol: str, effort: Effort, out: TextIO) -> EngineSession:
    """The protocol's session, writing each line to ``out`` and flushing it."""
    from reversi_tui.protocols.gtp_engine import GtpSession
    from reversi_tui.protocols.nboard_engine import NBoardSession

    def send(line: str) -> None:
        out.write(line + "\n")
        out.flush()

    kind = NBoardSession if protocol == "nboard" else GtpSession
    return kind(send, effort)


def serve(session: EngineSession, lines: TextIO) -> None:
    """Feed ``lines`` to ``session`` from a reader thread; return when the session ends.

    The reader is a daemon: after ``quit`` the process ends without waiting for a
    front end that keeps its end of the pipe open.
    """

    def read() -> None:
        for line in lines:
            session.feed(line)
        session.close()

    session.start()
    threading.Thread(target=read, name="engine-stdin", daemon=True).start()
    session.wait()
