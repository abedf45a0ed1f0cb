"""Rendered boards with a player's hand still over the checkers (``vision.synth.hands``): the reading must never
be sure of what the hand hides. Shared by tests/vision/test_hands.py and bench_checkers.py."""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.calibration import Calibration
from vision.checkers import CHECKER, FIELD_Y, _column_centre
from vision.synth.board_render import BoardTruth, render_board
from vision.synth.hands import draw_hand

HAND_SEED = 40_000  # the hands' own random draws, apart from the boards'


def hand_spot(
    truth: BoardTruth, calibration: Calibration, rng: np.random.Generator
) -> tuple[tuple[float, float], float]:
    """Where the hand lies (a point with checkers, picked at random; the middle of the field on an empty board)
    in image pixels, and the palm's width there (about one and a half checkers)."""
    occupied = [i for i, n in enumerate(truth.points) if n != 0]
    if occupied:
        i = int(rng.choice(occupied))
        col, top = (i, True) if i < 12 else (i - 12, False)
        depth = rng.uniform(0.5, 2.5) * CHECKER
        spot = (_column_centre(col), FIELD_Y[0] + depth if top else FIELD_Y[1] - depth)
    else:
        spot = (500.0, 400.0)
    inverse = np.linalg.inv(calibration.homography)
    ends = np.array([[[spot[0], spot[1]]], [[spot[0] + 1.5 * CHECKER, spot[1]]]], np.float64)
    frame = cv2.perspectiveTransform(ends, inverse).reshape(-1, 2)
    return (float(frame[0, 0]), float(frame[0, 1])), float(np.hypot(*(frame[1] - frame[0])))


def board_with_hand(index: int) -> tuple[NDArray[np.uint8], BoardTruth, Calibration]:
    """Rendered board ``index`` with a hand over one of its points, its truth and its tapped corners."""
    image, truth = render_board(index)
    calibration = Calibration.from_corners(list(truth.corners))
    rng = np.random.default_rng(HAND_SEED + index)
    at, width = hand_spot(truth, calibration, rng)
    return draw_hand(image, at, width, rng), truth, calibration
