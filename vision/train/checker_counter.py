"""The stack counter (``models/checker_count.onnx``): how many checkers stand on one point, from its strip.

A checker of a second or third layer lies on one of the first and shows no top of its own, only a sliver of its
side and an edge a few pixels off. The classical reader finds the tops; this small network reads a point's strip
(``vision.checkers.point_strips``, straight from the frame) and says how many checkers the point holds, 0 to 15.
It learns on whole boards of the project's renderer (``vision/synth/board_render.py``) from index 100,000 on, far
from the boards the benchmark reads (0 to a few thousand). Three phases remake it, one thread, about an hour
on the busy shared machine, half of it rendering (the second phase stopped by its wall-time cap after 600 steps):

    python -m vision.train.checker_counter --boards 600 --minutes 16 --steps 1000 \\
        --cache /tmp/vision_train/strips --out /tmp/vision_train/one/checker_count.onnx
    python -m vision.train.checker_counter --boards 1000 --minutes 12 --steps 900 --lr 1e-3 \\
        --init /tmp/vision_train/one/checker_count.pt --cache /tmp/vision_train/strips \\
        --out /tmp/vision_train/two/checker_count.onnx
    python -m vision.train.checker_counter --boards 1000 --minutes 12 --steps 900 --lr 5e-4 --seed 3 --check 60 \\
        --init /tmp/vision_train/two/checker_count.pt --cache /tmp/vision_train/strips \\
        --out /tmp/vision_train/checker_count.onnx
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from vision.calibration import Calibration
from vision.checkers import STRIP, point_strips, strip_input
from vision.synth.board_render import render_board

FIRST_BOARD = 100_000  # the benchmark reads boards 0 to a few thousand: never these
CLASSES = 16  # 0 to 15 checkers on a point
CHECK_BOARD = 200_000  # the counter's own check: boards neither it nor the benchmark reads
PART = 100  # boards rendered into one cache file
TAP = 3.0  # corners moved up to this many frame pixels, as a referee taps them


def render_strips(boards: int, first: int, seed: int = 0) -> tuple[NDArray[np.uint8], NDArray[np.int64]]:
    """Every point with a checker on it, and one empty point in six, of ``boards`` rendered boards."""
    rng = np.random.default_rng(seed)
    strips: list[NDArray[np.uint8]] = []
    labels: list[int] = []
    for index in range(first, first + boards):
        image, truth = render_board(index)
        corners = np.asarray(truth.corners, np.float64) + rng.uniform(-TAP, TAP, (4, 2))
        calibration = Calibration.from_corners(corners)
        slots = [s for s, n in enumerate(truth.points) if n or rng.random() < 1 / 6]
        strips.extend(point_strips(image, calibration, slots))
        labels.extend(abs(truth.points[s]) for s in slots)
    return np.asarray(strips, np.uint8).reshape(-1, STRIP[1], STRIP[0], 3), np.asarray(labels, np.int64)


def build_model() -> object:
    import torch
    from torch import nn

    class Counter(nn.Module):
        """Four convolutions with pooling down the strip, then a small classifier over the 16 counts."""

        def __init__(self) -> None:
            super().__init__()
            layers: list[nn.Module] = [  # a 5x5 look at full resolution keeps the few pixels a layer is off
                nn.Conv2d(3, 16, 5, stride=2, padding=2),
                nn.BatchNorm2d(16),
                nn.ReLU(),
                nn.MaxPool2d(2),
            ]
            for a, b in ((16, 32), (32, 48), (48, 64)):
                layers += [nn.Conv2d(a, b, 3, padding=1), nn.BatchNorm2d(b), nn.ReLU(), nn.MaxPool2d(2)]
            self.features = nn.Sequential(*layers)  # 256 x 64 -> 8 x 2
            self.head = nn.Sequential(nn.Flatten(), nn.Linear(64 * 8 * 2, 96), nn.ReLU(), nn.Linear(96, CLASSES))

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.head(self.features(x))  # type: ignore[no-any-return]

    return Counter()


def train(
    strips: NDArray[np.uint8],
    labels: NDArray[np.int64],
    minutes: float,
    steps: int,
    out: Path,
    seed: int,
    init: Path | None = None,
    lr: float = 3e-3,
) -> None:
    import torch
    from torch import nn

    torch.manual_seed(seed)
    torch.set_num_threads(1)
    rng = np.random.default_rng(seed)
    model = build_model()
    assert isinstance(model, nn.Module)
    if init is not None:  # a second phase goes on from the first one's weights
        model.load_state_dict(torch.load(init))
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.15)
    # the rare tall stacks weigh as much as the common short ones; the reader asks the counter about rows of five
    counts = np.bincount(labels, minlength=CLASSES).astype(np.float64)
    weight = 1 / np.maximum(counts, 1)[labels] * np.where(labels >= 4, 1.0, 0.3)
    weight /= weight.sum()
    start = time.monotonic()
    model.train()
    for step in range(steps):
        if time.monotonic() - start > minutes * 60:
            print(f"stopped by the clock at step {step}")
            break
        pick = rng.choice(len(labels), 48, p=weight)
        batch = strips[pick]
        if rng.random() < 0.5:
            batch = batch[:, :, ::-1]  # a mirrored point holds as many checkers
        shift = int(rng.integers(-3, 4))
        batch = np.roll(batch, shift, axis=2)
        gain = rng.uniform(0.8, 1.2, (len(pick), 1, 1, 3))
        batch = np.clip(batch * gain, 0, 255).astype(np.uint8)
        x = torch.from_numpy(strip_input(batch))
        y = torch.from_numpy(labels[pick])
        loss = nn.functional.cross_entropy(model(x), y, label_smoothing=0.02)
        opt.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call]
        opt.step()
        sched.step()
        if step % 200 == 0:
            print(f"step {step} loss {loss.item():.3f} {time.monotonic() - start:.0f}s", flush=True)
    model.eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.save(model.state_dict(), out.with_suffix(".pt"))
    torch.onnx.export(
        model,
        (torch.zeros(1, 3, STRIP[1], STRIP[0]),),
        str(out),
        dynamo=False,
        input_names=["strips"],
        output_names=["logits"],
        dynamic_axes={"strips": {0: "n"}, "logits": {0: "n"}},
        opset_version=13,
    )


def check(model: Path, boards: int, first: int) -> None:
    """The counter on rendered boards it never saw (from ``first`` on): per height, how many strips, how many read
    right, and how many read wrong with a probability of ``COUNT_SURE`` or more (the ones the sum rules must catch)."""
    from vision.checkers import COUNT_SURE, OnnxStackCounter

    counter = OnnxStackCounter(model)
    strips, labels = render_strips(boards, first, seed=99)
    probs = counter.probabilities(strips)
    read = probs.argmax(axis=1)
    sure = probs.max(axis=1) >= COUNT_SURE
    print(
        f"{len(labels)} strips of {boards} boards from {first}: {np.mean(read == labels):.1%} right, "
        f"{np.mean(sure):.1%} sure, {int(np.sum(sure & (read != labels)))} sure and wrong"
    )
    for n in range(CLASSES):
        at = labels == n
        if at.any():
            print(
                f"  {n:2d}: {int(at.sum()):5d} strips, {np.mean(read[at] == n):6.1%} right, "
                f"{np.mean(sure[at]):6.1%} sure, {int(np.sum(sure[at] & (read[at] != n)))} sure and wrong"
            )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--boards", type=int, default=2400, help="rendered boards to learn from")
    ap.add_argument("--first", type=int, default=FIRST_BOARD, help="the first board's index")
    ap.add_argument("--cache", type=Path, default=None, help="keep the rendered strips in this folder (and reuse them)")
    ap.add_argument("--render-only", action="store_true")
    ap.add_argument("--minutes", type=float, default=20.0, help="stop training after this long")
    ap.add_argument("--steps", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--init", type=Path, default=None, help="start from these weights (.pt of an earlier run)")
    ap.add_argument("--lr", type=float, default=3e-3, help="the highest learning rate of the one-cycle schedule")
    ap.add_argument("--check", type=int, default=0, metavar="N", help="then read N unseen boards' strips")
    ap.add_argument("--out", type=Path, default=Path("/tmp/vision_train/checker_count.onnx"))
    args = ap.parse_args(argv)
    if args.cache is None:
        strips, labels = render_strips(args.boards, args.first, args.seed)
    else:  # rendered in parts of PART boards, each kept: a stopped run goes on where it stopped
        args.cache.mkdir(parents=True, exist_ok=True)
        parts = []
        for k, first in enumerate(range(args.first, args.first + args.boards, PART)):
            path = args.cache / f"strips_{first}.npz"
            if not path.is_file():
                s, n = render_strips(min(PART, args.first + args.boards - first), first, args.seed + k)
                np.savez(path, strips=s, labels=n)
                print(f"rendered {path}", flush=True)
            parts.append(np.load(path))
        strips = np.concatenate([p["strips"] for p in parts])
        labels = np.concatenate([p["labels"] for p in parts])
    print(f"{len(labels)} strips; per count: {np.bincount(labels, minlength=CLASSES).tolist()}", flush=True)
    if not args.render_only:
        train(strips, labels, args.minutes, args.steps, args.out, args.seed, args.init, args.lr)
    if args.check:
        check(args.out, args.check, CHECK_BOARD)
    return 0


if __name__ == "__main__":
    sys.exit(main())
