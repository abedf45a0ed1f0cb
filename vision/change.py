"""What the throw changed: the parts of the detector's view that differ from the frame before the throw.

A die that was thrown lies where the board looked different a moment before; a checker, the doubling cube or a
point of the board that shows no change since the frame before the throw was not thrown, whatever it looks like.
So, when the frame before the throw is known (``watch`` and the app have it; a single photo does not), the
detector reads only the changed parts of the view, with context round them, and a die it finds counts only
when its own square changed. This is the frame before the throw as the detector's second input: it decides where
a die cannot be, never where one is (that stays the heat map's call), and it makes a settled frame cheap to
read, since a throw changes a few hundredths of the board.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

CHANGE_LEVEL = 24  # grey levels (after a light blur): a pixel that moved this much since the frame before changed
CHANGED_SHARE = 0.15  # a found die whose square changed less than this share was lying there before the throw
FAINT_SHARE = 0.05
"""A die the detector finds where its square changed less than ``CHANGED_SHARE`` but at least this share is not
counted (it may have lain there before the throw), nor forgotten: a die the colour of the board changes the
picture only at its pips, edges and shading (three held-out dice on a field of their own colour changed 0.13-0.15
of their squares, and went unread), so the reading lists it with the unread changes (a die missed?). Set below
those three, well above a die that lay still (its square changes only where a thrown die's shadow falls)."""
CONTEXT = 2.0  # die sides of unchanged view the detector reads round a changed part (its receptive field)
WHOLE_VIEW = 0.5  # when the parts to read cover this share of the view, the whole view is read at once
UNREAD_SHARE = 0.35  # a changed part this share of a die's area where no die was read: something unread is there
EXPLAINS = 1.0  # die sides round a die read (from its centre) whose change it explains: itself, its shadow
JOINS = 0.25
"""Die sides of gap closed between changed pixels before the unread parts are measured: a die the colour of the
board changes the picture only at its pips, edges and shading, in pieces each smaller than ``UNREAD_SHARE``."""


@dataclass(frozen=True)
class Change:
    """A 0/1 map of the changed view pixels and the rectangles (x0, y0, x1, y1, view pixels, aligned to
    ``align``) the detector reads."""

    mask: NDArray[np.uint8]
    regions: tuple[tuple[int, int, int, int], ...]

    def share(self, centre: tuple[float, float], side: float) -> float:
        """The share of changed pixels in the square of ``side`` round ``centre``."""
        h, w = self.mask.shape
        half = side / 2
        x0, x1 = max(0, int(centre[0] - half)), min(w, int(np.ceil(centre[0] + half)))
        y0, y1 = max(0, int(centre[1] - half)), min(h, int(np.ceil(centre[1] + half)))
        if x1 <= x0 or y1 <= y0:
            return 0.0
        return float(self.mask[y0:y1, x0:x1].mean())


def _smooth(view: NDArray[np.uint8]) -> NDArray[np.uint8]:
    return np.asarray(cv2.GaussianBlur(view, (3, 3), 0), np.uint8)


def change(now: NDArray[np.uint8], before: NDArray[np.uint8], die_px: float, align: int) -> Change:
    """Where ``now`` differs from ``before`` (two views of the same size), and the rectangles to read: each
    changed part with ``CONTEXT`` die sides round it, overlapping ones joined; the whole view when they would
    cover most of it (the light or the camera changed, not just the dice). A pixel changed when any colour
    channel did: a red die on a brown point can keep the brightness."""
    if now.shape != before.shape:
        raise ValueError("the frame before the throw must be seen through the same view")
    diff = cv2.absdiff(_smooth(now), _smooth(before))
    if diff.ndim == 3:
        blue, green, red = cv2.split(diff)  # whole planes: OpenCV copies a strided channel view first
        diff = cv2.max(cv2.max(blue, green), red)
    mask = np.asarray(cv2.threshold(diff, CHANGE_LEVEL - 1, 1, cv2.THRESH_BINARY)[1], np.uint8)
    h, w = mask.shape
    reach = max(1, int(round(CONTEXT * die_px)))
    around = grown(mask, reach)
    rects = [
        _aligned(int(x), int(y), int(x + bw), int(y + bh), w, h, align)
        for x, y, bw, bh, area in components(around)
        if area > 0
    ]
    rects = _joined(rects)
    covered = sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in rects)
    if covered >= WHOLE_VIEW * w * h:
        rects = [(0, 0, w, h)]
    return Change(mask, tuple(sorted(rects)))


