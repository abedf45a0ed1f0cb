"""Learning the match dice: the second stage adapted to one pair of dice, one board and one lamp from a few
confirmed throws, in numpy, in well under a second on a tablet's CPU.

A match is played with one pair of dice under one light for an hour; the reader was trained on other dice. Each
confirmed die (its crop's features from the second stage and the value people confirmed) is kept; a small
correction to the second stage's logits, ``features @ W.T``, is fitted to them by regularised logistic
regression, with the trained model's own logits as the starting point, so a handful of examples moves only what
they show and the model's knowledge of every other die stays. It has no bias term: a correction that does not
depend on the crop would shift every reading toward the values that happened to be confirmed. Profiles are
saved per dice set (a small JSON and the examples' arrays beside it, written atomically) and reused.
"""

from __future__ import annotations

import glob
import hashlib
import io
import json
import os
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Sequence, Union

import numpy as np
from numpy.typing import NDArray

from vision.detector import second_stage_crops
from vision.errors import VisionError
from vision.reader import CLASS_COCKED, CLASS_NOT_DIE, CLASSES, OnnxModel, face_contrast, softmax
from vision.verdict import DieReading

PROFILE_VERSION = 2
"""1: everything in one JSON (still read); 2: a small JSON and the examples' arrays beside it."""
DIGEST = 16  # hex digits of the arrays' SHA-256 in their file's name
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
    model: str = ""
    """The second stage whose features these are (its file's ``model_digest``); "" before the first example,
    and in profiles saved before the digest was kept."""

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
        """Kept as ``path`` (a small JSON: name, count, the arrays' file) and the examples' arrays beside it
        (``<stem>.<digest>.npz``, float32), each written to a temporary file and renamed into place: the JSON's
        rename is the moment the new profile counts, so a power cut at any point leaves the old profile or the
        new one whole, never half of either."""
        arrays = io.BytesIO()
        np.savez(arrays, features=self.features, base=self.base, labels=self.labels.astype(np.int8))
        blob = arrays.getvalue()
        digest = hashlib.sha256(blob).hexdigest()[:DIGEST]
        name = f"{path.stem}.{digest}.npz"
        _write_atomic(path.parent / name, blob)
        meta = {
            "version": PROFILE_VERSION,
            "name": self.name,
            "examples": self.examples,
            "arrays": name,
            "model": self.model,
        }
        _write_atomic(path, json.dumps(meta, ensure_ascii=False).encode())
        for old in _arrays_of(path):
            if old.name != name:
                old.unlink(missing_ok=True)  # an earlier save's arrays, no longer named by the JSON

    @classmethod
    def load(cls, path: Path) -> DiceProfile:
        """A saved profile (this version's, or an older one kept whole in JSON); VisionError naming the problem."""
        try:
            data = json.loads(path.read_text())
            version = data.get("version")
            profile = cls(str(data["name"]), model=str(data.get("model", "")))
            if version == 1:
                features, base, labels = (np.asarray(data[k]) for k in ("features", "base", "labels"))
            elif version == PROFILE_VERSION:
                arrays = str(data["arrays"])
                if Path(arrays).name != arrays or "\\" in arrays or not arrays.endswith(".npz"):
                    raise ValueError(f"the arrays {arrays!r} must lie beside the profile")
                features, base, labels = _read_arrays(path.parent / arrays, int(data["examples"]))
            else:
                raise VisionError(f"{path}: a dice profile of another version ({version})")
            if len(labels):
                profile.add(features.astype(np.float32), base.astype(np.float32), labels.astype(np.int64))
            return profile
        except (OSError, ValueError, KeyError, TypeError, AttributeError, zipfile.BadZipFile) as exc:
            raise VisionError(f"{path}: not a readable dice profile ({exc})") from exc


