"""A short fine-tuning pass from the shipped weights with hard examples: ``python -m vision.train --finetune
models/dice.onnx --hard-negatives --out /tmp/dice_ft.onnx`` (training only: the app never imports this).

The current proposer and model are run over the real Train photos (never Valid) and over fresh rendered
scenes; every crop the reader gets wrong is a hard example: an invented die (a side face, a piece of a die,
a cable end, clutter) becomes ``not_die``, a missed or misread true die its class, a flat die called cocked
(or the reverse) its true class. Hard examples are oversampled into the ordinary training crops, and the
model is trained a few epochs at a low learning rate. Both models are then scored on selection data that is
not Valid: the real Train photos held out of the fine-tune (a tenth, by photo) and rendered held-out throws
(held-out seeds and dice presets, at indices the benchmark does not use).
"""

from __future__ import annotations

import glob
import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import onnx
import torch
from numpy.typing import NDArray
from onnx import numpy_helper
from torch import nn

from vision.calibration import Calibration
from vision.detect import crop_square, propose
from vision.pipeline import COCKED_SURE, NOT_DIE_LIMIT, DiceReader
from vision.reader import CLASS_COCKED, CLASS_NOT_DIE, CLASSES, CROP, OnnxReader
from vision.scoring import Score, read_labels
from vision.synth import render
from vision.train import dataset
from vision.train.heldout import KINDS, heldout_throw
from vision.train.trainer import class_weighted_loss

Crops = tuple[NDArray[np.uint8], NDArray[np.int64]]
SELECTION_INDEX = 10_000  # rendered held-out throws from here on choose the model; the benchmark uses 0..399


@dataclass
class FinetuneConfig:
    start: Path  # the ONNX model to start from
    out: Path
    table_scenes: int = 600
    board_scenes: int = 300
    real: Path | None = None
    epochs: int = 3
    batch: int = 128
    lr: float = 3e-4
    hard_weight: int = 4  # how many times each hard example is repeated
    seed: int = 7
    threads: int = 2
    workers: int = 2
    selection_throws: int = 25  # rendered held-out throws a kind for the choice between the models
    max_steps: int = 0
    real_limit: int = 0


def folded_model() -> nn.Sequential:
    """``trainer.build_model`` as exported: batch norm folded into the convolutions (the ONNX holds no
    separate batch-norm statistics), so the shipped weights load exactly and export to the same graph."""

    def block(cin: int, cout: int) -> list[nn.Module]:
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=True), nn.ReLU(inplace=True)]

    return nn.Sequential(
        *block(3, 12),
        nn.MaxPool2d(2),
        *block(12, 24),
        nn.MaxPool2d(2),
        *block(24, 32),
        *block(32, 32),
        nn.MaxPool2d(2),
        *block(32, 64),
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
        nn.Dropout(0.1),
        nn.Linear(64, len(CLASSES)),
    )


def load_onnx(path: Path) -> nn.Sequential:
    """The folded model with the weights of an exported ``dice.onnx`` (Conv and Gemm nodes, in graph order)."""
    graph = onnx.load(str(path)).graph
    init = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    tensors = [init[name] for node in graph.node if node.op_type in ("Conv", "Gemm") for name in node.input[1:3]]
    model = folded_model()
    params: list[torch.Tensor] = [
        p for m in model if isinstance(m, (nn.Conv2d, nn.Linear)) for p in (m.weight, m.bias) if p is not None
    ]
    if len(params) != len(tensors) or any(tuple(p.shape) != t.shape for p, t in zip(params, tensors)):
        raise ValueError(f"{path} does not hold the reader's architecture")
    with torch.no_grad():
        for p, t in zip(params, tensors):
            p.copy_(torch.from_numpy(np.array(t, np.float32)))
    return model


def decision(pr: NDArray[np.float32]) -> int:
    """The class the reader acts on (``vision.pipeline``): not a die above the limit, cocked when sure, else
    the value, and a value below the reader's confidence counts as wrong (-1: unreadable)."""
    if pr[CLASS_NOT_DIE] >= NOT_DIE_LIMIT:
        return CLASS_NOT_DIE
    if pr[CLASS_COCKED] / max(1e-6, 1.0 - float(pr[CLASS_NOT_DIE])) >= COCKED_SURE:
        return CLASS_COCKED
    value = int(np.argmax(pr[:6]))
    return value if pr[value] >= 0.7 else -1


