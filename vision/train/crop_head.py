"""Training of the detector's second stage, the crop reader: every die the detector finds is cut from the full
frame and read by a small classifier (value 1-6, cocked, not a die), trained here with one real set left out.

Why a second stage: the detector finds dice well (few missed on every set) but its dense value head, trained
on 128 px patches on a CPU, reads values badly and invents dice on clutter. Cutting each found die at full
resolution and reading it at one scale lets every real die crop teach the values, and lets the detector's own
false peaks on training photos (pieces of dice, buttons, the doubling cube, checkers) be learned as "not a
die": hard negatives a hand-written proposer never gives. Crops are learned as they are read, in their face's
colours (``vision.crop_reader.face_contrast``, the training loop's default input).

Training only: the app never imports this module (torch).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import torch

from vision.crop_reader import CLASS_NOT_DIE, CROP
from vision.reader import DetectorNet
from vision.train.crop_data import (
    Crop,
    blender_desk_crops,
    board_crops,
    clutter_crop,
    colour,
    oblique_crops,
    painted_crops,
    real_crops,
    rendered_crops,
    stacked,
    varied_painted_crops,
)
from vision.train.detector_data import REAL_SETS
from vision.train.trainer import build_model, class_weighted_loss, fit


class WithFeatures(torch.nn.Module):
    """The classifier with a second output, the features its last layer reads (what ``vision.adapt`` learns
    the match dice on)."""

    def __init__(self, model: torch.nn.Sequential):
        super().__init__()
        self.body = model[:-2]  # up to the flattened pooled features
        self.last = model[-1]

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        f = self.body(x)
        return self.last(f), f


def export(model: torch.nn.Sequential, out: Path) -> None:
    """ONNX with two outputs, ``logits`` and ``features``, any batch size; opset 13 for cv2.dnn."""
    wrapped = WithFeatures(model).eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        wrapped,
        (torch.zeros(1, 3, CROP, CROP),),
        str(out),
        dynamo=False,
        input_names=["crops"],
        output_names=["logits", "features"],
        dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}, "features": {0: "n"}},
        opset_version=13,
    )


def crop_training_arguments(ap: argparse.ArgumentParser, real: bool = True) -> None:
    """The arguments every crop classifier's trainer takes (this one and ``vision.train.cocked_look``);
    ``real``: it also learns from the real sets (one left out) and the detector's render cache."""
    ap.add_argument("--detector", type=Path, required=True, help="the detector trained without --leave-out")
    if real:
        ap.add_argument(
            "--leave-out",
            choices=[*REAL_SETS, "webcam_white_dice/Valid"],
            required=True,
            help="a real set (or split) kept out of training",
        )
        ap.add_argument("--cache", type=Path, required=True, help="the detector trainer's render cache")
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--crops", type=Path, help="cache of the cut crops (npz), made once per --leave-out")
    ap.add_argument("--out", type=Path, required=True)


def started(args: argparse.Namespace) -> tuple[np.random.Generator, dict[str, np.ndarray] | None]:
    """Threads and seeds set from a crop trainer's ``args``; its random generator, and the crops already cut
    (``--crops`` when the file exists, else None)."""
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    if args.crops is not None and args.crops.is_file():
        with np.load(args.crops) as data:
            return rng, {name: data[name] for name in data.files}
    return rng, None


def fit_one_cycle(
    model: torch.nn.Module,
    x: np.ndarray,
    y: np.ndarray,
    loss: torch.nn.Module,
    args: argparse.Namespace,
    rng: np.random.Generator,
    batch_input: Callable[[np.ndarray, np.random.Generator], torch.Tensor] | None = None,
) -> None:
    """AdamW under a one-cycle schedule to ``args.lr``, ``args.epochs`` epochs of ``args.batch`` crops (made
    into the model's input by ``batch_input``, see ``vision.train.trainer.fit``)."""
    total = max(1, len(x) // args.batch) * args.epochs
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=total)
    fit(model, x, y, opt, sched, loss, args.epochs, args.batch, 0, rng, batch_input=batch_input)


