"""Sure or unsure, measured: ``.venv/bin/python -m tests.vision.bench_sureness [--throws N] [--detector SPEC]``.

For each :mod:`vision.sureness` setting, with the shipped reader (or a candidate ``DETECTOR+HEAD[+LOOK]``
instead), on the rendered held-out throws (unseen seeds, dice and boards, read against the board before the
throw as the live camera does, with the true corners as the tapped calibration) and on the real labelled photos
with exactly two dice (no board: a photo is a throw with no half or frame to judge): **wrong automatic calls**
(a call without doubts whose outcome, the dice that count or a rethrow, is not the truth) and **questions
asked**, each as a share of the throws; the rendered throws also as a station with a sensing board judges them
(the checkers where the board saw them: a die read flat in the open is surely flat). A wrong call that lets
wrong dice count is the one that matters most; a needless rethrow (a valid throw voided) is shown apart.
Prints figures only.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from tests.progress import tracked
from tests.vision.bench_detector import detector_reader
from vision import DiceReader
from vision.calibration import Calibration
from vision.leaning import Checker, both_ways_round
from vision.scoring import read_labels
from vision.sources import load_image
from vision.sureness import SETTINGS, Sureness, doubts
from vision.train.heldout import HeldoutThrow, heldout_throw
from vision.verdict import ThrowObservation

ROOT = Path(__file__).resolve().parents[2]
REAL = ROOT.parent / "shared" / "real_dice"
REAL_SETS = ("webcam_white_dice/Train", "webcam_white_dice/Valid", "tray_mixed_dice/Train")
HELDOUT_KINDS = ("valid",) * 7 + ("cocked", "wrong_half", "off_board")  # seven valid throws in ten


@dataclass(frozen=True)
class Case:
    """One throw: the reading, what it should have been (sorted dice, or None for a void throw), and how to
    doubt it."""

    observation: ThrowObservation
    truth: tuple[int, ...] | None
    calibration: Calibration | None
    shape: tuple[int, ...]
    name: str = ""  # where the throw came from, to look at it again
    checkers: tuple[Checker, ...] | None = None  # where the checkers lie, when the station knows (a position)
    sensed: bool = False  # a sensing board saw them there (the renders' checkers are exact)


def outcome(observation: ThrowObservation) -> tuple[int, ...] | None:
    values = observation.values
    return None if values is None else tuple(sorted(values))


def heldout_case(reader: DiceReader, throw: HeldoutThrow) -> Case:
    """A rendered throw read as the live camera reads it: against the board before it, the true corners as
    the tapped calibration."""
    calibration = Calibration.from_corners(throw.corners)
    observation = reader.read(throw.image, calibration, throw.thrower, reference=throw.reference)
    truth = tuple(sorted(throw.values)) if throw.kind == "valid" else None
    # the checkers where a station puts them: it is not told which way round the board was set up
    return Case(observation, truth, calibration, throw.image.shape, checkers=both_ways_round(throw.checkers))


def heldout_cases(reader: DiceReader, count: int) -> list[Case]:
    return [
        heldout_case(reader, heldout_throw(index, HELDOUT_KINDS[index % len(HELDOUT_KINDS)], with_reference=True))
        for index in tracked(range(count), "rendered held-out throws")
    ]


def photo_case(reader: DiceReader, image: np.ndarray, values: Sequence[int]) -> Case:
    """A real photo of two flat dice read as one throw: no board, so no half or frame to judge."""
    return Case(reader.read(image), tuple(sorted(values)), None, image.shape)


def real_cases(reader: DiceReader) -> list[Case]:
    cases = []
    for folder in REAL_SETS:
        for path in tracked(sorted((REAL / folder).glob("*.jpg")), f"real photos {folder}"):
            image = load_image(path)
            labels = read_labels(path.with_suffix(".txt"), image.shape[1], image.shape[0])
            if len(labels) == 2:
                cases.append(photo_case(reader, image, [lab.value for lab in labels]))
    return cases


def figures(
    cases: list[Case], settings: dict[str, Sureness] = SETTINGS
) -> dict[str, tuple[float, float, float, float]]:
    """Per setting: wrong automatic calls, of them wrong dice counted, needless rethrows, questions (%)."""
    out = {}
    for name, sureness in settings.items():
        asked, wrong = calls(cases, sureness)
        wrong_dice = sum(1 for case in wrong if outcome(case.observation) is not None)
        n = max(len(cases), 1)
        out[name] = (100 * len(wrong) / n, 100 * wrong_dice / n, 100 * (len(wrong) - wrong_dice) / n, 100 * asked / n)
    return out


def calls(cases: list[Case], sureness: Sureness) -> tuple[int, list[Case]]:
    """How many throws are asked about, and the calls made without a question whose outcome (the dice that
    count, or a rethrow) is not the truth: each throw's doubts found once."""
    asked, wrong = 0, []
    for case in cases:
        if doubts(case.observation, case.calibration, case.shape, sureness, case.checkers, case.sensed):
            asked += 1
        elif outcome(case.observation) != case.truth:
            wrong.append(case)
    return asked, wrong


def confidences(cases: list[Case]) -> str:
    """The flat dice's value confidences in one line ("" when no die was read flat)."""
    values = np.array([d.confidence for c in cases for d in c.observation.dice if not d.cocked])
    if not len(values):
        return ""
    return f"die confidences: median {np.median(values):.3f}, 10th percentile {np.percentile(values, 10):.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--throws", type=int, default=400, help="rendered held-out throws (default 400)")
    parser.add_argument(
        "--detector",
        metavar="DETECTOR+HEAD[+LOOK]",
        help="read with this candidate detector, second stage (and cocked look) instead of the shipped reader",
    )
    args = parser.parse_args()
    reader = detector_reader(args.detector) if args.detector else DiceReader(threads=1)
    rendered = heldout_cases(reader, args.throws)
    sets = {"rendered held-out": rendered, "rendered, board sensed": [replace(c, sensed=True) for c in rendered]}
    if REAL.is_dir():
        sets["real two-dice photos"] = real_cases(reader)
    else:
        print(f"(no real photos at {REAL}: the rendered set only)")
    report(sets)


def report(sets: dict[str, list[Case]]) -> None:
    """Each set's figures per setting, a line each, and its dice's value confidences."""
    print(
        f"{'set':22} {'throws':>6} {'setting':10} {'wrong auto':>10} {'wrong dice':>10} {'rethrown':>9} "
        f"{'questions':>9}"
    )
    for label, cases in sets.items():
        for name, (wrong, wrong_dice, needless, asked) in figures(cases).items():
            print(
                f"{label:22} {len(cases):6d} {name:10} {wrong:9.1f}% {wrong_dice:9.1f}% {needless:8.1f}% {asked:8.1f}%"
            )
        if line := confidences(cases):
            print(f"{'':22} {line}")


if __name__ == "__main__":
    main()
