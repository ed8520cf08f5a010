"""An online game: the same board and sidebar as local play, fed by the server.

The view, the match's events, the board's input and the review are
``MatchScreen``'s (screens/match_view.py), as for a local game. The match's two
move sources come from the game's ``GameLink`` (see ``net/remote.py``): the
user's key is sent to the server and lands on the board when the server's state
carries it; the opponent's moves arrive the same way, and so does a resignation
by either side (the sources answer with it). A watcher's match has two remote
sides. The screen binds only its own keys (``ONLINE_GAME_KEYS``): ``r`` resigns
after a confirmation, ``w`` aborts before the player's second move (no result,
ratings unchanged; the footer shows it only while allowed), ``t`` says something to
the game's audience, ``z`` hides the watchers' chat from a player (or shows it
again), ``m`` copies the moves, and ``q`` goes back to the lobby while the game goes
on. Local play's keys (undo, hints, a new game...) are not bound; pressed here, they
say why not.

A timed game's clocks tick in the sidebar (the server's reading, counted down
here), shown reversed when low, and standing still while no server holds the game
(the board then takes no moves; when it comes back the status line says so, and
what it lost if another server re-created it). The chat keeps every line of the
game (the server's history first), the newest in view. When the opponent has been gone for
the grace, ``x`` claims the win or calls a draw. After the game the dialog offers
a rematch (colours swapped, same clock and rating); the other player's offer opens
a dialog here, and the new game replaces this one.
"""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.widgets import Button, Static

from reversi_tui.engine import Color, Game
from reversi_tui.match import MatchSettings, PlayerSpec, Result
from reversi_tui.match.sources import MoveSource
from reversi_tui.net import protocol
from reversi_tui.net.online import Notice, OnlineSession, TurnPassed, YourTurn
from reversi_tui.net.remote import GameLink
from reversi_tui.tui import keys
from reversi_tui.tui.compat.dismiss import ClosesOnce
from reversi_tui.tui.keys import ONLINE_GAME_KEYS, bindings, refusals
from reversi_tui.tui.screens.challenge import challenged_screen
from reversi_tui.tui.screens.chat import ChatScreen
from reversi_tui.tui.screens.confirm import ConfirmScreen
from reversi_tui.tui.screens.dialog import Dialog
from reversi_tui.tui.screens.game_over import Choice, GameOverScreen, OnlineGameOverScreen
from reversi_tui.tui.screens.match_view import MatchScreen
from reversi_tui.tui.thinking import Advisor
from reversi_tui.tui.widgets.board_art import UNICODE, Glyphs
from reversi_tui.tui.widgets.chat import ChatPanel, Said
from reversi_tui.tui.widgets.footer import KeyFooter