def hard_examples(
    image: NDArray[np.uint8],
    targets: list[dataset.Target],
    die_px: float | None,
    reader: OnnxReader,
    rng: np.random.Generator,
) -> list[tuple[NDArray[np.uint8], int]]:
    """The crops of one image the reader gets wrong, with their true class. Besides the plain rules of
    ``dataset.label_proposals``, a proposal near a die whose box misses the die's upper-face centre (a side
    face, a piece of the die, a shadow-split half) is ``not_die``: the true die is read from its own crop."""
    crops: list[NDArray[np.uint8]] = []
    labels: list[int] = []
    for p in propose(image, die_px):
        cx, cy = p.centre
        side = max(p.box[2] - p.box[0], p.box[3] - p.box[1])
        best = min(targets, key=lambda t: np.hypot(t.centre[0] - cx, t.centre[1] - cy), default=None)
        dist = 1e9 if best is None else float(np.hypot(best.centre[0] - cx, best.centre[1] - cy)) / best.size
        if best is not None and dist < 0.3 and 0.6 * best.size < side < 1.7 * best.size:
            label = best.label
        elif dist > 0.9:
            label = CLASS_NOT_DIE
        elif best is not None and not (
            p.box[0] <= best.centre[0] <= p.box[2] and p.box[1] <= best.centre[1] <= p.box[3]
        ):
            label = CLASS_NOT_DIE
        else:
            continue
        crops.append(crop_square(image, p.box, CROP))
        labels.append(label)
    for t in targets:  # the true dice, slightly off-centre as the proposer may cut them
        for _ in range(3):
            s = t.size * rng.uniform(0.85, 1.25)
            x = t.centre[0] + rng.normal(0, 0.08) * t.size
            y = t.centre[1] + rng.normal(0, 0.08) * t.size
            crops.append(crop_square(image, (int(x - s / 2), int(y - s / 2), int(x + s / 2), int(y + s / 2)), CROP))
            labels.append(t.label)
    if not crops:
        return []
    probs = reader.probabilities(np.stack(crops))
    return [(c, lab) for c, lab, pr in zip(crops, labels, probs) if decision(pr) != lab]


def _stack(items: list[tuple[NDArray[np.uint8], int]]) -> Crops:
    if not items:
        return np.zeros((0, CROP, CROP, 3), np.uint8), np.zeros((0,), np.int64)
    return np.stack([c for c, _ in items]), np.array([lab for _, lab in items], np.int64)


def _rendered_part(args: tuple[int, int, int, str]) -> tuple[Crops, Crops]:
    """Ordinary crops and hard examples of ``n_table`` desk and ``n_board`` board scenes from one seed."""
    seed, n_table, n_board, model = args
    cv2.setNumThreads(1)
    reader = OnnxReader(model)
    rng = np.random.default_rng(seed)
    plain: list[tuple[NDArray[np.uint8], int]] = []
    hard: list[tuple[NDArray[np.uint8], int]] = []
    for i in range(n_table + n_board):
        if i < n_table:
            scene = render.table_scene(rng, size=(640, 480), dice_pool=dataset.TRAIN_DICE)
            die_px: float | None = None
            neg_keep = 0.6
        else:
            style = render.random_board_style(rng, dataset.TRAIN_DICE)
            cam = render.board_camera(rng)
            kind = str(rng.choice(["valid", "cocked", "cocked", "wrong_half"]))
            spec = render.ThrowSpec(kind, str(rng.choice(["bottom", "top"])))
            scene, _, _ = render.board_scene(rng, style, cam, spec)
            neg_keep = 0.4
        targets = dataset.scene_targets(scene)
        if i >= n_table:
            die_px = float(np.mean([t.size for t in targets]))
        plain += dataset.label_proposals(scene.image, targets, die_px, rng, neg_keep=neg_keep)
        hard += hard_examples(scene.image, targets, die_px, reader, rng)
    return _stack(plain), _stack(hard)


def rendered(cfg: FinetuneConfig) -> tuple[Crops, Crops]:
    chunks = max(1, cfg.workers * 4)
    # seeds 100_000 on: apart from the training run's (seed * 1000 + chunk) and the held-out set's (1,000,000 on)
    jobs = [
        (
            100_000 + cfg.seed * 1000 + i,
            cfg.table_scenes // chunks + (i < cfg.table_scenes % chunks),
            cfg.board_scenes // chunks + (i < cfg.board_scenes % chunks),
            str(cfg.start),
        )
        for i in range(chunks)
    ]
    if cfg.workers <= 1:
        parts = [_rendered_part(j) for j in jobs]
    else:
        # spawn, not fork: the parent already runs onnxruntime and torch thread pools, which a forked child
        # inherits locked
        with ProcessPoolExecutor(cfg.workers, mp_context=multiprocessing.get_context("spawn")) as pool:
            parts = list(pool.map(_rendered_part, jobs))
    plain = (np.concatenate([p[0][0] for p in parts]), np.concatenate([p[0][1] for p in parts]))
    hard = (np.concatenate([p[1][0] for p in parts]), np.concatenate([p[1][1] for p in parts]))
    return plain, hard


