"""The learned dice detector: one ONNX graph from a picture to every die in it, decoded here in numpy.

The graph is fully convolutional. For each cell of ``STRIDE`` x ``STRIDE`` input pixels it gives a die-centre
logit (the heat map), six value logits, a cocked logit, the die's side (log, relative to ``SIZE_REF``) and
where in the cell the centre lies. A die is a local maximum of the heat map (3 x 3 max-pool peak picking) above
``PEAK_MIN``; nothing else decides where dice are: no colour, blob or size threshold. The input is the view of
``vision.rectify`` (the board rectified to a fixed die size, or the photo), scaled to [-2, 2] outside the
graph so onnxruntime and cv2.dnn see identical numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol, Sequence

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.calibration import Calibration, Thrower
from vision.change import CHANGED_SHARE, FAINT_SHARE, Change, change, overlap, unread_parts
from vision.crop_reader import (
    CLASS_COCKED,
    CLASS_NOT_DIE,
    CROP,
    CROP_MARGIN,
    TURNS,
    Backend,
    CropClassifier,
    OnnxModel,
    OnnxReader,
    crop_square,
    every_turn,
)
from vision.errors import ModelError, VisionError
from vision.look import Look, OnnxLook, look_input
from vision.reader_protocol import check_frame
from vision.rectify import ALIGN, DIE_VIEW_PX, PHOTO_DIE_MIN, STRIDE, View, board_view, photo_view
from vision.slant import slant
from vision.verdict import Boxes, DieReading, ThrowObservation, judge

DEFAULT_DETECTOR = Path(__file__).resolve().parents[1] / "models" / "detector.onnx"
DEFAULT_HEAD = Path(__file__).resolve().parents[1] / "models" / "detector_head.onnx"
DEFAULT_COCKED_LOOK = Path(__file__).resolve().parents[1] / "models" / "cocked_look.onnx"
# the cocked look reads a crop 1.4 times wider than the second stage's (itself 1.4 times the die's box): a
# leaning die's whole outline and what it leans on are in view
COCKED_LOOK_MARGIN = 1.96
CHANNELS = 11  # heat 1, values 6, cocked 1, log side 1, centre offset 2
SIZE_REF = 24.0  # the side head predicts log(side / SIZE_REF)
PEAK_MIN = 0.35  # a heat-map peak from here is a die
SAME_DIE = 0.6  # two peaks closer than this many die sides are one die (the weaker goes)
PAIR_FROM = 1.6
"""A lone die read where the throw changed this many die areas or more round it (its blob in the change map)
may be two touching dice read as one peak: the blob is split in two (``split_pair``), and the second stage must
take both halves for dice. Between one die with a little shadow and two dice; a die with a long shadow passes it
too, and its shadow half is then no die to the second stage."""
PAIR_APART = 0.9  # the halves' centres this many die sides apart or more (touching dice: 1 to 1.4), else one die
COCKED_SURE = 0.5
# the second stage's "not a die" probability from which a found die is dropped: chosen on webcam_white_dice
# read by the pair that never trained on it (0.5 -> 0.3: invented 88 -> 39, missed 15 -> 16) and confirmed on
# tray_mixed_dice by its own left-out pair (invented 494 -> 344, right 886 -> 884)
HEAD_NOT_DIE = 0.3
# below this value confidence a die is unreadable (value None: never guessed; the tablet asks the players,
# vision.sureness); chosen on webcam_white_dice/Valid, which the shipped models never trained on (0.7 -> 0.5:
# right 248 -> 251 of 255 dice, wrong 1 -> 1, unreadable 5 -> 2; 0.4: 251, 2 wrong, 1 unreadable, so 0.5).
READABLE_FROM = 0.5


def normalise(view: NDArray[np.uint8]) -> NDArray[np.float32]:
    """H x W x 3 BGR uint8 -> 1 x 3 x H x W float32 in [-2, 2] (fixed, so a tile reads as the whole does)."""
    x = (view.astype(np.float32) - 128.0) / 64.0
    return np.ascontiguousarray(x.transpose(2, 0, 1)[None])


def sigmoid(x: NDArray[np.float32]) -> NDArray[np.float32]:
    return np.asarray(1.0 / (1.0 + np.exp(-np.clip(x, -30, 30))), np.float32)


def peaks(heat: NDArray[np.float32], threshold: float) -> NDArray[np.int64]:
    """(row, col) of every cell that is the maximum of its 3 x 3 neighbourhood and at least ``threshold``,
    strongest first (ties by position, so the same map always gives the same list)."""
    pooled = cv2.dilate(heat, np.ones((3, 3), np.uint8))  # the 3 x 3 maximum; beyond the map's edge nothing
    rows, cols = np.nonzero((heat >= pooled) & (heat >= threshold))
    order = np.lexsort((cols, rows, -heat[rows, cols]))
    return np.stack([rows[order], cols[order]], axis=1).astype(np.int64)


@dataclass(frozen=True)
class Detection:
    """One die in view pixels: centre, side, heat score, value probabilities (1..6) and cocked probability."""

    centre: tuple[float, float]
    side: float
    score: float
    values: NDArray[np.float32]
    cocked: float


def decode(out: NDArray[np.float32], threshold: float = PEAK_MIN) -> list[Detection]:
    """The graph's C x H x W output -> dice, strongest first, one per die."""
    if out.ndim != 3 or out.shape[0] != CHANNELS:
        raise ModelError(f"detector output must be {CHANNELS} x H x W, not {out.shape}")
    heat = sigmoid(out[0])
    found: list[Detection] = []
    for r, c in peaks(heat, threshold):
        cx = (c + 0.5 + float(out[9, r, c])) * STRIDE
        cy = (r + 0.5 + float(out[10, r, c])) * STRIDE
        side = SIZE_REF * float(np.exp(np.clip(out[8, r, c], -3, 3)))
        if any(np.hypot(cx - d.centre[0], cy - d.centre[1]) < SAME_DIE * max(side, d.side) for d in found):
            continue
        z = out[1:7, r, c] - out[1:7, r, c].max()
        probs = np.exp(z) / np.exp(z).sum()
        found.append(
            Detection(
                (cx, cy), side, float(heat[r, c]), np.asarray(probs, np.float32), float(sigmoid(out[7:8, r, c])[0])
            )
        )
    return found


