"""Fuzz the TUI's input path: random bytes to the parser, random key bursts to the app.

Two parts, each given half the events:

- bytes: random chunks (printable text, bytes that are not UTF-8, escape sequences
  with extreme numbers, mouse and resize reports, terminal replies, cut at random
  places) go through the decoder and parser the app's driver uses
  (``reversi_tui.tui.compat.input``); a crash is any exception, or a size outside
  1..``MAX_CELLS`` reaching the app;
- keys: bursts of random keys (the palette, the dialogs, paging, quitting) are sent
  to the app headless, all at once as a terminal sends them; a crash is the app
  ending with an exception. When a burst quits the app, a new one starts.

Prints the number of events fuzzed and of crashes, with the first few crashes.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from reversi_tui.commands.options import Commands, int_range
from reversi_tui.engine import Ply, Position
from reversi_tui.engine.ai.result import SearchResult
from reversi_tui.match import MatchSettings, PlayerKind, PlayerSpec
from reversi_tui.match.sources import MoveRequest, MoveSource, PlayResult

#: Keys of the bursts: every binding of the game, dialogs and palette, and some others.
KEYS = (
    *"abcdefgh12345678iuUnpqy?xzortwb",
    *("up", "down", "left", "right", "home", "end", "pageup", "pagedown"),
    *("tab", "shift+tab", "space", "enter", "escape", "backspace", "delete"),
    *("ctrl+p", "ctrl+q", "ctrl+c", "ctrl+r", "ctrl+z", "f1", "alt+x"),
)
#: Escape sequences a terminal may send, with numbers from ordinary to absurd.
NUMBERS = ("0", "1", "5", "24", "80", "255", "1000", "1114112", "99999", "9" * 19, "9" * 30)


@dataclass
class FuzzReport:
    """What a fuzz run did: events sent, crashes seen, and the first few crashes."""

    events: int = 0
    crashes: int = 0
    examples: list[str] = field(default_factory=list)

    def crashed(self, what: str) -> None:
        self.crashes += 1
        if len(self.examples) < 5:
            self.examples.append(what)


def random_chunk(rng: random.Random) -> bytes:
    """One read's worth of input a terminal (or line noise) might send."""
    kind = rng.randrange(9)
    number = rng.choice(NUMBERS)
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 12)))
    if kind == 1:
        return bytes(rng.randrange(0x80, 0x100) for _ in range(rng.randrange(1, 4)))
    if kind == 2:
        final = rng.choice("ABCDEFHPQRSu~")
        params = ";".join(rng.choice(NUMBERS) for _ in range(rng.randrange(1, 4)))
        return f"\x1b[{params}{final}".encode()
    if kind == 3:
        return f"\x1b[<{rng.randrange(128)};{number};{rng.choice(NUMBERS)}M".encode()
    if kind == 4:
        sizes = ";".join(rng.choice(NUMBERS) for _ in range(4))
        return f"\x1b[48;{sizes}t".encode()
    if kind == 5:
        introducer = rng.choice(["\x1bP", "\x1b]", "\x1b_", "\x1b^", "\x1bX", "\x90"])
        terminator = rng.choice(["\x1b\\", "\x07", "\x9c", ""])
        return f"{introducer}$q{number}q{terminator}".encode()
    if kind == 6:
        return b"\x1b[M" + bytes(rng.randrange(32, 256) for _ in range(3))
    if kind == 7:
        return rng.choice([b"\x1b", b"\x1b\x1b", b"\x1b[", b"\x1b[200~", b"\x1b[201~"])
    return rng.choice([b"q", b"?", b"\r", b"\t", b"\x1b[A", b"\xc3\xa9", b"\xf0\x9f\x98\x80"])


def fuzz_bytes(count: int, seed: int) -> FuzzReport:
    """``count`` random chunks through the decoder and parser, split at random places."""
    from textual import events  # Textual: only when the bench runs

    from reversi_tui.tui.compat.input import MAX_CELLS, SafeParser, input_decoder

    rng = random.Random(seed)
    report = FuzzReport()
    parser = SafeParser()
    decode = input_decoder()
    for _ in range(count):
        data = random_chunk(rng)
        report.events += 1
        try:
            text = decode(data)  # "" while a character is incomplete; feed("") is the end
            messages = list(parser.feed(text)) if text else []
            if rng.randrange(8) == 0:
                parser._timeout_time = 0.0  # as if the escape delay had passed
                messages += parser.tick()
        except Exception as error:  # a crash is what the fuzz counts
            report.crashed(f"bytes {data!r}: {type(error).__name__}: {error}")
            parser, decode = SafeParser(), input_decoder()
            continue
        for message in messages:
            if isinstance(message, events.Resize):
                width, height = message.size
                if not (1 <= width <= MAX_CELLS and 1 <= height <= MAX_CELLS):
                    report.crashed(f"bytes {data!r}: the app was told {width}x{height}")
    return report


