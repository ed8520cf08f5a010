"""Each key described once: the actions, their keys, footer labels, help and palette entries.

The screens' ``BINDINGS`` (game, online game, lobby), the help screen's key lists
and the command palette's game commands are all generated from this table, so a
key, its label and its help text are written in one place only. The order of a
screen's bindings is the footer's order; the order of ``GAME_HELP`` is the help's.
Each screen binds only the keys it has: the local game's keys that an online game
lacks (``LOCAL_ONLY_KEYS``) are not bound there, and say why not (``refusals``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from textual.binding import Binding, BindingType


@dataclass(frozen=True)
class KeyAction:
    """One action: its keys as bound and as described, and where it shows.

    ``action`` is the Textual action string (``""`` for a help row whose keys are
    bound elsewhere: the board, the app, a dialog); ``keys``/``title``/``show``/
    ``key_display``/``priority`` make the binding; ``help_keys``/``help`` the help
    row (none when ``help`` is empty); ``command``/``command_help`` the palette entry.
    """

    action: str = ""
    keys: str = ""
    title: str = ""
    show: bool = True
    key_display: str | None = None
    priority: bool = False
    help_keys: str = ""
    help: str = ""
    command: str = ""
    command_help: str = ""

    @property
    def method(self) -> str:
        """The screen's method the action runs: ``review_step(-1)`` -> ``action_review_step``."""
        return "action_" + self.action.partition("(")[0]

    def binding(self) -> Binding:
        """The Textual binding."""
        return Binding(
            self.keys,
            self.action,
            self.title,
            show=self.show,
            key_display=self.key_display,
            priority=self.priority,
        )

    @property
    def help_row(self) -> tuple[str, str]:
        return (self.help_keys, self.help)


# Keys bound elsewhere (the board, the app, dialogs), described in the help ----------
CURSOR = KeyAction(
    help_keys="arrows  h j k l", help="move the cursor (it stops at the board's edges)"
)
PLAY = KeyAction(help_keys="Enter  Space", help="play at the cursor")
NEXT_LEGAL = KeyAction(help_keys="Tab  Shift+Tab", help="next / previous legal move")
JUMP = KeyAction(
    help_keys="a-h then 1-8", help="jump to a square: d then 3 (shows d_; Esc cancels)"
)
SUSPEND = KeyAction(help_keys="Ctrl+Z", help="suspend to the shell; fg brings the game back")
DIALOG = KeyAction(
    help_keys="y  n  Esc", help="confirm / cancel a dialog; Enter: the focused button"
)
PALETTE = KeyAction(help_keys="Ctrl+P", help="command palette: the game's actions and themes")
HELP = KeyAction(
    action="app.help",
    help_keys="?",
    help="this help",
    command="Help",
    command_help="Every key and what the marks on the board mean (?)",
)

