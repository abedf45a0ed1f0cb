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

import numpy as np
import torch

from vision.detector import DetectorNet
from vision.train.crop_data import colour, look_crops, stacked
from vision.train.crop_head import crop_training_arguments, fit_one_cycle, started
from vision.train.trainer import build_model, class_weighted_loss, export


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    crop_training_arguments(ap)
    ap.add_argument("--boards", type=int, default=6000, help="whole rendered board throws to cut crops from")
    ap.add_argument("--smoke", action="store_true", help="two boards, a few patches and photos, one epoch (tests)")
    args = ap.parse_args(argv)
    t0 = time.time()
    rng, data = started(args)
    if data is not None:
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
    fit_one_cycle(model, x, y, class_weighted_loss(y, 2), args, rng)
    export(model, args.out)
    print(f"wrote {args.out} in {time.time() - t0:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
