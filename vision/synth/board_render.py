"""Whole tavla boards in game positions, drawn with OpenCV, with their exact truth.

The dice renderer (``render.py``) draws checkers only as clutter beside dice; the checker reader needs boards in
positions players really reach: rows of five from the rim with a second and third layer on top, checkers on the
bar, borne-off checkers beside the board or in a tray, dice and the cube among them. The board is drawn flat in
the canonical plane (``calibration.BOARD_VIEW``) and warped into a 1280x720 frame by the homography of four
slightly skewed corners, as a camera above the board sees it; the truth follows the command's reading order.
"""

from __future__ import annotations

import functools
import zlib
from dataclasses import dataclass
from typing import Literal, NamedTuple

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]
BGR = tuple[int, int, int]
Side = Literal["light", "dark"]

BOARD_VIEW = (1000.0, 800.0)  # the canonical board of vision.calibration (this package may not import it)
SEED_BASE = 7_300_000  # far from the seeds of the dice renderer and the training sets: never the same boards
FRAME = (1280, 720)
MARGIN = 190  # canonical pixels drawn round the board: the borne-off checkers and the tray lie there
CHECKERS = 15
POINTS = 24

# light/dark checker pairs (BGR) as clubs' sets come: ivory and brown, white and black, white and red, ...
CHECKER_PAIRS: tuple[tuple[BGR, BGR], ...] = (
    ((205, 230, 240), (35, 45, 70)),
    ((235, 235, 235), (30, 30, 30)),
    ((225, 235, 240), (40, 40, 170)),
    ((190, 215, 225), (40, 70, 30)),
    ((210, 225, 230), (45, 30, 110)),
    ((170, 200, 215), (25, 40, 60)),
    ((230, 230, 215), (90, 50, 20)),
)
FRAME_COLOURS: tuple[BGR, ...] = ((40, 75, 120), (30, 50, 80), (60, 100, 150), (25, 30, 35), (70, 110, 140))
FIELD_COLOURS: tuple[BGR, ...] = ((50, 110, 40), (120, 170, 200), (60, 60, 120), (140, 190, 215), (70, 90, 40))
POINT_COLOURS: tuple[tuple[BGR, BGR], ...] = (
    ((40, 40, 150), (200, 220, 230)),
    ((30, 60, 100), (150, 200, 220)),
    ((60, 40, 30), (170, 210, 225)),
    ((30, 30, 30), (60, 120, 180)),
    ((80, 50, 120), (190, 200, 190)),
)


class Spot(NamedTuple):
    """A die (or the cube, ``value`` 0, its number ``text``) lying flat on the field: its centre in canonical board
    pixels and its turn, radians."""

    x: float
    y: float
    angle: float
    value: int
    text: str = ""


@dataclass(frozen=True)
class BoardTruth:
    """What a rendered board holds, in the contract of ``python -m vision checkers``: signed counts in the
    image's reading order (top row left to right, then the bottom row; + the bottom player's), bar and off as
    [bottom, top], the board's outer corners in frame pixels (TL, TR, BR, BL), and the scene's facts for the
    per-case figures."""

    points: tuple[int, ...]
    bar: tuple[int, int]
    off: tuple[int, int]
    corners: tuple[tuple[float, float], ...]
    bottom_colour: Side
    home_right: bool
    dice: bool
    cube: bool
    off_placement: str  # "row", "tray" or "pile" (all in one upright pile: only its top shows), "" with none off
    spots: tuple[Spot, ...] = ()
    """The dice and the cube drawn."""

    @property
    def tallest(self) -> int:
        return max(abs(p) for p in self.points)


@dataclass(frozen=True)
class Geometry:
    """One board's measures in canonical pixels; boards differ by a few per cent in frame, bar and checker."""

    field_x: tuple[float, float]
    field_y: tuple[float, float]
    bar_x: tuple[float, float]
    checker: float

    def column_x(self, col: int) -> float:
        left, right = (self.field_x[0], self.bar_x[0]) if col < 6 else (self.bar_x[1], self.field_x[1])
        return left + (right - left) / 6 * (col % 6 + 0.5)


def home_slots(bottom: bool, home_right: bool) -> list[int]:
    """The reading-order indices of a player's home board: the bottom player's in the bottom row, the top
    player's in the top row, on the home side."""
    cols = range(6, 12) if home_right else range(0, 6)
    return [(12 if bottom else 0) + c for c in cols]


