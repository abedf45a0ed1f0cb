"""The Blender held-out set's plain-Python side: naming and seeds, reading a scene's truth back, skipping
scenes already rendered, and a clear message when Blender is missing. No test renders (CI has no Blender): a
stand-in executable plays Blender where the command line is checked."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.calibration import Calibration
from vision.errors import VisionError
from vision.train.blender_set import (
    DEFAULT_SEED,
    DESK_SEED,
    PRECISION_SEED,
    TRAIN_KINDS,
    TRAIN_SEED,
    BlenderMissingError,
    find_blender,
    load_scene,
    load_set,
    load_training_patches,
    main,
    render,
    scene_names,
)
from vision.train.heldout import HELDOUT_SEED, KINDS


def truth(kind: str = "valid", thrower: str = "top") -> dict[str, object]:
    return {
        "kind": kind,
        "thrower": thrower,
        "values": [3, 5],
        "corners": [[300.5, 60.0], [1000.0, 70.0], [1020.0, 660.0], [280.0, 650.0]],
        "dice": [
            {
                "value": 3,
                "box": [500, 300, 530, 331],
                "top_centre": [515.0, 314.0],
                "cocked": False,
                "tilt_deg": 0.0,
                "zone": "right_half",
            },
            {
                "value": 5,
                "box": [400, 200, 428, 229],
                "top_centre": [414.0, 213.5],
                "cocked": True,
                "tilt_deg": 27.5,
                "zone": "right_half",
            },
        ],
        "seed": 7,
        "support": "checker",
    }


def write_scene(folder: Path, name: str, meta: dict[str, object], frames: bool = True) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    if frames:
        for suffix in (".png", "_empty.png"):
            cv2.imwrite(str(folder / f"{name}{suffix}"), np.zeros((8, 8, 3), np.uint8))
    path = folder / f"{name}.json"
    path.write_text(json.dumps(meta))
    return path


def test_scene_names_interleave_kinds_with_seeds_apart_from_the_other_sets() -> None:
    names = scene_names(3, DEFAULT_SEED)
    assert [n for n, _, _ in names[:4]] == [f"{k}_000" for k in KINDS]
    assert len({s for _, _, s in names}) == len(names) == 12
    assert len({n for n, _, _ in names}) == 12
    # training renders below HELDOUT_SEED, the OpenCV held-out set from it; this set never meets either
    assert min(s for _, _, s in names) >= DEFAULT_SEED >= HELDOUT_SEED + 1_000_000


def test_a_scene_reads_back_as_the_benchmark_uses_it(tmp_path: Path) -> None:
    scene = load_scene(write_scene(tmp_path, "valid_000", truth()))
    assert (scene.kind, scene.thrower, scene.values) == ("valid", "top", (3, 5))
    assert scene.image.name == "valid_000.png" and scene.empty.name == "valid_000_empty.png"
    assert scene.dice[1].cocked and scene.dice[1].tilt_deg == 27.5 and scene.dice[0].box == (500, 300, 530, 331)
    assert scene.extra["support"] == "checker"
    cal = Calibration.from_corners(scene.corners)  # the corners are what calibration takes
    assert cal.zone((820.0, 360.0), "bottom") != "off_board"
    assert cal.zone((100.0, 360.0), "bottom") == "off_board"


@pytest.mark.parametrize(
    "change, message",
    [
        ({"kind": "leaning"}, "kind must be one of"),
        ({"thrower": "left"}, "thrower must be bottom or top"),
        ({"corners": [[0, 0], [1, 1]]}, "corners must be four"),
        ({"values": [3, 6]}, "do not match the dice"),
        ({"dice": []}, "exactly two dice"),
    ],
)
def test_a_malformed_scene_is_named_and_explained(tmp_path: Path, change: dict[str, object], message: str) -> None:
    meta = truth()
    meta.update(change)
    with pytest.raises(VisionError, match=message):
        load_scene(write_scene(tmp_path, "s", meta))


def test_bad_dice_and_missing_files_are_explained(tmp_path: Path) -> None:
    meta = truth()
    dice = meta["dice"]
    assert isinstance(dice, list)
    dice[0] = dict(dice[0], value=7)
    with pytest.raises(VisionError, match="value must be 1-6"):
        load_scene(write_scene(tmp_path, "a", meta))
    meta = truth()
    dice = meta["dice"]
    assert isinstance(dice, list)
    dice[1] = dict(dice[1], box=[10, 10, 5, 20])
    with pytest.raises(VisionError, match="empty die box"):
        load_scene(write_scene(tmp_path, "b", meta))
    with pytest.raises(VisionError, match="c_empty.png is missing"):
        path = write_scene(tmp_path, "c", truth())
        (tmp_path / "c_empty.png").unlink()
        load_scene(path)
    (tmp_path / "d.json").write_text("{not json")
    with pytest.raises(VisionError, match="not valid JSON"):
        load_scene(tmp_path / "d.json")
    with pytest.raises(VisionError, match="no Blender set"):
        load_set(tmp_path / "nowhere")


def test_missing_blender_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no blender here
    with pytest.raises(BlenderMissingError, match="apt-get install -y blender"):
        find_blender()
    with pytest.raises(BlenderMissingError, match="not found at /no/such/blender"):
        find_blender("/no/such/blender")
    assert main(["--out", str(tmp_path / "set"), "--count", "1"]) == 2
    err = capsys.readouterr().err
    assert "blender was not found on PATH" in err and "apt-get install -y blender" in err
    assert not (tmp_path / "set").exists() or not any((tmp_path / "set").iterdir())


FAKE_BLENDER = """#!{python}
# plays Blender: renders (writes) every job given after "--", failing on the ones named "broken"
import json, pathlib, sys
args = sys.argv[sys.argv.index("--") + 1:]
out = pathlib.Path(args[args.index("--out") + 1])
log = pathlib.Path({log!r})
log.write_text(log.read_text() + " ".join(sys.argv[1:]) + "\\n" if log.exists() else " ".join(sys.argv[1:]) + "\\n")
for job in json.loads(pathlib.Path(args[args.index("--jobs") + 1]).read_text()):
    if "broken" in job["name"]:
        print("Traceback: the scene broke")
        sys.exit(1)
    for suffix in (".png", "_empty.png"):
        (out / (job["name"] + suffix)).write_bytes(b"png")
    (out / (job["name"] + ".json")).write_text(json.dumps(job))
    print("blender_scene: wrote " + job["name"])
