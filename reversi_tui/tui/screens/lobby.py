"""The lobby: who is online, the games in progress, challenges in and out.

Enter on a player challenges them (after choosing a colour); Enter on a game
resumes it when it is yours and watches it otherwise; a game of yours the server
does not hold yet is listed with where its resumption stands. Every challenge to
you and from you is listed: Enter answers one to you, ``d`` declines it, ``x``
cancels yours. ``t`` says you are looking for a game, ``r`` refreshes (and, after
you refused a server, asks again), ``q`` leaves. A new challenge opens a dialog at
once; an accepted one opens the game for both players. The header names who runs
the server, as the kernel says.
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
from reversi_tui.net.online import Notice, OnlineSession
from reversi_tui.net.protocol import ChallengeColor
from reversi_tui.net.remote import GameLink
from reversi_tui.tui.compat.dismiss import ClosesOnce
from reversi_tui.tui.keys import LOBBY_KEYS, bindings
from reversi_tui.tui.screens.challenge import ChallengedScreen, ColourScreen
from reversi_tui.tui.screens.online_game import OnlineGameScreen
from reversi_tui.tui.thinking import Advisor
from reversi_tui.tui.widgets.board_art import Glyphs
from reversi_tui.tui.widgets.footer import KeyFooter


class LobbyScreen(ClosesOnce, Screen[None]):
    """Online play's first screen."""

    DEFAULT_CSS = """
    LobbyScreen > Vertical { padding: 0 1; }
    LobbyScreen .title { text-style: bold; color: $accent; width: 1fr; }
    LobbyScreen .heading { text-style: bold; color: $accent; margin-top: 1; }
    LobbyScreen #players { height: auto; max-height: 8; }
    LobbyScreen #games { height: auto; max-height: 8; }
    LobbyScreen #challenges { height: auto; max-height: 6; }
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
        self._unsubscribe = session.subscribe(self._on_session)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Online", id="title", classes="title", markup=False)
            yield Static("Players online: Enter challenges one", classes="heading")
            yield DataTable(id="players", cursor_type="row", zebra_stripes=True)
            yield Static(
                "Games in progress: Enter watches one, or resumes yours", classes="heading"
            )
            yield DataTable(id="games", cursor_type="row", zebra_stripes=True)
            yield Static(
                "Challenges: Enter answers one to you, d declines it, x cancels yours",
                classes="heading",
            )
            yield DataTable(id="challenges", cursor_type="row", zebra_stripes=True)
            yield Static(self.session.status, id="status", markup=False)
        yield KeyFooter()

    def on_mount(self) -> None:
        """The tables' columns, then the picture; nothing if the lobby closed before it
        mounted (``o`` then ``q`` in one burst of keys)."""
        try:
            self.query_one("#players", DataTable).add_columns("Player", "Status")
            self.query_one("#games", DataTable).add_columns(
                "Game", "Black", "White", "Move", "Status"
            )
            self.query_one("#challenges", DataTable).add_columns("From", "To", "Colours")
        except NoMatches:
            return
        self._ready = True
        self._draw()

    def on_unmount(self) -> None:
        self._unsubscribe()

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
        if owner is not None:
            own = owner.uid == os.getuid()
            title += " · your own server" if own else f" · server of {owner}"
        if picture.waiting:
            title += " · looking for a game"
        self.query_one("#title", Static).update(title)
        rows: list[tuple[str, tuple[str, ...]]] = []
        for player in picture.players:
            status = "playing" if player.playing else "wants a game" if player.waiting else "idle"
            name = f"{player.user} (you)" if player.user == me else player.user
            rows.append((player.user, (name, status)))
        _refill(self.query_one("#players", DataTable), rows)
        rows = []
        for game in picture.games:
            mine = " (yours)" if me in (game.black, game.white) else ""
            cells = (f"{game.game}{mine}", game.black, game.white, str(game.ply + 1))
            rows.append((str(game.game), (*cells, f"{game.spectators} watching")))
        for origin, (copy, stands) in picture.resuming.items():
            move = str(len(copy.moves) // 2 + 1)
            rows.append((_RESUME + origin, ("yours", copy.black, copy.white, move, stands)))
        _refill(self.query_one("#games", DataTable), rows)
        rows = []
        for number, challenge in sorted(picture.challenges.items()):
            sender = "you" if challenge.from_ == me else challenge.from_
            target = "you" if challenge.to == me else challenge.to
            verb = "play" if sender == "you" else "plays"
            words = (
                "random colours"
                if challenge.color == "random"
                else f"{sender} {verb} {challenge.color}"
            )
            rows.append((str(number), (sender, target, words)))
        _refill(self.query_one("#challenges", DataTable), rows)
        self.query_one("#status", Static).update(session.status)

    # Messages from the server ------------------------------------------------------
    def _on_session(self, event: protocol.ServerMessage | Notice) -> None:
        if not self.is_attached:
            return
        match event:
            case protocol.Challenged():
                self._answer_challenge(event)
            case protocol.State():
                self._maybe_open(event)
                self.session.refresh()
            case protocol.Presence():
                self.session.refresh()
            case protocol.Error():
                self.session.status = f"The server refused: {event.message}."
            case protocol.ChallengeClosed():
                dialog = self._dialogs.pop(event.challenge, None)
                if dialog is not None:
                    dialog.dismiss(False)  # withdrawn or expired: nothing left to answer
            case Notice():
                self.session.status = event.text
            case protocol.ChatMessage(game=None):
                self.notify(f"{event.from_}: {event.text}", title="Lobby chat", markup=False)
        self._draw()

    def _answer_challenge(self, event: protocol.Challenged) -> None:
        if event.challenge in self._dialogs:
            return

        def answer(yes: bool | None) -> None:
            self._dialogs.pop(event.challenge, None)
            if event.challenge in self.session.picture.challenges:
                self.session.answer(event.challenge, bool(yes))

        dialog = ChallengedScreen(event.from_, event.color)
        self._dialogs[event.challenge] = dialog
        self.app.push_screen(dialog, answer)

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
        if self._open_game == link.origin or not self.is_current:
            return
        self._open_game = link.origin
        screen = OnlineGameScreen(self.session, link, self.advisor, glyphs=self.glyphs)
        self.app.push_screen(screen, lambda _: self._closed_game())

    def _closed_game(self) -> None:
        self._open_game = None
        self.session.refresh()

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
        players = self.session.picture.players
        if not players or table.cursor_row >= len(players):
            self.session.status = "Nobody else is online yet: wait here, they will appear."
            self._draw()
            return
        user = players[table.cursor_row].user
        if user == self.session.user:
            self.session.status = "That is you: choose another player."
            self._draw()
            return

        def chosen(colour: ChallengeColor | None) -> None:
            if colour is not None and self.session.challenge(user, colour):
                side = "colours at random" if colour == "random" else f"you play {colour}"
                self.session.status = f"Challenged {user} ({side}): waiting for an answer."
                self._draw()

        self.app.push_screen(ColourScreen(user), chosen)

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
            self._answer_challenge(
                protocol.Challenged(
                    challenge=challenge.challenge, from_=challenge.from_, color=challenge.color
                )
            )
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