def random_position(rng: np.random.Generator, home_right: bool) -> tuple[list[int], list[int], list[int]]:
    """A legal tavla position as games reach them: 15 a side over points, bar and off, one colour a point, and
    borne-off checkers only for a side with every other checker home and none on the bar."""
    points = [0] * POINTS
    bar, off = [0, 0], [0, 0]
    for side in rng.permutation(2):
        sign = 1 if side == 0 else -1
        bearing = rng.random() < 0.35
        if bearing:
            off[side] = int(rng.integers(1, 15))
            allowed = home_slots(side == 0, home_right)
        else:
            bar[side] = int(rng.choice([0, 0, 0, 1, 1, 2, 3]))
            allowed = list(range(POINTS))
        free = [i for i in allowed if points[i] * sign >= 0]
        left = CHECKERS - off[side] - bar[side]
        if left and not free:  # the other side holds all of this side's home: bear none off
            off[side] = 0
            free = [i for i in range(POINTS) if points[i] * sign >= 0]
            left = CHECKERS - bar[side]
        n_points = int(rng.integers(1, min(len(free), left, 7) + 1)) if left else 0
        chosen = list(rng.choice(free, size=n_points, replace=False))
        weights = rng.dirichlet(np.full(n_points, 0.7)) if n_points else np.zeros(0)
        counts: list[int] = list(1 + rng.multinomial(left - n_points, weights)) if n_points else []
        for i, c in zip(chosen, counts, strict=True):
            points[int(i)] = sign * int(c)
    return points, bar, off


def _shade(colour: BGR, factor: float) -> BGR:
    return (
        int(np.clip(colour[0] * factor, 0, 255)),
        int(np.clip(colour[1] * factor, 0, 255)),
        int(np.clip(colour[2] * factor, 0, 255)),
    )


