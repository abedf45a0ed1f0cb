"""Where the checkers stand: every point's count and colour, the bar and the borne-off checkers, from one frame.

A careful classical reader with one small learned part: the board plane is rectified from the four tapped
corners, the checkers' round tops are found as circles of the size a checker has on a board, their two colours
are told apart by clustering (light and dark), and each top is placed on a point, the bar or off the board by
the board's geometry. A checker lying on another one in a higher layer shows no top of its own: the stack
counter (``models/checker_count.onnx``) reads each full row's height from the frame, taken only where the sum
rules hold with it; a side that still comes short of 15 is completed only where one place alone can hold the
rest and nothing in the picture points to a checker missed; otherwise (and for a side over 15) the reading is
unsure, never guessed."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Protocol

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.calibration import BOARD_VIEW, Calibration
from vision.cover import Place, covered
from vision.crop_reader import Backend, OnnxModel, softmax
from vision.errors import ModelError

Colour = Literal["light", "dark"]
Box = tuple[int, int, int, int]
CHECKERS_A_SIDE = 15
POINTS = 24

# The board's geometry in the canonical view (calibration.BOARD_VIEW, outer edge of the frame 1000 x 800); boards
# differ by a few per cent in their frame and bar, which the nearest-point placing absorbs.
FIELD_X = (60.0, 940.0)  # the playing field's inner edges across
FIELD_Y = (58.0, 742.0)  # and along (the rims the points stand on)
BAR_X = (463.0, 537.0)  # the bar between the two halves
CHECKER = 64.0  # a checker's diameter, canonical pixels (31-36 mm on a 480-580 mm board)
MIDDLE = (368.0, 432.0)  # the band between the two rows of points, where a checker beside the bar waits to enter

STRICT = (80.0, 14.0)  # Hough's edge threshold and votes for a checker top taken as found
SENSITIVE = (50.0, 11.0)  # and for one kept only when it has a checker's colour
LOOSE_FIT = 0.3  # a sensitive find's colour lies within this share of the two colours' distance from one of them
SCALE = 0.5  # the reading view's pixels per canonical pixel: a checker about 32 px across
MARGIN = 0.16  # the view reaches this share of the board beyond each edge: the borne-off checkers lie there
MIN_CONTRAST = 8.0  # the two checker colours must differ at least this much (Lab distance) to be told apart
SEPARATION = 4.0  # and by this many times the tops' mean distance from their own colour
MIN_LIGHTER = 10.0  # the lighter colour's L* must exceed the darker one's by this (a lamp's fall-off can flip less)
OUTLIER = 0.55  # a top further from its colour than this share of the distance between the two is doubtful
COUNT_SURE = 0.97  # the stack counter's probability for a full row's height taken without asking
COUNT_FLOOR = 0.5  # and the probability it gives those heights together, at least
SLOT_SLACK = 0.42  # a top may lie this share of a checker off its row's place and still be on it


@dataclass(frozen=True)
class Top:
    """One round top found in the frame: its centre in canonical board pixels, its colour, whether that colour is
    of neither checker (``doubtful``: not counted) and whether the strict look found it."""

    x: float
    y: float
    colour: Colour
    doubtful: bool = False
    strict: bool = True


PLACES = POINTS + 2  # the 24 points in the reading order, then the bar, then off
BAR_PLACE, OFF_PLACE = POINTS, POINTS + 1


@dataclass(frozen=True)
class Ranges:
    """What the picture shows for certain, place by place, where it cannot show everything: the fewest and the most
    checkers of each side (0 the bottom player's, 1 the top player's) at each of the 26 places (``PLACES``: the 24
    points in the reading order, the bar, off). A row of five may hide layers (5 to 15), a point's tip a checker
    the look missed, a pile off all but its top; everywhere the picture is clear a range is one count. Together
    with the sum rules they say which positions the picture can show: whatever the reader doubts, the position on
    the board lies inside them."""

    low: tuple[tuple[int, ...], tuple[int, ...]]
    high: tuple[tuple[int, ...], tuple[int, ...]]

    def holds(self, points: Iterable[int], bar: tuple[int, int], off: tuple[int, int]) -> bool:
        """Whether a position in the command's numbers (signed counts in the reading order) lies inside."""
        signed = list(points)
        counts = (
            [max(p, 0) for p in signed] + [bar[0], off[0]],
            [max(-p, 0) for p in signed] + [bar[1], off[1]],
        )
        return all(
            lo <= n <= hi
            for side in (0, 1)
            for n, lo, hi in zip(counts[side], self.low[side], self.high[side], strict=True)
        )

    @classmethod
    def exact(cls, points: Iterable[int], bar: tuple[int, int], off: tuple[int, int]) -> Ranges:
        """The ranges of a reading known whole: one count at every place."""
        signed = list(points)
        bottom = (*(max(p, 0) for p in signed), bar[0], off[0])
        top = (*(max(-p, 0) for p in signed), bar[1], off[1])
        return cls((bottom, top), (bottom, top))


@dataclass(frozen=True)
class CheckerReading:
    """A position in the contract of ``python -m vision checkers``: signed counts in the image's reading order
    (top row left to right, then the bottom row left to right; + the bottom player's), bar and off as [bottom, top].
    ``sure`` is false whenever any rule or any look at the picture leaves a doubt; ``doubts`` says which.
    ``ranges`` says what the picture shows for certain (one count a place when sure); None where a doubt leaves
    even that uncertain (the two colours not told apart, a top off a checker's places or where a die lies)."""

    points: tuple[int, ...]
    bar: tuple[int, int]
    off: tuple[int, int]
    sure: bool
    doubts: tuple[str, ...] = ()
    tops: tuple[Top, ...] = field(default=(), repr=False, compare=False)
    ranges: Ranges | None = field(default=None, compare=False)

    def to_json(self) -> dict[str, object]:
        return {"points": list(self.points), "bar": list(self.bar), "off": list(self.off), "sure": self.sure}


