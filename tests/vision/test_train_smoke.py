"""The training scripts still run end to end: a few steps on a handful of images, exported and read back.
PyTorch is a training-only extra, not a test dependency: without it these tests are skipped (and say so)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.crop_reader import CROP, OnnxReader


def need_training() -> None:
    """Skip the test, saying why, where the training extra (PyTorch, onnx) is not installed."""
    pytest.importorskip("torch", reason="PyTorch (the 'train' extra) is not installed; training not tested")
    pytest.importorskip("onnx", reason="onnx (the 'train' extra) is not installed; export not tested")


def test_the_one_command_chains_the_shipped_recipes() -> None:
    """``python -m vision.train`` runs the model card's recipes in order, each step reading what the one before
    it wrote, and never writes to models/ (no PyTorch needed: the commands only)."""
    from vision.train.__main__ import main, steps

    out, cache = Path("/o"), Path("/c")
    chain = steps(out, cache)
    assert [module for module, _ in chain] == ["detector_trainer"] * 3 + ["crop_head", "cocked_look"]
    render, phase_one, phase_two, head, look = (argv for _, argv in chain)
    assert render == ["--render-only", "--cache", "/c", "--parts", "4"]
    assert phase_one[phase_one.index("--out") + 1] == "/o/detector_phase_one.onnx"
    assert phase_two[phase_two.index("--init") + 1] == "/o/detector_phase_one.pt"
    for argv in (head, look):
        assert argv[argv.index("--detector") + 1] == phase_two[phase_two.index("--out") + 1] == "/o/detector.onnx"
    assert [argv[argv.index("--out") + 1] for argv in (head, look)] == ["/o/detector_head.onnx", "/o/cocked_look.onnx"]
    assert all(argv[-3:] == ["--smoke", "--threads", "1"] for _, argv in steps(out, cache, smoke=True))
    assert main(["--out", str(Path(__file__).resolve().parents[2] / "models")]) == 2


def test_the_recipe_makes_the_second_stage_as_wide_as_the_shipped_one() -> None:
    """The shipped second stage's last layer reads round(64 x width) features: the recipe's ``--width`` must be
    the one it was trained at, or ``python -m vision.train`` remakes another model (no PyTorch needed)."""
    from tests.vision.bench_profile import feature_width
    from vision.train.__main__ import steps

    head = dict(steps(Path("/o"), Path("/c")))["crop_head"]
    width = float(head[head.index("--width") + 1]) if "--width" in head else 1.0
    assert feature_width() == round(64 * width)


def test_the_one_command_smoke_run_makes_three_models_the_reader_reads(tmp_path: Path) -> None:
    """Every step of ``python -m vision.train --smoke`` for a few steps, each from the one before (half a minute)."""
    need_training()
    from vision.look import OnnxLook, look_input
    from vision.reader import CHANNELS, DetectorNet
    from vision.train.__main__ import main

    out = tmp_path / "models"
    assert main(["--smoke", "--out", str(out), "--cache", str(tmp_path / "cache")]) == 0
    assert (tmp_path / "cache" / "smoke").is_dir() and not list((tmp_path / "cache").glob("rendered_*.npz"))
    view = np.random.default_rng(5).integers(0, 256, (96, 160, 3)).astype(np.uint8)
    assert DetectorNet(out / "detector.onnx").run(view).shape == (CHANNELS, 12, 20)
    crops = np.random.default_rng(6).integers(0, 256, (2, CROP, CROP, 3)).astype(np.uint8)
    assert OnnxReader(out / "detector_head.onnx").probabilities(crops).shape == (2, 8)
    look = look_input(crops, np.zeros((2, 2), np.float32))
    assert OnnxLook(out / "cocked_look.onnx").probabilities(look).shape == (2, 2)


def test_detector_training_smoke_run_exports_a_graph_both_backends_read(tmp_path: Path) -> None:
    need_training()
    from vision.reader import CHANNELS, DetectorNet
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

    from vision.reader import DEFAULT_DETECTOR

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


@pytest.mark.parametrize(("width", "features", "pips"), [("1", 64, []), ("1.5", 96, ["--varied-pips"])])
def test_second_stage_training_smoke_run_exports_logits_and_features(
    tmp_path: Path, width: str, features: int, pips: list[str]
) -> None:
    from vision.adapt import FeatureReader
    from vision.crop_reader import OnnxModel

    out = smoke_trained(
        tmp_path, "crop_head", *real_and_cached(tmp_path), "--oblique", "3", "--painted", "3", *pips, "--width", width
    )
    crops = np.random.default_rng(6).integers(0, 256, (2, CROP, CROP, 3)).astype(np.uint8)
    for backend in ("onnxruntime", "opencv"):
        logits, f = FeatureReader(OnnxModel(out, backend)).logits_and_features(crops)  # type: ignore[arg-type]
        assert logits.shape == (2, 8) and f.shape == (2, features)


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
