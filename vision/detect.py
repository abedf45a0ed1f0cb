"""OpenCV proposes where dice may be; the ONNX reader decides what each one is.

A die differs from the surface it lies on (a white die on light wood still has
dark pips, a shadow and a brighter body), so proposals are the blobs that
stand out from a heavily smoothed copy of the image (the local background).
The proposer errs on the side of too many: the reader's "not a die" class
removes checkers, cables and points of the board.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]

WORK_SIDE = 640  # the proposer works on an image whose longer side is at most this
_CHROMA = np.array([[2.0, -1.0, -1.0], [-1.0, 2.0, -1.0], [-1.0, -1.0, 2.0]])  # 3 x (channel - mean)


@dataclass(frozen=True)
class Proposal:
    """A region that may hold one die, in input-image pixels."""

    box: tuple[int, int, int, int]  # x0, y0, x1, y1 (exclusive)
    centre: tuple[float, float]
    area: float  # blob area in input pixels
    fill: float  # blob area / its minimum-area rectangle
    elongation: float  # long side / short side of the minimum-area rectangle


def _foregrounds(work: Image, die_px: float | None, reference: Image | None = None) -> list[NDArray[np.uint8]]:
    """Pixels brighter and pixels darker than the local background (two 0/255 masks; colour differences go
    with the sign of their brightness). Two polarities keep a white die apart from a black cable it touches."""
    h, w = work.shape[:2]
    small_side = 96
    f = small_side / max(h, w)
    small = cv2.resize(work, (max(8, int(w * f)), max(8, int(h * f))), interpolation=cv2.INTER_AREA)
    k = 11 if die_px is None else int(max(5, min(31, die_px * f * 3.0))) | 1
    if reference is not None:  # the board just before the throw: only what the throw brought differs
        bg = reference
    else:
        bg = np.asarray(cv2.resize(cv2.medianBlur(small, k), (w, h), interpolation=cv2.INTER_LINEAR), np.uint8)
    d = cv2.subtract(work, bg, dtype=cv2.CV_16S)
    lum = np.asarray(cv2.transform(d, np.array([[1.0, 1.0, 1.0]])), np.int16)  # signed brightness change
    chroma = np.asarray(
        cv2.transform(np.abs(np.asarray(cv2.transform(d, _CHROMA), np.int16)), np.array([[1.0, 1.0, 1.0]]) / 3),
        np.int16,
    )
    score = np.abs(lum) + chroma
    noise = float(np.median(score[::4, ::4]))
    thresh = max(40.0, 4.0 * noise)
    strong = score > thresh
    positive = lum >= 0
    bright = (strong & positive).astype(np.uint8) * 255
    dark = (strong & ~positive).astype(np.uint8) * 255
    return [bright, dark]


def propose(
    image: Image, die_px: float | None = None, region: NDArray[np.uint8] | None = None, reference: Image | None = None
) -> list[Proposal]:
    """Candidate die regions. ``die_px``: expected die side in input pixels if known (from calibration);
    ``region``: a 0/255 mask of the input image outside of which nothing is proposed; ``reference``: a frame of
    the same scene before the throw (from settle detection), a better background than the smoothed image."""
    h, w = image.shape[:2]
    scale = min(1.0, WORK_SIDE / max(h, w))
    if die_px is not None:
        scale = min(scale, max(0.1, 24.0 / die_px))  # about 24 px a die is plenty to find it
    elif max(h, w) * scale > 400:
        scale = 400 / max(h, w)
    work = (
        image
        if scale == 1.0
        else np.asarray(
            cv2.resize(image, (int(round(w * scale)), int(round(h * scale))), interpolation=cv2.INTER_AREA), np.uint8
        )
    )
    die_w = None if die_px is None else die_px * scale
    ref_work = None
    if reference is not None and reference.shape == image.shape:
        ref_work = np.asarray(
            cv2.resize(reference, (work.shape[1], work.shape[0]), interpolation=cv2.INTER_AREA), np.uint8
        )
    masks = _foregrounds(work, die_w, ref_work)
    if region is not None:
        reg = np.asarray(cv2.resize(region, (work.shape[1], work.shape[0]), interpolation=cv2.INTER_NEAREST), np.uint8)
        masks = [m & reg for m in masks]
    unit = die_w if die_w is not None else max(work.shape[:2]) / 14
    open_k = max(2, int(unit * 0.08))
    close_k = max(3, int(unit * 0.3))
    ellipse = cv2.MORPH_ELLIPSE
    layers: list[NDArray[np.uint8]] = []
    for mask in masks:
        opened = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(ellipse, (open_k, open_k)))
        closed = np.asarray(
            cv2.morphologyEx(opened, cv2.MORPH_CLOSE, cv2.getStructuringElement(ellipse, (close_k, close_k))), np.uint8
        )
        layers.append(closed)
        if die_w is None:
            continue
        # on a calibrated board, the solid cores too: a die joined to the board's pattern (a dark die on a dark
        # point, the texture's stripes) comes loose when everything thinner than half a die is opened away
        solid_k = max(3, int(unit * 0.5))
        layers.append(
            np.asarray(
                cv2.morphologyEx(closed, cv2.MORPH_OPEN, cv2.getStructuringElement(ellipse, (solid_k, solid_k))),
                np.uint8,
            )
        )
    # both polarities joined with a wider closing: a pale die on pale wood often shows only as its pips, its
    # shadow and its side strips, which this puts back together
    join_k = max(5, int(unit * 0.6))
    joined = cv2.morphologyEx(
        cv2.bitwise_or(masks[0], masks[1]), cv2.MORPH_CLOSE, cv2.getStructuringElement(ellipse, (join_k, join_k))
    )
    layers.append(
        np.asarray(
            cv2.morphologyEx(joined, cv2.MORPH_OPEN, cv2.getStructuringElement(ellipse, (open_k, open_k))), np.uint8
        )
    )
    comps = [cv2.connectedComponentsWithStatsWithAlgorithm(layer, 8, cv2.CV_16U, cv2.CCL_SPAGHETTI) for layer in layers]
    if die_w is None:
        side = max(work.shape[:2])
        sizes = [float(np.sqrt(st[i, cv2.CC_STAT_AREA])) for (n, _, st, _) in comps for i in range(1, n)]
        plausible = [v for v in sizes if side * 0.03 < v < side * 0.2]
        die_w = float(np.percentile(plausible, 75)) if plausible else side / 14
    max_side = die_w * 1.9
    inv = 1.0 / scale
    out: list[Proposal] = []
    for n, labels, stats, _ in comps:
        for i in range(1, n):
            x, y, bw, bh, area = (int(v) for v in stats[i])
            if max(bw, bh) < die_w * 0.45 or area < (die_w * 0.3) ** 2:
                continue
            if area > 6 * die_w * die_w and max(bw, bh) > 2.6 * die_w:
                continue  # points of the board, table edges, a laptop: too big to be dice or a die on a checker
            comp = (labels[y : y + bh, x : x + bw] == i).astype(np.uint8)
            if area <= 1.6 * die_w * die_w and max(bw, bh) <= max_side:
                parts = [comp]
            else:
                parts = _split(comp, area / (die_w * die_w), die_w)
            for part in parts:
                pts = cv2.findNonZero(part)
                if pts is None:
                    continue
                px, py, pw, ph = cv2.boundingRect(pts)
                if max(pw, ph) > 2.6 * die_w or max(pw, ph) < 0.3 * die_w:
                    continue
                (_, _), (rw, rh), _ = cv2.minAreaRect(pts)
                out.append(
                    _proposal(x + px, y + py, x + px + pw, y + py + ph, float(cv2.countNonZero(part)), rw, rh, inv)
                )
    merged = _dedupe(_merge_fragments(out, die_w * inv))
    die_in = die_w * inv
    # alone, a piece too small or a sliver (the edge of a board point) is no die; it may still join another piece
    keep = [
        p
        for p in merged
        if max(p.box[2] - p.box[0], p.box[3] - p.box[1]) >= 0.45 * die_in
        and min(p.box[2] - p.box[0], p.box[3] - p.box[1]) >= 0.5 * die_in
        and p.area >= 0.25 * die_in**2
    ]
    if die_px is not None:
        # the die size is known (calibration): a die is a compact blob of about that size; checkers are
        # twice as wide, pieces of the board's points thin or hollow
        keep = [
            p
            for p in keep
            if 0.7 * die_in <= max(p.box[2] - p.box[0], p.box[3] - p.box[1]) <= 2.0 * die_in
            and min(p.box[2] - p.box[0], p.box[3] - p.box[1]) >= 0.6 * die_in
            and p.fill >= 0.45
        ]
    return keep


def _proposal(x0: float, y0: float, x1: float, y1: float, area: float, rw: float, rh: float, inv: float) -> Proposal:
    """A proposal from work-image coordinates (``inv`` scales back to the input image)."""
    fill = area / max(rw * rh, 1.0)
    elong = max(rw, rh) / max(min(rw, rh), 1.0)
    bx0, by0, bx1, by1 = x0 * inv, y0 * inv, x1 * inv, y1 * inv
    return Proposal(
        (int(bx0), int(by0), int(np.ceil(bx1)), int(np.ceil(by1))),
        ((bx0 + bx1) / 2, (by0 + by1) / 2),
        area * inv * inv,
        fill,
        elong,
    )


def _merge_fragments(props: list[Proposal], die: float) -> list[Proposal]:
    """One die can break into pieces (a pale face on pale wood, its shadow, its pips): pieces whose union is
    still die-sized become one more proposal (the pieces stay too; the reader keeps the best)."""
    if len(props) < 2:
        return props
    boxes = np.array([p.box for p in props], np.float64)
    lo = np.minimum(boxes[:, None, :2], boxes[None, :, :2])
    hi = np.maximum(boxes[:, None, 2:], boxes[None, :, 2:])
    span = (hi - lo).max(axis=2)
    ii, jj = np.nonzero(np.triu(span <= 1.5 * die, k=1))
    extra: list[Proposal] = []
    for i, j in zip(ii.tolist(), jj.tolist()):
        a, b = props[i], props[j]
        x0, y0 = int(lo[i, j, 0]), int(lo[i, j, 1])
        x1, y1 = int(hi[i, j, 0]), int(hi[i, j, 1])
        extra.append(
            Proposal(
                (x0, y0, x1, y1),
                ((x0 + x1) / 2, (y0 + y1) / 2),
                a.area + b.area,
                min(a.fill, b.fill),
                max(a.elongation, b.elongation),
            )
        )
    return props + extra


def _dedupe(props: list[Proposal], iou: float = 0.9) -> list[Proposal]:
    """Drop proposals that repeat an earlier one (the masks overlap: the same die is found several times)."""
    if len(props) < 2:
        return props
    b = np.array([p.box for p in props], np.float64)
    area = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    ix = np.clip(np.minimum(b[:, None, 2], b[None, :, 2]) - np.maximum(b[:, None, 0], b[None, :, 0]), 0, None)
    iy = np.clip(np.minimum(b[:, None, 3], b[None, :, 3]) - np.maximum(b[:, None, 1], b[None, :, 1]), 0, None)
    inter = ix * iy
    overlap = inter / np.maximum(area[:, None] + area[None, :] - inter, 1.0)
    gone = np.zeros(len(props), bool)
    keep: list[int] = []
    for i in range(len(props)):
        if gone[i]:
            continue
        keep.append(i)
        gone |= overlap[i] > iou
    return [props[i] for i in keep]


def _split(comp: NDArray[np.uint8], dice_area: float, die: float) -> list[NDArray[np.uint8]]:
    """Split a blob of touching objects (two dice, a die leaning on a checker): one part per local maximum of
    the distance transform (watershed); an elongated blob with one maximum (two dice side by side) is cut by
    k-means started from slices along its long axis, so one blob is always cut the same way; a compact one
    (a checker) stays whole."""
    dist = cv2.distanceTransform(comp, cv2.DIST_L2, 3)
    ksize = max(3, int(die * 0.5)) | 1
    peaks = ((dist >= cv2.dilate(dist, np.ones((ksize, ksize), np.uint8))) & (dist > 0.25 * die)).astype(np.uint8)
    n, seed_labels = cv2.connectedComponents(peaks)
    if n - 1 >= 2:
        markers = seed_labels.astype(np.int32)
        markers[comp == 0] = n  # background
        colour = cv2.cvtColor(comp * 255, cv2.COLOR_GRAY2BGR)
        cv2.watershed(colour, markers)
        return [(markers == j).astype(np.uint8) for j in range(1, n)]
    pts = np.column_stack(np.nonzero(comp)).astype(np.float32)
    if len(pts) < 4:
        return [comp]
    (_, _), (rw, rh), _ = cv2.minAreaRect(pts[:, ::-1].copy())
    elong = max(rw, rh) / max(min(rw, rh), 1.0)
    k = min(3, int(round(elong)))
    if elong < 1.6 or dice_area > 4.5 or k < 2:
        return [comp]
    # k-means from k equal slices along the blob's long axis: OpenCV's random starts (k-means++) draw from a
    # generator that every call advances, so the same frame read twice could be split two ways
    centred = pts - pts.mean(axis=0)
    axis = np.linalg.svd(centred, full_matrices=False)[2][0]
    rank = np.argsort(np.argsort(centred @ axis, kind="stable"), kind="stable")
    start = (rank * k // len(pts)).astype(np.int32).reshape(-1, 1)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    _, assign, _ = cv2.kmeans(pts, k, start, criteria, 1, cv2.KMEANS_USE_INITIAL_LABELS)
    parts = []
    for j in range(k):
        part = np.zeros_like(comp)
        sel = pts[assign.ravel() == j].astype(int)
        part[sel[:, 0], sel[:, 1]] = 1
        parts.append(part)
    return parts


# a crop is this many times a die's box: the die with a little of what lies round it (the reader and its second stage)
CROP_MARGIN = 1.4


def crop_square(image: Image, proposal_box: tuple[int, int, int, int], size: int, margin: float = CROP_MARGIN) -> Image:
    """A square crop around a proposal, ``margin`` times its longer side, resized to ``size``; edges replicated."""
    x0, y0, x1, y1 = proposal_box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    half = max(x1 - x0, y1 - y0) * margin / 2
    src = np.array([[cx - half, cy - half], [cx + half, cy - half], [cx - half, cy + half]], np.float32)
    dst = np.array([[0, 0], [size, 0], [0, size]], np.float32)
    m = cv2.getAffineTransform(src, dst)
    interp = cv2.INTER_AREA if 2 * half > size else cv2.INTER_LINEAR
    return np.asarray(
        cv2.warpAffine(image, m, (size, size), flags=interp, borderMode=cv2.BORDER_REPLICATE), dtype=np.uint8
    )