def sum_problems(points: tuple[int, ...] | list[int], bar: tuple[int, int], off: tuple[int, int]) -> list[str]:
    """What a position breaks of the sum rules: 24 points, 15 checkers a side counting bar and off, no negative
    count. One colour a point holds by construction (a signed count)."""
    problems: list[str] = []
    if len(points) != POINTS:
        problems.append(f"{len(points)} points, not {POINTS}")
    if min(bar) < 0 or min(off) < 0:
        problems.append("a negative count on the bar or off")
    bottom = sum(p for p in points if p > 0) + bar[0] + off[0]
    top = -sum(p for p in points if p < 0) + bar[1] + off[1]
    for side, n in (("bottom", bottom), ("top", top)):
        if n != CHECKERS_A_SIDE:
            problems.append(f"the {side} player has {n} checkers, not {CHECKERS_A_SIDE}")
    return problems


def reading_view(calibration: Calibration) -> tuple[NDArray[np.float64], tuple[int, int]]:
    """The homography from frame pixels to the reading view (the board and a margin round it) and its size."""
    w, h = BOARD_VIEW
    shift = np.array([[SCALE, 0.0, SCALE * MARGIN * w], [0.0, SCALE, SCALE * MARGIN * h], [0.0, 0.0, 1.0]])
    m = shift @ calibration.homography
    return np.asarray(m / m[2, 2], np.float64), (
        round(SCALE * w * (1 + 2 * MARGIN)),
        round(SCALE * h * (1 + 2 * MARGIN)),
    )


def _to_view(x: float, y: float) -> tuple[float, float]:
    """Canonical board pixels -> the reading view's pixels."""
    w, h = BOARD_VIEW
    return (x + MARGIN * w) * SCALE, (y + MARGIN * h) * SCALE


def _view_box(x0: float, y0: float, x1: float, y1: float) -> tuple[int, int, int, int]:
    """A box in canonical board pixels as whole reading-view pixels that cover it."""
    (a, b), (c, d) = _to_view(x0, y0), _to_view(x1, y1)
    return int(a), int(b), int(np.ceil(c)), int(np.ceil(d))


def cover_places() -> list[Place]:
    """Where the look for something over the board samples it (``vision.cover``): the base of each point, from
    just inside the rim to two checkers in across the middle of the point, grouped with the points of the same
    colour in its row and half; the band between the rows beside each point, one group; and the outer part of the
    frame's four sides, each a band (an arm reaching over the board crosses the frame)."""
    places = []
    for row, col in ((row, col) for row in (0, 1) for col in range(12)):
        x = _column_centre(col)
        pitch = ((BAR_X[0] - FIELD_X[0]) if col < 6 else (FIELD_X[1] - BAR_X[1])) / 6
        near, far = 0.2 * CHECKER, 2.0 * CHECKER
        y0, y1 = (FIELD_Y[0] + near, FIELD_Y[0] + far) if row == 0 else (FIELD_Y[1] - far, FIELD_Y[1] - near)
        middle = (MIDDLE[0] + MIDDLE[1]) / 2
        b0, b1 = (MIDDLE[0] - 0.2 * CHECKER, middle) if row == 0 else (middle, MIDDLE[1] + 0.2 * CHECKER)
        name = f"the {'top' if row == 0 else 'bottom'} row's point {col + 1} from the picture's left"
        for group, (x0, x1), (top, bottom) in (
            (f"point {row} {col // 6} {col % 2}", (x - 0.22 * pitch, x + 0.22 * pitch), (y0, y1)),
            ("between the rows", (x - 0.4 * pitch, x + 0.4 * pitch), (b0, b1)),
        ):
            where = name if group.startswith("point") else f"the middle beside {name}"
            places.append(Place(group, _view_box(x0, top, x1, bottom), where))
    w, h = BOARD_VIEW
    band_x, band_y = 0.6 * FIELD_X[0], 0.6 * FIELD_Y[0]  # the outer part of the frame: frame on any board
    sides = (
        ("top", 12, lambda u0, u1: (u0, 0.1 * band_y, u1, band_y)),
        ("bottom", 12, lambda u0, u1: (u0, h - band_y, u1, h - 0.1 * band_y)),
        ("left", 6, lambda u0, u1: (0.1 * band_x, u0, band_x, u1)),
        ("right", 6, lambda u0, u1: (w - band_x, u0, w - 0.1 * band_x, u1)),
    )
    for side, stretches, box in sides:
        start, end = FIELD_X if side in ("top", "bottom") else FIELD_Y
        for k in range(stretches):
            along = box(start + (end - start) * k / stretches, start + (end - start) * (k + 1) / stretches)
            places.append(Place(f"frame {side}", _view_box(*along), f"the {side} frame", along=k))
    return places


def _to_board(view_xy: NDArray[np.float64]) -> NDArray[np.float64]:
    w, h = BOARD_VIEW
    return np.asarray(view_xy / SCALE - np.array([MARGIN * w, MARGIN * h]), np.float64)


@dataclass(frozen=True)
class Candidate:
    """A round shape of a checker's size: centre in canonical board pixels, median Lab colour, and whether the
    strict look found it (the sensitive look also finds a dark checker against a dark frame, and patches of the
    board)."""

    x: float
    y: float
    lab: NDArray[np.float64] = field(repr=False)
    strict: bool


def board_view(image: NDArray[np.uint8], calibration: Calibration) -> NDArray[np.uint8]:
    """The frame seen through the reading view."""
    m, size = reading_view(calibration)
    return np.asarray(cv2.warpPerspective(image, m, size, flags=cv2.INTER_AREA), np.uint8)