"""


def fake_blender(tmp_path: Path) -> tuple[Path, Path]:
    exe, log = tmp_path / "blender", tmp_path / "calls.log"
    exe.write_text(FAKE_BLENDER.format(python=sys.executable, log=str(log)))
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    return exe, log


def test_render_runs_blender_on_one_thread_and_skips_finished_scenes(tmp_path: Path) -> None:
    exe, log = fake_blender(tmp_path)
    out = tmp_path / "set"
    out.mkdir()
    write_scene(out, "valid_000", truth())  # already rendered
    assert render(out, 2, 5, blender=str(exe)) == 7
    call = log.read_text().split()
    assert call[:2] == ["-b", "--factory-startup"] and call[call.index("-t") + 1] == "1"
    assert call[call.index("-P") + 1].endswith("vision/train/blender_scene.py")
    assert len(list(out.glob("*.json"))) == 8
    assert render(out, 2, 5, blender=str(exe)) == 0  # nothing left to do: blender not started again
    assert len(log.read_text().splitlines()) == 1


def test_a_failed_render_is_reported_with_blenders_last_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    exe, _ = fake_blender(tmp_path)
    out = tmp_path / "set"
    monkeypatch.setattr(
        "vision.train.blender_set.scene_names",
        lambda count, seed, train=False, desk=False, precision=False: [
            ("valid_000", "valid", 1),
            ("broken_000", "cocked", 2),
        ],
    )
    assert main(["--out", str(out), "--count", "1", "--blender", str(exe)]) == 2
    err = capsys.readouterr().err
    assert "blender stopped after 1 of 2 scenes (exit 1)" in err and "the scene broke" in err
    assert os.path.exists(out / "valid_000.json")


def test_training_scenes_are_named_apart_and_seeded_below_both_held_out_sets() -> None:
    names = scene_names(5, TRAIN_SEED, train=True)
    assert len(names) == 5 * len(TRAIN_KINDS) == len({n for n, _, _ in names}) == len({s for _, _, s in names})
    assert all(n.startswith("train_") and n.endswith(k) for n, k, _ in names)
    assert sum(k == "cocked" for _, k, _ in names) == 10  # cocked dice are the rare class: twice as many
    assert max(s for _, _, s in names) < HELDOUT_SEED < DEFAULT_SEED


def draw_die(image: np.ndarray, x0: int, y0: int, side: int, pips: int) -> None:
    """A white die seen from above with ``pips`` black pips (2 or 4), as a stand-in for a Blender patch."""
    cv2.rectangle(image, (x0, y0), (x0 + side, y0 + side), (235, 235, 235), -1)
    spots = [(0.25, 0.25), (0.75, 0.75)] if pips == 2 else [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)]
    for u, v in spots:
        cv2.circle(image, (int(x0 + u * side), int(y0 + v * side)), max(2, side // 9), (20, 20, 20), -1)


def training_scene(folder: Path) -> Path:
    """One training scene of two patches: the first holds a flat 2, the second a cocked 4; a third die of the
    scene lies across the second patch's edge and so belongs to neither."""
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(3)
    for k, (value, x0) in enumerate(((2, 60), (4, 70))):
        empty = np.full((160, 180, 3), (40, 90, 30), np.uint8)
        cv2.circle(empty, (30, 30), 14, (10, 10, 60), -1)  # a checker beside the die: on both frames
        empty = np.clip(empty + rng.normal(0, 3, empty.shape), 0, 255).astype(np.uint8)
        cv2.imwrite(str(folder / f"train_00000_valid_p{k}_empty.png"), empty)
        image = empty.copy()
        draw_die(image, x0, 50, 34, value)
        cv2.imwrite(str(folder / f"train_00000_valid_p{k}.png"), image)
    meta = {
        "kind": "cocked",
        "patches": [[100, 200, 280, 360], [500, 100, 680, 260]],
        "dice": [
            {
                "value": 2,
                "box": [160, 250, 194, 284],
                "top_centre": [177.0, 267.0],
                "cocked": False,
                "tilt_deg": 0.0,
                "zone": "right_half",
            },
            {
                "value": 4,
                "box": [570, 150, 604, 184],
                "top_centre": [587.0, 167.0],
                "cocked": True,
                "tilt_deg": 30.0,
                "zone": "right_half",
            },
            {
                "value": 6,
                "box": [670, 150, 700, 180],
                "top_centre": [685.0, 165.0],
                "cocked": False,
                "tilt_deg": 0.0,
                "zone": "right_half",
            },
        ],
    }
    path = folder / "train_00000_valid.json"
    path.write_text(json.dumps(meta))
    return path


