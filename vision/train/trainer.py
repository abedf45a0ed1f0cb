"""The crop classifiers' shared training pieces (the second stage, ``crop_head``, and the cocked look,
``cocked_look``): the small CNN, its one training loop with augmentation, the class-weighted loss and the ONNX
export. Training only: the app never imports this module (torch)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import numpy as np
import torch
from numpy.typing import NDArray
from torch import nn

from vision.crop_reader import CLASSES, CROP, face_contrast

ArrayT = TypeVar("ArrayT", bound=np.generic)


def build_model(planes: int = 3, classes: int = len(CLASSES), width: float = 1.0) -> nn.Sequential:
    """About 35k parameters, about 4.5 M multiply-adds a 48 px crop: small enough to read 20 crops in a few
    milliseconds on one core, and to train on two CPU threads in well under an hour. ``planes``: the input's
    (colour, or colour and the cocked look's slant); ``classes``: its outputs; ``width``: every layer's
    channels times this (1.5: about 85k parameters and twice the multiply-adds)."""
    c1, c2, c3, c4 = (max(1, round(c * width)) for c in (12, 24, 32, 64))

    def block(cin: int, cout: int) -> list[nn.Module]:
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

    return nn.Sequential(
        *block(planes, c1),
        nn.MaxPool2d(2),
        *block(c1, c2),
        nn.MaxPool2d(2),
        *block(c2, c3),
        *block(c3, c3),
        nn.MaxPool2d(2),
        *block(c3, c4),
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
        nn.Dropout(0.1),
        nn.Linear(c4, classes),
    )


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
    """The one training loop of both crop classifiers: shuffled batches, augmented, one scheduler step a
    batch, stopping early after ``max_steps`` (0: no limit). Returns a log line per epoch, each ending with
    ``epoch_note()`` (a held-out figure, say). ``batch_input``: the model's input for the crops at these indices
    (default: ``x``'s crops augmented, as the second stage reads them: ``face_contrast``)."""
    steps_per_epoch = max(1, len(x) // batch)
    step = 0
    log = []
    for epoch in range(epochs):
        model.train()
        order = rng.permutation(len(x))
        running = 0.0
        for b in range(steps_per_epoch):
            idx = order[b * batch : (b + 1) * batch]
            xb = batch_input(idx, rng) if batch_input else torch.from_numpy(face_contrast(augment(x[idx], rng)))
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


def export(model: nn.Sequential, out: Path, planes: int = 3) -> None:
    """ONNX with one output, ``logits``, any batch size; opset 13, which cv2.dnn reads too."""
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

    Rare classes (cocked dice) count more without drowning the common ones; both crop classifiers use it.
    """
    counts = np.bincount(y, minlength=classes).astype(np.float64)
    inverse = np.where(counts > 0, (counts.sum() / np.maximum(counts, 1)) ** 0.5, 0.0)
    weights = torch.tensor(inverse, dtype=torch.float32)
    return nn.CrossEntropyLoss(weight=weights / weights[weights > 0].mean(), label_smoothing=0.02)
