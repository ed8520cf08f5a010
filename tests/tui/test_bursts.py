"""Pastes and key bursts: text that arrives in bulk is never played as keys.

A bracketed paste (``ESC [ 200 ~`` ... ``ESC [ 201 ~``) is one ``Paste`` event, whatever
it holds; an unbracketed burst far beyond typing is dropped with one notice; and
SIGTERM or SIGHUP still end the app at once while a megabyte pours in. The pty tests
run ``python -m reversi_tui`` with a data directory of their own and check the game
through its autosave: only the move typed by hand after the flood is in it.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import pty
import select
import signal
import struct
import sys
import termios
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.app import App
from textual.message import Message
from textual.widgets import Input

from reversi_tui.engine import square_name
from reversi_tui.net.protocol import MAX_CHAT
from reversi_tui.records.autosave import SavedGame
from reversi_tui.tui.compat.input import (
    BURST_KEYS,
    BURST_TEXT_KEPT,
    CLUMP_SECONDS,
    QUIET_SECONDS,
    BurstGuard,
    KeyBurst,
    SafeParser,
    input_decoder,
)
from reversi_tui.tui.screens.chat import ChatScreen
from reversi_tui.tui.signals import install_exit_signals, remove_exit_signals

from ..timing import patience
from .helpers import make_app

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a pty and POSIX signals")

CHILD_ENV = {**os.environ, "TERM": "xterm-256color", "LC_ALL": "C.UTF-8"}
CHILD_ENV.pop("REVERSI_DATA_DIR", None)
#: A megabyte of what, typed, would play d3 and open the online lobby, again and again.
MEGABYTE = b"d3o\r" * (1 << 18)
PASTE_START, PASTE_END = b"\x1b[200~", b"\x1b[201~"
#: What the app says after dropping a burst (the notification's title).
BURST_NOTICE = b"Ignored a burst of keys"
#: Seconds a signal may take to end the app: ample, yet short of the watchdog's 5 s (an
#: exit forced by the watchdog fails the test: the app was stuck).
PROMPT_EXIT = 3.0


class Terminal:
    """``reversi --new --white human`` in a pty of 80x24, with its own data directory."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        args = ["--data-dir", str(data_dir), "--new", "--white", "human"]
        pid, fd = pty.fork()
        if pid == 0:  # pragma: no cover -- the child becomes the app
            try:
                os.execve(sys.executable, [sys.executable, "-m", "reversi_tui", *args], CHILD_ENV)
            finally:
                os._exit(127)  # never fall back into the test's code
        self.pid, self.fd = pid, fd
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        os.set_blocking(fd, False)
        self.output = bytearray()
        self.status: int | None = None
        self.closed = False  # the pty gave EOF or EIO: the app has gone

    def pump(
        self, data: bytes = b"", until: Callable[[], bool] = lambda: True, limit: float = 30.0
    ) -> bool:
        """Write ``data`` as fast as the pty takes it, reading all output meanwhile, then
        go on reading until ``until()`` holds; False if ``limit`` seconds pass first."""
        deadline = time.monotonic() + patience(limit)
        sent = 0
        while sent < len(data) or not until():
            left = deadline - time.monotonic()
            if left <= 0 or self.closed:
                return sent >= len(data) and until()
            writing = [self.fd] if sent < len(data) else []
            readable, writable, _ = select.select([self.fd], writing, [], min(left, 0.05))
            if readable:
                self._read()
            if writable and not self.closed:
                try:
                    sent += os.write(self.fd, data[sent : sent + 4096])
                except BlockingIOError:
                    pass
                except OSError:  # EIO: the app has gone
                    self.closed = True
        return True

    def _read(self) -> None:
        try:
            chunk = os.read(self.fd, 65536)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if chunk:
            self.output.extend(chunk)
        else:
            self.closed = True

    def shows(self, text: bytes, start: int = 0) -> Callable[[], bool]:
        return lambda: text in self.output[start:]

    def exited(self) -> bool:
        if self.status is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = os.waitstatus_to_exitcode(status)
        return self.status is not None

    def wait_exit(self, data: bytes = b"", limit: float = 30.0) -> int | None:
        """Go on writing ``data`` and reading until the app has exited; its status."""
        deadline = time.monotonic() + patience(limit)
        self.pump(data, until=self.exited, limit=limit)
        while not self.exited() and time.monotonic() < deadline:  # the pty closed first
            time.sleep(0.01)
        return self.status

    def type_move(self, square: bytes) -> bool:
        """Type a move key by key, as a person does; True once the board has played it."""
        mark = len(self.output)
        for key in square:
            self.pump(bytes([key]))
        return self.pump(until=self.shows(b"Move 2", mark), limit=20.0)

    def saved_moves(self) -> list[str]:
        """The moves of the game's autosave."""
        saves = list((self.data_dir / "autosave").glob("game-*.json"))
        assert len(saves) == 1, saves
        return [
            square_name(move) for move in SavedGame.from_json(saves[0].read_bytes()).record.moves
        ]

    def close(self) -> None:
        if not self.exited():
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        os.close(self.fd)

    def text(self) -> str:
        return self.output.decode("utf-8", "replace")


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    app = Terminal(tmp_path / "data")
    try:
        assert app.pump(until=app.shows(b"Black")), "the app never drew"
        yield app
    finally:
        app.close()


