"""The app survives any input: stray bytes, huge numbers, terminal replies, key bursts.

Each case once killed the app (Textual 8.2.8's input path; see ``reversi_tui.tui.compat.input``).
The pty tests run ``python -m reversi_tui`` as a user's terminal would, write the bytes,
then check the app still answers a key (``?`` shows the help), quits cleanly and never
printed a traceback. The parser tests feed the same bytes to the parser directly; the
Pilot tests press the bursts that crashed ``OptionList`` paging.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import pty
import re
import select
import signal
import struct
import sys
import termios
import threading
import time
from collections.abc import Callable, Iterator

import pytest
from textual import events
from textual.app import App, ComposeResult
from textual.command import CommandList, CommandPalette
from textual.css.query import NoMatches
from textual.pilot import Pilot
from textual.widgets import OptionList, Select
from textual.widgets._select import SelectOverlay

from reversi_tui.tui.app import ReversiApp
from reversi_tui.tui.compat.driver import ReversiDriver
from reversi_tui.tui.compat.input import MAX_CELLS, SafeParser, input_decoder
from reversi_tui.tui.compat.select import SafeSelect
from reversi_tui.tui.screens.new_game import NewGameScreen

from ..timing import patience
from .helpers import make_app, settle, wait_until

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a pty")

#: Each class of input once killed the app or made it misbehave: a few cases of each.
HOSTILE_INPUT = {
    "not utf-8": [
        b"\xe9",  # e-acute from a Latin-1 terminal
        b"\xe1",  # an 8-bit Meta key (Meta+a)
        b"\x1b[M \xe0\xe0",  # an X10 mouse report past column 95
        b"\xe2\x82",  # UTF-8 cut short
    ],
    "huge numbers": [
        b"\x1b[9999999999999999999A",
        b"\x1b[99999999999u",
        b"\x1b[1114112u",
        b"\x1b[97;1;99999999999u",
    ],
    "absurd sizes": [
        b"\x1b[48;99999;99999;0;0t",
        b"\x1b[48;0;0;0;0t\x1b[<0;5;5M",
        b"\x1b[48;24;80;0;0t\x1b[<35;5;5M",  # pixel size zero, then the mouse moves
    ],
    "terminal replies": [
        b"\x1bP$q\x1b\\",  # its q quit the app
        b"\x1bP1$r0m\x1b\\\x1b]11;rgb:0000/0000/0000\x07",
        b"\x1b_Gi=1;OK\x1b\\",
    ],
}


#: The app's memory stays below this (about 60 MB at 80x24; a 99999x99999 report took GBs).
MEMORY_MB = 250


class PtyApp:
    """``reversi`` in a pseudo-terminal of 80x24, with everything it wrote kept."""

    def __init__(self) -> None:
        pid, fd = pty.fork()
        if pid == 0:  # pragma: no cover -- the child becomes the app
            os.environ["TERM"] = "xterm-256color"
            os.environ["LC_ALL"] = "C.UTF-8"
            args = [sys.executable, "-m", "reversi_tui", "--white", "human"]
            try:
                os.execvp(sys.executable, args)
            finally:
                os._exit(127)  # never fall back into the test's code
        self.pid, self.fd = pid, fd
        self.output = bytearray()
        self.status: int | None = None
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))

    def read_until(self, done: Callable[[bytes], bool], limit: float) -> bool:
        """Read output until ``done(output)`` holds or ``limit`` seconds pass."""
        deadline = time.monotonic() + patience(limit)
        while not done(bytes(self.output)):
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            ready, _, _ = select.select([self.fd], [], [], min(left, 0.05))
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:  # the app has gone: the pty is closed
                    chunk = b""
                if not chunk:
                    return done(bytes(self.output))
                self.output.extend(chunk)
        return True

    def write(self, data: bytes) -> None:
        os.write(self.fd, data)

    def alive(self) -> bool:
        if self.status is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = os.waitstatus_to_exitcode(status)
        return self.status is None

    def answers_help(self) -> bool:
        """``?`` opens the help: the app is alive and reading keys."""
        mark = len(self.output)
        self.write(b"?")
        return self.read_until(lambda out: b"this help" in out[mark:], 10.0)

    def quit(self, limit: float = 10.0) -> int | None:
        """Quit as a user would (``q``, and ``y`` if asked); the exit status."""
        deadline = time.monotonic() + patience(limit)
        mark = len(self.output)
        self.write(b"q")
        while self.alive() and time.monotonic() < deadline:
            self.read_until(lambda out, start=mark: b"Leave Reversi" in out[start:], 0.5)
            if b"Leave Reversi" in self.output[mark:]:
                mark = len(self.output)
                self.write(b"y")
            elif self.alive():
                self.write(b"q")  # the help (or anything) was still open
        return self.status

    def close(self) -> None:
        if self.alive():
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        os.close(self.fd)

    def memory_mb(self) -> float | None:
        """The app's resident memory in MB, where ``/proc`` tells (Linux)."""
        try:
            with open(f"/proc/{self.pid}/status") as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1]) / 1024
        except OSError:
            pass
        return None

    def text(self) -> str:
        return self.output.decode("utf-8", "replace")


