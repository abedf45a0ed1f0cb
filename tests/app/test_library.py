"""The station's matches live in its data folder: a new folder per match, the last one found again, and a
station's data found in the XDG folder moved in once without losing any of it."""

from __future__ import annotations

import datetime
import os
import shutil
from pathlib import Path

import pytest

from app.record.devicekey import KEY_ENV, first_start, key_path
from app.record.library import DATA_ENV, JOURNAL, MatchLibrary, data_home, move_data


def test_the_data_folder_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(DATA_ENV, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert data_home() == tmp_path / "data" / "tavla-referee"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert data_home() == tmp_path / "home" / ".local" / "share" / "tavla-referee"


def test_matches_are_listed_newest_first_with_their_exports(tmp_path: Path) -> None:
    library = MatchLibrary(tmp_path)
    assert library.matches() == [] and library.last() is None
    when = datetime.datetime(2026, 12, 1, 10, 0, 0)
    first, second = library.new_folder(when), library.new_folder(when)  # two in one second stay apart
    assert first != second and first.name == "2026-12-01_10-00-00" and second.name == "2026-12-01_10-00-00_2"
    (first / JOURNAL).write_bytes(b"x")
    (first / "export").mkdir()
    (first / "export" / "match.mat").write_text("mat")
    (second / JOURNAL).write_bytes(b"y")
    os.utime(first / JOURNAL, (1_000_000_000, 1_000_000_000))
    empty = library.new_folder(when)  # a match never started (no journal) is not listed
    assert [m.folder for m in library.matches()] == [second, first] and empty not in [
        m.folder for m in library.matches()
    ]
    last = library.last()
    assert last is not None and last.journal == second / JOURNAL
    assert library.matches()[1].exports == ("match.mat",)


def _older_station(root: Path) -> Path:
    """A station's data as kept in the XDG data folder: a match with its photos, and a dice set."""
    old = root / "tavla-referee"
    match = old / "matches" / "2026-12-01_10-00-00"
    (match / "throws").mkdir(parents=True)
    (match / JOURNAL).write_bytes(b"journal")
    (match / "throws" / "a_00001.jpg").write_bytes(b"photo")
    (old / "dice").mkdir()
    (old / "dice" / "club.json").write_text("{}")
    return old


def test_a_station_s_data_is_moved_into_the_new_folder_once(tmp_path: Path) -> None:
    old, new = _older_station(tmp_path / "xdg"), tmp_path / "kivy" / "tavla"
    assert move_data(old, new) == []
    assert (new / "matches" / "2026-12-01_10-00-00" / JOURNAL).read_bytes() == b"journal"
    assert (new / "matches" / "2026-12-01_10-00-00" / "throws" / "a_00001.jpg").read_bytes() == b"photo"
    assert (new / "dice" / "club.json").is_file() and not old.exists()
    library = MatchLibrary(new)
    last = library.last()
    assert last is not None and last.folder == new / "matches" / "2026-12-01_10-00-00"
    assert move_data(old, new) == []  # once: nothing left to move


def test_the_journal_key_moves_with_its_owner_only_mode(tmp_path: Path) -> None:
    config, new = tmp_path / "config" / "tavla-referee", tmp_path / "kivy" / "tavla"
    config.mkdir(parents=True)
    key = config / "device.key"
    key.write_text("ab" * 32 + "\n")
    key.chmod(0o600)
    assert move_data(config, new, ("device.key",)) == []
    moved = new / "device.key"
    assert moved.read_text() == "ab" * 32 + "\n" and not key.exists()
    assert os.name != "posix" or moved.stat().st_mode & 0o077 == 0


def test_a_move_that_fails_loses_nothing_and_is_tried_again(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    old, new = _older_station(tmp_path / "xdg"), tmp_path / "kivy" / "tavla"
    real_copy = shutil.copy2

    def disk_full(source: str | os.PathLike[str], target: str) -> object:
        if os.fspath(source).endswith(".jpg"):
            raise OSError(28, "No space left on device", target)
        return real_copy(source, target)

    monkeypatch.setattr(shutil, "copy2", disk_full)
    problems = move_data(old, new)
    assert len(problems) == 1 and "matches" in problems[0] and "No space left" in problems[0]
    assert (old / "matches" / "2026-12-01_10-00-00" / "throws" / "a_00001.jpg").read_bytes() == b"photo"
    assert (old / "matches" / "2026-12-01_10-00-00" / JOURNAL).read_bytes() == b"journal"
    assert not (new / "matches").exists() and not (new / "matches.moving").exists()  # no half copy is used
    assert (new / "dice" / "club.json").is_file() and not (old / "dice").exists()  # what could move, moved
    monkeypatch.setattr(shutil, "copy2", real_copy)
    assert move_data(old, new) == [] and not old.exists()  # the next start moves the rest
    assert (new / "matches" / "2026-12-01_10-00-00" / "throws" / "a_00001.jpg").read_bytes() == b"photo"


def test_what_the_new_folder_already_holds_is_left_in_both(tmp_path: Path) -> None:
    old, new = _older_station(tmp_path / "xdg"), tmp_path / "kivy" / "tavla"
    (new / "dice").mkdir(parents=True)
    (new / "dice" / "other.json").write_text("{}")
    problems = move_data(old, new)
    assert len(problems) == 1 and "already exists" in problems[0]
    assert (old / "dice" / "club.json").is_file() and (new / "dice" / "other.json").is_file()
    assert (new / "matches" / "2026-12-01_10-00-00" / JOURNAL).is_file()


def test_the_station_s_folder_holds_its_matches_and_its_key(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The door names the station's data folder: the library, the dice sets and the key's default place are there,
    so the key's first start looks at the matches the key sealed."""
    monkeypatch.setenv(DATA_ENV, str(tmp_path / "station"))
    monkeypatch.delenv(KEY_ENV, raising=False)
    assert data_home() == tmp_path / "station" and key_path() == tmp_path / "station" / "device.key"
    assert MatchLibrary().root == tmp_path / "station" / "matches"
    assert first_start()
    (MatchLibrary().new_folder() / JOURNAL).write_bytes(b"sealed by a key now lost")
    assert not first_start()  # a match is there: the key went missing, it is not made anew
