"""Where the board is in the image: four corners, a homography to a canonical top view, the bar, the halves.

The canonical view puts the board's long side across (``BOARD_VIEW`` pixels), the bar on the vertical middle
line, one player at the bottom and one at the top. Players sit on opposite sides, so the right-hand half of
the player at the bottom (canonical x > bar) is the left-hand half of the player at the top, and the other way
round: a throw's zone depends on who threw.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.errors import CalibrationError

Thrower = Literal["bottom", "top"]
Zone = Literal["right_half", "wrong_half", "off_board"]
Point = tuple[float, float]

BOARD_VIEW = (1000.0, 800.0)  # canonical board width and height (outer edge of the board, frame included)
BOARD_MM = 524.0  # a typical tournament board's outer width; sets the expected die size in pixels
BOARD_DEPTH_MM = 444.0  # its outer depth (player to player)
FRAME_MM = 22.0  # the raised frame round the playing surface
BAR_MM = 30.0  # the raised bar between the two halves
DIE_MM = 16.5
RESTS_ON_MM = 6.0  # a die's centre this far onto the frame or the bar rests there (top-face parallax stays under)
EDGE_SUPPORT = 0.5  # a side is the board's edge when at least half of it runs along a straight image edge


@dataclass(frozen=True)
class Calibration:
    """The board's outer corners in image pixels, clockwise from the top left as the image shows it."""

    corners: tuple[Point, Point, Point, Point]
    homography: NDArray[np.float64] = field(repr=False, compare=False)

    @staticmethod
    def from_corners(corners: list[Point] | NDArray[np.float64] | tuple[Point, ...]) -> Calibration:
        pts = np.asarray(corners, dtype=np.float64).reshape(-1, 2)
        if pts.shape != (4, 2) or not np.all(np.isfinite(pts)):
            raise CalibrationError("calibration needs exactly four corners, each as x,y")
        ordered = order_corners(pts)
        area = cv2.contourArea(ordered.astype(np.float32))
        if area < 100 or not cv2.isContourConvex(ordered.astype(np.float32)):
            raise CalibrationError(f"the four corners do not make a convex board (area {area:.0f} px)")
        w, h = BOARD_VIEW
        target = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
        hom = cv2.getPerspectiveTransform(ordered.astype(np.float32), target.astype(np.float32))
        pts_t = tuple((float(x), float(y)) for x, y in ordered)
        return Calibration((pts_t[0], pts_t[1], pts_t[2], pts_t[3]), np.asarray(hom, np.float64))

    def to_board(self, points: NDArray[np.float64]) -> NDArray[np.float64]:
        """Image pixels -> canonical board coordinates."""
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        return np.asarray(cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2), np.float64)

    @property
    def bar_x(self) -> float:
        return BOARD_VIEW[0] / 2

    def bar_line(self) -> tuple[Point, Point]:
        """The bar's centre line in image pixels (top end, bottom end), for drawing."""
        inv = np.linalg.inv(self.homography)
        ends = np.array([[[self.bar_x, 0.0]], [[self.bar_x, BOARD_VIEW[1]]]])
        img = cv2.perspectiveTransform(ends, inv).reshape(-1, 2)
        return (float(img[0, 0]), float(img[0, 1])), (float(img[1, 0]), float(img[1, 1]))

    def to_board_mm(self, points: NDArray[np.float64]) -> NDArray[np.float64]:
        """Image pixels -> board millimetres from the board's top-left outer corner as the image shows it."""
        return np.asarray(self.to_board(points) * (np.array([BOARD_MM, BOARD_DEPTH_MM]) / BOARD_VIEW), np.float64)

    def edges_mm(self, point: Point) -> tuple[float, float, float]:
        """How far (board millimetres) ``point`` lies inside the playing surface: from the bar's nearer edge, and
        from the frame's inner edge across the board and along it (the nearer side each way). Negative: on the
        bar or the frame, or beyond it."""
        x, y = self.to_board(np.array([point]))[0]
        return _edges(x, y)

    def zone(self, point: Point, thrower: Thrower) -> Zone:
        """Where a die's centre lies. The frame and the bar are not playing surface: a die resting on
        either is ``off_board`` (the throw is void), like a die off the board."""
        x, y = self.to_board(np.array([point]))[0]
        if min(_edges(x, y)) < -RESTS_ON_MM:  # resting on the bar or the frame, or off the board
            return "off_board"
        right = x > self.bar_x if thrower == "bottom" else x < self.bar_x
        return "right_half" if right else "wrong_half"

    def die_px(self) -> float:
        """Expected die side in image pixels (board width in pixels over its width in millimetres)."""
        c = np.array(self.corners)
        width = (np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[3])) / 2
        return float(width / BOARD_MM * DIE_MM)

    def region_mask(self, shape: tuple[int, ...], grow: float = 0.3) -> NDArray[np.uint8]:
        """The board grown by ``grow`` of its size (dice just off the board are still found and ruled off)."""
        c = np.array(self.corners)
        centre = c.mean(axis=0)
        grown = centre + (c - centre) * (1 + grow)
        mask = np.zeros(shape[:2], np.uint8)
        cv2.fillConvexPoly(mask, np.round(grown).astype(np.int32), 255)
        return mask


