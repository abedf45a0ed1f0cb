"""Where the board is in the image: four corners, a homography to a canonical top view, the bar, the halves; and
the board itself in millimetres (``Board``), measured at set-up: boards and dice differ, and every millimetre
figure the verdict uses (the bar's and the frame's edges, what a die rests on, the slant a flat die shows)
comes from the station's own board. The defaults are only a first guess that set-up replaces.

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
BOARD_MM = 524.0  # a typical tournament board's outer width: the first guess until set-up measures the board
BOARD_DEPTH_MM = 444.0  # its outer depth (player to player)
FRAME_MM = 22.0  # the raised frame round the playing surface
BAR_MM = 30.0  # the raised bar between the two halves
DIE_MM = 16.5
RESTS_ON = 6.0 / DIE_MM
"""A die's centre this many die sides onto the frame or the bar rests there (its top face's parallax stays under)."""
BOX_OVER_DIE = 1.6
"""A flat die's box, as the reader finds it on a measured board, is about this many die sides (its sides and
shadow: the median over the 190 flat dice of shared/foreign_renders, whose sizes their labels give; 5 % under
1.2, none over 2.4)."""
EDGE_SUPPORT = 0.5  # a side is the board's edge when at least half of it runs along a straight image edge


@dataclass(frozen=True)
class Board:
    """A board and its dice in millimetres: outer width and depth, the frame's width (left and right, top and
    bottom), the bar's width and the dice's side. ``measured``: set-up measured it (:meth:`from_field`), not the
    first guess."""

    width_mm: float = BOARD_MM
    depth_mm: float = BOARD_DEPTH_MM
    frame_mm: float = FRAME_MM
    frame_depth_mm: float = FRAME_MM
    bar_mm: float = BAR_MM
    die_mm: float = DIE_MM
    measured: bool = False

    def __post_init__(self) -> None:
        sizes = (self.width_mm, self.depth_mm, self.frame_mm, self.frame_depth_mm, self.bar_mm, self.die_mm)
        if not all(np.isfinite(v) and v > 0 for v in sizes):
            raise CalibrationError("every size of the board and its dice must be a positive number of millimetres")
        if (
            2 * self.frame_mm + self.bar_mm + 12 * self.die_mm > self.width_mm
            or 2 * self.frame_depth_mm >= self.depth_mm
        ):
            raise CalibrationError(
                f"a board {self.width_mm:.0f} x {self.depth_mm:.0f} mm cannot hold frames of {self.frame_mm:.0f} and "
                f"{self.frame_depth_mm:.0f} mm, a bar of {self.bar_mm:.0f} mm and twelve points as wide as a die"
            )

    @property
    def rests_on_mm(self) -> float:
        """How far onto the frame or the bar a die's centre lies when the die rests there."""
        return RESTS_ON * self.die_mm

    @property
    def mm_per_view(self) -> NDArray[np.float64]:
        """Millimetres per canonical board pixel, across and along."""
        return np.array([self.width_mm / BOARD_VIEW[0], self.depth_mm / BOARD_VIEW[1]])

    @staticmethod
    def from_field(
        field_mm: tuple[float, float],
        outer_px: list[Point] | NDArray[np.float64] | tuple[Point, ...],
        field_px: list[Point] | NDArray[np.float64] | tuple[Point, ...],
        bar_mm: float,
        die_mm: float = DIE_MM,
    ) -> Board:
        """The board set-up measures: the playing field's width and depth (bar included) and the bar's width as
        entered once, and the board's outer corners and the field's corners as tapped (image pixels); the
        frame's widths and the board's outer size follow from where the field lies within the outer corners.
        Raises CalibrationError when the picture does not allow measuring (the field not inside the board, or a
        frame too thin to see)."""
        outer = Calibration.from_corners(outer_px)
        inner = np.asarray(field_px, np.float64).reshape(-1, 2)
        if inner.shape != (4, 2) or not np.all(np.isfinite(inner)):
            raise CalibrationError("the playing field needs exactly four corners, each as x,y")
        seen = outer.to_board(order_corners(inner))
        w, h = BOARD_VIEW
        left, right = (seen[0, 0] + seen[3, 0]) / 2, (seen[1, 0] + seen[2, 0]) / 2
        top, bottom = (seen[0, 1] + seen[1, 1]) / 2, (seen[2, 1] + seen[3, 1]) / 2
        if not (0 < left < right < w and 0 < top < bottom < h):
            raise CalibrationError("the playing field's corners do not lie inside the board's outer corners")
        across, along = (right - left) / w, (bottom - top) / h  # the field's share of the board
        frame_px = min(left, w - right, top, h - bottom) * min(
            np.linalg.norm(np.subtract(outer.corners[1], outer.corners[0])) / w,
            np.linalg.norm(np.subtract(outer.corners[3], outer.corners[0])) / h,
        )
        if frame_px < 2.0:
            raise CalibrationError(
                f"the frame is {frame_px:.1f} pixels wide in the picture: too thin to measure the board "
                "(bring the camera closer or give it more pixels)"
            )
        width, depth = field_mm[0] / across, field_mm[1] / along
        return Board(
            width_mm=float(width),
            depth_mm=float(depth),
            frame_mm=float((width - field_mm[0]) / 2),
            frame_depth_mm=float((depth - field_mm[1]) / 2),
            bar_mm=float(bar_mm),
            die_mm=float(die_mm),
            measured=True,
        )


