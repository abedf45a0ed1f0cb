"""Something over the board: a hand, a sleeve, a score sheet lying where checkers stand.

The checker reader counts what it sees and completes what a full row or a pile borne off can hide; a hand over a
point hides checkers too, and its shortfall would be completed as hidden layers: a sure reading, and a wrong one.
So before a reading may be sure, the places that show the board must look like the board.

The look compares like with like on one picture, so no board's colours are assumed: the base of every point (from
the rim to two checkers in, the middle of the point) with the bases of the points of the same colour in the same
row and half, the band between the two rows beside each point with the band beside the others, and each side of
the frame's outer part (which an arm reaching over the board crosses) with its neighbouring stretches of that
side. A place's expected colour is the median of the places it is compared with; a pixel differs when its Lab
distance from it passes ``DIFFERS``, lightness weighted less than colour on the field (a lamp's fall-off and a
frame's shadow change lightness first) and fully on the frame (skin often has a wooden frame's hue). A place whose
uncovered part differs on ``COVERED_SHARE`` or more, and on at least a quarter of a checker's area, is covered.
The checkers the reader counted are cut out; the dice are small enough to pass.
What it cannot see: a hand the colour of the places it lies on, or over places the check does not sample (a
stack's third to fifth checker, the bar, the checkers borne off); the benches count what it misses
(``tests/vision/bench_checkers.py``, its boards with a hand).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

DIFFERS = 14.0
"""The Lab distance (lightness weighted by ``LIGHTNESS_WEIGHT``) from which a pixel is not what its place shows
elsewhere."""
LIGHTNESS_WEIGHT = 0.4
NEIGHBOURS = 2
"""A place in a band (``Place.along``) is compared with this many places on each side of it along the band."""
COVERED_SHARE = 0.25
"""The share of a place's uncovered pixels that must differ for something to lie over it. With ``DIFFERS``, set on
the project's rendered boards with a hand (``tests/vision/bench_checkers.py``) as strict as leaves no range that
misses a hidden checker there, at the cost of a few boards' ranges without a hand."""
MIN_UNCOVERED = 0.3
"""A place more hidden by counted checkers than this leaves too little to judge (and is a checker's, not a hand's)."""
GROUP_MIN = 3
"""A group needs this many judged places for its median to stand for the board (a place in a band: two
neighbours)."""


@dataclass(frozen=True)
class Place:
    """One sampled place of the board: its group (places expected to look alike), its box in view pixels, and, for
    a place in a band of one material (a frame's side), its order along the band: such a place is compared with its
    neighbours only, and by lightness in full, as an arm of skin or a sleeve of the frame's hue still stands out
    by it while a lamp's highlight changes it only gradually."""

    group: str
    box: tuple[int, int, int, int]
    where: str
    along: int | None = None


def _apart(a: Place, b: Place) -> int:
    """How many places apart two places of one band lie."""
    return abs((a.along or 0) - (b.along or 0))


FIELD_WEIGHT = (LIGHTNESS_WEIGHT, 1.0, 1.0)
"""How a pixel's Lab distance weighs lightness and colour at a place of the field; at a frame's place all in full."""


def _to_lab_units(lab8: NDArray[np.generic]) -> NDArray[np.float32]:
    """OpenCV's 8-bit Lab in its own units: L 0-100, a and b round 0."""
    lab = np.array(lab8, np.float32)  # a copy: the units are set in place
    lab[..., 0] *= 100.0 / 255.0
    lab[..., 1:] -= 128.0
    return lab


def _medians(values: NDArray[np.uint8], labels: NDArray[np.intp], count: int) -> NDArray[np.float64]:
    """The median of each channel of the pixels of each label (``values`` 8-bit), from their histograms: one pass
    over all places however many there are."""
    sizes = np.bincount(labels, minlength=count)
    low, high = (sizes - 1) // 2, sizes // 2  # the middle pixel's rank, or the two middle ones'
    medians = np.empty((count, values.shape[1]), np.float64)
    for channel in range(values.shape[1]):
        hist = np.bincount(labels * 256 + values[:, channel], minlength=count * 256).reshape(count, 256)
        below = np.cumsum(hist, axis=1)
        first = (below > low[:, None]).argmax(axis=1)
        second = (below > high[:, None]).argmax(axis=1)
        medians[:, channel] = (first + second) / 2.0
    return medians


def _middle(rows: NDArray[np.float32]) -> NDArray[np.float32]:
    """The median of a few rows, column by column (``np.median``'s, without its cost on arrays this small)."""
    ordered = np.sort(rows, axis=0)
    middle: NDArray[np.float32] = (ordered[(len(rows) - 1) // 2] + ordered[len(rows) // 2]) / 2
    return middle


def covered(
    view: NDArray[np.uint8], places: Iterable[Place], counted: Iterable[tuple[float, float]], checker_px: float
) -> list[str]:
    """The doubts about ``view`` (the reader's view of the board): one for each place something other than the
    board or a counted checker covers. ``counted``: the centres of the checkers counted, view pixels;
    ``checker_px``: a checker's diameter there. The view is lightly smoothed against the board's texture."""
    lab8 = np.asarray(cv2.cvtColor(cv2.GaussianBlur(view, (0, 0), 1.5), cv2.COLOR_BGR2LAB), np.uint8)
    width = view.shape[1]
    free = np.full(view.shape[:2], 255, np.uint8)
    for x, y in counted:
        cv2.circle(free, (round(x), round(y)), round(0.62 * checker_px), 0, -1)
    judged: list[Place] = []
    pixels: list[NDArray[np.intp]] = []
    for place in places:
        x0, y0, x1, y1 = place.box
        mask = free[y0:y1, x0:x1] > 0
        if mask.size and mask.mean() >= MIN_UNCOVERED:
            ys, xs = np.nonzero(mask)
            judged.append(place)
            pixels.append((ys + y0) * width + xs + x0)
    if not judged:
        return []
    labels = np.repeat(np.arange(len(judged)), [len(p) for p in pixels])
    values: NDArray[np.uint8] = lab8.reshape(-1, 3)[np.concatenate(pixels)]
    medians = _to_lab_units(_medians(values, labels, len(judged)))
    by_group: dict[str, list[int]] = {}
    for k, place in enumerate(judged):
        by_group.setdefault(place.group, []).append(k)
    group_median = {group: _middle(medians[ks]) for group, ks in by_group.items()}
    expected = np.zeros((len(judged), 3), np.float32)
    weight = np.ones((len(judged), 3), np.float32)
    compared = np.zeros(len(judged), bool)
    for k, place in enumerate(judged):
        others = by_group[place.group]
        if place.along is None:
            compared[k] = len(others) >= GROUP_MIN
            expected[k], weight[k] = group_median[place.group], FIELD_WEIGHT
        else:
            others = [j for j in others if j != k and _apart(judged[j], place) <= NEIGHBOURS]
            compared[k] = len(others) >= 2
            if compared[k]:
                expected[k] = _middle(medians[others])
    apart = (_to_lab_units(values) - expected[labels]) * weight[labels]
    far = np.einsum("ij,ij->i", apart, apart) > DIFFERS**2
    differs = np.bincount(labels, weights=far, minlength=len(judged))
    share = differs / np.bincount(labels, minlength=len(judged))
    least = 0.25 * checker_px**2
    return [
        f"something lies over the board at {place.where} (a hand?)"
        for k, place in enumerate(judged)
        if compared[k] and share[k] >= COVERED_SHARE and differs[k] >= least
    ]
