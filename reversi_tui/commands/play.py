"""Start a game: the match settings from the options, then a front end."""

from __future__ import annotations

import argparse
import os
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from reversi_tui.commands.options import Commands, data_dir_after
from reversi_tui.engine import Color, Game
from reversi_tui.engine.notation import NotationError
from reversi_tui.match import MatchSettings, PlayerSpec
from reversi_tui.records.paths import file_kind
from reversi_tui.records.settings_file import StoredSettings
from reversi_tui.terminal import is_terminal, terminal_problem, use_ascii, warn

#: The most bytes ``--load`` reads: game files are a few kilobytes.
MOST_GAME_FILE_BYTES = 4 * 1024 * 1024


class StartError(Exception):
    """A game to start from (``--load``, ``--moves``, ``--position``) that cannot be used."""


@dataclass(frozen=True)
class Start:
    """A game to play on, and its players when the file it came from says who played
    (a file saved here; see ``ImportedGame.players``)."""

    game: Game
    players: tuple[PlayerSpec, PlayerSpec] | None = None


def settings_from_args(
    args: argparse.Namespace, black: str, white: str, stored: StoredSettings | None = None
) -> MatchSettings:
    """The options, over the remembered settings (``stored``), over the front end's
    defaults ``black``/``white`` (line mode remembers nothing: its runs are scripts)."""
    kept = stored if stored is not None else StoredSettings(black=black, white=white)
    think = args.think_time if args.think_time is not None else kept.think_time
    handicap = args.handicap if args.handicap is not None else kept.handicap
    colour = args.handicap_colour or kept.handicap_colour
    return MatchSettings(
        black=PlayerSpec.parse(args.black or kept.black, think),
        white=PlayerSpec.parse(args.white or kept.white, think),
        handicap=handicap,
        handicap_colour=Color.WHITE if colour == "white" else Color.BLACK,
        seed=args.seed,
    )


def start_game(args: argparse.Namespace) -> Start | None:
    """The game ``--load`` (game ``--game N`` of the file), ``--moves`` or ``--position``
    gives to play on; None for none.

    Raises StartError with one line for the player.
    """
    if args.handicap and (args.load or args.moves or args.position):
        raise StartError("--handicap starts a new game; it cannot go with a game to play on")
    if args.game is not None and args.load is None:
        raise StartError("--game N picks a game of the file --load reads; there is none")
    try:
        if args.position is not None or args.moves is not None:
            from reversi_tui.records.formats import parse_moves_text

            if args.position is not None:  # a position, maybe with moves from it
                return Start(parse_moves_text(args.position, position=True))
            return Start(parse_moves_text(args.moves))  # moves, maybe led by their start
        if args.load is not None:
            text = read_game_file(args.load)
            from reversi_tui.records.formats import read_game

            imported = read_game(text, (args.game or 1) - 1)
            return Start(imported.record.game(), imported.players)
    except (NotationError, ValueError) as error:
        raise StartError(str(error)) from None
    return None


def start_settings(
    args: argparse.Namespace,
    start: Start | None,
    black: str,
    white: str,
    stored: StoredSettings | None = None,
) -> MatchSettings:
    """``settings_from_args``, for the game ``start`` when there is one: as Ctrl+O opens a
    file (``opening_settings``), its players when the file says who played, except a
    colour ``--black``/``--white`` names; the handicap its start gives."""
    settings = settings_from_args(args, black, white, stored)
    if start is None:
        return settings
    from reversi_tui.records.formats import opening_settings

    players = start.players
    if players is not None:
        players = (
            settings.black if args.black else players[0],
            settings.white if args.white else players[1],
        )
    return opening_settings(start.game.start, players, settings)


def read_game_file(name: str) -> str:
    """A game file's text (``-`` is standard input), bounded, decoded tolerantly
    (UTF-16 with a byte order mark, UTF-8, else Latin-1).

    Only a regular file is read: a FIFO, a device or a directory is refused without
    being opened (opening a FIFO to read waits for a writer, for ever).
    """
    try:
        if name == "-":
            data = sys.stdin.buffer.read(MOST_GAME_FILE_BYTES + 1)
        else:
            data = _read_regular_file(name, MOST_GAME_FILE_BYTES + 1)
    except OSError as error:
        raise StartError(f"cannot read {name}: {error.strerror}") from None
    if len(data) > MOST_GAME_FILE_BYTES:
        raise StartError(f"{name} is too big for a game file")
    from reversi_tui.records.game_text import FormatError, decode_game_text

    try:
        return decode_game_text(data)
    except FormatError as error:
        raise StartError(f"{name} is not a game file ({error})") from None


def _read_regular_file(name: str, most: int) -> bytes:
    """The first ``most`` bytes of the regular file ``name``; StartError for anything else.

    Opened without blocking, and looked at again once open, in case it was swapped
    for a FIFO in between.
    """
    mode = os.stat(name).st_mode
    if stat.S_ISREG(mode):
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
        with open(os.open(name, flags), "rb") as file:
            mode = os.fstat(file.fileno()).st_mode
            if stat.S_ISREG(mode):
                return file.read(most)
    raise StartError(f"{name} is {file_kind(mode)}, not a game file")


