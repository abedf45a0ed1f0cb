"""Training of the cocked look: a second, wider look at each die the detector finds on a calibrated board, that
says only whether it is cocked (``models/cocked_look.onnx``, read by ``vision.detector``).

Why a model of its own: the second stage reads values from a crop round the die and calls few leaning dice
cocked (61 of 100 rendered cocked dice under 0.5 at their true boxes); no threshold or mixture of what it and the
detector say did better than trade valid throws for cocked ones. A two-class classifier on a crop 1.4 times
wider, trained on whole rendered boards cut at the detector's own boxes, halves the cocked throws accepted at the
same valid throws voided. It also reads the slant a flat die shows at that spot of the board (``vision.slant``, a
fourth input plane): without it, the sides a camera sees of a flat die away from the point under it look like a
leaning die's. So it learns from whole rendered
boards only, whose corners give the slant, and is read only with a board calibration.

Training only: the app never imports this module (torch).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np
import torch
from numpy.typing import NDArray

from vision.detector import DetectorNet
from vision.look import PLANES, look_input
from vision.train.crop_data import colour, look_crops
from vision.train.crop_head import crop_training_arguments, fit_one_cycle, started
from vision.train.trainer import build_model, class_weighted_loss, export, lit, turned


def batches(
    x: NDArray[np.uint8], slants: NDArray[np.float32]
) -> Callable[[NDArray[np.int64], np.random.Generator], torch.Tensor]:
    """The look's training input for the crops at some indices: each crop lit at random, its slant's ramp
    beside it (``vision.look.look_input``), the four planes turned and mirrored together."""

    def batch_input(idx: NDArray[np.int64], rng: np.random.Generator) -> torch.Tensor:
        planes = turned(look_input(lit(x[idx], rng), slants[idx]), rng)
        return torch.from_numpy(np.ascontiguousarray(planes.transpose(0, 3, 1, 2), dtype=np.float32))

    return batch_input


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    crop_training_arguments(ap, real=False)
    ap.add_argument("--boards", type=int, default=6000, help="whole rendered board throws to cut crops from")
    ap.add_argument("--smoke", action="store_true", help="two boards, one epoch (tests)")
    args = ap.parse_args(argv)
    t0 = time.time()
    rng, data = started(args)
    if data is not None:
        x, y, slants = data["x"], data["y"], data["s"]
    else:
        if args.smoke:
            args.boards, args.epochs = 2, 1
        x, y, slants = look_crops(rng, DetectorNet(args.detector), args.boards)
        if args.crops is not None:
            np.savez(args.crops, x=x, y=y, s=slants)
    print(f"crops: {len(x)}, cocked {int(y.sum())} ({time.time() - t0:.0f} s)", flush=True)
    x, y, slants = np.concatenate([x, colour(x, rng)]), np.concatenate([y, y]), np.concatenate([slants, slants])
    model = build_model(PLANES, classes=2)
    fit_one_cycle(model, x, y, class_weighted_loss(y, 2), args, rng, batches(x, slants))
    export(model, args.out, PLANES)
    print(f"wrote {args.out} in {time.time() - t0:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
