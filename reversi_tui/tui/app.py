"""The Reversi app: themes, the screen stack and the keys that work everywhere.

The game itself lives in ``GameScreen``, which drives a UI-free ``Match``; the
app only decides what the terminal shows and how it looks.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.command import CommandPalette
from textual.driver import Driver
from textual.filter import LineFilter
from textual.message import Message
from textual.screen import Screen
from textual.theme import BUILTIN_THEMES, Theme
from textual.widgets import Input

from reversi_tui.engine import Color, Game
from reversi_tui.engine.ai import learned
from reversi_tui.match import MatchSettings
from reversi_tui.match.sources import SourceFactory
from reversi_tui.players import source_factory
from reversi_tui.records.autosave import Resumable
from reversi_tui.records.keeper import GameKeeper
from reversi_tui.records.memory import SettingsMemory
from reversi_tui.tui.ascii import (
    ASCII_CLASS,
    AsciiFilter,
    ascii_key_display,
    asciify_palette,
    install_scrollbars,
)
from reversi_tui.tui.commands import GameCommands
from reversi_tui.tui.compat.input import KeyBurst
from reversi_tui.tui.compat.option_list import guard_option_list_paging
from reversi_tui.tui.compat.palette import open_palette, open_theme_picker
from reversi_tui.tui.screens.confirm import ConfirmScreen
from reversi_tui.tui.screens.game import GameScreen
from reversi_tui.tui.screens.help import HelpScreen
from reversi_tui.tui.screens.resume import ResumeScreen
from reversi_tui.tui.signals import install_exit_signals, remove_exit_signals
from reversi_tui.tui.themes import BOARD_VARIABLES, DEFAULT_THEME, THEMES
from reversi_tui.tui.thinking import Advisor, default_advisor
from reversi_tui.tui.widgets.board_art import UNICODE, Glyphs
from reversi_tui.tui.widgets.too_small import MIN_HEIGHT, MIN_WIDTH

if TYPE_CHECKING:
    from reversi_tui.net.online import OnlineSession
    from reversi_tui.net.protocol import State
    from reversi_tui.net.trust import Owner
    from reversi_tui.tui.online_alerts import OnlineAlerts
    from reversi_tui.tui.screens.analysis import AnalysisScreen


class LearnedFileRefused(Message):
    """A learned file (weights, book) was refused: the computer plays on without it.
    Posted from the search's thread, so the notice is shown on the app's."""

    def __init__(self, problem: str) -> None:
        super().__init__()
        self.problem = problem


class ReversiApp(App[int]):
    """Reversi against the computer, a friend, or computer against computer."""

    CSS_PATH = "app.tcss"
    TITLE = "Reversi"
    HORIZONTAL_BREAKPOINTS = [(0, "-too-narrow"), (MIN_WIDTH, "-wide-enough")]
    VERTICAL_BREAKPOINTS = [(0, "-too-short"), (MIN_HEIGHT, "-tall-enough")]
    #: One provider lists the game's commands and the system ones kept below, in order.
    COMMANDS = {GameCommands}
    BINDINGS = [
        Binding("question_mark", "help", "Help", key_display="?"),
        # Textual's Ctrl+Q exits at once and its Ctrl+C only says "press Ctrl+Q": both go
        # through the game's quit rule instead (ask only while a game is in progress).
        Binding("ctrl+q", "quit", "Quit", show=False, priority=True),
        Binding("ctrl+c", "quit", "Quit", show=False, system=True),
        # Job control, as other full-screen programs: the shell's fg brings the game back.
        Binding("ctrl+z", "suspend_process", "Suspend", show=False, priority=True),
    ]

    def __init__(
        self,
        settings: MatchSettings,
        *,
        make_source: SourceFactory | None = None,
        game: Game | None = None,
        glyphs: Glyphs = UNICODE,
        delay: float = 0.5,
        reply_delay: float = 0.4,
        advisor: Advisor | None = None,
        theme: str = DEFAULT_THEME,
        mouse: bool = True,
        keeper: GameKeeper | None = None,
        memory: SettingsMemory | None = None,
        offer: Sequence[Resumable] = (),
        notices: Sequence[str] = (),
    ) -> None:
        """``game`` continues a game instead of starting from ``settings``' position;
        ``delay`` paces computer against computer, ``reply_delay`` is the least time
        the computer takes to answer a person here; ``mouse`` is False when the app runs
        without the mouse (``--no-mouse``), so the help does not offer it.

        ``keeper`` saves the games (none: nothing is kept), ``memory`` remembers the
        settings, ``offer`` are the unfinished games the Resume dialog offers first,
        ``notices`` are messages (a damaged file set aside) shown once the app is up."""
        # Input that kills Textual 8.2.8 (stray bytes, huge numbers, replies) is survived.
        super().__init__(driver_class=_input_driver())
        guard_option_list_paging()
        #: In ASCII mode (``glyphs.ascii_only``) every character on screen is ASCII.
        self.ascii_filter: AsciiFilter | None = None
        if glyphs.ascii_only:
            self.add_class(ASCII_CLASS)
            self.ascii_filter = AsciiFilter()
            install_scrollbars()
        self.mouse = mouse
        for t in THEMES:
            self.register_theme(t)
        self.theme = theme
        #: The theme this run started with: only a different one picked is remembered.
        self.start_theme = theme
        self.keeper = keeper
        self.memory = memory if memory is not None else SettingsMemory(None)
        self.offer = list(offer)
        self.notices = list(notices)
        self._report_before: Callable[[str], None] | None = None
        #: ``reversi online``: open the lobby at start, on this socket (None: find one).
        self.online_on_mount: tuple[str | None] | None = None
        self.online: OnlineSession | None = None
        #: Challenges and turns told on any screen, once online.
        self.alerts: OnlineAlerts | None = None
        self.game_screen = GameScreen(
            settings,
            make_source or source_factory(self.memory.stored.engines),
            advisor or default_advisor,
            game=game,
            glyphs=glyphs,
            pace=delay,
            reply_delay=reply_delay,
            keeper=keeper,
            memory=self.memory,
            open_online=self.open_online,
        )

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return dict(BOARD_VARIABLES)

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's filters, then in ASCII mode the one that keeps the screen ASCII."""
        filters = super().get_line_filters()
        return filters if self.ascii_filter is None else [*filters, self.ascii_filter]

    def get_key_display(self, binding: Binding) -> str:
        """Keys as Textual shows them; in ASCII mode in words (``Enter``, not a symbol)."""
        display = super().get_key_display(binding)
        return display if self.ascii_filter is None else ascii_key_display(display)

    def on_command_palette_opened(self, _: CommandPalette.Opened) -> None:
        """In ASCII mode every palette (commands, themes) gets an ASCII prompt."""
        if self.ascii_filter is not None and isinstance(self.screen, CommandPalette):
            asciify_palette(self.screen)

    def on_load(self) -> None:
        """SIGTERM, SIGHUP and SIGINT save the game and exit as quitting does."""
        install_exit_signals(self, before_exit=self.keep_game)

    def on_mount(self) -> None:
        """The Resume dialog before anything else; then any notices; then watch the theme."""
        for notice in self.notices:
            self.notify(notice, severity="warning", timeout=10)
        self._report_before = learned.report_to(self._post_refused)
        if self.keeper is not None:
            self.keeper.on_problem = self._keeper_problem
        if self.online_on_mount is not None:
            self.open_online(self.online_on_mount[0], quit_on_leave=True)
        elif self.offer:
            keeper = self.keeper
            assert keeper is not None
            self.push_screen(ResumeScreen(self.offer, keeper.discard), self._resume_chosen)
        self.theme_changed_signal.subscribe(self, self._theme_changed)

    def open_online(self, socket: str | None = None, *, quit_on_leave: bool = False) -> None:
        """The lobby; the first time, connect (finding or starting the server)."""
        from reversi_tui.net.online import OnlineSession
        from reversi_tui.tui.online_alerts import OnlineAlerts
        from reversi_tui.tui.screens.lobby import LobbyScreen

        if any(isinstance(screen, LobbyScreen) for screen in self.screen_stack):
            return
        session = self.online
        if session is None:
            places = None if self.keeper is None else self.keeper.places
            session = self.online = OnlineSession.connect(
                socket,
                data_dir=None if places is None else places.data,
                ask=self._ask_about_server,
                recorder=self._record_online,
            )
            self.run_worker(self._stay_connected(session), group="online", exit_on_error=False)
            memory = self.memory
            self.alerts = OnlineAlerts(self, session, bell=lambda: memory.stored.bell)
            self.alerts.start()

        def left(_: object) -> None:
            if quit_on_leave:
                self.exit(0)

        screen = self.game_screen
        lobby = LobbyScreen(session, screen.advisor, screen.glyphs, reconnect=self.reconnect_online)
        lobby.bell = self.memory.stored.bell
        lobby.remember_bell = lambda on: self.memory.remember(bell=on)
        self.push_screen(lobby, left)

    async def _stay_connected(self, session: OnlineSession) -> None:
        from reversi_tui.net.client import ClientStopped

        try:
            await session.client.run()
        except ClientStopped as error:
            session.set_status(f"Not connected: {error}. r in the lobby asks again.")
            self.notify(str(error), title="Online play", severity="error", markup=False)

    def reconnect_online(self) -> None:
        """After the player refused a server (or it refused us): ask again, connect again."""
        session = self.online
        if session is None or not session.client.stopped:
            return
        session.forget_refusal()
        session.client.restart()
        self.run_worker(self._stay_connected(session), group="online", exit_on_error=False)

    async def _ask_about_server(self, owner: Owner, warning: str) -> bool:
        """Whether to use a server run by another user: a dialog, "No" focused."""
        answer: asyncio.Future[bool] = asyncio.get_running_loop().create_future()

        def answered(yes: bool | None) -> None:
            if not answer.done():
                answer.set_result(bool(yes))

        screen = ConfirmScreen(
            f"A server run by {owner.name}", warning + " Use this server?", "Use it", "Don't"
        )
        self.push_screen(screen, answered)
        return bool(await answer)

    def _record_online(self, state: State) -> None:
        """A finished online game of the player's, into their records once, with its
        clock and, for a rated game, both players' ratings after it."""
        from reversi_tui.net.remote import online_facts, record_of

        if self.keeper is None:
            return
        names = {Color.BLACK: state.black, Color.WHITE: state.white}
        self.keeper.add_record(
            record_of(state), names, source=state.origin, online=online_facts(state)
        )

    def on_analysis_screen_play_from(self, message: AnalysisScreen.PlayFrom) -> None:
        """``p`` in an analysis opened from the statistics: the game screen plays on."""
        self.game_screen.play_from_analysis(message.game)

    def _resume_chosen(self, item: Resumable | None) -> None:
        if item is not None:
            self.game_screen.resume(item)

    def _theme_changed(self, theme: Theme) -> None:
        """A theme picked in the palette is the next run's theme too."""
        if theme.name != self.start_theme:
            self.memory.remember(theme=theme.name)

    def action_suspend_process(self) -> None:
        """Ctrl+Z: stop with job control, as other full-screen programs do; the shell's
        ``fg`` brings the game back, drawn again. Textual stops the process with
        SIGSTOP, which nothing can refuse: with no shell above to ``fg`` it (``ssh -t
        host reversi``, ``exec reversi``) the terminal would freeze, so it says so."""
        if not job_control():
            self.notify(
                "Ctrl+Z needs a shell with job control to bring reversi back (fg); "
                "here it would freeze the terminal. q quits and keeps the game.",
                title="Not suspended",
                severity="warning",
                timeout=8,
            )
            return
        super().action_suspend_process()

    def keep_game(self) -> None:
        """Leaving (a signal, or quitting): the game is saved and released for resuming."""
        if self.keeper is not None:
            self.keeper.close()

    def on_unmount(self) -> None:
        remove_exit_signals(self)
        learned.report_to(self._report_before)

    def _keeper_problem(self, problem: str) -> None:
        """Saving or recording went wrong: the game goes on, and the player knows."""
        self.notify(
            problem[0].upper() + problem[1:],
            title="Your games",
            severity="warning",
            timeout=15,
            markup=False,
        )

    def _post_refused(self, problem: str) -> None:
        self.post_message(LearnedFileRefused(problem))

    def on_learned_file_refused(self, refused: LearnedFileRefused) -> None:
        """Once per refused file, as the line mode says it on stderr."""
        self.notify(
            refused.problem[0].upper() + refused.problem[1:] + ".",
            title="Playing on without a learned file",
            severity="warning",
            timeout=15,
            markup=False,
        )

    def on_key_burst(self, burst: KeyBurst) -> None:
        """Keys far faster than typing were dropped (``tui/compat/input.py``): in a text
        field they were a paste without brackets, and are pasted there; elsewhere (the
        board) they are not taken as keys, and the app says so, once."""
        if isinstance(self.focused, Input) and burst.text:
            self.focused.post_message(events.Paste(burst.text))
            return
        self.notify(
            f"{burst.count:,} characters came all at once, faster than anyone types, "
            "and were not taken as keys. To paste, use your terminal's own paste.",
            title="Ignored a burst of keys",
            severity="warning",
            timeout=10,
            markup=False,
        )

    def action_command_palette(self) -> None:
        """Ctrl+P: one palette at a time, safe to close at once (``tui/compat/palette.py``)."""
        open_palette(self)

    def search_themes(self) -> None:
        """The palette's Theme entry, as safe as the palette itself."""
        open_theme_picker(self)

    async def on_event(self, event: events.Event) -> None:
        """Keys queued behind the one that quit are dropped.

        Textual 8.2.8's ``App.on_event`` reads ``app.screen`` for every key, and
        raises ``ScreenStackError`` for keys that arrive in the same burst as the
        one that quit, once the screens are gone.
        """
        # Once exit() is called (Textual 8.2.8 sets ``_exit``) the screens are being torn
        # down: a key that reaches one then finds its widgets gone (NoMatches).
        exiting = getattr(self, "_exit", False)
        if isinstance(event, events.Key) and (not self.screen_stack or exiting):
            return
        if self.alerts is not None and isinstance(event, (events.Key, events.MouseDown)):
            self.alerts.touched()
        await super().on_event(event)

    def get_default_screen(self) -> GameScreen:
        return self.game_screen

    async def action_quit(self) -> None:
        """Every way to quit (q, Ctrl+Q, Ctrl+C, the palette) asks the game screen first."""
        if self.game_screen.is_attached:
            self.game_screen.action_quit_game()
        else:
            self.exit(0)

    def get_system_commands(self, screen: Screen[object]) -> Iterator[SystemCommand]:
        """Textual's palette entries that fit a game: Theme and Screenshot.

        Its Quit exits at once (``GameCommands`` offers one that asks first); Keys and
        Maximize squeeze or hide the board and say less than ``?`` does.
        """
        for command in super().get_system_commands(screen):
            if command.title in ("Theme", "Screenshot"):
                yield command

    def action_help(self) -> None:
        """The help of the game shown: an online game's keys over one, local play's else."""
        online = type(self.screen).__name__ == "OnlineGameScreen"
        self.push_screen(HelpScreen(self.game_screen.glyphs, mouse=self.mouse, online=online))