class DenseNet(Protocol):
    def run(self, view: NDArray[np.uint8]) -> NDArray[np.float32]: ...


class DetectorNet:
    """Runs ``models/detector.onnx`` on a view through onnxruntime or cv2.dnn (same file, same output)."""

    def __init__(self, model: Path | str = DEFAULT_DETECTOR, backend: Backend | None = None, threads: int = 1):
        self._model = OnnxModel(model, backend, threads)

    def run(self, view: NDArray[np.uint8]) -> NDArray[np.float32]:
        """The raw C x H/STRIDE x W/STRIDE output for one view (sides multiples of ALIGN)."""
        return np.asarray(self._model.run(normalise(view))[0], np.float32)


class DiceReader:
    """The dice reader: ``dice`` finds and reads every die, ``read`` judges a throw, ``read_all`` reads a photo
    of any number of dice. ``reference`` (the frame before the throw, which ``watch`` and the app have) narrows
    the search to what the throw changed; without it the whole view is read. ``min_confidence``: below it a
    die's value is unreadable (None), never guessed; from ``cocked_from`` a die is cocked. ``threads``:
    onnxruntime threads (1 by default, the tablet's other core runs the app). ``net`` replaces the ONNX model
    (tests give fixed answers).

    Two stages: the detector says where the dice are; each die found is then cut from the full-resolution
    frame and read by the second stage (``head``, a crop classifier: value, cocked, not a die), which drops what
    is not a die and gives the value and the cocked call. ``head=None`` (and no ``classifier``) reads values
    from the detector's own heads. On a calibrated board, a ``cocked_look`` (a file, or a ``vision.look.Look``:
    flat or cocked) reads a wider crop of each die with the slant a flat die shows there (``vision.slant``) and
    has the cocked call instead; the value's confidence is then read among the six faces (``looked``)."""

    def __init__(
        self,
        model: Path | str = DEFAULT_DETECTOR,
        backend: Backend | None = None,
        threads: int = 1,
        min_confidence: float = READABLE_FROM,
        cocked_from: float = COCKED_SURE,
        peak_min: float = PEAK_MIN,
        net: DenseNet | None = None,
        head: Path | str | None = DEFAULT_HEAD,
        classifier: CropClassifier | None = None,
        turns: int = TURNS,
        cocked_look: Path | str | Look | None = DEFAULT_COCKED_LOOK,
    ):
        if not 0.0 < cocked_from <= 1.0:
            raise VisionError(f"cocked_from must lie in (0, 1], not {cocked_from}")
        if not 0.0 <= min_confidence <= 1.0:
            raise VisionError(f"min_confidence must lie in [0, 1], not {min_confidence}")
        self.min_confidence = min_confidence
        self.cocked_from = cocked_from
        self.net: DenseNet = net if net is not None else DetectorNet(model, backend, threads)
        self.peak_min = peak_min
        self.classifier: CropClassifier | None = classifier
        self.turns = turns
        if classifier is None and head is not None:
            self.classifier = OnnxReader(head, backend, threads)
        self.cocked_look: Look | None = (
            OnnxLook(cocked_look, backend, threads) if isinstance(cocked_look, (str, Path)) else cocked_look
        )

    def detections(self, image: NDArray[np.uint8], view: View, moved: Change | None = None) -> list[Detection]:
        """The dice in ``view``. With what the throw changed there (``moved``, from the frame before the throw:
        :func:`moved_in`), only the changed parts of the view are read, and a die counts only where its square
        changed (``vision.change``)."""
        return self._found(image, view, moved)[0]

    def _found(
        self, image: NDArray[np.uint8], view: View, moved: Change | None
    ) -> tuple[list[Detection], list[Detection]]:
        """:meth:`detections`, and the faint ones: found where the throw changed their square too little to count
        (``vision.change.FAINT_SHARE``: a die the colour of the board, or one that lay there before)."""
        if moved is None:
            return decode(self.net.run(view.warp(image)), self.peak_min), []
        found: list[Detection] = []
        faint: list[Detection] = []
        width, height = view.size
        for x0, y0, x1, y1 in (tuple(2 * v for v in r) for r in moved.regions):
            part = view.part(x0, y0, x1 - x0, y1 - y0)
            for d in decode(self.net.run(part.warp(image)), self.peak_min):
                centre = (d.centre[0] + x0, d.centre[1] + y0)
                if any(
                    np.hypot(centre[0] - f.centre[0], centre[1] - f.centre[1]) < SAME_DIE * f.side
                    for f in (*found, *faint)
                ):
                    continue
                share = moved.share((centre[0] / 2, centre[1] / 2), d.side / 2)
                half = d.side / 2
                inside = half <= centre[0] <= width - half and half <= centre[1] <= height - half
                if share >= CHANGED_SHARE:
                    found.append(replace(d, centre=centre))
                elif share >= FAINT_SHARE and inside:  # at the view's edge: beyond the board, as unread parts
                    faint.append(replace(d, centre=centre))
        return found, faint

    def photo(self, image: NDArray[np.uint8]) -> tuple[View, list[Detection]]:
        """A photo without calibration: at half scale when the dice found there are still big enough (the
        model's own size head says how big), else at full scale."""
        half = photo_view(image.shape, 0.5)
        if min(half.size) >= 4 * STRIDE:
            found = self.detections(image, half)
            if found and float(np.median([d.side for d in found])) >= PHOTO_DIE_MIN:
                return half, found
        full = photo_view(image.shape)
        return full, self.detections(image, full)

    def read(
        self,
        image: NDArray[np.uint8],
        calibration: Calibration | None = None,
        thrower: Thrower = "bottom",
        source: str | None = None,
        timestamp: float | None = None,
        reference: NDArray[np.uint8] | None = None,
    ) -> ThrowObservation:
        """The verdict on one throw. Without calibration the whole image is the throwing area. On a board with
        the frame before the throw, the reading also finds the changes of the board no die read explains
        (``unread``: a die missed leaves one)."""
        dice, unread, not_dice, changed = self._read(image, calibration, thrower, reference)
        verdict, reason = judge(dice, calibration is not None)
        return ThrowObservation(
            verdict, reason, dice, thrower, timestamp, source, unread=unread, changed_dice=changed, not_dice=not_dice
        )

    def read_all(self, image: NDArray[np.uint8], source: str | None = None) -> ThrowObservation:
        """Every die in the image, any number, and no verdict (photos of many dice)."""
        dice, _, not_dice, _ = self._read(image, None, "bottom", None)
        return ThrowObservation(None, None, dice, "bottom", None, source, not_dice=not_dice)

    def dice(
        self,
        image: NDArray[np.uint8],
        calibration: Calibration | None = None,
        thrower: Thrower = "bottom",
        reference: NDArray[np.uint8] | None = None,
    ) -> tuple[DieReading, ...]:
        """Every die found in the image, left to right."""
        return self._read(image, calibration, thrower, reference)[0]

    def _read(
        self,
        image: NDArray[np.uint8],
        calibration: Calibration | None,
        thrower: Thrower,
        reference: NDArray[np.uint8] | None,
    ) -> tuple[tuple[DieReading, ...], Boxes, Boxes, float]:
        """Every die found, left to right; the changes of the board no die read explains, as frame boxes (none
        without a board and the frame before the throw: ``vision.change.unread_parts``); the boxes of what
        was found and the second stage called not a die; and how much of the board changed, in die areas (0
        without the frame before)."""
        check_frame(image)
        if reference is not None and reference.shape != image.shape:
            reference = None  # another camera mode since: the frame before tells nothing
        moved: Change | None = None
        faint: list[Detection] = []
        if calibration is not None:
            view = board_view(calibration)
            moved = moved_in(image, view, reference) if reference is not None else None
            found, faint = self._found(image, view, moved)
        else:
            view, found = self.photo(image)
        h, w = image.shape[:2]
        frame_boxes = [view.box_to_frame(d.centre, d.side) for d in found]
        heads: list[tuple[NDArray[np.float32] | None, float]] = [(d.values, d.cocked) for d in found]
        if self.classifier is not None and found:
            heads = self._second_stage(self.classifier, image, frame_boxes)
        if self.classifier is not None and moved is not None and sum(v is not None for v, _ in heads) == 1:
            found, frame_boxes, heads = self._split(image, view, moved, found, frame_boxes, heads)
        kept = [i for i, (values, _) in enumerate(heads) if values is not None]  # the others: not a die
        if self.classifier is not None and self.cocked_look is not None and calibration is not None and kept:
            boxes = [frame_boxes[i] for i in kept]
            centres = np.array([[(x0 + x1) / 2, (y0 + y1) / 2] for x0, y0, x1, y1 in boxes])
            wide = second_stage_crops(image, boxes, COCKED_LOOK_MARGIN)
            inputs = look_input(wide, slant(calibration, image.shape, centres))
            for i, p in zip(kept, every_turn(self.cocked_look, inputs, self.turns)[:, 1]):
                heads[i] = looked(heads[i][0], float(p))
        readings = []
        for i in kept:
            (values, p_cocked), (x0, y0, x1, y1), d = heads[i], frame_boxes[i], found[i]
            assert values is not None
            centre = view.to_frame(np.array([d.centre]))[0]
            zone = calibration.zone((float(centre[0]), float(centre[1])), thrower) if calibration else None
            best = int(np.argmax(values))
            cocked = p_cocked >= self.cocked_from
            confidence = p_cocked if cocked else float(values[best])
            value = best + 1 if cocked or confidence >= self.min_confidence else None
            box = (min(max(x0, 0), w - 1), min(max(y0, 0), h - 1), min(max(x1, 1), w), min(max(y1, 1), h))
            crop_box = (x0, y0, x1, y1)
            readings.append(DieReading(value, box, cocked, min(1.0, confidence), zone, p_cocked, crop_box))
        dice = tuple(sorted(readings, key=lambda r: (r.centre[0], r.centre[1])))
        not_dice = tuple(box for box, (values, _) in zip(frame_boxes, heads) if values is None)
        if moved is None:
            return dice, (), not_dice, 0.0
        assert calibration is not None  # the change map is made on a board only
        changed = changed_dice(moved, view, calibration)
        unread = unread_in(moved, view, [found[i] for i in kept])
        faint_dice = self._faint_dice(image, view, faint)
        apart = [u for u in unread if not any(overlap(u, f) for f in faint_dice)]  # a faint die shows that part
        return dice, (*apart, *faint_dice), not_dice, changed

    def _split(
        self,
        image: NDArray[np.uint8],
        view: View,
        moved: Change,
        found: list[Detection],
        frame_boxes: list[tuple[int, int, int, int]],
        heads: list[tuple[NDArray[np.float32] | None, float]],
    ) -> tuple[list[Detection], list[tuple[int, int, int, int]], list[tuple[NDArray[np.float32] | None, float]]]:
        """The one die read, as two when its blob of change holds two touching dice (:func:`split_pair`) and the
        second stage takes both halves for dice; otherwise unchanged."""
        assert self.classifier is not None
        i = next(k for k, (values, _) in enumerate(heads) if values is not None)
        pair = split_pair(moved, found[i])
        if pair is None:
            return found, frame_boxes, heads
        boxes = [view.box_to_frame(d.centre, d.side) for d in pair]
        read = self._second_stage(self.classifier, image, boxes)
        if any(values is None for values, _ in read):
            return found, frame_boxes, heads
        rest = [k for k in range(len(found)) if k != i]
        return (
            [*(found[k] for k in rest), *pair],
            [*(frame_boxes[k] for k in rest), *boxes],
            [*(heads[k] for k in rest), *read],
        )

    def _faint_dice(self, image: NDArray[np.uint8], view: View, faint: Sequence[Detection]) -> Boxes:
        """The frame boxes of the faint detections the second stage takes for dice (without one: all)."""
        boxes = [view.box_to_frame(d.centre, d.side) for d in faint]
        if self.classifier is None or not boxes:
            return tuple(boxes)
        heads = self._second_stage(self.classifier, image, boxes)
        return tuple(box for box, (values, _) in zip(boxes, heads) if values is not None)

    def _second_stage(
        self, classifier: CropClassifier, image: NDArray[np.uint8], boxes: Sequence[tuple[int, int, int, int]]
    ) -> list[tuple[NDArray[np.float32] | None, float]]:
        """The second stage's reading of the die at each frame box, in every turn (:func:`second_stage`)."""
        return [second_stage(pr) for pr in every_turn(classifier, second_stage_crops(image, boxes), self.turns)]


