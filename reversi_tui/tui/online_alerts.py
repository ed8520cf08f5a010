"""Online play reaching the player wherever they are in the app.

Once the app is online, a challenge or the player's turn in a game they are not
looking at is said on whatever screen is up: a notice naming the key that gets
there (``o`` from a local game, ``q`` from another online game), the status line
of the game screen, and the terminal's bell when the player turned it on. Once
that turn has passed (the player moved, or the game ended), a status line still
saying it says what holds now. The server also learns where the player is (in
the lobby, a local game, an online game, or away after ``AWAY_AFTER`` seconds
without a key), so that others see whether a challenge will be noticed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from textual.app import App
from textual.screen import Screen

from reversi_tui.net import protocol
from reversi_tui.net.clocks import control_text
from reversi_tui.net.online import Notice, OnlineSession, TurnPassed, YourTurn
from reversi_tui.net.protocol import ActivityStatus

if TYPE_CHECKING:
    from textual.timer import Timer

#: How often the player's activity is looked at (seconds).
ACTIVITY_EVERY = 5.0


class OnlineAlerts:
    """Challenges and turns told on any screen; the player's activity told to the server."""

    def __init__(
        self,
        app: App[int],
        session: OnlineSession,
        *,
        bell: Callable[[], bool],
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        """``bell``: whether the player wants the terminal's bell."""
        self.app = app
        self.session = session
        self.bell = bell
        self.now = now
        self.last_input = now()
        self._timer: Timer | None = None
        self._unsubscribe = session.subscribe(self._heard)

    def start(self) -> None:
        self._timer = self.app.set_interval(ACTIVITY_EVERY, self.update_activity)

    def stop(self) -> None:
        self._unsubscribe()
        if self._timer is not None:
            self._timer.stop()

    def touched(self) -> None:
        """A key or a click: the player is here."""
        away = self.session.activity == "away"
        self.last_input = self.now()
        if away:
            self.update_activity()

    def activity(self) -> ActivityStatus:
        """Where the player is now: away without input, else by the screen shown."""
        if self.now() - self.last_input >= protocol.AWAY_AFTER:
            return "away"
        kind = _kind(self._base_screen())
        if kind == "lobby":
            return "lobby"
        if kind == "online":
            return "online"
        return "local"

    def update_activity(self) -> None:
        self.session.set_activity(self.activity())

    def _base_screen(self) -> Screen[object] | None:
        """The screen under any dialogs."""
        screen: Screen[object]
        for screen in reversed(self.app.screen_stack):
            if not screen.is_modal:
                return screen
        return None

    def _heard(self, event: protocol.ServerMessage | Notice) -> None:
        base = self._base_screen()
        kind = _kind(base)
        if kind == "lobby":
            return  # the lobby shows challenges and turns itself
        match event:
            case protocol.Challenged():
                challenge = self.session.picture.challenges.get(event.challenge)
                terms = "" if challenge is None else f" ({_terms(challenge)})"
                what = "offers a rematch" if event.rematch is not None else "challenges you"
                self._say(
                    f"{event.from_} {what}{terms}. {_to_lobby(kind)} to answer.",
                    "Challenge",
                    base,
                )
            case YourTurn():
                shown = getattr(base, "link", None)
                if shown is not None and getattr(shown, "origin", None) == event.origin:
                    return
                self._say(f"{event.text} {_to_lobby(kind)} for it.", "Your move", base)
            case TurnPassed():
                self._unsay(event, base)

    def _unsay(self, passed: TurnPassed, base: Screen[object] | None) -> None:
        """A status line still saying a turn that passed says what holds now."""
        status = getattr(base, "status", None)
        set_status = getattr(base, "set_status", None)
        if isinstance(status, str) and status.startswith(passed.said) and callable(set_status):
            set_status(passed.text)

    def _say(self, text: str, title: str, base: Screen[object] | None) -> None:
        self.app.notify(text, title=title, timeout=15, markup=False)
        set_status = getattr(base, "set_status", None)
        if callable(set_status):
            set_status(text)
        if self.bell():
            self.app.bell()


def _kind(screen: Screen[object] | None) -> str:
    """``lobby``, ``online`` (an online game) or ``local``, by the screen's class."""
    name = type(screen).__name__
    if name == "LobbyScreen":
        return "lobby"
    if name == "OnlineGameScreen":
        return "online"
    return "local"


def _to_lobby(kind: str) -> str:
    return "q goes back to the lobby" if kind == "online" else "o opens the lobby"


def _terms(challenge: protocol.ChallengeInfo) -> str:
    kind = "rated" if challenge.rated else "casual"
    clock = challenge.clock
    return kind if clock is None else f"{kind}, {control_text(clock.minutes, clock.increment)}"
