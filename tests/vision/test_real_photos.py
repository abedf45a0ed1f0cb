"""The reader on real photographs its models never trained on (the author's Valid split of the webcam set)."""

from __future__ import annotations

from vision import DiceReader
from vision.scoring import LABEL_FIXES, Score, label_fix, label_rows_as_written, read_labels
from vision.sources import load_image

from .conftest import need_real_photos


def test_reads_the_real_valid_photos(reader: DiceReader) -> None:
    folder = need_real_photos()
    score = Score()
    for path in sorted(folder.glob("*.jpg")):
        image = load_image(path)
        score.add(
            path.name,
            read_labels(path.with_suffix(".txt"), image.shape[1], image.shape[0]),
            reader.read_all(image).dice,
        )
    assert score.labels > 250
    # what a referee cares about: values right, no die overlooked, nothing invented
    assert score.accuracy >= MIN_ACCURACY, score.summary() + "\n" + "\n".join(score.errors)
    assert score.missed + score.invented <= MAX_MISSED_OR_INVENTED, score.summary()
    assert score.wrong <= MAX_WRONG, score.summary()


def test_two_dice_photo_gives_a_verdict_with_both_values(reader: DiceReader) -> None:
    folder = need_real_photos()
    pairs = []
    for path in sorted(folder.glob("*.jpg")):
        labels = read_labels(path.with_suffix(".txt"), 640, 480)
        if len(labels) == 2:
            pairs.append((path, sorted(lab.value for lab in labels)))
    assert pairs
    right = 0
    for path, values in pairs:
        obs = reader.read(load_image(path))
        right += obs.verdict == "valid" and obs.values is not None and sorted(obs.values) == values
    assert right >= len(pairs) - 1, f"{right}/{len(pairs)} two-dice photos read as a valid throw"


def test_each_label_fix_mends_one_label_of_the_real_sets() -> None:
    """A fix whose photo or centre were mistyped would leave the wrong label in training and scoring unseen."""
    root = need_real_photos().parents[1]
    for fix in LABEL_FIXES:
        labelled = [
            value
            for path in root.glob(f"*/*/{fix.photo}.txt")
            for value, xc, yc, _, _ in label_rows_as_written(path)
            if label_fix(path, xc, yc) == fix
        ]
        assert len(labelled) == 1 and labelled[0] != fix.value, (fix, labelled)
        fixed = read_labels(next(root.glob(f"*/*/{fix.photo}.txt")), 1, 1)
        assert [lab.value for lab in fixed if lab.centre == fix.centre] == ([fix.value] if fix.value else [])


# Regression guards at the level the shipped reader reaches (models/MODEL_CARD.md: 98.4 % right, 4 wrong, none
# unreadable or missed, 3 invented on 255 dice). Of the 4 wrong, two values misread and two flat dice called
# cocked: a photo has no board, so the second stage's own cocked class decides, where a calibrated station asks
# the cocked look. The goal (99 %, none missed or invented) is not reached.
MIN_ACCURACY = 0.975
MAX_MISSED_OR_INVENTED = 5
MAX_WRONG = 4
