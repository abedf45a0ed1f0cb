"""The ONNX crop classifiers: a die's crop in, class probabilities out, through onnxruntime or OpenCV's cv2.dnn.

Both backends run the same graphs (the detector's second stage ``models/detector_head.onnx`` and its cocked
look): onnxruntime where it installs, ``cv2.dnn`` on tablets where it does not. Crops are cut and normalised
here, outside the graph, so both see identical input: the second stage reads ``face_contrast``, the cocked
look ``preprocess`` and the slant.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any, Callable, Literal, Protocol, runtime_checkable

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.errors import ModelError

CROP = 48  # crop side, pixels
CLASSES = ("1", "2", "3", "4", "5", "6", "cocked", "not_die")
CLASS_COCKED = 6
CLASS_NOT_DIE = 7
FIRST_OUTPUTS = ("logits", "dice")  # the main output of the crop classifiers and of the detector
# a crop is this many times a die's box: the die with a little of what lies round it
CROP_MARGIN = 1.4


def crop_square(
    image: NDArray[np.uint8], box: tuple[int, int, int, int], size: int, margin: float = CROP_MARGIN
) -> NDArray[np.uint8]:
    """A square crop around a die's box, ``margin`` times its longer side, resized to ``size``; edges
    replicated."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    half = max(x1 - x0, y1 - y0) * margin / 2
    src = np.array([[cx - half, cy - half], [cx + half, cy - half], [cx - half, cy + half]], np.float32)
    dst = np.array([[0, 0], [size, 0], [0, size]], np.float32)
    m = cv2.getAffineTransform(src, dst)
    interp = cv2.INTER_AREA if 2 * half > size else cv2.INTER_LINEAR
    return np.asarray(
        cv2.warpAffine(image, m, (size, size), flags=interp, borderMode=cv2.BORDER_REPLICATE), dtype=np.uint8
    )


Backend = Literal["onnxruntime", "opencv"]


def default_backend() -> Backend:
    """onnxruntime where it is installed (the ``onnxruntime`` extra), else OpenCV's cv2.dnn, which gives the same
    answers (tests/vision/test_backends.py) and is always there: a station needs no onnxruntime."""
    return "onnxruntime" if importlib.util.find_spec("onnxruntime") is not None else "opencv"


def preprocess(crops: NDArray[np.uint8]) -> NDArray[np.float32]:
    """N x CROP x CROP x 3 BGR uint8 -> N x 3 x CROP x CROP float32, each crop brought to zero mean and unit
    spread (lighting and exposure vary far more than dice do)."""
    x = crops.astype(np.float32)
    mean = x.mean(axis=(1, 2, 3), keepdims=True)
    std = x.std(axis=(1, 2, 3), keepdims=True)
    x = (x - mean) / (std + 8.0)
    return np.ascontiguousarray(x.transpose(0, 3, 1, 2))