def _edges(x: float, y: float) -> tuple[float, float, float]:
    """``Calibration.edges_mm`` of a point in canonical board coordinates."""
    w, h = BOARD_VIEW
    x_mm, y_mm = abs(x - w / 2) * BOARD_MM / w, abs(y - h / 2) * BOARD_DEPTH_MM / h  # from the board's middle
    return float(x_mm - BAR_MM / 2), float(BOARD_MM / 2 - FRAME_MM - x_mm), float(BOARD_DEPTH_MM / 2 - FRAME_MM - y_mm)


def order_corners(pts: NDArray[np.float64]) -> NDArray[np.float64]:
    """Top-left, top-right, bottom-right, bottom-left (by angle round the centre, starting top left)."""
    centre = pts.mean(axis=0)
    ang = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    ordered = pts[np.argsort(ang)]  # clockwise on screen (y down), starting somewhere
    start = int(np.argmin(ordered.sum(axis=1)))
    return np.asarray(np.roll(ordered, -start, axis=0), np.float64)


def parse_corners(text: str) -> Calibration:
    """``"x,y x,y x,y x,y"`` (spaces or semicolons between corners) -> Calibration."""
    try:
        parts = [p for p in text.replace(";", " ").split() if p]
        pts = [tuple(float(v) for v in p.split(",")) for p in parts]
    except ValueError as exc:
        raise CalibrationError(f"corners must be four x,y pairs, got {text!r}") from exc
    if len(pts) != 4 or any(len(p) != 2 for p in pts):
        raise CalibrationError(f"corners must be four x,y pairs, got {text!r}")
    return Calibration.from_corners([(p[0], p[1]) for p in pts])