#: How often the clocks and the claim grace are looked at (seconds).
TICK = 0.2
#: The game-over words of an aborted game (see "Aborts" in docs/protocol.md).
ABORTED_WORDS = "Game aborted: no result, ratings unchanged"

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
    OnlineGameScreen #chat { color: $text; }
    """

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
        #: Whether the claim was announced since the opponent left.
        self._claim_said = False
        #: Rematch offers put to the player here, by challenge.
        self._offers: set[int] = set()
        #: Why the game was not playable when last shown (None: it was).
        self._shown_blocked = link.blocked
        #: When the clocks stopped here (``link.now``): no server holds the game.
        self._stopped_at: float | None = None if link.playable else link.now()
        #: The game's terms when last shown: (timed, rated).
        self._terms = _terms(link.state)

    def _mounted(self) -> None:
        """Hide New game, make room for the chat, and greet."""
        try:
            self.query_one("#new-game").display = False
            self.sidebar.mount(ChatPanel(id="chat"), before="#status")
        except NoMatches:  # closed before it mounted
            return
        self._show_chat()
        self._show_title()
        self.set_interval(TICK, self._tick)
        self.call_after_refresh(self._greet)

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        super().on_screen_resume(event)
        self.session.set_activity("online")

    def on_unmount(self) -> None:
        self._unsubscribe()
        self._stop()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Only a player of a game in progress resigns, and aborts before their second
        move; talk to a game this server holds."""
        active = not self.match.is_over and self.link.state.status == "active"
        if action == "resign":
            return self.link.my_colour is not None and active and self.link.playable
        if action == "abort":
            return self.link.may_abort and active
        if action == "chat":
            return self.link.server == self.session.server and self.link.waiting is None
        if action == "mute_watchers":
            return self.link.my_colour is not None
        if action == "claim":
            return self.link.claim_in() == 0.0 and active
        return super().check_action(action, parameters)

    def _clocks(self) -> dict[Color, tuple[str, bool]] | None:
        clocks = self.link.clocks
        if clocks is None:
            return None
        now = self.link.now() if self._stopped_at is None else self._stopped_at
        return {c: (clocks.text(c, now), clocks.low(c, now)) for c in Color}

    def _tick(self) -> None:
        """Count the running clock down, and say when the game may be claimed."""
        clocks = self.link.clocks
        ticking = clocks is not None and clocks.running is not None
        if ticking and self._stopped_at is None and not self.match.is_over:
            try:
                self._show_sidebar(self._view(0).position, moves_changed=False)
            except NoMatches:
                return
        claim = self.link.claim_in()
        if claim == 0.0 and not self._claim_said and not self.match.is_over:
            self._claim_said = True
            mine = self.link.my_colour
            assert mine is not None
            other = self.link.name(mine.opponent)
            self.set_status(
                f"{other} has been gone {protocol.ABANDON_GRACE:.0f} s: x claims the win or "
                "a draw, or wait for them."
            )
            self.refresh_bindings()
        elif claim != 0.0 and self._claim_said:
            self._claim_said = False
            self.refresh_bindings()

    def _show_title(self) -> None:
        """The sidebar's title: the game, its terms, and who watches."""
        state = self.link.state
        words = [f"Game {self.link.game}"]
        clocks = self.link.clocks
        if clocks is not None:
            words.append(clocks.control)
        words.append("rated" if state.rated else "casual")
        if state.spectators and state.status == "active":  # not kept up after the end
            words.append(f"{state.spectators} watching")
        try:
            self.query_one("#title", Static).update(f" {self.glyphs.dot} ".join(words))
        except NoMatches:
            return

    def _labels(self) -> dict[Color, str]:
        """The players' names; ``(away)`` only while the game goes on (after its end
        nobody keeps this screen told who comes and goes)."""
        if self.link.state.status == "active":
            return super()._labels()
        return {c: self.link.name(c) for c in Color}

    def _turn_text(self) -> str:
        """Whose turn, by name: the other side is waited for, not "thinking"."""
        match = self.match
        if self.link.aborted:
            return ABORTED_WORDS
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
        """The server's news of this game. Nothing before the screen is up (a rematch's
        states can arrive while it is being built: it shows the link as it is then) or
        once it is going (the app's last keys and messages can outlive it)."""
        if not self.is_mounted or not self.is_attached or self.answered:
            return
        link = self.link
        match event:
            case protocol.State(origin=origin) if origin == link.origin:
                if link.rewound:  # resumed from the moves both players had
                    link.rewound = False
                    self.play_on(Game.from_moves(None, link.move_list()))
                self._show_playable()
                self._show_title()
                if link.aborted:
                    self._aborted()
            case protocol.State() if self._is_rematch(event):
                self._move_to(event.origin)
            case protocol.Challenged(rematch=game) if game == link.game:
                self._offered(event.challenge)
            case protocol.ChallengeClosed(challenge=number) if number in self._offers:
                self.set_status("The rematch offer was withdrawn.")
            case protocol.ChatHistory(origin=origin) if origin == link.origin:
                self._show_chat()
            case protocol.Welcome() | protocol.ResumePending():
                self._show_playable()
            case protocol.Presence(user=user) if user != self.session.user and user in (
                link.name(Color.BLACK),
                link.name(Color.WHITE),
            ):
                where = "back online" if event.online else "away (disconnected)"
                self.set_status(f"{user} is {where}.")
                self._refresh_views(moves_changed=False)
            case protocol.Error(expected=expected):
                at = "" if expected is None else f" (the game is at move {expected + 1})"
                self.set_status(f"The server refused: {event.message}{at}.")
            case protocol.ChatMessage(game=game, watcher=watcher) if (
                game == link.game and link.server == self.session.server
            ):
                if not (watcher and link.origin in self.session.picture.muted):
                    self._show_chat()  # a muted watcher's line costs no repaint
            case YourTurn() | TurnPassed():
                pass  # this game's board says so; another game's is the alerts' (online_alerts.py)
            case Notice():  # the connection: lost, reconnecting, back
                self._show_playable()
                blocked = self.link.blocked
                if blocked is None or not blocked.endswith(event.text):
                    self.set_status(event.text)

    def _show_playable(self) -> None:
        """The board, the keys and the status line as the game stands here now: a game
        the server does not hold (yet), or whose copy differs, says so, takes no moves
        and stops its clocks here; one that comes back says so, and what changed."""
        link = self.link
        blocked = link.blocked
        if blocked is None:
            self._stopped_at = None
        elif self._stopped_at is None:
            self._stopped_at = link.now()
        self._refresh_views(moves_changed=False)
        self.refresh_bindings()
        was_blocked, self._shown_blocked = self._shown_blocked, blocked
        terms_before, self._terms = self._terms, _terms(link.state)
        if blocked is not None:
            self.set_status(blocked)
        elif was_blocked is not None and link.state.status == "active":
            self.set_status(back_words(terms_before, self._terms))

    def _show_chat(self) -> None:
        """The chat panel: every line of this game kept here, the newest in view;
        other users' text as plain text (the server has replaced control characters)."""
        lines = self.session.picture.shown_chat(self.link.origin)
        try:
            panel = self.query_one("#chat", ChatPanel)
        except NoMatches:
            return
        panel.show(Said(line.from_, line.text, line.watcher) for line in lines)

    def _is_rematch(self, state: protocol.State) -> bool:
        """A new game between this game's two players: the rematch, accepted."""
        old = self.link.state
        return (
            self.link.my_colour is not None
            and state.origin != old.origin
            and state.ply == 0
            and state.status == "active"
            and {state.black, state.white} == {old.black, old.white}
            and self.match.is_over
        )

    def _move_to(self, origin: str) -> None:
        """The rematch, accepted by either player: the dialogs over this screen (the
        game-over dialog) close with it, and the lobby opens the new game at once."""
        self.session.open_next = origin
        stack = self.app.screen_stack
        for _ in stack[stack.index(self) + 1 :]:
            self.app.pop_screen()
        self.action_leave()

    def _offered(self, number: int) -> None:
        """The other player offers a rematch: Accept/Decline here."""
        challenge = self.session.picture.challenges.get(number)
        if challenge is None or number in self._offers:
            return
        self._offers.add(number)

        def answer(yes: bool | None) -> None:
            if number in self.session.picture.challenges:
                self.session.answer(number, bool(yes))

        self._push_once(challenged_screen(challenge), answer)

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

    def action_abort(self) -> None:
        """``w``: no result, as the server allows before the player's second move."""
        if not self.link.may_abort or self.match.is_over:
            self.set_status("Too late to abort: you have made two moves (r resigns).")
            return

        def answer(yes: bool | None) -> None:
            if yes and self.link.may_abort:
                self.session.abort(self.link.game)

        self._push_once(
            ConfirmScreen(
                "Abort?", "Abort this game? No result, ratings unchanged.", "Abort", "Play on"
            ),
            answer,
        )

    def _aborted(self) -> None:
        """The game ended with no result: the turn loop stops (it waits for a move that
        will not come), and the board, the keys and the status line say so."""
        self._stop()
        self.set_status(f"{ABORTED_WORDS}. q goes back to the lobby.")
        self._refresh_views(moves_changed=False)
        self.refresh_bindings()

    def action_chat(self) -> None:
        def said(text: str | None) -> None:
            if text and self.link.server == self.session.server:
                self.session.chat(text, self.link.game)

        self._push_once(ChatScreen(f"Say something in game {self.link.game}"), said)

    def action_mute_watchers(self) -> None:
        if self.session.mute_watchers(self.link.origin):
            self.set_status("Watchers' chat hidden in this game: w shows it again.")
        else:
            self.set_status("Watchers' chat shown again.")
        self._show_chat()

    def _game_over_screen(self, result: Result) -> GameOverScreen:
        """Review, a rematch (for a player), or back to the lobby."""
        return OnlineGameOverScreen(
            result,
            self._you,
            rematch=self.link.my_colour is not None,
            ratings=ratings_words(self.link.state),
        )

    def _chosen_after_game(self, choice: Choice) -> None:
        """The finished game analysed, a rematch offered, or back to the lobby."""
        if choice == "analyse":
            self.action_analyse()
            return
        if choice == "rematch":
            mine = self.link.my_colour
            if mine is not None and self.session.rematch(self.link.game):
                other = self.link.name(mine.opponent)
                self.set_status(f"Rematch offered to {other}: the new game opens when they accept.")
            return
        self.action_leave()

    def action_claim(self) -> None:
        """``x``: the opponent has been gone for the grace: the win, a draw, or wait."""
        mine = self.link.my_colour
        if mine is None or self.link.claim_in() != 0.0 or self.match.is_over:
            self.set_status("Nothing to claim: your opponent is here, or not gone long enough.")
            return
        other = self.link.name(mine.opponent)

        def answer(outcome: str | None) -> None:
            if outcome in ("win", "draw"):
                self.session.claim(self.link.game, outcome)

        self._push_once(ClaimScreen(other), answer)


