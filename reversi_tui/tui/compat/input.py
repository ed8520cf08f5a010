"""The TUI survives any input: workarounds for Textual 8.2.8's input path.

Everything a terminal (or a player over SSH) can send reaches Textual's parser,
and in 8.2.8 several inputs kill the app or worse:

- a byte that is not UTF-8 (a Latin-1 terminal's ``é``, an 8-bit Meta key, an X10
  mouse report past column 95) raises ``UnicodeDecodeError`` in the input thread,
  whose strict incremental decoder (``LinuxDriver.run_input_thread``) then panics
  the app: ``input_decoder`` replaces such bytes instead (see ``driver.py``);
- an escape sequence with a huge number (``ESC [ 9999999999999999999 A``,
  ``ESC [ 1114112 u``) makes ``XTermParser._parse_extended_key`` call ``chr()`` out
  of range (``OverflowError``/``ValueError``), which ends the parser's generator and
  the app; ``SafeParser`` ignores such a key, and restarts the parser afresh after
  any other fault of the upstream parser rather than let it end the app;
- an in-band resize report (``ESC [ 48 ; 99999 ; 99999 ; 0 ; 0 t``) resizes the app
  to whatever it says (1.3 GB in 10 s at 99999x99999): ``SafeParser`` ignores sizes
  outside 1..``MAX_CELLS`` and pixel sizes of zero (which divide mouse positions);
- a terminal's reply string (DCS ``ESC P ... ESC \\``, OSC, APC, PM, SOS) is read
  as keys, so the ``q`` of ``ESC P $ q ESC \\`` quits: ``SafeParser`` swallows them;
- a bracketed paste that holds an ESC (pasted terminal output, say) had the text after
  each ESC replayed as keys by ``XTermParser``: ``SafeParser`` takes pastes itself, in
  bulk, and makes each one ``Paste`` event, whatever it holds;
- text far faster than typing (an unbracketed paste: 1 MB took a minute and played its
  letters as moves) is dropped by ``BurstGuard``, with one notice (``KeyBurst``);
- ``OptionList._move_page`` looks up the highlighted option's line before the list
  has been laid out (``KeyError``): PageUp right after Ctrl+P, or in a ``Select``'s
  drop-down opened in the same key burst, killed the app.
  ``guard_option_list_paging`` (``reversi_tui.tui.compat.option_list``) makes paging
  wait for the layout.

Upstream: Textual #6456 (the decoder and the parser). Delete ``SafeParser`` and
``input_decoder`` when Textual survives ``HOSTILE_INPUT`` of
``tests/tui/test_input_survival.py`` without them; the burst guard is the app's own
policy. Listed in ``reversi_tui.tui.compat.WORKAROUNDS``.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import TYPE_CHECKING

from textual import constants, events
from textual._parser import ParseEOF, ParseError, ParseTimeout, Peek1, Read1, TokenCallback
from textual._time import get_time
from textual._xterm_parser import XTermParser
from textual.keys import Keys
from textual.message import Message

if TYPE_CHECKING:
    pass

#: The most columns or rows a terminal may report; larger sizes are taken for garbage.
MAX_CELLS = 1000
ESC = "\x1b"
#: After ESC, these start a string that ends with ST (ESC \\) or BEL: DCS, OSC, APC, PM, SOS.
STRING_INTRODUCERS = frozenset("P]_^X")
#: The 8-bit (C1) forms of the same, and their ST.
C1_INTRODUCERS = frozenset("\x90\x9d\x9f\x9e\x98")
C1_STRING_TERMINATOR = "\x9c"
BEL = "\x07"
#: Seconds without a character after which an unterminated reply string is dropped.
STRING_TIMEOUT = 1.0
#: What a terminal sends around a paste, in bracketed paste mode (which Textual turns on).
PASTE_START = "\x1b[200~"
PASTE_END = "\x1b[201~"
#: A character that may start an escape sequence or a reply string: not a plain key.
_NOT_PLAIN = re.compile("[\x1b\x90\x98\x9d\x9e\x9f]")

# Bursts. A person types at most some 15 keys a second, and key repeat sends 30 to 100;
# the input thread reads as they come, so typing reaches it one key per read, a few when
# the process was busy or stopped for a moment. A terminal that pastes without brackets
# (or a program that writes into the terminal) delivers hundreds or thousands at once.
# So: keys that arrive together are held for a moment (``CLUMP_SECONDS``, unnoticeable);
# if more than ``BURST_KEYS`` arrive within it, they are a burst, dropped with everything
# that follows until the keys have stopped for ``QUIET_SECONDS``. A single key is never
# held. Only keys count: mouse reports, resizes, focus changes and pastes are delivered
# as they come, whatever their number. The burst's first characters travel with its
# notice (``KeyBurst.text``): the app pastes them into a focused text field (a terminal
# that pastes without brackets), where they can play no move.
#: More keys than this arriving together are not typing.
BURST_KEYS = 32
#: How long keys that arrive together are held to see whether more follow.
CLUMP_SECONDS = 0.05
#: A burst is over once no key has come for this long.
QUIET_SECONDS = 0.3
#: How many of a burst's characters are kept for ``KeyBurst.text``.
BURST_TEXT_KEPT = 4096

Request = Read1 | Peek1


def input_decoder() -> Callable[..., str]:
    """An incremental UTF-8 decoder's ``decode`` that replaces what is not UTF-8.

    Textual 8.2.8 decodes with ``errors="strict"``: one stray byte ended the app.
    """
    return codecs.getincrementaldecoder("utf-8")(errors="replace").decode


def sane_size(width: int, height: int) -> bool:
    """A terminal size worth believing: 1 to ``MAX_CELLS`` columns and rows."""
    return 1 <= width <= MAX_CELLS and 1 <= height <= MAX_CELLS


class _Restartable:
    """Textual's parser generator, started afresh whenever it raises.

    The upstream generator dies with the first exception; the sequence that caused
    it is then dropped and the next character starts a new one.
    """

    def __init__(self, start: Callable[[], Generator[Request, str, None]]) -> None:
        self._start = start
        self.finished = False
        self._generator = start()
        self.awaiting: Request = next(self._generator)

    def send(self, character: str) -> None:
        self._advance(lambda: self._generator.send(character))

    def throw(self, error: ParseError) -> None:
        self._advance(lambda: self._generator.throw(error))

    def _advance(self, step: Callable[[], Request]) -> None:
        try:
            self.awaiting = step()
        except StopIteration:
            self.finished = True
        except Exception:  # any fault of the upstream parser: start over
            self._generator = self._start()
            self.awaiting = next(self._generator)


class SafeParser(XTermParser):
    """Textual's ``XTermParser``, made to survive any input (see the module's notes)."""

    def __init__(self, debug: bool = False) -> None:
        #: The last size believed, restored when a report is not.
        self._sane_terminal_size: tuple[int, int] | None = None
        #: In a bracketed paste: its text so far, taken in bulk by ``feed``.
        self._pasting = False
        self._paste: list[str] = []
        #: The paste's last characters, which may be the start of ``PASTE_END``.
        self._paste_tail = ""
        super().__init__(debug)

    def _deliver(self, token_callback: TokenCallback[Message]) -> TokenCallback[Message]:
        """``token_callback``, but absurd sizes never reach the app."""

        def deliver(token: Message) -> None:
            if isinstance(token, events.Resize):
                width, height = token.size
                if not sane_size(width, height):
                    self.terminal_size = self._sane_terminal_size
                    self.terminal_pixel_size = None
                    return
                self._sane_terminal_size = (width, height)
                pixels = token.pixel_size
                if pixels is not None and (pixels.width <= 0 or pixels.height <= 0):
                    self.terminal_pixel_size = None
            token_callback(token)

        return deliver

    def parse(self, token_callback: TokenCallback[Message]) -> Generator[Request, str, None]:
        """Textual's parse, behind a filter that swallows the terminal's reply strings
        and takes bracketed pastes.

        An ESC is held until the next character says what it starts: a reply string
        is dropped up to its terminator; ``PASTE_START`` starts a paste, which ``feed``
        then takes; anything else goes on to Textual's parser. ESC and an introducer
        with nothing after them within the escape delay are a key (Alt+P, say), as before.
        """
        deliver = self._deliver(token_callback)
        upstream = _Restartable(lambda: super(SafeParser, self).parse(deliver))
        held = ""  # an ESC waiting for the next character (with the start of PASTE_START)
        introducer = ""  # in a reply string: what started it (ESC P, or a C1 character)
        body = False  # in a reply string: at least one character after the introducer
        string_escape = False  # in a reply string: an ESC came, perhaps ST's
        while not upstream.finished:
            if introducer:
                request: Request = self.read1(STRING_TIMEOUT if body else constants.ESCAPE_DELAY)
            elif held:
                request = self.read1(constants.ESCAPE_DELAY)
            else:
                request = upstream.awaiting
            try:
                character = yield request
            except ParseTimeout:
                if introducer and not body and len(introducer) == 2:
                    for held_character in introducer:  # ESC P alone: a key
                        upstream.send(held_character)
                    upstream.throw(ParseTimeout())
                elif held:
                    for held_character in held:
                        upstream.send(held_character)
                    upstream.throw(ParseTimeout())
                elif not introducer:
                    upstream.throw(ParseTimeout())
                body = string_escape = False
                held = introducer = ""
                continue
            except ParseEOF:
                for held_character in held:
                    upstream.send(held_character)
                upstream.throw(ParseEOF())
                return
            if introducer:
                body = True
                if string_escape:
                    string_escape = False
                    introducer = ""
                    if character == "\\":
                        continue  # ST: the reply is over
                    held = ESC  # ESC and not ST: the string was cut short; ESC starts anew
                elif character == ESC:
                    string_escape = True
                    continue
                elif character in (BEL, C1_STRING_TERMINATOR):
                    introducer = ""
                    continue
                else:
                    continue
            if held:
                if held == ESC and character in STRING_INTRODUCERS:
                    introducer, body, held = ESC + character, False, ""
                    continue
                if PASTE_START.startswith(held + character):
                    held += character
                    if held == PASTE_START:
                        held = ""
                        self._pasting = True  # feed takes the paste from the next character
                    continue
                for held_character in held:
                    upstream.send(held_character)
                held = ""
            if character == ESC:
                held = ESC
            elif character in C1_INTRODUCERS:
                introducer, body = character, True
            else:
                upstream.send(character)

    def _sequence_to_key_events(self, sequence: str, alt: bool = False) -> Iterable[events.Key]:
        """Textual's keys, but a code point out of range is a key to ignore, not a crash."""
        try:
            return list(super()._sequence_to_key_events(sequence, alt))
        except (OverflowError, ValueError):
            return [events.Key(Keys.Ignore, sequence)]

    def feed(self, data: str) -> Iterable[Message]:
        """Textual's feed, but a paste is taken in bulk; after the end of input, further
        data is ignored."""
        if self.is_eof:
            return ()
        if not data:  # the end of input
            return super().feed(data)
        return self._feed(data)

    def _feed(self, data: str) -> Iterator[Message]:
        """``Parser.feed`` for ``data``, one character at a time to ``parse``, except
        the text of a bracketed paste: up to ``PASTE_END`` at once."""
        tokens = self._tokens
        position, size = 0, len(data)
        while tokens:
            yield tokens.popleft()
        while position < size:
            if self._pasting:
                position = self._take_paste(data, position)
            else:
                awaiting = self._awaiting
                self._timeout_time = None
                self._awaiting = self._gen.send(data[position])
                if isinstance(awaiting, Read1):
                    position += 1
            if self._awaiting.timeout is not None and not self._pasting:
                self._timeout_time = get_time() + self._awaiting.timeout
            while tokens:
                yield tokens.popleft()

    def _take_paste(self, data: str, position: int) -> int:
        """Take the paste's text from ``data[position:]``; where the rest begins."""
        text = self._paste_tail + data[position:]
        end = text.find(PASTE_END)
        if end < 0:
            split = max(0, len(text) - len(PASTE_END) + 1)
            self._paste.append(text[:split])
            self._paste_tail = text[split:]
            return len(data)
        self._paste.append(text[:end])
        pasted = "".join(self._paste).replace("\x00", "")  # as Textual: NUL is dropped
        consumed = end + len(PASTE_END) - len(self._paste_tail)
        self._paste, self._paste_tail, self._pasting = [], "", False
        self._tokens.append(events.Paste(pasted))
        return position + consumed

    def plain_keys(self, text: str) -> int | None:
        """How many keys ``text`` makes if it is only plain characters and nothing is
        pending (no escape sequence begun, no paste): then it need not be parsed to be
        dropped. None otherwise."""
        if self._pasting or self._awaiting.timeout is not None or _NOT_PLAIN.search(text):
            return None
        return len(text)


