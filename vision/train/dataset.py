"""Training crops: rendered scenes and the real Train photos, cut by the same proposer the reader uses.

Cutting training crops with ``vision.detect.propose`` (not from the true boxes alone) makes the model see
exactly what it sees at run time: off-centre proposals, pieces of dice, checkers, cables and board points.
A proposal whose centre is near a die's upper face takes that die's class; one far from every die is
"not a die"; anything in between is left out as ambiguous.
"""

from __future__ import annotations

import glob
import os
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.detect import crop_square, propose
from vision.reader import CLASS_COCKED, CLASS_NOT_DIE, CROP
from vision.synth import render

TRAIN_DICE = list(range(9))  # DIE_COLOURS presets the training scenes use; the rest are held out


@dataclass
class Target:
    centre: tuple[float, float]  # upper-face centre, image pixels
    size: float  # die size, image pixels
    label: int


def label_proposals(
    image: NDArray[np.uint8],
    targets: list[Target],
    die_px: float | None,
    rng: np.random.Generator,
    neg_keep: float = 1.0,
    jitter: int = 2,
    reference: NDArray[np.uint8] | None = None,
) -> list[tuple[NDArray[np.uint8], int]]:
    out: list[tuple[NDArray[np.uint8], int]] = []
    for p in propose(image, die_px, None, reference):
        cx, cy = p.centre
        side = max(p.box[2] - p.box[0], p.box[3] - p.box[1])
        best = min(targets, key=lambda t: np.hypot(t.centre[0] - cx, t.centre[1] - cy), default=None)
        if best is None:
            dist = 1e9
        else:
            dist = float(np.hypot(best.centre[0] - cx, best.centre[1] - cy)) / best.size
        if best is not None and dist < 0.3 and 0.6 * best.size < side < 1.7 * best.size:
            out.append((crop_square(image, p.box, CROP), best.label))
        elif dist > 0.9 and rng.random() < neg_keep:
            out.append((crop_square(image, p.box, CROP), CLASS_NOT_DIE))
    for t in targets:  # plus jittered crops around every true die
        for _ in range(jitter):
            s = t.size * rng.uniform(0.85, 1.25)
            cx = t.centre[0] + rng.normal(0, 0.08) * t.size
            cy = t.centre[1] + rng.normal(0, 0.08) * t.size
            box = (int(cx - s / 2), int(cy - s / 2), int(cx + s / 2), int(cy + s / 2))
            out.append((crop_square(image, box, CROP), t.label))
    return out


def scene_targets(scene: render.Scene) -> list[Target]:
    out = []
    for d in scene.dice:
        size = float(max(d.box[2] - d.box[0], d.box[3] - d.box[1]))
        out.append(Target(d.top_centre, size, CLASS_COCKED if d.cocked else d.value - 1))
    return out


def synthetic_crops(seed: int, n_table: int, n_board: int) -> tuple[NDArray[np.uint8], NDArray[np.int64]]:
    rng = np.random.default_rng(seed)
    crops: list[tuple[NDArray[np.uint8], int]] = []
    for _ in range(n_table):
        scene = render.table_scene(rng, size=(640, 480), dice_pool=TRAIN_DICE)
        crops += label_proposals(scene.image, scene_targets(scene), None, rng, neg_keep=0.6)
    for _ in range(n_board):
        style = render.random_board_style(rng, TRAIN_DICE)
        cam = render.board_camera(rng)
        kind = str(rng.choice(["valid", "cocked", "cocked", "wrong_half"]))
        scene, _, _ = render.board_scene(rng, style, cam, render.ThrowSpec(kind, str(rng.choice(["bottom", "top"]))))
        targets = scene_targets(scene)
        die_px = float(np.mean([t.size for t in targets]))
        crops += label_proposals(scene.image, targets, die_px, rng, neg_keep=0.4)
    return _stack(crops)


