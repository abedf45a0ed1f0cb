"""How the reader turns several proposals of one die into one reading (vision.pipeline), with the proposer
and the model replaced by fixed answers so only the pipeline's own rules are under test; and that one frame
always gets one reading."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

import vision.pipeline as pipeline
from vision.calibration import Calibration
from vision.detect import Proposal, propose
from vision.errors import VisionError
from vision.pipeline import DiceReader
from vision.reader import CLASS_COCKED, CLASSES
from vision.train.heldout import heldout_throw


def proposal(box: tuple[int, int, int, int]) -> Proposal:
    x0, y0, x1, y1 = box
    return Proposal(box, ((x0 + x1) / 2, (y0 + y1) / 2), float((x1 - x0) * (y1 - y0)), 0.9, 1.05)


def sure(value: int, p: float) -> NDArray[np.float32]:
    """Model output: ``value`` with probability ``p``, the rest spread over the other classes."""
    out = np.full(len(CLASSES), (1 - p) / (len(CLASSES) - 1), np.float32)
    out[value - 1] = p
    return out


class FixedAnswers:
    """A classifier that answers each crop in the order the proposals were made."""

    def __init__(self, answers: list[NDArray[np.float32]]):
        self.answers = np.stack(answers)

    def probabilities(self, crops: NDArray[np.uint8]) -> NDArray[np.float32]:
        assert len(crops) == len(self.answers)
        return self.answers


def read(
    monkeypatch: pytest.MonkeyPatch, boxes: list[tuple[int, int, int, int]], answers: list[NDArray[np.float32]]
) -> list[tuple[int | None, tuple[int, int, int, int]]]:
    monkeypatch.setattr(pipeline, "propose", lambda *args, **kwargs: [proposal(b) for b in boxes])
    image = np.full((240, 320, 3), 128, np.uint8)
    dice = DiceReader(classifier=FixedAnswers(answers)).read_all(image).dice
    return [(d.value, d.box) for d in dice]


def test_a_die_seen_by_two_proposals_is_one_die_whose_box_covers_both(monkeypatch: pytest.MonkeyPatch) -> None:
    # the surest proposal holds the die with its shadow; another holds its upper face, up and to the left
    assert read(monkeypatch, [(100, 100, 140, 140), (112, 116, 150, 150)], [sure(4, 0.90), sure(4, 0.95)]) == [
        (4, (100, 100, 150, 150))
    ]


def test_a_die_box_does_not_stretch_over_a_far_reaching_proposal(monkeypatch: pytest.MonkeyPatch) -> None:
    # a proposal that straddles the die and much of its surroundings is the same die, but too big to be it
    assert read(monkeypatch, [(100, 100, 130, 130), (95, 110, 180, 170)], [sure(2, 0.97), sure(2, 0.80)]) == [
        (2, (100, 100, 130, 130))
    ]


def test_two_dice_apart_stay_two_readings(monkeypatch: pytest.MonkeyPatch) -> None:
    assert read(monkeypatch, [(20, 20, 50, 50), (200, 150, 230, 180)], [sure(6, 0.98), sure(1, 0.97)]) == [
        (6, (20, 20, 50, 50)),
        (1, (200, 150, 230, 180)),
    ]


def leaning(cocked: float) -> NDArray[np.float32]:
    """Model output for a die the model thinks leans with probability ``cocked``, else a 5."""
    out = np.full(len(CLASSES), 0.01, np.float32)
    out[CLASS_COCKED] = cocked
    out[5 - 1] = 0.98 - cocked - 0.05
    return out


def test_a_stricter_cocked_setting_calls_a_doubtful_die_cocked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pipeline, "propose", lambda *args, **kwargs: [proposal((100, 100, 130, 130))])
    image = np.full((240, 320, 3), 128, np.uint8)
    answers = FixedAnswers([leaning(0.35)])
    assert not DiceReader(classifier=answers).read_all(image).dice[0].cocked
    strict = DiceReader(classifier=answers, cocked_from=0.3).read_all(image).dice[0]
    assert strict.cocked and strict.value == 5


@pytest.mark.parametrize("setting", [{"cocked_from": 0.0}, {"cocked_from": 1.5}, {"min_confidence": -0.1}])
def test_settings_out_of_range_are_refused(setting: dict[str, float]) -> None:
    with pytest.raises(VisionError, match="must lie in"):
        DiceReader(classifier=FixedAnswers([leaning(0.1)]), **setting)  # type: ignore[arg-type]


def test_the_same_frame_is_always_read_the_same_way() -> None:
    """A resumed session reads its camera frames again and must agree with its journal: the reading may not
    depend on what the process read before, nor on OpenCV's thread count. This throw holds two dice side by
    side that the proposer cuts apart with k-means."""
    throw = heldout_throw(26, "wrong_half", with_reference=True)
    calibration = Calibration.from_corners(throw.corners)
    reader = DiceReader()

    def look() -> tuple[list[tuple[int, int, int, int]], list[tuple[int | None, tuple[int, int, int, int], float]]]:
        props = propose(throw.image, calibration.die_px(), calibration.region_mask(throw.image.shape), throw.reference)
        dice = reader.dice(throw.image, calibration, "bottom", reference=throw.reference)
        return [p.box for p in props], [(d.value, d.box, d.confidence) for d in dice]

    threads = cv2.getNumThreads()
    try:
        looks = [look() for _ in range(3)]
        cv2.setNumThreads(1)
        looks += [look() for _ in range(2)]
    finally:
        cv2.setNumThreads(threads)
    assert all(other == looks[0] for other in looks[1:])
