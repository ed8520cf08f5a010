"""An online game: the same board and sidebar as local play, fed by the server.

The view, the match's events, the board's input and the review are
``MatchScreen``'s (screens/match_view.py), as for a local game. The match's two
move sources come from the game's ``GameLink`` (see ``net/remote.py``): the
user's key is sent to the server and lands on the board when the server's state
carries it; the opponent's moves arrive the same way, and so does a resignation
by either side (the sources answer with it). A watcher's match has two remote
sides. The screen binds only its own keys (``ONLINE_GAME_KEYS``): ``r`` resigns
after a confirmation, ``t`` says something to the game's audience, ``m`` copies
the moves, and ``q`` goes back to the lobby while the game goes on. Local play's
keys (undo, hints, a new game...) are not bound; pressed here, they say why not.
"""

from __future__ import annotations

from rich.text import Text
from textual.css.query import NoMatches
from textual.widgets import Static

from reversi_tui.engine import Color, Game
from reversi_tui.match import MatchSettings, PlayerSpec
from reversi_tui.match.sources import MoveSource
from reversi_tui.net import protocol
from reversi_tui.net.online import Notice, OnlineSession
from reversi_tui.net.remote import GameLink
from reversi_tui.tui import keys
from reversi_tui.tui.compat.dismiss import ClosesOnce
from reversi_tui.tui.keys import ONLINE_GAME_KEYS, bindings, refusals
from reversi_tui.tui.screens.chat import ChatScreen
from reversi_tui.tui.screens.confirm import ConfirmScreen
from reversi_tui.tui.screens.game_over import Choice
from reversi_tui.tui.screens.match_view import MatchScreen
from reversi_tui.tui.thinking import Advisor
from reversi_tui.tui.widgets.board_art import UNICODE, Glyphs

#: What the local-only keys say in an online game.
NOT_ONLINE = "{what} is not available online: the server holds the game."
#: What local play's keys say here (q and Space are this screen's own keys too).
LOCAL_ONLY_WORDS = {
    keys.HINT: NOT_ONLINE.format(what="A hint"),
    keys.UNDO: NOT_ONLINE.format(what="Undo"),
    keys.REDO: NOT_ONLINE.format(what="Redo"),
    keys.PLAY_ON: NOT_ONLINE.format(what="Playing on from here"),
    keys.NEW_GAME: "n starts a local game: q goes back to the lobby first.",
    keys.SAVE: NOT_ONLINE.format(what="Saving to a file"),
    keys.OPEN: "Ctrl+O opens a game for local play: q goes back to the lobby first.",
    keys.STATISTICS: "s shows the statistics from a local game: q goes back to the lobby first.",
    keys.PLAY_ONLINE: "You are online already: q goes back to the lobby.",
}


