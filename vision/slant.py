"""Where a flat die shows its sides: the perspective a board calibration implies at each spot of the board.

A camera over the board sees a flat die's top face and, away from the point under the camera, a strip of its
sides, as wide as a third of the die at the board's far corners. A cocked die shows a strip of its sides too,
and on rendered throws the cocked look could not tell the two apart without knowing which strip to expect
(flat dice called cocked at 95 % of cocked dice caught: 31 % of them). The slant is that expectation: how far,
and which way, the top of a flat die stands from its foot in the image, in die sides. It comes from the four
tapped corners alone: the camera's pose is solved from the board's rectangle with a typical lens
(``FOCAL_GUESS``: a lens off by a fifth makes the slant off by about a fifth, while a lens solved from tapped
corners moves by a third or more with 2 px of noise on a corner).

The look reads the slant as one more input plane, a ramp rising along it (``ramp``): a plane that turns and
mirrors with the crop, so every quarter turn of a crop still carries its own slant.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.calibration import Calibration

# the focal length the pose is solved with, in image widths (a lens of 64 degrees across, between the 60 to 78
# of common UVC webcams): a near-vertical camera does not show its lens in the board's outline, and a lens off
# by a fifth changes the slant by about a fifth, against a median slant of 0.28 die sides on rendered boards
FOCAL_GUESS = 0.8
RAMP_GAIN = 3.0  # the ramp plane's scale: a slant of a third of a die spans about +-1, as the colour planes do


def slant(calibration: Calibration, shape: tuple[int, ...], points: NDArray[np.float64]) -> NDArray[np.float32]:
    """For each image point on the board (x, y pixels of an image of ``shape``): the image shift from a flat
    die's foot to its top, in die sides (x, y). Zero under the camera; about 0.3 at a board's far corners."""
    pts = np.asarray(points, np.float64).reshape(-1, 2)
    if len(pts) == 0:
        return np.zeros((0, 2), np.float32)
    rvec, tvec, lens, up = _pose(calibration, shape[1], shape[0])
    b = calibration.board
    on_board = calibration.to_board_mm(pts)
    foot = np.column_stack([on_board, np.zeros(len(pts))])
    where = np.concatenate([foot, foot + b.die_mm * up, foot + [b.die_mm, 0.0, 0.0]])
    image, _ = cv2.projectPoints(where, rvec, tvec, lens, None)
    foot_px, top_px, beside_px = image.reshape(3, len(pts), 2)
    side = np.maximum(np.linalg.norm(beside_px - foot_px, axis=1), 1e-6)
    return np.asarray((top_px - foot_px) / side[:, None], np.float32)


@lru_cache(maxsize=4)
def _pose(
    calibration: Calibration, w: int, h: int
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """The camera's pose (rotation and translation vectors), its guessed lens and the board's side it is on: one
    calibration's, solved once, as the station reads throw after throw on it."""
    focal = FOCAL_GUESS * w
    lens = np.array([[focal, 0, w / 2], [0, focal, h / 2], [0, 0, 1]], np.float64)
    b = calibration.board  # the station's board as set-up measured it: its outline fixes the camera's pose
    board = np.array([[0, 0, 0], [b.width_mm, 0, 0], [b.width_mm, b.depth_mm, 0], [0, b.depth_mm, 0]], np.float64)
    _, rvec, tvec = cv2.solvePnP(board, np.array(calibration.corners, np.float64), lens, None, flags=cv2.SOLVEPNP_IPPE)
    rotation, _ = cv2.Rodrigues(rvec)
    up = np.array([0.0, 0.0, 1.0 if rotation[2, 2] < 0 else -1.0])  # the board's side the camera is on
    kept = tuple(np.asarray(a, np.float64) for a in (rvec, tvec, lens, up))
    for array in kept:
        array.flags.writeable = False
    return kept[0], kept[1], kept[2], kept[3]


def ramp(slants: NDArray[np.float32], size: int) -> NDArray[np.float32]:
    """(n, 2) slants -> (n, size, size) planes, 0 at the crop's centre and the slant's size at its edge, rising
    along the slant (``RAMP_GAIN`` times). Turned or mirrored with its crop, a plane is the ramp of the turned or
    mirrored slant."""
    c = (np.arange(size, dtype=np.float32) + 0.5 - size / 2) / (size / 2)
    xx, yy = np.meshgrid(c, c)
    s = RAMP_GAIN * np.asarray(slants, np.float32).reshape(-1, 2)
    return np.asarray(s[:, 0, None, None] * xx[None] + s[:, 1, None, None] * yy[None], np.float32)
