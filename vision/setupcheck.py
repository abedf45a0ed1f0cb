"""Is this camera set-up good enough to referee with? Measured from the camera's own pictures, with advice.

A director sets the camera up once before a match; a reader that is fed blurred, dark or tiny dice will
void or misread throws all evening. So each quality the reader depends on is measured on the frames the
camera actually gives (resolution, frame rate, the board found, the die size in pixels, focus, exposure,
glare) and judged good, borderline or not good enough, each with what to change.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass
from typing import Any, Sequence

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.calibration import DIE_MM, Board, Calibration, Point, detect_board
from vision.errors import CalibrationError, SourceError
from vision.sources import Camera, VideoFile, open_source

# Thresholds. Die size: the reader is trained for dice of about 24 px and more (pips of 4-5 px).
DIE_PX_GOOD, DIE_PX_LEAST = 24.0, 18.0
SHORT_SIDE_GOOD, SHORT_SIDE_LEAST = 720, 540
FPS_GOOD, FPS_LEAST = 20.0, 10.0
# Focus: the blur of the sharpest edges (a Gaussian's sigma in pixels, as edge_blur_px measures it) against
# the die's size. Set on rendered held-out throws read by the shipped reader: it read 13 of 24 sharp throws
# (blur/die 0.021 median), 8 at an added blur of 1 px (0.029), 4 at 2 px (0.045), none at 4 px (0.078).
BLUR_OF_DIE_GOOD, BLUR_OF_DIE_LEAST = 0.035, 0.05
DARK_GOOD, DARK_LEAST = 90.0, 55.0  # the board's 95th-percentile brightness (0-255)
GLARE_GOOD, GLARE_LEAST = 0.005, 0.03  # share of the board's pixels burnt white


class Grade(enum.IntEnum):
    """Ordered so that the worst check decides the whole verdict."""

    GOOD = 0
    BORDERLINE = 1
    NOT_GOOD = 2

    @property
    def label(self) -> str:
        return ("good", "borderline", "not good enough")[self]


@dataclass(frozen=True)
class Check:
    name: str
    grade: Grade
    measured: str  # what was measured, in words and numbers
    advice: str = ""  # what to change; dropped when the check is good

    def __post_init__(self) -> None:
        if self.grade is Grade.GOOD:
            object.__setattr__(self, "advice", "")

    def to_dict(self) -> dict[str, Any]:
        return {"check": self.name, "grade": self.grade.label, "measured": self.measured, "advice": self.advice}


@dataclass(frozen=True)
class SetupReport:
    checks: tuple[Check, ...]

    @property
    def grade(self) -> Grade:
        return max((check.grade for check in self.checks), default=Grade.NOT_GOOD)

    def advice(self) -> list[str]:
        """What to change, worst first."""
        return [c.advice for c in sorted(self.checks, key=lambda c: -c.grade) if c.advice]

    def to_dict(self) -> dict[str, Any]:
        return {"verdict": self.grade.label, "checks": [c.to_dict() for c in self.checks], "advice": self.advice()}

    def text(self) -> str:
        lines = [f"camera set-up: {self.grade.label.upper()}"]
        for check in self.checks:
            lines.append(f"  {check.grade.label:<16} {check.name:<11} {check.measured}")
        lines += [f"  -> {line}" for line in self.advice()]
        return "\n".join(lines)


def _graded(value: float, good: float, least: float, higher_is_better: bool = True) -> Grade:
    if not higher_is_better:
        value, good, least = -value, -good, -least
    return Grade.GOOD if value >= good else Grade.BORDERLINE if value >= least else Grade.NOT_GOOD


def edge_blur_px(image: NDArray[np.uint8], mask: NDArray[np.uint8] | None = None) -> float:
    """The blur of the picture's sharpest edges as a Gaussian sigma in pixels.

    A step edge blurred by a Gaussian of sigma s has its steepest slope at step / (s * sqrt(2 pi)); the
    steepest slopes in the picture (its 99.5th percentile) over its contrast (5th to 95th percentile)
    give s without knowing what the picture shows. A median filter first keeps sensor noise from
    passing for sharpness.
    """
    grey = cv2.medianBlur(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), 3).astype(np.float32)
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3) / 4  # Sobel's 3x3 weights sum to 4 per unit slope
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3) / 4
    inside = np.ones(grey.shape, bool) if mask is None else mask > 0
    slopes = np.hypot(gx, gy)[inside]
    values = grey[inside]
    if values.size < 100:
        return math.inf
    contrast = float(np.percentile(values, 95) - np.percentile(values, 5))
    steepest = float(np.percentile(slopes, 99.5))
    if contrast < 8 or steepest <= 0:
        return math.inf  # a flat picture shows no edge to be sharp
    return max(contrast / (steepest * math.sqrt(2 * math.pi)), 0.0)


@dataclass(frozen=True)
class BoardEntry:
    """What set-up is told about the board once: the playing field's corners as tapped (image pixels), its width
    and depth (bar included) and the bar's width in millimetres, and the dice's side (measured on the set-up
    throws: ``vision.calibration.die_mm_of``)."""

    field_px: tuple[Point, Point, Point, Point]
    field_mm: tuple[float, float]
    bar_mm: float
    die_mm: float = DIE_MM

    def board(self, calibration: Calibration) -> Board:
        """The board measured on ``calibration``'s outer corners (CalibrationError when it cannot be)."""
        return Board.from_field(self.field_mm, calibration.corners, self.field_px, self.bar_mm, self.die_mm)


