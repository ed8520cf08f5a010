"""The settings file: TOML read with tomllib and written atomically; a broken file is set
aside with one message, a wrong value falls back for its key alone, unknown keys are ignored."""

import dataclasses
import errno
import os
import stat
import tomllib
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from reversi_tui.records.paths import StorageError
from reversi_tui.records.settings_file import StoredSettings, load_settings, save_settings

#: What the message says a player is.
PLAYERS_EXPECTED = (
    "a player: human, a level (easy, medium, hard, expert), a level with its time or "
    "depth (hard/2.5s, hard/6ply, hard/0.5s/6ply), gtp:COMMAND, nboard:COMMAND or "
    "engine:NAME"
)

CHOSEN = StoredSettings(
    theme="gruvbox", black="hard", white="human", handicap=3, handicap_colour="white",
    think_time=1.5, pace=0.25, bell=True,
)  # fmt: skip


def settings_path(tmp_path: Path, text: str | bytes) -> Path:
    path = tmp_path / "settings.toml"
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    return path


def damaged_copies(path: Path) -> list[Path]:
    return sorted(path.parent.glob(f"{path.name}.damaged-*"))


def test_a_missing_file_gives_the_defaults_quietly(tmp_path: Path) -> None:
    assert load_settings(tmp_path / "settings.toml") == (StoredSettings(), None)


@pytest.mark.parametrize("settings", [CHOSEN, StoredSettings()], ids=["chosen", "defaults"])
def test_settings_round_trip(tmp_path: Path, settings: StoredSettings) -> None:
    path = tmp_path / "settings.toml"
    save_settings(path, settings)
    assert load_settings(path) == (settings, None)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["settings.toml"]


