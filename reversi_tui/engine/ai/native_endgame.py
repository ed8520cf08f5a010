"""The exact solver's node search in C, when the install could build it.

``native/endgame.c`` is compiled at install time into the top-level module
``_reversi_endgame`` (``setup.py``, an optional extension: without a C compiler
the install still succeeds). It searches the same tree as the Python nodes of
:mod:`endgame` (same scores, same ordering ideas) 30 to 40 times faster, so
:func:`endgame.new_search` prefers it; the Python solver remains the reference
and the fallback. A module built from an older source (another ``ABI``) is
ignored rather than trusted.
"""

from __future__ import annotations

from importlib import import_module
from typing import Protocol, cast

from reversi_tui.engine.ai.result import SearchCancelled, StopCheck

#: The interface version this wrapper expects (``ABI_VERSION`` in endgame.c).
ABI = 1


class _CSearch(Protocol):
    def node(self, p: int, o: int, alpha: int, beta: int, /) -> int | None: ...

    def count(self) -> int: ...


class _Module(Protocol):
    ABI: int

    def Search(
        self,
        should_stop: StopCheck | None = None,
        table_bits: int = 21,
        stability_margin: int = 10,
    ) -> _CSearch: ...

    def stable_discs(self, me: int, other: int, /) -> int: ...


def _load() -> _Module | None:
    try:
        module = import_module("_reversi_endgame")
    except ImportError:
        return None
    if getattr(module, "ABI", None) != ABI:
        return None
    return cast(_Module, module)


#: The compiled module, or None where it was not built (or is stale).
MODULE = _load()


class NativeSearch:
    """One solve's C node search and table: the interface of :class:`endgame.Search`.

    The C code releases the GIL while it searches and takes it back every
    65,536 nodes (a few milliseconds) to call ``should_stop`` and let Ctrl+C in.
    """

    __slots__ = ("_search",)

    def __init__(self, should_stop: StopCheck | None) -> None:
        if MODULE is None:
            raise RuntimeError("the C endgame solver was not built")
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
        raise RuntimeError("the C endgame solver was not built")
    return MODULE.stable_discs(me, other)
