"""Learning the match dice: the second stage adapted to one pair of dice, one board and one lamp from a few
confirmed throws, in numpy, in well under a second on a tablet's CPU.

A match is played with one pair of dice under one light for an hour; the reader was trained on other dice. Each
confirmed die (its crop's features from the second stage and the value people confirmed) is kept; a small
correction to the second stage's logits, ``features @ W.T``, is fitted to them by regularised logistic
regression, with the trained model's own logits as the starting point, so a handful of examples moves only what
they show and the model's knowledge of every other die stays. It has no bias term: a correction that does not
depend on the crop would shift every reading toward the values that happened to be confirmed. Profiles are
saved per dice set (JSON) and reused.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Sequence, Union

import numpy as np
from numpy.typing import NDArray

from vision.detector import second_stage_crops
from vision.errors import VisionError
from vision.reader import CLASS_COCKED, CLASS_NOT_DIE, CLASSES, OnnxModel, preprocess, softmax
from vision.verdict import DieReading

PROFILE_VERSION = 1
FEATURE_SCALE = 4.0  # features are L2-normalised, then scaled so a weight of 1 moves a logit by about this
RIDGE = 0.05  # L2 penalty on the correction: a few examples nudge, many examples move it
STEPS = 300


def normalised(features: NDArray[np.float32]) -> NDArray[np.float32]:
    norm = np.linalg.norm(features, axis=1, keepdims=True)
    return np.asarray(FEATURE_SCALE * features / np.maximum(norm, 1e-6), np.float32)


@dataclass
class DiceProfile:
    """What the reader has learned of one dice set: its confirmed examples and the fitted correction."""

    name: str
    features: NDArray[np.float32] = field(default_factory=lambda: np.zeros((0, 0), np.float32))
    labels: NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, np.int64))
    base: NDArray[np.float32] = field(default_factory=lambda: np.zeros((0, len(CLASSES)), np.float32))
    weights: NDArray[np.float32] | None = None

    @property
    def examples(self) -> int:
        return len(self.labels)

    def add(self, features: NDArray[np.float32], base_logits: NDArray[np.float32], labels: NDArray[np.int64]) -> None:
        """Confirmed dice: their second-stage features, the model's own logits for them, and the class people
        confirmed (0..5 for the values 1..6, 6 cocked). Refits at once."""
        f = np.asarray(features, np.float32)
        y = np.asarray(labels, np.int64)
        if len(y) == 0 and len(f) == 0:
            return  # a throw in which nothing was found teaches nothing
        if f.ndim != 2 or len(f) != len(y) or base_logits.shape != (len(y), len(CLASSES)):
            raise VisionError("confirmed dice: features, logits and labels must match one for one")
        if len(y) and (y.min() < 0 or y.max() >= len(CLASSES)):
            raise VisionError(f"confirmed dice: a class must lie in 0..{len(CLASSES) - 1}")
        if self.examples and f.shape[1] != self.features.shape[1]:
            raise VisionError("these features come from another model than the profile's")
        self.features = f if not self.examples else np.concatenate([self.features, f])
        self.base = (
            np.asarray(base_logits, np.float32) if not self.examples else np.concatenate([self.base, base_logits])
        )
        self.labels = y if not self.examples else np.concatenate([self.labels, y])
        self.fit()

    def fit(self) -> None:
        """Regularised logistic regression of the labels on the features, offset by the model's logits
        (full-batch gradient descent: deterministic, and a few hundred examples take milliseconds)."""
        x = normalised(self.features)
        n, d = x.shape
        k = len(CLASSES)
        w = np.zeros((k, d), np.float64)
        onehot = np.eye(k)[self.labels]
        lr = 0.5
        for _ in range(STEPS):
            p = softmax(np.asarray(self.base + x @ w.T, np.float32)).astype(np.float64)
            w -= lr * (((p - onehot) / n).T @ x + RIDGE * w)
        self.weights = w.astype(np.float32)

    def logits(self, base_logits: NDArray[np.float32], features: NDArray[np.float32]) -> NDArray[np.float32]:
        if self.weights is None:
            return base_logits
        return np.asarray(base_logits + normalised(features) @ self.weights.T, np.float32)

    def save(self, path: Path) -> None:
        data = {
            "version": PROFILE_VERSION,
            "name": self.name,
            "features": self.features.tolist(),
            "base": self.base.tolist(),
            "labels": self.labels.tolist(),
        }
        path.write_text(json.dumps(data))

    @classmethod
    def load(cls, path: Path) -> DiceProfile:
        try:
            data = json.loads(path.read_text())
            if data.get("version") != PROFILE_VERSION:
                raise VisionError(f"{path}: a dice profile of another version ({data.get('version')})")
            profile = cls(str(data["name"]))
            labels = np.asarray(data["labels"], np.int64)
            if len(labels):
                profile.add(np.asarray(data["features"], np.float32), np.asarray(data["base"], np.float32), labels)
            return profile
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise VisionError(f"{path}: not a readable dice profile ({exc})") from exc


class FeatureReader:
    """The second stage run for both its outputs: class logits and the features its last layer reads."""

    def __init__(self, model: OnnxModel):
        self.model = model

    def logits_and_features(self, crops: NDArray[np.uint8]) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        if len(crops) == 0:
            return np.zeros((0, len(CLASSES)), np.float32), np.zeros((0, 0), np.float32)
        outputs = self.model.run_all(preprocess(crops))
        if len(outputs) < 2:
            raise VisionError(f"{self.model.model} gives no features: the match dice cannot be learned with it")
        return outputs[0].reshape(len(crops), len(CLASSES)), outputs[1].reshape(len(crops), -1)


class AdaptedClassifier:
    """The second stage with a dice profile's correction: what ``DetectorReader`` reads crops with during a
    match once the match dice are learned."""

    def __init__(self, features: FeatureReader, profile: DiceProfile):
        self.features = features
        self.profile = profile

    def probabilities(self, crops: NDArray[np.uint8]) -> NDArray[np.float32]:
        base, f = self.features.logits_and_features(crops)
        return softmax(self.profile.logits(base, f)) if len(crops) else base

    def confirm(self, crops: NDArray[np.uint8], labels: NDArray[np.int64]) -> None:
        """People confirmed these dice: learn from them."""
        base, f = self.features.logits_and_features(crops)
        self.profile.add(f, base, labels)


Said = Union[int, Literal["cocked"], None]
"""What people said a found die is: the value it shows (1-6), "cocked", or None: not a die."""


def label_of(said: Said) -> int:
    """The second stage's class for what people said a die is."""
    if said is None:
        return CLASS_NOT_DIE
    if said == "cocked":
        return CLASS_COCKED
    if isinstance(said, bool) or not isinstance(said, int) or not 1 <= said <= 6:
        raise VisionError(f"a confirmed die shows 1-6, is cocked or is no die, not {said!r}")
    return said - 1


def examples(
    image: NDArray[np.uint8], dice: tuple[DieReading, ...], confirmed: Sequence[Said]
) -> tuple[NDArray[np.uint8], NDArray[np.int64]]:
    """One confirmed throw as examples: each die the reader found (in its order, left to right) with what
    people said it is: its value, "cocked", or None where they struck it out as not a die."""
    labels = np.array([label_of(said) for said in confirmed], np.int64)
    if len(dice) != len(confirmed):
        raise VisionError(f"the reader found {len(dice)} dice and {len(confirmed)} were confirmed: say each one")
    return second_stage_crops(image, [d.crop_box or d.box for d in dice]), labels
