"""``reversi bench online``: many clients playing whole games at once on one server.

The server runs in a child process (as ``reversi serve`` would), on a socket in a
private temporary directory, with its own SQLite store. Each client is a separate
connection; as one user cannot play itself, the benchmark names the clients by
the address each binds before connecting (the identity of the tests), which is
safe only because nobody else can reach the private directory. Pairs challenge
each other (with a clock, 5+3 by default, and rated) and play random legal moves to
the end, all games at once, saying how long they thought as real clients do; each
client says it is in a game screen (``activity``), so the lobby is pushed to nobody
but the one client left in the lobby (``--lobby``: how many stay there). Measured:
the time from a move sent to the opponent's update (median, p95, max), and the
server's peak memory. Then every game in the database is replayed with the engine
and compared with what the clients saw.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import signal
import socket
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reversi_tui.commands.options import Commands, int_range
from reversi_tui.engine import Game, square_name


def _name_from_address(sock: socket.socket) -> str:
    return Path(sock.getpeername()).name.rsplit("-", 1)[0]


def _serve(directory: str, ready: Any) -> None:
    """The child: a server on ``directory``/s.sock until SIGTERM."""

    from reversi_tui.net.server import Server  # the server: only in its process
    from reversi_tui.net.store import SqliteStore

    async def main() -> None:
        store = SqliteStore(Path(directory) / "db" / "online.sqlite3")
        server = Server(store, identify=_name_from_address)
        await server.start(str(Path(directory) / "s.sock"))
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGTERM, lambda: loop.create_task(server.stop("done")))
        ready.set()
        await server.wait_stopped()
        store.close()

    asyncio.run(main())
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    Path(directory, "peak").write_text(str(peak_kb))


@dataclass
class Player:
    name: str
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    #: When each of this player's moves was sent, by ply.
    sent: dict[tuple[int, int], float] = field(default_factory=dict)

    def send(self, **message: Any) -> None:
        self.writer.write(json.dumps(message).encode() + b"\n")

    async def recv(self) -> dict[str, Any]:
        line = await self.reader.readline()
        if not line:
            raise ConnectionError(f"{self.name}: the server closed the connection")
        value: dict[str, Any] = json.loads(line)
        return value

    async def expect(self, kind: str) -> dict[str, Any]:
        while (message := await self.recv())["type"] != kind:
            pass
        return message


async def _connect(directory: Path, name: str, in_lobby: bool) -> Player:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(str(directory / "clients" / f"{name}-0"))
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, str(directory / "s.sock"))
    reader, writer = await asyncio.open_unix_connection(sock=sock, limit=1 << 16)
    player = Player(name, reader, writer)
    from reversi_tui.net import protocol

    player.send(type="hello", version=protocol.VERSION)
    await player.expect("welcome")
    if not in_lobby:
        player.send(type="activity", status="online")
    return player


async def _watch_lobby(player: Player) -> int:
    """A client in the lobby reads every push until the server closes: their number."""
    pushes = 0
    try:
        while True:
            if (await player.recv())["type"] == "lobby":
                pushes += 1
    except (ConnectionError, ValueError):
        return pushes


async def _play_pair(
    black: Player,
    white: Player,
    rng: random.Random,
    latencies: list[float],
    clock: tuple[int, int] | None,
) -> tuple[int, str]:
    """One game between two clients: challenge, accept, random legal moves to the end."""
    terms: dict[str, Any] = {}
    if clock is not None:
        terms = {"clock": {"minutes": clock[0], "increment": clock[1]}, "rated": True}
    black.send(type="challenge", to=white.name, color="black", **terms)
    challenge = (await black.expect("challenge_sent"))["challenge"]
    white.send(type="accept", challenge=challenge)
    state = await white.expect("state")
    game_id = int(state["game"])
    await black.expect("state")
    game = Game()
    sides = {0: black, 1: white}
    turn_given = time.perf_counter()
    while not game.is_over:
        mover = sides[int(game.turn)]
        waiter = sides[1 - int(game.turn)]
        move = rng.choice(game.legal_moves)
        ply = sum(1 for m in game.moves if m >= 0)
        started = time.perf_counter()
        think_ms = round((started - turn_given) * 1000)
        mover.send(type="move", game=game_id, ply=ply, square=square_name(move), think_ms=think_ms)
        while True:  # the opponent's update: the measured latency
            update = await waiter.recv()
            if update["type"] == "state" and update["ply"] == ply + 1:
                break
        latencies.append(time.perf_counter() - started)
        turn_given = time.perf_counter()
        while True:  # the mover's own copy
            own = await mover.recv()
            if own["type"] == "state" and own["ply"] == ply + 1:
                break
        game.play(move)
        if update["moves"] != "".join(square_name(m) for m in game.moves if m >= 0):
            raise AssertionError(f"game {game_id}: the server's moves differ")
        if update["status"] == "finished" and not game.is_over:
            raise AssertionError(f"game {game_id} ended early: {update['result']}")
    return game_id, "".join(square_name(m) for m in game.moves if m >= 0)


async def _bench(
    directory: Path, clients: int, seed: int, clock: tuple[int, int] | None, lobby: int
) -> tuple[list[float], dict[int, str], int]:
    (directory / "clients").mkdir()
    watchers = [await _connect(directory, f"w{i:03d}", True) for i in range(lobby)]
    watching = [asyncio.ensure_future(_watch_lobby(w)) for w in watchers]
    players = [await _connect(directory, f"p{i:03d}", False) for i in range(clients)]
    latencies: list[float] = []
    rng = random.Random(seed)
    pairs = [(players[i], players[i + 1]) for i in range(0, clients - 1, 2)]
    results = await asyncio.gather(
        *(_play_pair(b, w, random.Random(rng.random()), latencies, clock) for b, w in pairs)
    )
    for player in [*players, *watchers]:
        player.writer.close()
    pushes = sum(await asyncio.gather(*watching))
    return latencies, dict(results), pushes


def _check(directory: Path, seen: dict[int, str], rated: bool) -> list[str]:
    """Every game in the store is finished, legal, and the one the clients saw (and
    rated, with its clock, when the games were)."""
    from reversi_tui.net.store import SqliteStore

    problems = []
    store = SqliteStore(directory / "db" / "online.sqlite3")
    try:
        games = {g.id: g for g in store.games()}
        for game_id, moves in seen.items():
            stored = games.get(game_id)
            if stored is None:
                problems.append(f"game {game_id} is missing")
                continue
            try:
                replayed = Game.from_moves(None, stored.moves)
            except ValueError as error:
                problems.append(f"game {game_id} does not replay: {error}")
                continue
            written = "".join(square_name(m) for m in stored.moves)
            if not (stored.finished and replayed.is_over and written == moves):
                problems.append(f"game {game_id} is not what the clients saw")
        if rated and sorted(g.id for g in store.rated_games()) != sorted(seen):
            problems.append("the rated games are not those played")
        if rated and any(games[g].clock is None for g in seen if g in games):
            problems.append("a game lost its clock")
        integrity = store.integrity()
        if integrity != "ok":
            problems.append(f"integrity_check: {integrity}")
    finally:
        store.close()
    return problems


def add_parser(kinds: Commands) -> None:
    """``reversi bench online``'s options; ``run`` is its handler."""
    bench_online = kinds.add_parser(
        "online", help="clients playing whole games at once on one server: latency, memory"
    )
    bench_online.add_argument(
        "--clients",
        type=int_range(2, 400),
        default=50,
        help="connections, two per game (default: 50, so 25 games at once)",
    )
    bench_online.add_argument("--seed", type=int, default=1, help="seed for the moves")
    bench_online.add_argument(
        "--clock",
        type=_clock,
        default=(5, 3),
        metavar="M+I",
        help="each game's time control, minutes + increment seconds, rated; "
        "none for untimed casual games (default: 5+3)",
    )
    bench_online.add_argument(
        "--lobby",
        type=int_range(0, 100),
        default=1,
        help="more clients that stay in the lobby and get its pushes (default: 1)",
    )
    bench_online.add_argument(
        "--time-limit",
        type=int_range(1, 3600),
        default=300,
        metavar="S",
        help="give up after S seconds (default: 300)",
    )
    bench_online.set_defaults(handler=run)


