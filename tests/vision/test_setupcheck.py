"""The camera set-up check: each bad set-up gets the verdict and the advice a director can act on."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from vision.__main__ import main
from vision.calibration import Calibration
from vision.setupcheck import Grade, check_frames, check_source, edge_blur_px
from vision.train.heldout import heldout_throw, throw_video


@pytest.fixture(scope="module")
def board() -> tuple[NDArray[np.uint8], Calibration]:
    throw = heldout_throw(0, "valid")
    return throw.image, Calibration.from_corners(throw.corners)


def blurred(image: NDArray[np.uint8], sigma: float) -> NDArray[np.uint8]:
    return np.asarray(cv2.GaussianBlur(image, (0, 0), sigma), np.uint8) if sigma else image


def grades(report: object) -> dict[str, str]:
    return {c["check"]: c["grade"] for c in report.to_dict()["checks"]}  # type: ignore[attr-defined]


def test_a_sharp_well_lit_board_is_good_with_or_without_corners(board: tuple[NDArray[np.uint8], Calibration]) -> None:
    image, calibration = board
    for report in (check_frames([image], 30.0, calibration), check_frames([image])):
        assert report.grade is Grade.GOOD, report.text()
        assert report.advice() == []


def test_a_blurred_picture_is_told_to_focus(board: tuple[NDArray[np.uint8], Calibration]) -> None:
    image, calibration = board
    report = check_frames([blurred(image, 4)], 30.0, calibration)
    assert report.grade is Grade.NOT_GOOD and grades(report)["focus"] == "not good enough"
    assert "focus" in report.advice()[0]


def test_a_dark_picture_is_told_to_add_light(board: tuple[NDArray[np.uint8], Calibration]) -> None:
    image, calibration = board
    report = check_frames([np.asarray(image * 0.25, np.uint8)], 30.0, calibration)
    assert report.grade is Grade.NOT_GOOD and grades(report)["exposure"] == "not good enough"
    assert any("add light" in line for line in report.advice())


def test_tiny_dice_are_told_to_come_closer(board: tuple[NDArray[np.uint8], Calibration]) -> None:
    image, calibration = board
    small = np.asarray(cv2.resize(image, (480, 270), interpolation=cv2.INTER_AREA), np.uint8)
    report = check_frames([small], 30.0, Calibration.from_corners(np.array(calibration.corners) * 0.375))
    assert grades(report)["die size"] == "not good enough" and grades(report)["resolution"] == "not good enough"
    assert any("closer" in line for line in report.advice())


def test_no_board_in_view_is_told_to_show_the_board() -> None:
    rng = np.random.default_rng(1)
    table = blurred(rng.integers(0, 255, (720, 1280, 3), dtype=np.uint8), 3)
    report = check_frames([table], 30.0)
    assert report.grade is Grade.NOT_GOOD and grades(report)["board"] == "not good enough"
    assert "whole board" in report.advice()[0]


def test_a_lamp_reflected_into_the_camera_is_glare(board: tuple[NDArray[np.uint8], Calibration]) -> None:
    image, calibration = board
    glare = image.copy()
    cv2.circle(glare, (640, 360), 90, (255, 255, 255), -1)
    report = check_frames([glare], 30.0, calibration)
    assert grades(report)["glare"] == "not good enough" and "glare" in report.advice()[0]


def test_a_slow_camera_is_named() -> None:
    image = heldout_throw(0, "valid").image
    assert {"frame rate": "not good enough"}.items() <= grades(check_frames([image], 6.0)).items()


def test_edge_blur_grows_with_the_blur_and_a_flat_picture_has_no_edges(
    board: tuple[NDArray[np.uint8], Calibration],
) -> None:
    image, _ = board
    blurs = [edge_blur_px(blurred(image, s)) for s in (0, 1, 2, 4)]
    assert blurs == sorted(blurs) and blurs[-1] > 3 * blurs[0]
    assert edge_blur_px(np.full((100, 100, 3), 128, np.uint8)) == float("inf")


def test_no_picture_at_all_is_not_good() -> None:
    report = check_frames([])
    assert report.grade is Grade.NOT_GOOD and "camera" in report.advice()[0]


def test_a_video_file_gives_its_frame_rate_and_the_report_is_json(tmp_path: Path) -> None:
    video = throw_video(3, size=(1280, 720), fps=25.0)
    path = tmp_path / "throw.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 25.0, (1280, 720))
    for frame in video.frames:
        writer.write(frame)
    writer.release()
    report = check_source(str(path), Calibration.from_corners(video.corners))
    data = json.loads(json.dumps(report.to_dict()))
    assert {"check": "frame rate", "grade": "good", "measured": "25 frames/s", "advice": ""} in data["checks"]
    assert data["verdict"] in ("good", "borderline")


def test_the_command_line_says_what_to_change(tmp_path: Path) -> None:
    throw = heldout_throw(0, "valid")
    good, dark = tmp_path / "good.png", tmp_path / "dark.png"
    cv2.imwrite(str(good), throw.image)
    cv2.imwrite(str(dark), np.asarray(throw.image * 0.25, np.uint8))
    corners = " ".join(f"{x:.1f},{y:.1f}" for x, y in throw.corners)
    assert main(["check-setup", str(good), "--corners", corners]) == 0
    assert main(["check-setup", str(dark), "--corners", corners]) == 3
    assert main(["check-setup", str(tmp_path / "missing.png")]) == 2
