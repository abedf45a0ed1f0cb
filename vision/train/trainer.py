"""Training of the die reader with PyTorch (training only: the app never imports this module)."""

from __future__ import annotations

import glob
import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import numpy as np
import torch
from numpy.typing import NDArray
from torch import nn

from vision.reader import CLASS_NOT_DIE, CLASSES, CROP, preprocess
from vision.train import dataset

Batch = tuple[NDArray[np.uint8], NDArray[np.int64]]
ArrayT = TypeVar("ArrayT", bound=np.generic)


@dataclass
class TrainConfig:
    table_scenes: int
    board_scenes: int
    real: Path | None
    epochs: int
    batch: int
    seed: int
    threads: int
    workers: int
    cache: Path | None
    out: Path
    max_steps: int = 0  # 0: no limit
    neg_ratio: float = 0.6
    real_limit: int = 0  # 0: every real photo
    blender: tuple[Path, ...] = ()  # folders of Blender training scenes (blender_set --train)
    blender_weight: int = 1  # how many times each Blender crop counts
    start: Path | None = None  # continue from an exported model's weights instead of from scratch
    lr: float = 3e-3  # the one-cycle schedule's peak


def build_model(planes: int = 3) -> nn.Sequential:
    """About 35k parameters, about 4.5 M multiply-adds a 48 px crop: small enough to read 20 crops in a few
    milliseconds on one core, and to train on two CPU threads in well under an hour. ``planes``: the input's
    (colour, or colour and the cocked look's slant)."""

    def block(cin: int, cout: int) -> list[nn.Module]:
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

    return nn.Sequential(
        *block(planes, 12),
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


def _synthetic_part(args: tuple[int, int, int]) -> Batch:
    seed, n_table, n_board = args
    return dataset.synthetic_crops(seed, n_table, n_board)


def make_data(cfg: TrainConfig) -> tuple[Batch, Batch]:
    """(synthetic, real) crops, rendered in ``cfg.workers`` processes, cached if asked."""
    key = f"s{cfg.seed}_t{cfg.table_scenes}_b{cfg.board_scenes}"
    if cfg.cache is not None:
        path = cfg.cache / f"synthetic_{key}.npz"
        if path.is_file():
            data = np.load(path)
            synth: Batch = (data["x"], data["y"])
        else:
            synth = _render(cfg)
            cfg.cache.mkdir(parents=True, exist_ok=True)
            np.savez(path, x=synth[0], y=synth[1])
    else:
        synth = _render(cfg)
    real: Batch = (np.zeros((0, CROP, CROP, 3), np.uint8), np.zeros((0,), np.int64))
    if cfg.real is not None and cfg.real.is_dir():
        folder = str(cfg.real)
        if cfg.real_limit:
            tmp = sorted(glob.glob(os.path.join(folder, "*.jpg")))[: cfg.real_limit]
            real = _real_subset(tmp, cfg.seed)
        else:
            real = dataset.real_crops(folder, np.random.default_rng(cfg.seed))
    return synth, real


def _real_subset(paths: list[str], seed: int) -> Batch:
    import shutil
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        for p in paths:
            shutil.copy(p, tmp)
            shutil.copy(p[:-4] + ".txt", tmp)
        return dataset.real_crops(tmp, np.random.default_rng(seed))


def _render(cfg: TrainConfig) -> Batch:
    chunks = max(1, cfg.workers * 4)
    jobs = [
        (
            cfg.seed * 1000 + i,
            cfg.table_scenes // chunks + (i < cfg.table_scenes % chunks),
            cfg.board_scenes // chunks + (i < cfg.board_scenes % chunks),
        )
        for i in range(chunks)
    ]
    if cfg.workers <= 1:
        parts = [_synthetic_part(j) for j in jobs]
    else:
        with ProcessPoolExecutor(cfg.workers) as pool:
            parts = list(pool.map(_synthetic_part, jobs))
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def augment(x: NDArray[np.uint8], rng: np.random.Generator) -> NDArray[np.uint8]:
    """Quarter turns and mirrors (a die face reads the same), brightness and contrast."""
    return lit(turned(x, rng), rng)


def turned(x: NDArray[ArrayT], rng: np.random.Generator) -> NDArray[ArrayT]:
    """The batch (N x H x W x planes) in one random quarter turn, mirrored half the time."""
    x = np.rot90(x, int(rng.integers(4)), axes=(1, 2))
    return x[:, :, ::-1] if rng.random() < 0.5 else x


def lit(x: NDArray[np.uint8], rng: np.random.Generator) -> NDArray[np.uint8]:
    """Each crop's brightness and contrast changed at random."""
    gain = rng.uniform(0.75, 1.25, (len(x), 1, 1, 1))
    bias = rng.uniform(-25, 25, (len(x), 1, 1, 1))
    out = np.clip(x.astype(np.float32) * gain + bias, 0, 255)
    return np.asarray(out, dtype=np.uint8)


def run(cfg: TrainConfig) -> str:
    torch.set_num_threads(max(1, min(cfg.threads, 2)))
    torch.manual_seed(cfg.seed)
    rng = np.random.default_rng(cfg.seed)
    t0 = time.time()
    (xs, ys), (xr, yr) = make_data(cfg)
    xb, yb = dataset.blender_crops(list(cfg.blender), rng) if cfg.blender else (xs[:0], ys[:0])
    t_data = time.time() - t0
    # rendered "not a die" crops far outnumber dice: keep at most ``neg_ratio`` of them per die crop
    neg = np.nonzero(ys == CLASS_NOT_DIE)[0]
    pos = np.nonzero(ys != CLASS_NOT_DIE)[0]
    neg = rng.permutation(neg)[: int(cfg.neg_ratio * len(pos)) + 1]
    sel = np.sort(np.concatenate([pos, neg]))
    xs, ys = xs[sel], ys[sel]
    # real crops count twice (they are the domain that matters most); hold out 10 % of them to watch
    n_real = len(xr)
    perm = rng.permutation(n_real)
    hold = perm[: n_real // 10]
    keep = perm[n_real // 10 :]
    x = np.concatenate([xs] + [xr[keep]] * 2 + [xb] * cfg.blender_weight)
    y = np.concatenate([ys] + [yr[keep]] * 2 + [yb] * cfg.blender_weight)
    if cfg.start is not None:
        from vision.train.finetune import load_onnx  # needs onnx, which training from scratch does not

        model: nn.Sequential = load_onnx(cfg.start)
    else:
        model = build_model()
    steps_per_epoch = max(1, len(x) // cfg.batch)
    total = steps_per_epoch * cfg.epochs if not cfg.max_steps else cfg.max_steps
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=cfg.lr, total_steps=total)
    # weight classes against their frequency so "not a die" does not swamp the values
    loss_fn = class_weighted_loss(y)

    def held_out() -> str:
        acc = _accuracy(model, xr[hold], yr[hold]) if len(hold) else float("nan")
        return f", real held-out crop accuracy {acc:.4f}"

    log = fit(model, x, y, opt, sched, loss_fn, cfg.epochs, cfg.batch, cfg.max_steps, rng, held_out)
    export(model, cfg.out)
    blender = f", {len(xb)} Blender (x{cfg.blender_weight})" if cfg.blender else ""
    return (
        f"crops: {len(xs)} rendered, {n_real} real ({len(hold)} held out){blender}; "
        f"classes {np.bincount(y, minlength=8)}"
        f"\ndata {t_data:.0f} s, training {time.time() - t0 - t_data:.0f} s\n"
        + "\n".join(log)
        + f"\nwrote {cfg.out} ({cfg.out.stat().st_size / 1024:.0f} KiB)"
    )


def fit(
    model: nn.Module,
    x: NDArray[np.uint8],
    y: NDArray[np.int64],
    opt: torch.optim.Optimizer,
    sched: torch.optim.lr_scheduler.LRScheduler,
    loss_fn: nn.Module,
    epochs: int,
    batch: int,
    max_steps: int,
    rng: np.random.Generator,
    epoch_note: Callable[[], str] = str,
    batch_input: Callable[[NDArray[np.int64], np.random.Generator], torch.Tensor] | None = None,
) -> list[str]:
    """The one training loop (from scratch and fine-tuning): shuffled batches, augmented, one scheduler step a
    batch, stopping early after ``max_steps`` (0: no limit). Returns a log line per epoch, each ending with
    ``epoch_note()`` (a held-out figure, say). ``batch_input``: the model's input for the crops at these indices
    (default: ``x``'s crops augmented and preprocessed)."""
    steps_per_epoch = max(1, len(x) // batch)
    step = 0
    log = []
    for epoch in range(epochs):
        model.train()
        order = rng.permutation(len(x))
        running = 0.0
        for b in range(steps_per_epoch):
            idx = order[b * batch : (b + 1) * batch]
            xb = batch_input(idx, rng) if batch_input else torch.from_numpy(preprocess(augment(x[idx], rng)))
            yb = torch.from_numpy(y[idx])
            opt.zero_grad()
            loss = loss_fn(model(xb), yb)
            loss.backward()
            opt.step()
            sched.step()
            running += float(loss.detach())
            step += 1
            if max_steps and step >= max_steps:
                break
        log.append(f"epoch {epoch + 1}: loss {running / max(1, b + 1):.4f}{epoch_note()}")
        print(log[-1], flush=True)
        if max_steps and step >= max_steps:
            break
    return log


def _accuracy(model: nn.Sequential, x: NDArray[np.uint8], y: NDArray[np.int64]) -> float:
    model.eval()
    with torch.no_grad():
        pred = model(torch.from_numpy(preprocess(x))).argmax(1).numpy()
    return float((pred == y).mean())


def export(model: nn.Sequential, out: Path, planes: int = 3) -> None:
    model.eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    dummy = torch.zeros(1, planes, CROP, CROP)
    torch.onnx.export(
        model,
        (dummy,),
        str(out),
        dynamo=False,
        input_names=["crops"],
        output_names=["logits"],
        dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}},
        opset_version=13,
    )


def class_weighted_loss(y: NDArray[np.int64], classes: int = len(CLASSES)) -> nn.CrossEntropyLoss:
    """Cross-entropy weighted by the inverse square root of each class's frequency, lightly smoothed.

    Rare classes (cocked dice) count more without drowning the common ones;
    training from scratch and fine-tuning use the same loss.
    """
    counts = np.bincount(y, minlength=classes).astype(np.float64)
    inverse = np.where(counts > 0, (counts.sum() / np.maximum(counts, 1)) ** 0.5, 0.0)
    weights = torch.tensor(inverse, dtype=torch.float32)
    return nn.CrossEntropyLoss(weight=weights / weights[weights > 0].mean(), label_smoothing=0.02)