def job_control() -> bool:
    """Whether a shell with job control started this process and can resume it: its
    process group is not the session's own (a session leader has no shell above it)
    and the parent, in the same session, is in another group (the shell's)."""
    try:
        group, session, parent = os.getpgrp(), os.getsid(0), os.getppid()
        return group != session and os.getsid(parent) == session and os.getpgid(parent) != group
    except (OSError, AttributeError):  # no such calls (Windows), or the parent has gone
        return False


@dataclass(frozen=True)
class StartOptions:
    """How the app starts, as the command line chose (``commands/play.py`` builds it).

    ``game`` is a game to play on (``--load``, ``--moves``, ``--position``); ``resume``
    an unfinished game resumed at once (``--resume``); ``offer`` the unfinished games
    the Resume dialog offers; ``online`` opens the lobby at start (``reversi online``),
    on ``socket`` (None: find the server, or start one); ``notices`` are shown once up.
    """

    glyphs: Glyphs = UNICODE
    delay: float = 0.5
    reply_delay: float = 0.4
    theme: str = DEFAULT_THEME
    mouse: bool = True
    game: Game | None = None
    resume: Resumable | None = None
    offer: Sequence[Resumable] = ()
    online: bool = False
    socket: str | None = None
    notices: Sequence[str] = ()


