"""Save game (Ctrl+S): the game so far to a PGN or GGF file, by default in ``games/``.

The dialog proposes a name such as ``2026-11-23-alice-vs-hard.pgn`` (the date,
then each side: the player's login name, ``black``/``white`` when two people
play, the level for the computer). A name alone goes into the data directory's
``games/``; an absolute or ``~`` path is used as it is. The extension picks the
format: ``.pgn`` (the default, added when there is none) or ``.ggf``. An existing
file is replaced only after a confirmation, and the write is atomic. Whatever
goes wrong is one line in the dialog, which stays open for another try.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Button, Input, Static

from reversi_tui.engine import PASS, Color
from reversi_tui.match import PlayerKind
from reversi_tui.match.record import GameRecord
from reversi_tui.records.atomic import atomic_write
from reversi_tui.records.formats import SAVED_FORMATS, format_of_suffix, write_game
from reversi_tui.records.names import player_name
from reversi_tui.records.paths import StorageError, ensure_private_dir
from reversi_tui.tui.ascii import ASCII_CLASS
from reversi_tui.tui.screens.confirm import ConfirmScreen
from reversi_tui.tui.screens.dialog import Dialog
from reversi_tui.tui.widgets.footer import KeyFooter

#: The format a name without an extension is saved in (``records.formats`` lists them).
DEFAULT_FORMAT = SAVED_FORMATS[0]
DEFAULT_SUFFIX = DEFAULT_FORMAT.suffixes[0]
#: Every extension a game file is saved and listed under.
SUFFIXES = tuple(suffix for fmt in SAVED_FORMATS for suffix in fmt.suffixes)


#: Keys a dialog's text field leaves to the dialog (Enter saves or opens, Up/Down choose).
DIALOG_KEYS = frozenset({"enter", "up", "down", "pageup", "pagedown"})


def bindings_without(widget: type[Widget], keys: Iterable[str]) -> list[BindingType]:
    """``widget``'s key bindings (its own and inherited) except those of ``keys``."""
    left_out = set(keys)
    return [
        binding
        for key, bindings in widget._merge_bindings().key_to_bindings.items()
        if key not in left_out
        for binding in bindings
    ]


class DialogInput(Input, inherit_bindings=False):
    """A text field whose Enter, Up/Down and paging keys go on to the dialog's bindings.

    The dialog's Enter is then an ordinary binding (which the footer shows) and not a
    priority one: a priority binding runs as the key arrives, ahead of the letters
    typed just before it still queued for the field, and would save ``mygam`` for
    ``mygame`` typed fast and Enter.
    """

    BINDINGS = bindings_without(Input, DIALOG_KEYS)


class SaveError(Exception):
    """A name or a write that did not work: ``str()`` is one line for the player."""


def shown_path(path: Path) -> str:
    """``path`` as the player reads it: the home directory written ``~``."""
    try:
        return "~/" + path.relative_to(Path.home()).as_posix()
    except (ValueError, RuntimeError):  # not under home, or no home at all
        return str(path)


def _slug(text: str) -> str:
    """A safe piece of a file name: lower case letters, digits, ``.``, ``_`` and ``-``."""
    return re.sub(r"[^a-z0-9._-]+", "-", text.lower()).strip("-.") or "player"


def side_names(record: GameRecord, user: str) -> tuple[str, str]:
    """Black's and White's parts of a file name: the login name for the one person
    playing, ``black``/``white`` when two people play, the level for the computer."""
    humans = sum(record.player(c).kind is PlayerKind.HUMAN for c in Color)
    names = []
    for colour in Color:
        spec = record.player(colour)
        if spec.kind is PlayerKind.COMPUTER:
            names.append(_slug(spec.level))
        elif humans == 1:
            names.append(_slug(user or "you"))
        else:
            names.append(colour.name.lower())
    return names[0], names[1]


def proposed_name(record: GameRecord, user: str, today: date, games_dir: Path) -> str:
    """``2026-11-23-alice-vs-hard.pgn``, with ``-2``, ``-3``... if that file exists."""
    black, white = side_names(record, user)
    stem = f"{today.isoformat()}-{black}-vs-{white}"
    name, n = f"{stem}{DEFAULT_SUFFIX}", 1
    while (games_dir / name).exists():
        n += 1
        name = f"{stem}-{n}{DEFAULT_SUFFIX}"
    return name


def target_path(text: str, games_dir: Path) -> tuple[Path, str]:
    """The file a typed name means, and its format (``pgn`` or ``ggf``).

    A relative name goes into ``games_dir``; ``~`` and absolute paths are used as
    they are; no extension means ``.pgn``.
    """
    typed = text.strip()
    if not typed:
        raise SaveError(f"Type a file name, such as mygame{DEFAULT_SUFFIX}.")
    path = Path(typed).expanduser() if typed.startswith("~") else Path(typed)
    if typed.endswith(("/", "\\")) or path.name in ("", ".", ".."):
        raise SaveError(f"{typed} is a directory: add a file name.")
    if not path.is_absolute():
        path = games_dir / path
    suffix = path.suffix.lower()
    if not suffix:
        path = path.with_name(path.name + DEFAULT_SUFFIX)
        suffix = DEFAULT_SUFFIX
    fmt = format_of_suffix(suffix)
    if fmt is None:
        names = " or ".join(SUFFIXES)
        raise SaveError(f"Name the file {names}: {path.suffix} is not a game format here.")
    return path, fmt.name


