"""The line's quality: the share of damaged frames over a sliding window, and when that is noisy."""

from __future__ import annotations

from device.quality import Quality, QualityWindow


def test_more_than_one_damaged_frame_in_a_hundred_is_noisy() -> None:
    window = QualityWindow()
    window.record(0, clean=198, repaired=2)
    assert not window.quality(500).noisy  # exactly 1 %
    window.record(600, lost=1)
    quality = window.quality(700)
    assert quality.noisy and quality.frames == 201 and round(100 * quality.lost_fraction, 1) == 0.5
    assert quality.describe() == "1.5 % of 201 frames damaged, 0.5 % lost"


def test_one_stray_frame_is_not_a_noisy_line() -> None:
    window = QualityWindow()
    window.record(0, clean=3, lost=1)  # the half frame in the buffer when the port opened
    assert not window.quality(10).noisy


def test_the_window_forgets_what_is_older_than_ten_seconds() -> None:
    window = QualityWindow(window_ms=10_000)
    window.record(1_000, repaired=50)
    window.record(5_000, clean=100)
    assert window.quality(10_999).noisy
    assert window.quality(11_000) == Quality(clean=100)


def test_no_frames_is_no_verdict() -> None:
    assert Quality().damaged_fraction == 0.0 and not Quality().noisy
