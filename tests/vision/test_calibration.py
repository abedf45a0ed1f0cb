"""Board calibration: corners, homography, the bar, and each player's right-hand half."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.calibration import BOARD_VIEW, Calibration, detect_board, order_corners, parse_corners
from vision.errors import CalibrationError
from vision.train.heldout import heldout_throw

SQUARE = [(100.0, 50.0), (900.0, 60.0), (880.0, 650.0), (120.0, 640.0)]


def test_corners_are_ordered_whatever_order_they_come_in() -> None:
    shuffled = np.array([SQUARE[2], SQUARE[0], SQUARE[3], SQUARE[1]])
    assert [tuple(p) for p in order_corners(shuffled)] == SQUARE


def test_homography_maps_corners_to_the_canonical_board() -> None:
    cal = Calibration.from_corners(SQUARE)
    mapped = cal.to_board(np.array(SQUARE))
    w, h = BOARD_VIEW
    assert np.allclose(mapped, [[0, 0], [w, 0], [w, h], [0, h]], atol=1e-6)


def test_right_hand_half_depends_on_the_thrower() -> None:
    cal = Calibration.from_corners(SQUARE)
    right_of_bar, left_of_bar = (700.0, 350.0), (300.0, 350.0)
    assert cal.zone(right_of_bar, "bottom") == "right_half"
    assert cal.zone(left_of_bar, "bottom") == "wrong_half"
    # the player at the top faces the other way: his right hand is the image's left
    assert cal.zone(left_of_bar, "top") == "right_half"
    assert cal.zone(right_of_bar, "top") == "wrong_half"
    assert cal.zone((20.0, 350.0), "bottom") == "off_board"
    assert cal.zone((500.0, 700.0), "top") == "off_board"


def test_a_die_resting_on_the_frame_or_the_bar_is_off_the_playing_surface() -> None:
    """A board seen straight on, 1000 x 800 px for 524 x 444 mm; frame 22 mm, bar 30 mm."""
    cal = Calibration.from_corners([(0.0, 0.0), (1000.0, 0.0), (1000.0, 800.0), (0.0, 800.0)])
    px_x, px_y = 1000 / 524, 800 / 444  # pixels per millimetre across and deep
    on_the_frame = (1000 - 10 * px_x, 400.0)  # 10 mm from the outer edge: 12 mm onto the 22 mm frame
    on_the_far_frame = (700.0, 800 - 8 * px_y)
    on_the_bar = (500 + 5 * px_x, 400.0)
    beside_the_bar = (500 + 20 * px_x, 400.0)  # 5 mm past the bar's edge: on the playing surface
    beside_the_frame = (1000 - 25 * px_x, 400.0)
    assert cal.zone(on_the_frame, "bottom") == "off_board"
    assert cal.zone(on_the_far_frame, "bottom") == "off_board"
    assert cal.zone(on_the_bar, "bottom") == "off_board" and cal.zone(on_the_bar, "top") == "off_board"
    assert cal.zone(beside_the_bar, "bottom") == "right_half"
    assert cal.zone(beside_the_frame, "bottom") == "right_half"


def test_bar_line_runs_down_the_middle() -> None:
    cal = Calibration.from_corners(SQUARE)
    (x0, y0), (x1, y1) = cal.bar_line()
    assert abs(x0 - 500) < 15 and abs(x1 - 500) < 15
    assert y0 < 100 and y1 > 600


def test_expected_die_size_follows_the_board_width() -> None:
    small = Calibration.from_corners([(0, 0), (524, 0), (524, 400), (0, 400)])
    assert small.die_px() == pytest.approx(16.5, rel=0.01)


@pytest.mark.parametrize(
    "text", ["", "1,2 3,4 5,6", "a,b c,d e,f g,h", "1,2 3,4 5,6 7", "0,0 0,0 0,0 0,0", "0,0 10,10 0,10 10,0 5,5"]
)
def test_bad_manual_corners_are_refused_clearly(text: str) -> None:
    with pytest.raises(CalibrationError):
        parse_corners(text)


def test_manual_corners_parse() -> None:
    cal = parse_corners("100,50 900,60; 880,650 120,640")
    assert cal.corners == tuple(SQUARE)


@pytest.mark.parametrize("index,kind", [(0, "valid"), (3, "off_board")])
def test_automatic_corners_find_a_rendered_board(index: int, kind: str) -> None:
    throw = heldout_throw(index, kind)
    cal = detect_board(throw.image)
    assert np.abs(np.array(cal.corners) - throw.corners).max() < 25


def test_no_board_in_a_plain_image_is_a_clear_error() -> None:
    plain = np.full((480, 640, 3), 128, np.uint8)
    with pytest.raises(CalibrationError, match="corners"):
        detect_board(plain)


def shaded_table(index: int, kind: str) -> tuple[np.ndarray, np.ndarray]:
    """A rendered board whose table darkens towards the bottom left (a lamp on one side): the table no longer
    has one colour, so what differs from it is more than the board."""
    throw = heldout_throw(index, kind)
    h, w = throw.image.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    shade = np.clip(1 - 0.75 * np.clip(yy / h - xx / w + 0.2, 0, 1), 0.25, 1)
    board = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(board, np.round(throw.corners).astype(np.int32), 1)
    image = np.where(board[..., None] == 1, throw.image, throw.image * shade[..., None]).astype(np.uint8)
    return image, throw.corners


@pytest.mark.parametrize("index,kind", [(0, "valid"), (3, "off_board"), (5, "cocked"), (8, "valid")])
def test_a_shaded_table_gives_the_board_or_a_refusal_never_a_wrong_board(index: int, kind: str) -> None:
    image, corners = shaded_table(index, kind)
    try:
        cal = detect_board(image)
    except CalibrationError as exc:
        assert "give them with --corners" in str(exc)
        return
    assert np.abs(np.array(cal.corners) - corners).max() < 25


def test_a_shaded_table_does_not_hide_a_clear_board() -> None:
    image, corners = shaded_table(3, "off_board")
    assert np.abs(np.array(detect_board(image).corners) - corners).max() < 25
