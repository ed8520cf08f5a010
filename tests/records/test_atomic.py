"""Atomic writes: the old file or the new one, never a torn one, whatever fails when;
and damaged files set aside under a timestamped name, never deleted."""

import errno
import os
import select
import stat
import subprocess
import sys
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from reversi_tui.records import atomic
from reversi_tui.records.atomic import atomic_write, set_aside
from reversi_tui.records.paths import StorageError

OLD = b'{"the": "previous save"}\n'
NEW = '{"the": "new save", "moves": ["d3", "c5"]}\n'


def leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.endswith(".tmp"))


def test_text_and_bytes_are_written_whole_and_private(tmp_path: Path) -> None:
    target = tmp_path / "save.json"
    atomic_write(target, NEW)
    assert target.read_text(encoding="utf-8") == NEW
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    atomic_write(target, b"\x00\xffbytes")
    assert target.read_bytes() == b"\x00\xffbytes"
    assert leftovers(tmp_path) == []


def test_the_file_is_synced_then_renamed_then_the_directory_synced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(handle: int) -> None:
        kind = "directory" if stat.S_ISDIR(os.fstat(handle).st_mode) else "file"
        calls.append(f"fsync {kind}")
        real_fsync(handle)

    def replace(source: Any, target: Any) -> None:
        calls.append("replace")
        real_replace(source, target)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    atomic_write(tmp_path / "save.json", NEW)
    assert calls == ["fsync file", "replace", "fsync directory"]