def split_real(folder: Path, seed: int, limit: int = 0) -> tuple[list[str], list[str]]:
    """(fine-tune photos, selection photos): a tenth of the Train photos, by photo, held out for the choice."""
    paths = sorted(glob.glob(os.path.join(str(folder), "*.jpg")))
    if limit:
        paths = paths[:limit]
    perm = np.random.default_rng(seed).permutation(len(paths))
    n_hold = max(1, len(paths) // 10) if len(paths) > 1 else 0
    hold = sorted(paths[i] for i in perm[:n_hold])
    return sorted(set(paths) - set(hold)), hold


def real_part(paths: list[str], reader: OnnxReader, rng: np.random.Generator) -> tuple[Crops, Crops]:
    plain: list[tuple[NDArray[np.uint8], int]] = []
    hard: list[tuple[NDArray[np.uint8], int]] = []
    for path in paths:
        photo = dataset.real_photo(path)
        if photo is None:
            continue
        image, targets = photo
        plain += dataset.label_proposals(image, targets, None, rng, neg_keep=1.0, jitter=3)
        hard += hard_examples(image, targets, None, reader, rng)
    return _stack(plain), _stack(hard)


def selection_score(model: Path, real_paths: list[str], throws: int) -> tuple[Score, dict[str, int], int]:
    """How one model does on the selection data: per-die score on the held-out Train photos, and on the
    rendered held-out throws (watch path, true corners) the count of right verdicts a kind and in all."""
    reader = DiceReader(model)
    score = Score()
    for path in real_paths:
        image = cv2.imread(path)
        if image is None:
            continue
        labels = read_labels(Path(path[:-4] + ".txt"), image.shape[1], image.shape[0])
        score.add(os.path.basename(path), labels, reader.read_all(np.asarray(image, np.uint8)).dice)
    right: dict[str, int] = {}
    for kind in KINDS:
        right[kind] = 0
        for i in range(throws):
            throw = heldout_throw(SELECTION_INDEX + i * len(KINDS) + KINDS.index(kind), kind, with_reference=True)
            obs = reader.read(
                throw.image, Calibration.from_corners(throw.corners), throw.thrower, reference=throw.reference
            )
            if kind == "valid":
                ok = obs.verdict != "void" and obs.values is not None and sorted(obs.values) == sorted(throw.values)
            else:
                ok = obs.verdict == "void"
            right[kind] += int(ok)
    return score, right, sum(right.values())


def run(cfg: FinetuneConfig) -> str:
    from vision.train.trainer import export, fit

    torch.set_num_threads(max(1, min(cfg.threads, 2)))
    torch.manual_seed(cfg.seed)
    rng = np.random.default_rng(cfg.seed)
    t0 = time.time()
    reader = OnnxReader(cfg.start)
    tune_paths, hold_paths = split_real(cfg.real, cfg.seed, cfg.real_limit) if cfg.real else ([], [])
    (xr, yr), (hxr, hyr) = real_part(tune_paths, reader, rng)
    (xs, ys), (hxs, hys) = rendered(cfg)
    neg = np.nonzero(ys == CLASS_NOT_DIE)[0]
    pos = np.nonzero(ys != CLASS_NOT_DIE)[0]
    neg = rng.permutation(neg)[: int(0.6 * len(pos)) + 1]
    sel = np.sort(np.concatenate([pos, neg]))
    xs, ys = xs[sel], ys[sel]
    x = np.concatenate([xs] + [xr] * 2 + [hxr, hxs] * cfg.hard_weight)
    y = np.concatenate([ys] + [yr] * 2 + [hyr, hys] * cfg.hard_weight)
    t_data = time.time() - t0
    model = load_onnx(cfg.start)
    steps_per_epoch = max(1, len(x) // cfg.batch)
    total = steps_per_epoch * cfg.epochs if not cfg.max_steps else cfg.max_steps
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=total)
    loss_fn = class_weighted_loss(y)
    log = fit(model, x, y, opt, sched, loss_fn, cfg.epochs, cfg.batch, cfg.max_steps, rng)
    export(model, cfg.out)
    t_train = time.time() - t0 - t_data
    lines = [
        f"crops: {len(xs)} rendered, {len(xr)} real from {len(tune_paths)} Train photos; hard examples "
        f"{len(hxr)} real, {len(hxs)} rendered (classes {np.bincount(np.concatenate([hyr, hys]), minlength=8)}), "
        f"each x{cfg.hard_weight}",
        f"data {t_data:.0f} s, training {t_train:.0f} s",
        *log,
        f"wrote {cfg.out} ({cfg.out.stat().st_size / 1024:.0f} KiB)",
    ]
    if cfg.selection_throws or hold_paths:
        for name, path in (("start", cfg.start), ("fine-tuned", cfg.out)):
            score, right, total_right = selection_score(path, hold_paths, cfg.selection_throws)
            lines.append(
                f"selection, {name}: held-out Train photos ({len(hold_paths)}) {score.summary()}; rendered "
                f"held-out throws right {total_right}/{len(KINDS) * cfg.selection_throws} {right}"
            )
    return "\n".join(lines)
