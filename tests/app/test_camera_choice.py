"""Where several cameras give pictures the set-up screen lets the players choose the one over the board by a tap,
in Turkish and English, with "no camera" among the choices; the station reads it at once and at the next start.

The driver (tests/app/camera_choice_driver.py) runs the real app at a live table whose camera finder was handed
three video files (one colour each) in place of /dev/video devices.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest

from app.ui.camera_choice import SETTINGS_FILE, CameraChoice, write_setting
from tests.app.test_ui import drive, xvfb
from vision.cameras import FoundCamera, device_name, survey

SIZES = ["800x480", "720x1280"]
"""The smallest display the station runs on, and a tablet held upright (the chooser's tiles side by side)."""


@pytest.fixture(scope="module")
def chosen(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], dict[str, Any]]:
    done: dict[str, dict[str, Any]] = {}

    def at(size: str) -> dict[str, Any]:
        if size not in done:
            server, display = xvfb(size, range(200, 220))
            try:
                result, _ = drive(
                    display, tmp_path_factory.mktemp(f"choice-{size}"), size, driver="tests.app.camera_choice_driver"
                )
            finally:
                server.terminate()
                server.wait(timeout=10)
            done[size] = result
        return done[size]

    return at


def test_each_camera_found_is_offered_by_name_with_no_camera_among_them(
    chosen: Callable[[str], dict[str, Any]],
) -> None:
    result = chosen("800x480")
    assert result["found"] == ["over-the-board.avi", "tablet-front.avi", "spare.avi"]
    start = result["start"]
    assert start["station_reads"] == "over-the-board.avi"  # nothing remembered: the first found
    assert start["down"] == ["over-the-board.avi"]
    assert start["picture_rgb"] == pytest.approx([200, 0, 0], abs=12)  # the corner picture is that camera's
    assert result["tiles_tr"][-1].startswith("Kamerasız") and result["tiles_en"][-1].startswith("No camera")
    assert result["tiles_tr"][:3] == ["over-the-board.avi", "tablet-front.avi", "spare.avi"]
    assert "kamera" in result["title_tr"] and "camera" in result["title_en"]


def test_a_tap_switches_the_station_to_that_camera_and_remembers_it(chosen: Callable[[str], dict[str, Any]]) -> None:
    result = chosen("800x480")
    after = result["after_tap"]
    assert after["station_reads"] == "tablet-front.avi"
    assert after["down"] == ["tablet-front.avi"]
    assert after["picture_rgb"] == pytest.approx([0, 200, 0], abs=12)
    assert after["kept"] == {"camera": after["kept"]["camera"]} and after["kept"]["camera"].endswith("tablet-front.avi")
    assert result["after_back"]["station_reads"] == "tablet-front.avi"
    assert result["next_start"] == "tablet-front.avi"


def test_no_camera_is_a_choice_the_next_start_keeps(chosen: Callable[[str], dict[str, Any]]) -> None:
    result = chosen("800x480")
    after = result["after_none"]
    assert after["station_reads"] is None and after["picture_rgb"] is None
    assert after["kept"] == {"camera": "none"} and after["down"][0].startswith("Kamerasız")
    assert after["calibration_text"] == "kamera görüntüsü yok"
    assert result["next_start_after_none"] is None


@pytest.mark.parametrize("size", SIZES)
def test_the_chooser_fits_the_set_up_screen(size: str, chosen: Callable[[str], dict[str, Any]]) -> None:
    result = chosen(size)
    assert result["problems"] == [], "\n".join(result["problems"])


def found(*specs: str) -> list[FoundCamera]:
    return [FoundCamera(spec, f"camera {spec}", np.zeros((4, 4, 3), np.uint8)) for spec in specs]


def test_a_remembered_camera_that_is_gone_gives_way_to_the_first_found(tmp_path: Path) -> None:
    assert write_setting(tmp_path, "camera", "4") is None
    assert CameraChoice.at_start(found("0", "4"), tmp_path).chosen == "4"
    assert CameraChoice.at_start(found("0", "2"), tmp_path).chosen == "0"


def test_a_single_camera_is_read_even_after_no_camera_was_chosen(tmp_path: Path) -> None:
    """With one camera no chooser is shown, so a remembered "none" could never be undone: it is not applied."""
    write_setting(tmp_path, "camera", "none")
    assert CameraChoice.at_start(found("0", "2"), tmp_path).chosen is None
    choice = CameraChoice.at_start(found("2"), tmp_path)
    assert choice.chosen == "2" and not choice.offered
    assert CameraChoice.at_start([], tmp_path).chosen is None


@pytest.mark.parametrize("content", ["{not json", "[1, 2]", "", '{"camera": 7}'])
def test_a_damaged_settings_file_never_stops_the_start(tmp_path: Path, content: str) -> None:
    (tmp_path / SETTINGS_FILE).write_text(content, encoding="utf-8")
    assert CameraChoice.at_start(found("0", "2"), tmp_path).chosen == "0"
    choice = CameraChoice.at_start(found("0", "2"), tmp_path)
    assert choice.remember("2") is None and CameraChoice.at_start(found("0", "2"), tmp_path).chosen == "2"


def test_a_choice_that_cannot_be_written_says_so_and_is_still_used(tmp_path: Path) -> None:
    (tmp_path / SETTINGS_FILE).mkdir()  # a folder where the file should be: the write fails
    choice = CameraChoice.at_start(found("0", "2"), tmp_path)
    assert choice.remember("2") is not None and choice.unsaved is not None
    assert choice.chosen == "2"


def test_a_camera_is_named_as_linux_names_it_and_found_with_its_picture(tmp_path: Path) -> None:
    (tmp_path / "video2").mkdir()
    (tmp_path / "video2" / "name").write_text("HD USB Camera\n", encoding="utf-8")
    assert device_name("2", tmp_path) == "HD USB Camera"
    assert device_name("3", tmp_path) == "#3"
    assert device_name("/media/match.avi", tmp_path) == "match.avi"
    picture = np.full((2, 2, 3), 9, np.uint8)
    cameras = survey(["0", "1"], look=lambda spec: picture if spec == "1" else None, name=lambda spec: f"cam {spec}")
    assert [(c.spec, c.name) for c in cameras] == [("1", "cam 1")] and cameras[0].still is picture
