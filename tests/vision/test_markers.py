"""Printed corner markers: the board found without a tap, a bumped camera noticed, a covered marker named."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from vision.__main__ import main
from vision.calibration import BOARD_VIEW
from vision.errors import CalibrationError
from vision.markers import MARGIN, MARKER_IDS, calibrate_from_markers, camera_bumped, camera_shift, marker_sheet

TRUE_CORNERS = np.array([[300.0, 90.0], [1010.0, 120.0], [1060.0, 650.0], [250.0, 620.0]])  # a tilted view


def board_plane() -> NDArray[np.uint8]:
    """The board seen straight on (BOARD_VIEW pixels), a marker on each corner, outer corner on the corner."""
    w, h = int(BOARD_VIEW[0]), int(BOARD_VIEW[1])
    plane = np.full((h, w, 3), (60, 110, 160), np.uint8)
    cv2.rectangle(plane, (40, 40), (w - 40, h - 40), (200, 220, 235), -1)
    black = 60
    margin = round(MARGIN * black)
    paper = black + 2 * margin  # cut out along the printed line: the marker and its white margin
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    for marker, (x, y) in zip(MARKER_IDS, [(0, 0), (w - paper, 0), (w - paper, h - paper), (0, h - paper)]):
        patch = np.full((paper, paper), 255, np.uint8)
        patch[margin : margin + black, margin : margin + black] = cv2.aruco.generateImageMarker(
            dictionary, marker, black
        )
        plane[y : y + paper, x : x + paper] = patch[:, :, None]
    return plane


def photographed(corners: NDArray[np.float64] = TRUE_CORNERS) -> NDArray[np.uint8]:
    w, h = BOARD_VIEW
    source = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    homography = cv2.getPerspectiveTransform(source, corners.astype(np.float32))
    table = np.full((720, 1280, 3), (40, 90, 40), np.uint8)
    warped = cv2.warpPerspective(board_plane(), homography, (1280, 720), dst=table, borderMode=cv2.BORDER_TRANSPARENT)
    return np.asarray(warped, np.uint8)


def test_the_four_markers_give_the_board_corners() -> None:
    calibration = calibrate_from_markers(photographed())
    found = np.array(calibration.corners)
    assert np.max(np.linalg.norm(found - TRUE_CORNERS, axis=1)) < 2.0


def test_a_covered_marker_is_named() -> None:
    image = photographed()
    cv2.circle(image, (1040, 630), 45, (30, 30, 30), -1)  # a hand over the bottom-right corner
    with pytest.raises(CalibrationError, match="marker.* 2 not seen"):
        calibrate_from_markers(image)


def test_a_bumped_camera_is_noticed_and_a_still_one_is_not() -> None:
    calibration = calibrate_from_markers(photographed())
    rng = np.random.default_rng(3)
    still = np.clip(photographed() + rng.normal(0, 4, (720, 1280, 3)), 0, 255).astype(np.uint8)
    assert not camera_bumped(calibration, still)
    moved = photographed(TRUE_CORNERS + [14.0, -9.0])
    assert camera_bumped(calibration, moved)
    shift = camera_shift(calibration, moved)
    assert shift is not None and 12 < shift < 22
    covered = moved.copy()
    cv2.circle(covered, (1054, 641), 45, (30, 30, 30), -1)
    assert camera_bumped(calibration, covered)  # three markers still tell


def test_too_few_markers_say_nothing() -> None:
    calibration = calibrate_from_markers(photographed())
    blank = np.full((720, 1280, 3), 90, np.uint8)
    assert camera_shift(calibration, blank) is None and not camera_bumped(calibration, blank)


def test_the_printed_sheet_holds_the_four_markers_readably() -> None:
    sheet = marker_sheet(marker_mm=40, dpi=150)
    assert sheet.shape == (round(297 * 150 / 25.4), round(210 * 150 / 25.4))
    detector = cv2.aruco.ArucoDetector(
        cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), cv2.aruco.DetectorParameters()
    )
    _, ids, _ = detector.detectMarkers(sheet)
    assert ids is not None and sorted(ids.ravel().tolist()) == list(MARKER_IDS)


def test_read_with_markers_finds_the_board_or_names_the_missing_marker(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    marked, bare = tmp_path / "marked.png", tmp_path / "bare.png"
    cv2.imwrite(str(marked), photographed())
    cv2.imwrite(str(bare), np.full((720, 1280, 3), 90, np.uint8))
    assert main(["read", "--json", "--markers", str(marked)]) == 0
    assert json.loads(capsys.readouterr().out)["reason"] == "dice_count"  # a board, no dice on it
    assert main(["read", "--json", "--markers", str(bare)]) == 1
    assert "0, 1, 2, 3 not seen" in json.loads(capsys.readouterr().out)["error"]
    assert main(["markers", str(tmp_path / "sheet.png"), "--dpi", "100"]) == 0
    assert cv2.imread(str(tmp_path / "sheet.png")) is not None
