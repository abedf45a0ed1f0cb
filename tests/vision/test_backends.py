"""onnxruntime and OpenCV's cv2.dnn run the same second stage (models/detector_head.onnx) and agree, and the
whole reader gives the same verdicts on both (the detector's own parity is in test_detector.py)."""

from __future__ import annotations

import numpy as np
import pytest

from vision import Calibration, DiceReader
from vision.crop_reader import OnnxReader
from vision.reader import DEFAULT_HEAD, second_stage_crops
from vision.rectify import board_view
from vision.train.heldout import heldout_throw


def crops() -> np.ndarray:
    """The second stage's crops of every die the detector finds in two rendered throws."""
    reader = DiceReader()
    out = []
    for i, kind in enumerate(("valid", "cocked")):
        throw = heldout_throw(i, kind)
        view = board_view(Calibration.from_corners(throw.corners))
        boxes = [view.box_to_frame(d.centre, d.side) for d in reader.detections(throw.image, view)]
        out.append(second_stage_crops(throw.image, boxes))
    return np.concatenate(out)


def test_both_backends_agree_on_every_crop() -> None:
    x = crops()
    assert len(x) >= 4
    ort = OnnxReader(DEFAULT_HEAD, backend="onnxruntime").probabilities(x)
    dnn = OnnxReader(DEFAULT_HEAD, backend="opencv").probabilities(x)
    assert ort.shape == dnn.shape == (len(x), 8)
    assert np.abs(ort - dnn).max() < 1e-3
    assert (ort.argmax(1) == dnn.argmax(1)).all()


def test_the_reader_gives_the_same_verdicts_on_both_backends() -> None:
    ort, dnn = DiceReader(backend="onnxruntime"), DiceReader(backend="opencv")
    for i, kind in enumerate(("valid", "cocked", "valid")):
        throw = heldout_throw(i, kind)
        cal = Calibration.from_corners(throw.corners)
        a, b = ort.read(throw.image, cal, throw.thrower), dnn.read(throw.image, cal, throw.thrower)
        assert (a.verdict, a.reason, a.values) == (b.verdict, b.reason, b.values)
        assert [d.box for d in a.dice] == [d.box for d in b.dice]


def test_without_onnxruntime_the_reader_runs_on_opencv(monkeypatch: pytest.MonkeyPatch) -> None:
    """A station installs no onnxruntime (it does not even start under some emulators): cv2.dnn is the default."""
    from vision import crop_reader as reader

    real = reader.importlib.util.find_spec
    monkeypatch.setattr(
        reader.importlib.util, "find_spec", lambda name, *a: None if name == "onnxruntime" else real(name, *a)
    )
    assert reader.default_backend() == "opencv"
    assert OnnxReader(DEFAULT_HEAD).backend == "opencv"
    monkeypatch.undo()
    assert reader.default_backend() == "onnxruntime"  # the test extra installs it