def detect_board(image: NDArray[np.uint8]) -> Calibration:
    """Find the board's outer edge automatically. Candidate four-sided shapes come from what stands out from
    the table (several thresholds) and from the image's edges; the largest one whose every side runs along a
    straight edge of the image wins. Raises CalibrationError when none is convincing (then give the corners by
    hand): a wrong board would misplace every die, a refusal only asks for four taps."""
    if image is None or image.ndim != 3 or image.shape[0] < 32 or image.shape[1] < 32:
        raise CalibrationError("no image to find the board in")
    h, w = image.shape[:2]
    scale = 480 / max(h, w)
    small = cv2.resize(image, (int(w * scale), int(h * scale)), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (5, 5), 0)
    sh, sw = small.shape[:2]
    candidates: list[NDArray[np.float64]] = []
    # everything unlike the table (the colour along the image border), at several thresholds
    border = np.concatenate([small[0], small[-1], small[:, 0], small[:, -1]]).astype(np.float32)
    table = np.median(border, axis=0)
    diff = np.abs(small.astype(np.float32) - table).sum(axis=2)
    for thresh in (40.0, 60.0, 90.0, 130.0):
        mask = (diff > thresh).astype(np.uint8) * 255
        closed = np.asarray(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8)), np.uint8)
        quad = _largest_quad(closed, sw * sh)
        if quad is not None:
            candidates.append(quad)
    # the outline of the image's edges
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    edges = cv2.dilate(cv2.Canny(grey, 30, 90), np.ones((3, 3), np.uint8), iterations=2)
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros(edges.shape[:2], np.uint8)
    cv2.drawContours(filled, contours, -1, 255, -1)
    quad = _largest_quad(filled, sw * sh)
    if quad is not None:
        candidates.append(quad)
    g = grey.astype(np.float32)
    gx, gy = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)
    convincing = [
        q
        for q in candidates
        if _edge_support(np.asarray(gx, np.float32), np.asarray(gy, np.float32), q) >= EDGE_SUPPORT
    ]
    if not convincing:
        raise CalibrationError("could not find the board's four corners; give them with --corners")
    best = max(convincing, key=lambda q: cv2.contourArea(q.astype(np.float32)))
    return Calibration.from_corners(best / scale)


def _edge_support(
    gx: NDArray[np.float32], gy: NDArray[np.float32], quad: NDArray[np.float64], samples: int = 48
) -> float:
    """The weakest side's share of points (within 2 px) where the image has a strong edge running along that
    side. Points of the board, checkers and a textured table give strong edges too, but in every direction, so
    a side cutting across the board or the table scores low. A side lying on the picture's border (a board
    cut off by the frame) has no edge to show: it is skipped, and the other three must then be clear."""
    mag = np.hypot(gx, gy)
    hgt, wid = mag.shape
    strong = max(8.0, float(np.percentile(mag, 75)))
    support = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        on_border = (abs(a[1] - b[1]) <= 3 and (min(a[1], b[1]) <= 2 or max(a[1], b[1]) >= hgt - 3)) or (
            abs(a[0] - b[0]) <= 3 and (min(a[0], b[0]) <= 2 or max(a[0], b[0]) >= wid - 3)
        )
        if on_border:
            continue
        length = float(np.linalg.norm(b - a))
        if length < 1:
            return 0.0
        normal = np.array([a[1] - b[1], b[0] - a[0]]) / length
        t = np.linspace(0.08, 0.92, samples)[:, None, None]
        offsets = np.arange(-2, 3)[None, :, None]
        pts = a + (b - a) * t + normal * offsets  # samples x 5 offsets x 2
        xs = np.clip(np.round(pts[..., 0]).astype(int), 0, wid - 1)
        ys = np.clip(np.round(pts[..., 1]).astype(int), 0, hgt - 1)
        m = mag[ys, xs]
        across = np.abs(gx[ys, xs] * normal[0] + gy[ys, xs] * normal[1]) / np.maximum(m, 1e-6)
        hit = ((m >= strong) & (across > 0.85)).any(axis=1)
        support.append(float(hit.mean()))
    if len(support) < 3:
        return 0.0
    if len(support) == 3:
        return min(support) if min(support) >= 0.8 else 0.0
    return min(support)


def _largest_quad(mask: NDArray[np.uint8], image_area: float) -> NDArray[np.float64] | None:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    biggest = max(contours, key=cv2.contourArea)
    area = cv2.contourArea(biggest)
    if area < 0.15 * image_area or area > 0.98 * image_area:
        return None
    hull = cv2.convexHull(biggest)
    peri = cv2.arcLength(hull, True)
    for eps in (0.01, 0.02, 0.03, 0.05):
        approx = cv2.approxPolyDP(hull, eps * peri, True)
        if len(approx) == 4:
            quad = approx.reshape(4, 2).astype(np.float64)
            if cv2.contourArea(quad.astype(np.float32)) > 0.85 * area:
                return quad
            return None
    return None
