"""``reversi bench online``: many clients playing whole games at once on one server.

The server runs in a child process (as ``reversi serve`` would), on a socket in a
private temporary directory, with its own SQLite store. Each client is a separate
connection; as one user cannot play itself, the benchmark names the clients by
the address each binds before connecting (the identity of the tests), which is
safe only because nobody else can reach the private directory. Pairs challenge
each other and play random legal moves to the end, all games at once. Measured:
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


async def _connect(directory: Path, name: str) -> Player:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(str(directory / "clients" / f"{name}-0"))
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, str(directory / "s.sock"))
    reader, writer = await asyncio.open_unix_connection(sock=sock, limit=1 << 16)
    player = Player(name, reader, writer)
    from reversi_tui.net import protocol

    player.send(type="hello", version=protocol.VERSION)
    await player.expect("welcome")
    return player


async def _play_pair(
    black: Player, white: Player, rng: random.Random, latencies: list[float]
) -> tuple[int, str]:
    """One game between two clients: challenge, accept, random legal moves to the end."""
    black.send(type="challenge", to=white.name, color="black")
    challenge = (await black.expect("challenge_sent"))["challenge"]
    white.send(type="accept", challenge=challenge)
    state = await white.expect("state")
    game_id = int(state["game"])
    await black.expect("state")
    game = Game()
    sides = {0: black, 1: white}
    while not game.is_over:
        mover = sides[int(game.turn)]
        waiter = sides[1 - int(game.turn)]
        move = rng.choice(game.legal_moves)
        ply = sum(1 for m in game.moves if m >= 0)
        started = time.perf_counter()
        mover.send(type="move", game=game_id, ply=ply, square=square_name(move))
        while True:  # the opponent's update: the measured latency
            update = await waiter.recv()
            if update["type"] == "state" and update["ply"] == ply + 1:
                break
        latencies.append(time.perf_counter() - started)
        while True:  # the mover's own copy
            own = await mover.recv()
            if own["type"] == "state" and own["ply"] == ply + 1:
                break
        game.play(move)
        if update["moves"] != "".join(square_name(m) for m in game.moves if m >= 0):
            raise AssertionError(f"game {game_id}: the server's moves differ")
    return game_id, "".join(square_name(m) for m in game.moves if m >= 0)


async def _bench(directory: Path, clients: int, seed: int) -> tuple[list[float], dict[int, str]]:
    (directory / "clients").mkdir()
    players = [await _connect(directory, f"p{i:03d}") for i in range(clients)]
    latencies: list[float] = []
    rng = random.Random(seed)
    pairs = [(players[i], players[i + 1]) for i in range(0, clients - 1, 2)]
    results = await asyncio.gather(
        *(_play_pair(b, w, random.Random(rng.random()), latencies) for b, w in pairs)
    )
    for player in players:
        player.writer.close()
    return latencies, dict(results)


def _check(directory: Path, seen: dict[int, str]) -> list[str]:
    """Every game in the store is finished, legal, and the one the clients saw."""
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
        "--time-limit",
        type=int_range(1, 3600),
        default=300,
        metavar="S",
        help="give up after S seconds (default: 300)",
    )
    bench_online.set_defaults(handler=run)


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
            latencies, seen = asyncio.run(
                asyncio.wait_for(_bench(directory, clients, args.seed), args.time_limit)
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
        problems = _check(directory, seen)
    ordered = sorted(latencies)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    print(
        f"{clients} clients, {len(seen)} games at once, {len(latencies)} moves in {seconds:.1f} s"
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
