"""The training script still runs end to end: a few steps on a handful of images, exported and read back.
PyTorch is a training-only extra, not a test dependency: without it this test is skipped (and says so)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.reader import CROP, OnnxReader


def need_training() -> None:
    """Skip the test, saying why, where the training extra (PyTorch, onnx) is not installed."""
    pytest.importorskip("torch", reason="PyTorch (the 'train' extra) is not installed; training not tested")
    pytest.importorskip("onnx", reason="onnx (the 'train' extra) is not installed; export not tested")


def test_training_smoke_run_exports_a_readable_model(tmp_path: Path) -> None:
    need_training()
    from vision.train.__main__ import main

    out = tmp_path / "smoke.onnx"
    assert main(["--smoke", "--out", str(out), "--threads", "1"]) == 0
    probs = OnnxReader(out).probabilities(np.zeros((2, CROP, CROP, 3), np.uint8))
    assert probs.shape == (2, 8) and np.allclose(probs.sum(axis=1), 1, atol=1e-5)


def test_finetune_starts_from_the_shipped_weights_exactly() -> None:
    """The fine-tune loads the exported model into PyTorch: before any step it must read as the ONNX does."""
    torch = pytest.importorskip("torch", reason="PyTorch (the 'train' extra) is not installed; training not tested")
    pytest.importorskip("onnx", reason="onnx (the 'train' extra) is not installed; export not tested")
    from vision.reader import DEFAULT_MODEL, preprocess
    from vision.train.finetune import load_onnx

    crops = np.random.default_rng(3).integers(0, 256, (8, CROP, CROP, 3)).astype(np.uint8)
    model = load_onnx(DEFAULT_MODEL).eval()
    with torch.no_grad():
        ours = model(torch.from_numpy(preprocess(crops))).numpy()
    assert np.abs(ours - OnnxReader(DEFAULT_MODEL).logits(crops)).max() < 1e-4


def test_finetune_smoke_run_mines_hard_examples_and_exports(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    need_training()
    from vision.reader import DEFAULT_MODEL
    from vision.train.__main__ import main

    out = tmp_path / "ft.onnx"
    assert (
        main(["--finetune", str(DEFAULT_MODEL), "--hard-negatives", "--smoke", "--out", str(out), "--threads", "1"])
        == 0
    )
    report = capsys.readouterr().out
    assert "hard examples" in report and "selection, fine-tuned" in report
    probs = OnnxReader(out).probabilities(np.zeros((2, CROP, CROP, 3), np.uint8))
    assert probs.shape == (2, 8) and np.allclose(probs.sum(axis=1), 1, atol=1e-5)


def test_finetune_refuses_to_overwrite_its_starting_model(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="PyTorch (the 'train' extra) is not installed; training not tested")
    from vision.train.__main__ import main

    start = tmp_path / "m.onnx"
    start.write_bytes(b"x")
    assert main(["--finetune", str(start), "--hard-negatives", "--out", str(start)]) == 2
    assert start.read_bytes() == b"x"


def test_finetune_on_blender_scenes_continues_from_the_model_and_exports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    need_training()
    from tests.vision.test_blender_set import training_scene
    from vision.reader import DEFAULT_MODEL
    from vision.train.__main__ import main

    training_scene(tmp_path / "scenes")
    out = tmp_path / "ft.onnx"
    assert (
        main(
            [
                "--finetune",
                str(DEFAULT_MODEL),
                "--blender",
                str(tmp_path / "scenes"),
                "--smoke",
                "--out",
                str(out),
                "--threads",
                "1",
            ]
        )
        == 0
    )
    assert "Blender (x1)" in capsys.readouterr().out
    probs = OnnxReader(out).probabilities(np.zeros((2, CROP, CROP, 3), np.uint8))
    assert probs.shape == (2, 8) and np.allclose(probs.sum(axis=1), 1, atol=1e-5)
    assert main(["--blender", str(tmp_path / "nowhere"), "--smoke", "--out", str(out)]) == 2


def test_detector_training_smoke_run_exports_a_graph_both_backends_read(tmp_path: Path) -> None:
    need_training()
    from vision.detector import CHANNELS, DetectorNet
    from vision.train.detector_trainer import main as train_detector

    out = tmp_path / "detector.onnx"
    assert train_detector(["--smoke", "--out", str(out), "--threads", "1"]) == 0
    view = np.random.default_rng(5).integers(0, 256, (96, 160, 3)).astype(np.uint8)
    a = DetectorNet(out, "onnxruntime").run(view)
    b = DetectorNet(out, "opencv").run(view)
    assert a.shape == (CHANNELS, 12, 20) and np.abs(a - b).max() < 1e-3


def smoke_trained(tmp_path: Path, trainer: str, *args: str) -> Path:
    """The model a crop trainer (``vision.train.<trainer>``) writes in its smoke run from the shipped detector,
    given its other arguments."""
    need_training()
    import importlib

    from vision.detector import DEFAULT_DETECTOR

    out = tmp_path / f"{trainer}.onnx"
    argv = ["--detector", str(DEFAULT_DETECTOR), *args, "--smoke", "--out", str(out)]
    assert importlib.import_module(f"vision.train.{trainer}").main(argv) == 0
    return out


def real_and_cached(tmp_path: Path) -> list[str]:
    """The second stage's data arguments: one real set left out, and a render cache of one tiny file (a few
    desk scenes, one board, one cube scene)."""
    need_training()  # before rendering: without PyTorch the test is skipped
    from vision.train.detector_data import rendered_set

    cache = tmp_path / "cache"
    cache.mkdir()
    x, t = rendered_set(3, 2, 1, 1)
    np.savez(cache / "rendered_3.npz", x=x, t=t)
    return ["--leave-out", "tray_mixed_dice", "--cache", str(cache)]


def test_second_stage_training_smoke_run_exports_logits_and_features(tmp_path: Path) -> None:
    from vision.adapt import FeatureReader
    from vision.reader import OnnxModel

    out = smoke_trained(tmp_path, "crop_head", *real_and_cached(tmp_path))
    crops = np.random.default_rng(6).integers(0, 256, (2, CROP, CROP, 3)).astype(np.uint8)
    for backend in ("onnxruntime", "opencv"):
        logits, features = FeatureReader(OnnxModel(out, backend)).logits_and_features(crops)  # type: ignore[arg-type]
        assert logits.shape == (2, 8) and features.shape == (2, 64)


def test_cocked_look_training_smoke_run_exports_two_classes_of_four_planes_both_backends_read(
    tmp_path: Path,
) -> None:
    from vision.look import OnnxLook, look_input

    out = smoke_trained(tmp_path, "cocked_look")
    rng = np.random.default_rng(7)
    crops = rng.integers(0, 256, (3, CROP, CROP, 3)).astype(np.uint8)
    x = look_input(crops, rng.uniform(-0.4, 0.4, (3, 2)).astype(np.float32))
    a = OnnxLook(out, "onnxruntime").probabilities(x)
    b = OnnxLook(out, "opencv").probabilities(x)
    assert a.shape == (3, 2) and np.allclose(a.sum(axis=1), 1, atol=1e-5) and np.abs(a - b).max() < 1e-4