def end_with(terminal: Terminal, signum: int) -> float:
    """Send ``signum``, keep reading until the app has exited; the seconds that took."""
    sent = time.monotonic()
    os.kill(terminal.pid, signum)
    terminal.wait_exit()
    return time.monotonic() - sent


def test_an_unbracketed_megabyte_is_dropped_with_one_notice(terminal: Terminal) -> None:
    started = time.monotonic()
    assert terminal.pump(MEGABYTE, until=terminal.shows(BURST_NOTICE), limit=60.0), (
        "no notice: " + terminal.text()[-600:]
    )
    print(f"1 MB written and dropped in {time.monotonic() - started:.2f} s")
    assert terminal.output.count(BURST_NOTICE) == 1
    assert terminal.type_move(b"d3\r"), "the board no longer answers: " + terminal.text()[-600:]
    assert end_with(terminal, signal.SIGTERM) < PROMPT_EXIT
    assert terminal.status == 143
    assert terminal.saved_moves() == ["d3"]  # the flood played nothing
    assert "Traceback" not in terminal.text()


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=["term", "hup"])
def test_a_signal_ends_the_app_at_once_during_a_flood(terminal: Terminal, signum: int) -> None:
    assert terminal.type_move(b"d3\r")
    terminal.pump(MEGABYTE[: 1 << 18])  # a quarter of it in, the rest still to come
    sent = time.monotonic()
    os.kill(terminal.pid, signum)
    terminal.wait_exit(MEGABYTE[1 << 18 :], limit=60.0)
    took = time.monotonic() - sent
    print(f"signal {signum} to exit during a 1 MB flood: {took:.2f} s")
    assert terminal.status == 128 + signum
    assert took < PROMPT_EXIT
    assert terminal.saved_moves() == ["d3"]
    assert "Traceback" not in terminal.text()