def find_tops(view: NDArray[np.uint8]) -> list[Candidate]:
    """Every round top of a checker's size, found twice: strictly, and sensitively where the strict look has none."""
    size = (view.shape[1], view.shape[0])
    grey = cv2.GaussianBlur(cv2.cvtColor(view, cv2.COLOR_BGR2GRAY), (3, 3), 0)
    r = SCALE * CHECKER / 2
    inner = int(r * 0.55)
    yy, xx = np.mgrid[-inner : inner + 1, -inner : inner + 1]
    disk = xx**2 + yy**2 <= inner**2
    found: list[Candidate] = []
    for edge, votes in (STRICT, SENSITIVE):
        circles = cv2.HoughCircles(
            grey,
            cv2.HOUGH_GRADIENT,
            1,
            minDist=r * 1.5,
            param1=edge,
            param2=votes,
            minRadius=int(r * 0.8),
            maxRadius=int(r * 1.15),
        )
        strict = not found
        kept = [(c.x, c.y) for c in found]
        for x, y, _ in [] if circles is None else circles[0]:
            cx, cy = int(round(x)), int(round(y))
            if cx - inner < 0 or cy - inner < 0 or cx + inner >= size[0] or cy + inner >= size[1]:
                continue
            board = _to_board(np.array([[x, y]], np.float64))[0]
            if not strict and any(np.hypot(board[0] - kx, board[1] - ky) < CHECKER * 0.75 for kx, ky in kept):
                continue
            patch = view[cy - inner : cy + inner + 1, cx - inner : cx + inner + 1][disk]
            found.append(Candidate(float(board[0]), float(board[1]), _lab(np.median(patch, axis=0)), strict))
    return found


def _lab(bgr: NDArray[np.float64]) -> NDArray[np.float64]:
    """One BGR colour (0-255) as CIE Lab (L* 0-100): the median is taken in BGR, only it is converted."""
    pixel = (np.asarray(bgr, np.float32) / 255).reshape(1, 1, 3)
    return np.asarray(cv2.cvtColor(pixel, cv2.COLOR_BGR2LAB).reshape(3), np.float64)


def _two_colours(
    colours: NDArray[np.float64],
) -> tuple[NDArray[np.int64], NDArray[np.float64], NDArray[np.bool_]] | None:
    """Each top's colour (0 light, 1 dark) and whether it is doubtful; None when the picture shows no two colours."""
    if len(colours) < 2:
        return None
    data = colours.astype(np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 50, 0.1)
    inliers = np.ones(len(data), bool)
    for _ in range(2):  # the second split without the shapes of neither colour (a die, the cube, the board)
        if inliers.sum() < 2:
            return None
        part = data[inliers]
        start = (part[:, 0] < np.median(part[:, 0])).astype(np.int32).reshape(-1, 1)  # the lighter half first
        _, _, centres = cv2.kmeans(part, 2, start, criteria, 1, cv2.KMEANS_USE_INITIAL_LABELS)
        near = np.linalg.norm(data[:, None, :] - centres[None, :, :], axis=2)
        labels = np.argmin(near, axis=1)
        apart = float(np.linalg.norm(centres[0] - centres[1]))
        if apart < MIN_CONTRAST:
            return None
        inliers = near.min(axis=1) <= OUTLIER * apart
    if apart < SEPARATION * float(near.min(axis=1)[inliers].mean()):
        return None
    light = int(np.argmax(centres[:, 0]))
    which = np.where(labels == light, 0, 1).astype(np.int64)
    ordered = np.asarray(centres[[light, 1 - light]], np.float64)  # light, dark
    return which, ordered, np.asarray(~inliers)


STRIP = (64, 256)  # a point's strip for the stack counter: width, height in pixels (rim at the top)
STRIP_SCALE = 0.7  # its pixels per canonical pixel: about the frame's own resolution at 1280x720
STRIP_RIM = 16.0  # canonical pixels of the frame the strip shows before the rim


def strip_input(strips: NDArray[np.uint8]) -> NDArray[np.float32]:
    """N x H x W x 3 BGR strips -> N x 3 x H x W float32, each strip at zero mean and unit spread a channel (a
    lamp changes a board's level far more than a layer's sliver changes it)."""
    x = strips.astype(np.float32)
    mean = x.mean(axis=(1, 2), keepdims=True)
    std = x.std(axis=(1, 2), keepdims=True)
    return np.ascontiguousarray(((x - mean) / (std + 4.0)).transpose(0, 3, 1, 2))


def point_strips(image: NDArray[np.uint8], calibration: Calibration, slots: Iterable[int]) -> NDArray[np.uint8]:
    """Each slot's point seen from its rim inward, straight from the frame (no second resampling): the rim at the
    strip's top for both rows, the column's centre in the middle. N x 256 x 64 x 3."""
    inverse = np.linalg.inv(calibration.homography)
    sw, sh = STRIP
    out = []
    for slot in slots:
        row, col = divmod(slot, 12)
        cx = _column_centre(col)
        step = 1.0 if row == 0 else -1.0
        rim = FIELD_Y[0] if row == 0 else FIELD_Y[1]
        # strip (u, v) -> canonical (x, y): x = cx + (u - sw/2) / s, y = rim + step * (v / s - STRIP_RIM)
        to_board = np.array(
            [
                [1 / STRIP_SCALE, 0.0, cx - sw / 2 / STRIP_SCALE],
                [0.0, step / STRIP_SCALE, rim - step * STRIP_RIM],
                [0.0, 0.0, 1.0],
            ]
        )
        m = inverse @ to_board
        warped = cv2.warpPerspective(
            image, m, (sw, sh), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE
        )
        out.append(warped)
    return np.asarray(out, np.uint8).reshape(-1, sh, sw, 3)