class TornWrite:
    """A file that takes half the data and then reports the disk full."""

    def __init__(self, handle: int, mode: str) -> None:
        self.file = open(handle, mode)  # noqa: SIM115 - closed in __exit__

    def __enter__(self) -> "TornWrite":
        return self

    def __exit__(self, *exc: object) -> None:
        self.file.close()

    def write(self, data: bytes) -> int:
        self.file.write(data[: len(data) // 2])
        self.file.flush()
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def fileno(self) -> int:
        return self.file.fileno()

    def flush(self) -> None:
        self.file.flush()


def fail_replace(monkeypatch: pytest.MonkeyPatch) -> None:
    def replace(source: Any, target: Any) -> None:
        raise OSError(errno.EACCES, os.strerror(errno.EACCES))

    monkeypatch.setattr(os, "replace", replace)


def fail_fsync(monkeypatch: pytest.MonkeyPatch) -> None:
    def fsync(handle: int) -> None:
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(os, "fsync", fsync)


def fail_half_way(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(atomic, "open", TornWrite, raising=False)


@pytest.mark.parametrize(
    ("fail", "words"),
    [
        (fail_half_way, "No space left on device"),
        (fail_fsync, "Input/output error"),
        (fail_replace, "Permission denied"),
    ],
    ids=["disk full mid-write", "fsync fails", "rename refused"],
)
def test_a_failed_write_leaves_the_old_file_and_no_temporary(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    fail: Callable[[pytest.MonkeyPatch], None],
    words: str,
) -> None:
    target = tmp_path / "save.json"
    target.write_bytes(OLD)
    fail(monkeypatch)
    with pytest.raises(StorageError) as caught:
        atomic_write(target, NEW * 1000)
    monkeypatch.undo()
    assert target.read_bytes() == OLD
    assert leftovers(tmp_path) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["save.json"]
    message = str(caught.value)
    assert words in message and str(tmp_path) in message and "\n" not in message


def test_an_interrupt_mid_write_removes_the_temporary_and_goes_on_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "save.json"
    target.write_bytes(OLD)

    def fsync(handle: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", fsync)
    with pytest.raises(KeyboardInterrupt):
        atomic_write(target, NEW)
    assert target.read_bytes() == OLD
    assert leftovers(tmp_path) == []


def test_a_directory_that_refuses_new_files_is_a_storage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As root, chmod does not stop us: the refusal is simulated at the open."""

    def refuse(*args: Any, **kwargs: Any) -> int:
        raise OSError(errno.EACCES, os.strerror(errno.EACCES))

    monkeypatch.setattr(os, "open", refuse)
    with pytest.raises(StorageError) as caught:
        atomic_write(tmp_path / "save.json", NEW)
    assert str(caught.value) == f"{tmp_path} is not writable (Permission denied)"


def test_a_path_under_a_file_is_a_storage_error(tmp_path: Path) -> None:
    blocker = tmp_path / "autosave"
    blocker.write_text("a file")
    with pytest.raises(StorageError) as caught:
        atomic_write(blocker / "save.json", NEW)
    assert str(caught.value) == f"{blocker} is not a directory"


def test_a_missing_directory_is_a_storage_error(tmp_path: Path) -> None:
    with pytest.raises(StorageError) as caught:
        atomic_write(tmp_path / "gone" / "save.json", NEW)
    assert str(caught.value).startswith(f"{tmp_path / 'gone'} does not exist")


WRITER = """
import sys
from pathlib import Path
from reversi_tui.records.atomic import atomic_write

path = Path(sys.argv[1])
count = 0
while True:
    count += 1
    atomic_write(path, f"{count}:" + "abcdefgh"[count % 8] * 100_000)
    print(count, flush=True)
"""


def read_line(child: subprocess.Popen[str]) -> str:
    assert child.stdout is not None
    ready, _, _ = select.select([child.stdout], [], [], 60)
    assert ready, "the writer said nothing for a minute"
    return child.stdout.readline()


@pytest.mark.parametrize("writes", [1, 2, 5, 9])
def test_a_writer_killed_at_any_moment_leaves_a_whole_file(tmp_path: Path, writes: int) -> None:
    """SIGKILL a process writing in a loop, right after its ``writes``-th save."""
    target = tmp_path / "save.json"
    child = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(target)], stdout=subprocess.PIPE, text=True
    )
    try:
        for _ in range(writes):
            assert read_line(child).strip()
        child.kill()
    finally:
        child.kill()
        child.wait()
        if child.stdout is not None:
            child.stdout.close()
    count, _, body = target.read_text().partition(":")
    assert int(count) >= writes
    assert body == "abcdefgh"[int(count) % 8] * 100_000


def test_set_aside_renames_with_a_timestamp_and_keeps_the_contents(tmp_path: Path) -> None:
    damaged = tmp_path / "game.json"
    damaged.write_bytes(b"\x00garbage")
    before = datetime.now().replace(microsecond=0)
    moved = set_aside(damaged)
    after = datetime.now()
    assert not damaged.exists()
    assert moved.parent == tmp_path and moved.read_bytes() == b"\x00garbage"
    prefix = "game.json.damaged-"
    assert moved.name.startswith(prefix)
    stamp = datetime.strptime(moved.name.removeprefix(prefix), "%Y%m%dT%H%M%S")
    assert before <= stamp <= after


def test_set_aside_never_overwrites_an_earlier_damaged_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Frozen(datetime):
        @classmethod
        def now(cls, tz: Any = None) -> "Frozen":
            return cls(2026, 11, 23, 9, 15, 0)

    monkeypatch.setattr(atomic, "datetime", Frozen)
    damaged = tmp_path / "game.json"
    names = []
    for number in range(3):
        damaged.write_text(f"damaged {number}")
        names.append(set_aside(damaged).name)
    assert names == [
        "game.json.damaged-20261123T091500",
        "game.json.damaged-20261123T091500-1",
        "game.json.damaged-20261123T091500-2",
    ]
    for number, name in enumerate(names):
        assert (tmp_path / name).read_text() == f"damaged {number}"


def test_setting_aside_a_file_that_is_gone_is_a_storage_error(tmp_path: Path) -> None:
    with pytest.raises(StorageError) as caught:
        set_aside(tmp_path / "gone.json")
    assert isinstance(caught.value.error, FileNotFoundError)
    assert list(tmp_path.iterdir()) == []


# What is at the path: a regular file is replaced; a symbolic link is written through;
# anything else (a FIFO, a device, a directory) is refused and left as it is.


def test_a_fifo_is_refused_and_left_as_it_is(tmp_path: Path) -> None:
    target = tmp_path / "games.pgn"
    os.mkfifo(target)
    with pytest.raises(StorageError) as caught:
        atomic_write(target, NEW)
    assert str(caught.value) == f"{target} is a FIFO (named pipe), not a regular file"
    assert stat.S_ISFIFO(os.lstat(target).st_mode)
    assert leftovers(tmp_path) == []


def test_a_directory_is_refused_by_its_own_name(tmp_path: Path) -> None:
    target = tmp_path / "games.pgn"
    target.mkdir()
    with pytest.raises(StorageError) as caught:
        atomic_write(target, NEW)
    assert str(caught.value) == f"{target} is a directory, not a regular file"
    assert target.is_dir() and leftovers(tmp_path) == []


@pytest.mark.parametrize("hops", [1, 2])
def test_a_symbolic_link_is_written_through_and_kept(tmp_path: Path, hops: int) -> None:
    """The file it names gets the new contents (written beside it); the link stays a link."""
    (tmp_path / "real").mkdir()
    real = tmp_path / "real" / "games.pgn"
    real.write_bytes(OLD)
    link = tmp_path / "games.pgn"
    link.symlink_to(Path("real") / "games.pgn")  # relative, as ln -s makes them
    for hop in range(1, hops):
        link = tmp_path / f"hop{hop}.pgn"
        link.symlink_to(tmp_path / ("games.pgn" if hop == 1 else f"hop{hop - 1}.pgn"))
    atomic_write(link, NEW)
    assert link.is_symlink() and os.path.realpath(link) == str(real)
    assert real.read_text(encoding="utf-8") == NEW
    assert leftovers(tmp_path) == [] and leftovers(real.parent) == []


def test_a_dangling_link_makes_the_file_it_names(tmp_path: Path) -> None:
    link = tmp_path / "games.pgn"
    link.symlink_to(tmp_path / "new.pgn")
    atomic_write(link, NEW)
    assert link.is_symlink() and (tmp_path / "new.pgn").read_text(encoding="utf-8") == NEW


def test_a_link_that_dangles_into_a_missing_directory_is_a_storage_error(tmp_path: Path) -> None:
    link = tmp_path / "games.pgn"
    link.symlink_to(tmp_path / "gone" / "games.pgn")
    with pytest.raises(StorageError) as caught:
        atomic_write(link, NEW)
    assert str(caught.value).startswith(f"{tmp_path / 'gone'} does not exist")
    assert link.is_symlink() and sorted(p.name for p in tmp_path.iterdir()) == ["games.pgn"]


def test_a_link_to_a_fifo_is_refused_and_both_are_kept(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    link = tmp_path / "games.pgn"
    link.symlink_to(fifo)
    with pytest.raises(StorageError) as caught:
        atomic_write(link, NEW)
    assert str(caught.value) == f"{link} links to {fifo}, a FIFO (named pipe), not a regular file"
    assert link.is_symlink() and stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert leftovers(tmp_path) == []


def test_a_link_in_a_loop_is_refused(tmp_path: Path) -> None:
    link = tmp_path / "games.pgn"
    link.symlink_to(tmp_path / "other.pgn")
    (tmp_path / "other.pgn").symlink_to(link)
    with pytest.raises(StorageError) as caught:
        atomic_write(link, NEW)
    message = str(caught.value)
    assert message.startswith(f"{link} is a symbolic link that cannot be followed (")
    assert "\n" not in message
    assert link.is_symlink() and (tmp_path / "other.pgn").is_symlink()
