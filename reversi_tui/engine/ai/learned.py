"""The learned files the levels play with, read once and checked against each other.

The pattern weights are pinned: ``WEIGHTS_SHA256`` is the sha256 of the file this
version was tuned with (the levels' budgets, the ProbCut table and the opening book
were all measured with it), so any other file, damaged or merely different, is
refused. The opening book names the weights it was searched with in its header, and
the ProbCut table in ``probcut.WEIGHTS_SHA256``; either is refused when that is not
the pinned file.

A refused file costs strength, never the game: the levels play on with the
hand-weighted evaluation, without the book or without ProbCut, and each problem is
told once, through the callback a front end gives ``report_to`` (the command line
prints it, the app shows a notice). Nothing is raised and nothing is deleted.

The files are the package's own; ``read_from`` names another folder holding them
(the command line's ``REVERSI_LEARNED_FILES`` setting, for tests of damaged copies).
Setting either up imports nothing heavy: the files and their decoders load on first use.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from reversi_tui.engine.ai.book import Book
    from reversi_tui.engine.ai.evaluation import Evaluator
    from reversi_tui.engine.ai.pattern_eval import PatternWeights

#: The sha256 of the whole weights file this version plays with (``reversi train``
#: writes a new one; pinning it here is the last step of the README's recipe).
WEIGHTS_SHA256 = "72641002433eafa6f5807d8931d16a04749b6960da8575cfe96f30ef27d19173"

#: What ends every message about refused weights.
_REINSTALL = "reinstall reversi_tui to get the right files back"

_folder: Traversable | None = None
_report: Callable[[str], None] | None = None
_pending: list[str] = []
_told: set[str] = set()


def read_from(folder: Traversable | None) -> None:
    """Read the learned files from ``folder`` from now on (None: the package's own);
    what was read and told before is forgotten."""
    global _folder
    _folder = folder
    _told.clear()
    _pending.clear()
    weights.cache_clear()
    book.cache_clear()
    evaluator.cache_clear()


def report_to(report: Callable[[str], None] | None) -> Callable[[str], None] | None:
    """Tell every problem with the learned files to ``report``, once each: those
    already found now, the others when they are found (None: keep them until then).
    ``report`` may be called from the thread that searches. Returns the one before."""
    global _report
    before, _report = _report, report
    if report is not None:
        while _pending:
            report(_pending.pop(0))
    return before


def _tell(problem: str) -> None:
    if problem in _told:
        return
    _told.add(problem)
    if _report is None:
        _pending.append(problem)
    else:
        _report(problem)


def _file(name: str) -> Traversable:
    folder = _folder if _folder is not None else resources.files(__package__)
    return folder.joinpath(name)


def _read(name: str, what: str) -> bytes | None:
    """The file's bytes; None when it is absent or (told once) cannot be read."""
    found = _file(name)
    try:
        return found.read_bytes() if found.is_file() else None
    except OSError as err:
        _tell(f"{what} cannot be read ({found}: {err.strerror or err}): {_REINSTALL}")
        return None


@cache
def weights() -> PatternWeights | None:
    """The pinned pattern weights; None (told once) when they are absent, damaged or
    other weights."""
    from reversi_tui.engine.ai.pattern_eval import RESOURCE, WeightsError, decode_weights

    where = _file(RESOURCE)
    data = _read(RESOURCE, "the pattern weights")
    if data is None:
        if not where.is_file():
            _tell(
                f"the pattern weights are missing ({where}): the computer plays with its "
                f"simpler evaluation; {_REINSTALL}"
            )
        return None
    found = hashlib.sha256(data).hexdigest()
    try:
        decoded = decode_weights(data)
    except WeightsError as err:
        _tell(
            f"the pattern weights are damaged ({where}: {err}): the computer plays with "
            f"its simpler evaluation; {_REINSTALL}"
        )
        return None
    if found != WEIGHTS_SHA256:
        _tell(
            f"the pattern weights are not this version's ({where} has sha256 "
            f"{found[:12]}..., this version pins {WEIGHTS_SHA256[:12]}...): the computer "
            f"plays with its simpler evaluation; {_REINSTALL} (after training new "
            "weights, pin them as the README's recipe says)"
        )
        return None
    return decoded


@cache
def evaluator() -> Evaluator | None:
    """The learned evaluation, or None when the weights were refused."""
    from reversi_tui.engine.ai.pattern_eval import make_pattern_evaluator

    found = weights()
    return None if found is None else make_pattern_evaluator(found)


@cache
def book() -> Book | None:
    """The opening book, searched with the pinned weights; None when the package has
    none, or (told once) when it is damaged or was built from other weights."""
    from reversi_tui.engine.ai.book import RESOURCE, BookError, decode_book

    where = _file(RESOURCE)
    data = _read(RESOURCE, "the opening book")
    if data is None:
        return None
    try:
        found = decode_book(data)
    except BookError as err:
        _tell(
            f"the opening book is damaged ({where}: {err}): the computer plays on "
            f"without it; {_REINSTALL}"
        )
        return None
    if found.weights_sha256 != WEIGHTS_SHA256:
        _tell(
            f"the opening book ({where}) was built from other pattern weights (sha256 "
            f"{found.weights_sha256[:12]}..., this version pins {WEIGHTS_SHA256[:12]}...): "
            f"the computer plays on without it; {_REINSTALL}"
        )
        return None
    return found


def probcut_fits() -> bool:
    """Whether the ProbCut table was calibrated on the evaluation the levels use: the
    pinned weights, read intact (told once when the table names other weights)."""
    from reversi_tui.engine.ai import probcut

    if probcut.WEIGHTS_SHA256 != WEIGHTS_SHA256:
        _tell(
            f"the ProbCut table was calibrated with other pattern weights (sha256 "
            f"{probcut.WEIGHTS_SHA256[:12]}..., this version pins {WEIGHTS_SHA256[:12]}...): "
            "the computer searches without it"
        )
        return False
    return weights() is not None
