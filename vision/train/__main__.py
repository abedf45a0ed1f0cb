"""Reproduce models/dice.onnx from scratch on the CPU: ``python -m vision.train`` (needs the ``train`` extra).

Renders the synthetic scenes, cuts the real Train photos (never Valid), trains the small CNN and exports it to
ONNX. Every default is the setting the shipped model was made with; ``--smoke`` runs a few steps on a handful
of images (the CI check that the script still works).
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
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--workers", type=int, default=2, help="processes rendering scenes")
    ap.add_argument("--cache", type=Path, default=None, help="keep the rendered crops here (.npz) and reuse them")
    ap.add_argument("--out", type=Path, default=DEFAULT_MODEL)
    ap.add_argument("--smoke", action="store_true", help="a few steps on a handful of images (CI)")
    args = ap.parse_args(argv)
    try:
        from vision.train.trainer import TrainConfig, run
    except ImportError as exc:
        print(f"training needs PyTorch (pip install -e '.[train]'): {exc}", file=sys.stderr)
        return 2
    cfg = TrainConfig(table_scenes=args.table_scenes, board_scenes=args.board_scenes,
                      real=None if args.no_real else args.real, epochs=args.epochs, batch=args.batch,
                      seed=args.seed, threads=args.threads, workers=args.workers, cache=args.cache, out=args.out)
    if args.smoke:
        cfg.table_scenes, cfg.board_scenes, cfg.epochs, cfg.workers, cfg.max_steps = 3, 1, 1, 1, 3
        cfg.real_limit = 4
    report = run(cfg)
    print(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