def test_training_patches_carry_their_own_dice_in_patch_pixels(tmp_path: Path) -> None:
    patches = load_training_patches(training_scene(tmp_path))
    assert [p.image.name for p in patches] == ["train_00000_valid_p0.png", "train_00000_valid_p1.png"]
    assert [(d.value, d.cocked, d.box) for d in patches[0].dice] == [(2, False, (60, 50, 94, 84))]
    assert [(d.value, d.cocked, d.top_centre) for d in patches[1].dice] == [(4, True, (87.0, 67.0))]
    (tmp_path / "bad.json").write_text(json.dumps({"dice": []}))
    with pytest.raises(VisionError, match="not a Blender training scene"):
        load_training_patches(tmp_path / "bad.json")


def test_desk_scenes_are_named_apart_seeded_apart_and_rendered_as_training_scenes(tmp_path: Path) -> None:
    names = scene_names(4, DESK_SEED, desk=True)
    assert [n for n, _, _ in names] == [f"desk_{i:05d}" for i in range(4)] and {k for _, k, _ in names} == {"desk"}
    training = scene_names(1000, TRAIN_SEED, train=True)
    assert max(s for _, _, s in training) < DESK_SEED and max(s for _, _, s in names) < HELDOUT_SEED
    exe, log = fake_blender(tmp_path)
    out = tmp_path / "desk"
    assert main(["--out", str(out), "--desk", "--count", "3", "--blender", str(exe)]) == 0
    jobs = [json.loads((out / f"desk_{i:05d}.json").read_text()) for i in range(3)]
    assert [(j["kind"], j["seed"], j["train"]) for j in jobs] == [("desk", DESK_SEED + i, True) for i in range(3)]
    assert render(out, 3, DESK_SEED, blender=str(exe), desk=True) == 0  # complete once the JSON is written