# The game screen -------------------------------------------------------------------
HINT = KeyAction(
    "hint",
    "i",
    "Hint",
    help_keys="i",
    help="hint: the hard level's move and what it is worth",
    command="Hint",
    command_help="The hard level's move for the side to move (i)",
)
UNDO = KeyAction(
    "undo",
    "u",
    "Undo",
    help_keys="u",
    help="undo (takes back the computer's reply too)",
    command="Undo",
    command_help="Take back your last move; in review, step back (u)",
)
REDO = KeyAction(
    "redo",
    "U,shift+u,ctrl+r",
    "Redo",
    key_display="U",
    help_keys="U  Ctrl+R",
    help="redo",
    command="Redo",
    command_help="Play a taken-back move again; in review, step forward (U)",
)
# In review the arrows walk the game instead of the cursor: priority over the board.
REVIEW_BACK = KeyAction(
    "review_step(-1)",
    "left,u",
    "Back",
    priority=True,
    help_keys="Left Right  u U",
    help="step back / forward through the finished game",
)
REVIEW_FORWARD = KeyAction("review_step(1)", "right,U,shift+u", "Forward", priority=True)
REVIEW_START = KeyAction(
    "review_edge(-1)",
    "home",
    "Start",
    show=False,
    priority=True,
    help_keys="Home  End",
    help="jump to the start / the end",
)
REVIEW_END = KeyAction("review_edge(1)", "end", "End", show=False, priority=True)
PLAY_ON = KeyAction(
    "play_from_here",
    "p",
    "Play on",
    help_keys="p",
    help="play on from the position shown (asks first)",
)
PAUSE = KeyAction(
    "toggle_pause",
    "space",
    "Pause/Resume",
    help_keys="Space",
    help="computer against computer: pause / resume",
)
# Enter or Space when the board takes no move (the computer's turn, review).
NOT_NOW = KeyAction("not_now", "enter,space", show=False)
NEW_GAME = KeyAction(
    "new_game",
    "n",
    "New",
    help_keys="n",
    help="new game: players, levels, handicap, think time, pace",
    command="New game",
    command_help="Choose players, levels and a handicap (n)",
)
QUIT = KeyAction(
    "quit_game",
    "q",
    "Quit",
    help_keys="q  Ctrl+Q  Ctrl+C",
    help="quit (asks while a game is in progress)",
    command="Quit",
    command_help="Leave Reversi; asks while a game is in progress (q)",
)
# Game files and records: the help lists them (at 80x24 the footer has no room).
SAVE = KeyAction(
    "save_game",
    "ctrl+s",
    "Save",
    show=False,
    help_keys="Ctrl+S",
    help="save the game to a file: .pgn (or .ggf) in games/",
    command="Save game",
    command_help="Save this game to a PGN or GGF file (Ctrl+S)",
)
OPEN = KeyAction(
    "open_game",
    "ctrl+o",
    "Open",
    show=False,
    help_keys="Ctrl+O",
    help="open a game: a saved file, a recorded game, a path",
    command="Open game",
    command_help="A saved game, one from the records, or a file (Ctrl+O)",
)
# Not c: a-g are the board's column keys (c then 4 jumps to c4).
COPY_MOVES = KeyAction(
    "copy_moves",
    "m",
    "Copy moves",
    show=False,
    help_keys="m",
    help="copy the moves (f5d6c3...) to the clipboard (OSC 52)",
    command="Copy moves",
    command_help="The move list to the clipboard, f5d6c3... (m)",
)
STATISTICS = KeyAction(
    "statistics",
    "s",
    "Statistics",
    show=False,
    help_keys="s",
    help="statistics per opponent; replay a recent game",
    command="Statistics",
    command_help="Your games against each opponent; replay a recent one (s)",
)
# Not a: a-h are the board's column keys (a then 4 jumps to a4).
ANALYSE = KeyAction(
    "analyse",
    "A,shift+a",
    "Analyse",
    show=False,
    key_display="A",
    help_keys="A",
    help="analyse the game so far (an online game once it is over)",
)
PLAY_ONLINE = KeyAction(
    "play_online",
    "o",
    "Play online",
    show=False,
    help_keys="o",
    help="play online: people on this machine, games to watch",
    command="Play online",
    command_help="The lobby: people on this machine to challenge, games to watch (o)",
)

#: The game screen's bindings, in the footer's order.
GAME_KEYS: tuple[KeyAction, ...] = (
    HINT,
    UNDO,
    REDO,
    REVIEW_BACK,
    REVIEW_FORWARD,
    REVIEW_START,
    REVIEW_END,
    PLAY_ON,
    PAUSE,
    NOT_NOW,
    NEW_GAME,
    QUIT,
    SAVE,
    OPEN,
    COPY_MOVES,
    STATISTICS,
    ANALYSE,
    PLAY_ONLINE,
)

#: The help's key list during a game, in its order.
GAME_HELP: tuple[KeyAction, ...] = (
    CURSOR,
    PLAY,
    NEXT_LEGAL,
    JUMP,
    HINT,
    UNDO,
    REDO,
    PAUSE,
    NEW_GAME,
    SAVE,
    OPEN,
    COPY_MOVES,
    STATISTICS,
    ANALYSE,
    PLAY_ONLINE,
    QUIT,
    SUSPEND,
    DIALOG,
    PALETTE,
    HELP,
)

#: The help's key list for review, once a game is over.
REVIEW_HELP: tuple[KeyAction, ...] = (REVIEW_BACK, REVIEW_START, PLAY_ON)

#: The palette's game commands, in the order a player thinks of them; Quit comes
#: after Theme (commands.py).
GAME_COMMANDS: tuple[KeyAction, ...] = (
    NEW_GAME,
    UNDO,
    REDO,
    HINT,
    SAVE,
    OPEN,
    COPY_MOVES,
    STATISTICS,
    PLAY_ONLINE,
    HELP,
)

