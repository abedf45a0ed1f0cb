"""Learning the match dice: the second stage adapted to one pair of dice, one board and one lamp from a few
confirmed throws, in numpy, in well under a second on a tablet's CPU.

A match is played with one pair of dice under one light for an hour; the reader was trained on other dice. Each
confirmed die (its crop's features from the second stage and the value people confirmed) is kept; a small
correction to the second stage's logits, ``features @ W.T``, is fitted to them by regularised logistic
regression, with the trained model's own logits as the starting point, so a handful of examples moves only what
they show and the model's knowledge of every other die stays. It has no bias term: a correction that does not
depend on the crop would shift every reading toward the values that happened to be confirmed. Profiles are
saved per dice set (a small JSON and the examples' arrays beside it, written atomically) and reused. A profile
keeps each example's crop too, so a second stage that comes with an update learns the set again from the same
dice by itself, rather than the players throwing them again.
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
from vision.reader import CLASS_COCKED, CLASS_NOT_DIE, CLASSES, CROP, OnnxModel, face_contrast, softmax
from vision.verdict import Boxes, DieReading

PROFILE_VERSION = 3
"""1: everything in one JSON (still read); 2: a small JSON and the examples' arrays beside it (still read); 3:
and each example's crop, in files of their own."""
DIGEST = 16  # hex digits of the arrays' SHA-256 in their file's name
CROP_FILES = 16
"""A profile's crops lie in at most this many files. Every confirmation saves the profile, and a set used
for many matches holds thousands of dice (7 KB of crop each): a save writes only the crops new since the last
one, in a file of its own, and folds them all into one file when there would be more than this."""
CROPS = ".crops"  # what a crop file's name carries before ".npz", beside the digest
RELEARN_BATCH = 256  # crops read at once when a set is learned again: memory stays small on a tablet
KEPT_DICE = 1000
"""A dice set learns from its latest this many confirmed dice at most: when a confirmation goes past it, the
oldest are let go down to three quarters of it. Every confirmation refits on all the kept dice, on the tablet's
main thread, and a set used all season would otherwise grow without end (7 KB of crop a die on disk, the fit
and learning again after an update growing with it); a few matches' dice teach all a set has to teach."""
FEATURE_SCALE = 4.0  # features are L2-normalised, then scaled so a weight of 1 moves a logit by about this
RIDGE = 0.01
"""L2 penalty on the correction: it keeps a few examples to a nudge. Small enough that 10 confirmed photos of dice
the second stage never saw teach it (``python -m tests.vision.bench_adapt --set tray_mixed_dice --head HEAD``), and
no smaller: a weaker penalty lets the learning pass more wrong values as sure."""
STEPS = 300
THROWN_DICE = 2  # a throw is of two dice: when people said two found things are dice, nothing else there is one


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
    crops: NDArray[np.uint8] = field(default_factory=lambda: _no_crops())
    """Each example's crop as the second stage read it, one for one with the labels; none when the examples
    came (all or some) from a profile saved before crops were kept."""
    _crop_files: list[tuple[str, int]] = field(default_factory=list, repr=False, compare=False)
    """The crop files saved beside ``_saved_as`` (name, crops in it), in order."""
    _saved_as: Path | None = field(default=None, repr=False, compare=False)

    @property
    def examples(self) -> int:
        return len(self.labels)

    @property
    def dice(self) -> int:
        """How many examples are dice: the rest were learned as not a die (struck out, or the reader's own
        finds, :func:`examples`)."""
        return int(np.count_nonzero(self.labels != CLASS_NOT_DIE))

    @property
    def relearnable(self) -> bool:
        """Whether another second stage can learn this set from its crops (every example has its crop)."""
        return self.examples > 0 and len(self.crops) == self.examples

    def add(
        self,
        features: NDArray[np.float32],
        base_logits: NDArray[np.float32],
        labels: NDArray[np.int64],
        crops: NDArray[np.uint8] | None = None,
    ) -> None:
        """Confirmed dice: their second-stage features, the model's own logits for them, the class people
        confirmed (0..5 for the values 1..6, 6 cocked) and, to keep, the crops they were read from. Refits at
        once."""
        f = np.asarray(features, np.float32)
        y = np.asarray(labels, np.int64)
        if len(y) == 0 and len(f) == 0:
            return  # a throw in which nothing was found teaches nothing
        if f.ndim != 2 or len(f) != len(y) or base_logits.shape != (len(y), len(CLASSES)):
            raise VisionError("confirmed dice: features, logits and labels must match one for one")
        if crops is not None and (crops.shape != (len(y), CROP, CROP, 3) or crops.dtype != np.uint8):
            raise VisionError(f"confirmed dice: one {CROP} x {CROP} colour crop a die, not {crops.shape}")
        if len(y) and (y.min() < 0 or y.max() >= len(CLASSES)):
            raise VisionError(f"confirmed dice: a class must lie in 0..{len(CLASSES) - 1}")
        if self.examples and f.shape[1] != self.features.shape[1]:
            raise VisionError("these features come from another model than the profile's")
        self.features = f if not self.examples else np.concatenate([self.features, f])
        self.base = (
            np.asarray(base_logits, np.float32) if not self.examples else np.concatenate([self.base, base_logits])
        )
        if crops is not None and len(self.crops) == self.examples:
            self.crops = np.concatenate([self.crops, crops])
        else:
            self.crops = _no_crops()  # some example without its crop: the set cannot be learned again whole
        self.labels = y if not self.examples else np.concatenate([self.labels, y])
        if self.examples > KEPT_DICE:
            self._let_go(self.examples - KEPT_DICE * 3 // 4)
        self.fit()

    def _let_go(self, oldest: int) -> None:
        """The ``oldest`` examples forgotten (``KEPT_DICE``); the next save writes the crops anew, in one file."""
        self.features, self.base, self.labels = self.features[oldest:], self.base[oldest:], self.labels[oldest:]
        self.crops = self.crops[oldest:]  # none kept: still none
        self._crop_files = []  # the files saved hold crops let go

    def learned_again(self, features: NDArray[np.float32], base_logits: NDArray[np.float32], model: str) -> None:
        """The same dice as read by another second stage (``model``): its features and logits for the kept
        crops, one for one; the fit is made again on them."""
        if not self.relearnable or features.shape[0] != self.examples or base_logits.shape != self.base.shape:
            raise VisionError("a dice set is learned again from each of its crops, one for one")
        self.features = np.asarray(features, np.float32)
        self.base = np.asarray(base_logits, np.float32)
        self.model = model
        self.fit()

    def fit(self) -> None:
        """Regularised logistic regression of the labels on the features, offset by the model's logits
        (full-batch gradient descent: deterministic; in float32, as the model's own numbers are, ``KEPT_DICE``
        examples take about 60 ms on one thread of a desktop core)."""
        x = normalised(self.features)
        n, d = x.shape
        k = len(CLASSES)
        w = np.zeros((k, d), np.float32)
        onehot = np.eye(k, dtype=np.float32)[self.labels]
        step, shrink = np.float32(0.5 / max(n, 1)), np.float32(1 - 0.5 * RIDGE)
        for _ in range(STEPS):
            p = softmax(self.base + x @ w.T)
            w = np.asarray(shrink * w - step * ((p - onehot).T @ x), np.float32)
        self.weights = w

    def logits(self, base_logits: NDArray[np.float32], features: NDArray[np.float32]) -> NDArray[np.float32]:
        if self.weights is None:
            return base_logits
        return np.asarray(base_logits + normalised(features) @ self.weights.T, np.float32)

    def save(self, path: Path) -> None:
        """Kept as ``path`` (a small JSON: name, count, the arrays' file) and the examples' arrays beside it
        (``<stem>.<digest>.npz``, float32), each written to a temporary file and renamed into place: the JSON's
        rename is the moment the new profile counts, so a power cut at any point leaves the old profile or the
        new one whole, never half of either. The crops new since the last save go into a file of their own
        (``<stem>.<digest>.crops.npz``, ``CROP_FILES``)."""
        name = _write_named(path, "", features=self.features, base=self.base, labels=self.labels.astype(np.int8))
        crop_files = self._saved_crop_files(path)
        meta = {
            "version": PROFILE_VERSION,
            "name": self.name,
            "examples": self.examples,
            "arrays": name,
            "model": self.model,
            "crops": [file for file, _ in crop_files],
        }
        _write_atomic(path, json.dumps(meta, ensure_ascii=False).encode())
        named = {name, *(file for file, _ in crop_files)}
        for old in _arrays_of(path):
            if old.name not in named:
                old.unlink(missing_ok=True)  # an earlier save's files, no longer named by the JSON
        self._crop_files, self._saved_as = crop_files, path

    def _saved_crop_files(self, path: Path) -> list[tuple[str, int]]:
        """The crop files that hold every crop once this save is done: those saved before (when they lie
        beside ``path`` and hold the first crops), then one with the crops new since; all in one file when
        there would be more than ``CROP_FILES``."""
        if not self.relearnable:
            return []
        files = list(self._crop_files) if self._saved_as == path else []
        saved = sum(count for _, count in files)
        if saved == len(self.crops):
            return files
        if saved > len(self.crops) or len(files) >= CROP_FILES:  # other crops since, or too many files: fold
            files, saved = [], 0
        files.append((_write_named(path, CROPS, crops=self.crops[saved:]), len(self.crops) - saved))
        return files

    @classmethod
    def load(cls, path: Path) -> DiceProfile:
        """A saved profile (this version's; one of version 2, without crops; or one of version 1, kept whole in
        JSON); VisionError naming the problem."""
        try:
            data = json.loads(path.read_text())
            version = data.get("version")
            profile = cls(str(data["name"]), model=str(data.get("model", "")))
            files: list[tuple[str, NDArray[Any]]] = []
            kept = None
            if version == 1:
                features, base, labels = (np.asarray(data[k]) for k in ("features", "base", "labels"))
            elif version in (2, PROFILE_VERSION):
                examples = int(data["examples"])
                features, base, labels = _read_arrays(_beside(path, data["arrays"]), examples)
                files = [(str(file), _read_named(_beside(path, file))["crops"]) for file in data.get("crops", [])]
                kept = np.concatenate([c for _, c in files]) if files else None
                if kept is not None and kept.shape != (examples, CROP, CROP, 3):
                    raise ValueError(f"its crop files hold {len(kept)} crops for {examples} examples")
            else:
                raise VisionError(f"{path}: a dice profile of another version ({version})")
            if len(labels):
                # before adding: a profile saved with more than KEPT_DICE lets the oldest go, and its files with them
                profile._crop_files, profile._saved_as = [(file, len(c)) for file, c in files], path
                profile.add(features.astype(np.float32), base.astype(np.float32), labels.astype(np.int64), kept)
            return profile
        except (OSError, ValueError, KeyError, TypeError, AttributeError, zipfile.BadZipFile) as exc:
            raise VisionError(f"{path}: not a readable dice profile ({exc})") from exc


def _read_arrays(path: Path, examples: int) -> tuple[NDArray[Any], NDArray[Any], NDArray[Any]]:
    """The examples' arrays a profile's JSON names."""
    arrays = _read_named(path)
    features, base, labels = arrays["features"], arrays["base"], arrays["labels"]
    if len(labels) != examples:
        raise ValueError(f"{path.name} holds {len(labels)} examples, the profile says {examples}")
    return features, base, labels


def _beside(profile: Path, name: object) -> Path:
    """A file a profile's JSON names: only ever one of its own, beside it."""
    file = str(name)
    if Path(file).name != file or "\\" in file or not file.endswith(".npz"):
        raise ValueError(f"the arrays {file!r} must lie beside the profile")
    return profile.parent / file


def _write_named(profile: Path, kind: str, **arrays: NDArray[Any]) -> str:
    """``arrays`` saved beside ``profile`` as ``<stem>.<digest><kind>.npz`` (atomically); the file's name."""
    out = io.BytesIO()
    np.savez(out, **arrays)  # type: ignore[arg-type]  # numpy's stubs read any keyword as allow_pickle
    blob = out.getvalue()
    name = f"{profile.stem}.{hashlib.sha256(blob).hexdigest()[:DIGEST]}{kind}.npz"
    _write_atomic(profile.parent / name, blob)
    return name


def _read_named(path: Path) -> dict[str, NDArray[Any]]:
    """The arrays of a file saved by ``_write_named``, checked against the digest in its name."""
    blob = path.read_bytes()
    digest = hashlib.sha256(blob).hexdigest()[:DIGEST]
    if not path.name.endswith((f".{digest}.npz", f".{digest}{CROPS}.npz")):
        raise ValueError(f"{path.name} is damaged (its content does not match its name)")
    with np.load(io.BytesIO(blob), allow_pickle=False) as arrays:
        return {key: arrays[key] for key in arrays.files}


def _arrays_of(path: Path) -> list[Path]:
    """Every arrays or crops file saved for the profile ``path`` (another set's name never matches)."""
    pattern = re.compile(re.escape(path.stem) + rf"\.[0-9a-f]{{{DIGEST}}}({re.escape(CROPS)})?\.npz")
    return [p for p in path.parent.glob(f"{glob.escape(path.stem)}.*.npz") if pattern.fullmatch(p.name)]


def _no_crops() -> NDArray[np.uint8]:
    return np.zeros((0, CROP, CROP, 3), np.uint8)


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
        return self.of_planes(face_contrast(crops))

    def of_planes(self, planes: NDArray[np.float32]) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        """Both outputs for the model's input itself (``face_contrast`` of the crops)."""
        n = len(planes)
        if n == 0:
            return np.zeros((0, len(CLASSES)), np.float32), np.zeros((0, 0), np.float32)
        outputs = self.model.run_all(planes)
        if len(outputs) < 2:
            raise VisionError(f"{self.model.model} gives no features: the match dice cannot be learned with it")
        return outputs[0].reshape(n, len(CLASSES)), outputs[1].reshape(n, -1)


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

    def can_read_with(self, profile: DiceProfile) -> bool:
        """Whether ``profile`` can be read with: learned here, or learnable again here from its crops."""
        return self.learned_here(profile) or profile.relearnable

    def use(self, profile: DiceProfile) -> None:
        """Read with ``profile`` from now on. A profile learned with another second stage (saved before a new
        model came with an update) is learned again from its crops first, in place; one that kept no crops
        (saved before they were kept) is refused, VisionError: its features would correct the wrong model."""
        if not self.can_read_with(profile):
            raise LearnedWithAnotherModel(profile.name)
        if not self.learned_here(profile):
            parts = [
                self.features.logits_and_features(profile.crops[i : i + RELEARN_BATCH])
                for i in range(0, profile.examples, RELEARN_BATCH)
            ]
            base, features = (np.concatenate(part) for part in zip(*parts))
            profile.learned_again(features, base, self.features.digest)
        self.profile = profile

    def probabilities(self, crops: NDArray[np.uint8]) -> NDArray[np.float32]:
        return self.probabilities_of(self.planes(crops))

    def planes(self, crops: NDArray[np.uint8]) -> NDArray[np.float32]:
        return face_contrast(crops)

    def probabilities_of(self, planes: NDArray[np.float32]) -> NDArray[np.float32]:
        base, f = self.features.of_planes(planes)
        return softmax(self.profile.logits(base, f)) if len(planes) else base

    def confirm(self, crops: NDArray[np.uint8], labels: NDArray[np.int64]) -> None:
        """People confirmed these dice: learn from them."""
        base, f = self.features.logits_and_features(crops)
        self.profile.add(f, base, labels, np.asarray(crops, np.uint8))
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
    image: NDArray[np.uint8],
    dice: tuple[DieReading, ...],
    confirmed: Sequence[Said],
    not_dice: Boxes = (),
) -> tuple[NDArray[np.uint8], NDArray[np.int64]]:
    """One confirmed throw as examples: each die the reader found (in its order, left to right) with what
    people said it is: its value, "cocked", or None where they struck it out as not a die. And, when people said
    two of them are dice (the pair thrown, so nothing else there is one), what the reader itself found and
    called not a die (``ThrowObservation.not_dice``), as not a die: without them the fit learns "not a die" only
    from the few things people strike out, and can lift the board's clutter to dice. With one die missing, a
    thing called not a die may be it, and teaches nothing."""
    labels = [label_of(said) for said in confirmed]
    if len(dice) != len(confirmed):
        raise VisionError(f"the reader found {len(dice)} dice and {len(confirmed)} were confirmed: say each one")
    boxes = [d.crop_box or d.box for d in dice]
    if sum(said is not None for said in confirmed) == THROWN_DICE:
        boxes += list(not_dice)
        labels += [CLASS_NOT_DIE] * len(not_dice)
    return second_stage_crops(image, boxes), np.array(labels, np.int64)
