"""The training script still runs end to end: a few steps on a handful of images, exported and read back.
PyTorch is a training-only extra, not a test dependency: without it this test is skipped (and says so)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.reader import CROP, OnnxReader


def test_training_smoke_run_exports_a_readable_model(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="PyTorch (the 'train' extra) is not installed; training not tested")
    pytest.importorskip("onnx", reason="onnx (the 'train' extra) is not installed; export not tested")
    from vision.train.__main__ import main

    out = tmp_path / "smoke.onnx"
    assert main(["--smoke", "--out", str(out), "--threads", "1"]) == 0
    probs = OnnxReader(out).probabilities(np.zeros((2, CROP, CROP, 3), np.uint8))
    assert probs.shape == (2, 8) and np.allclose(probs.sum(axis=1), 1, atol=1e-5)
