"""Start a game: the match settings from the options, then a front end."""

from __future__ import annotations

import argparse
import os
import stat
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from reversi_tui.commands.options import (
    MOST_GAMES,
    MOST_SECONDS,
    POSITION_HELP,
    Commands,
    data_dir_after,
    int_range,
    seconds,
    think_seconds,
)
from reversi_tui.engine import Color, Game
from reversi_tui.engine.notation import NotationError
from reversi_tui.match import MatchSettings, PlayerKind, PlayerSpec
from reversi_tui.match.engine_config import EngineConfig, Engines
from reversi_tui.match.settings import LEVEL_NAMES, engine_forms
from reversi_tui.records.paths import DATA_DIR_ENV, file_kind
from reversi_tui.terminal import (
    is_terminal,
    startup_locale,
    terminal_problem,
    use_ascii,
    warn,
)

if TYPE_CHECKING:
    from reversi_tui.records.settings_file import StoredSettings

#: The most bytes ``--load`` reads: game files are a few kilobytes.
MOST_GAME_FILE_BYTES = 4 * 1024 * 1024


#: The levels as --help says them: ``easy, medium, hard or expert``.
_LEVELS_SAID = f"{', '.join(LEVEL_NAMES[:-1])} or {LEVEL_NAMES[-1]}"
#: The TUI's pause between computer moves when --delay is not given.
DEFAULT_DELAY = 0.5
#: The least seconds the computer takes to answer a person when --reply-delay is not given.
DEFAULT_REPLY_DELAY = 0.4


def _non_negative_float(text: str) -> float:
    return seconds(text, zero_ok=True, most=MOST_SECONDS)


def player_option(text: str) -> str:
    """A ``--black``/``--white`` value: a player's text form (``human``, ``hard``,
    ``hard/2.5s``, ``gtp:gtp-rhino -l 5``...: see ``PlayerSpec``), in its one spelling.
    An engine's command line must split into words; a configured engine's name is
    looked up when the game starts (``configured_engines``)."""
    try:
        spec = PlayerSpec.from_text(text)
        if spec.kind in (PlayerKind.GTP, PlayerKind.NBOARD):
            EngineConfig.of_command(spec.kind, spec.program)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    if spec.think_time is not None and spec.think_time > MOST_SECONDS:
        raise argparse.ArgumentTypeError(f"a player thinks at most {MOST_SECONDS:g} seconds")
    return spec.text


class _TuiOnly(argparse.Action):
    """Stores an option of the full-screen game and notes that it was given.

    ``nargs=0`` makes a flag (stores True); otherwise the value is stored. The
    canonical names given collect in ``tui_only`` so ``--plain`` can warn about them.
    """

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[object] | None,
        option_string: str | None = None,
    ) -> None:
        setattr(namespace, self.dest, True if self.nargs == 0 else values)
        given: tuple[str, ...] = getattr(namespace, "tui_only", ())
        name = self.option_strings[0]
        if name not in given:
            namespace.tui_only = (*given, name)


