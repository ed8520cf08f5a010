"""One factor for every wall-clock bound in the tests (``REVERSI_TEST_TIME_FACTOR``).

The bounds are deadlines that turn a hang into a failure, never waits: a passing test
returns as soon as what it waits for is seen, so a generous factor costs nothing on a
healthy run. What it buys is a suite that passes on a loaded machine (two cores shared
with other builds made the children start ten times slower than on an idle one). Set the
variable to scale every bound at once, e.g. ``REVERSI_TEST_TIME_FACTOR=10`` under
valgrind or a sanitizer build.
"""

from __future__ import annotations

import os

#: The default covers a machine whose cores are kept busy by other work.
DEFAULT_FACTOR = 3.0


def _factor() -> float:
    text = os.environ.get("REVERSI_TEST_TIME_FACTOR", "")
    if not text:
        return DEFAULT_FACTOR
    try:
        factor = float(text)
    except ValueError:
        raise ValueError(f"REVERSI_TEST_TIME_FACTOR={text!r}: give a number such as 3") from None
    if not factor > 0:
        raise ValueError(f"REVERSI_TEST_TIME_FACTOR={text!r}: give a number above 0")
    return factor


#: Every bound in seconds is multiplied by this.
TIME_FACTOR = _factor()


def patience(seconds: float) -> float:
    """``seconds`` (a bound measured on an idle machine) scaled for this one."""
    return seconds * TIME_FACTOR
