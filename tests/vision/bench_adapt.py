"""Learning the match dice, measured on a real set the reader never trained on:
``.venv/bin/python -m tests.vision.bench_adapt --set webcam_white_dice --detector D --head H [--photos 10]``, or
with the shipped models ``--set webcam_white_dice/Valid`` (a split neither of them trained on). ``--set
casino_dice_crops``: the translucent casino dice, each crop a one-die photo as training reads it (``--photos
20`` learns as many dice as ten two-dice throws). ``--set FOLDER``: a station's kept throws
(``app.table.throw_photos``), those people labelled: its own camera, board and dice.

Per-die accuracy on the set's photos before adaptation, then after the dice of ``--photos`` photos (drawn at
random, seeded) are confirmed as a referee confirms throws (the dice the reader found, with their labelled
values), scored on the other photos only (``--score-from N``: on all but each draw's first N, so runs that
learn 10 photos and 80 score the same ones). Several draws, so one lucky draw does not make the figure. Then the
other photos with exactly two dice, each read as a throw, before and after, by ``bench_sureness``'s figures:
what a station at that table would call without asking, and how often it would ask; and the same photos read
one after the other as a match, every throw asked about answered and learned, as the station keeps learning.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from tests.vision.bench_detector import CASINO, Scene, scenes_of, score
from tests.vision.bench_sureness import Case, photo_case, report
from vision import DiceReader
from vision.adapt import AdaptedClassifier, DiceProfile, FeatureReader
from vision.crop_reader import CLASS_COCKED, CLASS_NOT_DIE, CROP, OnnxModel
from vision.reader import DEFAULT_DETECTOR, DEFAULT_HEAD, second_stage_crops
from vision.sureness import TOURNAMENT, doubts
from vision.train.detector_data import Die


def confirmed_crops(reader: DiceReader, scenes: list[Scene]) -> tuple[np.ndarray, np.ndarray]:
    """The crops of the dice the reader found on these photos, each with the value people would confirm (a
    found die matched to a label by its box); what it found where no die is, people strike out: "not a die".
    As a station learns (``vision.adapt.examples``), what the reader itself called not a die is learned as not
    a die too, from the photos where it found every die (none of those things can be a die missed)."""
    crops, labels = [], []
    for _, image, dice in scenes:
        read = reader.read_all(image)
        found: set[int] = set()  # the labelled dice found (by identity)
        for d in read.dice:
            hit = labelled_in(d.box, dice)
            found |= {id(e) for e in hit}
            crops.append(second_stage_crops(image, [d.crop_box or d.box])[0])  # as the reader cut it
            labels.append(class_of(hit))
        if len(found) == len(dice) and read.not_dice:
            crops += list(second_stage_crops(image, read.not_dice))
            labels += [CLASS_NOT_DIE] * len(read.not_dice)
    if not crops:
        return np.zeros((0, CROP, CROP, 3), np.uint8), np.zeros(0, np.int64)
    return np.stack(crops), np.array(labels, np.int64)


def labelled_in(box: tuple[int, int, int, int], dice: list[Die]) -> list[Die]:
    """The labelled dice whose centres lie in a found thing's ``box``."""
    return [e for e in dice if box[0] <= e.x <= box[2] and box[1] <= e.y <= box[3]]


def class_of(hit: list[Die]) -> int:
    """What people say a found thing is: the first labelled die in it (its value, or cocked), else not a die."""
    return (CLASS_COCKED if hit[0].cocked else hit[0].value - 1) if hit else CLASS_NOT_DIE


def played(reader: DiceReader, adapted: AdaptedClassifier, pairs: list[Scene]) -> list[Case]:
    """The photos read one after the other as a match's throws, as a station keeps learning: each throw the
    tournament setting asks about is answered, and its dice learned before the next is read."""
    cases = []
    for scene in pairs:
        case = photo_case(reader, scene[1], [d.value for d in scene[2]])
        cases.append(case)
        if doubts(case.observation, None, case.shape, TOURNAMENT):
            adapted.confirm(*confirmed_crops(reader, [scene]))
    return cases


SETS = ("webcam_white_dice", "tray_mixed_dice", "webcam_white_dice/Valid", CASINO)


def real_or_station_set(name: str) -> str:
    """``--set``: a real set's name, or a folder a station kept its throws in."""
    if name in SETS or Path(name).is_dir():
        return name
    raise argparse.ArgumentTypeError(f"{name}: neither a real set ({', '.join(SETS)}) nor a folder")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument(
        "--set",
        required=True,
        type=real_or_station_set,
        help="a real set (webcam_white_dice, tray_mixed_dice, casino_dice_crops), the webcam split the shipped"
        " models never trained on (webcam_white_dice/Valid), or a station's folder of kept throws",
    )
    ap.add_argument("--detector", type=Path, default=DEFAULT_DETECTOR, help="the detector trained without --set")
    ap.add_argument("--head", type=Path, default=DEFAULT_HEAD, help="the second stage trained without --set")
    ap.add_argument("--photos", type=int, default=10)
    ap.add_argument(
        "--score-from",
        type=int,
        default=None,
        metavar="N",
        help="score all of each draw's photos but its first N (default: --photos), so runs that learn more or "
        "fewer photos score the same ones",
    )
    ap.add_argument("--draws", type=int, default=3)
    args = ap.parse_args()
    score_from = args.photos if args.score_from is None else args.score_from
    if score_from < args.photos:
        ap.error("--score-from must not be below --photos: the photos learned are not scored")
    scenes = scenes_of(args.set)
    plain = DiceReader(args.detector, threads=1, head=args.head)
    features = FeatureReader(OnnxModel(args.head, threads=1))
    print(
        f"{args.set}: {len(scenes)} photos; before / after {args.photos} confirmed photos, "
        f"scored on {len(scenes) - score_from} others"
    )
    befores, afters = [], []
    throws: dict[str, list[Case]] = {"before learning": [], "after learning": [], "learning as it plays": []}
    for draw in range(args.draws):
        rng = np.random.default_rng(draw)
        order = rng.permutation(len(scenes))
        learn = [scenes[i] for i in order[: args.photos]]
        rest = [scenes[i] for i in order[score_from:]]
        crops, labels = confirmed_crops(plain, learn)
        t0 = time.perf_counter()
        adapted = AdaptedClassifier(features, DiceProfile(args.set))
        adapted.confirm(crops, labels)
        fit_ms = (time.perf_counter() - t0) * 1000
        before = score(plain, rest)
        learned = DiceReader(args.detector, threads=1, classifier=adapted)
        after = score(learned, rest)
        pairs = [scene for scene in rest if len(scene[2]) == 2]
        throws["before learning"] += [photo_case(plain, image, [d.value for d in dice]) for _, image, dice in pairs]
        throws["after learning"] += [photo_case(learned, image, [d.value for d in dice]) for _, image, dice in pairs]
        throws["learning as it plays"] += played(learned, adapted, pairs)
        befores.append(before.accuracy)
        afters.append(after.accuracy)
        print(
            f"  draw {draw + 1}: {len(labels)} confirmed dice, learned in {fit_ms:.0f} ms; "
            f"before {before.summary()}; after {after.summary()}",
            flush=True,
        )
    print(f"mean: before {100 * np.mean(befores):.1f} %, after {100 * np.mean(afters):.1f} %")
    if throws["before learning"]:
        print("the other photos of two dice, each read as a throw (every draw's together):")
        report(throws)


if __name__ == "__main__":
    main()