class InstantComputer:
    """A computer that plays its first legal move at once: the fuzz tests keys, not search."""

    label = "Computer"

    async def play(self, request: MoveRequest) -> PlayResult:
        return PlayResult(request.position.legal_moves[0])

    def observe(self, ply: Ply) -> None:
        pass

    async def close(self) -> None:
        pass


def _instant_source(spec: PlayerSpec, seed: int | None = None) -> MoveSource:
    from reversi_tui.players import LocalHuman

    return LocalHuman() if spec.kind is PlayerKind.HUMAN else InstantComputer()


def _instant_advisor(position: Position, should_stop: Callable[[], bool]) -> SearchResult:
    return SearchResult(position.legal_moves[0], 0.0, 1, 1, 0.0)


def _send_burst(app: object, keys: list[str]) -> None:
    """All ``keys`` at once, as the driver posts a terminal's read (no wait between)."""
    from textual import events
    from textual.app import App

    assert isinstance(app, App)
    driver = app._driver
    assert driver is not None
    for key in keys:
        character = key if len(key) == 1 else {"space": " ", "enter": "\r"}.get(key)
        event = events.Key(key, character)
        event.set_sender(app)
        driver.send_message(event)


async def fuzz_keys(count: int, seed: int, *, burst: int = 8) -> FuzzReport:
    """``count`` random keys in bursts of up to ``burst`` to the app, headless at 80x24."""
    from reversi_tui.tui import app as app_module
    from reversi_tui.tui.app import ReversiApp

    class FuzzedApp(ReversiApp):
        """The app, but the palette's Screenshot writes no file."""

        CSS_PATH = str(Path(app_module.__file__).with_name("app.tcss"))

        def deliver_screenshot(
            self,
            filename: str | None = None,
            path: str | None = None,
            time_format: str | None = None,
        ) -> str | None:
            return None

        def open_online(self, socket: str | None = None, *, quit_on_leave: bool = False) -> None:
            """The lobby over a session that never connects: its keys and dialogs are
            fuzzed too, and no server is started or reached."""
            from reversi_tui.net.client import Client
            from reversi_tui.net.online import OnlineSession
            from reversi_tui.tui.screens.lobby import LobbyScreen

            if any(isinstance(screen, LobbyScreen) for screen in self.screen_stack):
                return
            session = OnlineSession(Client(lambda _: None, lambda _: None, socket="/nowhere"))
            screen = self.game_screen
            self.push_screen(LobbyScreen(session, screen.advisor, screen.glyphs))

    rng = random.Random(seed)
    report = FuzzReport()
    human = PlayerSpec.parse("human", None)
    while report.events < count:
        app = FuzzedApp(
            MatchSettings(human, human),
            make_source=_instant_source,
            delay=0.0,
            reply_delay=0.0,
            advisor=_instant_advisor,
        )
        sent: list[str] = []
        try:
            async with app.run_test(size=(80, 24)):
                while report.events < count and app.is_running:
                    keys = [rng.choice(KEYS) for _ in range(rng.randint(1, burst))]
                    sent = [*sent[-40:], *keys]
                    report.events += len(keys)
                    _send_burst(app, keys)
                    # Not Pilot.pause: it reads app.screen, gone once a burst has quit.
                    await asyncio.sleep(rng.choice((0.0, 0.0, 0.01, 0.05)))
        except Exception as error:  # a crash is what the fuzz counts
            report.crashed(f"keys ... {' '.join(sent[-12:])}: {type(error).__name__}: {error}")
        if not sent:
            report.crashed("the app did not start")
            break
    return report


def fuzz(count: int, seed: int) -> tuple[FuzzReport, FuzzReport]:
    """Half the events as bytes to the parser, half as key bursts to the app."""
    return fuzz_bytes(count - count // 2, seed), asyncio.run(fuzz_keys(count // 2, seed))


def add_parser(kinds: Commands) -> None:
    """``reversi bench fuzz``'s options; ``run`` is its handler."""
    bench_fuzz = kinds.add_parser(
        "fuzz", help="random bytes to the TUI's input parser and random key bursts to the app"
    )
    bench_fuzz.add_argument(
        "--events",
        type=int_range(2, 10_000_000),
        default=2000,
        metavar="N",
        help="events to send, half bytes and half keys (default: 2000)",
    )
    bench_fuzz.add_argument("--seed", type=int, default=1, help="random seed (default: 1)")
    bench_fuzz.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """``reversi bench fuzz``: 1 when anything crashed."""
    start = time.perf_counter()
    parsed, pressed = fuzz(args.events, args.seed)
    seconds = time.perf_counter() - start
    print(f"seed {args.seed}: {parsed.events + pressed.events} events in {seconds:.1f} s")
    print(f"bytes to the parser: {parsed.events} chunks, {parsed.crashes} crashes")
    print(f"key bursts to the app: {pressed.events} keys, {pressed.crashes} crashes")
    for example in parsed.examples + pressed.examples:
        print(f"  crash: {example}")
    return 1 if parsed.crashes or pressed.crashes else 0
