"""The slant a flat die shows, from a board's four corners alone, against the cameras that drew the boards."""

from __future__ import annotations

import numpy as np
import pytest

from vision.calibration import DIE_MM, Calibration
from vision.crop_reader import CROP, preprocess
from vision.look import PLANES, look_input
from vision.slant import RAMP_GAIN, ramp, slant
from vision.synth import render
from vision.train.dataset import TRAIN_DICE


def true_slant(cam: render.Camera, points: np.ndarray) -> np.ndarray:
    """The renderer's own camera: the image shift of a die's top over its foot, per die side."""
    foot = cam.project(points)
    top = cam.project(points + [0, 0, DIE_MM])
    beside = cam.project(points + [DIE_MM, 0, 0])
    return (top - foot) / np.linalg.norm(beside - foot, axis=1)[:, None]


def test_the_slant_from_the_corners_is_the_one_the_camera_shows() -> None:
    """Twenty board cameras (height, tilt, lens and resolution as the renderer varies them): the slant solved
    from the tapped corners with a guessed lens is within a tenth of its own size of the camera's."""
    rng = np.random.default_rng(3)
    errors, sizes = [], []
    for i in range(20):
        cam = render.board_camera(rng, (1280, 720) if i % 2 else (1920, 1080))
        style = render.random_board_style(rng, TRAIN_DICE)
        scene, _, _ = render.board_scene(rng, style, cam, render.ThrowSpec("valid", "bottom"), camera_effects=False)
        assert scene.corners is not None
        where = np.column_stack([rng.uniform(-230, 230, 25), rng.uniform(-180, 180, 25), np.zeros(25)])
        truth = true_slant(cam, where)
        shape = (cam.size[1], cam.size[0], 3)
        estimate = slant(Calibration.from_corners(scene.corners), shape, cam.project(where))
        errors.append(np.linalg.norm(estimate - truth, axis=1))
        sizes.append(np.linalg.norm(truth, axis=1))
    error, size = np.concatenate(errors), np.concatenate(sizes)
    assert np.median(size) > 0.15  # the sides are there to be seen: a cocked die at 8 degrees shows 0.14
    assert np.median(error) < 0.1 * np.median(size)
    assert np.percentile(error, 95) < 0.05


def test_straight_under_the_camera_a_die_shows_no_side_and_away_from_it_more() -> None:
    """A camera straight over the board's middle: no slant there, and the slant points away from the middle,
    growing with the distance."""
    cam = render.Camera(np.array([0.0, 0.0, 700.0]), np.zeros(3), 1000.0, (1280, 720))
    corners = cam.project(np.array([[-262.0, 222.0, 0], [262.0, 222.0, 0], [262.0, -222.0, 0], [-262.0, -222.0, 0]]))
    cal = Calibration.from_corners(corners)
    points = cam.project(np.array([[0.0, 0, 0], [100.0, 0, 0], [200.0, 0, 0], [0.0, 150.0, 0]]))
    middle, right, far_right, up = slant(cal, (720, 1280, 3), points)
    assert np.abs(middle).max() < 0.01
    centre = points[0]
    for s, p in ((right, points[1]), (far_right, points[2]), (up, points[3])):
        away = (p - centre) / np.linalg.norm(p - centre)
        assert float(s @ away) > 0.9 * np.linalg.norm(s)
    assert np.linalg.norm(far_right) > 1.8 * np.linalg.norm(right) > 0.1


def test_the_ramp_rises_along_the_slant_in_image_directions() -> None:
    """x to the right, y downwards, as image pixels go; zero at the crop's centre."""
    to_right, downwards = ramp(np.array([[0.3, 0.0], [0.0, 0.3]], np.float32), CROP)
    assert (np.diff(to_right, axis=1) > 0).all() and np.allclose(np.diff(to_right, axis=0), 0)
    assert (np.diff(downwards, axis=0) > 0).all() and np.allclose(np.diff(downwards, axis=1), 0)
    assert to_right[0, -1] == pytest.approx(RAMP_GAIN * 0.3 * (1 - 1 / CROP))
    assert abs(float(to_right.mean())) < 1e-6


def test_the_looks_input_is_the_crops_colour_and_its_slants_ramp() -> None:
    rng = np.random.default_rng(1)
    crops = rng.integers(0, 256, (3, CROP, CROP, 3)).astype(np.uint8)
    slants = np.array([[0.1, -0.2], [0.0, 0.0], [-0.3, 0.05]], np.float32)
    x = look_input(crops, slants)
    assert x.shape == (3, CROP, CROP, PLANES) and x.dtype == np.float32
    assert np.allclose(x[..., :3], preprocess(crops).transpose(0, 2, 3, 1))
    assert np.allclose(x[..., 3], ramp(slants, CROP))
    assert look_input(crops[:0], slants[:0]).shape == (0, CROP, CROP, PLANES)
    with pytest.raises(ValueError):
        look_input(crops, slants[:2])