class OnlineGameScreen(ClosesOnce, MatchScreen):
    """One online game, played or watched."""

    DEFAULT_CSS = """
    OnlineGameScreen #chat { height: auto; max-height: 4; color: $text; margin-top: 1; }
    OnlineGameScreen #chat.-empty { display: none; }
    """
    #: Chat lines kept in the panel.
    CHAT_LINES = 3

    #: Generated from the key table (tui/keys.py), in the footer's order.
    BINDINGS = bindings(ONLINE_GAME_KEYS)
    KEYS_ELSEWHERE = refusals(LOCAL_ONLY_WORDS)

    REVIEW_WORDS = (
        "Reviewing: Left/Right step through the game, Home/End jump, q goes back to the lobby."
    )
    READ_ONLY_WORDS = "Reviewing is read-only: Left/Right step, q goes back to the lobby."
    OVER_WORDS = "The game is over: q goes back to the lobby."
    ERROR_WORDS = "q goes back to the lobby."

    def __init__(
        self,
        session: OnlineSession,
        link: GameLink,
        advisor: Advisor | None = None,
        *,
        glyphs: Glyphs = UNICODE,
    ) -> None:
        """``advisor`` is not used: there are no hints online (the lobby passes its own)."""
        self.session = session
        self.link = link
        specs = {Color.BLACK: PlayerSpec.human(), Color.WHITE: PlayerSpec.human()}
        colours = {id(spec): colour for colour, spec in specs.items()}

        def make_source(spec: PlayerSpec, _seed: int | None) -> MoveSource:
            return link.source(colours[id(spec)])

        game = Game.from_moves(None, link.move_list())
        super().__init__(
            MatchSettings(specs[Color.BLACK], specs[Color.WHITE]),
            make_source,
            game=game,
            glyphs=glyphs,
            pace=0.0,
            reply_delay=0.0,
        )
        self._unsubscribe = session.subscribe(self._on_session)
        self._chat: list[tuple[str, str]] = []

    def _mounted(self) -> None:
        """Hide New game, make room for the chat, and greet."""
        try:
            self.query_one("#new-game").display = False
            self.sidebar.mount(Static(id="chat", classes="-empty"), before="#status")
        except NoMatches:  # closed before it mounted
            return
        self.call_after_refresh(self._greet)

    def on_unmount(self) -> None:
        self._unsubscribe()
        self._stop()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Only a player of a game in progress resigns; talk to a game this server holds."""
        if action == "resign":
            return self.link.my_colour is not None and not self.match.is_over and self.link.playable
        if action == "chat":
            return self.link.server == self.session.server and self.link.waiting is None
        return super().check_action(action, parameters)

    def _turn_text(self) -> str:
        """Whose turn, by name: the other side is waited for, not "thinking"."""
        match = self.match
        if self.link.blocked is not None and not match.is_over:
            return "Not playable here now (the line below says why)"
        if match.is_over or match.local_to_move:
            return super()._turn_text()
        colour = self.game.turn
        return (
            f"Move {self.game.move_number} {self.glyphs.dot} "
            f"{colour.title} to play ({self.link.name(colour)})"
        )

    # Messages from the server ------------------------------------------------------
    def _greet(self) -> None:
        if self.link.blocked is not None:
            self.set_status(self.link.blocked)
            return
        mine = self.link.my_colour
        black, white = self.link.name(Color.BLACK), self.link.name(Color.WHITE)
        if mine is None:
            self.set_status(
                f"Watching game {self.link.game}: {black} (Black) against {white} (White)."
            )
        else:
            other = self.link.name(mine.opponent)
            self.set_status(
                f"Online game {self.link.game}: you play {mine.title} against {other} "
                f"({self._presence(other)}). r resigns, t talks, q goes back to the lobby."
            )

    def _presence(self, user: str) -> str:
        return "online" if self.link.state.online.get(user, False) else "away"

    def _on_session(self, event: protocol.ServerMessage | Notice) -> None:
        link = self.link
        match event:
            case protocol.State(origin=origin) if origin == link.origin:
                if link.rewound:  # resumed from the moves both players had
                    link.rewound = False
                    self.play_on(Game.from_moves(None, link.move_list()))
                self._show_playable()
            case protocol.Welcome() | protocol.ResumePending():
                self._show_playable()
            case protocol.Presence(user=user) if user in (
                link.name(Color.BLACK),
                link.name(Color.WHITE),
            ):
                where = "back online" if event.online else "away (disconnected)"
                self.set_status(f"{user} is {where}.")
                self._refresh_views(moves_changed=False)
            case protocol.Error(expected=expected):
                at = "" if expected is None else f" (the game is at move {expected + 1})"
                self.set_status(f"The server refused: {event.message}{at}.")
            case protocol.ChatMessage(game=game) if (
                game == link.game and link.server == self.session.server
            ):
                self._show_chat(event.from_, event.text)
            case Notice():  # the connection: lost, reconnecting, back
                self.set_status(event.text)

    def _show_playable(self) -> None:
        """The board, the keys and the status line as the game stands here now: a game
        the server does not hold (yet), or whose copy differs, says so and takes no moves."""
        self._refresh_views(moves_changed=False)
        self.refresh_bindings()
        if self.link.blocked is not None:
            self.set_status(self.link.blocked)

    def _show_chat(self, user: str, text: str) -> None:
        """The chat panel: the last few lines, other users' text as plain text (never
        markup; the server has already replaced control characters)."""
        self._chat = [*self._chat, (user, text)][-self.CHAT_LINES :]
        lines = Text()
        for number, (who, said) in enumerate(self._chat):
            if number:
                lines.append("\n")
            lines.append(f"{who}: ", style="bold")
            lines.append(said)
        try:
            panel = self.query_one("#chat", Static)
        except NoMatches:
            return
        panel.update(lines)
        panel.set_class(False, "-empty")

    # Keys --------------------------------------------------------------------------
    def _nobody_here_plays(self, key: str) -> None:
        self.set_status("You are watching: the players' moves come from the server.")

    def action_leave(self) -> None:
        """Back to the lobby; an unfinished game goes on and can be resumed there."""
        if self.answered:
            return
        if self.link.my_colour is None:
            self.session.unwatch(self.link)
        self.dismiss(None)

    def action_resign(self) -> None:
        mine = self.link.my_colour
        if mine is None or self.match.is_over:
            self.set_status("Only a player of a game in progress can resign.")
            return

        def answer(yes: bool | None) -> None:
            if yes and self.link.playable:
                self.session.resign(self.link.game)

        self._push_once(
            ConfirmScreen(
                "Resign?", "Resign this game? Your opponent wins it.", "Resign", "Play on"
            ),
            answer,
        )

    def action_chat(self) -> None:
        def said(text: str | None) -> None:
            if text and self.link.server == self.session.server:
                self.session.chat(text, self.link.game)

        self._push_once(ChatScreen(f"Say something in game {self.link.game}"), said)

    def _chosen_after_game(self, choice: Choice) -> None:
        """A new game or quitting, chosen after the game: back to the lobby."""
        self.action_leave()