def test_the_file_is_plain_toml_a_person_can_read(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    save_settings(path, CHOSEN)
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# reversi-tui settings")
    assert tomllib.loads(text) == {
        f.name: getattr(CHOSEN, f.name)
        for f in fields(CHOSEN)
        if f.name not in ("engines", "unusable_engines")
    }
    assert 'black = "hard"' in text and "handicap = 3" in text


def test_a_setting_that_is_none_is_left_out(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    save_settings(path, StoredSettings())
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    assert "theme" not in data and "think_time" not in data


def test_saving_replaces_the_whole_file(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    save_settings(path, CHOSEN)
    save_settings(path, StoredSettings(black="easy"))
    assert load_settings(path) == (StoredSettings(black="easy"), None)


def test_unknown_keys_are_ignored(tmp_path: Path) -> None:
    path = settings_path(
        tmp_path, 'white = "hard"\nsound = true\nfuture_feature = [1, 2]\n[window]\nsize = 3\n'
    )
    assert load_settings(path) == (StoredSettings(white="hard"), None)
    assert path.exists() and damaged_copies(path) == []


def test_a_pace_of_no_pause_reads_back(tmp_path: Path) -> None:
    """The new-game dialog's pace of computer against computer (issue 17)."""
    settings, problem = load_settings(settings_path(tmp_path, "pace = 0\n"))
    assert settings.pace == 0.0 and isinstance(settings.pace, float)
    assert problem is None


def test_a_whole_number_think_time_reads_as_seconds(tmp_path: Path) -> None:
    settings, problem = load_settings(settings_path(tmp_path, "think_time = 2\n"))
    assert settings.think_time == 2.0 and isinstance(settings.think_time, float)
    assert problem is None


@pytest.mark.parametrize(
    ("line", "key"),
    [
        ("black = 3", "black"),
        ('black = "grandmaster"', "black"),
        ('black = "Hard"', "black"),
        ('black = "hard/2.5"', "black"),
        ('white = "gtp:"', "white"),
        ("white = true", "white"),
        ('handicap = "two"', "handicap"),
        ("handicap = 5", "handicap"),
        ("handicap = -1", "handicap"),
        ("handicap = true", "handicap"),
        ("handicap = 2.0", "handicap"),
        ('handicap_colour = "red"', "handicap_colour"),
        ("think_time = 0", "think_time"),
        ("think_time = -1.5", "think_time"),
        ("think_time = inf", "think_time"),
        ("think_time = nan", "think_time"),
        ('think_time = "fast"', "think_time"),
        ("pace = -1", "pace"),
        ("pace = 3601", "pace"),
        ("pace = nan", "pace"),
        ("pace = true", "pace"),
        ('pace = "slow"', "pace"),
        ("theme = 7", "theme"),
        ('theme = ""', "theme"),
        ("theme = [1, 2]", "theme"),
        ("bell = 1", "bell"),
    ],
)
def test_a_wrong_value_falls_back_for_that_key_only(tmp_path: Path, line: str, key: str) -> None:
    lines = {
        "theme": 'theme = "gruvbox"',
        "black": 'black = "hard"',
        "white": 'white = "human"',
        "handicap": "handicap = 3",
        "handicap_colour": 'handicap_colour = "white"',
        "think_time": "think_time = 1.5",
        "pace": "pace = 0.25",
        "bell": "bell = true",
    }
    lines[key] = line
    path = settings_path(tmp_path, "\n".join(lines.values()) + "\n")
    settings, problem = load_settings(path)
    default = getattr(StoredSettings(), key)
    expected = {f.name: getattr(CHOSEN, f.name) for f in fields(CHOSEN)} | {key: default}
    assert settings == StoredSettings(**expected)
    assert problem is not None and "\n" not in problem
    assert problem.startswith(f"Settings file {path}: default used for {key} = ")
    assert path.exists() and damaged_copies(path) == []  # the rest of it is still good


def test_every_wrong_value_is_named_in_the_one_message(tmp_path: Path) -> None:
    path = settings_path(tmp_path, 'black = "nobody"\nwhite = "easy"\nhandicap = 9\n')
    settings, problem = load_settings(path)
    assert settings == StoredSettings(white="easy")
    assert problem == (
        f"Settings file {path}: default used for black = 'nobody' "
        f"(expected {PLAYERS_EXPECTED}); "
        "handicap = 9 (expected a whole number from 0 to 4)."
    )


BROKEN: dict[str, bytes] = {
    "not TOML": b"this is not toml at all\n",
    "cut short": b'black = "hard"\nwhite = "hu',
    "duplicate key": b'black = "hard"\nblack = "easy"\n',
    "binary": bytes(range(256)),
    "not UTF-8": b'theme = "caf\xe9"\n',
    "far too large": b"# " + b"x" * (1 << 17) + b"\n",
}


@pytest.mark.parametrize("damage", list(BROKEN))
def test_a_broken_file_is_set_aside_with_one_message(tmp_path: Path, damage: str) -> None:
    path = settings_path(tmp_path, BROKEN[damage])
    settings, problem = load_settings(path)
    assert settings == StoredSettings()
    assert not path.exists()
    [kept] = damaged_copies(path)
    assert kept.read_bytes() == BROKEN[damage]  # kept, not deleted
    assert problem is not None and "\n" not in problem
    assert str(path) in problem and kept.name in problem and "defaults are used" in problem
    assert load_settings(path) == (StoredSettings(), None)  # said once: next time all is quiet


def test_an_unreadable_file_gives_the_defaults_and_a_message(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.mkdir()  # not a file at all
    settings, problem = load_settings(path)
    assert settings == StoredSettings()
    assert problem is not None and "\n" not in problem and str(path) in problem
    assert path.is_dir()


def test_a_broken_file_that_cannot_be_set_aside_is_still_only_a_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = settings_path(tmp_path, b"not = toml = at all")

    def refuse(source: Any, target: Any) -> None:
        raise OSError(errno.EACCES, os.strerror(errno.EACCES))

    monkeypatch.setattr(os, "rename", refuse)
    settings, problem = load_settings(path)
    assert settings == StoredSettings()
    assert problem is not None and "cannot be set aside" in problem and "\n" not in problem
    assert path.exists()


def test_saving_where_the_directory_is_a_file_is_a_storage_error(tmp_path: Path) -> None:
    blocker = tmp_path / "config"
    blocker.write_text("a file")
    with pytest.raises(StorageError, match="is not a directory"):
        save_settings(blocker / "settings.toml", CHOSEN)


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EACCES])
def test_saving_on_a_refusing_disk_is_a_storage_error_and_keeps_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int
) -> None:
    path = tmp_path / "settings.toml"
    save_settings(path, CHOSEN)

    def refuse(source: Any, target: Any) -> None:
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(StorageError) as caught:
        save_settings(path, StoredSettings())
    monkeypatch.undo()
    assert os.strerror(code) in str(caught.value)
    assert load_settings(path) == (CHOSEN, None)


def test_a_player_may_have_its_own_time_or_depth(tmp_path: Path) -> None:
    chosen = StoredSettings(black="hard/2.5s", white="expert/0.5s/8ply")
    path = tmp_path / "settings.toml"
    save_settings(path, chosen)
    assert load_settings(path) == (chosen, None)
    assert 'black = "hard/2.5s"' in path.read_text(encoding="utf-8")
    written = settings_path(tmp_path, 'black = "hard/8ply/2.50s"\n')
    assert load_settings(written) == (StoredSettings(black="hard/2.5s/8ply"), None)


def test_an_engine_is_a_player_too(tmp_path: Path) -> None:
    path = settings_path(tmp_path, 'black = "gtp:edax -gtp"\nwhite = "engine:Rhino"\n')
    expected = StoredSettings(black="gtp:edax -gtp", white="engine:Rhino")
    assert load_settings(path) == (expected, None)


ENGINES = """black = "engine:Rhino"

[engines.Rhino]
protocol = "gtp"
command = "gtp-rhino -l 5"

[engines."Edax 4.4"]
protocol = "nboard"
command = ["edax", "-n", "1"]
cwd = "/opt/edax"
think_time = 2
"""


def test_engines_are_configured_by_name_and_kept_when_the_file_is_written(
    tmp_path: Path,
) -> None:
    """Issue 19: "engine:NAME names one the user has configured in the settings file
    (name, protocol, command line, optional working directory)"."""
    from reversi_tui.match import PlayerKind
    from reversi_tui.match.engine_config import EngineConfig

    path = settings_path(tmp_path, ENGINES)
    settings, problem = load_settings(path)
    assert problem is None and settings.black == "engine:Rhino"
    assert settings.engines == {
        "Rhino": EngineConfig(PlayerKind.GTP, ("gtp-rhino", "-l", "5")),
        "Edax 4.4": EngineConfig(PlayerKind.NBOARD, ("edax", "-n", "1"), "/opt/edax", 2.0),
    }
    save_settings(path, settings)
    assert load_settings(path) == (settings, None)
    assert "[engines.Rhino]" in path.read_text(encoding="utf-8")


def test_an_engine_table_that_is_wrong_is_left_out_and_named(tmp_path: Path) -> None:
    path = settings_path(tmp_path, ENGINES.replace('"nboard"', '"uci"'))
    settings, problem = load_settings(path)
    assert list(settings.engines) == ["Rhino"]
    assert problem == (
        f"Settings file {path}: default used for engine 'Edax 4.4' left out "
        "(protocol = 'uci' (expected 'gtp' or 'nboard'))."
    )


def test_the_bell_is_a_boolean(tmp_path: Path) -> None:
    """Ringing on your move online is on only when the file says true (issue 18)."""
    assert load_settings(settings_path(tmp_path, "bell = true\n"))[0].bell is True
    settings, problem = load_settings(settings_path(tmp_path, 'bell = "yes"\n'))
    assert settings.bell is False and problem is not None and "true or false" in problem


@pytest.mark.parametrize("line", ["think_time = 1e9", 'black = "hard/99999s"'])
def test_a_think_time_over_an_hour_is_refused(tmp_path: Path, line: str) -> None:
    """A settings file cannot make the computer think for days (issue 17)."""
    settings, problem = load_settings(settings_path(tmp_path, line + "\n"))
    assert settings == StoredSettings() and problem is not None


def test_an_engine_table_that_is_wrong_is_kept_with_why_and_written_back(tmp_path: Path) -> None:
    path = settings_path(tmp_path, ENGINES.replace('command = "gtp-rhino -l 5"', 'comand = "x"'))
    settings, problem = load_settings(path)
    assert list(settings.engines) == ["Edax 4.4"]
    [(name, unusable)] = settings.unusable_engines.items()
    assert name == "Rhino" and unusable.table == {"protocol": "gtp", "comand": "x"}
    assert unusable.why == (
        "command is missing (expected a command line or a list of words); 'comand' is not a "
        "key (they are protocol, command, cwd, think_time)"
    )
    assert problem is not None and unusable.why in problem
    # Remembering a choice rewrites the file: the entry stays there to be mended.
    save_settings(path, dataclasses.replace(settings, theme="nord"))
    again, _ = load_settings(path)
    assert again.theme == "nord" and again.unusable_engines == settings.unusable_engines


@pytest.mark.parametrize(
    ("table", "why"),
    [
        ('protocol = "gtp"\ncommand = 42', "command = 42 (expected a command line"),
        ('command = "x"', "protocol is missing (expected 'gtp' or 'nboard')"),
        ('protocol = "uci"\ncommand = "x"', "protocol = 'uci' (expected 'gtp' or 'nboard')"),
    ],
)
def test_playing_an_unusable_engine_says_why_not_that_none_is_configured(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], table: str, why: str
) -> None:
    from reversi_tui.cli import main
    from reversi_tui.records.paths import Places

    places = Places.resolve(tmp_path)
    places.settings_file.parent.mkdir(parents=True, exist_ok=True)
    places.settings_file.write_text(f"[engines.rhino]\n{table}\n", encoding="utf-8")
    args = ["--data-dir", str(tmp_path), "--plain", "--black", "engine:rhino"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "no engine is configured" not in err  # before: all it said
    assert f"the engine 'rhino' in {places.settings_file} is not usable: {why}" in err
    assert "[engines.rhino]" in err and err.count("\n") == 1
