"""onnxruntime and OpenCV's cv2.dnn run the same models/dice.onnx and agree."""

from __future__ import annotations

import numpy as np
import pytest

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


def test_without_onnxruntime_the_reader_runs_on_opencv(monkeypatch: pytest.MonkeyPatch) -> None:
    """A station installs no onnxruntime (it does not even start under some emulators): cv2.dnn is the default."""
    from vision import reader

    real = reader.importlib.util.find_spec
    monkeypatch.setattr(
        reader.importlib.util, "find_spec", lambda name, *a: None if name == "onnxruntime" else real(name, *a)
    )
    assert reader.default_backend() == "opencv"
    assert OnnxReader().backend == "opencv"
    monkeypatch.undo()
    assert reader.default_backend() == "onnxruntime"  # the test extra installs it