def test_precision_dice_scenes_are_desk_scenes_named_and_seeded_apart(tmp_path: Path) -> None:
    names = scene_names(4, PRECISION_SEED, precision=True)
    assert [n for n, _, _ in names] == [f"desk_precision_{i:05d}" for i in range(4)]
    assert {k for _, k, _ in names} == {"precision"}
    desk = scene_names(1000, DESK_SEED, desk=True)
    assert max(s for _, _, s in desk) < PRECISION_SEED and max(s for _, _, s in names) < HELDOUT_SEED
    exe, _ = fake_blender(tmp_path)
    out = tmp_path / "clear"
    assert main(["--out", str(out), "--precision", "--count", "2", "--blender", str(exe)]) == 0
    jobs = [json.loads(p.read_text()) for p in sorted(out.glob("desk_*.json"))]  # as --blender-desk finds them
    assert [(j["kind"], j["seed"], j["train"]) for j in jobs] == [
        ("precision", PRECISION_SEED + i, True) for i in range(2)
    ]
    with pytest.raises(SystemExit):  # one kind of scene a run
        main(["--out", str(out), "--desk", "--precision", "--blender", str(exe)])


def desk_scene(folder: Path, name: str = "desk_00000") -> Path:
    """A desk scene as ``blender_scene.render_desk`` writes it: one patch holding a 2 and a 4, no empty frame."""
    folder.mkdir(parents=True, exist_ok=True)
    image = np.full((160, 200, 3), (120, 170, 200), np.uint8)
    draw_die(image, 30, 60, 34, 2)
    draw_die(image, 120, 50, 34, 4)
    cv2.imwrite(str(folder / f"{name}_p0.png"), image)
    dice = [
        {"value": v, "box": [x0, y0, x0 + 34, y0 + 34], "top_centre": [x0 + 17.0, y0 + 17.0], "zone": "desk"}
        for v, x0, y0 in ((2, 430, 260), (4, 520, 250))
    ]
    path = folder / f"{name}.json"
    path.write_text(json.dumps({"kind": "desk", "patches": [[400, 200, 600, 360]], "dice": dice}))
    return path


def test_a_desk_scenes_patch_has_no_empty_frame_and_its_dice_are_cut_with_their_values(tmp_path: Path) -> None:
    from vision.reader import DetectorNet
    from vision.train.crop_data import blender_desk_crops

    (patch,) = load_training_patches(desk_scene(tmp_path))
    assert patch.empty is None and [(d.value, d.box) for d in patch.dice] == [
        (2, (30, 60, 64, 94)),
        (4, (120, 50, 154, 84)),
    ]
    net = DetectorNet(Path(__file__).parents[2] / "models" / "detector.onnx")
    crops = blender_desk_crops(np.random.default_rng(0), net, [tmp_path])
    values = [c for _, c in crops if c < 6]
    assert values.count(1) >= 2 and values.count(3) >= 2 and set(values) <= {1, 3}  # classes 1, 3: a 2 and a 4
    assert all(x.shape == crops[0][0].shape for x, _ in crops)
    (tmp_path / "desk_00000_p0.png").write_bytes(b"not a png")
    with pytest.raises(VisionError, match="cannot read"):
        blender_desk_crops(np.random.default_rng(0), net, [tmp_path])