def run_plain(args: argparse.Namespace) -> int:
    from reversi_tui import plain

    try:
        start = start_game(args)
    except StartError as error:
        warn(f"reversi: {error}")
        return 2
    from reversi_tui.players import playable

    settings, unplayable = playable(start_settings(args, start, "human", "human"))
    if unplayable is not None:  # an engine a file names: a person plays it here
        warn(f"reversi: {unplayable}")
    return plain.run(settings, game=None if start is None else start.game)


def run_tui(args: argparse.Namespace, *, online: bool = False) -> int:
    """The full-screen game; without a terminal, one line that points to --plain, and 2.

    Checked before Textual is imported: with standard input or output redirected it
    would write escape codes into a file and wait for keys that never come.
    """
    problem = terminal_problem(sys.__stdin__, sys.__stdout__)
    if problem is not None:
        warn(problem)
        return 2
    with _screen_on_a_terminal() as screen:
        ascii_only = use_ascii(
            ascii_flag=args.ascii,
            unicode_flag=args.unicode,
            environ=os.environ,
            encoding=getattr(screen, "encoding", None),
            windows=sys.platform == "win32",
        )
        return run_game_app(args, ascii_only=ascii_only, online=online)


def add_online_parser(commands: Commands) -> None:
    """``reversi online``'s options; ``run_online`` is its handler."""
    online = commands.add_parser(
        "online",
        help="play people on this machine: the lobby (starts a server if none runs)",
        description="The lobby of the online server on this host: challenge a player, play, "
        "watch, resume your games. Without --socket it tries /run/reversi/reversi.sock, then "
        "the per-host server, and starts one as you when none answers.",
    )
    online.add_argument("--socket", metavar="PATH", help="connect to the server at PATH only")
    data_dir_after(online, "keep autosaves, saved games, records and settings in DIR")
    online.set_defaults(handler=run_online)


def run_online(args: argparse.Namespace) -> int:
    """``reversi online``: the full-screen app, opened on the lobby."""
    return run_tui(args, online=True)


def run_game_app(args: argparse.Namespace, *, ascii_only: bool, online: bool = False) -> int:
    """The app, started as the options say; the exit code for the command line.

    Before the app starts: the data directory, the remembered settings, the game
    to start from (``--load``, ``--moves``, ``--position``) and the unfinished
    games to offer (none with ``--new``; the newest at once with ``--resume``).
    """
    try:
        start = start_game(args)
    except StartError as error:
        warn(f"reversi: {error}")
        return 2
    from reversi_tui.records.keeper import GameKeeper
    from reversi_tui.records.memory import SettingsMemory
    from reversi_tui.records.paths import Places
    from reversi_tui.records.settings_file import load_settings
    from reversi_tui.tui.app import StartOptions, run_app, theme_names
    from reversi_tui.tui.themes import DEFAULT_THEME
    from reversi_tui.tui.widgets.board_art import ASCII, UNICODE

    game = None if start is None else start.game
    places = Places.resolve(args.data_dir)
    stored, problem = load_settings(places.settings_file)
    notices = [problem] if problem else []
    settings = start_settings(args, start, "human", "medium", stored)
    keeper = GameKeeper(places)
    offer = [] if game is not None or args.new else keeper.resumable()
    notices += keeper.problems
    if args.resume and not offer:
        notices.append("No unfinished game to resume: a new game starts.")
    theme = args.theme or stored.theme or DEFAULT_THEME
    if theme not in theme_names():
        if args.theme:
            names = ", ".join(sorted(theme_names()))
            warn(f"reversi: unknown theme {theme!r}; choose one of: {names}")
            return 2
        theme = DEFAULT_THEME  # a remembered theme that is gone
    options = StartOptions(
        glyphs=ASCII if ascii_only else UNICODE,
        delay=args.delay if "--delay" in args.tui_only or stored.pace is None else stored.pace,
        reply_delay=args.reply_delay,
        theme=theme,
        mouse=not args.no_mouse,
        game=game,
        resume=offer[0] if args.resume and offer else None,
        offer=[] if args.resume else offer,
        online=online,
        socket=args.socket if online else None,
        notices=notices,
    )
    memory = SettingsMemory(places.settings_file, stored)
    return run_app(settings, options, keeper=keeper, memory=memory)


@contextmanager
def _screen_on_a_terminal() -> Iterator[object]:
    """Yield the stream the app will draw on, made a terminal for the app's run.

    Textual 8.2.8's ``LinuxDriver`` draws on ``sys.__stderr__`` (read when the app
    starts): with standard error redirected (``2>/dev/null``, ``2>log``) or closed
    (``2>&-``) the screen stays blank while the app waits for keys. Then, and only
    for the app's run, ``sys.__stderr__`` is a stream on standard output, which is a
    terminal (``run_tui`` checked), with stderr's ``backslashreplace`` errors.
    ``sys.stderr``, where messages go, is left as the user redirected it.
    """
    err, out = sys.__stderr__, sys.__stdout__
    if is_terminal(err) or out is None:
        yield err
        return
    screen = open(  # noqa: SIM115 -- closed below, after the app has finished with it
        os.dup(out.fileno()), "w", encoding=out.encoding, errors="backslashreplace"
    )
    setattr(sys, "__stderr__", screen)  # noqa: B010 -- typeshed declares it Final
    try:
        yield screen
    finally:
        setattr(sys, "__stderr__", err)  # noqa: B010
        screen.close()