def blender_crops(folders: list[Path], rng: np.random.Generator) -> tuple[NDArray[np.uint8], NDArray[np.int64]]:
    """Crops of the Blender training scenes (``python -m vision.train.blender_set --train``): each patch is
    proposed twice, once against its empty board (as ``watch`` sees a throw) and once alone (as ``read``
    does), with sensor noise, since Blender's renders are cleaner than a camera's."""
    from vision.train.blender_set import load_training_patches  # here: blender_set -> heldout -> this module

    crops: list[tuple[NDArray[np.uint8], int]] = []
    for folder in folders:
        for scene in sorted(folder.glob("train_*.json")):
            for patch in load_training_patches(scene):
                raw, raw_empty = cv2.imread(str(patch.image)), cv2.imread(str(patch.empty))
                if raw is None or raw_empty is None or raw.shape != raw_empty.shape:
                    continue
                image, empty = np.asarray(raw, np.uint8), np.asarray(raw_empty, np.uint8)
                noisy = np.clip(image + rng.normal(0, rng.uniform(0, 4), image.shape), 0, 255).astype(np.uint8)
                targets = [
                    Target(
                        d.top_centre,
                        float(max(d.box[2] - d.box[0], d.box[3] - d.box[1])),
                        CLASS_COCKED if d.cocked else d.value - 1,
                    )
                    for d in patch.dice
                ]
                die_px = float(np.median([t.size for t in targets]))
                crops += label_proposals(noisy, targets, die_px, rng, neg_keep=0.5, jitter=2, reference=empty)
                crops += label_proposals(noisy, targets, die_px, rng, neg_keep=0.3, jitter=0)
    return _stack(crops)


def real_crops(folder: str, rng: np.random.Generator) -> tuple[NDArray[np.uint8], NDArray[np.int64]]:
    """Crops of the real Train photos (labels box the pip pattern; the die is about 1.3x that of a six)."""
    crops: list[tuple[NDArray[np.uint8], int]] = []
    for path in sorted(glob.glob(os.path.join(folder, "*.jpg"))):
        photo = real_photo(path)
        if photo is not None:
            crops += label_proposals(photo[0], photo[1], None, rng, neg_keep=1.0, jitter=3)
    return _stack(crops)


def label_rows(path: str) -> list[tuple[int, float, float, float, float]]:
    """The YOLO labels beside a real photo: class (pips - 1), centre and size, normalised; the known label
    error (empty wood in ``five_1``) left out."""
    rows = []
    with open(path[:-4] + ".txt") as fh:
        for line in fh:
            parts = line.split()
            if len(parts) != 5:
                continue
            c, xc, yc, bw, bh = (float(v) for v in parts)
            if os.path.basename(path) == "five_1.jpg" and abs(xc - 0.725) < 1e-3 and abs(yc - 0.434375) < 1e-3:
                continue  # the known label error: empty wood
            rows.append((int(c), xc, yc, bw, bh))
    return rows


def real_photo(path: str) -> tuple[NDArray[np.uint8], list[Target]] | None:
    """One real labelled photo and its dice (None if it cannot be read)."""
    raw = cv2.imread(path)
    if raw is None:
        return None
    image = np.asarray(raw, np.uint8)
    h, w = image.shape[:2]
    targets = [Target((xc * w, yc * h), 0.0, c) for c, xc, yc, _, _ in label_rows(path)]
    # the die size is not labelled; the proposer's median die-sized blob is a good stand-in
    props = propose(image)
    sizes = [
        max(p.box[2] - p.box[0], p.box[3] - p.box[1])
        for p in props
        if any(p.box[0] <= t.centre[0] <= p.box[2] and p.box[1] <= t.centre[1] <= p.box[3] for t in targets)
    ]
    size = float(np.median(sizes)) if sizes else 50.0
    for t in targets:
        t.size = size
    return image, targets


def _stack(crops: list[tuple[NDArray[np.uint8], int]]) -> tuple[NDArray[np.uint8], NDArray[np.int64]]:
    if not crops:
        return np.zeros((0, CROP, CROP, 3), np.uint8), np.zeros((0,), np.int64)
    return np.stack([c for c, _ in crops]), np.array([lab for _, lab in crops], np.int64)
