"""Who runs the server: the kernel's word, the player's decision, nothing sent before it.

As root, a child process becomes an unused uid and listens on a fresh abstract
name, as an impostor would on the per-host one; it reports how many bytes the
client sent it. The client must name that uid (from ``SO_PEERCRED``, not from
anything the server says) and send nothing until the player agrees.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from reversi_tui.net.client import Client, ClientStopped
from reversi_tui.net.online import OnlineSession
from reversi_tui.net.trust import KNOWN_SERVERS, KnownServers, Owner, trusted_by_rule

from ..timing import patience

IMPOSTOR = 40011
WAIT = patience(10.0)
needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="needs root to become another user")


class Impostor:
    """A listener run by another uid on an abstract name; counts what it is sent."""

    def __init__(self, uid: int, connections: int = 1) -> None:
        self.name = f"\0reversi-impostor-{uuid.uuid4().hex}"
        report_r, report_w = os.pipe()
        ready_r, ready_w = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:
            code = 1
            try:
                os.close(report_r)
                os.close(ready_r)
                os.setgroups([])
                os.setgid(uid)
                os.setuid(uid)
                listening = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                listening.bind(self.name)
                listening.listen(4)
                os.write(ready_w, b"1")
                listening.settimeout(30.0)
                for _ in range(connections):
                    connection, _ = listening.accept()
                    connection.settimeout(3.0)
                    received = b""
                    with contextlib.suppress(OSError):
                        while chunk := connection.recv(4096):
                            received += chunk
                    os.write(report_w, received)
                code = 0
            finally:
                os._exit(code)
        os.close(report_w)
        os.close(ready_w)
        assert os.read(ready_r, 1) == b"1"
        os.close(ready_r)
        self.report = report_r

    def received(self) -> bytes:
        """What the client sent, once the impostor's connection has ended."""
        data = b""
        while chunk := os.read(self.report, 65536):
            data += chunk
        os.close(self.report)
        os.waitpid(self.pid, 0)
        return data


@pytest.fixture
def impostor() -> Iterator[Impostor]:
    running = Impostor(IMPOSTOR)
    yield running
    with contextlib.suppress(ChildProcessError, OSError):
        os.kill(running.pid, 9)
        os.waitpid(running.pid, 0)


@needs_root
async def test_a_server_run_by_another_user_is_named_and_refused_before_hello(
    impostor: Impostor,
) -> None:
    asked: list[Owner] = []

    async def vet(owner: Owner, address: str) -> bool:
        asked.append(owner)
        return False

    statuses: list[str] = []
    client = Client(lambda _: None, statuses.append, socket=impostor.name, vet=vet)
    with pytest.raises(ClientStopped, match=f"uid{IMPOSTOR}"):
        await asyncio.wait_for(client.run(), WAIT)
    assert asked == [Owner(IMPOSTOR, f"uid{IMPOSTOR}")]
    assert client.owner == Owner(IMPOSTOR, f"uid{IMPOSTOR}")
    assert await asyncio.to_thread(impostor.received) == b""  # not even hello


@needs_root
async def test_without_a_player_to_ask_another_users_server_is_refused(
    impostor: Impostor,
) -> None:
    client = Client(lambda _: None, lambda _: None, socket=impostor.name)
    with pytest.raises(ClientStopped, match="chose not to use it"):
        await asyncio.wait_for(client.run(), WAIT)
    assert await asyncio.to_thread(impostor.received) == b""


@needs_root
async def test_an_accepted_server_that_never_welcomes_is_given_up_on(
    impostor: Impostor,
) -> None:
    async def vet(owner: Owner, address: str) -> bool:
        return True

    statuses: list[str] = []
    client = Client(
        lambda _: None,
        statuses.append,
        socket=impostor.name,
        vet=vet,
        welcome_timeout=0.3,
        backoff=(0.05,),
    )
    running = asyncio.create_task(client.run())
    async with asyncio.timeout(WAIT):
        while not any("no welcome within 0.3 s" in s for s in statuses):
            await asyncio.sleep(0.02)
    await client.close()
    running.cancel()
    with contextlib.suppress(asyncio.CancelledError, ClientStopped):
        await running
    assert b'"hello"' in await asyncio.to_thread(impostor.received)


