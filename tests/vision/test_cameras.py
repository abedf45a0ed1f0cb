"""The station finds its camera as it finds its clock and board: the first video device that gives pictures."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.cameras import candidates, find_cameras, gives_pictures

ROOT = Path(__file__).resolve().parents[2]


def video(path: Path, frames: int = 5) -> Path:
    """A real video file: what a camera hands over, as far as OpenCV's capture is concerned."""
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 10, (64, 48))
    for i in range(frames):
        writer.write(np.full((48, 64, 3), i * 40, np.uint8))
    writer.release()
    return path


def test_a_device_counts_only_once_it_gives_a_picture(tmp_path: Path) -> None:
    """A metadata node opens but gives nothing; an empty or missing device gives nothing either."""
    camera = video(tmp_path / "camera.avi")
    silent = tmp_path / "metadata"
    silent.write_bytes(b"")
    assert gives_pictures(str(camera))
    assert not gives_pictures(str(silent))
    assert not gives_pictures(str(tmp_path / "unplugged"))
    assert find_cameras([str(silent), str(tmp_path / "unplugged"), str(camera)]) == [str(camera)]


def test_several_cameras_are_all_found_in_order(tmp_path: Path) -> None:
    first, second = video(tmp_path / "a.avi"), video(tmp_path / "b.avi")
    assert find_cameras([str(second), str(first)]) == [str(second), str(first)]
    assert find_cameras([]) == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="device nodes are Linux's")
def test_linux_nodes_are_tried_in_their_numbers_order(tmp_path: Path) -> None:
    for name in ("video10", "video2", "video0", "video-meta", "vbi0"):
        (tmp_path / name).touch()
    assert candidates(tmp_path) == ["0", "2", "10"]


def test_the_app_takes_the_first_camera_found_and_says_which(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from app.__main__ import _camera

    first, second = str(video(tmp_path / "a.avi")), str(video(tmp_path / "b.avi"))
    monkeypatch.setattr("vision.cameras.candidates", lambda: [str(tmp_path / "metadata"), first, second])
    chosen, choice = _camera(None, None)
    assert chosen == first and choice is not None and [c.spec for c in choice.found] == [first, second]
    said = capsys.readouterr().out
    assert f"camera {first}" in said and f"found: {first}, {second}" in said
    data = tmp_path / "data"
    data.mkdir()
    (data / "settings.json").write_text(f'{{"camera": "{second}"}}', encoding="utf-8")
    assert _camera(None, data)[0] == second  # chosen on the set-up screen last time
    monkeypatch.setattr("vision.cameras.candidates", lambda: [])
    assert _camera(None, data)[0] is None
    assert "the dice are typed" in capsys.readouterr().out
    assert _camera("none", data) == (None, None) and _camera("2", data) == ("2", None)  # named: never searched


def test_the_station_unit_needs_no_camera_flag() -> None:
    """The Pi's unit starts plain ``python -m app``: the camera is found like the clock and the board."""
    unit = (ROOT / "hardware" / "station" / "tavla-station.service").read_text()
    (start,) = [line for line in unit.splitlines() if line.startswith("ExecStart=")]
    assert start.endswith("python -m app")
    helped = subprocess.run(
        [sys.executable, "-m", "app", "--help"], capture_output=True, text=True, timeout=60, cwd=ROOT
    )
    assert "first video device" in " ".join(helped.stdout.split())
