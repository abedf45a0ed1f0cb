"""Is a second stage's confidence honest? ``.venv/bin/python -m tests.vision.bench_calibration [--heads H,H]
[--matches M] [--throws N] [--photos SET ...] [--temperatures T,T,...]``.

A call is automatic when the die's value is read at a setting's floor or more (``vision.sureness``: 0.95 in
tournaments, 0.8 casual), so a second stage that is surer than it is right lets wrong values through, and one
less sure than it is right asks needlessly. Here each second stage (``--heads``) reads the dice the shipped
detector finds, as the reader cuts them (in every turn), and its logits are divided by each temperature T before
the softmax: T above 1 would make it less sure. For each T: the negative log-likelihood of the true class (all
eight classes; the six values for the flat dice: the lower, the more honest), the flat dice read wrong at all
and at each floor or more, the flat dice read under the tournament floor (asked about), and the dice and
not-dice the second stage drops as not a die. The temperature of least likelihood is the one that makes the
confidence honest on those dice: below 1 the second stage is less sure than it is right there.

Two kinds of dice: the held-out matches' throws (``--matches`` from match 80, the split the sureness bands were
chosen on, ``--throws`` each, read against the frame before the throw with the true corners), and real photo
sets (``--photos``, read as photos, labelled; a set a head trained on says little about it). Prints figures only.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from tests.progress import tracked
from tests.vision.bench_adapt import class_of, labelled_in, scenes_of
from tests.vision.bench_match import lying_at
from tests.vision.bench_sureness import HELDOUT_KINDS
from vision import DiceReader
from vision.adapt import label_of
from vision.calibration import Calibration
from vision.crop_reader import CLASS_NOT_DIE, OnnxReader, every_turn, softmax
from vision.reader import DEFAULT_HEAD, HEAD_NOT_DIE, moved_in, second_stage_crops
from vision.rectify import board_view
from vision.sureness import CASUAL, TOURNAMENT
from vision.train.heldout import heldout_match_throw

TUNING_MATCHES = 80
"""The first held-out match of the split no figure is read from (``vision.sureness.COCKED_SURE_FROM``)."""


@dataclass(frozen=True)
class Found:
    """The dice one detector found in one picture, as the second stage reads them, and what each truly is."""

    crops: NDArray[np.uint8]
    classes: NDArray[np.int64]  # 0-5 a flat die's value - 1, CLASS_COCKED, or CLASS_NOT_DIE


class Tempered:
    """A second stage whose logits are divided by ``temperature`` (read in every turn as the reader does)."""

    def __init__(self, reader: OnnxReader, temperature: float):
        self.reader = reader
        self.temperature = temperature

    def planes(self, crops: NDArray[np.uint8]) -> NDArray[np.float32]:
        return self.reader.planes(crops)

    def probabilities_of(self, planes: NDArray[np.float32]) -> NDArray[np.float32]:
        return softmax(np.asarray(self.reader.logits_of(planes) / self.temperature, np.float32))

    def probabilities(self, crops: NDArray[np.uint8]) -> NDArray[np.float32]:
        return self.probabilities_of(self.planes(crops))


def match_dice(reader: DiceReader, matches: int, throws: int) -> Iterator[Found]:
    """The dice found in the first ``throws`` throws of ``matches`` held-out matches from TUNING_MATCHES."""
    for match in tracked(range(TUNING_MATCHES, TUNING_MATCHES + matches), "held-out matches"):
        for number in range(throws):
            throw = heldout_match_throw(match, number, HELDOUT_KINDS[number % len(HELDOUT_KINDS)])
            view = board_view(Calibration.from_corners(throw.corners))
            assert throw.reference is not None, "a match's throws come with the frame before them"
            boxes = [
                view.box_to_frame(d.centre, d.side)
                for d in reader.detections(throw.image, view, moved_in(throw.image, view, throw.reference))
            ]
            truth = [label_of(lying_at(throw, (x0 + x1) / 2, (y0 + y1) / 2)) for x0, y0, x1, y1 in boxes]
            yield Found(second_stage_crops(throw.image, boxes), np.array(truth, np.int64))


def photo_dice(reader: DiceReader, set_name: str) -> Iterator[Found]:
    """The dice found in each labelled photo of a real set or split, read as photos (no board)."""
    for _, image, dice in tracked(scenes_of(set_name), f"photos {set_name}"):
        view, found = reader.photo(image)
        boxes = [view.box_to_frame(d.centre, d.side) for d in found]
        truth = [class_of(labelled_in(box, dice)) for box in boxes]
        yield Found(second_stage_crops(image, boxes), np.array(truth, np.int64))


def report(name: str, found: list[Found], heads: list[Path], temperatures: list[float]) -> None:
    crops = np.concatenate([f.crops for f in found])
    truth = np.concatenate([f.classes for f in found])
    flat = truth < 6
    counts = np.bincount(truth, minlength=8)
    print(f"\n{name}: {len(truth)} found, {counts[:6].sum()} flat dice, {counts[6]} cocked, {counts[7]} not dice")
    print(
        f"{'head':24} {'T':>5} {'NLL 8':>7} {'NLL 6':>7} {'wrong':>6} "
        f"{f'>={TOURNAMENT.min_confidence:g}':>6} {f'>={CASUAL.min_confidence:g}':>6} {'asked':>6} "
        f"{'dice dropped':>13} {'not-dice dropped':>17}"
    )
    for head in heads:
        reader = OnnxReader(head)
        for temperature in temperatures:
            pr = every_turn(Tempered(reader, temperature), crops)
            nll8 = -np.log(np.maximum(pr[np.arange(len(truth)), truth], 1e-12)).mean()
            values = pr[flat, :6] / pr[flat, :6].sum(axis=1, keepdims=True)  # among the faces, as the look leaves it
            said = truth[flat]
            nll6 = -np.log(np.maximum(values[np.arange(len(said)), said], 1e-12)).mean()
            sure, wrong = values.max(axis=1), values.argmax(axis=1) != said
            dropped = pr[:, CLASS_NOT_DIE] >= HEAD_NOT_DIE
            print(
                f"{head.name:24} {temperature:5.2f} {nll8:7.4f} {nll6:7.4f} {wrong.sum():6d} "
                f"{(wrong & (sure >= TOURNAMENT.min_confidence)).sum():6d} "
                f"{(wrong & (sure >= CASUAL.min_confidence)).sum():6d} "
                f"{(sure < TOURNAMENT.min_confidence).sum():6d} "
                f"{(dropped & (truth != CLASS_NOT_DIE)).sum():13d} "
                f"{(dropped & (truth == CLASS_NOT_DIE)).sum():17d}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--heads", default=str(DEFAULT_HEAD), help="second stages, comma-separated (default shipped)")
    parser.add_argument("--matches", type=int, default=80, help="held-out matches from 80 (default 80; 0: none)")
    parser.add_argument("--throws", type=int, default=10, help="throws read a match (default 10)")
    parser.add_argument(
        "--photos",
        action="append",
        default=[],
        help="a real set or split too (as bench_adapt --set: tray_mixed_dice, webcam_white_dice/Valid)",
    )
    parser.add_argument(
        "--temperatures",
        type=lambda text: [float(t) for t in text.split(",")],
        default=[0.5, 0.7, 1.0, 1.3, 1.6, 2.0],
        metavar="T,T,...",
    )
    args = parser.parse_args()
    heads = [Path(h) for h in args.heads.split(",")]
    finder = DiceReader(threads=1)  # the shipped detector finds the dice for every head alike
    if args.matches:
        found = list(match_dice(finder, args.matches, args.throws))
        last = TUNING_MATCHES + args.matches - 1
        report(f"held-out matches {TUNING_MATCHES}-{last}", found, heads, args.temperatures)
    for folder in args.photos:
        report(folder, list(photo_dice(finder, folder)), heads, args.temperatures)


if __name__ == "__main__":
    main()
