"""One frame in, one ThrowObservation out: propose regions, read each with the model, back the cocked call
with geometry, drop duplicates, place each die on the board, judge."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from vision.calibration import Calibration, Thrower
from vision.detect import Proposal, crop_square, propose
from vision.errors import VisionError
from vision.reader import CLASS_COCKED, CLASS_NOT_DIE, CROP, DEFAULT_MODEL, Backend, CropClassifier, OnnxReader
from vision.verdict import DieReading, ThrowObservation, judge

NOT_DIE_LIMIT = 0.4  # a proposal is a die when the model gives "not a die" less than this
COCKED_SURE = 0.5  # the model alone calls a die cocked from here
COCKED_MAYBE = 0.2  # from here, when the outline agrees (geometric_cocked_cue)
CLASSIC_READABLE_FROM = 0.7  # below this value confidence a die is unreadable (value None, never guessed)
GROW_LIMIT = 1.6  # a die's box takes in its other proposals up to this many times the read proposal's side
Box = tuple[int, int, int, int]


class Reader(Protocol):
    """What ``watch``, the CLI and the app need of a reader: ``DiceReader`` (proposer and crop classifier) or
    ``vision.detector.DetectorReader`` (the learned detector)."""

    def dice(
        self,
        image: NDArray[np.uint8],
        calibration: Calibration | None = None,
        thrower: Thrower = "bottom",
        reference: NDArray[np.uint8] | None = None,
    ) -> tuple[DieReading, ...]: ...

    def read(
        self,
        image: NDArray[np.uint8],
        calibration: Calibration | None = None,
        thrower: Thrower = "bottom",
        source: str | None = None,
        timestamp: float | None = None,
        reference: NDArray[np.uint8] | None = None,
    ) -> ThrowObservation: ...

    def read_all(self, image: NDArray[np.uint8], source: str | None = None) -> ThrowObservation: ...


class Judge:
    """``read`` and ``read_all`` in terms of ``dice``: both readers judge a throw the same way, with the same
    two settings (checked here)."""

    def __init__(self, min_confidence: float, cocked_from: float):
        if not 0.0 < cocked_from <= 1.0:
            raise VisionError(f"cocked_from must lie in (0, 1], not {cocked_from}")
        if not 0.0 <= min_confidence <= 1.0:
            raise VisionError(f"min_confidence must lie in [0, 1], not {min_confidence}")
        self.min_confidence = min_confidence
        self.cocked_from = cocked_from

    def dice(
        self,
        image: NDArray[np.uint8],
        calibration: Calibration | None = None,
        thrower: Thrower = "bottom",
        reference: NDArray[np.uint8] | None = None,
    ) -> tuple[DieReading, ...]:
        raise NotImplementedError

    def read(
        self,
        image: NDArray[np.uint8],
        calibration: Calibration | None = None,
        thrower: Thrower = "bottom",
        source: str | None = None,
        timestamp: float | None = None,
        reference: NDArray[np.uint8] | None = None,
    ) -> ThrowObservation:
        """The verdict on one throw. Without calibration the whole image is the throwing area."""
        dice = self.dice(image, calibration, thrower, reference)
        verdict, reason = judge(dice, calibration is not None)
        return ThrowObservation(verdict, reason, dice, thrower, timestamp, source)

    def read_all(self, image: NDArray[np.uint8], source: str | None = None) -> ThrowObservation:
        """Every die in the image, any number, and no verdict (photos of many dice)."""
        return ThrowObservation(None, None, self.dice(image), "bottom", None, source)


def geometric_cocked_cue(p: Proposal, image_shape: tuple[int, ...]) -> bool:
    """True when the blob's outline does not look like a die lying flat: a flat die shows a near-square top
    and thin side strips, a leaning one a long, ragged outline. Perspective shows more side far from the image
    centre, so the allowance grows there. A weak cue alone: it only backs up an uncertain model."""
    h, w = image_shape[:2]
    cx, cy = p.centre
    r = np.hypot((cx - w / 2) / (w / 2), (cy - h / 2) / (h / 2)) / np.sqrt(2)
    return bool(p.elongation > 1.4 + 0.3 * r or p.fill < 0.55)


class DiceReader(Judge):
    """The whole reader. ``min_confidence``: below it a die is "unreadable" (its value None), never guessed.
    ``threads``: onnxruntime threads (1 by default, the tablet's other core runs the app). ``cocked_from``: the
    model's cocked probability from which a die is called cocked (from 0.4 of it when the outline agrees);
    lower voids more cocked throws and more valid ones, a choice for the tournament (models/MODEL_CARD.md)."""

    def __init__(
        self,
        model: Path | str = DEFAULT_MODEL,
        backend: Backend | None = None,
        threads: int = 1,
        min_confidence: float = CLASSIC_READABLE_FROM,
        classifier: CropClassifier | None = None,
        cocked_from: float = COCKED_SURE,
    ):
        super().__init__(min_confidence, cocked_from)
        self.classifier: CropClassifier = classifier if classifier is not None else OnnxReader(model, backend, threads)

    def dice(
        self,
        image: NDArray[np.uint8],
        calibration: Calibration | None = None,
        thrower: Thrower = "bottom",
        reference: NDArray[np.uint8] | None = None,
    ) -> tuple[DieReading, ...]:
        """Every die found in the image, left to right. ``reference``: the scene before the throw, if known."""
        check_frame(image)
        die_px = calibration.die_px() if calibration is not None else None
        region = calibration.region_mask(image.shape) if calibration is not None else None
        props = propose(image, die_px, region, reference)
        if not props:
            return ()
        crops = np.stack([crop_square(image, p.box, CROP) for p in props])
        probs = self.classifier.probabilities(crops)
        found: list[tuple[float, Proposal, NDArray[np.float32]]] = []
        for p, pr in zip(props, probs):
            if pr[CLASS_NOT_DIE] >= NOT_DIE_LIMIT:
                continue
            found.append((float(pr[:CLASS_NOT_DIE].max()), p, pr))
        found.sort(key=lambda t: -t[0])
        kept: list[tuple[Proposal, NDArray[np.float32], Box]] = []
        for _, p, pr in found:
            # one die, several proposals (pieces and their union): read the surest, and let the box cover the
            # others (a proposal on the upper face alone, or on the face with its shadow, is still this die)
            same = [i for i, (q, _, _) in enumerate(kept) if _same_die(p, q)]
            if len(same) == 1:
                q, qpr, box = kept[same[0]]
                kept[same[0]] = (q, qpr, _grown_box(box, p.box, q))
            if same:
                continue
            kept.append((p, pr, p.box))
        readings = [replace(self._reading(p, pr, image.shape, calibration, thrower), box=box) for p, pr, box in kept]
        # a side face of a die seen at an angle looks tilted: a "cocked" reading touching a surely flat die
        # is that die's side, not a second die
        flat = [d for d in readings if not d.cocked and d.value is not None and d.confidence >= 0.9]
        readings = [d for d in readings if not (d.cocked and any(_touches(d.box, f.box) for f in flat))]
        return tuple(sorted(readings, key=lambda d: (d.centre[0], d.centre[1])))

    def _reading(
        self,
        p: Proposal,
        pr: NDArray[np.float32],
        shape: tuple[int, ...],
        calibration: Calibration | None,
        thrower: Thrower,
    ) -> DieReading:
        die_mass = max(1e-6, 1.0 - float(pr[CLASS_NOT_DIE]))
        p_cocked = float(pr[CLASS_COCKED]) / die_mass
        value_idx = int(np.argmax(pr[:6]))
        maybe = self.cocked_from * COCKED_MAYBE / COCKED_SURE  # the default's share, kept for any setting
        cocked = p_cocked >= self.cocked_from or (p_cocked >= maybe and geometric_cocked_cue(p, shape))
        if cocked:
            confidence = p_cocked
            value: int | None = value_idx + 1
        else:
            confidence = float(pr[value_idx])
            value = value_idx + 1 if confidence >= self.min_confidence else None
        zone = calibration.zone(p.centre, thrower) if calibration is not None else None
        return DieReading(value, p.box, cocked, min(1.0, confidence), zone, p_cocked)


def _same_die(a: Proposal, b: Proposal) -> bool:
    """Two proposals that see the same die: one's centre inside the other's box, or a large overlap (a piece
    of a die, or a crop straddling it and its neighbour)."""

    def inside(p: tuple[float, float], box: tuple[int, int, int, int]) -> bool:
        return box[0] <= p[0] <= box[2] and box[1] <= p[1] <= box[3]

    if inside(a.centre, b.box) or inside(b.centre, a.box):
        return True
    ix = min(a.box[2], b.box[2]) - max(a.box[0], b.box[0])
    iy = min(a.box[3], b.box[3]) - max(a.box[1], b.box[1])
    if ix <= 0 or iy <= 0:
        return False
    smaller = min((a.box[2] - a.box[0]) * (a.box[3] - a.box[1]), (b.box[2] - b.box[0]) * (b.box[3] - b.box[1]))
    return ix * iy > 0.15 * max(smaller, 1)


def _grown_box(box: Box, other: Box, kept: Proposal) -> Box:
    """``box`` widened to take in ``other``, unless that makes it more than GROW_LIMIT times the read
    proposal's side (then ``other`` reaches into a neighbour, and the box stays)."""
    union = (min(box[0], other[0]), min(box[1], other[1]), max(box[2], other[2]), max(box[3], other[3]))
    side = max(kept.box[2] - kept.box[0], kept.box[3] - kept.box[1])
    return union if max(union[2] - union[0], union[3] - union[1]) <= GROW_LIMIT * side else box


def _touches(a: Box, b: Box) -> bool:
    ix = min(a[2], b[2]) - max(a[0], b[0])
    iy = min(a[3], b[3]) - max(a[1], b[1])
    smaller = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return ix > 0 and iy > 0 and ix * iy > 0.05 * max(smaller, 1)


def check_frame(image: object) -> None:
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8 or image.ndim != 3 or image.shape[2] != 3:
        raise VisionError("a frame must be an H x W x 3 BGR uint8 image")
    if image.shape[0] < 16 or image.shape[1] < 16:
        raise VisionError(f"frame too small to read dice: {image.shape[1]}x{image.shape[0]}")