@pytest.fixture
def terminal() -> Iterator[PtyApp]:
    app = PtyApp()
    try:
        assert app.read_until(lambda out: b"Black" in out, 30.0), "the app never drew"
        yield app
    finally:
        app.close()


@pytest.mark.parametrize("cases", HOSTILE_INPUT.values(), ids=HOSTILE_INPUT.keys())
def test_the_app_survives_hostile_input(terminal: PtyApp, cases: list[bytes]) -> None:
    for data in cases:
        terminal.write(data)
    assert terminal.answers_help(), "the app stopped answering: " + terminal.text()[-400:]
    assert terminal.alive()
    memory = terminal.memory_mb()
    print(f"memory after the input: {memory} MB")
    assert memory is None or memory < MEMORY_MB, "the app grew: an absurd size was believed"
    assert terminal.quit() == 0
    assert "Traceback" not in terminal.text()
    assert not re.search(r"\w+Error", terminal.text())


# The parser on its own: what it makes of the same input.


def parse(data: bytes) -> list[object]:
    """The messages a fresh ``SafeParser`` makes of ``data`` (decoded tolerantly)."""
    parser = SafeParser()
    messages = list(parser.feed(input_decoder()(data)))
    return messages + list(parser.feed(""))


def keys(data: bytes) -> list[str]:
    return [m.key for m in parse(data) if isinstance(m, events.Key)]


def _unread(fd: int) -> int:
    """Bytes waiting in the pipe ``fd`` reads."""
    return int(struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, bytes(4)))[0])


async def test_a_character_split_between_two_reads_is_read() -> None:
    """A read that held only the start of a character (an ``é`` over a slow link, a lone
    Latin-1 ``é``) decoded to "", which the parser takes for the end of input: the app
    never read another key. Each part here comes to the input thread in a read of its own.
    (The driver is made inside a running loop, as the app makes it.)
    """
    driver = ReversiDriver(App(), debug=False, mouse=False, size=(80, 24))
    theirs, ours = os.pipe()
    driver.fileno = theirs
    keys: list[str] = []
    driver.process_message = lambda m: keys.append(m.key) if isinstance(m, events.Key) else None  # type: ignore[method-assign]
    reader = threading.Thread(target=driver.run_input_thread, daemon=True)
    reader.start()
    try:
        for part in (b"\xc3", b"\xa9", b"?"):
            os.write(ours, part)
            deadline = time.monotonic() + patience(5)
            while _unread(theirs):
                assert time.monotonic() < deadline, "the input thread stopped reading"
                await asyncio.sleep(0.01)
        deadline = time.monotonic() + patience(5)
        while len(keys) < 2 and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
    finally:
        driver.exit_event.set()
        reader.join(patience(5))
        os.close(ours)
        os.close(theirs)
    assert keys == ["\xe9", "question_mark"]


def test_bytes_that_are_not_utf8_become_replacement_characters() -> None:
    assert input_decoder()(b"a\xe9b") == "a\ufffdb"
    assert keys(b"\xe9q") == ["replacement_character", "q"]


@pytest.mark.parametrize(
    "data", [b"\x1b[9999999999999999999A", b"\x1b[99999999999u", b"\x1b[1114112u"]
)
def test_sequences_with_huge_numbers_are_ignored(data: bytes) -> None:
    assert keys(data + b"x") == ["x"]