FACE = slice(CROP // 4, CROP - CROP // 4)  # the middle of a crop: the die's upper face, little of what is round it


def face_contrast(crops: NDArray[np.uint8]) -> NDArray[np.float32]:
    """The second stage's input: N x CROP x CROP x 3 BGR uint8 -> N x 3 x CROP x CROP float32, each crop's
    colours in the principal axes of the colours of its middle (the die's face), the first axis turned so that
    its rarer side (the pips) is dark, all three scaled by that axis's spread.

    Why: a die's face is two colours, body and pips, and the axis between them carries most of its middle's
    colour spread. In these axes a red die with yellow pips, a blue marbled one with red pips and a white one
    with black pips all come out as a light face with dark pips, so the model reads the pips of dice whose
    colours it never saw (leave-one-set-out: the tray set's coloured dice, wrong values 112 -> 44 of 1,420). The
    transform is invertible up to a shift and scale a crop, so nothing the colours told the model is lost."""
    x = crops.astype(np.float32)
    n, h, w, _ = x.shape
    if n == 0:
        return np.zeros((0, 3, h, w), np.float32)
    face = x[:, FACE, FACE].reshape(n, -1, 3)
    mean = face.mean(axis=1, keepdims=True)
    centred = face - mean
    cov = centred.transpose(0, 2, 1) @ centred / centred.shape[1] + np.eye(3, dtype=np.float32)
    spread, axes = np.linalg.eigh(cov)  # ascending
    spread, axes = spread[:, ::-1], axes[:, :, ::-1]
    along = centred @ axes
    skew = (along * along * along).mean(axis=1)  # each axis's sign fixed, so the model sees one of the two
    axes = axes * np.where(skew > 0, -1.0, 1.0).astype(np.float32)[:, None, :]  # the rare side (pips) dark
    out = (x.reshape(n, -1, 3) - mean) @ axes / (np.sqrt(np.maximum(spread[:, :1], 1.0))[:, None, :] + 8.0 / 3)
    return np.ascontiguousarray(out.reshape(n, h, w, 3).transpose(0, 3, 1, 2), dtype=np.float32)


def softmax(logits: NDArray[np.float32]) -> NDArray[np.float32]:
    z = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(z)
    return np.asarray(e / e.sum(axis=1, keepdims=True), dtype=np.float32)


class CropClassifier(Protocol):
    def probabilities(self, crops: NDArray[np.uint8]) -> NDArray[np.float32]: ...


TURNS = 8  # the second stage reads each crop in every quarter turn and mirror (a die's face reads the same)


class TurnableClassifier(Protocol):
    """A crop classifier of any input planes, channels last (the second stage's crops, the cocked look's)."""

    def probabilities(self, crops: Any) -> NDArray[np.float32]: ...


@runtime_checkable
class ReadsPlanes(Protocol):
    """A crop classifier that makes its graph's input from crops (``planes``: N x planes x H x W) and reads
    such input (``probabilities_of``). ``every_turn`` then turns the input rather than the crops: the input is
    made once a crop, not once a turn (the second stage's ``face_contrast`` is the same turned or not)."""

    def planes(self, crops: NDArray[np.uint8]) -> NDArray[np.float32]: ...

    def probabilities_of(self, planes: NDArray[np.float32]) -> NDArray[np.float32]: ...


def every_turn(classifier: TurnableClassifier, crops: NDArray[Any], turns: int = TURNS) -> NDArray[np.float32]:
    """Class probabilities of crops (N x H x W x planes) read in ``turns`` of the 8 quarter turns and mirrors
    (1: as they are), their log-probabilities averaged: a die's value does not turn with it, a pip the model
    half-sees in one orientation is seen whole in another, and an uncertain reading stays uncertain in most of
    them."""
    if not 1 <= turns <= 8:
        raise ValueError("turns: 1 to 8")
    if turns == 1 or len(crops) == 0:
        return classifier.probabilities(crops)
    read: Callable[[Any], NDArray[np.float32]]
    if isinstance(classifier, ReadsPlanes):  # N x planes x H x W: rows and columns are the last two axes
        x, (rows, cols), read = classifier.planes(crops), (2, 3), classifier.probabilities_of
    else:  # N x H x W x planes
        x, (rows, cols), read = crops, (1, 2), classifier.probabilities
    pr = read(turned(x, turns, rows, cols))
    logp = np.log(np.maximum(pr, 1e-7)).reshape(turns, len(crops), -1).mean(axis=0)
    return softmax(np.asarray(logp, np.float32))


def turned(x: NDArray[Any], turns: int, rows: int, cols: int) -> NDArray[Any]:
    """The first ``turns`` of ``x``'s quarter turns (0 to 3) and then their mirrors, axes ``rows`` and ``cols``
    square, stacked along the first axis into one contiguous array: what ``np.rot90`` and ``np.flip`` give,
    written through plain slices (their axis checks cost more than the copy for a few crops)."""
    if x.shape[rows] != x.shape[cols]:
        raise ValueError(f"only a square turns into itself, not {x.shape[rows]} x {x.shape[cols]}")

    def flip(a: NDArray[Any], axis: int) -> NDArray[Any]:
        index = [slice(None)] * a.ndim
        index[axis] = slice(None, None, -1)
        return a[tuple(index)]

    swapped = x.swapaxes(rows, cols)
    quarter = [x, flip(x, cols).swapaxes(rows, cols), flip(flip(x, rows), cols), flip(swapped, cols)]
    seen = (quarter + [flip(q, cols) for q in quarter])[:turns]
    n = len(x)
    out = np.empty((turns * n, *x.shape[1:]), x.dtype)
    for k, view in enumerate(seen):
        out[k * n : (k + 1) * n] = view
    return out


class OnnxModel:
    """One ONNX file run by onnxruntime or cv2.dnn: the crop classifier and the detector load the same way.
    ``threads`` is 1 by default: the tablet's other core runs the app."""

    def __init__(self, model: Path | str, backend: Backend | None = None, threads: int = 1):
        self.model = Path(model)
        backend = backend or default_backend()
        self.backend: Backend = backend
        if not self.model.is_file():
            raise ModelError(f"dice model not found: {self.model}")
        if backend == "onnxruntime":
            try:
                import onnxruntime as ort
            except ImportError as exc:  # pragma: no cover - depends on the machine
                raise ModelError("onnxruntime is not installed; use backend='opencv'") from exc
            opts = ort.SessionOptions()
            opts.intra_op_num_threads = threads
            opts.inter_op_num_threads = 1
            opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
            # every graph rewrite, the CPU's blocked layouts too: a fifth to a half off each model's time
            opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
            try:
                self._session = ort.InferenceSession(str(self.model), opts, providers=["CPUExecutionProvider"])
            except Exception as exc:
                raise ModelError(f"cannot load {self.model}: {exc}") from exc
            self._input = self._session.get_inputs()[0].name
        elif backend == "opencv":
            try:
                self._net = cv2.dnn.readNetFromONNX(str(self.model))
            except cv2.error as exc:
                raise ModelError(f"cv2.dnn cannot load {self.model}: {exc}") from exc
            self._net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
            self._net.setPreferableTarget(cv2.dnn.DNN_TARGET_CPU)
            # cv2.dnn lists a graph's outputs in its own order: the first is asked for by name
            names = list(self._net.getUnconnectedOutLayersNames())
            self._outputs = sorted(names, key=lambda n: n not in FIRST_OUTPUTS)
        else:
            raise ModelError(f"unknown backend {backend!r} (onnxruntime or opencv)")

    def run(self, x: NDArray[np.float32]) -> NDArray[np.float32]:
        """The graph's first output for input ``x``."""
        return self.run_all(x)[0]

    def run_all(self, x: NDArray[np.float32]) -> list[NDArray[np.float32]]:
        """Every output of the graph for input ``x``, in the graph's order."""
        try:
            if self.backend == "onnxruntime":
                outs = list(self._session.run(None, {self._input: x}))
            else:
                self._net.setInput(x)
                outs = list(self._net.forward(self._outputs))
        except Exception as exc:  # onnxruntime and cv2.dnn raise their own kinds
            raise ModelError(f"{self.model} cannot read an input of shape {x.shape}: {exc}") from exc
        return [np.asarray(out, dtype=np.float32) for out in outs]


class OnnxReader:
    """Reads crops with an ONNX crop classifier (``OnnxModel``) of the eight classes (the detector's second
    stage; the cocked look reads four planes: ``vision.look``)."""

    def __init__(self, model: Path | str, backend: Backend | None = None, threads: int = 1):
        self._model = OnnxModel(model, backend, threads)
        self.model = self._model.model
        self.backend = self._model.backend

    def planes(self, crops: NDArray[np.uint8]) -> NDArray[np.float32]:
        return face_contrast(crops)

    def logits_of(self, planes: NDArray[np.float32]) -> NDArray[np.float32]:
        classes = len(CLASSES)
        if len(planes) == 0:
            return np.zeros((0, classes), np.float32)
        out = self._model.run(planes)
        if out.size != len(planes) * classes:
            raise ModelError(f"{self.model} gives {out.size // max(1, len(planes))} outputs a crop, not {classes}")
        return out.reshape(len(planes), classes)

    def probabilities(self, crops: NDArray[np.uint8]) -> NDArray[np.float32]:
        return self.probabilities_of(self.planes(crops))

    def probabilities_of(self, planes: NDArray[np.float32]) -> NDArray[np.float32]:
        return softmax(self.logits_of(planes))
