"""The whole-board renderer's truth: legal positions (15 a side over points, bar and off, one colour a point,
borne-off checkers only with every other checker home), the corners where the board is drawn, the same board
for the same index."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.calibration import BOARD_VIEW, Calibration
from vision.checkers import BAR_X, CHECKER, FIELD_X, FIELD_Y, sum_problems
from vision.synth import board_render
from vision.synth.board_render import FRAME, home_slots, random_position, render_board


@pytest.mark.parametrize("home_right", [True, False])
def test_random_positions_are_legal(home_right: bool) -> None:
    rng = np.random.default_rng(5)
    tall = bar = off = 0
    for _ in range(300):
        points, on_bar, borne = random_position(rng, home_right)
        assert sum_problems(points, (on_bar[0], on_bar[1]), (borne[0], borne[1])) == []
        for side, sign in ((0, 1), (1, -1)):
            if borne[side]:
                assert on_bar[side] == 0
                home = home_slots(side == 0, home_right)
                assert all(i in home for i, p in enumerate(points) if p * sign > 0)
        tall += max(abs(p) for p in points) > 5
        bar += sum(on_bar) > 0
        off += sum(borne) > 0
    assert min(tall, bar, off) > 30  # every hard case is common enough to measure


def test_a_rendered_board_matches_its_truth() -> None:
    image, truth = render_board(3)
    again, same = render_board(3)
    assert image.shape == (FRAME[1], FRAME[0], 3)
    assert board_render.BOARD_VIEW == BOARD_VIEW  # drawn in the plane the reader rectifies to
    assert np.array_equal(image, again) and truth == same
    assert sum_problems(truth.points, truth.bar, truth.off) == []
    corners = np.array(truth.corners)
    assert corners.min() > 0 and corners[:, 0].max() < FRAME[0] and corners[:, 1].max() < FRAME[1]


@pytest.mark.parametrize("index", range(4))
def test_the_checkers_stand_where_the_truth_says(index: int) -> None:
    """Each occupied point's rim checker shows its side's colour: the lighter side's tops are the lighter."""
    image, truth = render_board(index)
    cal = Calibration.from_corners(list(truth.corners))
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(float)
    bottom_light = truth.bottom_colour == "light"
    shades: dict[bool, list[float]] = {True: [], False: []}  # light side, dark side
    for slot, count in enumerate(truth.points):
        if count:
            row, col = divmod(slot, 12)
            left, right = (FIELD_X[0], BAR_X[0]) if col < 6 else (BAR_X[1], FIELD_X[1])
            x = left + (right - left) / 6 * (col % 6 + 0.5)
            y = FIELD_Y[0] + CHECKER / 2 if row == 0 else FIELD_Y[1] - CHECKER / 2
            pt = cv2.perspectiveTransform(np.array([[[x, y]]]), np.linalg.inv(cal.homography))
            px, py = pt[0, 0]
            patch = grey[int(py) - 2 : int(py) + 3, int(px) - 2 : int(px) + 3]
            shades[(count > 0) == bottom_light].append(float(np.median(patch)))
    assert shades[True] and shades[False]
    assert np.mean(shades[True]) > np.mean(shades[False]) + 40


def test_a_scene_keeps_its_camera_and_its_unmoved_checkers_from_picture_to_picture() -> None:
    """The simulated station's pictures of one scene: the same corners and light for every position, a point whose
    checkers did not move drawn as it was (only the camera's noise differs), the one that changed drawn anew,
    and the dice given lying where they are given."""
    start = (2, 0, 0, 0, 0, -5, 0, -3, 0, 0, 0, 5, -5, 0, 0, 0, 3, 0, 5, 0, 0, 0, 0, -2)
    moved = start[:18] + (4, 1) + start[20:]  # a checker from the 19th reading place to the 20th
    die = board_render.Spot(300.0, 400.0, 0.4, 6)
    before, truth = render_board(9, board_render.Setting(start, (0, 0), (0, 0), True, "light", spots=(die,)))
    after, again = render_board(9, board_render.Setting(moved, (0, 0), (0, 0), True, "light", spots=(die,)))
    assert truth.corners == again.corners and truth.spots == again.spots == (die,)
    cal = Calibration.from_corners(list(truth.corners))
    to_frame = np.linalg.inv(cal.homography)

    def change_at(x: float, y: float) -> float:
        px, py = cv2.perspectiveTransform(np.array([[[x, y]]]), to_frame)[0, 0]
        box = (slice(int(py) - 20, int(py) + 21), slice(int(px) - 20, int(px) + 21))  # a whole checker and round it
        return float(np.abs(before[box].astype(float) - after[box].astype(float)).mean())

    def rim_checker(slot: int) -> tuple[float, float]:
        row, col = divmod(slot, 12)
        left, right = (FIELD_X[0], BAR_X[0]) if col < 6 else (BAR_X[1], FIELD_X[1])
        x = left + (right - left) / 6 * (col % 6 + 0.5)
        return x, (FIELD_Y[0] + CHECKER / 2 if row == 0 else FIELD_Y[1] - CHECKER / 2)

    unmoved = [change_at(*rim_checker(slot)) for slot in (0, 5, 11, 12, 16, 23)] + [change_at(die.x, die.y)]
    assert max(unmoved) < 6, unmoved  # the camera's noise alone
    assert change_at(*rim_checker(19)) > 30  # a checker now stands where the field showed