def _clock(text: str) -> tuple[int, int] | None:
    """``5+3`` as (5, 3); ``none`` as None."""
    if text == "none":
        return None
    minutes, plus, increment = text.partition("+")
    if not (plus and minutes.isdigit() and increment.isdigit()):
        raise argparse.ArgumentTypeError(f"{text!r} is not M+I (such as 5+3) or none")
    if not (1 <= int(minutes) <= 180 and int(increment) <= 180):
        raise argparse.ArgumentTypeError("minutes 1-180, increment 0-180")
    return int(minutes), int(increment)


def run(args: argparse.Namespace) -> int:
    """``reversi bench online``: 1 when a game is inconsistent or the run fails."""
    import multiprocessing

    clients = args.clients - args.clients % 2
    with tempfile.TemporaryDirectory(prefix="reversi-bench-online-") as name:
        directory = Path(name)
        os.chmod(directory, 0o700)  # nobody else can connect: the named identities are safe
        context = multiprocessing.get_context("fork")
        ready = context.Event()
        child = context.Process(target=_serve, args=(name, ready), daemon=True)
        child.start()
        if not ready.wait(30):
            print("the server did not start")
            child.kill()
            return 1
        start = time.perf_counter()
        try:
            latencies, seen, pushes = asyncio.run(
                asyncio.wait_for(
                    _bench(directory, clients, args.seed, args.clock, args.lobby), args.time_limit
                )
            )
        except (TimeoutError, ConnectionError, AssertionError) as error:
            print(f"failed: {error or 'out of time'}")
            child.kill()
            return 1
        finally:
            seconds = time.perf_counter() - start
            if child.is_alive():
                os.kill(child.pid or 0, signal.SIGTERM)
            child.join(30)
        peak = Path(name, "peak")
        peak_mb = int(peak.read_text()) / 1024 if peak.exists() else float("nan")
        problems = _check(directory, seen, args.clock is not None)
    ordered = sorted(latencies)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    terms = "untimed" if args.clock is None else "{}+{} rated".format(*args.clock)
    print(
        f"{clients} clients, {len(seen)} games at once, {len(latencies)} moves in "
        f"{seconds:.1f} s ({terms}; {args.lobby} in the lobby got {pushes} lobby pushes)"
    )
    print(
        f"move-to-update latency: median {statistics.median(ordered) * 1000:.1f} ms, "
        f"p95 {p95 * 1000:.1f} ms, max {ordered[-1] * 1000:.1f} ms"
    )
    print(f"server peak memory: {peak_mb:.1f} MB")
    if problems:
        for problem in problems:
            print(f"  {problem}")
        return 1
    print(f"database: {len(seen)} games complete and consistent, integrity ok")
    return 0
