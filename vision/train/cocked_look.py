"""Training of the cocked look: a second, wider look at each die the detector finds on a calibrated board, that
says only whether it is cocked (``models/cocked_look.onnx``, read by ``vision.detector``).

Why a model of its own: the second stage reads values from a crop round the die and calls few leaning dice
cocked (61 of 100 rendered cocked dice under 0.5 at their true boxes); no threshold or mixture of what it and the
detector say did better than trade valid throws for cocked ones. A two-class classifier on a crop 1.4 times
wider, trained on whole rendered boards cut at the detector's own boxes, halves the cocked throws accepted at the
same valid throws voided (models/MODEL_CARD.md, fifth session). Its real training dice are all flat: it is read
only with a board calibration, where the camera looks down on the board; oblique photos show a flat die's side.

Training only: the app never imports this module (torch).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import torch

from vision.detector import DetectorNet
from vision.reader import CROP
from vision.train.crop_data import colour, look_crops, stacked
from vision.train.detector_data import REAL_SETS
from vision.train.trainer import build_model, fit


def export(model: torch.nn.Module, out: Path) -> None:
    """ONNX, one output ``logits`` (flat, cocked), any batch size; opset 13 for cv2.dnn."""
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        model.eval(),
        (torch.zeros(1, 3, CROP, CROP),),
        str(out),
        dynamo=False,
        input_names=["crops"],
        output_names=["logits"],
        dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}},
        opset_version=13,
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--detector", type=Path, required=True, help="the detector whose boxes the look reads")
    ap.add_argument(
        "--leave-out",
        choices=[*REAL_SETS, "webcam_white_dice/Valid"],
        required=True,
        help="a real set (or split) kept out of training",
    )
    ap.add_argument("--cache", type=Path, required=True, help="the detector trainer's render cache")
    ap.add_argument("--boards", type=int, default=1500, help="whole rendered board throws to cut crops from")
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--crops", type=Path, help="cache of the cut crops (npz), made once per --leave-out and seed")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--smoke", action="store_true", help="two boards, a few patches and photos, one epoch (tests)")
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    t0 = time.time()
    if args.crops is not None and args.crops.is_file():
        data = np.load(args.crops)
        x, y = data["x"], data["y"]
    else:
        if args.smoke:
            args.boards, args.epochs = 2, 1
        net = DetectorNet(args.detector)
        x, y = stacked(look_crops(rng, net, args.boards, args.cache, args.leave_out, limit=3 if args.smoke else 0))
        if args.crops is not None:
            np.savez(args.crops, x=x, y=y)
    print(f"crops: {len(x)}, cocked {int(y.sum())} ({time.time() - t0:.0f} s)", flush=True)
    x, y = np.concatenate([x, colour(x, rng)]), np.concatenate([y, y])
    model = build_model()
    model[-1] = torch.nn.Linear(model[-1].in_features, 2)
    counts = np.bincount(y, minlength=2).astype(np.float64)
    weights = torch.tensor((counts.sum() / np.maximum(counts, 1)) ** 0.5, dtype=torch.float32)
    loss = torch.nn.CrossEntropyLoss(weight=weights / weights.mean(), label_smoothing=0.02)
    total = max(1, len(x) // args.batch) * args.epochs
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=total)
    fit(model, x, y, opt, sched, loss, args.epochs, args.batch, 0, rng)
    export(model, args.out)
    print(f"wrote {args.out} in {time.time() - t0:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
