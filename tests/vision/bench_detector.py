"""The dice reader measured, a candidate beside the shipped one in one run, leave one set out:
``.venv/bin/python -m tests.vision.bench_detector [--detector DETECTOR+HEAD[+LOOK] ...] [--left-out SET=MODEL ...]``.

Every figure has a column for the shipped reader and one for each ``--detector`` candidate. On the real sets a
``--left-out webcam_white_dice=/tmp/no_webcam.onnx`` adds the figure of the model that never trained on that
set. Then the held-out rendered throws (our renderer; the Blender set when ``--blender-dir`` holds one), 200
rendered boards with a doubling cube in view, and latency per settled frame on one core at 1280x720 and
1920x1080.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterable
from pathlib import Path

import cv2
import numpy as np

from tests.progress import tracked
from vision import DiceReader
from vision.calibration import Calibration
from vision.crop_reader import Backend
from vision.reader import DEFAULT_COCKED_LOOK, DEFAULT_DETECTOR, DEFAULT_HEAD, PEAK_MIN
from vision.scoring import Label, Score
from vision.sources import load_image
from vision.train.blender_set import load_set
from vision.train.detector_data import (
    REAL_SETS,
    Die,
    casino_paths,
    casino_scene,
    real_scene,
    scene_paths,
    station_paths,
)
from vision.train.heldout import KINDS, TOUCHING, cube_throw, heldout_index, heldout_throw

Scene = tuple[str, np.ndarray, list[Die]]
CASINO = "casino_dice_crops"


def scenes_of(set_name: str, camera_labels: bool = False) -> list[Scene]:
    """The labelled photos of a real set or split (``vision.train.detector_data.scene_paths``); the casino crops
    each as a one-die photo; a folder of a station's kept throws (``station_paths``: those people labelled, with
    ``camera_labels`` the sure calls too)."""
    if set_name == CASINO:
        return [
            (p.name, image, [die])
            for p in casino_paths()
            for image, die in [casino_scene(load_image(str(p)), int(p.parent.name))]
        ]
    station = set_name.split("/")[0] not in REAL_SETS and Path(set_name).is_dir()
    paths = station_paths(set_name, camera_labels) if station else scene_paths(set_name)
    kept = [(Path(path).name, real_scene(path, "station" if station else set_name)) for path in paths]
    return [(name, scene[0], scene[1]) for name, scene in kept if scene is not None]


def score(reader: DiceReader, scenes: Iterable[Scene]) -> Score:
    s = Score()
    for name, image, dice in scenes:
        s.add(name, [Label(d.value, (d.x, d.y)) for d in dice], reader.read_all(image).dice)
    return s


def real_set(reader: DiceReader, name: str) -> Score:
    """Per-die figures on every labelled photo of a real set (read_all: any number of dice); the casino crops each
    a one-die photo (``scenes_of``)."""
    return score(reader, tracked(scenes_of(name), f"real set {name}"))


Column = tuple[str, DiceReader, bool]  # label, reader, whether it gets the frame before the throw


def heldout(columns: list[Column], per_kind: int, kinds: tuple[str, ...]) -> dict[str, list[tuple[int, int]]]:
    """Per kind and column: throws voided, throws accepted with both values right (true corners). Each throw
    is rendered once (the empty board, then the dice on it) and read by every column."""
    out: dict[str, list[tuple[int, int]]] = {kind: [(0, 0)] * len(columns) for kind in kinds}
    for kind in kinds:
        for i in tracked(range(per_kind), f"held-out {kind} throws"):
            t = heldout_throw(heldout_index(kind, i), kind, with_reference=True)
            cal = Calibration.from_corners(t.corners)
            for k, (_, reader, with_ref) in enumerate(columns):
                obs = reader.read(t.image, cal, t.thrower, reference=t.reference if with_ref else None)
                v, r = out[kind][k]
                right = obs.values is not None and sorted(obs.values) == sorted(t.values)
                out[kind][k] = (v + (obs.verdict == "void"), r + right)
    return out


def blender(columns: list[Column], folder: Path) -> dict[str, list[tuple[int, int, int]]]:
    out: dict[str, list[tuple[int, int, int]]] = {}
    rng = np.random.default_rng(11)
    for sc in load_set(folder):
        image = load_image(sc.image)
        image = np.clip(image + rng.normal(0, 2.0, image.shape), 0, 255).astype(np.uint8)
        ref = load_image(sc.empty)
        row = out.setdefault(sc.kind, [(0, 0, 0)] * len(columns))
        for k, (_, reader, with_ref) in enumerate(columns):
            obs = reader.read(
                image, Calibration.from_corners(sc.corners), sc.thrower, reference=ref if with_ref else None
            )
            v, r, n = row[k]
            right = obs.values is not None and sorted(obs.values) == sorted(sc.values)
            row[k] = (v + (obs.verdict == "void"), r + right, n + 1)
    return out


def cubes(columns: list[Column], n: int) -> list[tuple[int, int, int]]:
    """Boards with a doubling cube, per column: how often the cube is read as a die, dice invented beyond the
    two thrown, throws voided."""
    out = [(0, 0, 0)] * len(columns)
    for i in tracked(range(n), "boards with a cube"):
        t, (cx, cy) = cube_throw(i)
        cal = Calibration.from_corners(t.corners)
        for k, (_, reader, _) in enumerate(columns):
            obs = reader.read(t.image, cal, t.thrower)
            on_cube = [d for d in obs.dice if d.box[0] - 4 <= cx <= d.box[2] + 4 and d.box[1] - 4 <= cy <= d.box[3] + 4]
            a, b, c = out[k]
            out[k] = (a + bool(on_cube), b + max(0, len(obs.dice) - 2), c + (obs.verdict == "void"))
    return out


def latency(reader: DiceReader, size: tuple[int, int], with_reference: bool, n: int) -> tuple[float, float]:
    cv2.setNumThreads(1)
    throws = [heldout_throw(i, KINDS[i % 2], size, with_reference=with_reference) for i in range(n)]
    times = []
    for _ in range(2):
        for t in throws:
            cal = Calibration.from_corners(t.corners)
            if t.reference is not None:  # a station reads throw after throw on one calibration: its maps are made
                reader.read(t.reference, cal, t.thrower, reference=t.image)
            t0 = time.perf_counter()
            reader.read(t.image, cal, t.thrower, reference=t.reference)
            times.append(time.perf_counter() - t0)
    ms = np.array(times) * 1000
    return float(np.median(ms)), float(np.percentile(ms, 95))


def _pct(a: int, b: int) -> str:
    return f"{a}/{b} ({100 * a / max(b, 1):.1f} %)"


def _score(s: Score) -> str:
    return (
        f"{_pct(s.correct, s.labels)}; wrong {s.wrong}, unreadable {s.unreadable}, missed {s.missed}, "
        f"invented {s.invented}"
    )


def detector_reader(spec: str | Path, peak_min: float = PEAK_MIN, backend: Backend | None = None) -> DiceReader:
    """``DETECTOR[+HEAD[+LOOK]]``: a detector with its second stage (``+none``: the detector's own value heads;
    no ``+``: the shipped second stage) and a cocked look for calibrated boards (``+none``: none; no third part:
    the shipped one)."""
    model, _, rest = str(spec).partition("+")
    head, _, look = rest.partition("+")
    if not head:
        return DiceReader(model, backend, threads=1, peak_min=peak_min)
    return DiceReader(
        model,
        backend,
        threads=1,
        peak_min=peak_min,
        head=None if head == "none" else head,
        cocked_look=None if look == "none" else look or DEFAULT_COCKED_LOOK,
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument(
        "--detector",
        action="append",
        default=[],
        metavar="DETECTOR[+HEAD[+LOOK]]",
        help="a candidate measured beside the shipped reader (repeat to compare several; +none: the detector's "
        "own value heads, or no cocked look)",
    )
    ap.add_argument(
        "--left-out",
        action="append",
        default=[],
        metavar="SET=DETECTOR[+HEAD[+LOOK]]",
        help="the detector (and second stage) trained without SET, for SET's figure",
    )
    ap.add_argument("--only", default="real,heldout,touching,cube,latency,blender")
    ap.add_argument("--sets", default=",".join(REAL_SETS), help="the real sets to read (default all)")
    ap.add_argument("--per-kind", type=int, default=100)
    ap.add_argument("--cubes", type=int, default=200)
    ap.add_argument("--blender-dir", type=Path, default=Path("/tmp/blender_set"))
    ap.add_argument(
        "--peak-min",
        type=float,
        help="the candidates' peak threshold (default: the shipped one; the shipped reader keeps its own)",
    )
    args = ap.parse_args()
    cv2.setNumThreads(1)
    parts = set(args.only.split(","))
    peak_min = PEAK_MIN if args.peak_min is None else args.peak_min
    readers = [("shipped", DiceReader(threads=1))] + [(m, detector_reader(m, peak_min)) for m in args.detector]
    left = dict(item.split("=", 1) for item in args.left_out)
    shipped = "+".join(p.name for p in (DEFAULT_DETECTOR, DEFAULT_HEAD, DEFAULT_COCKED_LOOK))
    print(f"shipped: models/{shipped}; candidates: {args.detector or 'none'}; left-out models: {left or 'none'}")
    if "real" in parts:
        labels = [label for label, _ in readers] + (["the set left out of its training"] if left else [])
        print("| real set (whole set) | " + " | ".join(labels) + " |")
        print("|---" * (len(labels) + 1) + "|")
        for name in args.sets.split(","):
            cells = [_score(real_set(reader, name)) for _, reader in readers]
            if left:
                model = left.get(name)
                cells.append(_score(real_set(detector_reader(model, peak_min), name)) if model else "- (no --left-out)")
            print(f"| {name} | " + " | ".join(cells) + " |", flush=True)
    columns: list[Column] = []
    for label, reader in readers:
        columns += [(f"{label}, watch", reader, True), (f"{label}, read", reader, False)]
    header = "| kind | " + " | ".join(label for label, _, _ in columns) + " |"
    rule = "|---" * (len(columns) + 1) + "|"
    kinds = (KINDS if "heldout" in parts else ()) + ((TOUCHING,) if "touching" in parts else ())
    if kinds:
        rows = heldout(columns, args.per_kind, kinds)
        print(
            f"\nheld-out rendered throws, true corners, {args.per_kind} a kind: voided (valid: accepted with "
            "both values right); watch: with the frame before the throw, read: the settled frame alone"
        )
        print(header + "\n" + rule)
        for kind in rows:
            cells = [
                f"voided {_pct(v, args.per_kind)}" + (f", right {r}" if kind in ("valid", TOUCHING) else "")
                for v, r in rows[kind]
            ]
            print(f"| {kind} | " + " | ".join(cells) + " |", flush=True)
    if "blender" in parts:
        if args.blender_dir.is_dir() and load_set(args.blender_dir):
            brows = blender(columns, args.blender_dir)
            print("\nBlender held-out scenes, manual corners\n" + header + "\n" + rule)
            for kind, row in brows.items():
                cells = [f"voided {_pct(v, n)}" + (f", right {r}" if kind == "valid" else "") for v, r, n in row]
                print(f"| {kind} | " + " | ".join(cells) + " |", flush=True)
        else:
            print(f"\nBlender held-out set: none in {args.blender_dir} (python -m vision.train.blender_set)")
    if "cube" in parts:
        print(
            f"\n{args.cubes} held-out boards with a doubling cube (valid throws, true corners, no frame before):"
            " cube read as a die / dice invented / throws voided"
        )
        single = [column for column in columns if not column[2]]
        for (label, _, _), (as_die, inv, voided) in zip(single, cubes(single, args.cubes)):
            print(f"  {label}: {as_die} / {inv} / {_pct(voided, args.cubes)}", flush=True)
    if "latency" in parts:
        print("\nlatency per settled frame, one core (ms, median / p95):")
        for size in ((1280, 720), (1920, 1080)):
            cells = []
            for label, reader in readers:
                w = latency(reader, size, True, 20)
                r = latency(reader, size, False, 20)
                cells.append(f"{label} watch {w[0]:.1f} / {w[1]:.1f}, read {r[0]:.1f} / {r[1]:.1f}")
            print(f"  {size[0]}x{size[1]}: " + "; ".join(cells), flush=True)


if __name__ == "__main__":
    main()