# The online game screen ------------------------------------------------------------
RESIGN = KeyAction("resign", "r", "Resign", help_keys="r", help="resign (after a confirmation)")
#: Not a: a-h begin a square to jump to (``JUMP``); w as in withdrawing the game.
ABORT = KeyAction(
    "abort",
    "w",
    "Abort",
    help_keys="w",
    help="before your second move: abort the game, no result (ratings unchanged)",
)
CHAT = KeyAction(
    "chat", "t", "Talk", help_keys="t", help="say something to the players and watchers"
)
#: z as in hush: w aborts, v is the analysis's values.
MUTE_WATCHERS = KeyAction(
    "mute_watchers",
    "z",
    "Mute watchers",
    show=False,
    help_keys="z",
    help="hide the watchers' chat in your game, or show it again",
)
LEAVE_GAME = KeyAction(
    "leave",
    "q,escape",
    "Lobby",
    help_keys="q  Esc",
    help="back to the lobby (the game goes on; Enter on it comes back)",
)

#: The online game's keys, in the footer's order: local play's keys are not bound here
#: (the online screen says why not when one is pressed: ``refusals``).
CLAIM = KeyAction(
    "claim",
    "x",
    "Claim",
    help_keys="x",
    help="your opponent has been gone 40 s: claim the win or a draw",
)

ONLINE_GAME_KEYS: tuple[KeyAction, ...] = (
    REVIEW_BACK,
    REVIEW_FORWARD,
    REVIEW_START,
    REVIEW_END,
    NOT_NOW,
    LEAVE_GAME,
    RESIGN,
    ABORT,
    CHAT,
    MUTE_WATCHERS,
    CLAIM,
    COPY_MOVES,
    ANALYSE,
)
#: The help's key list over an online game, in its order.
ONLINE_GAME_HELP: tuple[KeyAction, ...] = (
    CURSOR,
    PLAY,
    NEXT_LEGAL,
    JUMP,
    RESIGN,
    ABORT,
    CHAT,
    MUTE_WATCHERS,
    CLAIM,
    COPY_MOVES,
    ANALYSE,
    LEAVE_GAME,
    DIALOG,
    PALETTE,
    HELP,
)
#: The local game's keys an online game does not have.
LOCAL_ONLY_KEYS: tuple[KeyAction, ...] = tuple(
    action for action in GAME_KEYS if action not in ONLINE_GAME_KEYS
)

# The lobby -------------------------------------------------------------------------
#: Over the tables' own Enter, so the footer shows it (the tables would hide it).
CHOOSE = KeyAction(
    "choose",
    "enter",
    "Challenge/Watch",
    key_display="Enter",
    priority=True,
    help_keys="Enter",
    help="on a player: challenge them; on a game: open yours, watch another; "
    "on a challenge to you: answer it",
)
NEXT_TABLE = KeyAction(
    help_keys="Tab, Shift+Tab", help="move between players, games and challenges"
)
ROWS = KeyAction(help_keys="Up, Down", help="choose a row in the table with the focus")
TOGGLE_WAITING = KeyAction(
    "toggle_waiting", "t", "Want a game", help_keys="t", help="tell everyone you want a game"
)
DECLINE = KeyAction(
    "decline", "d", "Decline", show=False, help_keys="d", help="decline the challenge to you"
)
CANCEL_CHALLENGES = KeyAction(
    "cancel_challenges",
    "x",
    "Cancel challenges",
    show=False,
    help_keys="x",
    help="cancel the challenges you sent",
)
TOGGLE_BELL = KeyAction(
    "toggle_bell",
    "b",
    "Bell",
    show=False,
    help_keys="b",
    help="ring the terminal's bell on your move in a game not shown (on/off)",
)
REFRESH = KeyAction(
    "refresh",
    "r",
    "Refresh",
    show=False,
    help_keys="r",
    help="ask the server again (after a refusal: ask about its owner again)",
)
LOBBY_HELP_KEY = KeyAction(
    "help", "question_mark", "Help", key_display="?", help_keys="?", help="this help"
)
LEAVE_LOBBY = KeyAction(
    "leave", "q,escape", "Leave", help_keys="q, Esc", help="leave the lobby (games go on)"
)

LOBBY_KEYS: tuple[KeyAction, ...] = (
    CHOOSE,
    TOGGLE_WAITING,
    DECLINE,
    CANCEL_CHALLENGES,
    TOGGLE_BELL,
    REFRESH,
    LOBBY_HELP_KEY,
    LEAVE_LOBBY,
)
#: The lobby help's rows, in its order.
LOBBY_HELP: tuple[KeyAction, ...] = (
    CHOOSE,
    NEXT_TABLE,
    ROWS,
    DECLINE,
    CANCEL_CHALLENGES,
    TOGGLE_WAITING,
    TOGGLE_BELL,
    REFRESH,
    LOBBY_HELP_KEY,
    LEAVE_LOBBY,
)


