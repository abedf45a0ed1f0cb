"""Something over the board (vision.cover): a hand or a sheet hides checkers, and the reading is never sure of a
board it hides part of."""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from tests.vision.hand_boards import board_with_hand
from vision.calibration import Calibration
from vision.checkers import cover_places, read_position, reading_view
from vision.synth.board_render import render_board

COVERED = "something lies over the board"


def test_no_board_with_a_hand_over_its_checkers_is_read_sure_and_wrong() -> None:
    """A hand's shortfall would otherwise be completed as hidden layers or a pile borne off: three of these forty
    boards read sure and wrong without the look."""
    asked_for_the_hand = 0
    for index in range(40):
        image, truth, calibration = board_with_hand(index)
        reading = read_position(image, calibration, truth.bottom_colour)
        if reading.sure:
            assert (reading.points, reading.bar, reading.off) == (truth.points, truth.bar, truth.off), index
        asked_for_the_hand += any(COVERED in doubt for doubt in reading.doubts)
    assert asked_for_the_hand >= 10  # the look names the hand, not only the sums


def test_a_sheet_over_a_point_is_named_and_a_clean_board_is_not_doubted() -> None:
    for index in range(6):
        image, truth = render_board(index)
        calibration = Calibration.from_corners(list(truth.corners))
        clean = read_position(image, calibration, truth.bottom_colour)
        if any(COVERED in doubt for doubt in clean.doubts):
            continue  # a board the look doubts as it is (its lamp, its frame) says nothing of a sheet
        place = next(
            p for p in cover_places() if p.where == "the middle beside the bottom row's point 3 from the picture's left"
        )
        sheet = _sheet_over(image, calibration, place.box)
        reading = read_position(sheet, calibration, truth.bottom_colour)
        assert not reading.sure and any(place.where in doubt for doubt in reading.doubts)
        return
    raise AssertionError("no board among the first six was read without doubting something over it")


def _sheet_over(
    image: NDArray[np.uint8], calibration: Calibration, box: tuple[int, int, int, int]
) -> NDArray[np.uint8]:
    """``image`` with a white score sheet lying over the reading view's box ``box`` and a little beyond it."""
    view_to_frame, _ = reading_view(calibration)
    x0, y0, x1, y1 = box
    in_view = np.array([[[x0 - 6, y0 - 6]], [[x1 + 6, y0 - 6]], [[x1 + 6, y1 + 6]], [[x0 - 6, y1 + 6]]], np.float64)
    corners = cv2.perspectiveTransform(in_view, np.linalg.inv(view_to_frame)).reshape(-1, 2)
    out = image.copy()
    cv2.fillConvexPoly(out, np.round(corners).astype(np.int32), (235, 240, 242), cv2.LINE_AA)
    return out
