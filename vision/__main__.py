"""Command line of the dice reader.

    python -m vision read --json [--all] IMAGE...     one JSON line per image
    python -m vision watch SOURCE --json              one JSON line per settled throw
    python -m vision fairness THROWS.jsonl            chi-square tests of the dice in a record of throws
    python -m vision check-setup SOURCE [--corners]   is this camera set-up good enough? what to change
    python -m vision markers OUT.png                  the four board-corner markers to print (then --markers)
    python -m vision checkers --json --corners "x,y x,y x,y x,y" --bottom-colour light|dark IMAGE
                                                      where the checkers stand (docs/checkers.md)

``read`` and ``watch`` read with the learned detector (models/detector.onnx), its second stage and, on a
calibrated board, its cocked look (models/MODEL_CARD.md); ``--profile`` adds what was learned of the match dice.

Bad input (a missing, empty or corrupt image, a camera that will not open) gives a clear message on that
image's line (``{"image": ..., "error": ...}``) and the run goes on; the exit status is 1 if any input failed.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.adapt import AdaptedClassifier, DiceProfile, FeatureReader, Said, examples
from vision.annotate import annotate
from vision.calibration import Calibration, detect_board, parse_corners
from vision.checkers import read_position
from vision.detector import COCKED_SURE, DEFAULT_DETECTOR, DEFAULT_HEAD, READABLE_FROM, DiceReader
from vision.errors import VisionError
from vision.fairness import FairnessMonitor
from vision.fairness_picture import fairness_picture
from vision.markers import calibrate_from_markers, marker_sheet
from vision.reader import OnnxModel
from vision.settle import watch
from vision.setupcheck import Grade, check_source
from vision.sources import load_image, open_source
from vision.verdict import ThrowObservation


def _add_common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="JSON lines (the stable machine contract)")
    p.add_argument("--corners", help='board corners in image pixels: "x,y x,y x,y x,y" (manual calibration)')
    p.add_argument("--auto-corners", action="store_true", help="find the board's corners automatically")
    p.add_argument(
        "--markers",
        action="store_true",
        help="find the board's corners from its four printed corner markers (python -m vision markers)",
    )
    p.add_argument(
        "--thrower",
        choices=("bottom", "top"),
        default="bottom",
        help="who threw: the player at the bottom or the top of the image",
    )
    p.add_argument(
        "--profile",
        type=Path,
        help="a dice profile (vision.adapt, python -m vision learn-dice) learned from confirmed throws of these dice",
    )
    p.add_argument("--model", type=Path, help=f"the detector's model file (default {DEFAULT_DETECTOR.name})")
    p.add_argument(
        "--backend",
        choices=("onnxruntime", "opencv"),
        default=None,
        help="default: onnxruntime where installed, else OpenCV's cv2.dnn (the same answers)",
    )
    p.add_argument("--threads", type=int, default=1)
    p.add_argument(
        "--min-confidence",
        type=float,
        default=READABLE_FROM,
        help=f"below this a die is unreadable (never guessed); default {READABLE_FROM}",
    )
    p.add_argument(
        "--cocked-from",
        type=float,
        default=COCKED_SURE,
        help="the model's cocked probability from which a die is called cocked; lower voids more "
        "cocked throws and more valid ones (tests.vision.bench_vision --only cocked prints the trade-off)",
    )


def _text(obs: ThrowObservation) -> str:
    dice = ", ".join(
        f"{'?' if d.value is None else d.value}{' (cocked)' if d.cocked else ''} {d.confidence:.2f} at {list(d.box)}"
        for d in obs.dice
    )
    head = "dice" if obs.verdict is None else (obs.verdict if obs.reason is None else f"void ({obs.reason})")
    return f"{obs.source}: {head}: {dice or 'no dice'}"


def _found_calibration(args: argparse.Namespace, image: NDArray[np.uint8]) -> Calibration | None:
    """The board found in the picture, by its corner markers or its outline, as the options ask."""
    if args.markers:
        return calibrate_from_markers(image)
    return detect_board(image) if args.auto_corners else None


def cmd_markers(args: argparse.Namespace) -> int:
    if not cv2.imwrite(str(args.out), marker_sheet(args.mm, args.dpi)):
        raise VisionError(f"{args.out}: cannot write the marker sheet (use .png)")
    print(f"{args.out}: four {args.mm:.0f} mm corner markers at {args.dpi} dpi; print at 100 %")
    return 0


def _reader(args: argparse.Namespace) -> DiceReader:
    adapted = None
    if args.profile is not None:
        features = FeatureReader(OnnxModel(DEFAULT_HEAD, args.backend, args.threads))
        adapted = AdaptedClassifier(features, DiceProfile.load(args.profile))
    return DiceReader(
        args.model or DEFAULT_DETECTOR,
        args.backend,
        args.threads,
        min_confidence=args.min_confidence,
        cocked_from=args.cocked_from,
        classifier=adapted,
    )


def cmd_read(args: argparse.Namespace) -> int:
    reader = _reader(args)
    failed = 0
    fixed = parse_corners(args.corners) if args.corners else None
    drawn: set[str] = set()
    for path in args.images:
        try:
            image = load_image(path)
            cal = None
            if args.all:
                obs = reader.read_all(image, source=path)
            else:
                cal = fixed if fixed is not None else _found_calibration(args, image)
                obs = reader.read(image, cal, args.thrower, source=path)
            line = json.dumps(obs.to_json()) if args.json else _text(obs)
            if args.annotate is not None:
                _write_annotated(args.annotate, path, annotate(image, obs, cal), drawn)
        except (VisionError, cv2.error, MemoryError, RecursionError) as exc:  # this image only: the run goes on
            failed += 1
            text = str(exc) if isinstance(exc, VisionError) else f"{path}: cannot be read ({_first_line(exc)})"
            line = json.dumps({"image": path, "error": text}) if args.json else f"{path}: error: {text}"
        print(line, flush=True)
    return 1 if failed else 0


def _write_annotated(folder: Path, source: str, picture: NDArray[np.uint8], taken: set[str]) -> None:
    """``folder/NAME.png`` for the picture ``NAME.*`` (``NAME-2.png``... when two pictures share a name)."""
    folder.mkdir(parents=True, exist_ok=True)
    stem, n = Path(source).stem, 1
    name = f"{stem}.png"
    while name in taken:
        n += 1
        name = f"{stem}-{n}.png"
    taken.add(name)
    if not cv2.imwrite(str(folder / name), picture):
        raise VisionError(f"{folder / name}: cannot write the annotated picture")


def _first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return (lines[-1] if lines else type(error).__name__)[:200]


def cmd_watch(args: argparse.Namespace) -> int:
    reader = _reader(args)
    source = open_source(args.source, fps=args.fps)
    frames = source.frames()
    calibration = parse_corners(args.corners) if args.corners else None
    if (args.auto_corners or args.markers) and calibration is None:
        first = next(frames, None)
        if first is None:
            raise VisionError(f"{args.source}: no frames")
        calibration = _found_calibration(args, first.image)
    throws = 0
    try:
        for obs in watch(frames, reader, calibration, args.thrower, args.still_ms / 1000):
            throws += 1
            print(json.dumps(obs.to_json()) if args.json else _text(obs), flush=True)
    finally:
        source.close()
    errors = getattr(source, "errors", [])
    for err in errors:
        print(json.dumps({"error": err}) if args.json else f"error: {err}", flush=True)
    if not throws:
        print(f"{args.source}: no settled throw seen", file=sys.stderr)
    return 1 if errors or not throws else 0


def cmd_fairness(args: argparse.Namespace) -> int:
    monitor = FairnessMonitor(alpha=args.alpha, distinguishable=not args.pooled)
    with open(args.throws, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            line = line.strip()
            if not line:
                continue
            try:
                rec = json.loads(line)
                if isinstance(rec, dict):
                    if rec.get("verdict") != "valid":
                        continue
                    values = [d["value"] for d in rec["dice"]]
                else:
                    values = list(rec)
                monitor.add(int(values[0]), int(values[1]))
            except (ValueError, KeyError, TypeError, IndexError) as exc:
                print(f"{args.throws}:{n}: skipped ({exc})", file=sys.stderr)
    report = monitor.report()
    if args.picture is not None and not cv2.imwrite(str(args.picture), fairness_picture(monitor.face_counts())):
        raise VisionError(f"{args.picture}: cannot write the picture (use .png)")
    if not any(r.throws for r in report.results):
        print(f"{args.throws}: no valid throw to judge", file=sys.stderr)
        return 1
    for r in report.results:
        note = "LOOKS LOADED" if r.flagged else ("ok" if r.enough else "too few throws to judge")
        unit = "throws" if r.name == "pair" else "values"
        print(f"{r.name}: {r.throws} {unit}, chi2 {r.statistic:.2f}, p {r.p_value:.4g}: {note}")
    return 3 if report.flagged else 0


def _confirmed(text: str) -> list[Said]:
    values: list[Said] = []
    for part in text.split(","):
        if part.strip().lower() == "x":
            values.append(None)
        elif part.strip().lower() == "c":
            values.append("cocked")
        elif part.strip().isdigit():
            values.append(int(part))
        else:
            raise VisionError(f"{text!r}: give one value a die, 1-6, c for a cocked die or x for no die")
    return values


def cmd_learn_dice(args: argparse.Namespace) -> int:
    """Add confirmed throws to a dice profile (created if new): each IMAGE=VALUES names the value of every die
    the reader finds there, left to right."""
    profile = DiceProfile.load(args.profile) if args.profile.is_file() else DiceProfile(args.name or args.profile.stem)
    features = FeatureReader(OnnxModel(DEFAULT_HEAD, args.backend, 1))
    learner = AdaptedClassifier(features, profile)
    reader = DiceReader(threads=1, backend=args.backend, classifier=learner)
    failed = 0
    for item in args.throws:
        path, sep, text = item.rpartition("=")
        try:
            if not sep:
                raise VisionError(f"{item!r}: write IMAGE=VALUES, say photo.jpg=3,5")
            image = load_image(path)
            read = reader.read_all(image)
            dice = read.dice
            learner.confirm(*examples(image, dice, _confirmed(text), read.not_dice))
            print(f"{path}: learned {len(dice)} dice")
        except VisionError as exc:
            failed += 1
            where = "" if str(exc).startswith(path) else f"{path}: "
            print(f"error: {where}{exc}", file=sys.stderr)
    profile.save(args.profile)
    others = profile.examples - profile.dice
    print(
        f"{args.profile}: {profile.dice} confirmed dice of {profile.name!r}"
        + (f", {others} not a die" if others else "")
    )
    return 1 if failed else 0


def cmd_check_setup(args: argparse.Namespace) -> int:
    """Exit 0 for a good set-up, 1 for a borderline one, 3 for one not good enough."""
    report = check_source(
        int(args.source) if args.source.isdigit() else args.source,
        parse_corners(args.corners) if args.corners else None,
    )
    print(json.dumps(report.to_dict()) if args.json else report.text())
    return {Grade.GOOD: 0, Grade.BORDERLINE: 1, Grade.NOT_GOOD: 3}[report.grade]


def _dice_boxes(image: NDArray[np.uint8], calibration: Calibration) -> list[tuple[int, int, int, int]]:
    """Where the dice lie: a pale die among pale checkers can pass for a checker's top."""
    return [d.box for d in DiceReader(threads=1).dice(image, calibration)]