# The analysis screen ---------------------------------------------------------------
ANALYSIS_BACK = KeyAction(
    "step(-1)",
    "left",
    "Back",
    show=False,
    help_keys="Left Right",
    help="step back / forward a move (in a line: along the line)",
)
ANALYSIS_FORWARD = KeyAction("step(1)", "right", "Forward", show=False)
ANALYSIS_START = KeyAction(
    "edge(-1)",
    "home",
    "Start",
    show=False,
    help_keys="Home End",
    help="the start / the end of the game",
)
ANALYSIS_END = KeyAction("edge(1)", "end", "End", show=False)
# The footer names the three error keys in one entry.
NEXT_ERROR = KeyAction(
    "error(1)",
    "n",
    "Errors",
    key_display="n b w",
    help_keys="n N",
    help="the next / previous error (inaccuracy, mistake, blunder) of either side",
)
PREVIOUS_ERROR = KeyAction("error(-1)", "N,shift+n", "Previous error", show=False)
BLACK_ERROR = KeyAction(
    "error(1,'black')",
    "b",
    "Black's",
    show=False,
    help_keys="b B",
    help="Black's next / previous error",
)
PREVIOUS_BLACK_ERROR = KeyAction("error(-1,'black')", "B,shift+b", "Black's", show=False)
WHITE_ERROR = KeyAction(
    "error(1,'white')",
    "w",
    "White's",
    show=False,
    help_keys="w W",
    help="White's next / previous error",
)
PREVIOUS_WHITE_ERROR = KeyAction("error(-1,'white')", "W,shift+w", "White's", show=False)
TOGGLE_VALUES = KeyAction(
    "toggle_values",
    "v",
    "Values",
    help_keys="v",
    help="every legal move's value on its square, for the side to move (on / off)",
)
BEST_LINE = KeyAction(
    "line",
    "l",
    "Line",
    help_keys="l",
    help="step into the best line from here: Left/Right walk it, l or Esc leaves it",
)
ANALYSIS_PLAY_ON = KeyAction(
    "play_from_here",
    "p",
    "Play on",
    help_keys="p",
    help="play on from the position shown, with the board's players (asks first)",
)
ANALYSIS_HELP_KEY = KeyAction(
    "help", "question_mark", "Help", key_display="?", help_keys="?", help="this help"
)
LEAVE_ANALYSIS = KeyAction(
    "back",
    "escape",
    "Close",
    key_display="Esc",
    help_keys="Esc",
    help="out of the line; else back to the game (while analysing: cancel it)",
)
CLOSE_ANALYSIS = KeyAction(
    "close", "q", "Close", show=False, help_keys="q", help="back to the game at once"
)

#: The analysis screen's keys, in the footer's order.
ANALYSIS_KEYS: tuple[KeyAction, ...] = (
    ANALYSIS_BACK,
    ANALYSIS_FORWARD,
    ANALYSIS_START,
    ANALYSIS_END,
    NEXT_ERROR,
    PREVIOUS_ERROR,
    BLACK_ERROR,
    PREVIOUS_BLACK_ERROR,
    WHITE_ERROR,
    PREVIOUS_WHITE_ERROR,
    TOGGLE_VALUES,
    BEST_LINE,
    ANALYSIS_PLAY_ON,
    ANALYSIS_HELP_KEY,
    LEAVE_ANALYSIS,
    CLOSE_ANALYSIS,
)
#: The analysis help's rows, in its order.
ANALYSIS_HELP: tuple[KeyAction, ...] = (
    ANALYSIS_BACK,
    ANALYSIS_START,
    NEXT_ERROR,
    BLACK_ERROR,
    WHITE_ERROR,
    TOGGLE_VALUES,
    BEST_LINE,
    ANALYSIS_PLAY_ON,
    ANALYSIS_HELP_KEY,
    LEAVE_ANALYSIS,
    CLOSE_ANALYSIS,
)


def bindings(actions: tuple[KeyAction, ...]) -> list[BindingType]:
    """A screen's ``BINDINGS`` from its actions, in order."""
    return [action.binding() for action in actions]


def refusals(words: Mapping[KeyAction, str]) -> dict[str, str]:
    """Each key of the actions a screen does not have, as Textual names it (``U``,
    ``ctrl+s``, ``question_mark``), with what the screen says instead."""
    return {
        binding.key: said
        for action, said in words.items()
        for binding in Binding.make_bindings([action.binding()])
    }


def help_rows(actions: tuple[KeyAction, ...]) -> tuple[tuple[str, str], ...]:
    """The help's (keys, what they do) rows for the actions that have one."""
    return tuple(action.help_row for action in actions if action.help)