def add_game_options(parser: argparse.ArgumentParser) -> None:
    """The game's options (``reversi`` with no command): ``run_tui``, or ``run_plain``
    with ``--plain``, read them."""
    parser.add_argument(
        "--plain",
        action="store_true",
        help="line mode: moves typed on standard input in RowCol form, the row as a "
        "letter (a-h for rows 1-8) then the column: cd is d3",
    )
    parser.add_argument(
        "--black",
        type=player_option,
        metavar="PLAYER",
        help=f"who plays black: human, {_LEVELS_SAID}, or a level with its own "
        "seconds or depth per move, like hard/2.5s, hard/6ply or hard/0.5s/6ply, or an "
        f"engine: {engine_forms()} (NAME as the settings file configures it; "
        "default: human)",
    )
    parser.add_argument(
        "--white",
        type=player_option,
        metavar="PLAYER",
        help="who plays white: as --black (default: medium; human in --plain)",
    )
    parser.add_argument(
        "--handicap",
        type=int_range(0, 4),
        metavar="N",
        help="pre-place N corner discs (0-4, corners a1, h8, h1, a8) for --handicap-colour",
    )
    parser.add_argument(
        "--handicap-colour",
        "--handicap-color",
        choices=("black", "white"),
        help="the colour that gets the handicap corners (default: black)",
    )
    parser.add_argument(
        "--think-time",
        type=think_seconds,
        metavar="S",
        help="seconds the computer may think per move, at most 3600 "
        "(default: the level's own budget; a player's own, as in hard/2.5s, comes first)",
    )
    parser.add_argument(
        "--seed", type=int, help="seed the computer's choice among equal moves (reproducible games)"
    )
    parser.set_defaults(tui_only=())
    parser.add_argument(
        "--delay",
        action=_TuiOnly,
        type=_non_negative_float,
        default=DEFAULT_DELAY,
        metavar="S",
        help=f"pause between moves when the computer plays both sides (default: {DEFAULT_DELAY})",
    )
    parser.add_argument(
        "--reply-delay",
        action=_TuiOnly,
        type=_non_negative_float,
        default=DEFAULT_REPLY_DELAY,
        metavar="S",
        help="the least time the computer takes to answer you, so you see your move land "
        f"first (default: {DEFAULT_REPLY_DELAY})",
    )
    glyphs = parser.add_mutually_exclusive_group()
    glyphs.add_argument(
        "--ascii",
        action=_TuiOnly,
        nargs=0,
        default=False,
        help="draw with ASCII only (discs X and O, empty .); chosen automatically when the "
        "locale is not UTF-8 (LC_ALL, LC_CTYPE, LANG)",
    )
    glyphs.add_argument(
        "--unicode",
        action=_TuiOnly,
        nargs=0,
        default=False,
        help="draw the Unicode board even when the locale is not UTF-8",
    )
    parser.add_argument(
        "--no-mouse", action=_TuiOnly, nargs=0, default=False, help="do not capture the mouse"
    )
    parser.add_argument(
        "--theme", action=_TuiOnly, metavar="NAME", help="start with this theme (see the palette)"
    )
    parser.add_argument(
        "--data-dir",
        metavar="DIR",
        help=f"keep autosaves, saved games, records and settings in DIR (default: the "
        f"user's data directory; also ${DATA_DIR_ENV})",
    )
    start = parser.add_mutually_exclusive_group()
    start.add_argument(
        "--new",
        action=_TuiOnly,
        nargs=0,
        default=False,
        help="start a new game without offering the unfinished ones",
    )
    start.add_argument(
        "--resume",
        action=_TuiOnly,
        nargs=0,
        default=False,
        help="resume the most recent unfinished game without asking",
    )
    start.add_argument(
        "--load",
        metavar="FILE",
        help="play on from a game file: PGN, GGF, a move list or a position",
    )
    start.add_argument(
        "--moves",
        metavar="MOVES",
        help="play on after these moves from the start (f5d6c3...), or from the POSITION "
        "they follow (what m copies for a handicap game)",
    )
    start.add_argument(
        "--position",
        metavar="POSITION",
        help=f"play on from here: {POSITION_HELP}; moves may follow (f5d6...)",
    )
    parser.add_argument(
        "--game",
        type=int_range(1, MOST_GAMES),
        metavar="N",
        help="with --load: which game of a file with several (default: the first)",
    )


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
    from reversi_tui.records.settings_file import StoredSettings  # only to start a game

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
    from reversi_tui.players import playable, source_factory

    settings = start_settings(args, start, "human", "human")
    try:
        engines = configured_engines(args, settings)
    except StartError as error:
        warn(f"reversi: {error}")
        return 2
    settings, unplayable = playable(settings, engines)
    if unplayable is not None:  # an engine a file names: a person plays it here
        warn(f"reversi: {unplayable}")
    game = None if start is None else start.game
    return plain.run(settings, game=game, make_source=source_factory(engines))


def configured_engines(
    args: argparse.Namespace, settings: MatchSettings, stored: StoredSettings | None = None
) -> Engines:
    """The engines the settings file configures (``stored``'s, else read only when a
    player is one by name); StartError when ``--black`` or ``--white`` names one it does
    not configure."""
    from reversi_tui.records.paths import Places

    path = Places.resolve(args.data_dir).settings_file
    if stored is None:
        if not any(spec.kind is PlayerKind.ENGINE for spec in settings.players.values()):
            return {}
        from reversi_tui.records.settings_file import load_settings

        stored = load_settings(path)[0]
    engines = stored.engines
    for given in (args.black, args.white):
        spec = PlayerSpec.from_text(given) if given else None
        if spec is None or spec.kind is not PlayerKind.ENGINE or spec.program in engines:
            continue
        unusable = stored.unusable_engines.get(spec.program)
        if unusable is not None:
            raise StartError(
                f"the engine {spec.program!r} in {path} is not usable: {unusable.why}; mend "
                f"[engines.{spec.program}] (protocol gtp or nboard, and a command)"
            )
        known = ", ".join(sorted(engines)) or "none"
        raise StartError(
            f"no engine is configured as {spec.program!r} in {path} (configured: {known}); "
            f"add [engines.{spec.program}] with protocol and command"
        )
    return engines


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
            environ=startup_locale(),
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
    try:
        configured_engines(args, settings, stored)
    except StartError as error:
        warn(f"reversi: {error}")
        return 2
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