def formats_said() -> str:
    """``PGN, or GGF with a .ggf name``: the default format, then each other one."""
    others = [f"{fmt.title} with a {fmt.suffixes[0]} name" for fmt in SAVED_FORMATS[1:]]
    return ", or ".join([DEFAULT_FORMAT.title, *others])


def game_text(record: GameRecord, fmt: str, user: str) -> str:
    """The record in ``fmt``, with the players' names as the records database gives them."""
    tags = {
        "Black": player_name(record.black, user),
        "White": player_name(record.white, user),
    }
    return write_game(record, fmt, tags)


def save_record(record: GameRecord, path: Path, fmt: str, user: str, games_dir: Path) -> None:
    """Write the game to ``path`` atomically; ``games_dir`` (and the directories of a
    relative name inside it) are created 0700. Raises ``SaveError``."""
    try:
        if path.parent == games_dir or games_dir in path.parents:
            ensure_private_dir(path.parent)
        elif not path.parent.is_dir():
            raise SaveError(f"There is no directory {shown_path(path.parent)}.")
        if path.is_dir():
            raise SaveError(f"{shown_path(path)} is a directory: choose another name.")
        atomic_write(path, game_text(record, fmt, user))
    except StorageError as error:
        raise SaveError(f"Not saved: {error}") from None
    except OSError as error:
        raise SaveError(f"Not saved: {shown_path(path)}: {error.strerror or error}.") from None


def describe(record: GameRecord) -> str:
    """What is being saved: ``the game so far (12 moves)``, ``the finished game (60 moves)``."""
    moves = sum(1 for m in record.moves if m != PASS)
    count = f"{moves} move{'s' * (moves != 1)}"
    return f"the finished game ({count})" if record.is_finished else f"the game so far ({count})"


@dataclass(frozen=True, slots=True)
class Saved:
    """Where the game went."""

    path: Path
    fmt: str


class SaveGameScreen(Dialog[Saved | None]):
    """Choose a file name and save; None when cancelled."""

    DEFAULT_CSS = """
    SaveGameScreen > .dialog { width: 66; }
    SaveGameScreen .dialog-text { margin: 1 0 0 0; }
    SaveGameScreen Input { margin-top: 1; }
    SaveGameScreen #save-error { color: $error; text-style: bold; height: auto; margin-top: 1; }
    SaveGameScreen #save-error.-empty { display: none; }
    SaveGameScreen .buttons { margin-top: 1; }
    SaveGameScreen.-ascii Input { border: ascii $border-blurred; }
    SaveGameScreen.-ascii Input:focus { border: ascii $border; }
    """
    AUTO_FOCUS = "#save-name"
    BINDINGS = [
        Binding("enter", "enter", "Save", key_display="Enter"),
        Binding("escape", "cancel", "Cancel", key_display="Esc"),
    ]

    def __init__(
        self, record: GameRecord, games_dir: Path, user: str, *, today: date | None = None
    ) -> None:
        """``record``: the game to save; ``user``: the login name, for the proposed name."""
        super().__init__()
        self.record = record
        self.games_dir = games_dir
        self.user = user
        self.today = today or date.today()
        self.title_text = "Save game"

    def compose(self) -> ComposeResult:
        name = proposed_name(self.record, self.user, self.today, self.games_dir)
        with Vertical(classes="dialog"):
            yield Static(self.title_text, classes="dialog-title")
            yield Static(
                f"Save {describe(self.record)} as {formats_said()}. "
                f"A name alone goes into {shown_path(self.games_dir)}/.",
                classes="dialog-text",
                id="save-note",
            )
            yield DialogInput(name, id="save-name", select_on_focus=False)
            yield Static("", id="save-error", classes="-empty")
            with Horizontal(classes="buttons"):
                yield Button("Save (Enter)", id="save", variant="primary")
                yield Button("Cancel (Esc)", id="cancel")
        yield KeyFooter()

    def on_mount(self) -> None:
        if self.app.has_class(ASCII_CLASS):
            self.add_class("-ascii")

    def show_error(self, message: str) -> None:
        """One line in the dialog; the dialog stays open."""
        error = self.query_one("#save-error", Static)
        error.update(message)
        error.set_class(not message, "-empty")

    def action_enter(self) -> None:
        """Enter in the name field (a focused button presses itself)."""
        self.action_save()

    def on_input_changed(self, event: Input.Changed) -> None:
        self.show_error("")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "save":
            self.action_save()
        else:
            self.action_cancel()

    def action_cancel(self) -> None:
        self.dismiss(None)

    def action_save(self) -> None:
        """Save under the typed name; ask first when that file exists."""
        try:
            path, fmt = target_path(self.query_one(Input).value, self.games_dir)
        except SaveError as error:
            self.show_error(str(error))
            return
        if path.is_file():

            def answer(yes: bool | None) -> None:
                if yes:
                    self._write(path, fmt)

            self.app.push_screen(
                ConfirmScreen(
                    "Replace file?",
                    f"{shown_path(path)} exists. Replace it with this game?",
                    "Replace",
                    "Keep it",
                ),
                answer,
            )
            return
        self._write(path, fmt)

    def _write(self, path: Path, fmt: str) -> None:
        try:
            save_record(self.record, path, fmt, self.user, self.games_dir)
        except SaveError as error:
            self.show_error(str(error))
            return
        self.dismiss(Saved(path, fmt))
