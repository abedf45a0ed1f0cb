"""Reproduce the dice reader's three models from scratch on the CPU: ``python -m vision.train`` (needs the
``train`` extra). One command, so the shipped files can be remade by anyone (their data: models/MODEL_CARD.md).

In order, each step reading what the ones before wrote:
the detector (``detector_trainer``: render the patches into --cache, then two training phases),
its second stage (``crop_head``) and the cocked look (``cocked_look``), both cut at the new detector's boxes.
Roughly two and three quarter hours on a 2-core machine: the detector about 30 minutes with rendering (9, then
12 and 9 on one thread), the second stage about 45 (its crops cut, the 2,000 painted desk scenes' about 5 of
them, then 85k parameters trained on two threads), the look's crops (12,000 boards) about 60 and its training
about 15 (approximate: steps are capped by wall time too, so a very busy machine makes the same models in kind, not bit
for bit).

The models are written to --out, never to models/: compare them there with the shipped ones first
(``python -m tests.vision.bench_detector --detector OUT/detector.onnx+OUT/detector_head.onnx+OUT/cocked_look.onnx``),
then copy them in by hand. ``--smoke`` runs every step for a few steps on a handful of images: the check that
the chain still works end to end.
"""

from __future__ import annotations

import argparse
import importlib
import shlex
import sys
import tempfile
import time
from pathlib import Path

SCRATCH = Path(tempfile.gettempdir()) / "vision_train"
MODELS = Path(__file__).resolve().parents[2] / "models"
Step = tuple[str, list[str]]  # a trainer module of vision.train and its arguments


def steps(out: Path, cache: Path, smoke: bool = False) -> list[Step]:
    """The trainers' commands, in order: the shipped recipes, or (``smoke``) each trainer's own smoke run on
    the same wiring, one thread."""
    detector, phase_one = str(out / "detector.onnx"), out / "detector_phase_one.onnx"
    recipe: list[Step] = [
        ("detector_trainer", ["--render-only", "--cache", str(cache), "--parts", "4"]),
        (
            "detector_trainer",
            ["--cache", str(cache), "--leave-out", "webcam_white_dice", "--threads", "1"]
            + ["--minutes", "60", "--steps", "8000", "--out", str(phase_one)],
        ),
        (
            "detector_trainer",
            ["--cache", str(cache), "--leave-out", "webcam_white_dice", "--threads", "1"]
            + ["--minutes", "60", "--steps", "6000", "--lr", "1e-3", "--seed", "2"]
            + ["--init", str(phase_one.with_suffix(".pt")), "--out", detector],
        ),
        (
            "crop_head",
            ["--detector", detector, "--leave-out", "webcam_white_dice/Valid", "--cache", str(cache)]
            + ["--epochs", "10", "--clutter", "12000", "--oblique", "3000", "--painted", "2000", "--width", "1.5"]
            + ["--threads", "2", "--out", str(out / "detector_head.onnx")],
        ),
        (  # the shipped look's crops came from four runs of 3,000 boards (seeds 21-24): one run of as many
            "cocked_look",
            ["--detector", detector, "--boards", "12000", "--epochs", "12", "--seed", "2", "--threads", "2"]
            + ["--out", str(out / "cocked_look.onnx")],
        ),
    ]
    if smoke:  # the last of a repeated option wins
        return [(module, [*argv, "--smoke", "--threads", "1"]) for module, argv in recipe]
    return recipe


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m vision.train", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--out",
        type=Path,
        default=SCRATCH / "models",
        help="where the three models go (default %(default)s; never models/: copy them there by hand)",
    )
    ap.add_argument(
        "--cache",
        type=Path,
        default=None,
        help=f"the detector's rendered patches, kept for the next run (default {SCRATCH / 'cache'}; --smoke "
        "renders into its smoke/ folder, apart from the real patches)",
    )
    ap.add_argument("--smoke", action="store_true", help="every step for a few steps on a handful of images (CI)")
    args = ap.parse_args(argv)
    if args.out.resolve() == MODELS.resolve():
        print("--out must not be models/: compare the new models with the shipped ones, then copy", file=sys.stderr)
        return 2
    cache = args.cache or SCRATCH / "cache"
    if args.smoke:
        cache = cache / "smoke"
    t0 = time.time()
    for module, step_argv in steps(args.out, cache, args.smoke):
        print(f"\n$ python -m vision.train.{module} {shlex.join(step_argv)}", flush=True)
        try:
            trainer = importlib.import_module(f"vision.train.{module}")
        except ImportError as exc:
            print(f"training needs PyTorch (pip install -e '.[train]'): {exc}", file=sys.stderr)
            return 2
        code = int(trainer.main(step_argv))
        if code != 0:
            print(f"vision.train.{module} failed ({code}); the steps before it are done", file=sys.stderr)
            return code
    print(f"\nthe three models are in {args.out} ({(time.time() - t0) / 60:.0f} min)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
