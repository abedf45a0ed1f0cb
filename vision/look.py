"""The cocked look's input and its model: a wide crop of a die and the slant a flat die shows there.

The look (``models/cocked_look.onnx``) is a two-class crop classifier, flat or cocked, read only on a calibrated
board. Its input has four planes: the crop's three colour planes, each crop brought to zero mean and unit
spread as the second stage's are (``vision.crop_reader.preprocess``), and the slant's ramp (``vision.slant``).
Reading and training both build it here, so the look learns from exactly what it reads.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from vision.crop_reader import Backend, OnnxModel, preprocess, softmax
from vision.errors import ModelError
from vision.slant import ramp

PLANES = 4  # blue, green, red, slant


class Look(Protocol):
    """What reads the look's inputs (N x H x W x ``PLANES``) into (flat, cocked) probabilities."""

    def probabilities(self, inputs: NDArray[np.float32]) -> NDArray[np.float32]: ...


def look_input(crops: NDArray[np.uint8], slants: NDArray[np.float32]) -> NDArray[np.float32]:
    """N wide crops (BGR) and their slants (N x 2) -> the look's input, N x H x W x 4 (channels last, so that
    ``vision.crop_reader.every_turn`` turns the ramp with its crop)."""
    if len(crops) != len(slants):
        raise ValueError(f"{len(crops)} crops and {len(slants)} slants")
    colour = preprocess(crops).transpose(0, 2, 3, 1)
    return np.ascontiguousarray(np.concatenate([colour, ramp(slants, crops.shape[1])[..., None]], axis=3))


class OnnxLook:
    """``models/cocked_look.onnx`` run by onnxruntime or cv2.dnn."""

    def __init__(self, model: Path | str, backend: Backend | None = None, threads: int = 1):
        self._model = OnnxModel(model, backend, threads)
        self.model = self._model.model

    def probabilities(self, inputs: NDArray[np.float32]) -> NDArray[np.float32]:
        return self.probabilities_of(self.planes(inputs))

    def planes(self, inputs: NDArray[np.float32]) -> NDArray[np.float32]:
        """The graph's input, N x ``PLANES`` x H x W: ``vision.crop_reader.every_turn`` turns it as it is, so the
        turned inputs need no second reordering."""
        if inputs.ndim != 4 or inputs.shape[3] != PLANES:
            raise ModelError(f"the cocked look reads N x H x W x {PLANES} planes, not {inputs.shape}")
        return np.ascontiguousarray(inputs.transpose(0, 3, 1, 2), dtype=np.float32)

    def probabilities_of(self, planes: NDArray[np.float32]) -> NDArray[np.float32]:
        if len(planes) == 0:
            return np.zeros((0, 2), np.float32)
        out = self._model.run(planes)
        if out.size != len(planes) * 2:
            raise ModelError(f"{self.model} gives {out.size // len(planes)} outputs an input, not 2 (flat, cocked)")
        return softmax(out.reshape(len(planes), 2))
