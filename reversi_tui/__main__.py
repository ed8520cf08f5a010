"""``python -m reversi_tui`` and the ``reversi`` command (``entry``).

Ctrl-C works from the first instant. The imports, a good tenth of a second, happen
inside ``entry``, under a SIGINT handler that ends the process with 130 at once when
the interrupt lands inside an import: there is nothing to undo yet, and a
``KeyboardInterrupt`` raised there cannot be unwound cleanly (Python turns one raised
in ``__set_name__`` into a ``RuntimeError``, and a half-run module can fail later with
any error). Outside imports the handler raises ``KeyboardInterrupt`` as Python's own
does, and the front ends install theirs once they run. Only Python's own start-up and
pip's launcher (before this module runs) are out of reach.
"""

from __future__ import annotations

import os
import signal
import sys

TYPE_CHECKING = False  # not ``typing``'s: its import would widen the window
if TYPE_CHECKING:
    from types import FrameType

INTERRUPTED = 130


def _importing(frame: FrameType | None) -> bool:
    """Whether the import system is on the stack that ``frame`` ends."""
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib"):
            return True
        frame = frame.f_back
    return False


def _on_interrupt(signum: int, frame: FrameType | None) -> None:
    """Ctrl-C while starting: out at once inside an import, else ``KeyboardInterrupt``."""
    if _importing(frame):
        os._exit(INTERRUPTED)
    raise KeyboardInterrupt


def entry() -> int:
    """Import and run the command line; 130, quietly, if interrupted before it can say so."""
    try:
        signal.signal(signal.SIGINT, _on_interrupt)  # may raise once it is in place
        from reversi_tui.cli import main

        return main()
    except KeyboardInterrupt:
        return INTERRUPTED


if __name__ == "__main__":
    sys.exit(entry())
