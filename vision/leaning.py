"""What a cocked die leans on: a die stays tilted only against something that stands up from the playing
surface (a checker, the other die, the frame or the bar; docs/rules.md section 5).

A die the cocked look calls cocked beyond doubt voids the throw at once. Where the station knows where the
checkers lie (the referee's position), a die called cocked with nothing within reach to lean on cannot be
cocked as called: the look took a flat die for a leaning one (on held-out matches, the flat dice the look
calls cocked beyond doubt lie in the open), and the throw is asked about rather than thrown again. The
geometry is in board millimetres from the board's top-left outer corner as the camera's picture shows it (x to
the right, y down: the bottom player's side is at large y), the calibration's canonical board scaled to a
typical tournament board (``vision.calibration``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import cv2
import numpy as np

from vision.calibration import BAR_MM, BOARD_DEPTH_MM, BOARD_MM, DIE_MM, FRAME_MM, Calibration
from vision.errors import VisionError
from vision.verdict import DieReading

POINTS_A_ROW = 12
POINT_MM = (BOARD_MM - 2 * FRAME_MM - BAR_MM) / POINTS_A_ROW  # a point's width
CHECKER_RADIUS_MM = 0.48 * POINT_MM  # checkers nearly fill a point's width
IN_A_LINE = 5
"""A point's checkers lie in one line from the frame, up to this many; more lie on top of them (a line of
six would reach the board's middle)."""
REACH = 1.0
"""A die leaning on something has its centre (as the camera sees it) at most this many die sides from that
thing's edge: a leaning die's foot touches it, and the die's own height seen from above shifts its picture by a
fraction of a side. Generous on purpose: what lies within reach keeps the call automatic. A die side
is the larger of a typical precision die's (``DIE_MM``) and the die's box as the board's calibration measures
it (dice and boards come in many sizes; a box is a little larger than its die)."""
OTHER_DIE_REACH = 2.0
"""Two dice, one leaning on the other, have their centres at most this many die sides apart."""


@dataclass(frozen=True)
class Checker:
    """A checker lying on the board: its centre (board millimetres, as above) and its radius."""

    x: float
    y: float
    radius: float = CHECKER_RADIUS_MM


def point_checkers(top: Sequence[int], bottom: Sequence[int]) -> tuple[Checker, ...]:
    """The checkers of a position as they lie on the points: ``top`` and ``bottom`` say how many checkers
    each of the twelve points along the picture's top and bottom edge holds, left to right (both colours
    counted; the checkers on the bar and those borne off lie elsewhere)."""
    if len(top) != POINTS_A_ROW or len(bottom) != POINTS_A_ROW:
        raise VisionError(f"a row of the board has {POINTS_A_ROW} points, not {len(top)} and {len(bottom)}")
    if any(count < 0 for count in (*top, *bottom)):
        raise VisionError("a point cannot hold fewer than no checkers")
    out = []
    for row, counts in (("top", top), ("bottom", bottom)):
        for column, count in enumerate(counts):
            x = FRAME_MM + (column + 0.5) * POINT_MM + (BAR_MM if column >= POINTS_A_ROW // 2 else 0.0)
            for k in range(min(count, IN_A_LINE)):
                from_edge = FRAME_MM + CHECKER_RADIUS_MM * (1 + 2 * k)
                out.append(Checker(x, from_edge if row == "top" else BOARD_DEPTH_MM - from_edge))
    return tuple(out)


def both_ways_round(checkers: Sequence[Checker]) -> tuple[Checker, ...]:
    """The checkers as they lie, and as they would lie on the board set up the other way round (home boards on
    the other side: each mirrored across the bar). A station is not told which way round the players set the
    board up: a die lies in the open only when it does either way."""
    return (*checkers, *(Checker(BOARD_MM - c.x, c.y, c.radius) for c in checkers))


def die_side_mm(die: DieReading, calibration: Calibration) -> float:
    """How large a die is on the board: its box's side in board millimetres, at least a typical die's."""
    x0, y0, x1, y1 = die.box
    corners = calibration.to_board_mm(np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], np.float64))
    return max(DIE_MM, float(np.sqrt(abs(cv2.contourArea(corners.astype(np.float32))))))


def leans_on_nothing(
    die: DieReading, others: Sequence[DieReading], calibration: Calibration, checkers: Sequence[Checker]
) -> bool:
    """Whether nothing lies within reach of ``die`` that it could lean on: no checker, none of the ``others``
    (the throw's other dice), neither the frame nor the bar."""
    side = die_side_mm(die, calibration)
    if min(calibration.edges_mm(die.centre)) <= REACH * side:
        return False  # against (or on) the frame or the bar
    x, y = calibration.to_board_mm(np.array([die.centre], np.float64))[0]
    if any(np.hypot(x - c.x, y - c.y) - c.radius <= REACH * side for c in checkers):
        return False
    for other in others:
        ox, oy = calibration.to_board_mm(np.array([other.centre], np.float64))[0]
        if np.hypot(x - ox, y - oy) <= OTHER_DIE_REACH * max(side, die_side_mm(other, calibration)):
            return False
    return True