def test_a_fault_in_the_parser_drops_the_sequence_only() -> None:
    """Whatever else may raise inside Textual's parser, the next key still arrives."""

    class Faulty(SafeParser):
        def parse_mouse_code(self, code: str) -> events.Message | None:
            raise ZeroDivisionError

    parser = Faulty()
    messages = list(parser.feed("\x1b[<0;5;5Mx"))
    assert [m.key for m in messages if isinstance(m, events.Key)] == ["x"]


def test_absurd_sizes_are_ignored_and_sane_ones_kept() -> None:
    sizes = [m.size for m in parse(b"\x1b[48;99999;99999;0;0t\x1b[48;30;100;600;1000t")]
    assert [(s.width, s.height) for s in sizes if hasattr(s, "width")] == [(100, 30)]
    limit = f"\x1b[48;{MAX_CELLS + 1};80;0;0t".encode()
    assert not [m for m in parse(limit) if isinstance(m, events.Resize)]


@pytest.mark.parametrize(
    "reply",
    [
        b"\x1bP$q\x1b\\",  # DCS, ST
        b"\x1bP1$r0;1m\x1b\\",
        b"\x1b]11;rgb:ffff/ffff/ffff\x07",  # OSC, BEL
        b"\x1b]10;rgb:0000/0000/0000\x1b\\",
        b"\x1b_Gi=31;OK\x1b\\",  # APC
        b"\x1b^privacy q\x1b\\",  # PM
        b"\xc2\x90$q\xc2\x9c",  # 8-bit DCS .. ST
    ],
)
def test_terminal_replies_are_not_keys(reply: bytes) -> None:
    assert keys(reply + b"a" + reply + b"b") == ["a", "b"]


def test_a_reply_cut_short_by_an_escape_sequence_gives_that_sequence() -> None:
    assert keys(b"\x1bPq\x1b[Ax") == ["up", "x"]


def test_alt_and_an_introducer_alone_is_still_a_key() -> None:
    parser = SafeParser()
    assert not list(parser.feed("\x1bP"))
    deadline = time.monotonic() + patience(2.0)
    ticked: list[object] = []
    while not ticked and time.monotonic() < deadline:
        ticked = list(parser.tick())
    assert [m.key for m in ticked if isinstance(m, events.Key)] == ["alt+shift+p"]


def test_escape_alone_and_escape_sequences_still_work() -> None:
    assert keys(b"\x1b[A\x1b[1;5C\x1bOP") == ["up", "ctrl+right", "f1"]
    parser = SafeParser()
    assert not list(parser.feed("\x1b"))
    deadline = time.monotonic() + patience(2.0)
    ticked: list[object] = []
    while not ticked and time.monotonic() < deadline:
        ticked = list(parser.tick())
    assert [m.key for m in ticked if isinstance(m, events.Key)] == ["escape"]


# Key bursts: OptionList paging before the list is laid out.


def burst(app: ReversiApp, *keys: str) -> None:
    """Send ``keys`` as a terminal does in one read: all at once, with no wait between.

    (``Pilot.press`` waits for the app to go idle after each key, which hides the crash.)
    """
    driver = app._driver
    assert driver is not None
    for key in keys:
        event = events.Key(key, key if len(key) == 1 else " " if key == "space" else None)
        event.set_sender(app)
        driver.send_message(event)


async def test_page_up_right_after_opening_the_palette() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        burst(app, "ctrl+p", "pageup", "pagedown", "pageup")
        await wait_until(pilot, lambda: isinstance(app.screen, CommandPalette))
        await pilot.pause()
        assert app.is_running and app.return_code is None
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is app.game_screen)


async def test_select_drop_down_paged_in_the_same_burst() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("n")
        await wait_until(pilot, lambda: isinstance(app.screen, NewGameScreen))
        burst(app, "shift+tab", "shift+tab", "space", "tab", "pageup", "pagedown")
        await pilot.pause(0.2)
        assert app.is_running and app.return_code is None
        assert isinstance(app.screen, NewGameScreen)


def test_paging_an_option_list_that_is_not_laid_out_does_nothing() -> None:
    from reversi_tui.tui.compat.option_list import guard_option_list_paging

    guard_option_list_paging()
    options = OptionList("a", "b", "c")
    options.highlighted = 1
    options._move_page(-1)
    assert options.highlighted == 1


# Key bursts that open and close a dialog or the palette in one read. Each of these
# killed the app in Textual 8.2.8 (see tui/compat/palette.py and tui/compat/select.py).