DEFAULT_COUNTER = Path(__file__).resolve().parents[1] / "models" / "checker_count.onnx"
COUNT_CLASSES = 16  # 0 to 15 checkers on a point


class StackCounter(Protocol):
    """How many checkers each strip's point holds: N strips (``point_strips``) -> N x 16 probabilities."""

    def probabilities(self, strips: NDArray[np.uint8]) -> NDArray[np.float32]: ...


class OnnxStackCounter:
    """``models/checker_count.onnx`` run by onnxruntime or cv2.dnn, each strip read as it is and mirrored (a
    mirrored point holds as many checkers), the two log-probabilities averaged."""

    def __init__(self, model: Path | str = DEFAULT_COUNTER, backend: Backend | None = None, threads: int = 1):
        self._model = OnnxModel(model, backend, threads)

    def probabilities(self, strips: NDArray[np.uint8]) -> NDArray[np.float32]:
        if len(strips) == 0:
            return np.zeros((0, COUNT_CLASSES), np.float32)
        both = np.concatenate([strips, strips[:, :, ::-1]])
        out = self._model.run(strip_input(both))
        if out.size != len(both) * COUNT_CLASSES:
            raise ModelError(f"the stack counter gives {out.size // len(both)} outputs a strip, not {COUNT_CLASSES}")
        logp = np.log(softmax(out.reshape(len(both), COUNT_CLASSES)) + 1e-9)
        return softmax((logp[: len(strips)] + logp[len(strips) :]) / 2)


_SHIPPED: list[StackCounter | None] = []


def shipped_counter() -> StackCounter | None:
    """The stack counter in models/, loaded once; None where it cannot load (the reader then asks instead)."""
    if not _SHIPPED:
        try:
            _SHIPPED.append(OnnxStackCounter())
        except ModelError:
            _SHIPPED.append(None)
    return _SHIPPED[0]


def _depth(y: float) -> float:
    """How far ``y`` lies from the nearer rim, in checkers."""
    return min(abs(y - FIELD_Y[0]), abs(y - FIELD_Y[1])) / CHECKER


def _column_centre(col: int) -> float:
    left, right = (FIELD_X[0], BAR_X[0]) if col < 6 else (BAR_X[1], FIELD_X[1])
    return left + (right - left) / 6 * (col % 6 + 0.5)


def _continues_a_row(c: Candidate, kept: list[Candidate]) -> bool:
    """A sensitive find counts only where a checker can stand: on a point's column at the rim, or one checker
    beyond a top already kept on that column."""
    col = _column(c.x)
    if col is None or abs(c.x - _column_centre(col)) > CHECKER * 0.3:
        return False
    slot = _depth(c.y) - 0.5
    if abs(slot - round(slot)) > 0.3:
        return False
    if round(slot) == 0:
        return True
    same_half = [k for k in kept if (k.y < BOARD_VIEW[1] / 2) == (c.y < BOARD_VIEW[1] / 2) and _column(k.x) == col]
    return any(abs(_depth(k.y) - _depth(c.y) + 1) < 0.3 for k in same_half)


def _alone(c: Candidate, kept: list[Candidate]) -> bool:
    """Whether no top kept so far stands on the point of ``c``."""
    col, top_half = _column(c.x), c.y < BOARD_VIEW[1] / 2
    return not any(_column(k.x) == col and (k.y < BOARD_VIEW[1] / 2) == top_half for k in kept)


def _like_its_point(view: NDArray[np.uint8], c: Candidate, to_checker: float) -> bool:
    """Whether a sensitive find alone on its point looks more like the point (sampled two checkers further in)
    than like a checker: the broad base of a pale point under pale checkers is round enough for the sensitive
    look."""
    w, h = BOARD_VIEW
    inward = 1.0 if c.y < h / 2 else -1.0
    r = SCALE * CHECKER / 2
    inner = max(2, int(r * 0.3))
    for depth in (2.0, 2.5):
        y = c.y + inward * CHECKER * depth
        vx, vy = round((c.x + MARGIN * w) * SCALE), round((y + MARGIN * h) * SCALE)
        patch = view[vy - inner : vy + inner + 1, vx - inner : vx + inner + 1].reshape(-1, 3)
        if len(patch) and float(np.linalg.norm(_lab(np.median(patch, axis=0)) - c.lab)) < to_checker:
            return True
    return False


