"""Settle detection: one event per throw, when the picture has been still long enough."""

from __future__ import annotations

import numpy as np

from vision.settle import SettleDetector


def frames_with_motion(still_before: int, moving: int, still_after: int, seed: int = 0) -> list[np.ndarray]:
    """A grey board with a little sensor noise; a bright square jumps about while 'moving', then rests."""
    rng = np.random.default_rng(seed)
    base = np.full((180, 320, 3), 90, np.uint8)
    out = []
    for i in range(still_before + moving + still_after):
        f = np.clip(base + rng.normal(0, 2, base.shape), 0, 255).astype(np.uint8)
        if still_before <= i < still_before + moving:
            x, y = rng.integers(20, 280), rng.integers(20, 140)
        else:
            x, y = 150, 75
        if i >= still_before:
            f[y : y + 20, x : x + 20] = 240
        out.append(f)
    return out


def run(detector: SettleDetector, frames: list[np.ndarray], fps: float = 30.0) -> list[float]:
    return [i / fps for i, f in enumerate(frames) if detector.update(f, i / fps)]


def test_one_event_per_throw_after_the_still_time() -> None:
    frames = frames_with_motion(10, 12, 30)
    events = run(SettleDetector(still_seconds=0.15), frames)
    assert len(events) == 1
    rest = 22 / 30  # the first still frame
    assert 0.15 <= events[0] - rest <= 0.15 + 2 / 30


def test_two_throws_give_two_events() -> None:
    frames = frames_with_motion(5, 10, 20, seed=1) + frames_with_motion(0, 10, 20, seed=2)
    assert len(run(SettleDetector(), frames)) == 2


def test_a_still_picture_and_noise_give_no_event() -> None:
    assert run(SettleDetector(), frames_with_motion(60, 0, 0)) == []


def test_a_single_frame_flicker_is_not_a_throw() -> None:
    frames = frames_with_motion(30, 0, 0)
    frames[12] = np.full_like(frames[12], 200)  # a lamp flashes for one frame
    frames[13] = frames[11]
    assert run(SettleDetector(min_motion_seconds=0.05), frames) == []


def test_motion_outside_the_board_region_is_ignored() -> None:
    frames = frames_with_motion(10, 12, 30)
    region = np.zeros((180, 320), np.uint8)  # the board is elsewhere: nothing that moves is on it
    assert run(SettleDetector(region=region), frames) == []


def test_longer_still_time_delays_the_event() -> None:
    frames = frames_with_motion(10, 12, 30)
    fast = run(SettleDetector(still_seconds=0.1), frames)
    slow = run(SettleDetector(still_seconds=0.4), frames)
    assert len(fast) == len(slow) == 1 and slow[0] - fast[0] >= 0.28


def test_the_frame_before_the_throw_is_kept_as_background() -> None:
    frames = frames_with_motion(10, 12, 30)
    detector = SettleDetector()
    for i, f in enumerate(frames):
        detector.update(f, i / 30)
    assert detector.reference is frames[9]  # the last still frame before the square came in
