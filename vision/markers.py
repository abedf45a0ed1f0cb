"""Calibration from four printed ArUco markers on the board's corners, and noticing a bumped camera.

Tapping four corners works once; a camera knocked during play moves the board in the picture and every
later die is placed in the wrong half. Four small printed markers (OpenCV's 4x4 dictionary, ids 0-3, one
stuck on each outer corner of the board's frame) give the corners in every frame: the board is found
without a tap, and a marker that has moved says the camera was bumped.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.calibration import Calibration
from vision.errors import CalibrationError

MARKER_IDS = (0, 1, 2, 3)
MARGIN = 0.25  # the white paper round each printed marker, as a share of the marker's side (cut along the line)
BUMP_PX = 4.0  # a marker corner that moved more than this (or 0.5 % of the board's diagonal) moved the camera


def _dictionary() -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)


def find_markers(image: NDArray[np.uint8]) -> dict[int, NDArray[np.float64]]:
    """The board markers seen in the picture: id -> its four corners in image pixels."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    detector = cv2.aruco.ArucoDetector(_dictionary(), cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(grey)
    found: dict[int, NDArray[np.float64]] = {}
    if ids is None:
        return found
    for quad, marker in zip(corners, ids.ravel()):
        if int(marker) in MARKER_IDS and int(marker) not in found:
            found[int(marker)] = np.asarray(quad, np.float64).reshape(4, 2)
    return found


_UNIT = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])  # a marker's corners in its own frame


def paper_corner(quad: NDArray[np.float64], corner: int) -> NDArray[np.float64]:
    """Where the paper's corner lies beyond the marker's ``corner``: the marker's own perspective carried on
    by the printed white margin (the paper corner, not the black square, sits on the board's corner)."""
    homography = cv2.getPerspectiveTransform(_UNIT.astype(np.float32), quad.astype(np.float32))
    unit = _UNIT[corner]
    beyond = unit + MARGIN * (2 * unit - 1)
    point = cv2.perspectiveTransform(beyond.reshape(1, 1, 2), homography)
    return np.asarray(point.reshape(2), np.float64)


def _outer_corners(markers: dict[int, NDArray[np.float64]]) -> dict[int, NDArray[np.float64]]:
    """Each marker's paper corner on the board's corner: beyond its corner farthest from the markers' middle."""
    centre = np.mean([quad.mean(axis=0) for quad in markers.values()], axis=0)
    return {
        marker: paper_corner(quad, int(np.argmax(np.linalg.norm(quad - centre, axis=1))))
        for marker, quad in markers.items()
    }


def calibrate_from_markers(image: NDArray[np.uint8]) -> Calibration:
    """The board's calibration from its four corner markers; CalibrationError names any marker not seen."""
    markers = find_markers(image)
    missing = [m for m in MARKER_IDS if m not in markers]
    if missing:
        raise CalibrationError(
            f"corner marker(s) {', '.join(map(str, missing))} not seen: uncover the board's "
            "corners, or tap the corners by hand"
        )
    outer = _outer_corners(markers)
    return Calibration.from_corners([tuple(outer[m]) for m in MARKER_IDS])


def camera_shift(calibration: Calibration, image: NDArray[np.uint8]) -> float | None:
    """How far (px) the board's corners seem to have moved since ``calibration``; None when too few markers show.

    Only markers seen now count (a hand may cover one), matched to the calibration's corners by nearness.
    """
    markers = find_markers(image)
    if len(markers) < 2:
        return None
    corners = np.array(calibration.corners)
    if len(markers) == 4:
        seen = list(_outer_corners(markers).values())
    else:  # the middle of too few markers is not the board's: take the paper corner nearest a known corner
        seen = [
            min(
                (paper_corner(quad, k) for k in range(4)),
                key=lambda point: float(np.min(np.linalg.norm(corners - point, axis=1))),
            )
            for quad in markers.values()
        ]
    return float(max(np.min(np.linalg.norm(corners - point, axis=1)) for point in seen))


def camera_bumped(calibration: Calibration, image: NDArray[np.uint8]) -> bool:
    """True when the visible markers say the camera (or the board) moved since the calibration."""
    shift = camera_shift(calibration, image)
    corners = np.array(calibration.corners)
    diagonal = float(np.linalg.norm(corners[2] - corners[0]))
    return shift is not None and shift > max(BUMP_PX, 0.005 * diagonal)


def marker_sheet(marker_mm: float = 40.0, dpi: int = 300) -> NDArray[np.uint8]:
    """An A4 page (portrait) with the four markers, their cut lines and where each goes, to print at 100 %."""
    px_per_mm = dpi / 25.4
    page = np.full((round(297 * px_per_mm), round(210 * px_per_mm)), 255, np.uint8)
    side = round(marker_mm * px_per_mm)
    margin = round(MARGIN * side)
    places = ("top left", "top right", "bottom right", "bottom left")
    for i, (marker, place) in enumerate(zip(MARKER_IDS, places)):
        x = round((25 + (i % 2) * 95) * px_per_mm)
        y = round((35 + (i // 2) * 120) * px_per_mm)
        page[y : y + side, x : x + side] = cv2.aruco.generateImageMarker(_dictionary(), marker, side)
        cv2.rectangle(page, (x - margin, y - margin), (x + side + margin, y + side + margin), 160, 1)  # cut here
        label = f"{marker}: {place} corner"
        cv2.putText(
            page,
            label,
            (x - margin, y + side + margin + round(7 * px_per_mm)),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.12 * px_per_mm,
            0,
            max(1, round(0.3 * px_per_mm)),
            cv2.LINE_AA,
        )
    notes = (
        "Print at 100 %. Cut each marker out along its grey line.",
        "Stick it on the board's frame with the paper's outer corner on the board's outer corner.",
    )
    for n, note in enumerate(notes):
        cv2.putText(
            page,
            note,
            (round(10 * px_per_mm), round((12 + 7 * n) * px_per_mm)),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.085 * px_per_mm,
            0,
            max(1, round(0.25 * px_per_mm)),
            cv2.LINE_AA,
        )
    return page
