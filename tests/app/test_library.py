"""The station's matches live in the user's data folder: a new folder per match, the last one found again."""

from __future__ import annotations

import datetime
import os
from pathlib import Path

import pytest

from app.record.library import JOURNAL, MatchLibrary, data_home


def test_the_data_folder_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
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