async def test_a_silent_server_makes_the_client_back_off_as_for_a_dead_one(
    tmp_path: Path,
) -> None:
    connections = 0

    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal connections
        connections += 1
        with contextlib.suppress(OSError):
            await reader.read()

    path = str(tmp_path / "silent.sock")
    listening = await asyncio.start_unix_server(silent, path)
    statuses: list[str] = []
    client = Client(
        lambda _: None, statuses.append, socket=path, welcome_timeout=0.1, backoff=(0.01, 0.2)
    )
    running = asyncio.create_task(client.run())
    async with asyncio.timeout(WAIT):
        while sum("does not answer" in s for s in statuses) < 3:
            await asyncio.sleep(0.01)
    await client.close()
    running.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await running
    listening.close()
    waits = [s.split("Trying again in ")[1].split(",")[0] for s in statuses]
    assert waits[:3] == ["0.01 s", "0.2 s", "0.2 s"]  # growing, not reset by a connect
    assert all("does not answer (no welcome within 0.1 s)" in s for s in statuses)


def test_root_the_user_and_the_system_services_owner_are_trusted(tmp_path: Path) -> None:
    me = os.getuid()
    assert trusted_by_rule(Owner(0, "root"), "\0x") == "root"
    assert trusted_by_rule(Owner(me, "me"), "\0x") in ("root", "you")
    assert trusted_by_rule(Owner(me + 40000, "carol"), "\0x") is None
    directory = tmp_path / "run"
    directory.mkdir(mode=0o755)
    sock = directory / "reversi.sock"
    sock.touch()
    owner = os.stat(sock).st_uid
    if os.stat(directory).st_uid == 0:  # root's closed directory: its socket's owner runs it
        assert trusted_by_rule(Owner(owner, "svc"), str(sock), sock) is not None
        assert trusted_by_rule(Owner(owner + 1, "x"), str(sock), sock) is None
    directory.chmod(0o777)
    assert trusted_by_rule(Owner(owner + 40000, "svc"), str(sock), sock) is None


async def test_the_answer_is_remembered_per_owner_and_a_new_owner_asks_loudly(
    tmp_path: Path,
) -> None:
    warnings: list[str] = []
    answers = [True, False]

    async def ask(owner: Owner, warning: str) -> bool:
        warnings.append(warning)
        return answers.pop(0)

    client = Client(lambda _: None, lambda _: None, socket="/nowhere")
    session = OnlineSession(client, known=KnownServers(tmp_path), ask=ask)
    carol, dave = Owner(40021, "carol"), Owner(40022, "dave")
    assert client.vet is not None
    assert await client.vet(carol, "\0reversi-tui-v1")
    assert "carol can read and change every game" in warnings[0]
    assert await client.vet(carol, "\0reversi-tui-v1")  # remembered: not asked again
    assert len(warnings) == 1
    assert not await client.vet(dave, "\0reversi-tui-v1")
    assert "CHANGED: it was carol, it is now dave" in warnings[1]
    again = KnownServers(tmp_path)  # another run reads the same file
    assert again.decision(carol) is True and again.decision(dave) is False
    assert again.decision(Owner(40099, "carol")) is None  # same name, another uid: ask
    session.forget_refusal()  # nothing to forget: the client has no owner yet
    assert KnownServers(tmp_path).decision(dave) is False


def test_a_damaged_known_servers_file_is_set_aside(tmp_path: Path) -> None:
    (tmp_path / KNOWN_SERVERS).write_text("{not json")
    known = KnownServers(tmp_path)
    assert known.decision(Owner(1, "x")) is None
    assert known.problems and "damaged" in known.problems[0]
    assert list(tmp_path.glob(f"{KNOWN_SERVERS}.damaged-*"))
