"""The Blender held-out set: tavla throws rendered by Blender, which the training renderer did not make.

    python -m vision.train.blender_set --out /tmp/blender_set --count 30 --seed 2000000
    python -m vision.train.blender_set --out /tmp/desk --desk --count 400   # desk scenes for crop_head --blender-desk
    python -m vision.train.blender_set --out /tmp/clear --precision --count 400   # the same with precision dice

renders ``count`` scenes of each kind (valid, cocked, wrong_half, off_board) into ``--out`` by running
``blender -b -t 1 -P vision/train/blender_scene.py`` (one CPU thread; scenes already there are skipped), and
``load_scene`` reads one scene's truth back for the benchmark (``tests/vision/bench_detector.py --only
blender``). Blender is a development tool only: no test and no CI step renders.

Each scene ``NAME`` is three files: ``NAME.png`` (the throw, 1280x720), ``NAME_empty.png`` (the same board
before the throw) and ``NAME.json``: ``kind``, ``thrower`` ("bottom"/"top"), ``values``, ``corners`` (the
board's outer corners, frame included, in image pixels, tl tr br bl, as ``Calibration.from_corners`` takes
them), ``playing_corners`` (the playing area inside the frame) and ``dice``: per die its ``value``, image
``box`` [x0, y0, x1, y1], ``top_centre`` (upper face's centre), ``cocked``, ``tilt_deg`` and ``zone``
("right_half", "wrong_half", "frame" or "off_board": where it lies for the thrower). A held-out scene's board
and dice follow from its seed (45-60 cm wide, about 0.8 as deep, frame 15-30 mm, bar 20-40 mm, dice 15-19 mm;
training scenes keep one board), and its JSON says what board set-up measures, as the foreign scenes' labels do:
``board_mm`` (``field_w`` and ``field_h``, the playing field with the bar; ``bar_w``, ``frame_w``, ``outer_w``,
``outer_h``), ``die_mm``, ``checkers_px`` (each checker's top centre in image pixels) and ``camera``
(``tests/vision/bench_foreign.py --blender`` reads them).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from vision.calibration import Thrower
from vision.errors import VisionError
from vision.train.heldout import KINDS

SCENE_SCRIPT = Path(__file__).with_name("blender_scene.py")
DEFAULT_SEED = 2_000_000  # training renders below 1,000,000, the OpenCV held-out set from 1,000,000
TRAIN_SEED = 100_000  # Blender training scenes (``--train``)
TRAIN_KINDS = ("valid", "cocked", "off_board", "cocked")  # the dice's poses and places that training needs
DESK_SEED = 300_000  # Blender desk scenes (``--desk``)
PRECISION_SEED = 320_000  # Blender desk scenes with translucent precision dice (``--precision``)
ZONES = ("right_half", "wrong_half", "frame", "off_board", "desk")  # desk: a desk scene, no board
MISSING_BLENDER = (
    "blender was not found{where}. It renders this held-out set only (a development tool, "
    "never a test or runtime dependency): install it with `apt-get install -y blender`, or "
    "give its path with --blender."
)


class BlenderMissingError(VisionError):
    """Blender is not installed (or not where --blender says)."""


@dataclass(frozen=True)
class DieTruth:
    value: int
    box: tuple[int, int, int, int]
    top_centre: tuple[float, float]
    cocked: bool
    zone: str
    tilt_deg: float


@dataclass(frozen=True)
class BlenderScene:
    """One rendered throw's truth, with the paths of its two frames."""

    name: str
    image: Path
    empty: Path
    kind: str
    thrower: Thrower
    values: tuple[int, ...]
    corners: NDArray[np.float64]
    dice: tuple[DieTruth, ...]
    extra: dict[str, object]


def scene_names(
    count: int, seed: int, train: bool = False, desk: bool = False, precision: bool = False
) -> list[tuple[str, str, int]]:
    """(name, kind, seed) of every scene, kinds interleaved so that a part-rendered set stays balanced.
    Training scenes: ``count`` of each of TRAIN_KINDS (cocked twice), named ``train_NNNNN_KIND``; desk scenes:
    ``count`` of them, named ``desk_NNNNN`` (``desk_precision_NNNNN`` with precision dice)."""
    if precision:
        return [(f"desk_precision_{i:05d}", "precision", seed + i) for i in range(count)]
    if desk:
        return [(f"desk_{i:05d}", "desk", seed + i) for i in range(count)]
    if train:
        return [
            (f"train_{len(TRAIN_KINDS) * i + k:05d}_{kind}", kind, seed + len(TRAIN_KINDS) * i + k)
            for i in range(count)
            for k, kind in enumerate(TRAIN_KINDS)
        ]
    return [(f"{kind}_{i:03d}", kind, seed + len(KINDS) * i + k) for i in range(count) for k, kind in enumerate(KINDS)]


def is_complete(out: Path, name: str, train: bool = False) -> bool:
    if train:  # its patches are written before the JSON
        return (out / f"{name}.json").is_file()
    return all((out / f"{name}{suffix}").is_file() for suffix in (".png", "_empty.png", ".json"))


