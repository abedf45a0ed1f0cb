"""The ``Reader`` protocol that ``watch``, the CLI and the app need (``vision.reader.DiceReader``, or a test's
fixed readings), and the check that a frame is an image at all."""

from __future__ import annotations

from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from vision.calibration import Calibration, Thrower
from vision.errors import VisionError
from vision.verdict import DieReading, ThrowObservation


class Reader(Protocol):
    """What ``watch``, the CLI and the app need of a reader (``vision.reader.DiceReader``; tests give fixed
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


def check_frame(image: object) -> None:
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8 or image.ndim != 3 or image.shape[2] != 3:
        raise VisionError("a frame must be an H x W x 3 BGR uint8 image")
    if image.shape[0] < 16 or image.shape[1] < 16:
        raise VisionError(f"frame too small to read dice: {image.shape[1]}x{image.shape[0]}")
