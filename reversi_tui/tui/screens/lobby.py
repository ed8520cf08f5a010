"""The lobby: who is online, the games in progress, challenges in and out, kept live.

The server pushes the lobby whenever it changes (players come and go, their
status, games start, move and end), so nothing here needs refreshing by hand.
Enter on a player challenges them (colour, clock, rated or casual); Enter on a
game resumes it when it is yours and watches it otherwise; a game of yours the
server does not hold yet is listed with where its resumption stands, and one
where it is your move says so. Every challenge to you and from you is listed:
Enter answers one to you, ``d`` declines it, ``x`` cancels yours. ``t`` says you
are looking for a game, ``b`` turns the bell on your move on or off, ``r``
refreshes (and, after you refused a server, asks again), ``?`` is the lobby's
help, ``q`` leaves. A challenge opens a dialog as soon as the lobby is shown, and
an accepted one opens the game for both players. Coming back online (a new run,
or a reconnection) goes straight back into a game you are playing. The header
names who runs the server, as the kernel says. Lobby chat is told in notices, a
burst of lines in one.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import DataTable, Static

from reversi_tui.net import protocol
from reversi_tui.net.clocks import control_text
from reversi_tui.net.online import Notice, OnlineSession, TurnPassed
from reversi_tui.net.protocol import ChallengeInfo, PlayerInfo, Rating
from reversi_tui.net.remote import GameLink
from reversi_tui.tui.compat.dismiss import ClosesOnce
from reversi_tui.tui.keys import LOBBY_KEYS, bindings
from reversi_tui.tui.screens.challenge import (
    ChallengeChoice,
    ChallengedScreen,
    ChallengeScreen,
    challenged_screen,
)
from reversi_tui.tui.screens.lobby_help import LobbyHelpScreen
from reversi_tui.tui.screens.online_game import OnlineGameScreen
from reversi_tui.tui.thinking import Advisor
from reversi_tui.tui.widgets.board_art import Glyphs
from reversi_tui.tui.widgets.footer import KeyFooter

#: Lobby chat lines heard within this many seconds of the first make one notice.
CHAT_NOTICE_AFTER = 0.5


class LobbyScreen(ClosesOnce, Screen[None]):
    """Online play's first screen."""

    DEFAULT_CSS = """
    LobbyScreen > Vertical { padding: 0 1; }
    LobbyScreen .title { text-style: bold; color: $accent; width: 1fr; }
    LobbyScreen .heading { text-style: bold; color: $accent; margin-top: 1; }
    LobbyScreen #players { height: auto; max-height: 8; }
    LobbyScreen #games { height: auto; max-height: 8; }
    LobbyScreen #challenges { height: auto; max-height: 6; }
    LobbyScreen DataTable { border-left: outer $surface; }
    LobbyScreen DataTable:focus { border-left: outer $accent; }
    LobbyScreen DataTable.-empty { display: none; }
    LobbyScreen .empty { color: $text-muted; padding-left: 2; display: none; }
    LobbyScreen .empty.-shown { display: block; }
    LobbyScreen #status { color: $text-muted; margin-top: 1; }
    """
    #: Generated from the key table (tui/keys.py).
    BINDINGS = bindings(LOBBY_KEYS)

    def __init__(
        self,
        session: OnlineSession,
        advisor: Advisor,
        glyphs: Glyphs,
        *,
        reconnect: Callable[[], None] | None = None,
    ) -> None:
        """``reconnect`` asks again and connects again once the client stopped (r)."""
        super().__init__()
        self.reconnect = reconnect
        self.session = session
        self.advisor = advisor
        self.glyphs = glyphs
        self._watching: set[int] = set()
        self._open_game: str | None = None
        #: Open Accept/Decline dialogs, by challenge: closed when the challenge is.
        self._dialogs: dict[int, ChallengedScreen] = {}
        self._ready = False  # the tables have their columns
        #: The last challenge's choices, offered again.
        self._last_choice = ChallengeChoice()
        #: Challenges to the user already put to them (answered or dismissed).
        self._asked: set[int] = set()
        #: Whether this lobby already went back into a game after a welcome.
        self._went_back: str | None = None
        #: Set to remember the bell (``bell``, on or off) between runs.
        self.remember_bell: Callable[[bool], None] | None = None
        self.bell = False
        #: Lobby chat heard and not told yet (told together: ``_tell_chat``).
        self._untold: list[protocol.ChatMessage] = []
        self._unsubscribe = session.subscribe(self._on_session)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Online", id="title", classes="title", markup=False)
            yield Static(
                "Players online: Enter challenges one (Tab: the next table)", classes="heading"
            )
            yield DataTable(id="players", cursor_type="row", zebra_stripes=True)
            yield Static("Nobody is online yet.", id="players-empty", classes="empty")
            yield Static(
                "Games in progress: Enter watches one, or resumes yours", classes="heading"
            )
            yield DataTable(id="games", cursor_type="row", zebra_stripes=True)
            yield Static("No games in progress.", id="games-empty", classes="empty")
            yield Static(
                "Challenges: Enter answers one to you, d declines it, x cancels yours",
                classes="heading",
            )
            yield DataTable(id="challenges", cursor_type="row", zebra_stripes=True)
            yield Static(
                "No challenges: Enter on a player sends one.",
                id="challenges-empty",
                classes="empty",
            )
            yield Static(self.session.status, id="status", markup=False)
        yield KeyFooter()

    def on_mount(self) -> None:
        """The tables' columns, then the picture; nothing if the lobby closed before it
        mounted (``o`` then ``q`` in one burst of keys)."""
        try:
            self.query_one("#players", DataTable).add_columns("Player", "Rating", "Status")
            self.query_one("#games", DataTable).add_columns(
                "Game", "Black", "White", "Move", "Clock", "Status"
            )
            self.query_one("#challenges", DataTable).add_columns("From", "To", "Terms")
        except NoMatches:
            return
        self._ready = True
        self._draw()
        self.call_after_refresh(self._catch_up)

    def on_unmount(self) -> None:
        self._unsubscribe()

    def mark_asked(self, challenges: object) -> None:
        """Do not put these challenges (ids) to the player as a dialog: already seen."""
        self._asked.update(int(number) for number in challenges)  # type: ignore[attr-defined]

    def on_screen_resume(self) -> None:
        """Back from a game or a dialog: the server learns where the user is, and a
        challenge that came meanwhile is put to them."""
        self.session.set_activity("lobby")
        if self._ready:
            self.call_after_refresh(self._catch_up)

    def _catch_up(self) -> None:
        """Put the oldest challenge to the user not yet asked, if the lobby is on top."""
        if not self.is_current or not self._ready:
            return
        me = self.session.user
        for number, challenge in sorted(self.session.picture.challenges.items()):
            if challenge.to == me and number not in self._asked:
                self._answer_challenge(challenge)
                return

    # Drawing -----------------------------------------------------------------------
    def _draw(self) -> None:
        """Everything from the session's picture (nothing once the lobby is closing: a
        burst of keys can still arrive as its widgets go)."""
        if not self._ready:
            return
        try:
            self._draw_now()
        except NoMatches:
            self._ready = False

    def _draw_now(self) -> None:
        session, picture = self.session, self.session.picture
        me = session.user
        owner = session.client.owner
        title = f"Online as {me}" if me else "Online: connecting"
        if session.client.silent:
            title = f"{title} · the server does not answer" if me else "Online: no answer yet"
        if owner is not None:
            own = owner.uid == os.getuid()
            title += " · your own server" if own else f" · server of {owner}"
        if picture.waiting:
            title += " · looking for a game"
        if self.bell:
            title += " · bell on"
        self.query_one("#title", Static).update(title)
        rows: list[tuple[str, tuple[str, ...]]] = []
        for player in picture.players:
            name = f"{player.user} (you)" if player.user == me else player.user
            rows.append((player.user, (name, rating_text(player.rating), status_words(player))))
        self._fill("players", rows)
        rows = []
        for game in picture.games:
            mine = me in (game.black, game.white)
            to_move = (
                None if game.turn is None else (game.black if game.turn == "black" else game.white)
            )
            clock = (
                "-"
                if game.clock is None
                else control_text(game.clock.minutes, game.clock.increment)
            )
            if game.rated:
                clock += " rated"
            if mine and to_move == me:
                status = "your move!"
            elif mine:
                status = "yours"
            else:
                status = f"{game.spectators} watching"
            cells = (str(game.game), game.black, game.white, str(game.ply + 1), clock, status)
            rows.append((str(game.game), cells))
        for origin, (copy, stands) in picture.resuming.items():
            move = str(len(copy.moves) // 2 + 1)
            rows.append((_RESUME + origin, ("yours", copy.black, copy.white, move, "-", stands)))
        self._fill("games", rows)
        rows = []
        for number, challenge in sorted(picture.challenges.items()):
            sender = "you" if challenge.from_ == me else challenge.from_
            target = "you" if challenge.to == me else challenge.to
            rows.append((str(number), (sender, target, challenge_terms(challenge, me))))
        self._fill("challenges", rows)
        self.query_one("#status", Static).update(session.status)

    def _fill(self, name: str, rows: list[tuple[str, tuple[str, ...]]]) -> None:
        """A table's rows; an empty table is replaced by a line saying so (the table
        keeps its place in the Tab order only while it has rows)."""
        table = self.query_one(f"#{name}", DataTable)
        _refill(table, rows)
        empty = not rows
        table.set_class(empty, "-empty")
        table.can_focus = not empty
        self.query_one(f"#{name}-empty", Static).set_class(empty, "-shown")
        if empty and self.focused is table:
            self.set_focus(None)
        if self.focused is None:  # the first table with rows takes the keys
            first = next((t for t in self.query(DataTable).results(DataTable) if t.can_focus), None)
            if first is not None:
                first.focus()

    # Messages from the server ------------------------------------------------------
    def _on_session(self, event: protocol.ServerMessage | Notice) -> None:
        if not self.is_attached:
            return
        match event:
            case protocol.Challenged():
                challenge = self.session.picture.challenges.get(event.challenge)
                if challenge is not None and self.is_current:
                    self._answer_challenge(challenge)
            case protocol.Welcome():
                self._went_back = None
                self.call_after_refresh(self._back_into_game)
            case protocol.State():
                self._maybe_open(event)
            case protocol.Error():
                self.session.status = f"The server refused: {event.message}."
            case protocol.ChallengeClosed():
                dialog = self._dialogs.pop(event.challenge, None)
                if dialog is not None:
                    dialog.dismiss(False)  # withdrawn or expired: nothing left to answer
            case TurnPassed():
                if self.session.status == event.said:  # the line no longer holds
                    self.session.status = event.text
            case Notice():
                self.session.status = event.text
            case protocol.ChatMessage(game=None):
                self._heard_chat(event)
                return  # nothing in the tables changed
        self._draw()

    def _heard_chat(self, said: protocol.ChatMessage) -> None:
        """A burst of lobby chat makes one notice, not one a line: a flood of notices
        would bury the screen and cost the player their keys' time."""
        self._untold.append(said)
        if len(self._untold) == 1:
            self.set_timer(CHAT_NOTICE_AFTER, self._tell_chat)

    def _tell_chat(self) -> None:
        untold, self._untold = self._untold, []
        if not untold:
            return
        last = untold[-1]
        text = f"{last.from_}: {last.text}"
        if len(untold) > 1:
            text = f"{len(untold)} new lines in the lobby chat; the last, {text}"
        self.notify(text, title="Lobby chat", markup=False)

    def _answer_challenge(self, challenge: ChallengeInfo) -> None:
        number = challenge.challenge
        if number in self._dialogs:
            return
        self._asked.add(number)

        def answer(yes: bool | None) -> None:
            self._dialogs.pop(number, None)
            if number in self.session.picture.challenges:
                self.session.answer(number, bool(yes))

        dialog = challenged_screen(challenge)
        self._dialogs[number] = dialog
        self.app.push_screen(dialog, answer)

    def _back_into_game(self) -> None:
        """After a welcome, straight back into a game the user is playing: the one
        where it is their move, else the one they were last shown, else the newest."""
        if not self.is_current or self._open_game is not None or self._went_back is not None:
            return
        me = self.session.user
        mine = [s for s in self.session.picture.my_games if s.status == "active"]
        if not mine or me is None:
            return
        links = [self.session.link(s.origin) for s in mine]
        playable = [link for link in links if link is not None and link.playable]
        if not playable:
            return
        chosen = next((link for link in playable if link.my_turn), None)
        chosen = chosen or next(
            (link for link in playable if link.origin == self.session.last_shown), None
        )
        chosen = chosen or max(playable, key=lambda link: link.state.started)
        self._went_back = chosen.origin
        self.session.status = f"Back in your game against {_opponent(chosen, me)}."
        self._show_link(chosen)

    def _maybe_open(self, state: protocol.State) -> None:
        """A game to show: one we asked to watch or resume, or a new game of ours."""
        me = self.session.user
        new_of_mine = (
            state.ply == 0 and state.status == "active" and me in (state.black, state.white)
        )
        if state.game in self._watching or new_of_mine:
            self._watching.discard(state.game)
            link = self.session.link(state.origin)
            if link is not None:
                self._show_link(link)

    def _show_link(self, link: GameLink) -> None:
        """Open ``link``'s game, only from the top: Textual counts the lobby as current
        under a game screen too, and a game pushed there would wait under the new one
        for ``q`` (the rematch is opened by ``_closed_game``)."""
        if self._open_game == link.origin or self.app.screen is not self:
            return
        self._open_game = link.origin
        self.session.last_shown = link.origin
        screen = OnlineGameScreen(self.session, link, self.advisor, glyphs=self.glyphs)
        self.app.push_screen(screen, lambda _: self._closed_game())

    def _closed_game(self) -> None:
        self._open_game = None
        self.session.refresh()
        following = self.session.open_next
        self.session.open_next = None
        link = None if following is None else self.session.link(following)
        if link is not None:  # the rematch, accepted: straight into it
            self.call_after_refresh(self._show_link, link)

    # Keys --------------------------------------------------------------------------
    def action_choose(self) -> None:
        if not self._ready:
            return
        focused = self.focused
        if isinstance(focused, DataTable) and focused.id == "games":
            self._choose_game(focused)
        elif isinstance(focused, DataTable) and focused.id == "challenges":
            self._choose_challenge(focused)
        else:
            self._choose_player(self.query_one("#players", DataTable))

    def _choose_player(self, table: DataTable[object]) -> None:
        key = _cursor_key(table)
        player = next((p for p in self.session.picture.players if p.user == key), None)
        if player is None:
            self.session.status = "Nobody else is online yet: wait here, they will appear."
            self._draw()
            return
        user = player.user
        if user == self.session.user:
            self.session.status = "That is you: choose another player."
            self._draw()
            return
        busy = "" if player.status == "lobby" else status_words(player)

        def chosen(choice: ChallengeChoice | None) -> None:
            if choice is None:
                return
            self._last_choice = choice
            if self.session.challenge(user, choice.color, choice.control, choice.rated):
                self.session.status = f"Challenged {user}: waiting for an answer (x cancels)."
                self._draw()

        self.app.push_screen(ChallengeScreen(user, self._last_choice, busy=busy), chosen)

    def _choose_game(self, table: DataTable[object]) -> None:
        key = _cursor_key(table)
        if key is None:
            return
        if key.startswith(_RESUME):
            link = self.session.open_copy(key.removeprefix(_RESUME))
            if link is not None:
                self._show_link(link)
            return
        game = int(key)
        self._watching.add(game)
        self.session.watch(game)

    def _choose_challenge(self, table: DataTable[object]) -> None:
        """Enter on a challenge to you: the Accept/Decline dialog; on yours: a reminder."""
        key = _cursor_key(table)
        challenge = None if key is None else self.session.picture.challenges.get(int(key))
        if challenge is None:
            self.session.status = (
                "No challenge to answer: challenges to you and from you show here."
            )
        elif challenge.to == self.session.user:
            self._answer_challenge(challenge)
            return
        else:
            self.session.status = f"Waiting for {challenge.to} to answer (x cancels)."
        self._draw()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if event.data_table.id == "games":
            self._choose_game(event.data_table)
        elif event.data_table.id == "challenges":
            self._choose_challenge(event.data_table)
        else:
            self._choose_player(event.data_table)

    def action_decline(self) -> None:
        """Decline the challenge to you under the cursor of the challenges table."""
        if not self._ready:
            return
        key = _cursor_key(self.query_one("#challenges", DataTable))
        challenge = None if key is None else self.session.picture.challenges.get(int(key))
        if challenge is None or challenge.to != self.session.user:
            self.session.status = "Choose a challenge to you in the challenges table to decline it."
        else:
            self.session.answer(challenge.challenge, False)
            self.session.status = f"Declined {challenge.from_}'s challenge."
        self._draw()

    def action_toggle_waiting(self) -> None:
        self.session.set_waiting(not self.session.picture.waiting)

    def action_cancel_challenges(self) -> None:
        me = self.session.user
        for number, challenge in list(self.session.picture.challenges.items()):
            if challenge.from_ == me:
                self.session.cancel(number)
        self._draw()

    def action_toggle_bell(self) -> None:
        """``b``: the terminal's bell on your move in a game not shown, on or off."""
        self.bell = not self.bell
        if self.remember_bell is not None:
            self.remember_bell(self.bell)
        self.session.status = (
            "The bell rings when it is your move in a game you are not looking at."
            if self.bell
            else "The bell is off."
        )
        self._draw()

    def action_help(self) -> None:
        """``?``: the lobby's own keys."""
        self.app.push_screen(LobbyHelpScreen())

    def action_refresh(self) -> None:
        if self.session.client.stopped:
            if self.reconnect is not None:
                self.reconnect()
            return
        self.session.refresh()

    def action_leave(self) -> None:
        self._ready = False
        self.dismiss(None)


#: The row key prefix of a game waiting to be resumed (keyed by origin, not a number).
_RESUME = "resume:"

_STATUS = {
    "lobby": "in the lobby",
    "local": "in a local game",
    "online": "at an online game",
    "away": "away",
}


def status_words(player: PlayerInfo) -> str:
    """Where a player is: ``wants a game``, ``playing online``, ``in a local game``..."""
    if player.status == "lobby" and player.waiting:
        return "wants a game"
    if player.status == "online" and player.playing:
        return "playing online"
    return _STATUS.get(player.status, player.status)


def rating_text(rating: Rating) -> str:
    """``1500?`` while provisional, ``1623`` once settled."""
    return f"{rating.rating}{'?' if rating.provisional else ''}"


def challenge_terms(challenge: ChallengeInfo, me: str | None) -> str:
    """``rated 5+3, you play black`` / ``casual, bob plays white`` / ``rematch, ...``."""
    kind = "rated" if challenge.rated else "casual"
    clock = challenge.clock
    terms = kind if clock is None else f"{kind} {control_text(clock.minutes, clock.increment)}"
    if challenge.rematch is not None:
        terms = f"rematch, {terms}"
    sender = "you" if challenge.from_ == me else challenge.from_
    if challenge.color == "random":
        return f"{terms}, random colours"
    verb = "play" if sender == "you" else "plays"
    return f"{terms}, {sender} {verb} {challenge.color}"


def _opponent(link: GameLink, me: str) -> str:
    return link.state.white if link.state.black == me else link.state.black


def _cursor_key(table: DataTable[object]) -> str | None:
    """The key of the row under ``table``'s cursor, if it has rows."""
    if not table.row_count or not 0 <= table.cursor_row < table.row_count:
        return None
    row_key, _ = table.coordinate_to_cell_key(table.cursor_coordinate)
    return row_key.value


def _refill(table: DataTable[object], rows: list[tuple[str, tuple[str, ...]]]) -> None:
    """Replace ``table``'s rows, keeping the cursor on the same key when it is still there
    (the lobby redraws on every presence: the choice must not jump back to the top)."""
    keys = [key for key, _ in rows]
    chosen: str | None = None
    if table.row_count and 0 <= table.cursor_row < table.row_count:
        row_key, _ = table.coordinate_to_cell_key(table.cursor_coordinate)
        chosen = row_key.value
    table.clear()
    for key, cells in rows:
        table.add_row(*cells, key=key)
    if chosen in keys:
        table.move_cursor(row=keys.index(chosen))