def _checker(canvas: Image, x: float, y: float, r: float, colour: BGR, rings: bool, layer: int) -> None:
    """One checker seen from above: a soft shadow, a darker side showing under a higher layer, the top."""
    c = (round(x * 4), round(y * 4))
    ri = round(r * 4)
    x0, y0 = max(int(x - r) - 4, 0), max(int(y - r) - 4, 0)  # the shadow is blended in the checker's box only
    roi = canvas[y0 : int(y + r) + 8, x0 : int(x + r) + 8]
    shadow = roi.copy()
    cv2.circle(shadow, (c[0] + 8 - 4 * x0, c[1] + 10 - 4 * y0), ri, (10, 10, 10), -1, cv2.LINE_AA, 2)
    cv2.addWeighted(shadow, 0.35, roi, 0.65, 0, roi)
    if layer:
        cv2.circle(canvas, (c[0] + 6, c[1] + 8), ri, _shade(colour, 0.55), -1, cv2.LINE_AA, 2)
    cv2.circle(canvas, c, ri, _shade(colour, 0.8), -1, cv2.LINE_AA, 2)
    cv2.circle(canvas, c, round(ri * 0.93), colour, -1, cv2.LINE_AA, 2)
    if rings:
        cv2.circle(canvas, c, round(ri * 0.68), _shade(colour, 0.85), 2, cv2.LINE_AA, 2)
    cv2.circle(canvas, (c[0] - ri // 4, c[1] - ri // 4), round(ri * 0.35), _shade(colour, 1.06), -1, cv2.LINE_AA, 2)


def _die(canvas: Image, x: float, y: float, size: float, angle: float, value: int, body: BGR, pip: BGR) -> None:
    """A flat die (or, with ``value`` 0 and a number, the cube) as a rotated rounded square with pips."""
    half = size / 2
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    corners = np.array([[-half, -half], [half, -half], [half, half], [-half, half]]) @ rot.T + [x, y]
    cv2.fillConvexPoly(canvas, np.round(corners * 4).astype(np.int32), body, cv2.LINE_AA, 2)
    cv2.polylines(canvas, [np.round(corners * 4).astype(np.int32)], True, _shade(body, 0.7), 1, cv2.LINE_AA, 2)
    layout = {
        1: [(0, 0)],
        2: [(-1, -1), (1, 1)],
        3: [(-1, -1), (0, 0), (1, 1)],
        4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
        5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
        6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
    }
    for px, py in layout.get(value, []):
        p = np.array([px, py]) * size * 0.27 @ rot.T + [x, y]
        cv2.circle(canvas, (round(p[0] * 4), round(p[1] * 4)), round(size * 0.09 * 4), pip, -1, cv2.LINE_AA, 2)


@dataclass(frozen=True)
class Setting:
    """A position to draw instead of a random one (a simulated game's board): counts in the command's reading
    order, bar and off as [bottom, top], the reading-order points where the lowest checker is the other side's
    (a plakoto pin: the pinned checker at the rim, its pinners beyond it), which side is home and the bottom
    player's colour. ``spots``: the dice and the cube to draw where they lie (a throw's dice still on the board at
    the press); None draws them at random, as on any board."""

    points: tuple[int, ...]
    bar: tuple[int, int]
    off: tuple[int, int]
    home_right: bool
    bottom_colour: Side
    pins: tuple[int, ...] = ()
    spots: tuple[Spot, ...] | None = None


@functools.lru_cache(maxsize=4)
def _light(size: tuple[int, int], lamp: float, level: float, fall_off: float) -> NDArray[np.float32]:
    """A lamp's fall-off across the board (towards ``lamp``, radians) and an overall level, one factor a pixel: a
    scene's pictures share it."""
    yy, xx = np.mgrid[0 : size[1], 0 : size[0]].astype(np.float32)
    gradient = (np.cos(lamp) * (xx - size[0] / 2) + np.sin(lamp) * (yy - size[1] / 2)) / size[0]
    light: NDArray[np.float32] = (level * (1 + gradient * fall_off))[..., None]
    light.flags.writeable = False
    return light


def render_board(index: int, setting: Setting | None = None) -> tuple[Image, BoardTruth]:
    """The ``index``-th rendered board (the same each time) and its truth; with ``setting``, that position on
    the ``index``-th board's scene (its truth then counts a pinned checker nowhere: one colour a point). A scene's
    board, light and camera stay as a station's do from picture to picture; where its checkers, dice and the cube
    lie, and the camera's noise, are each picture's own (``picture``'s generator, drawn from the position), but a
    checker that did not move lies as it lay (``placing``: one generator a place)."""
    rng = np.random.default_rng(SEED_BASE + index)
    picture = rng if setting is None else np.random.default_rng([SEED_BASE + index, zlib.crc32(repr(setting).encode())])

    def placing(place: int) -> np.random.Generator:
        return picture if setting is None else np.random.default_rng([SEED_BASE + index, place])

    w, h = BOARD_VIEW
    fx, fy = rng.uniform(54, 66), rng.uniform(52, 64)
    bar_half = rng.uniform(32, 40)
    geo = Geometry((fx, w - fx), (fy, h - fy), (w / 2 - bar_half, w / 2 + bar_half), 64.0 * rng.uniform(0.95, 1.03))
    home_right = bool(rng.random() < 0.5)
    points, bar, off = random_position(rng, home_right)
    bottom_colour: Side = "light" if rng.random() < 0.5 else "dark"
    pins: tuple[int, ...] = ()
    if setting is not None:
        points, bar, off = list(setting.points), list(setting.bar), list(setting.off)
        home_right, bottom_colour, pins = setting.home_right, setting.bottom_colour, setting.pins
    light, dark = CHECKER_PAIRS[rng.integers(len(CHECKER_PAIRS))]
    colours = (light, dark) if bottom_colour == "light" else (dark, light)  # [bottom, top]
    rings = bool(rng.random() < 0.5)

    size = (int(w + 2 * MARGIN), int(h + 2 * MARGIN))
    table = tuple(int(v) for v in rng.integers(60, 200, 3))
    canvas = np.empty((size[1], size[0], 3), np.uint8)  # canonical pixels; shapes drawn to a quarter pixel
    canvas[:] = table
    o = MARGIN

    def box(x0: float, y0: float, x1: float, y1: float, colour: BGR) -> None:
        cv2.rectangle(canvas, (round(x0 + o), round(y0 + o)), (round(x1 + o), round(y1 + o)), colour, -1)

    frame_c = FRAME_COLOURS[rng.integers(len(FRAME_COLOURS))]
    field_c = FIELD_COLOURS[rng.integers(len(FIELD_COLOURS))]
    point_cs = POINT_COLOURS[rng.integers(len(POINT_COLOURS))]
    box(0, 0, w, h, frame_c)
    box(geo.field_x[0], geo.field_y[0], geo.field_x[1], geo.field_y[1], field_c)
    box(geo.bar_x[0], 0, geo.bar_x[1], h, _shade(frame_c, 0.9))
    pitch = (geo.bar_x[0] - geo.field_x[0]) / 6
    for slot in range(POINTS):
        row, col = divmod(slot, 12)
        x = geo.column_x(col)
        rim = geo.field_y[0] if row == 0 else geo.field_y[1]
        tip = rim + (1 if row == 0 else -1) * (geo.field_y[1] - geo.field_y[0]) * 0.42
        tri = np.array([[x - pitch * 0.47, rim], [x + pitch * 0.47, rim], [x, tip]]) + o
        cv2.fillConvexPoly(canvas, np.round(tri * 4).astype(np.int32), point_cs[(slot + row) % 2], cv2.LINE_AA, 2)

    # where each checker lies: (x, y, side, layer), in canonical board pixels
    placed: list[tuple[float, float, int, int]] = []
    r = geo.checker / 2
    centre = np.array([w / 2, h / 2]) + rng.normal(0, 40, 2)
    parallax = rng.uniform(0.008, 0.014)  # a checker's thickness over the camera's height: higher layers lean out
    for slot, count in enumerate(points):
        row, col = divmod(slot, 12)
        jitter = placing(slot)
        x0 = geo.column_x(col) + jitter.normal(0, 1.5)
        rim = geo.field_y[0] if row == 0 else geo.field_y[1]
        step = 1 if row == 0 else -1
        pinned = slot in pins
        for k in range(abs(count) + pinned):
            layer, place = divmod(k, 5)
            y = rim + step * (r + 0.5 + place * geo.checker * jitter.uniform(0.99, 1.03))
            p = np.array([x0 + jitter.normal(0, 1.2), y])
            if layer:
                p = p + (p - centre) * parallax * layer + jitter.normal(0, 2.5, 2)
            side = 0 if count > 0 else 1
            placed.append((float(p[0]), float(p[1]), 1 - side if pinned and k == 0 else side, layer))
    for side in (0, 1):  # the bar: each player's in their own half of it
        jitter = placing(POINTS + side)
        for k in range(bar[side]):
            y = h / 2 + (1 if side == 0 else -1) * (r + 4 + k * geo.checker * 1.02)
            placed.append((w / 2 + jitter.normal(0, 2), y, side, 0))
    off_placement = ""
    tray = rng.random() < 0.35
    if sum(off):
        off_placement = "tray" if tray else ("pile" if placing(POINTS + 2).random() < 0.15 else "row")
        off_x = w + MARGIN * 0.45 if home_right else -MARGIN * 0.45
        if tray:
            box(off_x - r - 14, h * 0.08, off_x + r + 14, h * 0.92, _shade(frame_c, 0.75))
        for side in (0, 1):
            n = off[side]
            jitter = placing(POINTS + 3 + side)
            start = h - geo.field_y[0] - r if side == 0 else geo.field_y[0] + r
            step = -1 if side == 0 else 1
            for k in range(n):
                if off_placement == "pile":
                    layer, place = k, 0
                else:
                    layer, place = divmod(k, 5)
                p = np.array([off_x + jitter.normal(0, 1.5), start + step * place * geo.checker * 1.02])
                if layer:
                    p = p + (p - centre) * parallax * layer + jitter.normal(0, 1.5, 2)
                placed.append((float(p[0]), float(p[1]), side, layer))
    for x, y, side, layer in sorted(placed, key=lambda t: t[3]):
        _checker(canvas, x + o, y + o, r, colours[side], rings, layer)

    die_body, die_pip = (240, 240, 240), (20, 20, 20)
    if setting is None or setting.spots is None:
        dice, cube = bool(picture.random() < 0.5), bool(picture.random() < 0.3)
        extras = (2 if dice else 0) + (1 if cube else 0)
        centres: list[tuple[float, float]] = []
        for _ in range(200):
            if len(centres) == extras:
                break
            half_x = picture.choice(
                [(geo.field_x[0] + 30, geo.bar_x[0] - 30), (geo.bar_x[1] + 30, geo.field_x[1] - 30)]
            )
            sx, sy = float(picture.uniform(*half_x)), float(picture.uniform(geo.field_y[0] + 30, geo.field_y[1] - 30))
            clear = all(np.hypot(sx - q[0], sy - q[1]) > 60 for q in centres)
            if clear and all(np.hypot(sx - c[0], sy - c[1]) > r + 30 for c in placed):  # beside, not on, a checker
                centres.append((sx, sy))
        if rng.random() >= 0.6:  # the scene's dice: white with black pips, or red with white
            die_body, die_pip = (40, 40, 190), (240, 240, 240)
        spots = []
        for k, (x, y) in enumerate(centres):
            is_cube = cube and k == len(centres) - 1
            value = 0 if is_cube else int(picture.integers(1, 7))
            angle = float(picture.uniform(0, np.pi))
            text = str(int(picture.choice([2, 4, 8, 16, 32, 64]))) if is_cube else ""
            spots.append(Spot(x, y, angle, value, text))
    else:
        if rng.random() >= 0.6:
            die_body, die_pip = (40, 40, 190), (240, 240, 240)
        spots = list(setting.spots)
        dice, cube = any(s.value for s in spots), any(not s.value for s in spots)
    for spot in spots:
        is_cube = not spot.value
        side_len = geo.checker * (0.72 if is_cube else 0.5)
        body = (235, 235, 235) if is_cube else die_body
        _die(canvas, spot.x + o, spot.y + o, side_len, spot.angle, spot.value, body, die_pip)
        if is_cube:
            cv2.putText(
                canvas,
                spot.text,
                (round(spot.x + o - 12), round(spot.y + o + 9)),
                cv2.FONT_HERSHEY_SIMPLEX,
                0.75,
                (20, 20, 20),
                2,
                cv2.LINE_AA,
            )

    lamp = rng.uniform(0, 2 * np.pi)
    level = rng.uniform(0.75, 1.15)
    flat = np.clip(canvas.astype(np.float32) * _light(size, lamp, level, rng.uniform(0, 0.45)), 0, 255).astype(np.uint8)

    scale = rng.uniform(0.6, 0.76) * FRAME[1] / h
    bw, bh = w * scale, h * scale
    cx = FRAME[0] / 2 + rng.uniform(-60, 60)
    cy = FRAME[1] / 2 + rng.uniform(-10, 10)
    rect = np.array(
        [[cx - bw / 2, cy - bh / 2], [cx + bw / 2, cy - bh / 2], [cx + bw / 2, cy + bh / 2], [cx - bw / 2, cy + bh / 2]]
    )
    skew = rng.normal(0, 0.025 * bw, (4, 2))  # a slight tilt and roll of the camera
    roll = rng.normal(0, 0.03)
    rot = np.array([[np.cos(roll), -np.sin(roll)], [np.sin(roll), np.cos(roll)]])
    corners = (rect - [cx, cy]) @ rot.T + [cx, cy] + skew
    src = np.array([[o, o], [o + w, o], [o + w, o + h], [o, o + h]], np.float32)
    m = cv2.getPerspectiveTransform(src, np.asarray(corners, np.float32))
    frame = cv2.warpPerspective(flat, m, FRAME, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    frame = cv2.GaussianBlur(frame, (0, 0), rng.uniform(0.4, 1.2))
    grain = rng.uniform(1.5, 5.0)  # the camera's, and each picture its own noise
    noise = picture.normal(0, grain, frame.shape)
    noisy = frame.astype(np.float32) + np.asarray(noise, np.float32)
    frame = np.clip(noisy, 0, 255).astype(np.uint8)
    ok, jpeg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(75, 95))])
    image = np.asarray(cv2.imdecode(jpeg, cv2.IMREAD_COLOR) if ok else frame, np.uint8)

    truth = BoardTruth(
        points=tuple(points),
        bar=(bar[0], bar[1]),
        off=(off[0], off[1]),
        corners=tuple((float(x), float(y)) for x, y in corners),
        bottom_colour=bottom_colour,
        home_right=home_right,
        dice=dice,
        cube=cube,
        off_placement=off_placement,
        spots=tuple(spots),
    )
    return image, truth
