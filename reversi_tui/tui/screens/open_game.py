"""Open game (Ctrl+O): a saved file, a game from the records, or any typed path.

The list shows the files in ``games/``, newest first (name, then date, players and
result as read from the file; a file that cannot be read is listed as such), and
the most recent games of the records database. Up/Down choose, Enter opens the
chosen one; typing a path opens that instead. A file that is not a game is one
clear line in the dialog (naming the move and the square for an illegal move),
and the game on the board is untouched.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from reversi_tui.engine import PASS
from reversi_tui.match.record import GameRecord, RecordError
from reversi_tui.match.settings import PlayerSpec
from reversi_tui.records.database import DatabaseError, RecordsDatabase, StoredGame
from reversi_tui.records.formats import ImportedGame, read_game
from reversi_tui.records.names import shared_name
from reversi_tui.records.paths import StorageError
from reversi_tui.records.sqlite_file import SCREEN_WAIT_SECONDS
from reversi_tui.tui.ascii import ASCII_CLASS
from reversi_tui.tui.screens.dialog import Dialog
from reversi_tui.tui.screens.game_over import headline
from reversi_tui.tui.screens.save_game import SUFFIXES, DialogInput, shown_path
from reversi_tui.tui.widgets.footer import KeyFooter

#: The newest files listed, and the most recent records.
MAX_FILES = 40
MAX_RECORDS = 20
#: Larger files are not read: no game record is anywhere near this size.
MAX_FILE_BYTES = 4 * 1024 * 1024


class OpenError(Exception):
    """A file or record that cannot be opened: ``str()`` is one line for the player."""


@dataclass(frozen=True, slots=True)
class Opened:
    """A game to show: its record, where it came from, and its players when they are ours."""

    record: GameRecord
    source: str
    #: Black's and White's players as the file gives them (None: use the current ones).
    players: tuple[PlayerSpec, PlayerSpec] | None


def result_words(record: GameRecord) -> str:
    """``Black won: Black 40, White 24`` for a finished game, ``unfinished, move 23``
    otherwise."""
    if record.result is not None:
        return headline(record.result)
    moves = sum(1 for m in record.moves if m != PASS)
    return f"unfinished, move {moves + 1}"


def players_of(imported: ImportedGame) -> tuple[PlayerSpec, PlayerSpec] | None:
    """The file's players when it was written here (its records know who played): the
    one rule ``reversi --load`` follows too (``ImportedGame.players``)."""
    return imported.players


def read_game_file(path: Path) -> ImportedGame:
    """Read and check a game file; raises ``OpenError`` with one line for the player."""
    shown = shown_path(path)
    try:
        if path.is_dir():
            raise OpenError(f"{shown} is a directory, not a game file.")
        if path.stat().st_size > MAX_FILE_BYTES:
            raise OpenError(f"{shown} is too big to be a game file.")
        data = path.read_bytes()
    except FileNotFoundError:
        raise OpenError(f"There is no file {shown}.") from None
    except OSError as error:
        raise OpenError(f"{shown} cannot be read: {error.strerror or error}.") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise OpenError(f"{shown} is not a text file, so not a game record.") from None
    if not text.strip():
        raise OpenError(f"{shown} is empty.")
    try:
        return read_game(text)
    except RecordError as error:
        raise OpenError(f"{path.name}: {error}") from None
    except (ValueError, LookupError) as error:  # a reader's slip is still one line, not a crash
        raise OpenError(f"{path.name}: not a game record ({error}).") from None


def typed_path(text: str, games_dir: Path, cwd: Path | None = None) -> Path:
    """The file a typed path means: ``~`` and absolute paths as they are; a relative one
    in ``games/`` when it is there, else in the current directory."""
    typed = text.strip()
    path = Path(typed).expanduser() if typed.startswith("~") else Path(typed)
    if path.is_absolute():
        return path
    in_games = games_dir / path
    if in_games.exists():
        return in_games
    return (cwd or Path.cwd()) / path


@dataclass(frozen=True, slots=True)
class FileEntry:
    """A file in ``games/``: read already, or the reason it cannot be."""

    path: Path
    modified: datetime
    game: ImportedGame | None
    problem: str | None


def saved_files(games_dir: Path, limit: int = MAX_FILES) -> list[FileEntry]:
    """The game files in ``games_dir``, newest first, each read (and checked) once."""
    try:
        found = [
            (p.stat().st_mtime, p)
            for p in games_dir.iterdir()
            if p.suffix.lower() in SUFFIXES and p.is_file()
        ]
    except OSError:
        return []
    found.sort(reverse=True)
    entries = []
    for mtime, path in found[:limit]:
        try:
            game, problem = read_game_file(path), None
        except OpenError as error:
            game, problem = None, str(error)
        entries.append(FileEntry(path, datetime.fromtimestamp(mtime).astimezone(), game, problem))
    return entries


def recent_records(database: Path, limit: int = MAX_RECORDS) -> tuple[list[StoredGame], str | None]:
    """The most recent finished games, and a problem met reading them (None when fine).

    A database that does not exist yet is not created: there is nothing in it.
    """
    if not database.is_file():
        return [], None
    try:
        db = RecordsDatabase(database, wait=SCREEN_WAIT_SECONDS, reading=True)
    except (DatabaseError, StorageError, sqlite3.Error, OSError) as error:
        return [], f"The records cannot be read: {error}"
    try:
        return db.recent(limit), None
    except (DatabaseError, StorageError, sqlite3.Error, OSError, RecordError) as error:
        return [], f"The records cannot be read: {error}"
    finally:
        db.close()


def _when(moment: datetime) -> str:
    return moment.astimezone().strftime("%Y-%m-%d %H:%M")


def file_prompt(entry: FileEntry) -> Text:
    """Two lines: the file name; then its date, players and result, or what is wrong."""
    text = Text(entry.path.name, style="bold")
    if entry.game is None:
        text.append(f"\n  unreadable: {entry.problem}")
        return text
    tags = entry.game.tags
    record = entry.game.record
    black = tags.get("Black") or record.black.label
    white = tags.get("White") or record.white.label
    written = tags.get("Date") or tags.get("DT") or ""  # PGN's Date, GGF's DT
    day = written[:10].replace(".", "-").strip("-?") or _when(entry.modified)
    text.append(f"\n  {day}  {black} v {white}  {result_words(record)}")
    return text


def record_prompt(stored: StoredGame) -> Text:
    """Two lines: the date and players; then the result and the number of moves."""
    record = stored.record
    moves = sum(1 for m in record.moves if m != PASS)
    black = shared_name(record.black, stored.black_name)
    white = shared_name(record.white, stored.white_name)
    text = Text(f"{_when(record.started)}  {black} v {white}")
    text.append(f"\n  {result_words(record)}, {moves} move{'s' * (moves != 1)}")
    return text


class OpenGameScreen(Dialog[Opened | None]):
    """Choose a saved file or a recorded game, or type a path; None when cancelled."""

    DEFAULT_CSS = """
    OpenGameScreen > .dialog { width: 76; }
    OpenGameScreen .dialog-text { margin: 1 0 0 0; }
    OpenGameScreen OptionList { height: auto; max-height: 12; margin-top: 1; }
    OpenGameScreen OptionList > .option-list--option-disabled { color: $accent; text-style: bold; }
    OpenGameScreen #path-row { height: 1; margin-top: 1; }
    OpenGameScreen #path-row Label { width: auto; margin-right: 1; }
    OpenGameScreen #path { width: 1fr; }
    OpenGameScreen #open-error { color: $error; text-style: bold; height: auto; margin-top: 1; }
    OpenGameScreen #open-error.-empty { display: none; }
    OpenGameScreen .buttons { margin-top: 1; }
    OpenGameScreen .buttons Button { min-width: 0; }
    """
    AUTO_FOCUS = "#path"
    BINDINGS = [
        Binding("enter", "enter", "Open", key_display="Enter"),
        Binding("escape", "cancel", "Cancel", key_display="Esc"),
        Binding("up", "move('up')", "Choose", show=False),
        Binding("down", "move('down')", "Choose", show=False),
        Binding("pageup", "move('page_up')", "Page up", show=False),
        Binding("pagedown", "move('page_down')", "Page down", show=False),
    ]

    def __init__(self, games_dir: Path, database: Path) -> None:
        super().__init__()
        self.games_dir = games_dir
        self.database = database
        self.title_text = "Open game"
        self.files = saved_files(games_dir)
        self.records, self.records_problem = recent_records(database)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.title_text, classes="dialog-title")
            yield Static(
                "Up/Down choose, Enter opens, or type the path of a game file below.",
                classes="dialog-text",
                id="open-note",
            )
            options = OptionList(*self._options(), compact=True, id="games")
            options.can_focus = False  # keys go to the path; Up/Down move the choice
            yield options
            with Horizontal(id="path-row"):
                yield Label("Path:")
                yield DialogInput(
                    placeholder="a name in games/, or any path", compact=True, id="path"
                )
            yield Static("", id="open-error", classes="-empty")
            with Horizontal(classes="buttons"):
                yield Button("Open (Enter)", id="open", variant="primary", compact=True)
                yield Button("Cancel (Esc)", id="cancel", compact=True)
        yield KeyFooter()

    def _options(self) -> list[Option]:
        games = shown_path(self.games_dir)
        options: list[Option] = []
        if self.files:
            options.append(Option(f"Saved games in {games}/", disabled=True))
            options += [Option(file_prompt(e), id=f"file:{i}") for i, e in enumerate(self.files)]
        else:
            options.append(Option(f"No saved games in {games}/ yet (Ctrl+S saves)", disabled=True))
        if self.records_problem:
            options.append(Option(self.records_problem, disabled=True))
        elif self.records:
            options.append(Option("Recent games in the records", disabled=True))
            options += [
                Option(record_prompt(s), id=f"record:{i}") for i, s in enumerate(self.records)
            ]
        return options

    def on_mount(self) -> None:
        if self.app.has_class(ASCII_CLASS):
            self.add_class("-ascii")
        options = self.query_one(OptionList)
        first = next(
            (i for i in range(options.option_count) if not options.get_option_at_index(i).disabled),
            None,
        )
        options.highlighted = first

    def show_error(self, message: str) -> None:
        """One line in the dialog; it stays open and the game is untouched."""
        error = self.query_one("#open-error", Static)
        error.update(message)
        error.set_class(not message, "-empty")

    def action_move(self, how: str) -> None:
        """Up/Down/PageUp/PageDown move the choice in the list, whatever has the focus."""
        options = self.query_one(OptionList)
        getattr(options, f"action_cursor_{how}" if how in ("up", "down") else f"action_{how}")()
        self.show_error("")

    def on_input_changed(self, event: Input.Changed) -> None:
        """Typing a path means the path: the list lets go of its choice."""
        self.show_error("")
        if event.value.strip():
            self.query_one(OptionList).highlighted = None

    def action_enter(self) -> None:
        """Enter in the path field (a focused button presses itself)."""
        self.action_open()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._open_option(event.option.id)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "open":
            self.action_open()
        else:
            self.action_cancel()

    def action_cancel(self) -> None:
        self.dismiss(None)

    def action_open(self) -> None:
        """The typed path if there is one, else the chosen entry."""
        typed = self.query_one("#path", Input).value
        if typed.strip():
            self._open_path(typed_path(typed, self.games_dir))
            return
        options = self.query_one(OptionList)
        index = options.highlighted
        if index is None:
            self.show_error("Choose a game in the list, or type a path.")
            return
        self._open_option(options.get_option_at_index(index).id)

    def _open_option(self, option_id: str | None) -> None:
        kind, _, number = (option_id or "").partition(":")
        if kind == "file":
            entry = self.files[int(number)]
            if entry.game is None:
                self.show_error(entry.problem or f"{entry.path.name} cannot be read.")
                return
            self._opened(entry.game, entry.path)
        elif kind == "record":
            stored = self.records[int(number)]
            record = stored.record
            source = f"the recorded game {stored.black_name} v {stored.white_name}"
            self.dismiss(Opened(record, source, (record.black, record.white)))

    def _open_path(self, path: Path) -> None:
        try:
            game = read_game_file(path)
        except OpenError as error:
            self.show_error(str(error))
            return
        self._opened(game, path)

    def _opened(self, game: ImportedGame, path: Path) -> None:
        try:
            game.record.game()  # replays: a record that does not follow the rules stops here
        except RecordError as error:
            self.show_error(f"{path.name}: {error}")
            return
        self.dismiss(Opened(game.record, path.name, players_of(game)))
