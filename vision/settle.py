"""When is a throw over? A throw starts when motion enters the board and ends when the picture has been
still for ``still_seconds``; the watcher then reads that one frame and emits one observation per throw."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.calibration import Calibration, Thrower
from vision.reader_protocol import Reader
from vision.sources import Frame
from vision.verdict import ThrowObservation

MOTION_SIDE = 320  # motion is measured on a copy this wide (a die on a whole-board view is still a few pixels)


class State(Enum):
    IDLE = "idle"
    MOVING = "moving"


@dataclass
class SettleDetector:
    """Feed frames in time order; ``update`` returns True on the frame at which a throw has settled.

    ``motion_fraction``: share of the (board) pixels that must change for a frame to count as motion;
    ``pixel_delta``: grey-level change that counts as a changed pixel; ``min_motion_seconds``: shorter
    flickers (a shadow, a lamp) are not a throw."""

    still_seconds: float = 0.15
    motion_fraction: float = 0.0005
    pixel_delta: int = 18
    min_motion_seconds: float = 0.05
    region: NDArray[np.uint8] | None = None

    def __post_init__(self) -> None:
        self.state = State.IDLE
        self._prev: NDArray[np.uint8] | None = None
        self._region_small: NDArray[np.bool_] | None = None
        self._motion_start = 0.0
        self._last_motion = 0.0
        self._last_still: NDArray[np.uint8] | None = None
        self.reference: NDArray[np.uint8] | None = None  # the last still frame before the current throw

    def motion(self, image: NDArray[np.uint8]) -> float:
        """The share of pixels that changed since the previous frame (0 for the first)."""
        h, w = image.shape[:2]
        size = (MOTION_SIDE, max(1, int(round(h * MOTION_SIDE / w))))
        small = np.asarray(
            cv2.GaussianBlur(
                cv2.cvtColor(cv2.resize(image, size, interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY), (3, 3), 0
            ),
            np.uint8,
        )
        prev, self._prev = self._prev, small
        if prev is None or prev.shape != small.shape:
            return 0.0
        changed = cv2.absdiff(small, prev) > self.pixel_delta
        if self.region is not None:
            if self._region_small is None or self._region_small.shape != changed.shape:
                self._region_small = cv2.resize(self.region, size, interpolation=cv2.INTER_NEAREST) > 0
            changed &= self._region_small
            return float(changed.sum()) / max(1, int(self._region_small.sum()))
        return float(changed.mean())

    def update(self, image: NDArray[np.uint8], t: float) -> bool:
        moving = self.motion(image) > self.motion_fraction
        if moving:
            if self.state is State.IDLE:
                self.state = State.MOVING
                self._motion_start = t
                self.reference = self._last_still
            self._last_motion = t
            return False
        if self.state is State.IDLE:
            self._last_still = image
        if self.state is State.MOVING and t - self._last_motion >= self.still_seconds:
            self.state = State.IDLE
            return self._last_motion - self._motion_start >= self.min_motion_seconds
        return False


def watch(
    frames: Iterator[Frame],
    reader: Reader,
    calibration: Calibration | None = None,
    thrower: Thrower = "bottom",
    still_seconds: float = 0.15,
) -> Iterator[ThrowObservation]:
    """One observation per settled throw. A settled picture with no die at all (the dice were picked up) is
    not a throw and emits nothing."""
    region: NDArray[np.uint8] | None = None
    detector: SettleDetector | None = None
    for frame in frames:
        if detector is None:
            if calibration is not None:
                region = calibration.region_mask(frame.image.shape)
            detector = SettleDetector(still_seconds=still_seconds, region=region)
        if detector.update(frame.image, frame.timestamp):
            obs = reader.read(
                frame.image,
                calibration,
                thrower,
                source=frame.name,
                timestamp=frame.timestamp,
                reference=detector.reference,
            )
            if obs.dice:
                yield obs