def kept_crops(
    args: argparse.Namespace,
    kind: str,
    count: int,
    stream: int,
    cut: Callable[[np.random.Generator, DetectorNet, int], list[Crop]],
) -> tuple[np.ndarray, np.ndarray]:
    """``cut``'s crops of ``count`` rendered scenes (its own random ``stream`` of the seed, at ``--detector``'s
    boxes), stacked; from the render cache when a run before made them (a smoke run cuts two scenes' worth and
    keeps nothing)."""
    kept = args.cache / f"{kind}_crops_{count}_{args.seed}.npz"
    if kept.is_file() and not args.smoke:
        with np.load(kept) as data:
            return data["x"], data["y"]
    x, y = stacked(
        cut(np.random.default_rng([args.seed, stream]), DetectorNet(args.detector), 2 if args.smoke else count)
    )
    if not args.smoke:
        np.savez(kept, x=x, y=y)
    return x, y


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    crop_training_arguments(ap)
    ap.add_argument("--rendered", type=int, default=6000, help="rendered patches to cut crops from")
    ap.add_argument("--boards", type=int, default=0, help="whole rendered board throws to cut crops from")
    ap.add_argument("--clutter", type=int, default=6000, help="procedural clutter crops (not a die)")
    ap.add_argument("--oblique", type=int, default=0, help="desk scenes seen at a slant to cut crops from")
    ap.add_argument("--painted", type=int, default=0, help="desk scenes with dice painted as club dice come")
    ap.add_argument("--varied-pips", action="store_true", help="--painted dice with pips of any size and spacing")
    ap.add_argument(
        "--blender-desk",
        type=Path,
        nargs="+",
        default=[],
        help="folders of Blender desk scenes (python -m vision.train.blender_set --desk) to cut crops from",
    )
    ap.add_argument(
        "--station",
        type=Path,
        action="append",
        default=[],
        metavar="FOLDER",
        help="a station's kept throws (app.table.throw_photos): those people labelled, learned as a real set",
    )
    ap.add_argument("--width", type=float, default=1.0, help="the model's channels times this (trainer.build_model)")
    ap.add_argument("--smoke", action="store_true", help="a few crops and one short epoch (tests)")
    args = ap.parse_args(argv)
    t0 = time.time()
    rng, data = started(args)
    if data is not None:
        xr, yr, xs, ys = data["xr"], data["yr"], data["xs"], data["ys"]
    else:
        net = DetectorNet(args.detector)
        if args.smoke:
            args.rendered, args.clutter, args.epochs = 8, 64, 1
        real = real_crops(rng, net, args.leave_out, per_die=3, limit=3 if args.smoke else 0, stations=args.station)
        print(f"real crops: {len(real)} ({time.time() - t0:.0f} s)", flush=True)
        rendered = rendered_crops(rng, net, args.cache, args.rendered)
        print(f"rendered crops: {len(rendered)} ({time.time() - t0:.0f} s)", flush=True)
        xr, yr = stacked(real)
        xs, ys = stacked(rendered)
        if args.crops is not None:
            np.savez(args.crops, xr=xr, yr=yr, xs=xs, ys=ys)
    # the rendered boards and the slanted desk scenes do not depend on the real set left out: made once, kept in
    # the render cache
    for kind, count, stream, cut in (
        ("board", args.boards, 2, board_crops),
        ("oblique", args.oblique, 7, oblique_crops),
        ("painted_varied", args.painted, 11, varied_painted_crops)
        if args.varied_pips
        else ("painted", args.painted, 11, painted_crops),
    ):
        if count:
            xk, yk = kept_crops(args, kind, count, stream, cut)
            print(f"{kind} crops: {len(xk)} ({time.time() - t0:.0f} s)", flush=True)
            xs, ys = np.concatenate([xs, xk]), np.concatenate([ys, yk])
    if args.blender_desk:
        xk, yk = stacked(
            blender_desk_crops(np.random.default_rng([args.seed, 17]), DetectorNet(args.detector), args.blender_desk)
        )
        print(f"blender desk crops: {len(xk)} ({time.time() - t0:.0f} s)", flush=True)
        xs, ys = np.concatenate([xs, xk]), np.concatenate([ys, yk])
    clutter = np.stack([clutter_crop(rng) for _ in range(args.clutter)]) if args.clutter else xs[:0]
    x = np.concatenate([xs, xr, colour(xr, rng), colour(xr, rng), colour(clutter, rng)])
    y = np.concatenate([ys, yr, yr, yr, np.full(len(clutter), CLASS_NOT_DIE, np.int64)])
    print(f"training on {len(x)} crops, classes {np.bincount(y, minlength=8).tolist()}", flush=True)
    model = build_model(width=args.width)
    fit_one_cycle(model, x, y, class_weighted_loss(y), args, rng)
    export(model, args.out)
    print(f"wrote {args.out} in {time.time() - t0:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