def cmd_checkers(args: argparse.Namespace) -> int:
    """One position read from one picture of a calibrated board; bad input is an error (exit 2), not a reading."""
    calibration = parse_corners(args.corners)
    image = load_image(args.image)
    try:
        reading = read_position(image, calibration, args.bottom_colour, lambda: _dice_boxes(image, calibration))
    except (cv2.error, MemoryError) as exc:
        raise VisionError(f"{args.image}: cannot be read ({_first_line(exc)})") from None
    if args.json:
        print(json.dumps(reading.to_json()))
    else:
        print(f"points {list(reading.points)} bar {list(reading.bar)} off {list(reading.off)}")
        print("sure" if reading.sure else "unsure: " + "; ".join(reading.doubts))
    return 0


def parser() -> argparse.ArgumentParser:
    """Every command and its options."""
    ap = argparse.ArgumentParser(prog="python -m vision", description="Read dice from camera frames.")
    sub = ap.add_subparsers(dest="command", required=True)
    r = sub.add_parser("read", help="read dice in still images")
    _add_common(r)
    r.add_argument("--all", action="store_true", help="every die in the image, any number, no verdict")
    r.add_argument(
        "--annotate",
        type=Path,
        metavar="OUT_DIR",
        help="also write each picture with its board, boxes, values and verdict drawn into OUT_DIR",
    )
    r.add_argument("images", nargs="+", metavar="IMAGE")
    r.set_defaults(func=cmd_read)
    w = sub.add_parser("watch", help="watch a camera, video or image folder; one line per settled throw")
    _add_common(w)
    w.add_argument("source", metavar="SOURCE", help="camera index, video file, image folder or image file")
    w.add_argument("--still-ms", type=float, default=150.0, help="stillness that ends a throw (ms)")
    w.add_argument("--fps", type=float, default=30.0, help="frame rate assumed for image folders")
    w.set_defaults(func=cmd_watch)
    f = sub.add_parser("fairness", help="chi-square tests of the dice in a file of throws")
    f.add_argument("throws", help="JSON lines: `read`/`watch` output or [d1, d2] pairs")
    f.add_argument("--alpha", type=float, default=0.001)
    f.add_argument("--pooled", action="store_true", help="the two dice cannot be told apart")
    f.add_argument("--picture", type=Path, metavar="OUT.png", help="also draw each die's face counts and the fair band")
    f.set_defaults(func=cmd_fairness)
    m = sub.add_parser("markers", help="write the sheet of four board-corner markers to print")
    m.add_argument("out", type=Path, metavar="OUT.png")
    m.add_argument("--mm", type=float, default=40.0, help="each marker's side in millimetres")
    m.add_argument("--dpi", type=int, default=300)
    m.set_defaults(func=cmd_markers)
    lr = sub.add_parser("learn-dice", help="learn the match dice from confirmed throws (a profile for --profile)")
    lr.add_argument("--profile", type=Path, required=True, metavar="PROFILE.json", help="created or extended")
    lr.add_argument("--name", help="the dice set's name (default: the profile's file name)")
    lr.add_argument("--backend", choices=("onnxruntime", "opencv"), default=None)
    lr.add_argument(
        "throws",
        nargs="+",
        metavar="IMAGE=VALUES",
        help="a photo and the value of each die in it, left to right (c: cocked, x: not a die)",
    )
    lr.set_defaults(func=cmd_learn_dice)
    c = sub.add_parser("check-setup", help="is this camera set-up good enough to referee with? what to change")
    c.add_argument("source", metavar="SOURCE", help="camera index, video file or a picture from the camera")
    c.add_argument("--corners", help='board corners in image pixels: "x,y x,y x,y x,y" (default: found)')
    c.add_argument("--json", action="store_true", help="one JSON object")
    c.set_defaults(func=cmd_check_setup)
    k = sub.add_parser("checkers", help="read where the checkers stand on a calibrated board (one JSON object)")
    k.add_argument("image", metavar="IMAGE")
    k.add_argument("--corners", required=True, help='the board\'s outer corners in image pixels: "x,y x,y x,y x,y"')
    k.add_argument(
        "--bottom-colour",
        choices=("light", "dark"),
        required=True,
        help="whether the player at the image's bottom plays the lighter or the darker checkers",
    )
    k.add_argument("--json", action="store_true", help="one JSON object: points, bar, off, sure")
    k.set_defaults(func=cmd_checkers)
    return ap


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return int(args.func(args))
    except VisionError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
