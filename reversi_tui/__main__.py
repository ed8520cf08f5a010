"""``python -m reversi_tui`` and the ``reversi`` command (``entry``).

Ctrl-C works from the first instant: the imports, a good tenth of a second, happen
inside ``entry``, where an interrupt exits 130 quietly instead of with a traceback.
Only Python's own start-up (before this module runs) is out of reach.
"""

import sys


def entry() -> int:
    """Import and run the command line; 130, quietly, if interrupted before it can say so."""
    try:
        from reversi_tui.cli import main

        return main()
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(entry())
