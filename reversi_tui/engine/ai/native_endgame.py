"""The exact solver's node search in C, when the install could build it.

``native/endgame.c`` is compiled at install time into :data:`MODULE_NAME`
(``setup.py``, an optional extension: without a C compiler the install still
succeeds). It gives the same scores as the Python nodes of :mod:`endgame` with
the same ordering ideas, though not the same tree, and much faster (the README
gives the times measured), so :func:`endgame.new_search` prefers it; the Python
solver remains the reference and the fallback.

The module carries the SHA-256 of the source it was compiled from and the
package ships that source: a module whose hash differs (built from another
``endgame.c``, as an editable install keeps an old build after the source
changes) is ignored rather than trusted, and :data:`UNAVAILABLE` says why.
"""

from __future__ import annotations

import hashlib
from importlib import import_module
from typing import Protocol, cast

from reversi_tui.engine.ai.result import SearchCancelled, StopCheck

#: The compiled module (``setup.py`` names it).
MODULE_NAME = "reversi_tui.engine.ai._endgame"
#: Its source, shipped in the package, relative to this module's directory.
SOURCE = ("native", "endgame.c")


class _CSearch(Protocol):
    def node(self, p: int, o: int, alpha: int, beta: int, /) -> int | None: ...

    def count(self) -> int: ...


class _Module(Protocol):
    SOURCE_SHA256: str

    def Search(
        self,
        should_stop: StopCheck | None = None,
        table_bits: int = 21,
        stability_margin: int = 10,
    ) -> _CSearch: ...

    def stable_discs(self, me: int, other: int, /) -> int: ...


def source_sha256() -> str | None:
    """The hash of the ``endgame.c`` installed with the package; None if it is missing.

    Read with the built-in ``open`` beside this module's own file: the engine imports
    no ``pathlib``/``os`` (tests/engine/ai/test_purity.py), and ``importlib.resources``
    would bring threading in at start-up (tests/test_boundaries.py). A compiled module
    cannot load from a zip file, so a plain file is all there is to read.
    """
    cut = max(__file__.rfind("/"), __file__.rfind("\\"))
    folder = __file__[: cut + 1]
    try:
        with open(folder + "/".join(SOURCE), "rb") as source:
            data = source.read()
    except OSError:
        return None
    return hashlib.sha256(data).hexdigest()


def _load() -> tuple[_Module | None, str]:
    """The compiled module if it matches the shipped source, else None and why not."""
    try:
        module = import_module(MODULE_NAME)
    except ModuleNotFoundError:
        return None, "the C module was not built: reinstall with a C compiler such as gcc"
    except ImportError as err:
        return None, f"the C module does not load ({err}): reinstall reversi_tui"
    expected = source_sha256()
    if expected is None:
        return None, "the C module's source is missing: reinstall reversi_tui"
    if getattr(module, "SOURCE_SHA256", None) != expected:
        return None, "the C module is stale, built from another endgame.c: reinstall reversi_tui"
    return cast(_Module, module), ""


#: The compiled module, or None where it was not built (or is stale), and then why.
MODULE, UNAVAILABLE = _load()


def describe() -> str:
    """Which node search solves by default, for ``reversi --version``: C, or Python and why."""
    if MODULE is None:
        return f"Python ({UNAVAILABLE})"
    return "C"


class NativeSearch:
    """One solve's C node search and table: the interface of :class:`endgame.Search`.

    The C code releases the GIL while it searches and takes it back every
    65,536 nodes (a few milliseconds) to call ``should_stop`` and let Ctrl+C in.
    """

    __slots__ = ("_search",)

    def __init__(self, should_stop: StopCheck | None) -> None:
        if MODULE is None:
            raise RuntimeError(UNAVAILABLE)
        self._search = MODULE.Search(should_stop)

    def node(self, p: int, o: int, alpha: int, beta: int, n: int, moves: int) -> int:
        """The fail-soft score of ``p`` to move (``n`` and ``moves`` are recomputed in C)."""
        value = self._search.node(p, o, alpha, beta)
        if value is None:
            raise SearchCancelled
        return value

    def count(self) -> int:
        """Nodes searched so far."""
        return self._search.count()


def stable_discs(me: int, other: int) -> int:
    """The C solver's stable discs of ``me`` (a subset of :func:`stability.stable_discs`)."""
    if MODULE is None:
        raise RuntimeError(UNAVAILABLE)
    return MODULE.stable_discs(me, other)
