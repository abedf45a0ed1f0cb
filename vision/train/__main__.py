"""Reproduce models/dice.onnx from scratch on the CPU: ``python -m vision.train`` (needs the ``train`` extra).

Renders the synthetic scenes, cuts the real Train photos (never Valid), trains the small CNN and exports it to
ONNX. Every default is the setting the shipped model was made with; ``--smoke`` runs a few steps on a handful
of images (the CI check that the script still works).

``--finetune models/dice.onnx`` instead continues from an exported model's weights on the same data, a few
epochs at a low learning rate (with ``--blender DIR``: adding Blender training scenes). With
``--hard-negatives`` it trains on the crops that model reads wrongly on the real Train photos and on fresh
rendered scenes instead, and prints both models' figures on selection data that is not Valid
(``vision/train/finetune.py``). Write either elsewhere (``--out``) and replace the shipped file only by hand,
after ``python -m tests.vision.bench_vision --model NEW.onnx --model models/dice.onnx``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from vision.reader import DEFAULT_MODEL

REAL_TRAIN = Path(__file__).resolve().parents[2] / ".." / "shared" / "real_dice" / "webcam_white_dice" / "Train"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.train", description=__doc__)
    ap.add_argument("--table-scenes", type=int, default=3200, help="rendered desk scenes (no board)")
    ap.add_argument("--board-scenes", type=int, default=700, help="rendered whole-board scenes")
    ap.add_argument("--real", type=Path, default=REAL_TRAIN, help="folder of real labelled photos (Train split)")
    ap.add_argument("--no-real", action="store_true", help="train on rendered scenes only")
    ap.add_argument(
        "--blender",
        type=Path,
        action="append",
        default=[],
        metavar="DIR",
        help="add the Blender training scenes in DIR (python -m vision.train.blender_set --train); repeatable",
    )
    ap.add_argument("--blender-weight", type=int, default=1, help="how many times each Blender crop counts")
    ap.add_argument("--epochs", type=int, default=None, help="8 from scratch, 3 with --finetune")
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--workers", type=int, default=2, help="processes rendering scenes")
    ap.add_argument("--cache", type=Path, default=None, help="keep the rendered crops here (.npz) and reuse them")
    ap.add_argument("--out", type=Path, default=DEFAULT_MODEL)
    ap.add_argument("--smoke", action="store_true", help="a few steps on a handful of images (CI)")
    ap.add_argument(
        "--finetune",
        type=Path,
        default=None,
        metavar="MODEL.onnx",
        help="fine-tune from this exported model instead of training from scratch",
    )
    ap.add_argument(
        "--hard-negatives",
        action="store_true",
        help="with --finetune: train on the crops the model gets wrong, oversampled",
    )
    ap.add_argument("--lr", type=float, default=3e-4, help="with --finetune: the starting learning rate (cosine decay)")
    ap.add_argument("--hard-weight", type=int, default=4, help="with --finetune: repeats of each hard example")
    args = ap.parse_args(argv)
    missing = [str(d) for d in args.blender if not d.is_dir()]
    if missing:
        print(
            f"no Blender training scenes at {', '.join(missing)} (python -m vision.train.blender_set --train)",
            file=sys.stderr,
        )
        return 2
    if args.finetune is not None:
        return _finetune(args)
    return _train(args, start=None)


def _train(args: argparse.Namespace, start: Path | None) -> int:
    """From scratch (``start`` None: 8 epochs, peak learning rate 3e-3) or on from an exported model (3 epochs,
    ``--lr``)."""
    try:
        from vision.train.trainer import TrainConfig, run
    except ImportError as exc:
        print(f"training needs PyTorch (pip install -e '.[train]'): {exc}", file=sys.stderr)
        return 2
    epochs = args.epochs if args.epochs is not None else 8 if start is None else 3
    cfg = TrainConfig(
        table_scenes=args.table_scenes,
        board_scenes=args.board_scenes,
        real=None if args.no_real else args.real,
        epochs=epochs,
        batch=args.batch,
        seed=args.seed,
        threads=args.threads,
        workers=args.workers,
        cache=args.cache,
        out=args.out,
        blender=tuple(args.blender),
        blender_weight=args.blender_weight,
        start=start,
        lr=3e-3 if start is None else args.lr,
    )
    if args.smoke:
        cfg.table_scenes, cfg.board_scenes, cfg.epochs, cfg.workers, cfg.max_steps = 3, 1, 1, 1, 3
        cfg.real_limit = 4
    report = run(cfg)
    print(report)
    return 0


def _finetune(args: argparse.Namespace) -> int:
    if args.out.resolve() == args.finetune.resolve():
        print("--out must differ from the model fine-tuned from (compare first, then replace)", file=sys.stderr)
        return 2
    if not args.finetune.is_file():
        print(f"no model to fine-tune at {args.finetune}", file=sys.stderr)
        return 2
    if not args.hard_negatives:
        return _train(args, start=args.finetune)
    try:
        from vision.train.finetune import FinetuneConfig, run
    except ImportError as exc:
        print(f"fine-tuning needs PyTorch and onnx (pip install -e '.[train]'): {exc}", file=sys.stderr)
        return 2
    cfg = FinetuneConfig(
        start=args.finetune,
        out=args.out,
        real=None if args.no_real else args.real,
        seed=args.seed,
        threads=args.threads,
        workers=args.workers,
        batch=args.batch,
        lr=args.lr,
        hard_weight=args.hard_weight,
    )
    if args.epochs is not None:
        cfg.epochs = args.epochs
    if args.smoke:
        cfg.table_scenes, cfg.board_scenes, cfg.workers, cfg.max_steps, cfg.epochs = 2, 1, 1, 3, 1
        cfg.real_limit, cfg.selection_throws = 6, 1
    print(run(cfg))
    return 0


if __name__ == "__main__":
    sys.exit(main())
