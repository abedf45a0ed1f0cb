"""A reading drawn on its picture: the board's outline, the thrower's half, each die boxed with its value.

A referee trusts what they can see. The same drawing serves ``python -m vision read --annotate`` (a person
looks at pictures rather than JSON) and the station's screen (the last settled frame of every throw).
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.calibration import BOARD_VIEW, Calibration, Thrower
from vision.verdict import DieReading, ThrowObservation

# BGR colours: green for what counts, amber for what is doubtful, red for what voids the throw
GOOD, DOUBT, VOID, LINE = (60, 200, 60), (0, 190, 255), (40, 40, 230), (255, 200, 0)


def _die_colour(die: DieReading) -> tuple[int, int, int]:
    if die.cocked or die.zone in ("off_board", "wrong_half"):
        return VOID
    return DOUBT if die.value is None else GOOD


def _die_label(die: DieReading) -> str:
    text = "?" if die.value is None else str(die.value)
    if die.cocked:
        text += " cocked"
    elif die.zone in ("off_board", "wrong_half"):
        text += " " + die.zone.replace("_", " ")
    return f"{text} {die.confidence:.2f}"


def thrower_half(calibration: Calibration, thrower: Thrower) -> NDArray[np.int32]:
    """The thrower's right-hand half as a polygon in image pixels."""
    w, h = BOARD_VIEW
    x0, x1 = (calibration.bar_x, w) if thrower == "bottom" else (0.0, calibration.bar_x)
    board = np.array([[[x0, 0.0]], [[x1, 0.0]], [[x1, h]], [[x0, h]]], np.float64)
    image = cv2.perspectiveTransform(board, np.linalg.inv(calibration.homography))
    return np.round(image.reshape(-1, 2)).astype(np.int32)


def draw_board(image: NDArray[np.uint8], calibration: Calibration, thrower: Thrower) -> NDArray[np.uint8]:
    """A copy of ``image`` with the board's outline, the bar and the thrower's half (shaded) drawn on it."""
    scale = max(image.shape[0], image.shape[1]) / 1280
    thick = max(1, round(2 * scale))
    shade = image.copy()
    cv2.fillConvexPoly(shade, thrower_half(calibration, thrower), LINE)
    out = np.asarray(cv2.addWeighted(shade, 0.2, image, 0.8, 0), np.uint8)
    cv2.polylines(out, [np.round(np.array(calibration.corners)).astype(np.int32)], True, LINE, thick)
    top, bottom = calibration.bar_line()
    cv2.line(out, (round(top[0]), round(top[1])), (round(bottom[0]), round(bottom[1])), LINE, thick)
    return out


def _boxed(
    out: NDArray[np.uint8], box: tuple[int, int, int, int], text: str, colour: tuple[int, int, int], scale: float
) -> None:
    """A box drawn on ``out`` with its label above it."""
    thick = max(1, round(2 * scale))
    x0, y0, x1, y1 = box
    cv2.rectangle(out, (x0, y0), (x1, y1), colour, thick)
    cv2.putText(out, text, (x0, max(12, y0 - 4)), cv2.FONT_HERSHEY_SIMPLEX, 0.5 * scale, colour, thick, cv2.LINE_AA)


def annotate(
    image: NDArray[np.uint8],
    observation: ThrowObservation,
    calibration: Calibration | None = None,
    doubts: tuple[str, ...] = (),
) -> NDArray[np.uint8]:
    """A copy of ``image`` with the reading drawn on it (the verdict written in the top-left corner; with
    ``doubts``, as unsure, in amber: the players confirm it)."""
    out = image.copy() if calibration is None else draw_board(image, calibration, observation.thrower)
    scale = max(out.shape[0], out.shape[1]) / 1280
    thick = max(1, round(2 * scale))
    for die in observation.dice:
        _boxed(out, die.box, _die_label(die), _die_colour(die), scale)
    for box in observation.unread:  # the throw changed the board here and no die was read: one missed?
        _boxed(out, box, "no die read", DOUBT, scale)
    if observation.verdict is None:
        head, colour = f"{len(observation.dice)} dice", LINE
    elif observation.valid:
        head, colour = "valid " + "-".join(str(v) for v in observation.values or ()), GOOD
    else:
        head, colour = f"void: {(observation.reason or '').replace('_', ' ')}", VOID
    if doubts:  # not sure: the call waits for people, whatever it reads
        head, colour = f"unsure ({', '.join(d.replace('_', ' ') for d in doubts)}): {head}", DOUBT
    cv2.putText(
        out,
        head,
        (round(10 * scale), round(34 * scale)),
        cv2.FONT_HERSHEY_SIMPLEX,
        1.0 * scale,
        colour,
        max(2, thick),
        cv2.LINE_AA,
    )
    return out