async def open_palette(app: ReversiApp, pilot: Pilot[int], *, themes: bool = False) -> None:
    """The command palette (or the theme picker), with its list shown and highlighted."""
    if themes:
        app.search_themes()
    else:
        await pilot.press("ctrl+p")

    def shown() -> bool:
        lists = app.screen.query(CommandList) if isinstance(app.screen, CommandPalette) else []
        return any(c.option_count for c in lists)

    await wait_until(pilot, shown)
    await pilot.press("down")


@pytest.mark.parametrize("themes", [False, True], ids=["palette", "theme picker"])
async def test_a_command_chosen_twice_in_one_burst_closes_the_palette_once(themes: bool) -> None:
    """Two Enters dismissed the palette twice, and the second took the game screen."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await open_palette(app, pilot, themes=themes)
        burst(app, "enter", "enter")
        await wait_until(pilot, lambda: not isinstance(app.screen, CommandPalette))
        await pilot.pause(0.1)
        assert app.is_running and app.return_code is None
        assert app.game_screen in app.screen_stack


async def test_the_palette_opened_as_the_app_quits() -> None:
    """Its commands were gathered after the app had taken its list away."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        burst(app, "ctrl+q", "ctrl+p", "escape")
        await wait_for_exit(app)
    assert app.return_code == 0


async def test_keys_behind_the_one_that_quit_are_dropped() -> None:
    """Textual read ``app.screen`` for a key that came after the screens had gone."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("ctrl+q")  # no game in progress: quits at once
        await wait_for_exit(app)
    assert not app.screen_stack
    await app.on_event(events.Key("a", "a"))  # raised ScreenStackError
    assert app.return_code == 0


async def test_two_ctrl_p_in_one_burst_open_one_palette() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        burst(app, "ctrl+p", "ctrl+p")
        await wait_until(pilot, lambda: isinstance(app.screen, CommandPalette))
        await pilot.pause(0.1)
        assert app.is_running and app.return_code is None
        assert sum(isinstance(s, CommandPalette) for s in app.screen_stack) == 1


@pytest.mark.parametrize(
    ("keys", "started"),
    [(("n", "y"), True), (("n", "y", "y"), True), (("n", "escape", "y"), False)],
)
async def test_the_new_game_dialog_opened_and_answered_in_one_burst(
    keys: tuple[str, ...], started: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``y`` reached the dialog before its fields were mounted: NoMatches('#handicap').

    The wait is for the dialog's answer: the game screen is on top before the burst is
    read too, so waiting for it alone checked the match before ``y`` had arrived.
    """
    answers: list[object] = []
    dismiss = NewGameScreen.dismiss

    def answered(screen: NewGameScreen, result: object = None) -> object:
        answers.append(result)
        return dismiss(screen, result)

    monkeypatch.setattr(NewGameScreen, "dismiss", answered)
    app = make_app(moves="f5")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        first = app.game_screen.match
        burst(app, *keys)
        await wait_until(pilot, lambda: bool(answers) and app.screen is app.game_screen)
        assert len(answers) == 1
        await settle(app, pilot)
        assert app.is_running and app.return_code is None
        assert (app.game_screen.match is not first) is started


async def test_a_select_whose_parts_are_gone_takes_a_value_quietly() -> None:
    """Textual's Select raised NoMatches when its value changed as its dialog closed."""

    class One(App[None]):
        def compose(self) -> ComposeResult:
            yield SafeSelect((("a", 1), ("b", 2)), value=1, allow_blank=False)
            yield Select((("a", 1), ("b", 2)), value=1, allow_blank=False, id="plain")

    app = One()
    async with app.run_test() as pilot:
        safe, plain = app.query_one(SafeSelect), app.query_one("#plain", Select)
        for select in (safe, plain):
            await select.query_one(SelectOverlay).remove()
        safe.value = 2
        with pytest.raises(NoMatches):  # what the guard is for
            plain.value = 2
        safe.action_show_overlay()
        await pilot.pause()
        assert safe.value == 2


async def wait_for_exit(app: ReversiApp) -> None:
    """Until the app has stopped (not ``Pilot.pause``: it reads ``app.screen``)."""
    deadline = time.monotonic() + patience(5)
    while app.is_running:
        assert time.monotonic() < deadline, "the app did not exit"
        await asyncio.sleep(0.01)