def moved_in(image: NDArray[np.uint8], view: View, reference: NDArray[np.uint8]) -> Change:
    """Where the throw changed ``view``, found at half the view's scale (cheap; the dice are then read at full
    scale), through the maps kept for the view (``View.remapped``)."""
    half = view.scaled(0.5)
    return change(half.remapped(image), half.remapped(reference), DIE_VIEW_PX / 2, ALIGN // 2)


def split_pair(moved: Change, die: Detection) -> tuple[Detection, Detection] | None:
    """Two touching dice the detector read as one peak (``die``, view pixels): the changed pixels of the blob
    round it, when they cover ``PAIR_FROM`` die areas or more, split in two by k-means, each half a die of the
    same side; None when the blob is one die's."""
    side = die.side / 2  # the change map is at half the view's scale
    cx, cy = die.centre[0] / 2, die.centre[1] / 2
    h, w = moved.mask.shape
    reach = 1.5 * side
    x0, y0 = max(0, int(cx - reach)), max(0, int(cy - reach))
    x1, y1 = min(w, int(np.ceil(cx + reach))), min(h, int(np.ceil(cy + reach)))
    window = moved.mask[y0:y1, x0:x1]
    count, labels = cv2.connectedComponents(window, connectivity=8)
    if count < 2:
        return None
    near = labels[min(max(int(cy) - y0, 0), labels.shape[0] - 1), min(max(int(cx) - x0, 0), labels.shape[1] - 1)]
    if near == 0:  # the centre fell on a pip or a gap: the largest blob in the window
        near = 1 + int(np.argmax(np.bincount(labels.ravel())[1:]))
    ys, xs = np.nonzero(labels == near)
    die_area = (DIE_VIEW_PX / 2) ** 2
    if len(xs) < PAIR_FROM * die_area:
        return None
    points = np.column_stack([xs + x0, ys + y0]).astype(np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.1)
    cv2.setRNGSeed(0)  # the same frame always splits the same way
    _, _, centres = cv2.kmeans(points, 2, np.zeros(len(points), np.int32), criteria, 3, cv2.KMEANS_PP_CENTERS)
    (ax, ay), (bx, by) = centres
    if np.hypot(ax - bx, ay - by) < PAIR_APART * DIE_VIEW_PX / 2:
        return None
    return (replace(die, centre=(2.0 * ax, 2.0 * ay)), replace(die, centre=(2.0 * bx, 2.0 * by)))


def changed_dice(moved: Change, view: View, calibration: Calibration) -> float:
    """How much of the board itself :func:`moved_in`'s change map shows changed, in die areas: a die thrown off
    the board changes the view round it, not the board."""
    half = view.scaled(0.5)
    outline = np.round(half.to_view_points(np.array(calibration.corners, np.float64))).astype(np.int32)
    board = np.zeros_like(moved.mask)
    cv2.fillConvexPoly(board, outline, 1)
    changed = cv2.countNonZero(cv2.bitwise_and(moved.mask, board))
    return float(changed) / (DIE_VIEW_PX / 2) ** 2  # the map is at half the view's scale


def unread_in(moved: Change, view: View, read: Sequence[Detection]) -> Boxes:
    """The parts of :func:`moved_in`'s change map that none of the dice ``read`` (found in ``view``) explains, as
    frame boxes (``vision.change.unread_parts``, on the map's half scale)."""
    half = view.scaled(0.5)
    explained = [(d.centre[0] / 2, d.centre[1] / 2, d.side / 2) for d in read]
    return tuple(half.rect_to_frame(part) for part in unread_parts(moved, explained, DIE_VIEW_PX / 2))


def second_stage_crops(
    image: NDArray[np.uint8], boxes: Sequence[tuple[int, int, int, int]], margin: float = CROP_MARGIN
) -> NDArray[np.uint8]:
    """What the second stage reads for the dice found at ``boxes`` (pixels of ``image``, not clipped to it: the
    part of a die's square outside the picture is filled from its edge). Reading and learning both cut their
    crops here, so a die is learned from the very crop it is read from. The cocked look reads the same dice
    wider (``COCKED_LOOK_MARGIN``)."""
    if not boxes:
        return np.zeros((0, CROP, CROP, 3), np.uint8)
    return np.stack([crop_square(image, box, CROP, margin) for box in boxes])


def looked(values: NDArray[np.float32] | None, p_cocked: float) -> tuple[NDArray[np.float32] | None, float]:
    """A die's second-stage reading with the cocked look's call: the look's cocked probability, and the value
    probabilities among the six faces alone (the second stage's cocked share takes no confidence from a flat
    die: whether it is flat is the look's to say)."""
    assert values is not None, "the look reads only the dice the second stage keeps"
    return np.asarray(values / max(float(values.sum()), 1e-6), np.float32), p_cocked


def second_stage(pr: NDArray[np.float32]) -> tuple[NDArray[np.float32] | None, float]:
    """The crop classifier's probabilities -> (value probabilities 1..6, cocked probability), both given that
    this is a die; (None, 0) when it is not one."""
    if pr[CLASS_NOT_DIE] >= HEAD_NOT_DIE:
        return None, 0.0
    die = max(1e-6, 1.0 - float(pr[CLASS_NOT_DIE]))
    values = np.asarray(pr[:6] / die, np.float32)
    return values, float(pr[CLASS_COCKED]) / die