def find_blender(path: str | None = None) -> str:
    """The blender executable, or BlenderMissingError saying how to install it."""
    if path is not None:
        if Path(path).is_file() and os.access(path, os.X_OK):
            return path
        raise BlenderMissingError(MISSING_BLENDER.format(where=f" at {path}"))
    found = shutil.which("blender")
    if found is None:
        raise BlenderMissingError(MISSING_BLENDER.format(where=" on PATH"))
    return found


def _number(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not np.isfinite(value):
        raise VisionError(f"{what} must be a number, got {value!r}")
    return float(value)


def _pair(value: object, what: str) -> tuple[float, float]:
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise VisionError(f"{what} must be [x, y], got {value!r}")
    return (_number(value[0], what), _number(value[1], what))


def _die(raw: object, where: str) -> DieTruth:
    if not isinstance(raw, dict):
        raise VisionError(f"{where}: each die must be an object, got {raw!r}")
    value = raw.get("value")
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
        raise VisionError(f"{where}: a die's value must be 1-6, got {value!r}")
    box = raw.get("box")
    if not isinstance(box, list) or len(box) != 4:
        raise VisionError(f"{where}: a die's box must be [x0, y0, x1, y1], got {box!r}")
    b = tuple(int(_number(v, f"{where}: box")) for v in box)
    if b[2] <= b[0] or b[3] <= b[1]:
        raise VisionError(f"{where}: empty die box {list(b)}")
    zone = raw.get("zone")
    if zone not in ZONES:
        raise VisionError(f"{where}: a die's zone must be one of {', '.join(ZONES)}, got {zone!r}")
    return DieTruth(
        value,
        (b[0], b[1], b[2], b[3]),
        _pair(raw.get("top_centre"), f"{where}: top_centre"),
        bool(raw.get("cocked", False)),
        str(zone),
        _number(raw.get("tilt_deg", 0.0), f"{where}: tilt"),
    )


def load_scene(json_path: Path | str) -> BlenderScene:
    """Read one scene's truth; a missing frame or a malformed field raises VisionError naming the file."""
    path = Path(json_path)
    try:
        raw = json.loads(path.read_text())
    except OSError as exc:
        raise VisionError(f"cannot read {path}: {exc.strerror or exc}") from exc
    except json.JSONDecodeError as exc:
        raise VisionError(f"{path} is not valid JSON: {exc.msg} (line {exc.lineno})") from exc
    if not isinstance(raw, dict):
        raise VisionError(f"{path}: expected a JSON object")
    name = path.stem
    kind, thrower = raw.get("kind"), raw.get("thrower")
    if kind not in KINDS:
        raise VisionError(f"{path}: kind must be one of {', '.join(KINDS)}, got {kind!r}")
    if thrower not in ("bottom", "top"):
        raise VisionError(f"{path}: thrower must be bottom or top, got {thrower!r}")
    corners = raw.get("corners")
    if not isinstance(corners, list) or len(corners) != 4:
        raise VisionError(f"{path}: corners must be four [x, y] pairs (tl, tr, br, bl), got {corners!r}")
    pts = np.array([_pair(c, f"{path}: corner") for c in corners], np.float64)
    dice_raw = raw.get("dice")
    if not isinstance(dice_raw, list) or len(dice_raw) != 2:
        raise VisionError(f"{path}: a throw has exactly two dice, got {dice_raw!r}")
    dice = tuple(_die(d, str(path)) for d in dice_raw)
    values = raw.get("values")
    if values != [d.value for d in dice]:
        raise VisionError(f"{path}: values {values!r} do not match the dice ({[d.value for d in dice]})")
    image, empty = path.with_name(f"{name}.png"), path.with_name(f"{name}_empty.png")
    for frame in (image, empty):
        if not frame.is_file():
            raise VisionError(f"{path}: its frame {frame.name} is missing (render the set again to finish it)")
    extra = {k: v for k, v in raw.items() if k not in ("kind", "thrower", "corners", "dice", "values")}
    seat: Thrower = "bottom" if thrower == "bottom" else "top"
    return BlenderScene(name, image, empty, str(kind), seat, tuple(d.value for d in dice), pts, dice, extra)


@dataclass(frozen=True)
class TrainingPatch:
    """One rendered patch of a Blender training scene: the dice inside it, in the patch's own pixels; the same
    patch before the throw (``empty``), but for desk scenes."""

    image: Path
    empty: Path | None
    dice: tuple[DieTruth, ...]


def load_training_patches(json_path: Path | str) -> list[TrainingPatch]:
    """The patches of one training scene (``--train`` or ``--desk``); a die is listed in a patch when its box lies
    inside."""
    path = Path(json_path)
    try:
        raw = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise VisionError(f"cannot read the training scene {path}: {exc}") from exc
    if not isinstance(raw, dict) or not isinstance(raw.get("patches"), list) or not isinstance(raw.get("dice"), list):
        raise VisionError(f"{path}: not a Blender training scene (no patches or dice)")
    dice = [_die(d, str(path)) for d in raw["dice"]]
    out = []
    for k, region in enumerate(raw["patches"]):
        if not isinstance(region, list) or len(region) != 4:
            raise VisionError(f"{path}: a patch must be [x0, y0, x1, y1], got {region!r}")
        x0, y0, x1, y1 = (int(_number(v, f"{path}: patch")) for v in region)
        inside = tuple(
            DieTruth(
                d.value,
                (d.box[0] - x0, d.box[1] - y0, d.box[2] - x0, d.box[3] - y0),
                (d.top_centre[0] - x0, d.top_centre[1] - y0),
                d.cocked,
                d.zone,
                d.tilt_deg,
            )
            for d in dice
            if d.box[0] >= x0 and d.box[1] >= y0 and d.box[2] <= x1 and d.box[3] <= y1
        )
        image, empty = path.with_name(f"{path.stem}_p{k}.png"), path.with_name(f"{path.stem}_p{k}_empty.png")
        if inside and image.is_file():
            out.append(TrainingPatch(image, empty if empty.is_file() else None, inside))
    return out


def load_set(folder: Path | str) -> list[BlenderScene]:
    """Every complete scene in a folder, by name."""
    root = Path(folder)
    if not root.is_dir():
        raise VisionError(f"no Blender set at {root} (render one with python -m vision.train.blender_set)")
    return [load_scene(p) for p in sorted(root.glob("*.json"))]


def render(
    out: Path,
    count: int,
    seed: int,
    samples: int = 8,
    blender: str | None = None,
    train: bool = False,
    desk: bool = False,
    precision: bool = False,
) -> int:
    """Render the missing scenes; returns how many were rendered."""
    exe = find_blender(blender)
    out.mkdir(parents=True, exist_ok=True)
    names = scene_names(count, seed, train, desk, precision)
    train = train or desk or precision  # desk scenes are training scenes, complete once their JSON is written
    todo = [{"name": n, "kind": k, "seed": s, "train": train} for n, k, s in names if not is_complete(out, n, train)]
    if not todo:
        print(f"all {len(names)} scenes are already in {out}")
        return 0
    print(f"rendering {len(todo)} scenes into {out} with {exe} (one thread, {samples} samples a pixel)", flush=True)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(todo, f)
        jobs = f.name
    env = dict(os.environ, LP_NUM_THREADS="1", OMP_NUM_THREADS="1")
    command = [
        exe,
        "-b",
        "--factory-startup",
        "--python-exit-code",
        "1",
        "-t",
        "1",
        "-P",
        str(SCENE_SCRIPT),
        "--",
        "--out",
        str(out),
        "--jobs",
        jobs,
        "--samples",
        str(samples),
    ]
    t0 = time.perf_counter()
    tail: deque[str] = deque(maxlen=15)
    try:
        with subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) as proc:
            assert proc.stdout is not None
            for line in proc.stdout:
                if line.startswith("Fra:"):
                    continue
                tail.append(line.rstrip())
                if line.startswith("blender_scene:"):
                    print(line.rstrip(), flush=True)
    finally:
        os.unlink(jobs)
    done = [t for t in todo if is_complete(out, str(t["name"]), train)]
    if proc.returncode != 0 or len(done) < len(todo):
        log = "\n".join(tail)
        raise VisionError(f"blender stopped after {len(done)} of {len(todo)} scenes (exit {proc.returncode}):\n{log}")
    took = time.perf_counter() - t0
    print(f"rendered {len(done)} scenes in {took:.0f} s ({took / max(1, len(done)):.1f} s a scene)")
    return len(done)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m vision.train.blender_set",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--count", type=int, default=30, help="scenes of each kind (default 30)")
    ap.add_argument(
        "--seed",
        type=int,
        default=None,
        help=f"first scene's seed (default {DEFAULT_SEED}; {TRAIN_SEED} with --train, {DESK_SEED} with --desk, "
        f"{PRECISION_SEED} with --precision)",
    )
    kind = ap.add_mutually_exclusive_group()
    kind.add_argument(
        "--train",
        action="store_true",
        help="training scenes instead: random dice colours, only the patches round the dice rendered",
    )
    kind.add_argument(
        "--desk",
        action="store_true",
        help="desk scenes for the second stage instead: 1-5 dice on a table, no board, seen at a slant "
        "(--count scenes)",
    )
    kind.add_argument(
        "--precision",
        action="store_true",
        help="desk scenes with translucent precision dice (sharp edges, far pips showing through), seen from "
        "straight down to 50 degrees (--count scenes)",
    )
    ap.add_argument("--samples", type=int, default=8, help="Cycles samples a pixel (default 8)")
    ap.add_argument("--blender", help="the blender executable (default: blender on PATH)")
    args = ap.parse_args(argv)
    if args.count < 1:
        ap.error("--count must be at least 1")
    try:
        first = (
            PRECISION_SEED if args.precision else DESK_SEED if args.desk else TRAIN_SEED if args.train else DEFAULT_SEED
        )
        seed = args.seed if args.seed is not None else first
        render(args.out, args.count, seed, args.samples, args.blender, args.train, args.desk, args.precision)
    except VisionError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