def check_frames(
    frames: Sequence[NDArray[np.uint8]],
    fps: float | None = None,
    calibration: Calibration | None = None,
    entry: BoardEntry | None = None,
) -> SetupReport:
    """Judge a set-up from a few consecutive frames of its camera (the last one is examined closely).

    ``fps`` is the frame rate the source delivered (None when it cannot be known, as for photos);
    without ``calibration`` the board is looked for in the picture; with an ``entry`` the board is measured
    (``board size``: whether the picture allows it).
    """
    if not frames:
        return SetupReport(
            (
                Check(
                    "camera",
                    Grade.NOT_GOOD,
                    "no picture came from the camera",
                    "check the cable and that no other program holds the camera",
                ),
            )
        )
    image = frames[-1]
    height, width = image.shape[:2]
    checks = [
        Check(
            "resolution",
            _graded(min(width, height), SHORT_SIDE_GOOD, SHORT_SIDE_LEAST),
            f"{width}x{height}",
            "set the camera to 1280x720 or 1920x1080",
        )
    ]
    if fps is not None:
        checks.append(
            Check(
                "frame rate",
                _graded(fps, FPS_GOOD, FPS_LEAST),
                f"{fps:.0f} frames/s",
                "lower the resolution or add light (cameras slow down in the dark)",
            )
        )
    found = "corners given"
    if calibration is None:
        try:
            calibration = detect_board(image)
            found = "found in the picture"
        except CalibrationError:
            checks.append(
                Check(
                    "board",
                    Grade.NOT_GOOD,
                    "not found in the picture",
                    "show the whole board with a margin of table round it (raise the camera or "
                    "widen the view), or tap its four corners",
                )
            )
    mask, die = None, None
    if calibration is not None:
        corners = np.array(calibration.corners)
        inside = np.all((corners >= 0) & (corners <= [width - 1, height - 1]))
        checks.append(
            Check(
                "board",
                Grade.GOOD if inside else Grade.BORDERLINE,
                found if inside else f"{found}, partly outside the picture",
                "" if inside else "raise the camera or widen its view so the whole board shows",
            )
        )
        if entry is not None:
            try:
                board = entry.board(calibration)
                calibration = calibration.measured(board)
                checks.append(
                    Check(
                        "board size",
                        Grade.GOOD,
                        f"measured {board.width_mm:.0f} x {board.depth_mm:.0f} mm, frame {board.frame_mm:.0f} and "
                        f"{board.frame_depth_mm:.0f} mm, bar {board.bar_mm:.0f} mm, dice {board.die_mm:.1f} mm",
                    )
                )
            except CalibrationError as exc:
                checks.append(
                    Check(
                        "board size",
                        Grade.NOT_GOOD,
                        f"cannot be measured: {exc}",
                        "tap the playing field's four corners where it meets the frame, in a picture that shows "
                        "the whole board, and check the sizes entered",
                    )
                )
        die = calibration.die_px()
        checks.append(
            Check(
                "die size",
                _graded(die, DIE_PX_GOOD, DIE_PX_LEAST),
                f"about {die:.0f} px a die",
                "dice are too small in the picture: bring the camera closer or use 1920x1080",
            )
        )
        mask = calibration.region_mask(image.shape, grow=0.0)
    checks += _picture_checks(image, mask, die)
    return SetupReport(tuple(checks))


def _picture_checks(image: NDArray[np.uint8], mask: NDArray[np.uint8] | None, die_px: float | None) -> list[Check]:
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    values = grey[mask > 0] if mask is not None else grey.ravel()
    bright = float(np.percentile(values, 95))
    burnt = float(np.mean(values >= 250))
    blur = edge_blur_px(image, mask)
    scale = die_px if die_px is not None else min(image.shape[:2]) / 20  # no board: judge against a typical die
    focus = Check(
        "focus",
        _graded(blur / scale, BLUR_OF_DIE_GOOD, BLUR_OF_DIE_LEAST, higher_is_better=False),
        "no edges to judge" if math.isinf(blur) else f"edges blurred over about {blur:.1f} px",
        "the picture is blurred: focus the lens on the board and lock the focus (turn autofocus "
        "off), keep the camera still, add light for a shorter exposure",
    )
    exposure = Check(
        "exposure",
        _graded(bright, DARK_GOOD, DARK_LEAST),
        f"board brightness {bright:.0f}/255",
        "the board is too dark: add light over the board or raise the camera's exposure",
    )
    glare = Check(
        "glare",
        _graded(burnt, GLARE_GOOD, GLARE_LEAST, higher_is_better=False),
        f"{burnt:.1%} of the board burnt white",
        "glare: move or diffuse the lamp so it does not reflect into the camera, or lower the exposure",
    )
    return [focus, exposure, glare]


def check_source(
    spec: str | int, calibration: Calibration | None = None, frames: int = 30, entry: BoardEntry | None = None
) -> SetupReport:
    """Judge the set-up of a camera index, a video file or a picture: up to ``frames`` consecutive frames.

    The frame rate is the camera's measured one, or the video file's own; a picture has none.
    """
    source = open_source(spec)
    taken: list[NDArray[np.uint8]] = []
    stamps: list[float] = []
    try:
        for frame in source.frames():
            taken.append(frame.image)
            stamps.append(frame.timestamp)
            if len(taken) >= frames:
                break
    finally:
        source.close()
    problems = getattr(source, "errors", [])
    if not taken and problems:
        raise SourceError(str(problems[0]))
    fps: float | None = None
    if isinstance(source, Camera) and len(stamps) > 2 and stamps[-1] > stamps[0]:
        fps = (len(stamps) - 1) / (stamps[-1] - stamps[0])
    elif isinstance(source, VideoFile):
        fps = source.fps
    return check_frames(taken, fps, calibration, entry)