def _read_arrays(path: Path, examples: int) -> tuple[NDArray[Any], NDArray[Any], NDArray[Any]]:
    """The examples' arrays a profile's JSON names, checked against the digest in their name."""
    blob = path.read_bytes()
    if not path.name.endswith(f".{hashlib.sha256(blob).hexdigest()[:DIGEST]}.npz"):
        raise ValueError(f"{path.name} is damaged (its content does not match its name)")
    with np.load(io.BytesIO(blob), allow_pickle=False) as arrays:
        features, base, labels = arrays["features"], arrays["base"], arrays["labels"]
    if len(labels) != examples:
        raise ValueError(f"{path.name} holds {len(labels)} examples, the profile says {examples}")
    return features, base, labels


def _arrays_of(path: Path) -> list[Path]:
    """Every arrays file saved for the profile ``path`` (another set's name never matches)."""
    pattern = re.compile(re.escape(path.stem) + rf"\.[0-9a-f]{{{DIGEST}}}\.npz")
    return [p for p in path.parent.glob(f"{glob.escape(path.stem)}.*.npz") if pattern.fullmatch(p.name)]


def _write_atomic(path: Path, data: bytes) -> None:
    """``data`` as ``path``, all or nothing: written and flushed to disk under a temporary name, then renamed."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(temporary, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
    _sync_folder(path.parent)


def _sync_folder(folder: Path) -> None:
    """The rename itself on disk (where the system can sync a folder)."""
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass  # a folder that cannot be synced (some systems): the rename is still atomic
    finally:
        os.close(handle)


class LearnedWithAnotherModel(VisionError):
    """A dice set learned with another second stage than the one reading now: it must be learned again."""

    def __init__(self, name: str):
        super().__init__(f"the dice set {name!r} was learned with another dice model than this one: learn it again")
        self.name = name


def model_digest(path: Path) -> str:
    """Which second stage a profile's features come from: features of one model mean nothing to another."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:DIGEST]


class FeatureReader:
    """The second stage run for both its outputs: class logits and the features its last layer reads."""

    def __init__(self, model: OnnxModel):
        self.model = model
        self.digest = model_digest(model.model) if Path(model.model).is_file() else str(model.model)

    def logits_and_features(self, crops: NDArray[np.uint8]) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        if len(crops) == 0:
            return np.zeros((0, len(CLASSES)), np.float32), np.zeros((0, 0), np.float32)
        outputs = self.model.run_all(face_contrast(crops))
        if len(outputs) < 2:
            raise VisionError(f"{self.model.model} gives no features: the match dice cannot be learned with it")
        return outputs[0].reshape(len(crops), len(CLASSES)), outputs[1].reshape(len(crops), -1)


class AdaptedClassifier:
    """The second stage with a dice profile's correction: what ``DiceReader`` reads crops with during a
    match once the match dice are learned."""

    def __init__(self, features: FeatureReader, profile: DiceProfile):
        self.features = features
        self.profile: DiceProfile
        self.use(profile)

    def learned_here(self, profile: DiceProfile) -> bool:
        """Whether ``profile``'s examples came from this second stage (a profile with none fits any)."""
        return not profile.examples or profile.model == self.features.digest

    def use(self, profile: DiceProfile) -> None:
        """Read with ``profile`` from now on; VisionError if it was learned with another second stage (a
        profile saved before a new model came with an update): its examples would correct the wrong model."""
        if not self.learned_here(profile):
            raise LearnedWithAnotherModel(profile.name)
        self.profile = profile

    def probabilities(self, crops: NDArray[np.uint8]) -> NDArray[np.float32]:
        base, f = self.features.logits_and_features(crops)
        return softmax(self.profile.logits(base, f)) if len(crops) else base

    def confirm(self, crops: NDArray[np.uint8], labels: NDArray[np.int64]) -> None:
        """People confirmed these dice: learn from them."""
        base, f = self.features.logits_and_features(crops)
        self.profile.add(f, base, labels)
        if self.profile.examples:
            self.profile.model = self.features.digest


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
