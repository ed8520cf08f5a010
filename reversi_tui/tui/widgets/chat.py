"""An online game's chat: every line kept, the newest always in view, older ones scroll.

Other users' words are shown as plain text, never markup (the server has already
replaced control characters); a watcher's line is marked as such, so that nobody
takes an onlooker's words for a player's.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.css.query import NoMatches
from textual.widgets import Static

#: Lines kept on the screen (the server keeps its own bounded history).
KEPT = 200


@dataclass(frozen=True, slots=True)
class Said:
    """One chat line: who, what, and whether they watch rather than play."""

    user: str
    text: str
    watcher: bool = False


def chat_text(lines: Iterable[Said]) -> Text:
    """The lines as one text: the speaker in bold (``carol (watching)`` for watchers)."""
    text = Text()
    for number, said in enumerate(lines):
        if number:
            text.append("\n")
        if said.watcher:
            text.append(f"{said.user} (watching): ", style="italic")
        else:
            text.append(f"{said.user}: ", style="bold")
        text.append(said.text)
    return text


class ChatPanel(VerticalScroll, can_focus=False):
    """The chat of one game; hidden while nobody has said anything."""

    DEFAULT_CSS = """
    ChatPanel {
        height: auto; max-height: 4; margin-top: 1; scrollbar-size-vertical: 1;
        display: none;
    }
    ChatPanel.-some { display: block; }
    ChatPanel > Static { width: 1fr; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines: list[Said] = []

    def compose(self) -> ComposeResult:
        yield Static(chat_text(self.lines), id="chat-text")

    def show(self, lines: Iterable[Said]) -> None:
        """Show these lines (the newest last), scrolled to the newest."""
        self.lines = list(lines)[-KEPT:]
        self.set_class(bool(self.lines), "-some")
        try:
            self.query_one("#chat-text", Static).update(chat_text(self.lines))
        except NoMatches:  # not composed yet: compose shows them
            return
        self.call_after_refresh(self._follow)

    def add(self, said: Said) -> None:
        self.show([*self.lines, said])

    def on_resize(self, event: events.Resize) -> None:
        self._follow()

    def _follow(self) -> None:
        self.scroll_end(animate=False, immediate=True)