def grown(mask: NDArray[np.uint8], reach: int) -> NDArray[np.uint8]:
    """``mask`` dilated by a square of ``reach`` pixels each way, dilated within the box of its changed pixels and
    ``reach`` round it alone (nothing beyond that box can change: the same map as the whole dilated, for a few
    hundredths of the work after a throw)."""
    out = np.zeros_like(mask)
    x, y, width, height = cv2.boundingRect(mask)
    if width == 0 or height == 0:
        return out
    h, w = mask.shape
    rows = slice(max(0, y - reach), min(h, y + height + reach))
    cols = slice(max(0, x - reach), min(w, x + width + reach))
    square = cv2.getStructuringElement(cv2.MORPH_RECT, (2 * reach + 1, 2 * reach + 1))
    out[rows, cols] = cv2.dilate(np.ascontiguousarray(mask[rows, cols]), square)
    return out


def unread_parts(
    moved: Change, dice: Sequence[tuple[float, float, float]], die_px: float
) -> list[tuple[int, int, int, int]]:
    """The parts of the view the throw changed, each at least ``UNREAD_SHARE`` of a die's area, that no die read
    explains (``dice``: centre x, y and side, in the change map's pixels; each explains its square and
    ``EXPLAINS`` die sides round it, its shadow and the board it uncovered), and that do not reach the view's
    edge (a die beyond the board, a part of it or its shadow in view): each as its bounding box (x0, y0, x1, y1,
    the change map's pixels). A die the reader missed leaves such a part; a die thrown off the board leaves none
    on it: so a throw with a die missing is a question only when something the size of a die changed on the
    board where no die was read, and the question can show where."""
    joins = max(3, int(round(JOINS * die_px)) | 1)
    h, w = moved.mask.shape
    rest = np.zeros_like(moved.mask)
    bx, by, bw, bh = cv2.boundingRect(moved.mask)
    if bw > 0:  # closed within the changed pixels' box and what the closing reaches round it: the same pixels
        pad = joins + 1
        rows = slice(max(0, by - pad), min(h, by + bh + pad))
        cols = slice(max(0, bx - pad), min(w, bx + bw + pad))
        kernel = np.ones((joins, joins), np.uint8)
        rest[rows, cols] = cv2.morphologyEx(moved.mask[rows, cols], cv2.MORPH_CLOSE, kernel)
    for x, y, side in dice:
        reach = EXPLAINS * side
        rest[
            max(0, int(y - reach)) : max(0, int(np.ceil(y + reach))),
            max(0, int(x - reach)) : max(0, int(np.ceil(x + reach))),
        ] = 0
    parts = []
    for x, y, width, height, area in components(rest):
        at_edge = x == 0 or y == 0 or x + width >= w or y + height >= h  # off the board, a part of it in view
        if area >= UNREAD_SHARE * die_px * die_px and not at_edge:
            parts.append((int(x), int(y), int(x + width), int(y + height)))
    return parts


def components(binary: NDArray[np.uint8]) -> NDArray[np.int32]:
    """``cv2.connectedComponentsWithStats``'s stats (x, y, width, height, area) of each 8-connected part of a 0/1
    map, in its order, labelled within the box of the map's nonzero pixels alone (a throw changes a few
    hundredths of the view, so most of the map needs no scan). The box starts on even pixels: the labelling
    scans 2 x 2 blocks, which then fall as on the whole map, and the parts come in the same order."""
    x, y, width, height = cv2.boundingRect(binary)
    if width == 0 or height == 0:
        return np.zeros((0, 5), np.int32)
    x0, y0 = x - x % 2, y - y % 2
    count, _, stats, _ = cv2.connectedComponentsWithStats(
        np.ascontiguousarray(binary[y0 : y + height, x0 : x + width]), connectivity=8
    )
    out = np.asarray(stats[1:count], np.int32).copy()
    out[:, 0] += x0
    out[:, 1] += y0
    return out


def _aligned(x0: int, y0: int, x1: int, y1: int, w: int, h: int, align: int) -> tuple[int, int, int, int]:
    """A rectangle grown to multiples of ``align`` (the detector's grid stays the whole view's grid)."""
    x0, y0 = x0 // align * align, y0 // align * align
    x1 = min(-(-x1 // align) * align, w)
    y1 = min(-(-y1 // align) * align, h)
    return x0, y0, max(x1, x0 + align), max(y1, y0 + align)


def overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    """Whether two rectangles (x0, y0, x1, y1) share some area."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _joined(rects: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """Overlapping rectangles joined into their bounding rectangle until none overlap (a die is never split)."""
    out = list(rects)
    merged = True
    while merged:
        merged = False
        for i in range(len(out)):
            for j in range(i + 1, len(out)):
                a, b = out[i], out[j]
                if overlap(a, b):
                    out[i] = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                    del out[j]
                    merged = True
                    break
            if merged:
                break
    return out
