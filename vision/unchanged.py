"""The places a play left as they were: what the board at the press shows unchanged since the throw's picture.

Between the throw and the clock press only the mover's checkers move (and the dice, and a hand). A place whose
part of the board looks the same in both pictures holds what it held at the throw, which the referee knows
exactly, even where the picture leaves a doubt (a checker the look may have missed beside a row, a colour
under a lamp). So the station narrows an unsure reading's ranges to the referee's counts there, and mostly only
the places the play changed are left to the picture. A checker taken from a row or put on one changes that place's top, its colour at the rim, or the
field beside it; a place counts as changed from ``CHANGED_PX`` of a checker's area of changed pixels
(``vision.change``'s level). A checker taken from a higher layer, or laid on one, can change the picture hardly at
all (the one under it looks the same from above), and so can one put on a pile borne off: the station leaves
such places to the picture (``app.table.checkers.held_where_unchanged``). What moves without a play (a checker
nudged, a die pushed, a hand, the light) only makes more places changed, which leaves them to the picture.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from vision.calibration import Calibration
from vision.change import change
from vision.checkers import (
    BAR_PLACE,
    BAR_X,
    CHECKER,
    FIELD_X,
    FIELD_Y,
    OFF_PLACE,
    POINTS,
    SCALE,
    board_view,
    column_centre,
    view_box,
)

CHANGED_PX = 0.08
"""The share of a checker's area (in the reading view) that must change for a place to count as changed."""
ROW_REACH = 6.0
"""How far from its rim a point's part of the board reaches, in checkers: a row of five and a layer leaning out."""


def place_boxes() -> dict[int, list[tuple[int, int, int, int]]]:
    """Each place's part of the reading view, as view boxes: a point's column from the rim out (the row's five and
    the layers over them, leaning a little outward), the bar, and everything beyond the frame for the checkers off
    (beside the board or in a tray, on either side)."""
    boxes: dict[int, list[tuple[int, int, int, int]]] = {}
    for place in range(POINTS):
        row, col = divmod(place, 12)
        x = column_centre(col)
        half = ((BAR_X[0] - FIELD_X[0]) if col < 6 else (FIELD_X[1] - BAR_X[1])) / 12 + 0.1 * CHECKER
        reach = ROW_REACH * CHECKER
        y0, y1 = (
            (FIELD_Y[0] - 0.2 * CHECKER, FIELD_Y[0] + reach)
            if row == 0
            else (FIELD_Y[1] - reach, FIELD_Y[1] + 0.2 * CHECKER)
        )
        boxes[place] = [view_box(x - half, y0, x + half, y1)]
    boxes[BAR_PLACE] = [view_box(BAR_X[0] - 0.1 * CHECKER, 0.0, BAR_X[1] + 0.1 * CHECKER, 800.0)]
    boxes[OFF_PLACE] = [view_box(-1000.0, -1000.0, 0.0, 2000.0), view_box(1000.0, -1000.0, 2000.0, 2000.0)]
    return boxes


def unchanged_places(image: NDArray[np.uint8], before: NDArray[np.uint8], calibration: Calibration) -> frozenset[int]:
    """The places (``vision.checkers.PLACES``) whose part of the board shows no change from ``before`` (the throw's
    picture, the same camera) to ``image``; none when the two pictures differ in size."""
    if image.shape != before.shape:
        return frozenset()
    now, then = board_view(image, calibration), board_view(before, calibration)
    mask = change(now, then, CHECKER * SCALE, 1).mask
    h, w = mask.shape
    least = CHANGED_PX * np.pi * (CHECKER * SCALE / 2) ** 2
    still = set()
    for place, boxes in place_boxes().items():
        moved = sum(int(mask[max(0, y0) : min(h, y1), max(0, x0) : min(w, x1)].sum()) for x0, y0, x1, y1 in boxes)
        if moved < least:
            still.add(place)
    return frozenset(still)