def theme_names() -> frozenset[str]:
    """The themes the app offers: Textual's and the game's own (``tui/themes.py``)."""
    return frozenset([*BUILTIN_THEMES, *(theme.name for theme in THEMES)])


def run_app(
    settings: MatchSettings,
    options: StartOptions,
    *,
    keeper: GameKeeper | None = None,
    memory: SettingsMemory | None = None,
) -> int:
    """Run the app on the terminal; the exit code for the command line.

    ``keeper`` keeps the games (closed when the app ends), ``memory`` the settings.
    """
    app = ReversiApp(
        settings,
        game=options.game,
        glyphs=options.glyphs,
        delay=options.delay,
        reply_delay=options.reply_delay,
        theme=DEFAULT_THEME,
        mouse=options.mouse,
        keeper=keeper,
        memory=memory,
        offer=options.offer,
        notices=options.notices,
    )
    theme = options.theme if options.theme in app.available_themes else DEFAULT_THEME
    app.theme = app.start_theme = theme
    app.game_screen.resume_on_mount = options.resume
    if options.online:
        app.online_on_mount = (options.socket,)
    # The computer searches in a thread; handing the GIL over every millisecond instead of
    # every 5 keeps keys answered while it thinks, for a negligible cost to the search.
    sys.setswitchinterval(0.001)
    try:
        result = app.run(mouse=app.mouse)
    finally:
        app.keep_game()
    return result if isinstance(result, int) else (app.return_code or 0)


def _input_driver() -> type[Driver] | None:
    """The driver whose input thread survives any input (``tui/compat/driver.py``); None
    where Textual's is kept: only the POSIX driver is replaced, on Windows Textual chooses."""
    if sys.platform == "win32":
        return None
    from reversi_tui.tui.compat.driver import ReversiDriver

    return ReversiDriver
