"""Where games live: --data-dir over $REVERSI_DATA_DIR over the platform's directories,
settings beside the data when a directory is named, private directories made 0700,
and a clear one-line StorageError when a directory cannot be made."""

import errno
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import platformdirs
import pytest

from reversi_tui.records.paths import (
    APP_NAME,
    DATA_DIR_ENV,
    Places,
    StorageError,
    ensure_private_dir,
    storage_error,
)


@pytest.fixture(params=[0o000, 0o022, 0o277], ids=["open", "usual", "odd"])
def umask(request: pytest.FixtureRequest) -> Iterator[int]:
    """A umask that would leave new directories open to everybody, the usual one, and
    one that would take the owner's own write permission away."""
    old = os.umask(request.param)
    yield request.param
    os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_an_override_wins_over_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "from-env"))
    places = Places.resolve(tmp_path / "given")
    assert places == Places(tmp_path / "given", tmp_path / "given")


def test_the_environment_names_data_and_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "from-env"))
    places = Places.resolve()
    assert places.data == places.config == tmp_path / "from-env"
    assert places.settings_file == tmp_path / "from-env" / "settings.toml"
    assert places.autosave_dir == tmp_path / "from-env" / "autosave"
    assert places.games_dir == tmp_path / "from-env" / "games"
    assert places.database == tmp_path / "from-env" / "records.sqlite3"


@pytest.mark.parametrize("unset", [None, ""])
def test_without_either_the_platform_directories_are_used(
    unset: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    if unset is None:
        monkeypatch.delenv(DATA_DIR_ENV, raising=False)
    else:
        monkeypatch.setenv(DATA_DIR_ENV, unset)
    places = Places.resolve()
    assert places.data == Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
    assert places.config == Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))
    assert places.data != places.config
    assert places.data.name == places.config.name == "reversi-tui"


def test_a_home_relative_override_is_expanded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    assert Places.resolve("~/games").data == tmp_path / "games"


def test_a_relative_override_is_made_absolute(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert Places.resolve("here").data == tmp_path / "here"


def test_resolving_creates_nothing(tmp_path: Path) -> None:
    Places.resolve(tmp_path / "data")
    assert list(tmp_path.iterdir()) == []


def test_new_directories_are_private_whatever_the_umask(tmp_path: Path, umask: int) -> None:
    deep = tmp_path / "share" / "reversi-tui" / "autosave"
    assert ensure_private_dir(deep) == deep
    assert deep.is_dir()
    for made in (deep, deep.parent, deep.parent.parent):
        assert mode(made) == 0o700, made


def test_an_existing_directory_is_left_as_its_owner_set_it(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o755)
    ensure_private_dir(shared / "mine")
    assert mode(shared) == 0o755
    assert mode(shared / "mine") == 0o700
    ensure_private_dir(shared / "mine")  # again: nothing to do
    assert mode(shared / "mine") == 0o700


@pytest.mark.parametrize("where", ["itself", "on the way"])
def test_a_file_in_the_way_is_a_storage_error(tmp_path: Path, where: str) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("not a directory")
    target = blocker if where == "itself" else blocker / "autosave"
    with pytest.raises(StorageError) as caught:
        ensure_private_dir(target)
    assert str(caught.value) == f"{blocker} is not a directory"
    assert blocker.read_text() == "not a directory"


@pytest.mark.parametrize(
    ("code", "words"),
    [(errno.EACCES, "Permission denied"), (errno.ENOSPC, "No space left on device")],
)
def test_a_directory_the_system_refuses_is_a_storage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int, words: str
) -> None:
    """Tests run as root, whom permissions do not stop: the refusal is simulated."""

    def refuse(
        self: Path, mode: int = 0o777, parents: bool = False, exist_ok: bool = False
    ) -> None:
        raise OSError(code, os.strerror(code), str(self))

    monkeypatch.setattr(Path, "mkdir", refuse)
    with pytest.raises(StorageError) as caught:
        ensure_private_dir(tmp_path / "data")
    message = str(caught.value)
    assert str(tmp_path / "data") in message and words in message
    assert "\n" not in message and "Traceback" not in message
    assert isinstance(caught.value.error, OSError) and caught.value.error.errno == code


@pytest.mark.parametrize(
    ("code", "doing", "expected"),
    [
        (errno.EACCES, "write", "/d is not writable (Permission denied)"),
        (errno.EROFS, "write", "/d is not writable (Read-only file system)"),
        (errno.EACCES, "read", "cannot read /d (Permission denied)"),
        (errno.ENOSPC, "write", "no room left to write /d (No space left on device)"),
        (errno.ENOTDIR, "write", "/d is not a directory"),
        (errno.ENOENT, "write", "/d does not exist (No such file or directory)"),
        (errno.EIO, "write", "cannot write /d (Input/output error)"),
    ],
)
def test_storage_errors_say_what_and_why_in_one_line(code: int, doing: str, expected: str) -> None:
    error = storage_error(OSError(code, os.strerror(code)), Path("/d"), doing)
    assert str(error) == expected
