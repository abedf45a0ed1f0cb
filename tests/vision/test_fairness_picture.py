"""The fairness picture: a loaded face stands out in red, fair dice stay inside the grey band."""

from __future__ import annotations

import numpy as np

from vision.fairness import FaceCounts, FairnessMonitor
from vision.fairness_picture import OUT, fairness_picture


def monitor(throws: list[tuple[int, int]]) -> FairnessMonitor:
    watched = FairnessMonitor()
    watched.extend(throws)
    return watched


def test_fair_dice_stay_inside_the_band_and_a_loaded_six_does_not() -> None:
    rng = np.random.default_rng(7)
    fair = [(int(a), int(b)) for a, b in rng.integers(1, 7, (600, 2))]
    assert [d.outside() for d in monitor(fair).face_counts()] == [(), ()]
    loaded = [(6 if rng.random() < 0.3 else int(a), int(b)) for a, b in rng.integers(1, 7, (600, 2))]
    first, second = monitor(loaded).face_counts()
    assert 6 in first.outside() and second.outside() == ()


def test_the_band_is_the_fair_count_plus_or_minus_its_spread() -> None:
    low, high = FaceCounts("die", (100,) * 6).band()
    assert round(low, 1) == 76.5 and round(high, 1) == 123.5  # 100 -+ 2.576 * sqrt(600 * 1/6 * 5/6)


def test_the_picture_shows_red_only_for_a_face_outside() -> None:
    fair = FaceCounts("die 1", (100, 98, 103, 99, 101, 99))
    loaded = FaceCounts("die 2", (80, 85, 90, 95, 100, 150))

    def red(picture: np.ndarray) -> int:
        return int(np.all(picture == OUT, axis=2).sum())

    assert red(fairness_picture((fair,))) == 0
    assert red(fairness_picture((fair, loaded))) > 200  # the six's bar (and the title) in red
    pooled = monitor([(1, 2)] * 10).face_counts()
    assert len(pooled) == 2 and fairness_picture(()).shape == (300, 720, 3)


def test_an_untitled_picture_leaves_the_heading_to_the_screen() -> None:
    """The station says the heading in its own language beside the picture: vision's English one stays out."""
    die = FaceCounts("both dice", (20, 20, 20, 20, 20, 20))
    titled, untitled = fairness_picture((die,)), fairness_picture((die,), titled=False)
    assert (titled[:34] < 200).any()  # ink in the heading band
    assert not (untitled[:34] < 200).any()
    assert (titled[34:] == untitled[34:]).all()
