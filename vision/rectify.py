"""Where the detector looks, and at what scale: one warp from the camera frame to the detector's input.

A die should always cover about the same number of pixels. With a board calibration the throwing area (the
board and a margin round it, for dice that land off the board) is rectified to the board plane at a fixed
scale, ``DIE_VIEW_PX`` pixels a die, whatever the camera's resolution, height or tilt. Without one (a photo)
the frame is read whole, scaled down to keep its long side within ``PHOTO_LONG_MAX``; the reader first looks at
half that scale and keeps it when the dice it finds there still measure ``PHOTO_DIE_MIN`` px or more (a close
webcam's 70 px dice read better at 35 px, where a pip is not mistaken for a small die). Either way the view is a 3 x 3
homography from frame pixels to view pixels, so a detection maps back to the frame exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.calibration import BOARD_VIEW, Calibration

DIE_VIEW_PX = 26.0  # die side in the rectified board view, pixels
BOARD_MARGIN = 0.08  # the rectified view reaches this share of the board's width and height beyond each edge
PHOTO_LONG_MAX = 1280  # a photo larger than this is scaled down to it (a 1920x1080 frame reads as 1280x720)
PHOTO_DIE_MIN = 24.0  # dice found at half scale at least this big (median): the photo is read at half scale
STRIDE = 8  # the detector's output cell, view pixels
ALIGN = 16  # a view's sides are rounded up to a multiple of this, the detector's deepest stride
INTER_BITS = 5  # OpenCV's bilinear interpolation works to 1/32 pixel (cv::INTER_BITS)
KEPT_MAPS = 2  # views whose maps are kept: a station's change view, with room for a recalibration


@dataclass(frozen=True)
class View:
    """A homography ``to_view`` from frame pixels to view pixels and the view's size (width, height)."""

    to_view: NDArray[np.float64]
    size: tuple[int, int]

    def warp(self, image: NDArray[np.uint8]) -> NDArray[np.uint8]:
        """The detector's input: the frame seen through this view (outside the frame: black)."""
        m = self.to_view
        (_, skew_x, _), (skew_y, _, _), (px, py, pw) = m.tolist()  # plain floats: numpy's checks cost more here
        # the last row (0, 0, 1) within np.allclose's tolerances, no shear
        flat = abs(px) <= 1e-8 and abs(py) <= 1e-8 and abs(pw - 1.0) <= 1e-8 + 1e-5
        if flat and abs(skew_x) < 1e-12 and abs(skew_y) < 1e-12:
            # a pure scale: a resize is faster and sharper than a general warp
            sx, sy = float(m[0, 0]), float(m[1, 1])
            w = round(image.shape[1] * sx)
            h = round(image.shape[0] * sy)
            interp = cv2.INTER_AREA if sx < 1 else cv2.INTER_LINEAR
            small = (
                image if (w, h) == (image.shape[1], image.shape[0]) else cv2.resize(image, (w, h), interpolation=interp)
            )
            out = np.zeros((self.size[1], self.size[0], 3), np.uint8)
            out[: min(h, self.size[1]), : min(w, self.size[0])] = small[: self.size[1], : self.size[0]]
            return out
        return np.asarray(
            cv2.warpPerspective(image, m, self.size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT), np.uint8
        )

    def remapped(self, image: NDArray[np.uint8]) -> NDArray[np.uint8]:
        """What :meth:`warp` gives, bit for bit, through pixel maps kept for this view: a station's board view
        lasts as long as its calibration, so the maps are made on its first frame (a few milliseconds) and each
        frame after costs the interpolation alone, about half a perspective warp. For the views read whole on
        every frame (the change map's); a part read once is cheaper warped."""
        first, second = _maps(self.to_view.tobytes(), self.size)
        return np.asarray(cv2.remap(image, first, second, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT), np.uint8)

    def scaled(self, factor: float) -> View:
        """The same view at ``factor`` times its scale."""
        m = np.diag([factor, factor, 1.0]) @ self.to_view
        return View(np.asarray(m, np.float64), (round(self.size[0] * factor), round(self.size[1] * factor)))

    def part(self, x: int, y: int, width: int, height: int) -> View:
        """The rectangle of this view from (x, y), ``width`` x ``height`` view pixels, as a view of its own."""
        m = np.array([[1.0, 0.0, -x], [0.0, 1.0, -y], [0.0, 0.0, 1.0]]) @ self.to_view
        return View(np.asarray(m, np.float64), (width, height))

    def to_view_points(self, points: NDArray[np.float64]) -> NDArray[np.float64]:
        """Frame pixels -> view pixels."""
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        return np.asarray(cv2.perspectiveTransform(pts, self.to_view).reshape(-1, 2), np.float64)

    @cached_property
    def to_frame_matrix(self) -> NDArray[np.float64]:
        """The homography from view pixels back to frame pixels (a reading maps every die back: made once)."""
        return np.asarray(np.linalg.inv(self.to_view), np.float64)

    def to_frame(self, points: NDArray[np.float64]) -> NDArray[np.float64]:
        """View pixels -> frame pixels."""
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        return np.asarray(cv2.perspectiveTransform(pts, self.to_frame_matrix).reshape(-1, 2), np.float64)

    def box_to_frame(self, centre: tuple[float, float], side: float) -> tuple[int, int, int, int]:
        """A square of ``side`` view pixels round ``centre``, as the frame box that holds it."""
        cx, cy = centre
        h = side / 2
        return self.rect_to_frame((cx - h, cy - h, cx + h, cy + h))

    def rect_to_frame(self, rect: tuple[float, float, float, float]) -> tuple[int, int, int, int]:
        """A rectangle (x0, y0, x1, y1) of view pixels, as the frame box that holds it."""
        x0, y0, x1, y1 = rect
        corners = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64)
        pts = self.to_frame(corners)
        fx0, fy0 = np.floor(pts.min(axis=0))
        fx1, fy1 = np.ceil(pts.max(axis=0))
        return int(fx0), int(fy0), int(fx1), int(fy1)