DEFAULT_BOARD = Board()
"""The first guess: a typical tournament board and precision dice, until set-up measures the station's own."""


@dataclass(frozen=True)
class Calibration:
    """The board's outer corners in image pixels, clockwise from the top left as the image shows it, and the
    board they outline (``board``: measured at set-up, or the first guess)."""

    corners: tuple[Point, Point, Point, Point]
    homography: NDArray[np.float64] = field(repr=False, compare=False)
    board: Board = DEFAULT_BOARD

    @staticmethod
    def from_corners(
        corners: list[Point] | NDArray[np.float64] | tuple[Point, ...], board: Board = DEFAULT_BOARD
    ) -> Calibration:
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
        return Calibration((pts_t[0], pts_t[1], pts_t[2], pts_t[3]), np.asarray(hom, np.float64), board)

    def measured(self, board: Board) -> Calibration:
        """The same corners on the board set-up measured."""
        return Calibration(self.corners, self.homography, board)

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
        return np.asarray(self.to_board(points) * self.board.mm_per_view, np.float64)

    def edges_mm(self, point: Point) -> tuple[float, float, float]:
        """How far (board millimetres) ``point`` lies inside the playing surface: from the bar's nearer edge, and
        from the frame's inner edge across the board and along it (the nearer side each way). Negative: on the
        bar or the frame, or beyond it."""
        x, y = self.to_board(np.array([point]))[0]
        return _edges(x, y, self.board)

    def zone(self, point: Point, thrower: Thrower) -> Zone:
        """Where a die's centre lies. The frame and the bar are not playing surface: a die resting on
        either is ``off_board`` (the throw is void), like a die off the board."""
        x, y = self.to_board(np.array([point]))[0]
        if min(_edges(x, y, self.board)) < -self.board.rests_on_mm:  # resting on the bar or the frame, or off the board
            return "off_board"
        right = x > self.bar_x if thrower == "bottom" else x < self.bar_x
        return "right_half" if right else "wrong_half"

    def die_px(self) -> float:
        """Expected die side in image pixels (board width in pixels over its width in millimetres)."""
        c = np.array(self.corners)
        width = (np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[3])) / 2
        return float(width / self.board.width_mm * self.board.die_mm)

    def region_mask(self, shape: tuple[int, ...], grow: float = 0.3) -> NDArray[np.uint8]:
        """The board grown by ``grow`` of its size (dice just off the board are still found and ruled off)."""
        c = np.array(self.corners)
        centre = c.mean(axis=0)
        grown = centre + (c - centre) * (1 + grow)
        mask = np.zeros(shape[:2], np.uint8)
        cv2.fillConvexPoly(mask, np.round(grown).astype(np.int32), 255)
        return mask


def _edges(x: float, y: float, board: Board) -> tuple[float, float, float]:
    """``Calibration.edges_mm`` of a point in canonical board coordinates."""
    w, h = BOARD_VIEW
    x_mm, y_mm = abs(x - w / 2) * board.width_mm / w, abs(y - h / 2) * board.depth_mm / h  # from the middle
    return (
        float(x_mm - board.bar_mm / 2),
        float(board.width_mm / 2 - board.frame_mm - x_mm),
        float(board.depth_mm / 2 - board.frame_depth_mm - y_mm),
    )


def die_mm_of(boxes: list[tuple[int, int, int, int]], calibration: Calibration) -> float:
    """The dice's side in millimetres, from the boxes the reader found them in on set-up throws of flat dice
    (the median box, less the margin the reader's box has round a die: ``BOX_OVER_DIE``). Raises
    CalibrationError without any box."""
    if not boxes:
        raise CalibrationError("no die read on the set-up throws: the dice's size cannot be measured")
    sides = []
    for x0, y0, x1, y1 in boxes:
        corners = calibration.to_board(np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], np.float64))
        sides.append(np.sqrt(abs(cv2.contourArea((corners * calibration.board.mm_per_view).astype(np.float32)))))
    return float(np.median(sides) / BOX_OVER_DIE)


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
