"""A file the station keeps is the old one or the new one, never half of one and never a stray temporary."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.record.whole_files import write_whole


def test_a_file_is_replaced_whole(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_bytes(b'{"camera": "0"}')
    write_whole(path, b'{"camera": "4"}')
    assert path.read_bytes() == b'{"camera": "4"}'
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]


def test_a_write_that_fails_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    path = tmp_path / "label.json"
    path.mkdir()  # something that cannot be replaced by a file stands in its place
    (path / "kept").write_text("old")
    with pytest.raises(OSError):
        write_whole(path, b"new")
    assert (path / "kept").read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["label.json"]


def test_a_missing_folder_is_an_error_for_the_caller_to_word(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        write_whole(tmp_path / "gone" / "x.json", b"{}")
    assert not (tmp_path / "gone").exists()