@lru_cache(maxsize=KEPT_MAPS)
def _maps(to_view: bytes, size: tuple[int, int]) -> tuple[NDArray[np.int16], NDArray[np.uint16]]:
    """The fixed-point maps (whole source pixel; 1/32 pixel fraction) of the view ``to_view`` (a 3 x 3 float64
    homography's bytes) of ``size``, computed as ``cv2.warpPerspective`` computes them (in double, rounded to
    the nearest 1/32 pixel), so ``cv2.remap`` through them gives its pixels exactly."""
    inverse = np.linalg.inv(np.frombuffer(to_view, np.float64).reshape(3, 3))
    width, height = size
    xs = np.arange(width, dtype=np.float64)[None, :]
    ys = np.arange(height, dtype=np.float64)[:, None]
    w = inverse[2, 1] * ys + inverse[2, 2] + inverse[2, 0] * xs
    w = np.where(w != 0, (1 << INTER_BITS) / np.where(w != 0, w, 1.0), 0.0)
    fx = np.rint((inverse[0, 1] * ys + inverse[0, 2] + inverse[0, 0] * xs) * w)
    fy = np.rint((inverse[1, 1] * ys + inverse[1, 2] + inverse[1, 0] * xs) * w)
    bounds = np.iinfo(np.int32)  # cv::saturate_cast<int>, before the shift
    fx = np.clip(fx, bounds.min, bounds.max).astype(np.int64)
    fy = np.clip(fy, bounds.min, bounds.max).astype(np.int64)
    tab = (1 << INTER_BITS) - 1
    whole = np.stack([fx >> INTER_BITS, fy >> INTER_BITS], axis=2)
    first = np.clip(whole, np.iinfo(np.int16).min, np.iinfo(np.int16).max).astype(np.int16)
    second = ((fy & tab) << INTER_BITS | (fx & tab)).astype(np.uint16)
    first.flags.writeable = False
    second.flags.writeable = False
    return first, second


def _round_up(v: float) -> int:
    return int(np.ceil(v / ALIGN) * ALIGN)


def board_view(calibration: Calibration, die_px: float = DIE_VIEW_PX, margin: float = BOARD_MARGIN) -> View:
    """The board plane seen from straight above at ``die_px`` pixels a die, with ``margin`` round the board."""
    board = calibration.board  # a die of the station's own size comes out ``die_px`` wide
    scale = die_px / (board.die_mm * BOARD_VIEW[0] / board.width_mm)  # view pixels per canonical board pixel
    bw, bh = BOARD_VIEW
    shift = np.array([[1.0, 0.0, margin * bw], [0.0, 1.0, margin * bh], [0.0, 0.0, 1.0]])
    zoom = np.diag([scale, scale, 1.0])
    m = zoom @ shift @ calibration.homography
    size = (_round_up(bw * (1 + 2 * margin) * scale), _round_up(bh * (1 + 2 * margin) * scale))
    return View(np.asarray(m / m[2, 2], np.float64), size)


def photo_view(shape: tuple[int, ...], zoom: float = 1.0) -> View:
    """The whole frame, scaled down to keep its long side within PHOTO_LONG_MAX, then by ``zoom``."""
    h, w = shape[:2]
    scale = min(1.0, PHOTO_LONG_MAX / max(h, w)) * zoom
    size = (_round_up(w * scale), _round_up(h * scale))
    return View(np.diag([scale, scale, 1.0]), size)