def _terms(state: protocol.State) -> tuple[bool, bool]:
    """(timed, rated)."""
    return state.clock is not None, state.rated


def back_words(before: tuple[bool, bool], after: tuple[bool, bool]) -> str:
    """A game a server holds again: play on, and what a re-created game lost."""
    lost = [
        word
        for word, had, has in (("untimed", before[0], after[0]), ("casual", before[1], after[1]))
        if had and not has
    ]
    if not lost:
        return "The game is back on the server: play on."
    return (
        f"The game is back, {' and '.join(lost)} now: another server re-created it "
        "from both players' copies."
    )


def ratings_words(state: protocol.State) -> str:
    """A rated game's new ratings: ``Ratings: ann 1523 (+23), bob 1477? (-23).``"""
    change = None if state.result is None else state.result.rating_change
    if not state.rated or not change:
        return ""
    parts = []
    for user in (state.black, state.white):
        rating = state.ratings.get(user)
        if rating is None or user not in change:
            return ""
        mark = "?" if rating.provisional else ""
        parts.append(f"{user} {rating.rating}{mark} ({change[user]:+d})")
    return f"Ratings: {', '.join(parts)}."


class ClaimScreen(Dialog[str | None]):
    """The opponent left: ``w`` claims the win, ``d`` calls a draw, Esc waits."""

    DEFAULT_CSS = "ClaimScreen > .dialog { width: 56; }"
    AUTO_FOCUS = "#wait"
    BINDINGS = [
        Binding("w", "answer('win')", "Claim the win"),
        Binding("d", "answer('draw')", "Draw"),
        Binding("escape", "answer('')", "Wait"),
    ]

    def __init__(self, opponent: str) -> None:
        super().__init__()
        self.opponent = opponent

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(f"{self.opponent} has left", classes="dialog-title", markup=False)
            yield Static(
                f"{self.opponent} has been gone for more than "
                f"{protocol.ABANDON_GRACE:.0f} seconds. Claim the win, end the game as a "
                "draw, or keep waiting for them to come back?",
                classes="dialog-text",
                markup=False,
            )
            with Horizontal(classes="buttons"):
                yield Button("Win (w)", id="win", variant="primary")
                yield Button("Draw (d)", id="draw")
                yield Button("Wait (Esc)", id="wait")
        yield KeyFooter()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_answer(event.button.id or "")

    def action_answer(self, outcome: str) -> None:
        self.dismiss(outcome or None)