def test_a_bracketed_megabyte_is_one_paste_and_acts_as_no_keys(terminal: Terminal) -> None:
    """Pasted terminal output, escape sequences and all: Textual 8.2.8 replayed the text
    after each ESC in a paste as keys (d3 was played, o opened the lobby)."""
    coloured = b"\x1b[1md3o\r\x1b[0m" + b"d3o\r" * 63  # 265 bytes, one ESC ... ESC in each
    paste = PASTE_START + coloured * ((1 << 20) // len(coloured)) + PASTE_END
    started = time.monotonic()
    terminal.pump(paste)
    assert terminal.type_move(b"d3\r"), "the board no longer answers: " + terminal.text()[-600:]
    print(
        f"1 MB bracketed paste taken and the next move played in {time.monotonic() - started:.2f} s"
    )
    assert time.monotonic() - started < 15.0
    assert BURST_NOTICE not in terminal.output  # a paste is not a burst
    assert end_with(terminal, signal.SIGTERM) < PROMPT_EXIT
    assert terminal.status == 143
    assert terminal.saved_moves() == ["d3"]


# The parser: a bracketed paste is one Paste event, never keys.


def messages(*chunks: bytes) -> list[Message]:
    parser = SafeParser()
    decode = input_decoder()
    found: list[Message] = []
    for chunk in chunks:
        found += parser.feed(decode(chunk))
    return found + list(parser.feed(""))


def summary(found: list[Message]) -> list[str]:
    return [
        m.key
        if isinstance(m, events.Key)
        else f"paste:{m.text}"
        if isinstance(m, events.Paste)
        else type(m).__name__
        for m in found
    ]


@pytest.mark.parametrize(
    "content",
    [
        "d3o\r",
        "\x1b[1md3o\x1b[0m\r",  # coloured text
        "\x1bd3\x1b\x1bo",  # lone escapes
        "\x1b[" + "1;" * 20 + "d3o",  # a sequence too long to be one
        "\x1bPq\x1b\\o",  # a DCS string
        "é\x00ok",  # NUL is dropped, as Textual does
    ],
)
def test_a_bracketed_paste_is_one_paste_whatever_it_holds(content: str) -> None:
    data = ("x" + "\x1b[200~" + content + "\x1b[201~" + "y").encode()
    assert summary(messages(data)) == ["x", "paste:" + content.replace("\x00", ""), "y"]


def test_a_paste_split_anywhere_is_still_one_paste() -> None:
    data = b"\x1b[200~ab\x1b[1mcd\x1b[201~q"
    for size in range(1, 9):
        chunks = [data[i : i + size] for i in range(0, len(data), size)]
        assert summary(messages(*chunks)) == ["paste:ab\x1b[1mcd", "q"], size


def test_escape_sequences_that_only_begin_like_a_paste_are_keys() -> None:
    assert summary(messages(b"\x1b[2~\x1b[20~\x1b[A")) == ["insert", "f9", "up"]


def test_plain_text_is_counted_unparsed_only_when_nothing_is_pending() -> None:
    parser = SafeParser()
    assert parser.plain_keys("d3o\r") == 4
    assert parser.plain_keys("d3\x1b[A") is None
    assert parser.plain_keys("\x90$q") is None  # an 8-bit DCS
    list(parser.feed("\x1b["))  # a sequence begun
    assert parser.plain_keys("abc") is None
    list(parser.feed("A\x1b[200~d3"))  # ended; a paste begun
    assert parser.plain_keys("abc") is None
    list(parser.feed("\x1b[201~"))
    assert parser.plain_keys("abc") == 3


# The burst rule, with the clock given.


def key(character: str) -> events.Key:
    return events.Key(character, character)


def test_typing_and_key_repeat_are_never_held_or_dropped() -> None:
    guard = BurstGuard()
    now = 100.0
    for n in range(1000):  # key repeat at 100 a second, for ten seconds
        pressed = key("abcdefgh"[n % 8])
        assert guard.sift([pressed], now) == [pressed]
        assert guard.tick(now) == ([], None)
        now += 0.01
    assert not guard.bursting and guard.deadline() is None


def test_a_few_keys_together_are_held_a_moment_then_delivered_in_order() -> None:
    guard = BurstGuard()
    batch: list[Message] = [key("d"), events.AppFocus(), key("3")]
    assert guard.sift(batch, 100.0) == []
    assert guard.deadline() == 100.0 + CLUMP_SECONDS
    assert guard.tick(100.0 + CLUMP_SECONDS / 2) == ([], None)
    late = key("\r")
    assert guard.sift([late], 100.0 + CLUMP_SECONDS / 2) == []  # joins the clump
    assert guard.tick(100.0 + CLUMP_SECONDS) == ([*batch, late], None)
    assert guard.deadline() is None


def test_a_burst_is_dropped_until_the_keys_stop_and_told_once() -> None:
    guard = BurstGuard()
    focus = events.AppFocus()
    keys = [key("d") for _ in range(BURST_KEYS + 1)]
    assert guard.sift([*keys, focus], 100.0) == [focus]  # only the keys are dropped
    assert guard.sift([key("o"), key("o")], 100.1) == []
    guard.drop(4096, 100.2)  # taken without parsing
    assert guard.tick(100.2 + QUIET_SECONDS / 2) == ([], None)
    assert guard.deadline() == 100.2 + QUIET_SECONDS
    released, burst = guard.tick(100.2 + QUIET_SECONDS)
    assert released == [] and burst is not None
    assert burst.count == BURST_KEYS + 1 + 2 + 4096
    assert guard.tick(200.0) == ([], None)  # told once
    typed = key("q")
    assert guard.sift([typed], 200.0) == [typed]


def test_a_small_first_read_joins_the_burst_that_follows() -> None:
    guard = BurstGuard()
    assert guard.sift([key("d"), key("3")], 100.0) == []
    assert guard.sift([key("o")] * BURST_KEYS, 100.0 + CLUMP_SECONDS / 2) == []
    assert guard.tick(100.0 + CLUMP_SECONDS) == ([], None)  # nothing released: a burst
    released, burst = guard.tick(101.0)
    assert released == [] and burst is not None and burst.count == BURST_KEYS + 2


def test_a_burst_keeps_its_first_characters_for_a_text_field() -> None:
    """An unbracketed paste: its text travels with the notice, parsed or not, bounded."""
    guard = BurstGuard()
    assert guard.sift([key(c) for c in "Good game, well played, thanks a lot!"], 100.0) == []
    guard.drop(BURST_TEXT_KEPT, 100.1, " again" * BURST_TEXT_KEPT)
    _, burst = guard.tick(101.0)
    assert burst is not None
    assert burst.text.startswith("Good game, well played, thanks a lot! again again")
    assert len(burst.text) == BURST_TEXT_KEPT
    assert guard.sift([key(c) for c in "x" * (BURST_KEYS + 1)], 200.0) == []
    _, burst = guard.tick(201.0)
    assert burst is not None and burst.text == "x" * (BURST_KEYS + 1)  # a new burst, new text


def test_mouse_reports_in_bulk_are_no_burst() -> None:
    reports = messages(b"".join(b"\x1b[<35;%d;5M" % (1 + n % 80) for n in range(500)))
    assert len(reports) == 500
    guard = BurstGuard()
    assert guard.sift(reports, 100.0) == reports


# Signals: acted on even when the event loop is flooded.


async def test_a_signal_is_acted_on_when_the_loops_wakeup_channel_is_full(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """asyncio's signal handlers learn of a signal through a byte on the loop's self-pipe;
    a flood of ``call_soon_threadsafe`` (one per key from the input thread) fills it, the
    byte is lost, and SIGTERM was never acted on."""
    watchdogs: list[tuple[float, Any]] = []

    class Watchdog:
        daemon = False

        def __init__(self, interval: float, function: Any, args: Any) -> None:
            watchdogs.append((interval, args))

        def start(self) -> None:
            pass  # never ends this process

    monkeypatch.setattr(threading, "Timer", Watchdog)
    codes: list[int] = []
    saved: list[bool] = []

    class Recorder(App[int]):
        def exit(
            self, result: int | None = None, return_code: int = 0, message: Any = None
        ) -> None:
            codes.append(return_code)

    app = Recorder()
    install_exit_signals(app, before_exit=lambda: saved.append(True))
    try:
        loop = asyncio.get_running_loop()
        for _ in range(50_000):  # the input thread's flood, which the loop has not read yet
            loop.call_soon_threadsafe(lambda: None)
        os.kill(os.getpid(), signal.SIGTERM)
        deadline = time.monotonic() + patience(10.0)
        while not codes and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
    finally:
        remove_exit_signals(app)
    assert codes == [143]
    assert saved == [True]
    assert [args for _, args in watchdogs] == [(143,)]


# The app: a burst in a text field is a paste; on the board it plays nothing.

CHAT_LINE = "Good game! That corner on move 23 was a lovely trap, well played."


async def test_a_burst_into_the_chat_box_is_pasted_there() -> None:
    """A terminal that pastes without brackets: more than ``BURST_KEYS`` characters in
    the chat box were dropped as a burst of keys."""
    assert len(CHAT_LINE) > BURST_KEYS
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await app.push_screen(ChatScreen("Say something"))
        await pilot.pause()
        app.post_message(KeyBurst(len(CHAT_LINE) + 1, CHAT_LINE + "\r"))
        await pilot.pause()
        assert app.screen.query_one("#line", Input).value == CHAT_LINE
        assert not app._notifications  # no "ignored a burst" notice


async def test_a_paste_longer_than_a_chat_line_is_cut_to_fit_not_refused() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(ChatScreen("Say something"))
        await pilot.pause()
        line = app.screen.query_one("#line", Input)
        line.insert_text_at_cursor("> ")
        line.post_message(events.Paste(CHAT_LINE * 4 + "\nsecond line"))
        await pilot.pause()
        assert line.value == ("> " + CHAT_LINE * 4)[:MAX_CHAT]


async def test_a_burst_on_the_board_plays_nothing_and_is_told() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        app.post_message(KeyBurst(64, "d3\r" * 21 + "d"))
        await pilot.pause()
        assert app.game_screen.game.moves == []
        assert [n.title for n in app._notifications] == ["Ignored a burst of keys"]