def _column(x: float) -> int | None:
    """The point column (0-5 in the left half, 6-11 in the right) under ``x``, or None on the bar or the frame."""
    if FIELD_X[0] - CHECKER * 0.3 <= x < BAR_X[0] + CHECKER * 0.1:
        pitch = (BAR_X[0] - FIELD_X[0]) / 6
        return int(np.clip((x - FIELD_X[0]) // pitch, 0, 5))
    if BAR_X[1] - CHECKER * 0.1 < x <= FIELD_X[1] + CHECKER * 0.3:
        pitch = (FIELD_X[1] - BAR_X[1]) / 6
        return 6 + int(np.clip((x - BAR_X[1]) // pitch, 0, 5))
    return None


def read_position(
    image: NDArray[np.uint8],
    calibration: Calibration,
    bottom_colour: Colour,
    dice: Callable[[], Iterable[Box]] | None = None,
    counter: StackCounter | None = None,
    learned: bool = True,
    pins: bool = False,
) -> CheckerReading:
    """Read every checker on a settled board (see the module's docstring). ``dice`` gives the boxes (x0, y0, x1, y1,
    image pixels) of the dice in the picture, asked for only when the reading would be sure: a pale die among pale
    checkers can pass for one, and a top counted where a die lies makes the reading unsure. ``counter`` counts
    the checkers of each full row (the shipped ``models/checker_count.onnx`` when None); ``learned`` False reads
    with the classical look alone. The reading's ranges (what the picture shows for certain) need the look for
    dice (without it a die could be a top) and ``pins`` says whether a point may hold a pinned checker under the
    other side's (plakoto): otherwise two colours on a point leave no place certain."""
    view = board_view(image, calibration)
    found = find_tops(view)
    strict = [c for c in found if c.strict]
    doubts: list[str] = []
    split = _two_colours(np.asarray([c.lab for c in strict], np.float64).reshape(-1, 3))
    if split is None:
        empty = (0,) * POINTS
        return CheckerReading(empty, (0, 0), (0, 0), False, ("the checkers' two colours are not told apart",))
    which_strict, centres, doubtful_strict = split
    unranged = centres[0][0] - centres[1][0] < MIN_LIGHTER  # a doubt that leaves no place certain
    if unranged:
        doubts.append("which of the two colours is the lighter is not clear")
    apart = float(np.linalg.norm(centres[0] - centres[1]))
    kept = list(strict)
    which = list(which_strict)
    doubtful = list(doubtful_strict)
    loose = sorted((c for c in found if not c.strict), key=lambda c: _depth(c.y))
    for c in loose:
        dist = np.linalg.norm(centres - c.lab, axis=1)
        fits = dist.min() < LOOSE_FIT * apart and _continues_a_row(c, kept)
        if fits and not (_alone(c, kept) and _like_its_point(view, c, dist.min())):
            kept.append(c)
            which.append(int(np.argmin(dist)))
            doubtful.append(False)
    bottom_index = 0 if bottom_colour == "light" else 1
    tops = tuple(
        Top(c.x, c.y, "light" if w == 0 else "dark", bool(d), c.strict)
        for c, w, d in zip(kept, which, doubtful, strict=True)
    )
    rows: dict[tuple[int, int], list[Top]] = {}  # (row 0 top / 1 bottom, column) -> tops
    bar = [0, 0]
    off = [0, 0]
    for t, wi in zip(tops, which, strict=True):
        if t.doubtful:  # of neither colour: not a checker (a checker missed so makes its side come short)
            continue
        side = 0 if wi == bottom_index else 1
        place = _place(t.x, t.y)
        if place == OFF_PLACE:
            off[side] += 1
        elif place == BAR_PLACE:
            bar[side] += 1
        elif place is None:
            doubts.append(f"a checker on the frame at ({t.x:.0f}, {t.y:.0f})")
            unranged = True
        else:
            rows.setdefault(divmod(place, 12), []).append(t)
    points = [0] * POINTS
    for (row, col), stack in rows.items():
        kinds = {t.colour for t in stack}
        if len(kinds) > 1:
            doubts.append(f"two colours on one point (row {row}, column {col})")
        colour = max(kinds, key=lambda k: sum(t.colour == k for t in stack))
        sign = 1 if colour == bottom_colour else -1
        points[row * 12 + col] = sign * len(stack)
        off_places = _stack_doubts(stack, row)
        doubts.extend(off_places)
        unranged = unranged or bool(off_places)
    problems = sum_problems(points, (bar[0], bar[1]), (off[0], off[1]))
    # a shortfall under a hand is no hidden layer: nothing may be completed, and no place known, under one
    under = covered(view, cover_places(), [_to_view(t.x, t.y) for t in tops if not t.doubtful], CHECKER * SCALE)
    doubts.extend(under)
    unranged = unranged or bool(under)
    counted: set[int] = set()
    if not doubts and learned:
        counter = counter if counter is not None else shipped_counter()
        full = [i for i, p in enumerate(points) if abs(p) == 5]  # a higher layer stands only on a row of five
        if counter is not None and full:
            heights, doubt = _count_full_rows(counter, image, calibration, full, points, bar, off)
            if doubt:  # a top counted twice or a false one: no count is certain
                doubts.append(doubt)
                unranged = True
            for i, n in heights.items():
                points[i] = n if points[i] > 0 else -n
            counted = set(heights)
            problems = sum_problems(points, (bar[0], bar[1]), (off[0], off[1]))
            hidden = sum(abs(points[i]) - 5 for i in counted)
            # the counter replaces the rule of one place only, not the look for a checker the tops missed: on a
            # board unlike its training a missed checker can meet a row read one too tall
            if hidden and _unseen(view, rows, tops, centres, apart) + sum(t.doubtful or not t.strict for t in tops):
                doubts.append(f"{hidden} checkers read under others by the stack counter, and a checker may be missed")
    if not doubts and problems:
        placed = _place_hidden(points, bar, off, counted)
        if placed:
            problems = sum_problems(points, (bar[0], bar[1]), (off[0], off[1]))
            # the completion rests on the count of what shows: every top counted must be a sure find
            unseen = _unseen(view, rows, tops, centres, apart) + sum(t.doubtful or not t.strict for t in tops)
            on_rows = [bottom_index if side == 0 else 1 - bottom_index for side, (_, o) in placed.items() if not o]
            if unseen or problems or any(_lies_off(view, centres[c], apart) for c in on_rows):
                hidden = sum(n for n, _ in placed.values())
                doubts.append(f"{hidden} checkers hidden under others, placed where they can only be")
    doubts.extend(problems)
    ranges = None
    if (not doubts or not unranged) and dice is not None:
        on = _on_dice([t for t in tops if not t.doubtful], calibration, dice())
        if on:
            doubts.append(f"{len(on)} checkers counted where a die lies")
        if doubts and not unranged:
            ranges = _ranges(view, rows, tops, bottom_index, centres, apart, pins, on)
    reading_bar, reading_off = (bar[0], bar[1]), (off[0], off[1])
    if not doubts:
        ranges = Ranges.exact(points, reading_bar, reading_off)
    return CheckerReading(tuple(points), reading_bar, reading_off, not doubts, tuple(doubts), tops, ranges)


def _place(x: float, y: float) -> int | None:
    """The place (``PLACES``) a checker top at canonical (x, y) stands on, None on the frame: outside the outer
    frame off, on the bar or in the band between the rows beside it the bar, otherwise the nearest point of its
    half."""
    w, h = BOARD_VIEW
    if x < 0 or x > w or y < 0 or y > h:
        return OFF_PLACE
    if BAR_X[0] - CHECKER * 0.2 <= x <= BAR_X[1] + CHECKER * 0.2:
        return BAR_PLACE
    near_bar = BAR_X[0] - CHECKER * 1.2 <= x <= BAR_X[1] + CHECKER * 1.2
    if near_bar and MIDDLE[0] <= y <= MIDDLE[1]:
        return BAR_PLACE
    col = _column(x)
    if col is None or not FIELD_Y[0] - CHECKER * 0.3 <= y <= FIELD_Y[1] + CHECKER * 0.3:
        return None
    return (0 if y < h / 2 else 1) * 12 + col


def _ranges(
    view: NDArray[np.uint8],
    rows: dict[tuple[int, int], list[Top]],
    tops: tuple[Top, ...],
    bottom_index: int,
    centres: NDArray[np.float64],
    apart: float,
    pins: bool,
    on_dice: set[Top],
) -> Ranges | None:
    """What the picture shows for certain (``Ranges``), or None where it cannot say even that. A point's count is its
    tops (a sensitive find, or a top where a die lies, may be false: the fewest leave it out); a row of five may hold up
    to 15; beyond a shorter row, every next place that shows a checker's colour may hold one the look missed (the
    row of five that makes may hold more again); a shape of neither colour may hide one checker of either side where
    it lies. The bar holds what shows, or any number when a place a missed one would stand on shows a checker's
    colour; off holds at least what shows, and any number when that side's colour shows anywhere beside the board.
    Two colours on a point are certain only as a pin (the rim's checker alone in its colour, the other side's beyond
    it, where ``pins``), and a row of five of one colour may cover a pinned checker under its sixth. The sum rules
    close the ranges: no side may show more than 15 tops (one is false or of the other colour), need more than 15,
    nor hold fewer."""
    low = [[0] * PLACES, [0] * PLACES]
    high = [[0] * PLACES, [0] * PLACES]

    def side_of(colour: Colour) -> int:
        return 0 if (0 if colour == "light" else 1) == bottom_index else 1

    for row in (0, 1):
        rim = FIELD_Y[0] if row == 0 else FIELD_Y[1]
        for col in range(12):
            i = row * 12 + col
            stack = sorted(rows.get((row, col), []), key=lambda t: abs(t.y - rim))
            missed = _missed_beyond(view, rows, row, col, centres, apart)
            if not stack:
                high[0][i] = high[1][i] = missed
                continue
            sides = [side_of(t.colour) for t in stack]
            if len(set(sides)) > 1:
                if not pins or sides.count(sides[0]) != 1:
                    return None
                pinned, rim_top = sides[0], stack[0]
                low[pinned][i], high[pinned][i] = int(rim_top.strict and rim_top not in on_dice), 1
                stack = stack[1:]
            side = side_of(stack[0].colour)
            full = len(rows[(row, col)]) >= 5
            low[side][i] = sum(t.strict and t not in on_dice for t in stack)
            high[side][i] = CHECKERS_A_SIDE if full else len(stack) + missed
            if pins and full and len(set(sides)) == 1:  # a sixth pinner laid on the rim's checker hides a pinned one
                high[1 - side][i] = max(high[1 - side][i], 1)
            if pins and len(stack) == 1 and len(sides) == 1 and missed:  # a lone checker pinned by one missed
                high[1 - side][i] = missed
    for x, y, inward in _bar_places(tops):
        if _shows_a_checker(view, x, y, inward, centres, apart):
            high[0][BAR_PLACE] = high[1][BAR_PLACE] = CHECKERS_A_SIDE
    for t in tops:
        place = _place(t.x, t.y)
        if place is None:
            continue
        if t.doubtful:
            for side in (0, 1):
                high[side][place] += 1
            continue
        side = side_of(t.colour)
        if place in (BAR_PLACE, OFF_PLACE):
            low[side][place] += int(t.strict and t not in on_dice)
            high[side][place] += 1
    shown = [
        sum(not t.doubtful and side_of(t.colour) == side and _place(t.x, t.y) is not None for t in tops)
        for side in (0, 1)
    ]
    if max(shown) > CHECKERS_A_SIDE:
        return None
    for side in (0, 1):
        colour = bottom_index if side == 0 else 1 - bottom_index
        if high[side][OFF_PLACE] or _lies_off(view, centres[colour], apart):
            high[side][OFF_PLACE] = CHECKERS_A_SIDE
        spare = CHECKERS_A_SIDE - sum(low[side])
        if spare < 0 or sum(high[side]) < CHECKERS_A_SIDE:
            return None
        high[side] = [min(hi, lo + spare) for lo, hi in zip(low[side], high[side], strict=True)]
    return Ranges((tuple(low[0]), tuple(low[1])), (tuple(high[0]), tuple(high[1])))


def _missed_beyond(
    view: NDArray[np.uint8],
    rows: dict[tuple[int, int], list[Top]],
    row: int,
    col: int,
    centres: NDArray[np.float64],
    apart: float,
) -> int:
    """How many checkers a point may hold beyond its tops that the look missed: each next place that shows a
    checker's colour may hold one, and a row of five made so may hold layers up to 15. A place that shows a
    checker's colour is never excused as the point's own (as the reader's look for a completion excuses a cream
    point under ivory checkers): a checker the circle look missed there would show the same colour, and two
    missed in a row look like each other."""
    places = _next_place(rows, row, col)
    if not places:
        return 0
    x, y, inward = places[0]
    seen = len(rows.get((row, col), []))
    missed = 0
    while seen + missed < 5 and _shows_a_checker(view, x, y + inward * CHECKER * missed, 0.0, centres, apart):
        missed += 1
    return CHECKERS_A_SIDE - seen if seen + missed >= 5 else missed


def _unseen(
    view: NDArray[np.uint8],
    rows: dict[tuple[int, int], list[Top]],
    tops: tuple[Top, ...],
    centres: NDArray[np.float64],
    apart: float,
) -> int:
    """How many of the places where a missed checker would stand show a checker's colour: each point's next place,
    the bar and the field's edge beside it, and the bar's places next to a checker on it. A checker the look
    missed there would otherwise be taken for one hidden in a higher layer."""
    places = [p for row in (0, 1) for col in range(12) for p in _next_place(rows, row, col)] + _bar_places(tops)
    return sum(_shows_a_checker(view, x, y, inward, centres, apart) for x, y, inward in places)


def _next_place(rows: dict[tuple[int, int], list[Top]], row: int, col: int) -> list[tuple[float, float, float]]:
    """Where a point's next checker would stand (x, y and the way into the field along the point), none beyond a
    row of five."""
    stack = rows.get((row, col), [])
    if len(stack) >= 5:
        return []
    rim = FIELD_Y[0] if row == 0 else FIELD_Y[1]
    step = 1.0 if row == 0 else -1.0
    if stack:
        y = max((t.y for t in stack), key=lambda v: abs(v - rim)) + step * CHECKER
        return [(float(np.mean([t.x for t in stack])), y, step)]
    return [(_column_centre(col), rim + step * CHECKER / 2, step)]


def _bar_places(tops: tuple[Top, ...]) -> list[tuple[float, float, float]]:
    """Where a checker on the bar or waiting beside it would stand and none was found: the bar and the field's
    edge beside it across the middle, and along the bar next to each checker on it (a short row of them)."""
    w, h = BOARD_VIEW
    places: list[tuple[float, float, float]] = []
    middle = h / 2
    for x in (BAR_X[0] - CHECKER / 2, w / 2, BAR_X[1] + CHECKER / 2):
        for y in (middle - CHECKER, middle, middle + CHECKER):
            if all(np.hypot(t.x - x, t.y - y) > CHECKER * 0.75 for t in tops):
                places.append((x, y, 0.0))
    for t in tops:
        if BAR_X[0] - CHECKER * 0.2 <= t.x <= BAR_X[1] + CHECKER * 0.2 and 0 <= t.y <= h:
            for y in (t.y - CHECKER, t.y + CHECKER):
                if all(np.hypot(o.x - t.x, o.y - y) > CHECKER * 0.75 for o in tops):
                    places.append((t.x, y, 0.0))
    return places


def _sample_disc() -> tuple[int, NDArray[np.bool_]]:
    inner = max(2, int(SCALE * CHECKER / 2 * 0.35))
    yy, xx = np.mgrid[-inner : inner + 1, -inner : inner + 1]
    return inner, np.asarray(xx**2 + yy**2 <= inner**2)


_SAMPLE_DISC = _sample_disc()  # a third of a checker's radius: inside a checker wherever it is placed


def _colour_at(view: NDArray[np.uint8], x: float, y: float) -> NDArray[np.float64] | None:
    """The median colour (Lab) of a small disc round canonical (x, y) in the reading view; None off the view."""
    inner, disk = _SAMPLE_DISC
    w, h = BOARD_VIEW
    vx, vy = round((x + MARGIN * w) * SCALE), round((y + MARGIN * h) * SCALE)
    if vx < inner or vy < inner:
        return None
    patch = view[vy - inner : vy + inner + 1, vx - inner : vx + inner + 1]
    return None if patch.shape[:2] != disk.shape else _lab(np.median(patch[disk], axis=0))


def _shows_a_checker(
    view: NDArray[np.uint8], x: float, y: float, inward: float, centres: NDArray[np.float64], apart: float
) -> bool:
    """Whether a place shows a checker's colour. A point's place (``inward`` the way into the field along it, 0
    off the points) that looks more like the same point further in than like a checker is the point's own colour
    (a cream point under ivory checkers), not a checker."""
    lab = _colour_at(view, x, y)
    if lab is None:
        return False
    to_checker = float(np.linalg.norm(centres - lab, axis=1).min())
    if to_checker >= LOOSE_FIT * apart:
        return False
    further = [_colour_at(view, x, y + inward * CHECKER * depth) for depth in (1.0, 1.5)] if inward else []
    return not any(f is not None and float(np.linalg.norm(f - lab)) < to_checker for f in further)


def _lies_off(view: NDArray[np.uint8], colour: NDArray[np.float64], apart: float) -> bool:
    """Whether the ground round the board shows half a checker or more of ``colour``: checkers borne off that the
    look did not find (in a tray, a pile), which a shortfall would otherwise be taken for."""
    w, h = BOARD_VIEW
    small = view[::2, ::2]  # every other pixel: a checker still covers about 200 of them
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    lab[..., 0] *= 100 / 255
    lab[..., 1:] -= 128
    near = np.linalg.norm(lab - colour.astype(np.float32), axis=2) < LOOSE_FIT * apart
    x0, y0 = round(MARGIN * w * SCALE / 2), round(MARGIN * h * SCALE / 2)
    x1, y1 = round((1 + MARGIN) * w * SCALE / 2), round((1 + MARGIN) * h * SCALE / 2)
    near[y0:y1, x0:x1] = False  # the board itself
    area = np.pi * (SCALE * CHECKER / 4) ** 2
    return bool(near.sum() >= area / 2)


def _count_full_rows(
    counter: StackCounter,
    image: NDArray[np.uint8],
    calibration: Calibration,
    full: list[int],
    points: list[int],
    bar: list[int],
    off: list[int],
) -> tuple[dict[int, int], str]:
    """The height of every full row by the stack counter, and a doubt. The sum rules check the counter, as they
    check the tops: for a side short of 15 with nothing off, of every way its full rows can hold the missing
    checkers the likeliest by the counter is taken only when it carries ``COUNT_SURE`` of the probability of all
    of them and the counter gives it at least ``COUNT_FLOOR``; with checkers off (where the rest can lie), each
    row's height must be read alone with ``COUNT_SURE``. A side whose tops add up with a row the counter is sure
    is not five is a doubt: a checker counted twice would hide under it, or a false top stand in it. No heights
    where any side fails."""
    probs = dict(zip(full, counter.probabilities(point_strips(image, calibration, full)), strict=True))
    heights: dict[int, int] = {}
    for side, sign in ((0, 1), (1, -1)):
        rows = [i for i in full if points[i] * sign > 0]
        short_by = CHECKERS_A_SIDE - sum(p * sign for p in points if p * sign > 0) - bar[side] - off[side]
        if not rows:
            continue
        if short_by < 0:
            return {}, ""
        alone = {i: int(np.argmax(probs[i])) for i in rows}
        if short_by == 0:
            if any(n != 5 and probs[i][n] >= COUNT_SURE for i, n in alone.items()):
                return {}, "a full row reads taller or shorter than its tops"
            continue
        if off[side]:
            if (
                any(n < 5 or probs[i][n] < COUNT_SURE for i, n in alone.items())
                or sum(alone.values()) - 5 * len(rows) > short_by
            ):
                return {}, ""
            heights.update(alone)
            continue
        best = _likeliest_heights([probs[i] for i in rows], short_by)
        if best is None:
            return {}, ""
        heights.update(zip(rows, best, strict=True))
    return heights, ""


def _likeliest_heights(probs: list[NDArray[np.float32]], extra: int) -> list[int] | None:
    """The heights (each 5 to 15) of rows of five that hold ``extra`` checkers more between them, the likeliest by
    the counter (its rows taken apart), when it carries ``COUNT_SURE`` of all such ways and ``COUNT_FLOOR`` alone."""
    ways: list[tuple[float, list[int]]] = []

    def spread(k: int, left: int, chosen: list[int], p: float) -> None:
        if k == len(probs) - 1:
            if left <= 10:
                ways.append((p * float(probs[k][5 + left]), [*chosen, 5 + left]))
            return
        for a in range(min(left, 10) + 1):
            spread(k + 1, left - a, [*chosen, 5 + a], p * float(probs[k][5 + a]))

    spread(0, extra, [], 1.0)
    total = sum(p for p, _ in ways)
    if not ways or total <= 0:
        return None
    p, best = max(ways, key=lambda w: w[0])
    return best if p >= COUNT_FLOOR and p >= COUNT_SURE * total else None


def _place_hidden(
    points: list[int], bar: list[int], off: list[int], counted: set[int] | None = None
) -> dict[int, tuple[int, bool]]:
    """Propose where the checkers lie that a side's visible tops come short of 15: players start a second layer
    only on a full row of five, and a pile borne off hides all but its top, so where exactly one such place holds
    that side's checkers they can only be there, unless a checker was missed (``_unseen``, ``_lies_off`` look for
    one). With two places or more the reading stays short. Returns how many of each side's (0 bottom, 1 top) were
    placed, and whether off."""
    placed: dict[int, tuple[int, bool]] = {}
    for side, sign in ((0, 1), (1, -1)):
        seen = sum(p * sign for p in points if p * sign > 0) + bar[side] + off[side]
        short = CHECKERS_A_SIDE - seen
        if short <= 0:
            continue
        full = [i for i, p in enumerate(points) if p * sign == 5 and i not in (counted or set())]
        places = len(full) + (1 if off[side] else 0)
        if places != 1:
            continue
        if full:
            points[full[0]] += sign * short
        else:
            off[side] += short
        placed[side] = (short, not full)
    return placed


def _on_dice(tops: list[Top], calibration: Calibration, boxes: Iterable[Box]) -> set[Top]:
    """The tops that lie on a die: a die's centre within half a checker of a top's (a die beside a checker lies
    further off: a checker's radius and half a die)."""
    centres = [((x0 + x1) / 2, (y0 + y1) / 2) for x0, y0, x1, y1 in boxes]
    if not centres:
        return set()
    board = calibration.to_board(np.asarray(centres, np.float64))
    return {t for t in tops if np.any(np.hypot(board[:, 0] - t.x, board[:, 1] - t.y) < CHECKER / 2)}


def _stack_doubts(stack: list[Top], row: int) -> list[str]:
    """A point's checkers stand in a row from the rim, one checker apart: a top off those places (a die, the cube,
    a shadow taken for a checker) or a gap in the row is a doubt. Boards differ in their frame and their checkers
    in size, so the row is measured from its own first checker."""
    rim = FIELD_Y[0] if row == 0 else FIELD_Y[1]
    depth = sorted(abs(t.y - rim) for t in stack)
    if depth[0] > CHECKER * (0.5 + SLOT_SLACK):
        return ["a point's first checker stands off the rim"]
    gaps = np.diff(depth) / CHECKER
    if len(gaps) and (gaps.min() < 1 - SLOT_SLACK or gaps.max() > 1 + SLOT_SLACK):
        return ["a point's checkers are not one checker apart"]
    return []
