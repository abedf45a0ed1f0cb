"""What every reader shares: the ``Reader`` protocol that ``watch``, the CLI and the app need, the judging of a
throw from its dice (``Judge``), and the check that a frame is an image at all."""

from __future__ import annotations

from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from vision.calibration import Calibration, Thrower
from vision.errors import VisionError
from vision.verdict import DieReading, ThrowObservation, judge


class Reader(Protocol):
    """What ``watch``, the CLI and the app need of a reader (``vision.detector.DiceReader``; tests give fixed
    readings)."""

    def dice(
        self,
        image: NDArray[np.uint8],
        calibration: Calibration | None = None,
        thrower: Thrower = "bottom",
        reference: NDArray[np.uint8] | None = None,
    ) -> tuple[DieReading, ...]: ...

    def read(
        self,
        image: NDArray[np.uint8],
        calibration: Calibration | None = None,
        thrower: Thrower = "bottom",
        source: str | None = None,
        timestamp: float | None = None,
        reference: NDArray[np.uint8] | None = None,
    ) -> ThrowObservation: ...

    def read_all(self, image: NDArray[np.uint8], source: str | None = None) -> ThrowObservation: ...


class Judge:
    """``read`` and ``read_all`` in terms of ``dice``, with the reader's two settings (checked here): below
    ``min_confidence`` a die's value is unreadable, from ``cocked_from`` a die is cocked."""

    def __init__(self, min_confidence: float, cocked_from: float):
        if not 0.0 < cocked_from <= 1.0:
            raise VisionError(f"cocked_from must lie in (0, 1], not {cocked_from}")
        if not 0.0 <= min_confidence <= 1.0:
            raise VisionError(f"min_confidence must lie in [0, 1], not {min_confidence}")
        self.min_confidence = min_confidence
        self.cocked_from = cocked_from

    def dice(
        self,
        image: NDArray[np.uint8],
        calibration: Calibration | None = None,
        thrower: Thrower = "bottom",
        reference: NDArray[np.uint8] | None = None,
    ) -> tuple[DieReading, ...]:
        raise NotImplementedError

    def read(
        self,
        image: NDArray[np.uint8],
        calibration: Calibration | None = None,
        thrower: Thrower = "bottom",
        source: str | None = None,
        timestamp: float | None = None,
        reference: NDArray[np.uint8] | None = None,
    ) -> ThrowObservation:
        """The verdict on one throw. Without calibration the whole image is the throwing area."""
        dice = self.dice(image, calibration, thrower, reference)
        verdict, reason = judge(dice, calibration is not None)
        return ThrowObservation(verdict, reason, dice, thrower, timestamp, source)

    def read_all(self, image: NDArray[np.uint8], source: str | None = None) -> ThrowObservation:
        """Every die in the image, any number, and no verdict (photos of many dice)."""
        return ThrowObservation(None, None, self.dice(image), "bottom", None, source)


def check_frame(image: object) -> None:
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8 or image.ndim != 3 or image.shape[2] != 3:
        raise VisionError("a frame must be an H x W x 3 BGR uint8 image")
    if image.shape[0] < 16 or image.shape[1] < 16:
        raise VisionError(f"frame too small to read dice: {image.shape[1]}x{image.shape[0]}")
