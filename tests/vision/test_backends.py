"""onnxruntime and OpenCV's cv2.dnn run the same models/dice.onnx and agree."""

from __future__ import annotations

import numpy as np

from vision.detect import crop_square, propose
from vision.reader import CROP, OnnxReader
from vision.train.heldout import heldout_throw


def crops() -> np.ndarray:
    out = []
    for i, kind in enumerate(("valid", "cocked")):
        image = heldout_throw(i, kind).image
        out += [crop_square(image, p.box, CROP) for p in propose(image)]
    return np.stack(out)


def test_both_backends_agree_on_every_crop() -> None:
    x = crops()
    assert len(x) >= 5
    ort = OnnxReader(backend="onnxruntime").probabilities(x)
    dnn = OnnxReader(backend="opencv").probabilities(x)
    assert ort.shape == dnn.shape == (len(x), 8)
    assert np.abs(ort - dnn).max() < 1e-3
    assert (ort.argmax(1) == dnn.argmax(1)).all()