class KeyBurst(Message):
    """A burst of ``count`` keys came and was not taken as keys (see ``BurstGuard``);
    ``text``: its first ``BURST_TEXT_KEPT`` characters."""

    def __init__(self, count: int, text: str = "") -> None:
        super().__init__()
        self.count = count
        self.text = text


class BurstGuard:
    """Keys in bulk are not typing: they are dropped (see ``BURST_KEYS`` for the rule).

    The input thread passes each read's messages through ``sift`` and calls ``tick``
    whenever it wakes; ``deadline`` says when it must wake next. Times are
    ``time.monotonic()`` seconds, given by the caller.
    """

    def __init__(self) -> None:
        self._held: list[Message] = []  # a clump of keys (and what came among them)
        self._held_keys = 0
        self._hold_until = 0.0
        self._last_key = 0.0
        #: Keys dropped so far in the burst under way; 0 when there is none.
        self.dropped = 0
        #: The first characters of the burst under way (at most ``BURST_TEXT_KEPT``).
        self._text: list[str] = []
        self._text_size = 0

    @property
    def bursting(self) -> bool:
        return self.dropped > 0

    def deadline(self) -> float | None:
        """When ``tick`` has something to do, if nothing else comes; None: never."""
        if self._held:
            return self._hold_until
        if self.dropped:
            return self._last_key + QUIET_SECONDS
        return None

    def sift(self, messages: Iterable[Message], now: float) -> list[Message]:
        """What of one read's ``messages`` to deliver now (the rest is held or dropped)."""
        batch = list(messages)
        keys = sum(isinstance(message, events.Key) for message in batch)
        if keys:
            self._last_key = now
        if self.dropped:
            self.dropped += keys
            return self._take_keys(batch)
        if self._held:
            self._held += batch
            self._held_keys += keys
        elif keys <= 1:
            return batch  # one key is typing (or repeat), however fast: at once
        else:
            self._held, self._held_keys, self._hold_until = batch, keys, now + CLUMP_SECONDS
        if self._held_keys <= BURST_KEYS:
            return []
        held, self.dropped = self._held, self._held_keys
        self._held, self._held_keys = [], 0
        return self._take_keys(held)

    def _take_keys(self, messages: list[Message]) -> list[Message]:
        """The messages other than keys; the keys' characters kept for the burst's text."""
        self._keep("".join(m.character or "" for m in messages if isinstance(m, events.Key)))
        return [message for message in messages if not isinstance(message, events.Key)]

    def _keep(self, text: str) -> None:
        room = BURST_TEXT_KEPT - self._text_size
        if room > 0 and text:
            self._text.append(text[:room])
            self._text_size += len(self._text[-1])

    def drop(self, keys: int, now: float, text: str = "") -> None:
        """``keys`` more keys of the burst under way (``text``), dropped without being
        parsed."""
        self.dropped += keys
        self._last_key = now
        self._keep(text)

    def tick(self, now: float) -> tuple[list[Message], KeyBurst | None]:
        """The held messages whose time has come; and a burst just over, to be told once."""
        released: list[Message] = []
        if self._held and now >= self._hold_until:
            released, self._held, self._held_keys = self._held, [], 0
        over = None
        if self.dropped and now >= self._last_key + QUIET_SECONDS:  # as deadline() says
            over = KeyBurst(self.dropped, "".join(self._text))
            self.dropped, self._text, self._text_size = 0, [], 0
        return released, over
