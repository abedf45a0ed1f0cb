"""The reader's two settings (``min_confidence``, ``cocked_from``), with the detector and second stage replaced by fixed
answers so only the settings are under test; and that one frame always gets one reading, whatever OpenCV's
thread count."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import Calibration, DiceReader
from vision.errors import VisionError
from vision.train.heldout import heldout_throw

from .test_detector import FixedCrops, OneDie

LEANING = [0.01, 0.01, 0.01, 0.01, 0.58, 0.01, 0.35, 0.02]  # a 5 that the second stage thinks leans at 0.35


def test_a_stricter_cocked_setting_calls_a_doubtful_die_cocked() -> None:
    image = np.full((480, 640, 3), 120, np.uint8)
    assert not DiceReader(net=OneDie(36.0), classifier=FixedCrops(LEANING)).read_all(image).dice[0].cocked
    strict = DiceReader(net=OneDie(36.0), classifier=FixedCrops(LEANING), cocked_from=0.3).read_all(image).dice[0]
    assert strict.cocked and strict.value == 5


def test_a_lower_unreadable_floor_reads_a_value_the_default_leaves_unread() -> None:
    image = np.full((480, 640, 3), 120, np.uint8)
    unsure = [0.3, 0.1, 0.1, 0.1, 0.1, 0.3, 0.0, 0.0]  # 1 or 6, at 0.3 each
    assert DiceReader(net=OneDie(36.0), classifier=FixedCrops(unsure)).read_all(image).dice[0].value is None
    (die,) = DiceReader(net=OneDie(36.0), classifier=FixedCrops(unsure), min_confidence=0.25).read_all(image).dice
    assert die.value in (1, 6) and die.confidence == pytest.approx(0.3)


@pytest.mark.parametrize("setting", [{"cocked_from": 0.0}, {"cocked_from": 1.5}, {"min_confidence": -0.1}])
def test_settings_out_of_range_are_refused(setting: dict[str, float]) -> None:
    with pytest.raises(VisionError, match="must lie in"):
        DiceReader(net=OneDie(36.0), classifier=FixedCrops(LEANING), **setting)  # type: ignore[arg-type]


def test_the_same_frame_is_read_the_same_way_whatever_opencvs_threads() -> None:
    """A resumed session reads its camera frames again and must agree with its journal: the reading may not
    depend on what the process read before, nor on OpenCV's thread count."""
    throw = heldout_throw(26, "wrong_half", with_reference=True)
    calibration = Calibration.from_corners(throw.corners)
    reader = DiceReader()

    def look() -> list[tuple[int | None, tuple[int, int, int, int], float, float]]:
        dice = reader.dice(throw.image, calibration, "bottom", reference=throw.reference)
        return [(d.value, d.box, d.confidence, d.cocked_probability) for d in dice]

    threads = cv2.getNumThreads()
    try:
        looks = [look() for _ in range(3)]
        cv2.setNumThreads(1)
        looks += [look() for _ in range(2)]
    finally:
        cv2.setNumThreads(threads)
    assert looks[0] and all(other == looks[0] for other in looks[1:])
